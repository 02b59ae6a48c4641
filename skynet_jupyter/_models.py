"""Calling a model: a litellm model string or dict, or a plain callable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ModelReply:
    """A model's answer and what it cost (``cost_usd=None``: price unknown)."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0


def complete(model: Any, instructions: str, input: Any = None, **options: Any) -> ModelReply:
    """Ask ``model`` and return its reply with usage and price."""
    if callable(model):
        answer = model(instructions, input)
        if isinstance(answer, ModelReply):
            return answer
        return ModelReply(text=str(answer))
    raise NotImplementedError("litellm models are not wired yet")
