"""What counts as a model, and its name in messages: ``check_model``, ``describe_model``.

Below ``llm`` (which calls models) and ``settings`` (which accepts them in
``configure``): both check a model the same way, and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.secrets import redact, safe_repr, secrets_in

__all__ = ["check_model", "describe_model"]


def describe_model(model: Any) -> str:
    """A short, secret-free name for ``model`` (for messages)."""
    if isinstance(model, str):
        return redact(model)
    if isinstance(model, Mapping):
        return redact(str(model.get("model", "?")), secrets_in(model))
    if getattr(model, "names_itself", False):  # the stand-in: its repr says what it is
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
