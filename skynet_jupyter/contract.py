"""The metric contract: what ``score`` must return, checked as a plain function.

The return-value table of the contract (``shared/spec/CONTRACT.md``) is this
module's test table, row by row.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from typing import Any

from .i18n import t

# Step ids of the contract check, in the order the check runs them.
METRIC_LOADS = "metric_loads"
METRIC_SIGNATURE = "metric_signature"
REWARD_SPEC = "reward_spec"
RUN_FUNCTION = "run_function"
METRIC_RETURN_VALUE = "metric_return_value"
METRIC_TIME_LIMIT = "metric_time_limit"
FEEDBACK_ADVICE = "feedback_advice"
STEP_IDS = (
    METRIC_LOADS,
    METRIC_SIGNATURE,
    REWARD_SPEC,
    RUN_FUNCTION,
    METRIC_RETURN_VALUE,
    METRIC_TIME_LIMIT,
)

_short = reprlib.Repr()
_short.maxstring = 60
_short.maxother = 60
_short.maxlong = 40
_short.maxdict = _short.maxlist = _short.maxtuple = 4
_short.maxlevel = 3


def short_repr(value: object) -> str:
    """A repr cut to a readable length, for messages."""
    try:
        return _short.repr(value)
    except Exception:  # a user object whose __repr__ raises
        return f"<{type(value).__name__} object>"


class ContractError(Exception):
    """A metric broke the contract (or could not be checked) at ``step``.

    ``message_id`` and ``fields`` let a report show the same reason in another
    language; ``str(error)`` is the English sentence.
    """

    def __init__(
        self,
        step: str,
        message_id: str,
        /,
        *,
        case: int | None = None,
        detail: str | None = None,
        **fields: Any,
    ) -> None:
        self.step = step
        self.message_id = message_id
        self.fields = fields
        self.case = case
        self.detail = detail  # e.g. the user's trimmed traceback
        super().__init__(self.message())

    def message(self, lang: str | None = None) -> str:
        """The reason, in ``lang``."""
        return t(self.message_id, lang, **self.fields)

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors cross process boundaries (Dask workers) with their data intact.
        return (_rebuild_error, (self.step, self.message_id, self.case, self.detail, self.fields))

    def _render_traceback_(self) -> list[str]:
        # IPython shows this instead of a traceback: one clean sentence.
        lines = [f"{type(self).__name__}: {self}"]
        if self.detail:
            lines.append(self.detail.rstrip())
        return lines


def _rebuild_error(
    step: str, message_id: str, case: int | None, detail: str | None, fields: dict[str, Any]
) -> ContractError:
    return ContractError(step, message_id, case=case, detail=detail, **fields)


def _fail(message_id: str, value: object, **fields: Any) -> ContractError:
    return ContractError(METRIC_RETURN_VALUE, message_id, value=short_repr(value), **fields)


def number_problem(value: object) -> str | None:
    """Why ``value`` is not a score the optimizer can climb, or None if it is one.

    Numbers are ``int``, ``float`` and NumPy real scalars; ``bool``, NaN and
    infinities are refused, as is anything else (strings, Decimals, arrays).
    """
    kind = type(value)
    if kind is float:  # the common case, first and cheap
        return None if math.isfinite(value) else ("nan" if value != value else "inf")
    if kind is int:
        return None
    from_numpy = kind.__module__ == "numpy"
    if isinstance(value, bool) or (from_numpy and kind.__name__ in ("bool", "bool_")):
        return "bool"
    if isinstance(value, int):
        return None
    if isinstance(value, float) or (from_numpy and isinstance(value, numbers.Real)):
        return _finite_problem(value)
    return "type"


def _finite_problem(value: Any) -> str | None:
    as_float = float(value)
    if math.isnan(as_float):
        return "nan"
    if math.isinf(as_float):
        return "inf"
    return None


def validate_return(value: object) -> tuple[float, dict[str, Any]]:
    """Check a ``score`` return value against the contract.

    Returns the pair as ``(score, side_info)`` with the score as a ``float``
    and the side information unchanged (extra keys are kept).  Raises
    :class:`ContractError` at step ``metric_return_value`` naming the rule
    broken, the offending value and how to fix it.
    """
    # Fast path for the common, valid shape: (float, {"feedback": str}).
    if type(value) is tuple and len(value) == 2:
        score, info = value
        if (
            type(score) is float
            and score - score == 0.0  # finite: NaN and infinities give NaN here
            and type(info) is dict
            and type(info.get("feedback")) is str
            and "scores" not in info
        ):
            return score, info
    kind = type(value)
    if kind is not tuple and kind is not list:
        raise _fail("return.not_pair", value, type=kind.__name__)
    if len(value) != 2:  # type: ignore[arg-type]
        raise _fail("return.wrong_length", value, count=len(value))  # type: ignore[arg-type]
    score, info = value  # type: ignore[misc]
    problem = number_problem(score)
    if problem is not None:
        raise _fail(f"return.score_{problem}", score, type=type(score).__name__)
    if not isinstance(info, dict):
        raise _fail("return.info_not_dict", info, type=type(info).__name__)
    feedback = info.get("feedback", _MISSING)
    if feedback is _MISSING:
        raise _fail("return.no_feedback", info)
    if not isinstance(feedback, str):
        raise _fail("return.feedback_not_str", feedback, type=type(feedback).__name__)
    if "scores" in info:
        _validate_named_scores(info["scores"])
    return float(score), info


def _validate_named_scores(scores: object) -> None:
    if not isinstance(scores, dict):
        raise _fail("return.scores_not_dict", scores, type=type(scores).__name__)
    for name, named in scores.items():
        if not isinstance(name, str):
            raise _fail("return.score_name_not_str", name, type=type(name).__name__)
        problem = number_problem(named)
        if problem is not None:
            raise _fail(
                f"return.named_score_{problem}", named, name=name, type=type(named).__name__
            )


_MISSING = object()
