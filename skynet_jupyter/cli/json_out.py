"""Strict JSON for ``--json``: one document, no NaN or Infinity anywhere in it.

A metric may return ``nan`` or ``inf``; JSON has no such numbers, and a parser
that refuses them (most do) would refuse the whole report.  Each becomes
``null``, and the document's ``non_finite`` says what it was and where.
"""

from __future__ import annotations

import json
import math
from itertools import chain, compress, repeat
from operator import attrgetter
from typing import Any

__all__ = ["print_json", "strict_document", "strict_json"]


def strict_json(document: dict[str, Any]) -> str:
    """``document`` as the text ``--json`` prints (refusing NaN and Infinity).

    A lone surrogate, a C1 control, U+2028 or a bidirectional override in a string is
    written as a JSON escape (``\\ud83d``): UTF-8 cannot hold the first, and a log
    reader may break a line at or be misled by the others (:func:`.log_text.json_text`).
    """
    from .log_text import json_text

    return json_text(json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False))


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
    cases = report.cases
    for key in ("input", "expected", "output", "scores", "score"):
        try:
            values = list(map(attrgetter(key), cases))
        except AttributeError:
            values = [getattr(case, key, None) for case in cases]
        if _all_finite(values):  # a million plain cases: nothing to walk
            continue
        for number, value in enumerate(values):
            _note_non_finite(value, f"/cases/{number}/{key}", found)
    shown = _replace_non_finite({k: v for k, v in document.items() if k != "cases"}, "", found)
    if "cases" in document:
        strict_cases = _strict_cases(document["cases"], found)
        document = {k: strict_cases if k == "cases" else shown[k] for k in document}
    else:
        document = shown
    document["non_finite"] = dict(sorted(found.items()))
    return document


# Values _replace_non_finite gives back as they are (a float only when finite), by exact type.
_PLAIN = frozenset({str, int, bool, float, type(None)})
_RUN = 2_048  # cases looked at together: one odd value sends only its run the slow way


def _all_finite(values: list[Any]) -> bool:
    """Whether ``values`` hold no NaN or infinity the walks below would find: each a
    plain value or a dict of plain values, looked at with C-level loops."""
    kinds = set(map(type, values))
    if dict not in kinds:
        return _plain_and_finite(values, kinds)
    items = list(chain.from_iterable(map(dict.values, (v for v in values if type(v) is dict))))
    return _plain_and_finite(values, kinds - {dict}) and _plain_and_finite(
        items, set(map(type, items))
    )


def _plain_and_finite(values: list[Any], kinds: set[type]) -> bool:
    """``values`` (of ``kinds``, dicts aside) all plain, and each float finite."""
    if not kinds <= _PLAIN:
        return False
    if float not in kinds:
        return True
    # the floats, picked at C speed (``kinds`` are exact: no subclass of float is here)
    return all(map(math.isfinite, compress(values, map(isinstance, values, repeat(float)))))


def _strict_cases(cases: Any, found: dict[str, str]) -> Any:
    """``_replace_non_finite(cases, "/cases", found)``, runs of plain cases kept as they are."""
    if type(cases) is not list or not all(type(case) is dict for case in cases):
        return _replace_non_finite(cases, "/cases", found)
    shown: list[Any] = []
    for start in range(0, len(cases), _RUN):
        run = cases[start : start + _RUN]
        if _all_finite(list(chain.from_iterable(map(dict.values, run)))):
            shown += run
        else:
            shown += (
                _replace_non_finite(case, f"/cases/{start + number}", found)
                for number, case in enumerate(run)
            )
    return shown


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
