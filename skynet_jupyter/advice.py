"""Advice on the feedback text itself: the optimizer learns from it."""

from __future__ import annotations

from typing import Any


def advise(report: Any) -> Any:
    """The ``feedback_advice`` step for ``report``, or None when there is nothing to say."""
    return None
