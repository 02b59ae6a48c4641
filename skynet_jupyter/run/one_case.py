"""One case: run ``run(artifact, input)`` (timed, its model cost counted), call the
metric on copies of the case, validate what it returns.

``CaseRunner`` holds everything a case needs and nothing bound to the kernel,
so it pickles (to Dask workers, say).  ``score_case`` is the hot path: it is
called once per case, up to millions of times, so it avoids work it can skip.
"""

from __future__ import annotations

import contextlib
import linecache
import re
import time
from collections.abc import Callable, Iterator
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.contract import (
    METRIC_RETURN_VALUE,
    METRIC_TIME_LIMIT,
    NO_MODEL_HINTS,
    RUN_FUNCTION,
    ContractError,
    WrongReturn,
    short_repr,
    validate_return,
)
from ..core.dataset import NO_OUTPUT, Case, DataError
from ..core.metric import Metric
from ..core.model_settings import ModelSettings
from ..core.observation import Observation
from ..core.options import Limits
from ..core.report import CaseResult, scored_result
from ..core.tracebacks import user_traceback
from ..i18n import t
from ..models.call_cache import CallCache
from ..models.case_context import METRIC, NOT_MEASURED, RUN, CaseContext, Usage
from ..models.case_context import current_case as _current
from ..models.credentials import ModelKeyProblem
from ..models.first_contact import FirstContact
from ..models.settings import ModelNotConfigured

# Where a case's pipeline was when something broke (the case's failure names it).
_RUN, _COPY_INPUT, _COPY_EXPECTED, _COPY_OUTPUT, _CALL, _CHECK, _RESULT = range(7)


class Abandoned(BaseException):
    """Raised (best effort) in a worker whose case ran past its limit."""


class Deadline:
    """Where a case's current phase must end: set by the runner, read by a watcher.

    ``given`` is what the case's run gave the metric (its output and what the run
    measured), told by :meth:`ran` before the metric is called: a metric that runs
    out of time still shows the output it was given, and the run's time and cost.
    """

    __slots__ = ("deadline", "given", "step")

    def __init__(self) -> None:
        self.deadline = float("inf")
        self.step = METRIC_TIME_LIMIT
        self.given: tuple[Any, Observation | None] | None = None

    def ran(self, output: Any, seen: Observation | None) -> None:
        """The run gave ``output`` (measured ``seen``); the metric is called next."""
        self.given = (output, seen)


class HasDeadline(Protocol):
    deadline: float


@contextlib.contextmanager
def clock_held(watch: HasDeadline) -> Iterator[None]:
    """The phase's time limit stopped meanwhile: its deadline moves on by that time.

    (A :class:`Deadline`, or a worker process's deadline on the page its parent reads.)
    """
    deadline, watch.deadline = watch.deadline, float("inf")
    started = time.perf_counter()
    try:
        yield
    finally:
        watch.deadline = deadline + (time.perf_counter() - started)


_ATOMIC = frozenset({str, int, float, bool, type(None), bytes})


def copy_value(value: Any) -> Any:
    """A copy the metric may change freely; flat dicts of scalars are copied cheaply."""
    kind = type(value)
    if kind is dict:  # the usual case: a shallow copy when every value is an immutable scalar
        for item in value.values():
            if type(item) not in _ATOMIC:
                return deepcopy(value)
        return value.copy()
    return value if kind in _ATOMIC else deepcopy(value)


class _BrokeAt(Exception):
    """A copy for the metric failed: ``stage`` says which; the cause is what it raised."""

    def __init__(self, stage: int) -> None:
        super().__init__(stage)
        self.stage = stage


def _metric_copies(case: Case, output: Any) -> tuple[Any, Any, Any]:
    """Copies of the input, the expected and the output the metric may change freely.

    ``copy_value`` written out for a dict (a call per copy was 6 % of a trivial
    case; one call for the three is half the cost of a C-level test per copy):
    shallow when every value is an immutable scalar, else deep.  A copy that
    fails raises :class:`_BrokeAt` naming it.
    """
    stage = _COPY_INPUT
    try:
        case_input = case.input
        if type(case_input) is dict:
            for item in case_input.values():
                if type(item) not in _ATOMIC:
                    case_input = deepcopy(case_input)
                    break
            else:
                case_input = case_input.copy()
        else:
            case_input = copy_value(case_input)
        stage = _COPY_EXPECTED
        expected = case.expected
        if type(expected) is dict:
            for item in expected.values():
                if type(item) not in _ATOMIC:
                    expected = deepcopy(expected)
                    break
            else:
                expected = expected.copy()
        elif expected is not None:
            expected = copy_value(expected)
        stage = _COPY_OUTPUT
        given = output if type(output) in _ATOMIC else copy_value(output)
    except BaseException as exc:
        raise _BrokeAt(stage) from exc
    return case_input, expected, given


@dataclass(slots=True)
class CaseRunner:
    """Everything needed to run cases, and nothing kernel-bound: it pickles."""

    metric: Metric
    run: Callable[[Any, Any], Any] | None = None
    artifact: Any = None
    limits: Limits = field(default_factory=Limits)
    lang: str = "en"
    models: ModelSettings = field(default_factory=ModelSettings)
    # Set when outputs are only re-scored (the engine's known outputs): run is not
    # called, and a case without an output fails at the run step with this sentence.
    refused_run: str | None = None
    # Where llm() looks each model call up first, and keeps its reply (None: no cache).
    call_cache: CallCache | None = None
    # The run's rule that a model's key is tried once (set by the engine per run).
    first_contact: FirstContact | None = None

    def context(self) -> CaseContext:
        """A helper context for this runner's cases (a worker keeps one for many)."""
        ctx = CaseContext(self.models, call_cache=self.call_cache)
        ctx.first_contact = self.first_contact
        return ctx

    def models_to_warm(self) -> tuple[Any, ...]:
        """The models to warm up before the cases: none when their calls will not be made now.

        A run cache that already holds replies will likely answer them (a restarted kernel
        re-checking): then litellm is not imported for calls never made (seconds, issue 37);
        a call the cache misses imports it then, out of the case's time
        (``CaseContext.hold_clock``, ``ModelReply.setup_ms``).
        """
        models = (self.models.task_model, self.models.judge_model)
        cache = self.call_cache
        if all(model is None for model in models) or (
            cache is not None and cache.reads and len(cache)
        ):
            return ()
        return models

    def run_one(self, case: Case, watch: Deadline | None = None) -> CaseResult:
        """Run one case in its own helper context (the watched workers reuse theirs)."""
        ctx = self.context()
        token = _current.set(ctx)
        try:
            return self.score_case(case, ctx, watch if watch is not None else Deadline())
        finally:
            _current.reset(token)

    def score_case(self, case: Case, ctx: CaseContext, watch: Deadline) -> CaseResult:  # noqa: C901
        """The hot path: run (or reuse) the output, call the metric, validate.

        It never raises: whatever goes wrong in one case's pipeline (copying,
        running, calling, validating, building the result) becomes that case's
        failure, naming what broke.  (A ``try`` costs nothing in 3.11 until it
        catches; ``stage`` is one local store per step.)  One function on
        purpose: a call per part was a few % of a trivial case; what is rare
        (a failure, an unusual return) is in helpers.
        """
        output = case.output
        seen = case.measured
        stage = _RUN
        try:
            # ctx.start(), but only when the last case left something to forget (a
            # model call's usage, an observation): most cases leave nothing, and the
            # call was a few % of a trivial case.  The phase is set below either way.
            if (
                ctx.run_usage is not None
                or ctx.judge_usage is not None
                or ctx.observation is not NOT_MEASURED
            ):
                ctx.start()
            if output is NO_OUTPUT:
                ctx.phase = RUN
                output, seen, failure = self._run(case, ctx, watch)
                if failure is not None:
                    return failure
                watch.ran(output, seen)  # shown if the metric then runs out of time
            elif seen is not None:
                ctx.observation = seen
            stage = _COPY_INPUT  # _metric_copies says which copy failed (_BrokeAt)
            ctx.phase = METRIC
            metric = self.metric
            # The metric gets copies (a metric that mutates its input loses nothing).
            case_input, expected, given = _metric_copies(case, output)
            stage = _CALL
            started = time.perf_counter()
            watch.deadline = started + self.limits.metric
            watch.step = METRIC_TIME_LIMIT
            try:
                value = (
                    metric.score(case_input, given, expected)
                    if metric.arity == 3
                    else metric.score(case_input, given)
                )
            except BaseException as exc:
                parts = {"input": case_input, "expected": expected}
                return self._metric_raised(case, output, seen, ctx, exc, parts, started)
            ended = time.perf_counter()
            judge = ctx.judge_usage  # litellm's import at a judge's first miss: not its time
            held = 0.0 if judge is None else judge.setup_ms
            metric_ms = (ended - started) * 1000.0 - held
            if ended > watch.deadline:  # held its thread past the limit: see _past_limit
                return self._past_limit(case, output, seen, ctx, ended - started, in_run=False)
            stage = _CHECK
            # The usual return, (float, {"feedback": str}) without named scores, is
            # read here as validate_return's own fast path reads it (the same
            # checks: tests/run/test_usual_return.py); anything else goes there.
            if (
                type(value) is tuple
                and len(value) == 2
                and type(score := value[0]) is float
                and score - score == 0.0  # finite: NaN and infinities give NaN here
                and type(info := value[1]) is dict
                and type(feedback := info.get("feedback")) is str
                and "scores" not in info
            ):
                named: dict[str, float] = {}
            else:
                read = self._read_return(value)
                if isinstance(read, str):  # what the contract refuses in it
                    return self._failed(
                        case, output, seen, ctx, METRIC_RETURN_VALUE, read, None, metric_ms
                    )
                score, info = read
                stage = _RESULT
                scores = info.get("scores")
                named = {name: float(v) for name, v in scores.items()} if scores else {}
                feedback = info["feedback"]
            stage = _RESULT
            result = scored_result(
                case.index,
                case.input,
                case.expected,
                output,
                score,
                feedback,
                named,
                info,
                metric_ms,
            )
            judge = ctx.judge_usage
            if seen is not None or judge is not None:  # else: the common, lean record
                _add_measures(
                    result, seen, judge, fresh=seen is not None and case.measured is not seen
                )
                _add_paid(result, ctx.run_usage, judge, replayed=case.measured is seen)
            return result
        except BaseException as exc:
            return self._broken(case, output, seen, ctx, stage, exc)

    def _read_return(self, value: Any) -> tuple[float, dict[str, Any]] | str:
        """An unusual return, read by the contract: (score, info), or why it is refused."""
        try:
            return validate_return(value)
        except ContractError as broken:
            return broken.message(self.lang)

    def _metric_raised(
        self,
        case: Case,
        output: Any,
        seen: Observation | None,
        ctx: CaseContext,
        exc: BaseException,
        given: dict[str, Any],
        started: float,
    ) -> CaseResult:
        """The failed result of a metric that raised (``given``: its input and expected)."""
        if isinstance(exc, ModelNotConfigured):
            return self._no_model(case, output, seen, ctx, METRIC_RETURN_VALUE, exc)
        metric_ms = (time.perf_counter() - started) * 1000.0
        judge = ctx.judge_usage  # as in score_case
        metric_ms -= 0.0 if judge is None else judge.setup_ms
        if isinstance(exc, WrongReturn):  # an adapter refused what its metric returned
            said = exc.message(self.lang)
            returned = self._failed(
                case, output, seen, ctx, METRIC_RETURN_VALUE, said, None, metric_ms
            )
            returned.hint_id = exc.hint_id
            return returned
        problem = _metric_raised(exc, self.metric, self.lang, given)
        trace = _user_traceback(exc)
        failed = self._failed(
            case, output, seen, ctx, METRIC_RETURN_VALUE, problem, trace, metric_ms
        )
        # reward() refusing its arguments: the fix is the call, not catching it
        failed.hint_id = "hint.reward_call" if isinstance(exc, ContractError) else None
        return failed

    def _broken(
        self,
        case: Case,
        output: Any,
        seen: Any,
        ctx: CaseContext,
        stage: int,
        exc: BaseException,
    ) -> CaseResult:
        """The failed result of a case whose pipeline broke outside the user's calls."""
        if isinstance(exc, _BrokeAt) and exc.__cause__ is not None:  # a copy for the metric
            stage, exc = exc.stage, exc.__cause__
        step, error = _stage_failure(stage, exc, case.output is NO_OUTPUT, self.lang)
        if output is NO_OUTPUT:
            output = None
        if not isinstance(seen, Observation):
            seen = None
        # A value that could not be copied is not fixed by reshaping the return value.
        hint = "hint.not_copyable" if stage in (_COPY_INPUT, _COPY_EXPECTED, _COPY_OUTPUT) else None
        try:
            result = self._failed(case, output, seen, ctx, step, error, None, None)
        except BaseException:
            result = CaseResult(case.index, case.input, case.expected)
            result.failed_step, result.error = step, error
        result.hint_id = hint
        return result

    def _run(
        self, case: Case, ctx: CaseContext, watch: Deadline
    ) -> tuple[Any, Observation | None, CaseResult | None]:
        """(output, observation, None), or (None, None, the failed result)."""
        if self.refused_run is not None:
            reason = self.refused_run
            return None, None, self._failed(case, None, None, ctx, RUN_FUNCTION, reason, None, None)
        if self.run is None:
            raise DataError("data.no_outputs")
        try:
            given = copy_value(case.input)
        except BaseException as exc:
            error = t("case.input_not_copyable", self.lang, error=exception_line(exc))
            failed = self._failed(case, None, None, ctx, RUN_FUNCTION, error, None, None)
            failed.hint_id = "hint.not_copyable"
            return None, None, failed
        started = time.perf_counter()
        watch.deadline = started + self.limits.run
        watch.step = RUN_FUNCTION
        try:
            output = self.run(self.artifact, given)
        except ModelNotConfigured as exc:
            return None, None, self._no_model(case, None, None, ctx, RUN_FUNCTION, exc)
        except BaseException as exc:
            error = t("case.run_raised", self.lang, error=exception_line(exc))
            error += _keys_note(exc, {"input": given}, self.lang)
            # The model calls it made before raising were paid: the case keeps their cost.
            usage = ctx.run_usage
            spent = None
            if usage is not None:
                spent = usage.observation((time.perf_counter() - started) * 1000.0)
            failure = self._failed(
                case, None, spent, ctx, RUN_FUNCTION, error, _user_traceback(exc), None
            )
            return None, None, failure
        ended = time.perf_counter()
        if ended > watch.deadline:  # held its thread past the limit: see _past_limit
            return None, None, self._past_limit(case, None, None, ctx, ended - started, in_run=True)
        run_ms = (ended - started) * 1000.0
        usage = ctx.run_usage
        # No model call made: the run cost nothing (cost 0.0, not "not measured").
        seen = (
            Observation(run_ms=run_ms, cost_usd=0.0) if usage is None else usage.observation(run_ms)
        )
        ctx.observation = seen
        return output, seen, None

    def _no_model(
        self,
        case: Case,
        output: Any,
        seen: Observation | None,
        ctx: CaseContext,
        step: str,
        missing: ModelNotConfigured,
    ) -> CaseResult:
        """A case that called llm() with no model set: a configuration problem, said shortly.

        No traceback (the line is not the problem) and the fix is how to set the model;
        the run starts no further case (``driver.stops_the_run``): each would fail the same way.
        """
        if isinstance(missing, ModelKeyProblem):  # the model, and the variable to set
            if missing.status is not None and not missing.sent:  # refused for another case
                said = t("case.model_key_not_sent", self.lang)
            else:
                said = t("case.model_key", self.lang, problem=missing.sentence(self.lang))
            result = self._failed(case, output, seen, ctx, step, said, None, None)
            result.hint_id = MODEL_KEY_HINT
            return result
        message_id = "case.no_task_model" if missing.role == "task" else "case.no_metric_model"
        result = self._failed(case, output, seen, ctx, step, t(message_id, self.lang), None, None)
        result.hint_id = NO_MODEL_HINTS[missing.role]
        return result

    def _past_limit(
        self,
        case: Case,
        output: Any,
        seen: Observation | None,
        ctx: CaseContext,
        took: float,
        *,
        in_run: bool,
    ) -> CaseResult:
        """A run or metric that returned after its time limit fails as one stopped there.

        A call that holds its thread (C code: a regular expression that backtracks, a
        long numpy call) keeps the watcher from running until it returns: its result
        arrives first, and would pass (thread mode; a process is stopped at the limit).
        """
        limit = self.limits.run if in_run else self.limits.metric
        key = "case.run_past_limit" if in_run else "case.metric_past_limit"
        error = t(key, self.lang, took=f"{took:.1f}", seconds=f"{limit:g}")
        step = RUN_FUNCTION if in_run else METRIC_TIME_LIMIT
        return self._failed(case, output, seen, ctx, step, error, None, limit * 1000.0)

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
        judge = ctx.judge_usage
        replayed = seen is not None and case.measured is seen
        result.cached = from_cache(seen, judge, replayed=replayed)
        if seen is not None:
            _fill_measures(result, seen, replayed=replayed)
        if judge is not None:
            result.judge_cost_usd = judge.cost
            result.model_calls += judge.calls
            result.retries += judge.retries
            result.stand_in_calls += judge.stand_in_calls
        if seen is not None or judge is not None:
            _add_paid(result, ctx.run_usage, judge, replayed=replayed)
        return result


def _add_paid(
    result: CaseResult, run: Usage | None, judge: Usage | None, *, replayed: bool
) -> None:
    """What the case's calls cost now: none for a replayed output, nothing for a hit."""
    result.run_paid_usd = 0.0 if replayed or run is None else run.paid
    result.judge_paid_usd = 0.0 if judge is None else judge.paid


def fill_measures(result: CaseResult, seen: Observation, *, replayed: bool) -> None:
    """What the run measured (time, cost, calls) on ``result``."""
    _fill_measures(result, seen, replayed=replayed)


def _fill_measures(result: CaseResult, seen: Observation, *, replayed: bool) -> None:
    result.measured = seen
    result.run_ms = seen.run_ms
    result.cost_usd = seen.cost_usd
    result.model_calls = seen.model_calls
    result.stand_in_calls = seen.stand_in_calls
    if not replayed:  # a replayed output's retries were paid by the run that made it
        result.retries = seen.retries


def from_cache(seen: Observation | None, judge: Usage | None, *, replayed: bool) -> bool:
    """Whether a case is *cached*: its output replayed (``seen``, its run's measures, are
    those of the run that made it), or every model call of its run and of its judge was
    answered from the call cache, and there was at least one.

    One judge call made now (a miss, a stand-in's, a callable's) and the case is not
    cached: that call is paid now.  A replayed output stays cached whatever its judge
    did (its run's time and cost are the original's); its judge's calls are counted by
    who adds up the spend (``optimizers.report.Costs``).
    """
    if replayed:
        return True
    calls = cached = 0
    if seen is not None:
        calls, cached = seen.model_calls, seen.cached_calls
    if judge is not None:
        calls, cached = calls + judge.calls, cached + judge.cached_calls
    return calls > 0 and cached == calls


def exception_line(exc: BaseException) -> str:
    from ..core.secrets import redact  # user code may echo an API key in its error

    try:
        text = str(exc)
    except BaseException:
        text = "<exception str() failed>"
    text = redact(text)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _stage_failure(stage: int, exc: BaseException, ran: bool, lang: str) -> tuple[str, str]:
    """(step, sentence) for a case that broke at ``stage`` (``ran``: run() made the output)."""
    error = exception_line(exc)
    if stage == _RUN:
        return RUN_FUNCTION, t("case.result_failed", lang, error=error)
    if stage == _COPY_INPUT:
        return METRIC_RETURN_VALUE, t("case.input_not_copyable", lang, error=error)
    if stage == _COPY_EXPECTED:
        return METRIC_RETURN_VALUE, t("case.expected_not_copyable", lang, error=error)
    if stage == _COPY_OUTPUT:
        if ran:
            return RUN_FUNCTION, t("case.run_output_not_copyable", lang, error=error)
        return METRIC_RETURN_VALUE, t("case.output_not_copyable", lang, error=error)
    if stage == _CALL:
        return METRIC_RETURN_VALUE, t("case.metric_raised", lang, error=error)
    if isinstance(exc, OverflowError):  # an int too large for a float: 10**400
        return METRIC_RETURN_VALUE, t("case.score_overflow", lang, error=error)
    if stage == _CHECK:
        return METRIC_RETURN_VALUE, t("case.return_unreadable", lang, error=error)
    return METRIC_RETURN_VALUE, t("case.result_failed", lang, error=error)


def _user_traceback(exc: BaseException) -> str:
    from ..core.secrets import redact

    return redact(user_traceback(exc))


MODEL_KEY_HINT = "hint.model_key"  # the driver stops the run on it (``driver.stops_the_run``)


def _metric_raised(exc: BaseException, metric: Metric, lang: str, given: dict[str, Any]) -> str:
    name = getattr(exc, "name", None) if isinstance(exc, NameError) else None
    if name and metric.module is not None and name not in metric.module.__dict__:
        return t("case.name_error", lang, name=name)
    if isinstance(exc, SystemExit):
        return t("case.exited", lang, code=short_repr(exc.code))
    if isinstance(exc, RecursionError):
        return t("case.recursion", lang)
    if isinstance(exc, ContractError):  # reward() refusing its arguments: in the case's language
        return t("case.metric_raised", lang, error=f"{type(exc).__name__}: {exc.message(lang)}")
    return t("case.metric_raised", lang, error=exception_line(exc)) + _keys_note(exc, given, lang)


def _keys_note(exc: BaseException, given: dict[str, Any], lang: str) -> str:
    """For ``expected["dat"]`` (a KeyError of the very dict passed in): the keys it has.

    ``given`` maps "input" (and "expected", for the metric) to the objects the
    user's function received.  Only a subscript of one of them, on the line that
    raised, adds the note: a KeyError of the user's own dicts says nothing more.
    """
    if type(exc) is not KeyError or len(exc.args) != 1:
        return ""
    if _subscripted(exc, given) is None:
        return ""
    key = short_repr(exc.args[0])
    has = {
        name: ", ".join(str(k) for k in part) if isinstance(part, dict) and part else "—"
        for name, part in given.items()
    }
    if "expected" not in given:  # run(artifact, input): the input is all it gets
        return " " + t("case.key_missing_input", lang, key=key, input=has["input"])
    return " " + t("case.key_missing", lang, key=key, **has)


def _subscripted(exc: BaseException, given: dict[str, Any]) -> str | None:
    """Which of ``given`` the line that raised ``exc`` subscripts (``expected[...]``), if any."""
    tb = exc.__traceback__
    if tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    line = linecache.getline(frame.f_code.co_filename, tb.tb_lineno)
    for local, value in frame.f_locals.items():
        for part, passed in given.items():
            if value is passed and re.search(rf"\b{re.escape(local)}\s*\[", line):
                return part
    return None


def _add_measures(
    result: CaseResult, seen: Observation | None, judge: Usage | None, *, fresh: bool
) -> None:
    """What was measured for a scored case: its run's and its judge's calls, time and cost."""
    result.run_ms = None if seen is None else seen.run_ms
    result.cost_usd = None if seen is None else seen.cost_usd
    result.judge_cost_usd = None if judge is None else judge.cost
    result.model_calls = (0 if seen is None else seen.model_calls) + (
        0 if judge is None else judge.calls
    )
    # Replayed (a known output), or made now with every model call, the run's and the
    # judge's, from the call cache.
    result.cached = from_cache(seen, judge, replayed=seen is not None and not fresh)
    result.measured = seen
    # A cached output's retries were paid by the run that made it, not now.
    result.retries = (seen.retries if fresh and seen is not None else 0) + (
        0 if judge is None else judge.retries
    )
    result.stand_in_calls = (0 if seen is None else seen.stand_in_calls) + (
        0 if judge is None else judge.stand_in_calls
    )
