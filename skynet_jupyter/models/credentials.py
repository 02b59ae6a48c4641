"""A model's API key, missing or rejected: a configuration problem, said once, never retried.

Without its key, litellm still tries the call: OpenAI's client says "Missing
credentials" as an HTTP 500, which is retried, and every case of a check then
fails on its own with a traceback that blames the run function.  So a call
whose provider is known to need a key checks the environment first (without
importing litellm: the table below is the providers' own variable names), and
a key the provider refuses (HTTP 401 or 403, litellm's ``AuthenticationError``)
ends the run the same way: :class:`ModelKeyProblem` is a
:class:`~skynet_jupyter.models.settings.ModelNotConfigured`, so the engine says
it on the first case and starts no other.  The key itself is never shown.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

from ..i18n import t
from .call_error import ModelCallError
from .settings import ModelNotConfigured

__all__ = ["KEY_VARIABLES", "ModelKeyProblem", "key_problem", "missing_key"]

# The environment variables litellm reads a provider's key from (any one will do).
KEY_VARIABLES: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY", "PALM_API_KEY"),
    "mistral": ("MISTRAL_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "openrouter": ("OPENROUTER_API_KEY", "OR_API_KEY"),
    "xai": ("XAI_API_KEY",),
    "cohere": ("COHERE_API_KEY", "CO_API_KEY"),
    "together_ai": ("TOGETHERAI_API_KEY", "TOGETHER_API_KEY", "TOGETHER_AI_TOKEN"),
    "fireworks_ai": ("FIREWORKS_API_KEY", "FIREWORKS_AI_API_KEY", "FIREWORKSAI_API_KEY"),
}

# Model names litellm sends to a provider without a "provider/" prefix.
_BARE_NAMES: tuple[tuple[str, str], ...] = (
    ("gpt-", "openai"),
    ("chatgpt-", "openai"),
    ("o1", "openai"),
    ("o3", "openai"),
    ("o4-", "openai"),
    ("claude", "anthropic"),
)

# Where a call names its key itself: then the environment is not where it comes from.
_KEY_ARGUMENTS = ("api_key", "azure_ad_token")

# An OpenAI client built without a key says so before any request (litellm reports it as
# an HTTP 500 and retries it).
_NO_KEY_SAID = ("missing credentials", "api_key client option must be set")


_SAID_AT_MOST = 200  # characters of the provider's own words kept in the sentence


def _provider(model: str) -> str | None:
    if "/" in model:
        provider = model.split("/", 1)[0]
        return provider if provider in KEY_VARIABLES else None
    for start, provider in _BARE_NAMES:
        if model.startswith(start):
            return provider
    return None


def missing_key(call: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(provider, variable)`` when litellm call arguments ``call`` need a key that is
    neither given (``api_key=``) nor set in the environment; else None."""
    model = call.get("model")
    if not isinstance(model, str) or any(_given(call.get(name)) for name in _KEY_ARGUMENTS):
        return None
    provider = _provider(model)
    if provider is None:
        return None
    variables = KEY_VARIABLES[provider]
    if any(os.environ.get(variable, "").strip() for variable in variables):
        return None
    if _set_in_litellm(provider):
        return None
    return provider, variables[0]


def _given(value: Any) -> bool:
    """A key given in the call: blanks (a template left unfilled) are none."""
    return bool(value.strip()) if isinstance(value, str) else bool(value)


def _set_in_litellm(provider: str) -> bool:
    """A key set the litellm way (``litellm.api_key``, ``litellm.openai_key``...), read
    only when litellm is already imported: whoever set one imported it first."""
    litellm = sys.modules.get("litellm")
    if litellm is None:
        return False
    names = ("api_key", f"{provider}_key", f"{provider.replace('_ai', '')}_key")
    return any(
        isinstance(getattr(litellm, name, None), str) and getattr(litellm, name).strip()
        for name in names
    )


class ModelKeyProblem(ModelNotConfigured, ModelCallError):
    """A model's key is missing (``status`` None) or the provider refused it (401, 403).

    A configuration problem (a :class:`ModelNotConfigured`: the run stops on it) and a
    failed call (a :class:`ModelCallError`, as code that catches provider errors
    expects).  ``role`` (task, metric, reflection) is set by whoever asked; ``model``
    is the model's secret-free name and ``variable`` the environment variable to set.
    """

    def __init__(
        self, model: str, variable: str, status: int | None = None, said: str = ""
    ) -> None:
        self.model, self.variable, self.status, self.said = model, variable, status, said
        self.role = "task"
        # Whether a request with this key left and was refused (False: the key is missing,
        # or an earlier call of the run found it refused and it was not sent again).
        self.sent = status is not None
        # ModelCallError's fields, for code that reads them.
        self.kind = "MissingKey" if status is None else "AuthenticationError"
        self.provider_message, self.status_code, self.retries = said, status, 0
        RuntimeError.__init__(self, self.sentence())

    def sentence(self, lang: str | None = None) -> str:
        """What is wrong and how to fix it, in ``lang``."""
        if self.status is None:
            return t("model.key_missing", lang, model=self.model, variable=self.variable)
        status = f"HTTP {self.status}: {self.said}" if self.said else f"HTTP {self.status}"
        fields = {"model": self.model, "variable": self.variable, "status": status}
        return t("model.key_rejected", lang, **fields)

    def __reduce__(self) -> tuple[Any, ...]:  # crosses to and from worker processes whole
        return _rebuilt, (self.model, self.variable, self.status, self.said, self.role, self.sent)


def _rebuilt(
    model: str, variable: str, status: int | None, said: str, role: str, sent: bool = True
) -> ModelKeyProblem:
    problem = ModelKeyProblem(model, variable, status, said)
    problem.role, problem.sent = role, sent and status is not None
    return problem


def key_problem(
    error: BaseException, model_name: str, call: Mapping[str, Any], said: str
) -> ModelKeyProblem | None:
    """The key problem litellm's ``error`` is, if it is one: a refused key (401, 403, an
    ``AuthenticationError``) or an OpenAI client that had no key to send.  ``said`` is
    the provider's message with every secret already redacted."""
    status = getattr(error, "status_code", None)
    lineage = {cls.__name__ for cls in type(error).__mro__}
    told = str(getattr(error, "message", None) or error).lower()
    refused = status in (401, 403) or "AuthenticationError" in lineage
    if not refused and not any(words in told for words in _NO_KEY_SAID):
        return None
    model = call.get("model")
    provider = _provider(model) if isinstance(model, str) else None
    variable = KEY_VARIABLES[provider][0] if provider else "api_key"
    if not refused:
        return ModelKeyProblem(model_name, variable)
    code = status if isinstance(status, int) else 401
    problem = ModelKeyProblem(model_name, variable, code, said[:_SAID_AT_MOST])
    problem.sent = not getattr(error, "not_sent", False)  # models.first_contact.RefusedBefore
    return problem
