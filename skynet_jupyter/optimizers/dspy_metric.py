"""A metric written for DSPy or GEPA, taken as it is: ``from_dspy_metric``.

DSPy calls a metric as ``metric(example, prediction, trace=None, pred_name=None,
pred_trace=None)`` and lets it return a number, a bool or
``dspy.Prediction(score=..., feedback=...)``.  Skynet calls
``score(input, output, expected)`` and wants ``(score, {"feedback": ...})``.
``from_dspy_metric(metric)`` is the bridge, a ``score`` that works wherever a
Skynet metric does (``check``, ``evaluate``, the magics, ``to_gepa_adapter``,
``skynet-check`` with ``score = from_dspy_metric(metric)`` in ``metric.py``,
process workers and executors: it pickles):

- the case's ``input`` and ``expected`` become one ``dspy.Example``, the input
  fields marked as its inputs (``with_inputs``), the expected ones its labels;
- ``output`` becomes a ``dspy.Prediction``: a prediction stays one, a dict
  gives its fields (``from_dspy_program`` gives a dict for a prediction with
  several fields), and a single value is the field ``output_field`` names, by
  default the case's one expected field (``label`` for ``{"label": ...}``);
- the metric is called as ``dspy.Evaluate`` calls it, ``metric(example,
  prediction)``, and what it returns is read as GEPA reads it: a number or a
  bool is the score, with no feedback; a Prediction or a dict gives ``score``,
  ``feedback`` (None is none) and ``objective_scores`` (Skynet's named
  ``scores``).  Anything else raises :class:`DSPyReturnError`, one sentence
  naming what came back and what a DSPy metric returns: the case fails at the
  return step, as a native metric's wrong return does (it returned, it did not
  raise).

A metric that writes feedback only for a predictor (it branches on
``pred_name``, as the Facility Support Analyzer tutorial's does) gives none
to ``metric(example, prediction)``: ``predictors=`` (the program, or the
predictor names) asks it once per predictor, and the case's feedback is each
predictor's, under its name.  The score stays the program's, as in GEPA.
There is no trace outside DSPy: ``trace`` and ``pred_trace`` are None.

``to_dspy_metric(from_dspy_metric(metric))`` is the user's metric again, and
``from_dspy_metric(to_dspy_metric(score))`` the Skynet metric again.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..core.contract import WrongReturn, number_problem, short_repr
from ..core.metric import Metric
from ..i18n import t

__all__ = [
    "DSPyMetric",
    "DSPyMetricError",
    "DSPyReturnError",
    "from_dspy_metric",
    "import_dspy",
    "read_dspy_return",
]


def import_dspy() -> Any:
    """The ``dspy`` module, imported when first needed (it is the optional extra ``[dspy]``)."""
    try:
        import dspy
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "The DSPy adapter needs dspy: pip install 'skynet-jupyter[dspy]'."
        ) from exc
    return dspy


class DSPyMetricError(ValueError):
    """A DSPy metric that cannot be adapted, or whose return cannot be read: one sentence.

    ``message_id`` and ``fields`` give the same sentence in another language.
    """

    def __init__(self, message_id: str, /, **fields: Any) -> None:
        self.message_id = message_id
        self.fields = fields
        super().__init__(self.message())

    def message(self, lang: str | None = None) -> str:
        return t(self.message_id, lang, **self.fields)

    def __reduce__(self) -> tuple[Any, ...]:
        # Crosses to and from process workers with its sentence intact.
        return (_rebuild_error, (type(self), self.message_id, self.fields))


def _rebuild_error(
    kind: type[DSPyMetricError], message_id: str, fields: dict[str, Any]
) -> DSPyMetricError:
    return kind(message_id, **fields)


class DSPyReturnError(DSPyMetricError, WrongReturn):
    """What a DSPy metric returned cannot be read: it returned, it did not raise.

    A case fails at the return step with this sentence, which names what came back,
    and the fix says what a DSPy metric returns (``WrongReturn``).
    """

    hint_id = "hint.dspy_return"


def _shown(value: object) -> str:
    """A value as a message shows it: short, and on one line whatever its repr."""
    return " ".join(short_repr(value).split())


def _name_of(metric: object) -> str:
    name = getattr(metric, "__name__", None)
    return name if isinstance(name, str) and name else type(metric).__name__


# --- what the metric returns ------------------------------------------------------


def read_dspy_return(value: object, function: str = "metric") -> tuple[float, dict[str, Any]]:
    """``(score, {"feedback": ...})`` from what a DSPy metric returned, as GEPA reads it.

    A number or a bool is the score, with empty feedback.  A ``dspy.Prediction``
    or a dict gives ``score`` (a number or a bool), ``feedback`` (a str; None or
    missing is empty) and ``objective_scores`` (kept as the named ``scores``).
    Raises :class:`DSPyReturnError` for anything else; ``function`` is the
    metric's name, for that sentence.
    """
    record = _record_of(value)
    if record is None:
        if value is None:
            raise DSPyReturnError("dspy.return_none", function=function)
        return _score(value, function, whole=True), {"feedback": ""}
    if "score" not in record:
        raise DSPyReturnError("dspy.no_score", function=function, value=_shown(value))
    score = _score(record["score"], function, whole=False)
    feedback = record.get("feedback")
    if feedback is None:
        feedback = ""
    elif not isinstance(feedback, str):
        raise DSPyReturnError(
            "dspy.feedback_type",
            function=function,
            value=_shown(feedback),
            type=type(feedback).__name__,
        )
    info: dict[str, Any] = {"feedback": feedback}
    objectives = record.get("objective_scores")
    if objectives is not None:
        named = _objective_scores(objectives, function)
        if named:
            info["scores"] = named
    return score, info


def _record_of(value: object) -> dict[Any, Any] | None:
    """The fields of a dspy.Prediction (or Example) or a mapping; None for anything else."""
    store = getattr(value, "_store", None)
    if isinstance(store, dict) and _is_dspy_example(value):
        return store
    if isinstance(value, Mapping):
        return dict(value)
    return None


def _is_dspy_example(value: object) -> bool:
    """Whether ``value`` is a dspy.Example or Prediction, without importing dspy."""
    return any(
        cls.__name__ in ("Example", "Prediction") and cls.__module__.startswith("dspy.")
        for cls in type(value).__mro__
    )


def _score(value: object, function: str, *, whole: bool) -> float:
    """A DSPy score as a float: a number, or a bool (DSPy's pass/fail metrics)."""
    problem = number_problem(value)
    if problem == "bool":
        return 1.0 if value else 0.0
    if problem == "type":
        message_id = "dspy.return_type" if whole else "dspy.score_type"
        raise DSPyReturnError(
            message_id, function=function, value=_shown(value), type=type(value).__name__
        )
    try:
        score = float(value)  # type: ignore[arg-type]  # number_problem said it is a number
    except OverflowError:  # an int too large for a float: 10**400
        score = math.inf
    if problem is not None or not math.isfinite(score):
        raise DSPyReturnError("dspy.score_not_finite", function=function, value=_shown(value))
    return score


def _objective_scores(value: object, function: str) -> dict[str, float]:
    """GEPA's ``objective_scores`` as Skynet's named ``scores``: names to finite numbers."""
    if not isinstance(value, Mapping):
        raise DSPyReturnError("dspy.objective_scores", function=function, value=_shown(value))
    named: dict[str, float] = {}
    for name, number in value.items():
        if not isinstance(name, str):
            raise DSPyReturnError("dspy.objective_scores", function=function, value=_shown(value))
        try:
            named[name] = _score(number, function, whole=False)
        except DSPyReturnError:
            raise DSPyReturnError(
                "dspy.objective_scores", function=function, value=_shown(value)
            ) from None
    return named


# --- what the metric is given --------------------------------------------------------


def dspy_example(case_input: Any, expected: Any) -> Any:
    """The case as a ``dspy.Example``: its input fields as inputs, its expected ones as labels.

    An input that is not a dict is the field ``input``; an expected value that is
    not a dict, the field ``expected``.  A label named like an input field loses
    to it (the program reads the input).
    """
    dspy = import_dspy()
    fields = _fields(case_input, "input")
    labels = {} if expected is None else _fields(expected, "expected")
    return dspy.Example({**labels, **fields}).with_inputs(*fields)


def _fields(value: Any, name: str) -> dict[str, Any]:
    # DSPy's Example reads its field names as text (keys(), repr): str() a number key.
    if isinstance(value, Mapping):
        return {str(key): field for key, field in value.items()}
    return {name: value}


def dspy_prediction(
    output: Any, expected: Any, output_field: str | None, function: str = "metric"
) -> Any:
    """The output as a ``dspy.Prediction``: a prediction as it is, a dict as its fields,
    a single value as the field ``output_field`` (by default the case's one expected field).
    """
    dspy = import_dspy()
    if isinstance(output, dspy.Example):  # a Prediction (or an Example) already
        return output
    if output_field is not None:
        return dspy.Prediction({output_field: output})
    if isinstance(output, Mapping):
        return dspy.Prediction(_fields(output, "output"))
    labels = list({} if expected is None else _fields(expected, "expected"))  # as the Example
    if len(labels) == 1:
        return dspy.Prediction({labels[0]: output})
    if labels:
        raise DSPyMetricError(
            "dspy.output_field_labels",
            function=function,
            value=_shown(output),
            labels=", ".join(labels),
            first=labels[0],
        )
    raise DSPyMetricError("dspy.output_field_none", function=function, value=_shown(output))


# --- the adapted metric ------------------------------------------------------------------


_CALL_FORMS = (2, 3, 5)  # metric(example, prediction), + trace, + pred_name, pred_trace


def _call_form(metric: Callable[..., Any], function: str) -> int:
    """How many arguments the metric is called with: as few as it takes, as DSPy does."""
    try:
        signature = inspect.signature(metric)
    except (TypeError, ValueError):  # a builtin or C callable: as dspy.Evaluate calls it
        return 2
    positional = [
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if positional[:2] == ["input", "output"]:
        raise DSPyMetricError(
            "dspy.already_skynet", function=function, found=f"{function}{signature}"
        )
    for count in _CALL_FORMS:
        try:
            signature.bind(*range(count))
        except TypeError:
            continue
        return count
    raise DSPyMetricError("dspy.signature", function=function, found=f"{function}{signature}")


def _takes_pred_name(metric: Callable[..., Any]) -> bool:
    try:
        inspect.signature(metric).bind(*range(5))
    except TypeError:
        return False
    except ValueError:  # no signature to read: let the call say
        return True
    return True


def _predictor_names(predictors: Any, function: str) -> tuple[str, ...]:
    """The names ``predictors=`` gives: a DSPy program's predictors, one name, or names."""
    if predictors is None:
        return ()
    if isinstance(predictors, str):
        return (predictors,)
    named = getattr(predictors, "named_predictors", None)
    if callable(named):  # a dspy.Module
        return tuple(str(name) for name, _ in named())
    if isinstance(predictors, Iterable) and not isinstance(predictors, Mapping):
        names = tuple(predictors)
        if all(isinstance(name, str) for name in names):
            return names
    raise DSPyMetricError("dspy.predictors_type", function=function, value=_shown(predictors))


class DSPyMetric:
    """A DSPy metric as a Skynet ``score(input, output, expected=None)``.

    Made by :func:`from_dspy_metric`; ``.metric`` is the DSPy metric itself.
    Pickles with it (by reference, or by value for a notebook's function), so
    it travels to process workers, executors and Dask as any metric does.
    """

    def __init__(
        self,
        metric: Callable[..., Any],
        *,
        output_field: str | None = None,
        predictors: tuple[str, ...] = (),
    ) -> None:
        self.metric = metric
        self.__name__ = _name_of(metric)
        self.__doc__ = f"The DSPy metric {self.__name__} as score(input, output, expected)."
        self.arity = _call_form(metric, self.__name__)
        self.output_field = output_field
        self.predictors = predictors

    def __call__(
        self, input: Any, output: Any, expected: Any = None
    ) -> tuple[float, dict[str, Any]]:
        example = dspy_example(input, expected)
        prediction = dspy_prediction(output, expected, self.output_field, self.__name__)
        value = self.metric(example, prediction, *(None,) * (self.arity - 2))
        score, info = read_dspy_return(value, self.__name__)
        if not info["feedback"] and self.predictors:
            info["feedback"] = self.predictor_feedback(example, prediction)
        return score, info

    def predictor_feedback(self, example: Any, prediction: Any) -> str:
        """Each predictor's feedback, asked as GEPA asks it (``pred_name``), under its name."""
        parts = []
        for name in self.predictors:
            value = self.metric(example, prediction, None, name, None)
            feedback = read_dspy_return(value, self.__name__)[1]["feedback"]
            if feedback:
                parts.append(feedback if len(self.predictors) == 1 else f"{name}: {feedback}")
        return "\n\n".join(parts)

    def __repr__(self) -> str:
        return f"<from_dspy_metric({self.__name__}): score(input, output, expected)>"


def from_dspy_metric(
    fn: Callable[..., Any],
    *,
    output_field: str | None = None,
    predictors: Any = None,
) -> DSPyMetric | Metric:
    """A Skynet metric from a DSPy/GEPA metric ``fn(example, prediction, trace=None, ...)``.

    ``output_field``: the prediction field a single output value is (default:
    the case's one expected field).  ``predictors``: a DSPy program, or
    predictor names, whose feedback to ask for (``pred_name``) when the metric
    gives none for the whole program.  A metric made by ``to_dspy_metric`` gives
    back the Skynet metric it came from.
    """
    if isinstance(fn, DSPyMetric):
        return fn
    skynet_metric = getattr(fn, "metric", None)
    if isinstance(skynet_metric, Metric):
        return skynet_metric  # to_dspy_metric's: the Skynet metric it adapts
    function = _name_of(fn)
    if isinstance(fn, Metric):
        if isinstance(fn.score, DSPyMetric):
            return fn
        raise DSPyMetricError("dspy.already_skynet", function=fn.name, found=repr(fn))
    if not callable(fn):
        raise DSPyMetricError("dspy.not_callable", value=_shown(fn))
    import_dspy()  # now, rather than at the first case: said once, at registration
    names = _predictor_names(predictors, function)
    if names and not _takes_pred_name(fn):
        raise DSPyMetricError("dspy.no_pred_name", function=function)
    return DSPyMetric(fn, output_field=output_field, predictors=names)
