"""Cases and values as plain JSON types, secrets redacted: ``to_dict`` and ``--json``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .contract import safe_value_repr, unrepresentable
from .secrets import Redactor

if TYPE_CHECKING:
    from .report import CaseResult

__all__ = ["BIG_INT_BITS", "json_key", "json_ready", "json_value", "safe_str"]

Clean = Callable[[str], str]

BIG_INT_BITS = 13_000  # about 4,000 digits: Python refuses to print longer ints


def safe_str(value: object) -> str:
    """``str(value)``, or a placeholder when the object's ``__str__`` raises."""
    try:
        return str(value)
    except Exception as error:
        return unrepresentable(value, error, "__str__")


# --- JSON ---------------------------------------------------------------------


_JSON_DEPTH = 100  # deeper (or circular) data is shown by its repr


def json_value(value: Any, redact: Clean, depth: int = 0, path: set[int] | None = None) -> Any:
    """``value`` as plain JSON types: strings redacted, non-finite floats as None,
    unknown objects as their repr (a placeholder when ``__repr__`` raises); a
    container inside itself, or nested too deep, as its repr."""
    kind = type(value)
    if kind is str:  # the common types first, by exact type: this runs for every value
        return redact(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):  # a str subclass as a plain str (its own __str__ unused)
        return redact(str.__str__(value))
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, int):
        return int(value) if value.bit_length() < BIG_INT_BITS else redact(safe_value_repr(value))
    path = set() if path is None else path
    if depth < _JSON_DEPTH and id(value) not in path and isinstance(value, dict | list | tuple):
        path.add(id(value))
        try:
            if isinstance(value, dict):
                return _json_dict(value, redact, depth, path)
            return [json_value(v, redact, depth + 1, path) for v in value]
        except Exception:  # a container changed under us, or a __iter__ that raises
            pass
        finally:
            path.discard(id(value))
    return redact(safe_value_repr(value))


def _json_dict(value: dict[Any, Any], redact: Clean, depth: int, path: set[int]) -> dict[str, Any]:
    shown = {}
    for k, v in dict.items(value):  # plain str keys and str or float values inline: most data
        key = redact(k) if type(k) is str else json_key(k, redact)
        kind = type(v)
        if kind is str:
            shown[key] = redact(v)
        elif kind is float and math.isfinite(v):
            shown[key] = v
        else:
            shown[key] = json_value(v, redact, depth + 1, path)
    return shown


def _json_field(value: Any, redact: Clean) -> Any:
    """``json_value(value, redact)``, with a case's usual fields (a flat dict, a str, a
    float, None) handled here: this runs several times per case of a million."""
    kind = type(value)
    if kind is dict:
        try:
            return _json_dict(value, redact, 0, {id(value)})
        except Exception:  # a container changed under us: as json_value does
            return json_value(value, redact)
    if kind is str:
        return redact(value)
    if value is None:
        return None
    return json_value(value, redact)


def json_key(key: Any, redact: Clean) -> str:
    if isinstance(key, str):
        return redact(key if type(key) is str else str.__str__(key))
    return redact(safe_str(key))


def json_ready(case: CaseResult, redact: Clean | None = None) -> dict[str, Any]:
    """A case as plain JSON types (unknown objects become their repr), secrets redacted.

    Values are whole here (``--json``, ``to_dict``): only the static HTML and
    the text are cut.  ``redact`` lets a caller gather the secrets once for
    many cases.
    """
    clean = redact or Redactor()
    error, traceback = case.error, case.traceback
    return {
        "case": case.index,
        "input": _json_field(case.input, clean),
        "expected": _json_field(case.expected, clean),
        "output": _json_field(case.output, clean),
        "score": _json_field(case.score, clean),
        "scores": _json_field(case.scores, clean),
        "feedback": _json_field(case.feedback, clean),
        "passed": case.failed_step is None,
        "failed_step": case.failed_step,
        "error": None if error is None else json_value(error, clean),
        "traceback": None if traceback is None else json_value(traceback, clean),
        "metric_ms": case.metric_ms,
        "run_ms": case.run_ms,
        "cost_usd": case.cost_usd,
        "judge_cost_usd": case.judge_cost_usd,
        "cached": case.cached,
        "model_calls": case.model_calls,
        "retries": case.retries,
        "stand_in_calls": case.stand_in_calls,
    }
