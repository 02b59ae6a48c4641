"""Cases and values as plain JSON types, secrets redacted: ``to_dict`` and ``--json``."""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain, compress, repeat
from operator import attrgetter
from typing import Any

from .contract import safe_value_repr, unrepresentable
from .secrets import Redactor

__all__ = ["BIG_INT_BITS", "json_cases", "json_key", "json_ready", "json_value", "safe_str"]

Clean = Callable[[str], str]


# A ``report.CaseResult``: not imported, since the report imports this module to
# export itself, and a module the report needs never imports the report back.
CaseFields = Any


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


def json_ready(case: CaseFields, redact: Clean | None = None) -> dict[str, Any]:
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
        "run_paid_usd": case.run_paid_usd,
        "judge_paid_usd": case.judge_paid_usd,
        "cached": case.cached,
        "model_calls": case.model_calls,
        "retries": case.retries,
        "stand_in_calls": case.stand_in_calls,
    }


# --- A whole report's cases, a column at a time ------------------------------------


# The fields json_ready passes as they are, in C-level reads: slots, and the fields
# ``CaseResult`` declares rare (properties over one shared slot, ``_rare``).
_COMMON_FIELDS = attrgetter("index", "failed_step", "metric_ms")
_RARE_FIELDS = attrgetter(
    "run_ms",
    "cost_usd",
    "judge_cost_usd",
    "run_paid_usd",
    "judge_paid_usd",
    "cached",
    "model_calls",
    "retries",
    "stand_in_calls",
)
_SPARE = attrgetter("_rare")
# Values json_value gives back as they are (a str once the redactor leaves it alone, a
# float when finite, an int shorter than BIG_INT_BITS), by exact type.
_ATOMS = frozenset({str, float, int, bool, type(None)})
_NONE = type(None)
# From this many cases on, the cyclic collector waits while the dicts are built (below).
_PAUSE_COLLECTOR_FROM = 10_000
# Cases looked at together: their objects stay in the processor's cache from one field to
# the next, and a value that needs work sends only its run's column the slow way.
_RUN = 2_048


def json_cases(cases: Sequence[CaseFields], redact: Redactor) -> list[dict[str, Any]]:
    """``[json_ready(case, redact) for case in cases]``, the same dicts, built faster.

    A run of cases at a time (small enough to stay in the processor's cache while it
    is looked at field by field), each field that may need work (a string to redact,
    a non-finite float, a container) a column at a time: when none of the run's values
    of a field needs any, they are taken as they are (dicts copied, as ``json_ready``
    copies them) with C-level loops; otherwise that column of the run goes case by
    case the way ``json_ready`` goes.  One comprehension then builds the dicts.
    """
    with _collector_paused(len(cases)):
        if len(cases) <= _RUN:
            return _json_run(cases, redact)
        ready: list[dict[str, Any]] = []
        for start in range(0, len(cases), _RUN):
            ready += _json_run(cases[start : start + _RUN], redact)
        return ready


def _json_run(cases: Sequence[CaseFields], redact: Redactor) -> list[dict[str, Any]]:
    inputs = _ready_column(cases, "input", redact, _json_field)
    expected = _ready_column(cases, "expected", redact, _json_field)
    outputs = _ready_column(cases, "output", redact, _json_field)
    scores = _ready_column(cases, "score", redact, _json_field)
    named = _ready_column(cases, "scores", redact, _json_field)
    feedback = _ready_column(cases, "feedback", redact, _json_field)
    errors = _ready_column(cases, "error", redact, json_value)
    if _rare_at_defaults(cases):  # read once, not through a property per case and field
        rare: Iterable[tuple[Any, ...]] = repeat(_RARE_FIELDS(cases[0]), len(cases))
        tracebacks = [json_value(cases[0].traceback, redact)] * len(cases)
    else:
        rare = map(_RARE_FIELDS, cases)
        tracebacks = _ready_column(cases, "traceback", redact, json_value)
    return [
        {
            "case": index, "input": given, "expected": wanted, "output": output,
            "score": score, "scores": named_scores, "feedback": note,
            "passed": failed_step is None, "failed_step": failed_step, "error": error,
            "traceback": traceback, "metric_ms": metric_ms, "run_ms": run_ms,
            "cost_usd": cost_usd, "judge_cost_usd": judge_cost_usd,
            "run_paid_usd": run_paid, "judge_paid_usd": judge_paid, "cached": cached,
            "model_calls": model_calls, "retries": retries, "stand_in_calls": stand_in_calls,
        }
        for (
            (index, failed_step, metric_ms),
            (
                run_ms, cost_usd, judge_cost_usd, run_paid, judge_paid, cached, model_calls,
                retries, stand_in_calls,
            ),
            given, wanted, output, score, named_scores, note, error, traceback,
        ) in zip(
            map(_COMMON_FIELDS, cases), rare, inputs, expected, outputs, scores, named,
            feedback, errors, tracebacks, strict=True,
        )
    ]  # fmt: skip


def _rare_at_defaults(cases: Sequence[CaseFields]) -> bool:
    """Whether every case of the run has each rare field at its default (most runs).

    ``compact_record`` keeps a record's rare fields in its ``_rare`` slot, None until
    one is set; cases of one such class then all hold the same rare values.
    """
    kinds = set(map(type, cases))
    if len(kinds) != 1 or not isinstance(getattr(next(iter(kinds)), "run_ms", None), property):
        return False
    try:
        return not any(map(_SPARE, cases))
    except AttributeError:  # not a compact record after all
        return False


@contextmanager
def _collector_paused(count: int) -> Iterator[None]:
    """The cyclic garbage collector off while a big report's dicts are made.

    Every dict made here counts towards the collector's next run, and each full run
    walks the whole heap (the report's million cases too): measured, about 40% of
    the time of building the dicts.  They hold the report's values and one another,
    never a cycle, so nothing is lost by waiting.  Left as it is when already off.
    """
    if count < _PAUSE_COLLECTOR_FROM or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _ready_column(
    cases: Sequence[CaseFields], name: str, redact: Redactor, one: Callable[[Any, Clean], Any]
) -> list[Any]:
    """``[one(getattr(case, name), redact) for case in cases]``, without the calls when no
    value needs work."""
    values = list(map(attrgetter(name), cases))  # a new list: safe to hand out as it is
    try:
        kinds = set(map(type, values))
        if kinds <= _ATOMS:
            if _atoms_unchanged(values, kinds, redact):
                return values
        elif kinds <= {dict, _NONE}:
            dicts = _of_type(values, dict, kinds)
            keys = list(chain.from_iterable(dicts))
            items = list(chain.from_iterable(map(dict.values, dicts)))
            if (
                set(map(type, keys)) <= {str}  # every key a plain str
                and _atoms_unchanged(items, set(map(type, items)), redact)
                # then equal keys are the same key: each distinct one looked at once
                and redact.leaves_alone(list(set(keys)))
            ):
                if _NONE in kinds:
                    return [None if value is None else value.copy() for value in values]
                return list(map(dict.copy, values))
    except Exception:  # a value changed under us, a __hash__ that raises: the slow way says
        pass
    return [one(value, redact) for value in values]


def _of_type(values: list[Any], kind: type, kinds: set[type]) -> list[Any]:
    """The values of exact type ``kind`` (``kinds``: the types in ``values``)."""
    if kinds == {kind}:
        return values
    if kinds == {kind, _NONE}:
        return [value for value in values if value is not None]
    # picked at C speed: ``kinds`` are exact, and a bool among ints only meets a length test
    return list(compress(values, map(isinstance, values, repeat(kind))))


def _atoms_unchanged(values: list[Any], kinds: set[type], redact: Redactor) -> bool:
    """Whether ``json_value`` gives each value back as it is."""
    if not kinds <= _ATOMS:
        return False
    if float in kinds and not all(map(math.isfinite, _of_type(values, float, kinds))):
        return False
    if int in kinds and max(map(int.bit_length, _of_type(values, int, kinds))) >= BIG_INT_BITS:
        return False
    return str not in kinds or redact.leaves_alone(_of_type(values, str, kinds))
