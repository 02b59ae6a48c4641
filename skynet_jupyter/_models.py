"""Calling a model: a litellm model string or dict, or a plain callable.

``complete(model, instructions, input, **options) -> ModelReply`` is what
``skynet.llm()`` calls once it knows which model answers (task or judge).

A model is one of:

- a litellm model string, ``"openai/gpt-4o-mini"``;
- a dict of litellm completion arguments, ``{"model": ..., "api_base": ...,
  "temperature": 0}`` (``input_cost_per_token`` / ``output_cost_per_token`` set
  a price litellm's map does not know);
- a callable ``(instructions, input)`` returning the reply as ``str``, or, to
  report usage or a price, a :class:`ModelReply` or a dict::

      {"text": "PASS", "input_tokens": 120, "output_tokens": 3, "cost_usd": 0.00002}

  ``"usage": {"prompt_tokens": ..., "completion_tokens": ...}`` may replace the
  two token counts, and ``"model": "gpt-4o-mini"`` (instead of ``cost_usd``)
  prices the tokens from litellm's map.  A plain ``str`` costs 0; tokens with
  no price make the cost unknown (``cost_usd=None``).  A returned chat
  completion object (litellm's or the OpenAI SDK's) is read the same way.

litellm (the optional extra ``[llm]``) is imported when a check or a call first
needs it (never by ``import skynet_jupyter``), with its offline price map.  A
call is retried for server errors and lost connections, not for client errors
or timeouts (``num_retries``, default 2, exponential backoff).  Rate limits
(429) go through the endpoint's shared limiter (``_rate_limit``): paced, the
provider's ``Retry-After`` honoured, retried up to 8 times.  A
provider error ends as :class:`ModelCallError`, whose message is the
provider's with secrets redacted (:func:`redact`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import inspect
import json
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ModelArguments",
    "ModelCallError",
    "ModelReply",
    "Redactor",
    "StandInModel",
    "check_model",
    "complete",
    "describe_model",
    "known_secrets",
    "protect_model",
    "redact",
    "remember_secrets",
    "safe_repr",
    "warm_up",
]

DEFAULT_RETRIES = 2
REDACTED = "[redacted]"


@dataclass(frozen=True, slots=True)
class ModelReply:
    """A model's answer and what it cost (``cost_usd=None``: price unknown).

    ``retries``: the rate-limit (429) answers retried to get it.  ``stand_in``:
    the answer came from an offline stand-in, not a real model (reports say so).
    """

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0
    retries: int = 0
    stand_in: bool = False


class ModelCallError(RuntimeError):
    """A model call failed at the provider (after the retries that apply).

    ``status_code`` is the HTTP status when there was one, ``kind`` litellm's
    name for the error (``RateLimitError``, ``AuthenticationError``, ...),
    ``provider_message`` what the provider said, with secrets redacted.
    """

    def __init__(
        self,
        model: str,
        kind: str,
        provider_message: str,
        status_code: int | None = None,
        retries: int = 0,
    ) -> None:
        self.model = model
        self.kind = kind
        self.provider_message = provider_message
        self.status_code = status_code
        self.retries = retries
        status = f"HTTP {status_code} " if status_code else ""
        after = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
        super().__init__(
            f"The model {model} failed{after} ({status}{kind}): {provider_message}".rstrip()
        )


# --- secrets --------------------------------------------------------------------

_SECRET_NAME = re.compile(
    r"(api[_-]?key|apikey|token|secret|password|passwd|authorization|credential|"
    r"access[_-]?key|private[_-]?key|session[_-]?key)",
    re.IGNORECASE,
)
_SECRET_PATTERNS = (
    # Authorization: Bearer abc / Basic abc
    (re.compile(r"\b([Bb]earer)\s+[A-Za-z0-9._~+/=:-]{6,}"), r"\1 " + REDACTED),
    (re.compile(r"\b(Basic)\s+[A-Za-z0-9+/]{8,}={0,2}"), r"\1 " + REDACTED),
    # api_key=..., "x-api-key": "...", Authorization: ..., password: ...
    (
        re.compile(
            r"""(["']?[\w-]*(?:api[_-]?key|apikey|token|secret|password|authorization)"""
            r"""["']?\s*[:=]\s*["']?)(?!\[redacted\])(?!Bearer\b|Basic\b)([^\s"',}&;)]{4,})""",
            re.IGNORECASE,
        ),
        r"\1" + REDACTED,
    ),
    # ?key=... in URLs (Google-style API keys)
    (re.compile(r"([?&](?:key|sig|signature)=)[^&\s\"']+", re.IGNORECASE), r"\1" + REDACTED),
    # well-known key shapes: sk-..., sk-ant-..., AIza..., ghp_..., xoxb-..., hf_..., AKIA...
    (re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}"), r"\1-" + REDACTED),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{20,}"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),
    (re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"), REDACTED),
    (re.compile(r"\bhf_[A-Za-z0-9]{20,}"), REDACTED),
    (re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"), REDACTED),
)
_MIN_SECRET = 6  # shorter values are too likely to be ordinary words

# user:password in a URL (http://user:PASS@host, redis://:PASS@host); only the password goes.
_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:)([^/\s@]+)(@)")
# Keys whose mapping holds HTTP headers: every value may carry a credential.
_HEADERS_KEY = re.compile(r"headers?$", re.IGNORECASE)
# Header values that are never secrets (kept when a setting is shown, not hunted in text).
_PLAIN_HEADERS = frozenset({"accept", "content-type", "user-agent", "accept-encoding"})
# A cheap first look (plain substring tests on the lowered text, fast even on megabytes):
# text without any of these cannot match a secret pattern.
_MAYBE_SECRET = (
    "bearer", "basic", "key", "token", "secret", "password", "authorization", "sig=",
    "signature=", "sk-", "pk-", "rk-", "aiza", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
    "xox", "hf_", "akia", "asia", "://",
)  # fmt: skip

# Every secret a configured model holds (api_key values, header values, URL passwords),
# remembered when the model is configured (protect_model), so redact() finds them in
# any text: an exception message, a traceback, a report.
_known_secrets: set[str] = set()
_known_lock = threading.Lock()


def _environment_secrets() -> list[str]:
    """Values of secret-looking variables (``*_API_KEY``, ...), and URL passwords in any
    variable (``OPENAI_API_BASE=http://user:PASS@host``)."""
    found = []
    for name, value in os.environ.items():
        if _SECRET_NAME.search(name):
            if len(value) >= _MIN_SECRET:
                found.append(value)
        elif "://" in value and "@" in value:
            found.extend(p for p in _url_passwords(value) if len(p) >= _MIN_SECRET)
    return found


def _with_token(value: str) -> Iterable[str]:
    yield value
    if " " in value.strip():  # "Bearer abc": the token alone too
        yield value.strip().split(" ", 1)[1].strip()


def _url_passwords(text: str) -> Iterable[str]:
    for match in _URL_PASSWORD.finditer(text):
        yield match.group(2)


def _secrets_in(value: Any, headers: bool = False) -> Iterable[str]:
    """The secrets of a model setting: values under secret-looking keys, header values
    (``extra_headers``, ``headers``), passwords in URLs (``api_base``)."""
    if isinstance(value, str):
        yield from _url_passwords(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            name = str(key)
            if isinstance(item, str):
                secret_name = _SECRET_NAME.search(name)
                if secret_name or (headers and name.lower() not in _PLAIN_HEADERS):
                    yield from _with_token(item)
                yield from _url_passwords(item)
            else:
                yield from _secrets_in(item, headers or bool(_HEADERS_KEY.search(name)))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _secrets_in(item, headers)


def remember_secrets(model: Any) -> None:
    """Remember the secrets ``model`` holds: :func:`redact` removes them from any text."""
    found = {s for s in _secrets_in(model) if len(s) >= _MIN_SECRET and s != REDACTED}
    if found:
        with _known_lock:
            _known_secrets.update(found)


def known_secrets(extra: Iterable[str] = ()) -> list[str]:
    """Every secret to hide now, longest first: ``extra``, the configured models',
    the values of secret-looking environment variables."""
    with _known_lock:
        known = set(_known_secrets)
    known.update(s for s in extra if s and len(s) >= _MIN_SECRET)
    known.update(_environment_secrets())
    return sorted(known, key=len, reverse=True)


class Redactor:
    """:func:`redact` with its list of secrets gathered once (for many texts in a row)."""

    __slots__ = ("secrets",)

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = known_secrets(secrets)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        lowered = text.lower()
        if not any(word in lowered for word in _MAYBE_SECRET):
            return text
        text = _URL_PASSWORD.sub(r"\1" + REDACTED + r"\3", text)
        for pattern, replacement in _SECRET_PATTERNS:
            text = pattern.sub(replacement, text)
        return text


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with API keys, tokens, passwords and authorization headers replaced by
    ``[redacted]``.

    Removes the given ``secrets``, every secret of a configured model (api_key
    values, header values, URL passwords), the values of environment variables
    whose names look secret (``*_API_KEY``, ``*_TOKEN``, ...), passwords in URLs,
    and anything shaped like a key or an authorization header.
    """
    return Redactor(secrets)(text)


def _masked(value: Any, headers: bool = False) -> Any:
    if isinstance(value, Mapping):
        shown = {}
        for key, item in value.items():
            name = str(key)
            hidden = _SECRET_NAME.search(name) or (
                headers and isinstance(item, str) and name.lower() not in _PLAIN_HEADERS
            )
            if hidden and item:
                shown[key] = REDACTED
            else:
                shown[key] = _masked(item, headers or bool(_HEADERS_KEY.search(name)))
        return shown
    if isinstance(value, str):
        return _URL_PASSWORD.sub(r"\1" + REDACTED + r"\3", value)
    if type(value) is list:
        return [_masked(item, headers) for item in value]
    if type(value) is tuple:
        return tuple(_masked(item, headers) for item in value)
    return value


def safe_repr(model: Any) -> str:
    """A repr of a model setting that never shows a secret."""
    if isinstance(model, Mapping):
        return redact(repr(_masked(model)), _secrets_in(model))
    return redact(repr(model))


class ModelArguments(dict):
    """A dict model (litellm completion arguments) whose repr never shows a secret."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        remember_secrets(self)

    def __repr__(self) -> str:
        return safe_repr(dict(self))

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through __init__ in another process (a Dask worker): its redact()
        # then knows these secrets too.
        return (ModelArguments, (dict(self),))


def protect_model(model: Any) -> Any:
    """``model``, with a dict model copied into a :class:`ModelArguments` (safe to show)."""
    if isinstance(model, Mapping) and not isinstance(model, ModelArguments):
        return ModelArguments(model)
    if isinstance(model, str):
        remember_secrets(model)  # a model string may be a URL with a password
    return model


def describe_model(model: Any) -> str:
    """A short, secret-free name for ``model`` (for messages)."""
    if isinstance(model, str):
        return redact(model)
    if isinstance(model, Mapping):
        return redact(str(model.get("model", "?")), _secrets_in(model))
    if isinstance(model, StandInModel):
        return repr(model)
    name = getattr(model, "__qualname__", None) or type(model).__qualname__
    return f"callable {name}"


def check_model(model: Any, setting: str = "model") -> Any:
    """``model`` if it is a model (string, litellm dict or callable), else a TypeError."""
    if isinstance(model, str) and model.strip():
        return model
    if isinstance(model, Mapping) and isinstance(model.get("model"), str) and model["model"]:
        return model
    if callable(model) and not isinstance(model, type):
        return model
    if isinstance(model, Mapping):
        problem = "a dict without a 'model' key (the litellm model string)"
    else:
        problem = f"{safe_repr(model)[:60]} ({type(model).__name__})"
    raise TypeError(
        f"{setting} must be a litellm model string ('openai/gpt-4o-mini'), a dict of "
        "litellm completion arguments with a 'model' key, or a callable "
        f"(instructions, input) -> str; got {problem}."
    )


# --- calling ----------------------------------------------------------------------


def complete(model: Any, instructions: str, input: Any = None, **options: Any) -> ModelReply:
    """Ask ``model`` and return its reply with usage and price.

    ``options`` go to litellm (``temperature=0``, ``max_tokens=...``,
    ``num_retries=...``) or to a callable model that accepts them.
    """
    if isinstance(model, str | Mapping):
        return _complete_litellm(check_model(model), instructions, input, options)
    if callable(model):
        return _complete_callable(model, instructions, input, options)
    check_model(model)
    raise AssertionError("unreachable")


def render_input(input: Any) -> str:
    """The user message for ``input``: text as is, data as JSON."""
    if isinstance(input, str):
        return input
    if isinstance(input, bytes):
        return input.decode("utf-8", errors="replace")
    if isinstance(input, Mapping | list | tuple):
        return json.dumps(input, ensure_ascii=False, indent=2, default=str)
    return str(input)


def messages_for(instructions: str, input: Any) -> list[dict[str, str]]:
    """System: the instructions; user: the input (the instructions alone, without input)."""
    if input is None:
        return [{"role": "user", "content": str(instructions)}]
    messages = []
    if instructions:
        messages.append({"role": "system", "content": str(instructions)})
    messages.append({"role": "user", "content": render_input(input)})
    return messages


def _complete_callable(
    model: Callable[..., Any], instructions: str, input: Any, options: dict[str, Any]
) -> ModelReply:
    if options:
        _check_accepts(model, options)
        answer = model(instructions, input, **options)
    else:
        answer = model(instructions, input)
    return reply_from(answer, describe_model(model))


def _check_accepts(model: Callable[..., Any], options: dict[str, Any]) -> None:
    try:
        parameters = inspect.signature(model).parameters.values()
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return
    names = {p.name for p in parameters}
    unknown = sorted(set(options) - names)
    if unknown:
        raise TypeError(
            f"llm() got options {', '.join(unknown)}, but the model {describe_model(model)} "
            "does not accept them (give it **options, or call llm() without them)."
        )


def reply_from(answer: Any, source: str = "the model") -> ModelReply:
    """A :class:`ModelReply` from what a callable model returned."""
    if isinstance(answer, ModelReply):
        return answer
    if isinstance(answer, str):
        return ModelReply(text=answer)
    if isinstance(answer, Mapping):
        return _reply_from_mapping(answer, source)
    if hasattr(answer, "choices") and hasattr(answer, "usage"):
        return _reply_from_response(answer, getattr(answer, "model", None))
    if answer is None:
        raise TypeError(f"{source} returned None; a model returns the reply text (a str).")
    return ModelReply(text=str(answer))


def _reply_from_mapping(answer: Mapping[str, Any], source: str) -> ModelReply:
    if not isinstance(answer.get("text"), str):
        raise TypeError(
            f"{source} returned a dict without a 'text' string; return the reply text, or "
            "{'text': ..., 'input_tokens': ..., 'output_tokens': ..., 'cost_usd': ...}."
        )
    usage = answer.get("usage") or {}
    input_tokens = int(answer.get("input_tokens", usage.get("prompt_tokens", 0)) or 0)
    output_tokens = int(answer.get("output_tokens", usage.get("completion_tokens", 0)) or 0)
    if "cost_usd" in answer:
        cost = answer["cost_usd"]
        cost = None if cost is None else float(cost)
    elif input_tokens or output_tokens:
        name = answer.get("model")
        cost = _map_price(str(name), input_tokens, output_tokens) if name else None
    else:
        cost = 0.0
    return ModelReply(answer["text"], input_tokens, output_tokens, cost)


def _map_price(model: str, input_tokens: int, output_tokens: int) -> float | None:
    """The price of these tokens in litellm's map, or None when the model is not in it."""
    litellm = _litellm()
    try:
        prompt, completion = litellm.cost_per_token(
            model=model, prompt_tokens=input_tokens, completion_tokens=output_tokens
        )
    except Exception:  # litellm raises when the model is not in its map
        return None
    return float(prompt) + float(completion)


def _reply_from_response(response: Any, model: str | None) -> ModelReply:
    """Text, usage and price of a chat completion (litellm's or the OpenAI SDK's)."""
    choices = getattr(response, "choices", None) or []
    message = getattr(choices[0], "message", None) if choices else None
    text = getattr(message, "content", None) or ""
    usage = getattr(response, "usage", None)
    input_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
    output_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost") if isinstance(hidden, Mapping) else None
    if cost is None and (input_tokens or output_tokens):
        cost = _map_price(
            str(getattr(response, "model", None) or model), input_tokens, output_tokens
        )
    if not (input_tokens or output_tokens) and not cost:
        cost = None  # no usage reported: the call cost something we cannot know
    return ModelReply(text, input_tokens, output_tokens, None if cost is None else float(cost))


# --- litellm ----------------------------------------------------------------------

# Errors that retrying cannot fix, or that may already have been billed (timeouts).
_NOT_RETRIED = (
    "AuthenticationError",
    "BadRequestError",
    "NotFoundError",
    "ContentPolicyViolationError",
    "Timeout",
)
_LITELLM_PREFIX = re.compile(r"^\s*litellm\.\w+:\s*(?:\w+Error:\s*)?(?:\w+Exception\s*-\s*)?")


def _litellm() -> Any:
    """litellm, imported on first use with its offline price map."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError:
        raise ImportError(
            "A litellm model needs litellm: pip install 'skynet-jupyter[llm]' "
            "(or use a callable model, such as skynet_jupyter.StandInModel, offline)."
        ) from None
    litellm.suppress_debug_info = True  # no "Give Feedback / Get Help" prints in notebooks
    return litellm


def warm_up(*models: Any) -> None:
    """Import litellm now if one of ``models`` is a litellm model (once per process).

    Called before a case's timed phases, so the one-time import (seconds) counts
    neither toward the first case's run time nor toward the metric time limit.
    """
    if "litellm" in sys.modules or not any(isinstance(m, str | Mapping) for m in models):
        return
    try:
        litellm = _litellm()
    except ImportError:  # not installed: llm() says so when called
        return
    with contextlib.suppress(Exception):
        importlib.import_module("httpcore")  # the HTTP client's transport, loaded lazily
        hooks = ("callbacks", "success_callback", "failure_callback", "input_callback")
        if not any(getattr(litellm, name, None) for name in hooks):
            # litellm's own offline answer (no request, no cost) loads what its first
            # call loads lazily; skipped when the user has logging hooks it would reach.
            litellm.completion(
                model="openai/gpt-4o-mini",
                messages=[{"role": "user", "content": "warm up"}],
                mock_response="ok",
            )


def retry_policy(retries: int) -> dict[str, int]:
    """litellm retry counts: ``retries`` for server errors and lost connections.

    Client errors (400, 401, 404) are not retried, nor are timeouts: the provider
    may have done, and billed, the work.  Nor are rate limits (429) by litellm:
    the endpoint's shared limiter retries them (``_rate_limit.send``), paced.
    """
    return {
        "RateLimitErrorRetries": 0,
        "InternalServerErrorRetries": retries,
        "ServiceUnavailableErrorRetries": retries,
        "TimeoutErrorRetries": 0,
        "AuthenticationErrorRetries": 0,
        "BadRequestErrorRetries": 0,
        "NotFoundErrorRetries": 0,
        "ContentPolicyViolationErrorRetries": 0,
        "DefaultRetries": retries,  # 502, lost connections, other provider failures
    }


def litellm_arguments(
    model: str | Mapping[str, Any], instructions: str, input: Any, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The keyword arguments of ``litellm.completion`` for one ``llm()`` call."""
    call: dict[str, Any] = {"retry_strategy": "exponential_backoff_retry"}
    call.update({"model": model} if isinstance(model, str) else model)
    call.update(options)
    if "messages" in call:
        raise TypeError("llm() builds the messages from instructions and input; drop 'messages'.")
    if call.get("stream"):
        raise TypeError("llm() returns the whole reply; streaming (stream=True) is not supported.")
    retries = call.pop("num_retries", DEFAULT_RETRIES)
    if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
        raise TypeError(f"num_retries must be a whole number of 0 or more, got {retries!r}.")
    # One retry layer per error, litellm's with this policy (429s: the endpoint's limiter,
    # which gets them with RateLimitErrorRetries 0): num_retries would also turn on the
    # HTTP client's own retries (doubling the attempts, and retrying timeouts).
    call.setdefault("retry_policy", retry_policy(retries))
    call.setdefault("max_retries", 0)
    call["messages"] = messages_for(instructions, input)
    return call


def _complete_litellm(
    model: str | Mapping[str, Any], instructions: str, input: Any, options: dict[str, Any]
) -> ModelReply:
    litellm = _litellm()
    call = litellm_arguments(model, instructions, input, options)
    from . import _rate_limit  # one limiter per endpoint, shared by every thread

    try:
        sent = _rate_limit.send(call, lambda: litellm.completion(**call))
    except _rate_limit.CallFailed as failed:
        raise _call_error(failed.error, model, call, failed.retries, failed.note) from None
    reply = _reply_from_response(sent.response, call["model"])
    return dataclasses.replace(reply, retries=sent.retries) if sent.retries else reply


def _call_error(
    exc: BaseException,
    model: Any,
    call: Mapping[str, Any],
    rate_limit_retries: int = 0,
    note: str = "",
) -> ModelCallError:
    secrets = list(_secrets_in(call))
    kind = type(exc).__name__
    message = getattr(exc, "message", None) or str(exc) or kind
    message = _LITELLM_PREFIX.sub("", str(message)).strip()
    status = getattr(exc, "status_code", None)
    lineage = {cls.__name__ for cls in type(exc).__mro__}
    retried = not lineage.intersection(_NOT_RETRIED) and status != 404
    policy = call.get("retry_policy")
    retries = 0
    if retried and isinstance(policy, Mapping):
        retries = policy.get(f"{kind}Retries", policy.get("DefaultRetries")) or 0
    if note:
        message = f"{message} {note}"
    return ModelCallError(
        describe_model(model),
        kind,
        redact(message, secrets),
        status if isinstance(status, int) else None,
        retries + rate_limit_retries,
    )


# --- the offline stand-in -----------------------------------------------------------


class StandInModel:
    """An offline **stand-in** for a real model, for tutorials and tests.

    It answers without network access, exactly what it is told to answer
    (``sj.StandInModel("PASS")`` replies ``"PASS"``), so a metric that reads
    the verdict works as it will with a real model; reports and views count
    and mark the calls a stand-in answered instead.  ``answer`` is a fixed
    text, or a function ``(instructions, input) -> str``; without one, the
    reply describes the request.  ``tag`` is put before every reply (none by
    default).  Tokens are counted as words; the cost is 0 unless you give
    prices per token.  ``calls`` keeps every ``(instructions, input)`` asked.

        sj.configure(metric_model=sj.StandInModel("PASS"))   # offline
        sj.configure(metric_model="openai/gpt-4o-mini")       # the real one
    """

    def __init__(
        self,
        answer: str | Callable[[str, Any], str] | None = None,
        *,
        tag: str = "",
        input_cost_per_token: float = 0.0,
        output_cost_per_token: float = 0.0,
        name: str = "stand-in",
    ) -> None:
        if answer is not None and not isinstance(answer, str) and not callable(answer):
            raise TypeError("answer must be a str or a function (instructions, input) -> str.")
        self.answer = answer
        self.tag = tag
        self.input_cost_per_token = float(input_cost_per_token)
        self.output_cost_per_token = float(output_cost_per_token)
        self.name = name
        self.calls: list[tuple[str, Any]] = []

    def __call__(self, instructions: str, input: Any = None) -> ModelReply:
        self.calls.append((instructions, input))  # list.append is atomic: safe across cases
        if self.answer is None:
            text = (
                f"A stand-in reply, not a real model's, to {_short(instructions)} "
                f"about {_short(render_input(input))}."
            )
        elif isinstance(self.answer, str):
            text = self.answer
        else:
            text = str(self.answer(instructions, input))
        text = self.tag + text
        asked = sum(len(m["content"].split()) for m in messages_for(instructions, input))
        said = len(text.split())
        cost = asked * self.input_cost_per_token + said * self.output_cost_per_token
        return ModelReply(text, asked, said, cost, stand_in=True)

    def __repr__(self) -> str:
        return f"StandInModel({self.name!r}, offline)"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")
