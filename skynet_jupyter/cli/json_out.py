"""Strict JSON for ``--json``: one document, no NaN or Infinity anywhere in it.

A metric may return ``nan`` or ``inf``; JSON has no such numbers, and a parser
that refuses them (most do) would refuse the whole report.  Each becomes
``null``, and the document's ``non_finite`` says what it was and where.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["print_json", "strict_document", "strict_json"]


def strict_json(document: dict[str, Any]) -> str:
    """``document`` as the text ``--json`` prints (refusing NaN and Infinity)."""
    return json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False)


def print_json(document: dict[str, Any]) -> None:
    print(strict_json(document))


def strict_document(report: Any) -> dict[str, Any]:
    """``report.to_dict()`` as strict JSON: no NaN or Infinity.

    Each such value becomes null, and ``non_finite`` maps its place (a JSON
    Pointer) to what it was: ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``.
    """
    document = report.to_dict()
    found: dict[str, str] = {}
    # to_dict already nulls non-finite values inside the cases: find what they were.
    for number, case in enumerate(report.cases):
        for key in ("input", "expected", "output", "scores", "score"):
            _note_non_finite(getattr(case, key, None), f"/cases/{number}/{key}", found)
    document = _replace_non_finite(document, "", found)
    document["non_finite"] = dict(sorted(found.items()))
    return document


def _spelled(value: float) -> str:
    return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")


def _pointer(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _note_non_finite(value: Any, where: str, found: dict[str, str], depth: int = 0) -> None:
    if depth > 100:
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            found[where] = _spelled(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _note_non_finite(item, f"{where}/{_pointer(key)}", found, depth + 1)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _note_non_finite(item, f"{where}/{index}", found, depth + 1)


def _replace_non_finite(value: Any, where: str, found: dict[str, str]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        found[where] = _spelled(value)
        return None
    if isinstance(value, dict):
        return {
            k: _replace_non_finite(v, f"{where}/{_pointer(k)}", found) for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_replace_non_finite(v, f"{where}/{i}", found) for i, v in enumerate(value)]
    return value
