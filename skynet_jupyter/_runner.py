"""One case: run ``run(artifact, input)`` (timed, its model cost counted), call the
metric on copies of the case, validate what it returns.

``CaseRunner`` holds everything a case needs and nothing bound to the kernel,
so it pickles (to Dask workers, say).  ``score_case`` is the hot path: it is
called once per case, up to millions of times, so it avoids work it can skip.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

from .contract import (
    METRIC_RETURN_VALUE,
    METRIC_TIME_LIMIT,
    RUN_FUNCTION,
    ContractError,
    short_repr,
    validate_return,
)
from .dataset import NO_OUTPUT, Case, DataError
from .i18n import t
from .metric import Metric
from .report import CaseResult
from .runtime import METRIC, CaseContext, ModelSettings, Observation, _current
from .tracebacks import user_traceback

MIN_TIMEOUT, MAX_TIMEOUT = 1.0, 600.0
RUN_TIMEOUT = 600.0


class Deadline:
    """Where a case's current phase must end: set by the runner, read by a watcher."""

    __slots__ = ("deadline", "step")

    def __init__(self) -> None:
        self.deadline = float("inf")
        self.step = METRIC_TIME_LIMIT


@dataclass(frozen=True, slots=True)
class Limits:
    """Time limits in seconds: the metric's (per call) and the run function's."""

    metric: float = 60.0
    run: float = RUN_TIMEOUT

    @classmethod
    def checked(cls, timeout: float) -> Limits:
        if not isinstance(timeout, int | float) or not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT:
            raise ValueError(
                f"timeout must be between {MIN_TIMEOUT:g} and {MAX_TIMEOUT:g} seconds "
                f"(the metric time limit), got {timeout!r}."
            )
        return cls(metric=float(timeout))


_ATOMIC = frozenset({str, int, float, bool, type(None), bytes})


def _flat(value: Any) -> bool:
    """A dict whose values are all immutable scalars (a shallow copy is a full copy)."""
    if type(value) is not dict:
        return False
    for item in value.values():  # noqa: SIM110 - a loop is faster than all() on a generator
        if type(item) not in _ATOMIC:
            return False
    return True


def _copy(value: Any) -> Any:
    """A copy the metric may change freely; flat dicts of scalars are copied cheaply."""
    kind = type(value)
    if kind is dict:
        for item in value.values():
            if type(item) not in _ATOMIC:
                return deepcopy(value)
        return value.copy()
    if kind in _ATOMIC:
        return value
    return deepcopy(value)


@dataclass(slots=True)
class CaseRunner:
    """Everything needed to run cases, and nothing kernel-bound: it pickles."""

    metric: Metric
    run: Callable[[Any, Any], Any] | None = None
    artifact: Any = None
    limits: Limits = field(default_factory=Limits)
    lang: str = "en"
    models: ModelSettings = field(default_factory=ModelSettings)

    def run_one(self, case: Case, watch: Deadline | None = None) -> CaseResult:
        """Run one case in its own helper context (the watched workers reuse theirs)."""
        ctx = CaseContext(self.models)
        token = _current.set(ctx)
        try:
            return self.score_case(case, ctx, watch if watch is not None else Deadline())
        finally:
            _current.reset(token)

    def score_case(self, case: Case, ctx: CaseContext, watch: Deadline) -> CaseResult:
        """The hot path: run (or reuse) the output, call the metric, validate."""
        ctx.start()
        output = case.output
        seen = case.measured
        if output is NO_OUTPUT:
            output, seen, failure = self._run(case, ctx, watch)
            if failure is not None:
                return failure
        elif seen is not None:
            ctx.observation = seen
        ctx.phase = METRIC
        metric = self.metric
        # The metric gets copies: _copy, inlined for the usual flat dicts and strings.
        case_input = case.input
        case_input = case_input.copy() if _flat(case_input) else deepcopy(case_input)
        expected = case.expected
        if expected is not None:
            expected = expected.copy() if _flat(expected) else deepcopy(expected)
        given = output if type(output) in _ATOMIC else _copy(output)
        started = time.perf_counter()
        watch.deadline = started + self.limits.metric
        watch.step = METRIC_TIME_LIMIT
        try:
            if metric.arity == 3:
                value = metric.score(case_input, given, expected)
            else:
                value = metric.score(case_input, given)
        except BaseException as exc:
            metric_ms = (time.perf_counter() - started) * 1000.0
            return self._failed(
                case,
                output,
                seen,
                ctx,
                METRIC_RETURN_VALUE,
                _metric_raised(exc, metric, self.lang),
                _user_traceback(exc),
                metric_ms,
            )
        metric_ms = (time.perf_counter() - started) * 1000.0
        try:
            score, info = validate_return(value)
        except ContractError as problem:
            return self._failed(
                case,
                output,
                seen,
                ctx,
                METRIC_RETURN_VALUE,
                problem.message(self.lang),
                None,
                metric_ms,
            )
        scores = info.get("scores")
        judge = ctx.judge_usage
        return CaseResult(
            case.index,
            case.input,
            case.expected,
            output,
            score,
            info["feedback"],
            {name: float(v) for name, v in scores.items()} if scores else {},
            info,
            None,
            None,
            None,
            metric_ms,
            None if seen is None else seen.run_ms,
            None if seen is None else seen.cost_usd,
            None if judge is None else judge.cost,
            (0 if seen is None else seen.model_calls) + (0 if judge is None else judge.calls),
            seen is not None and case.measured is seen,
            seen,
        )

    def _run(self, case: Case, ctx: CaseContext, watch: Deadline) -> tuple[Any, Any, Any]:
        """(output, observation, None), or (None, None, the failed result)."""
        if self.run is None:
            raise DataError(
                "No outputs: give run= (outputs come from run(artifact, input)) "
                "or output_column= (outputs already in the data)."
            )
        started = time.perf_counter()
        watch.deadline = started + self.limits.run
        watch.step = RUN_FUNCTION
        try:
            output = self.run(self.artifact, _copy(case.input))
        except BaseException as exc:
            error = t("case.run_raised", self.lang, error=_exception_line(exc))
            failure = self._failed(
                case, None, None, ctx, RUN_FUNCTION, error, _user_traceback(exc), None
            )
            return None, None, failure
        run_ms = (time.perf_counter() - started) * 1000.0
        usage = ctx.run_usage
        seen = (
            Observation(run_ms=run_ms, cost_usd=0.0)
            if usage is None
            else Observation(
                run_ms=run_ms,
                cost_usd=usage.cost,
                model_calls=usage.calls,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
            )
        )
        ctx.observation = seen
        return output, seen, None

    def _failed(
        self,
        case: Case,
        output: Any,
        seen: Observation | None,
        ctx: CaseContext,
        step: str,
        error: str,
        traceback: str | None,
        metric_ms: float | None,
    ) -> CaseResult:
        result = CaseResult(case.index, case.input, case.expected, output)
        result.failed_step = step
        result.error = error
        result.traceback = traceback
        result.metric_ms = metric_ms
        if seen is not None:
            _fill_measures(result, seen)
            result.cached = case.measured is seen
        judge = ctx.judge_usage
        if judge is not None:
            result.judge_cost_usd = judge.cost
            result.model_calls += judge.calls
        return result


def _fill_measures(result: CaseResult, seen: Observation) -> None:
    result.measured = seen
    result.run_ms = seen.run_ms
    result.cost_usd = seen.cost_usd
    result.model_calls = seen.model_calls


def _exception_line(exc: BaseException) -> str:
    from ._models import redact  # user code may echo an API key in its error

    text = redact(str(exc))
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _user_traceback(exc: BaseException) -> str:
    from ._models import redact

    return redact(user_traceback(exc))


def _metric_raised(exc: BaseException, metric: Metric, lang: str) -> str:
    name = getattr(exc, "name", None) if isinstance(exc, NameError) else None
    if name and metric.module is not None and name not in metric.module.__dict__:
        return t("case.name_error", lang, name=name)
    if isinstance(exc, SystemExit):
        return t("case.exited", lang, code=short_repr(exc.code))
    if isinstance(exc, RecursionError):
        return t("case.recursion", lang)
    return t("case.metric_raised", lang, error=_exception_line(exc))
