"""The metric contract: what ``score`` must return, checked as a plain function.

The return-value table of the contract (``shared/spec/CONTRACT.md``) is this
module's test table, row by row.
"""

from __future__ import annotations

import math
import numbers
import re
import reprlib
from typing import Any

from ..i18n import t

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

# The message ids of each step's title and of its fix, written out so that
# tests/i18n/test_message_ids.py finds every id the package uses.
STEP_TITLES = {
    METRIC_LOADS: "step.metric_loads",
    METRIC_SIGNATURE: "step.metric_signature",
    REWARD_SPEC: "step.reward_spec",
    RUN_FUNCTION: "step.run_function",
    METRIC_RETURN_VALUE: "step.metric_return_value",
    METRIC_TIME_LIMIT: "step.metric_time_limit",
    FEEDBACK_ADVICE: "step.feedback_advice",
}
STEP_HINTS = {
    METRIC_LOADS: "hint.metric_loads",
    METRIC_SIGNATURE: "hint.metric_signature",
    REWARD_SPEC: "hint.reward_spec",
    RUN_FUNCTION: "hint.run_function",
    METRIC_RETURN_VALUE: "hint.metric_return_value",
    METRIC_TIME_LIMIT: "hint.metric_time_limit",
}
# How to configure the model a case found missing, by role.
NO_MODEL_HINTS = {"task": "hint.no_task_model", "metric": "hint.no_metric_model"}


def step_title(step: str, lang: str | None = None) -> str:
    """The title of the step ``step`` (a step id) in ``lang``."""
    return t(STEP_TITLES[step], lang)


def unrepresentable(value: object, error: BaseException, method: str = "__repr__") -> str:
    """The placeholder shown for a value whose ``__repr__`` (or ``method``) raised."""
    return f"<unrepresentable {type(value).__qualname__}: {method} raised {type(error).__name__}>"


def safe_value_repr(value: object) -> str:
    """``repr(value)``, or a placeholder naming the type when its ``__repr__`` raises.

    Reports show user objects (inputs, outputs, what ``score`` returned); one
    broken ``__repr__`` must not break a report, its HTML or its JSON.
    """
    try:
        return repr(value)
    except Exception as error:
        return unrepresentable(value, error)


def _unsecret(text: str) -> str:
    """``text`` under the credential rule, before any cut: a key cut in the middle would no
    longer be recognised, and its tail would be shown (found by the attack on issue 46)."""
    from .secrets import redact

    return redact(text)


class _ShortRepr(reprlib.Repr):
    def repr_str(self, x: str, level: int) -> str:
        return super().repr_str(_unsecret(x), level)

    def repr_instance(self, x: Any, level: int) -> str:
        text = _unsecret(safe_value_repr(x))
        if len(text) > self.maxother:
            start = max(0, (self.maxother - 3) // 2)
            end = max(0, self.maxother - 3 - start)
            text = text[:start] + self.fillvalue + text[len(text) - end :]
        return text


_short = _ShortRepr()
_short.maxstring = 60
_short.maxother = 60
_short.maxlong = 40
_short.maxdict = _short.maxlist = _short.maxtuple = 4
_short.maxlevel = 3


def short_repr(value: object) -> str:
    """A repr cut to a readable length, for messages (a placeholder if ``__repr__`` raises)."""
    try:
        return _short.repr(value)
    except Exception as error:  # a container whose own __repr__ or __len__ raises
        return unrepresentable(value, error)


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


class WrongReturn(ValueError):
    """Raised by a metric adapter when what the metric it wraps returned cannot be read
    (``from_dspy_metric``: a DSPy metric that returned None, ``'C'`` or a NaN).

    The metric returned, it did not raise: its case fails at the return step with
    :meth:`message` (one sentence naming what came back), as a native metric's wrong
    return does, and its fix is :attr:`hint_id`'s sentence, never "catch the error".
    """

    hint_id = STEP_HINTS[METRIC_RETURN_VALUE]

    def message(self, lang: str | None = None) -> str:
        """The sentence, in ``lang`` (a subclass with message ids says it in each)."""
        return str(self)


# Why a score is refused (number_problem's answer), for the score and for a named score.
_SCORE_PROBLEMS = {
    "bool": "return.score_bool",
    "nan": "return.score_nan",
    "inf": "return.score_inf",
    "type": "return.score_type",
}
_NAMED_SCORE_PROBLEMS = {
    "bool": "return.named_score_bool",
    "nan": "return.named_score_nan",
    "inf": "return.named_score_inf",
    "type": "return.named_score_type",
}


def _fail(message_id: str, value: object, **fields: Any) -> ContractError:
    return ContractError(METRIC_RETURN_VALUE, message_id, value=short_repr(value), **fields)


def _not_a_pair(value: object) -> ContractError:
    """None and a bare number are said without their value: the same mistake on every
    case reads as one sentence ("the same as case 0"), not one per score."""
    if value is None:
        return ContractError(METRIC_RETURN_VALUE, "return.none")
    if _is_dspy_prediction(value):  # before the number: to_dspy_metric's are floats too
        return ContractError(METRIC_RETURN_VALUE, "return.dspy_prediction")
    if number_problem(value) is None:
        return ContractError(METRIC_RETURN_VALUE, "return.only_number")
    return _fail("return.not_pair", value, type=type(value).__name__)


def _is_dspy_prediction(value: object) -> bool:
    """A ``dspy.Prediction`` (a DSPy metric's return), known without importing dspy.

    Said in one line, with the fix: its repr spans several lines.
    """
    return any(
        cls.__name__ == "Prediction" and cls.__module__.startswith("dspy.")
        for cls in type(value).__mro__
    )


def number_problem(value: object) -> str | None:
    """Why ``value`` is not a score the optimizer can climb, or None if it is one.

    Numbers are ``int``, ``float`` and NumPy real scalars; ``bool``, NaN and
    infinities are refused, as is anything else (strings, Decimals, arrays).
    """
    kind = type(value)
    if isinstance(value, float) and kind is float:  # the common case, first and cheap
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
    # A tuple or a list of two, subclasses included (a namedtuple is a tuple); read
    # through the base type, so a subclass's own __len__ or __iter__ cannot get in the way.
    if isinstance(value, tuple):
        base: Any = tuple
    elif isinstance(value, list):
        base = list
    else:
        raise _not_a_pair(value)
    count = base.__len__(value)
    if count != 2:
        raise _fail("return.wrong_length", value, count=count)
    score, info = base.__getitem__(value, 0), base.__getitem__(value, 1)
    problem = number_problem(score)
    if problem is not None:
        raise _fail(_SCORE_PROBLEMS[problem], score, type=type(score).__name__)
    if not isinstance(info, dict):
        raise _fail("return.info_not_dict", info, type=type(info).__name__)
    # dict's own methods: a dict subclass overriding .get or __contains__ reads the same.
    feedback = dict.get(info, "feedback", _MISSING)
    if not isinstance(feedback, str):  # missing, or not text
        raise _feedback_error(info, feedback)
    if dict.__contains__(info, "scores"):
        _validate_named_scores(dict.__getitem__(info, "scores"))
    return float(score), info


def _feedback_error(info: dict[Any, Any], feedback: object) -> ContractError:
    """The error for side information whose ``feedback`` is missing or not a string."""
    if feedback is _MISSING:
        return _fail("return.no_feedback", info)
    return _fail("return.feedback_not_str", feedback, type=type(feedback).__name__)


def _validate_named_scores(scores: object) -> None:
    if not isinstance(scores, dict):
        raise _fail("return.scores_not_dict", scores, type=type(scores).__name__)
    for name, named in dict.items(scores):
        if not isinstance(name, str):
            raise _fail("return.score_name_not_str", name, type=type(name).__name__)
        problem = number_problem(named)
        if problem is not None:
            raise _fail(_NAMED_SCORE_PROBLEMS[problem], named, name=name, type=type(named).__name__)


_MISSING = object()


# --- how to fix a failed step: the words depend on why the case failed ---------------

# A frame line of a trimmed traceback (tracebacks.user_traceback): the last one is where
# the user's code raised.
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]*)", line (?P<line>\d+), in (?P<name>.+)$', re.M)
NOT_CONFIGURED = re.compile(r"\bModelNotConfigured: No (?P<role>task|metric) model")
# The metric used a name its own module does not define (a notebook variable, say).
_UNDEFINED = re.compile(r"^NameError: name '(?P<name>[^']+)' is not defined", re.M)
# The metric used ``expected`` as a value when it was None; the key it read, if one.
_NONE_USED = re.compile(r"'NoneType' object|NoneType")
_EXPECTED_KEY = re.compile(r"""\bexpected\s*(?:\[\s*|\.get\(\s*)(['"])(?P<key>[^'"\n]+)\1""")


def raised_at(traceback: str | None) -> str | None:
    """Where the user's code raised: ``"metric.py, line 12, in score"`` (None if unknown)."""
    frames = list(_FRAME.finditer(traceback or ""))
    if not frames:
        return None
    last = frames[-1]
    return f"{last['file']}, line {last['line']}, in {last['name'].strip()}"


def _expected_none_hint(step: str, case: Any, traceback: str, lang: str | None) -> str | None:
    """The fix when the metric broke on ``expected`` being None: no Output column was
    given, so the answers went to ``run`` as inputs (the column it read, if the data has
    it)."""
    if step != METRIC_RETURN_VALUE or getattr(case, "expected", 0) is not None:
        return None
    if not _NONE_USED.search(traceback) or "expected" not in traceback:
        return None
    given = getattr(case, "input", None)
    for found in _EXPECTED_KEY.finditer(traceback):
        if isinstance(given, dict) and found["key"] in given:
            return t("hint.expected_none_column", lang, column=found["key"])
    return t("hint.expected_none", lang)


def case_hint(step: str, case: Any, lang: str | None = None) -> str:
    """How to fix ``step``, for ``case``, the first case that failed there.

    A metric that raised is told where it raised, not how to shape a return
    value; a missing model is told how to configure it.  ``case`` is a
    :class:`~skynet_jupyter.core.report.CaseResult` (its ``error`` and ``traceback``).
    """
    own = getattr(case, "hint_id", None)
    if own:
        return t(own, lang)
    traceback = getattr(case, "traceback", None) or ""
    error = getattr(case, "error", None) or ""
    if step in (RUN_FUNCTION, METRIC_RETURN_VALUE):
        missing = NOT_CONFIGURED.search(traceback) or NOT_CONFIGURED.search(error)
        if missing is not None:
            return t(NO_MODEL_HINTS[missing["role"]], lang)
        expected_hint = _expected_none_hint(step, case, traceback, lang)
        if expected_hint is not None:
            return expected_hint
        undefined = _UNDEFINED.search(traceback) if step == METRIC_RETURN_VALUE else None
        if undefined is not None and undefined["name"] in error:
            return t("hint.name_undefined", lang, name=undefined["name"])
        if traceback:  # the run function or the metric raised (a bad return has no traceback)
            where = raised_at(traceback)
            if where is None:
                return t("hint.run_raised" if step == RUN_FUNCTION else "hint.metric_raised", lang)
            raised_here = "hint.run_raised_at" if step == RUN_FUNCTION else "hint.metric_raised_at"
            return t(raised_here, lang, where=where)
    return t(STEP_HINTS[step], lang)
