"""Declaring a magic's options: groups of ``magic_arguments`` decorators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["listed_options"]


def listed_options(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Apply magic_arguments decorators so that ``%magic?`` lists them in the order given."""

    def apply(func: Any) -> Any:
        for decorate in reversed(decorators):
            func = decorate(func)
        return func

    return apply
