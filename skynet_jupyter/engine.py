"""Running cases: the contract check and the full evaluation.

One case is one call (``run_case``): run ``run(artifact, input)`` (timed, its
model cost counted), call the metric on copies of the case, validate the
return.  Cases run in worker threads watched by the calling thread, which
enforces the time limits, delivers events in order and handles Ctrl-C: a case
past its limit is failed and its worker abandoned (a fresh one carries on), so
the limit costs no thread start per call.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from concurrent.futures import Executor
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
from .dataset import NO_OUTPUT, Case, DataError, load_cases, pick_cases
from .i18n import resolve_lang, t
from .metric import Metric, load_metric
from .report import CaseResult, CheckReport, EvalReport, build_steps
from .runtime import (
    METRIC,
    CaseContext,
    ModelSettings,
    Observation,
    _current,
    current_settings,
    install_skynet_module,
)
from .tracebacks import user_traceback

MIN_TIMEOUT, MAX_TIMEOUT = 1.0, 600.0
RUN_TIMEOUT = 600.0
_NEVER = math.inf
TICK = 0.1  # how often the watcher wakes: bounds event latency and timeout slack


# --- events -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaseStarted:
    index: int
    total: int


@dataclass(frozen=True, slots=True)
class CaseFinished:
    result: CaseResult
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Finished:
    report: CheckReport


Event = CaseStarted | CaseFinished | Finished
Listener = Callable[[Event], None]


# --- one case -----------------------------------------------------------------


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

    def run_one(self, case: Case, watch: _Watch | None = None) -> CaseResult:
        """Run one case, recording its phase deadlines on ``watch``."""
        ctx = CaseContext(self.models)
        result = CaseResult(case.index, case.input, case.expected)
        token = _current.set(ctx)
        try:
            output = case.output
            if output is NO_OUTPUT:
                output = self._run(case, ctx, result, watch)
                if result.failed_step is not None:
                    return result
            else:
                ctx.observation = case.measured or ctx.observation
                result.cached = case.measured is not None
                _fill_measures(result, ctx.observation)
            result.output = output
            ctx.phase = METRIC
            self._score(case, output, ctx, result, watch)
        finally:
            _current.reset(token)
        if ctx.judge_usage.calls:
            result.judge_cost_usd = ctx.judge_usage.cost
            result.model_calls += ctx.judge_usage.calls
        return result

    def _run(self, case: Case, ctx: CaseContext, result: CaseResult, watch: _Watch | None) -> Any:
        if self.run is None:
            raise DataError(
                "No outputs: give run= (outputs come from run(artifact, input)) "
                "or output_column= (outputs already in the data)."
            )
        started = time.perf_counter()
        if watch is not None:
            watch.arm(started + self.limits.run, RUN_FUNCTION)
        try:
            output = self.run(self.artifact, _copy(case.input))
        except BaseException as exc:
            result.failed_step = RUN_FUNCTION
            result.error = t("case.run_raised", self.lang, error=_exception_line(exc))
            result.traceback = _user_traceback(exc)
            return None
        run_ms = (time.perf_counter() - started) * 1000.0
        usage = ctx.run_usage
        ctx.observation = Observation(
            run_ms=run_ms,
            cost_usd=usage.cost,
            model_calls=usage.calls,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
        )
        _fill_measures(result, ctx.observation)
        return output

    def _score(
        self, case: Case, output: Any, ctx: CaseContext, result: CaseResult, watch: _Watch | None
    ) -> None:
        metric = self.metric
        case_input = _copy(case.input)
        expected = _copy(case.expected)
        output = _copy(output)
        started = time.perf_counter()
        if watch is not None:
            watch.arm(started + self.limits.metric, METRIC_TIME_LIMIT)
        try:
            if metric.arity == 3:
                value = metric.score(case_input, output, expected)
            else:
                value = metric.score(case_input, output)
        except BaseException as exc:
            result.metric_ms = (time.perf_counter() - started) * 1000.0
            result.failed_step = METRIC_RETURN_VALUE
            result.error = _metric_raised(exc, metric, self.lang)
            result.traceback = _user_traceback(exc)
            return
        result.metric_ms = (time.perf_counter() - started) * 1000.0
        try:
            score, info = validate_return(value)
        except ContractError as problem:
            result.failed_step = METRIC_RETURN_VALUE
            result.error = f"{problem.message(self.lang)}"
            return
        result.score = score
        result.info = info
        result.feedback = info["feedback"]
        scores = info.get("scores")
        if scores:
            result.scores = {name: float(v) for name, v in scores.items()}


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


def run_case(
    metric: Metric | Callable[..., Any],
    case: Case,
    run: Callable[[Any, Any], Any] | None = None,
    artifact: Any = None,
    limits: Limits | None = None,
    *,
    lang: str = "en",
    models: ModelSettings | None = None,
) -> CaseResult:
    """Run one case with its time limits: one picklable call."""
    runner = CaseRunner(
        load_metric(metric), run, artifact, limits or Limits(), lang, models or current_settings()
    )
    results, _ = _supervise(runner, [case], concurrency=1, on_result=None)
    return results[0]


# --- many cases, watched ------------------------------------------------------


class _Abandoned(BaseException):
    """Raised (best effort) in a worker whose case ran past its limit."""


class _Watch:
    """A worker's current deadline, read by the watcher thread."""

    __slots__ = ("abandoned", "case", "deadline", "step", "thread")

    def __init__(self) -> None:
        self.case: Case | None = None
        self.deadline = _NEVER
        self.step = METRIC_TIME_LIMIT
        self.abandoned = False
        self.thread: threading.Thread | None = None

    def arm(self, deadline: float, step: str) -> None:
        self.deadline = deadline
        self.step = step


class _Job:
    def __init__(
        self, runner: CaseRunner, cases: Sequence[Case], track_started: bool = False
    ) -> None:
        self.runner = runner
        self.track_started = track_started
        self.cases = cases
        self.todo = iter(range(len(cases)))  # next() on it is atomic under the GIL
        self.lock = threading.Lock()
        self.finished: list[CaseResult] = []  # appended by workers, drained by the watcher
        self.started: deque[int] = deque()
        self.stop = False
        self.alive = 0
        self.all_done = threading.Event()

    def work(self, watch: _Watch) -> None:
        # The hot loop: keep attribute lookups out of it.
        run_one = self.runner.run_one
        cases = self.cases
        lock = self.lock
        finished = self.finished
        started = self.started if self.track_started else None
        try:
            for position in self.todo:
                if self.stop:
                    break
                case = cases[position]
                watch.case = case
                if started is not None:
                    started.append(case.index)
                result = run_one(case, watch)
                with lock:
                    if watch.abandoned:
                        return
                    watch.case = None
                    watch.deadline = _NEVER
                    finished.append(result)
        except _Abandoned:
            return
        finally:
            with self.lock:
                if not watch.abandoned:
                    self.alive -= 1
                    if self.alive == 0:
                        self.all_done.set()

    def spawn(self) -> _Watch:
        watch = _Watch()
        thread = threading.Thread(target=self.work, args=(watch,), name="skynet-case", daemon=True)
        watch.thread = thread
        with self.lock:
            self.alive += 1
            self.all_done.clear()
        thread.start()
        return watch

    def abandon(self, watch: _Watch, now: float = math.inf) -> bool:
        """Give up on a worker whose case is past ``now``; False if it finished meanwhile."""
        with self.lock:
            if watch.case is None or watch.abandoned or watch.deadline > now:
                return False
            watch.abandoned = True
            self.alive -= 1
            if self.alive == 0:
                self.all_done.set()
        _interrupt_thread(watch.thread)
        return True


def _interrupt_thread(thread: threading.Thread | None) -> None:
    # Stops a runaway pure-Python loop; a call blocked in C ignores it, and is
    # simply left behind (its result is never read).
    if thread is not None and thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned)
        )


def _timeout_result(runner: CaseRunner, watch: _Watch) -> CaseResult:
    case = watch.case
    assert case is not None
    result = CaseResult(case.index, case.input, case.expected, failed_step=watch.step)
    if case.output is not NO_OUTPUT:
        result.output = case.output
    if watch.step == RUN_FUNCTION:
        result.error = t("case.run_timeout", runner.lang, seconds=f"{runner.limits.run:g}")
    else:
        result.error = t("case.metric_timeout", runner.lang, seconds=f"{runner.limits.metric:g}")
        result.metric_ms = runner.limits.metric * 1000.0
    return result


def _supervise(
    runner: CaseRunner,
    cases: Sequence[Case],
    *,
    concurrency: int,
    on_result: Callable[[list[int], list[CaseResult]], None] | None,
) -> tuple[list[CaseResult], bool]:
    """Run ``cases`` on ``concurrency`` watched workers; (results by position, interrupted)."""
    install_skynet_module()
    from ._models import warm_up

    # A litellm model's first call imports litellm (seconds): do it before timing.
    warm_up(runner.models.task_model, runner.models.judge_model)
    job = _Job(runner, cases, track_started=on_result is not None)
    watches: list[_Watch] = []
    results: list[CaseResult] = []
    interrupted = False
    try:
        for _ in range(max(1, min(concurrency, len(cases)))):
            watches.append(job.spawn())
        while True:
            done = job.all_done.wait(TICK)
            fresh_started, fresh = _drain(job)
            now = time.perf_counter()
            for watch in list(watches):
                if watch.case is not None and now > watch.deadline and job.abandon(watch, now):
                    fresh.append(_timeout_result(runner, watch))
                    watches.remove(watch)
                    watches.append(job.spawn())
            results.extend(fresh)
            if on_result is not None and (fresh or fresh_started):
                on_result(fresh_started, fresh)
            if done and job.all_done.is_set() and not job.finished:
                break
    except KeyboardInterrupt:
        interrupted = True
        job.stop = True
        for watch in watches:
            job.abandon(watch)
        _, fresh = _drain(job)
        results.extend(fresh)
    order = {case.index: position for position, case in enumerate(cases)}
    results.sort(key=lambda r: order[r.index])
    return results, interrupted


def _drain(job: _Job) -> tuple[list[int], list[CaseResult]]:
    # The lists are emptied in place: workers hold them in locals.
    with job.lock:
        fresh = job.finished[:]
        job.finished.clear()
    started = []
    while job.started:
        started.append(job.started.popleft())  # a deque: safe against appending workers
    return started, fresh


# --- the public entry points ---------------------------------------------------


def _prepare(
    metric: Any,
    data: Any,
    *,
    outputs: Any,
    inputs: Any,
    split: str | None,
    run: Any,
    artifact: Any,
    output_column: str | None,
    cases: int | None,
    timeout: float,
    lang: str | None,
    sample: str,
    seed: int | None,
    models: ModelSettings | None,
) -> tuple[CaseRunner | None, ContractError | None, list[Case], str]:
    language = resolve_lang(lang)
    limits = Limits.checked(timeout)
    if run is not None and output_column is not None:
        raise DataError("Give run= or output_column=, not both.")
    if run is None and output_column is None:
        raise DataError(
            "No outputs: give run= (outputs come from run(artifact, input)) "
            "or output_column= (outputs already in the data)."
        )
    if run is not None:
        from .metric import load_function

        run = load_function(run)
    all_cases = load_cases(data, outputs, inputs, split, output_column=output_column)
    chosen = pick_cases(all_cases, cases, sample, seed)
    try:
        loaded = load_metric(metric)
    except ContractError as problem:
        return None, problem, chosen, language
    runner = CaseRunner(loaded, run, artifact, limits, language, current_settings(models))
    return runner, None, chosen, language


class RunCache:
    """Outputs of ``run(artifact, input)`` kept in the kernel, so re-checks skip the run."""

    def __init__(self, store: MutableMapping[Any, Any] | None = None) -> None:
        self.store: MutableMapping[Any, Any] = {} if store is None else store

    @staticmethod
    def key(run: Any, artifact: Any, case_input: Any) -> Any:
        code = getattr(run, "__code__", None)
        run_key = (
            getattr(run, "__module__", None),
            getattr(run, "__qualname__", repr(run)),
            code.co_code if code is not None else id(run),
            code.co_consts if code is not None else None,
        )
        return (_freeze(run_key), _freeze(artifact), _freeze(case_input))

    def fill(self, runner: CaseRunner, cases: Iterable[Case]) -> list[Case]:
        """``cases`` with the outputs this cache knows filled in."""
        filled = []
        for case in cases:
            hit = self.store.get(self.key(runner.run, runner.artifact, case.input))
            if hit is not None and case.output is NO_OUTPUT:
                output, seen = hit
                case = Case(case.index, case.input, case.expected, deepcopy(output), seen)
            filled.append(case)
        return filled

    def keep(self, runner: CaseRunner, results: Iterable[CaseResult]) -> None:
        for result in results:
            if result.cached or result.measured is None or result.measured.run_ms is None:
                continue
            key = self.key(runner.run, runner.artifact, result.input)
            self.store[key] = (deepcopy(result.output), result.measured)

    def clear(self) -> None:
        self.store.clear()

    def __len__(self) -> int:
        return len(self.store)


def _freeze(value: Any) -> Any:
    try:
        hash(value)
        return value
    except TypeError:
        pass
    if isinstance(value, Mapping):
        return tuple((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, set | frozenset):
        return frozenset(_freeze(v) for v in value)
    return ("id", id(value))


def _execute(
    kind: str,
    metric: Any,
    data: Any,
    *,
    on_event: Listener | None,
    run_cache: RunCache | None,
    concurrency: int,
    executor: Executor | None,
    **options: Any,
) -> CheckReport:
    started = time.perf_counter()
    runner, load_error, chosen, lang = _prepare(metric, data, **options)
    report_type = EvalReport if kind == "eval" else CheckReport
    if runner is None:
        report = report_type(
            steps=build_steps(
                lang,
                load_error=load_error,
                has_spec=False,
                run_used=False,
                output_column=options["output_column"],
                cases=[],
            ),
            cases=[],
            lang=lang,
            metric_name=getattr(metric, "name", "default"),
            total_cases=len(chosen),
        )
        if on_event is not None:
            on_event(Finished(report))
        return report
    if run_cache is not None and runner.run is not None:
        chosen = run_cache.fill(runner, chosen)
    total = len(chosen)
    progress = itertools.count(1)

    def deliver(started_ids: list[int], fresh: list[CaseResult]) -> None:
        assert on_event is not None
        for index in started_ids:
            on_event(CaseStarted(index, total))
        for result in fresh:
            on_event(CaseFinished(result, next(progress), total))

    listener = deliver if on_event is not None else None
    if executor is None:
        results, interrupted = _supervise(
            runner, chosen, concurrency=concurrency, on_result=listener
        )
    else:
        from .scale import run_on_executor

        results, interrupted = run_on_executor(executor, runner, chosen, on_result=listener)
    if run_cache is not None and runner.run is not None:
        run_cache.keep(runner, results)
    report = report_type(
        steps=build_steps(
            lang,
            has_spec=runner.metric.reward_spec is not None,
            run_used=runner.run is not None,
            output_column=options["output_column"],
            cases=results,
        ),
        cases=results,
        lang=lang,
        metric_name=runner.metric.name,
        reward_spec=runner.metric.reward_spec,
        interrupted=interrupted,
        total_cases=total,
        elapsed_s=time.perf_counter() - started,
    )
    from .advice import advise

    advice = advise(report)
    if advice is not None:
        report.steps.append(advice)
    if on_event is not None:
        on_event(Finished(report))
    return report


def check(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    *,
    outputs: str | Sequence[str] | None = None,
    inputs: str | Sequence[str] | None = None,
    split: str | None = None,
    run: Callable[[Any, Any], Any] | str | None = None,
    artifact: Any = None,
    output_column: str | None = None,
    cases: int | None = 3,
    timeout: float = 60,
    lang: str | None = None,
    on_event: Listener | None = None,
    sample: str = "first",
    seed: int | None = None,
    models: ModelSettings | None = None,
    run_cache: RunCache | None = None,
) -> CheckReport:
    """The contract check: run the metric on the first ``cases`` cases (3).

    ``metric`` is a :class:`Metric`, a ``score`` callable, a ``metric.py`` path
    or source text.  Outputs come from ``run(artifact, input)`` or from the
    ``output_column`` of the data.  Returns a :class:`CheckReport`; a metric
    that breaks the contract fails the report, it never raises.
    """
    return _execute(
        "check",
        metric,
        data,
        on_event=on_event,
        run_cache=run_cache,
        concurrency=1,
        executor=None,
        outputs=outputs,
        inputs=inputs,
        split=split,
        run=run,
        artifact=artifact,
        output_column=output_column,
        cases=cases,
        timeout=timeout,
        lang=lang,
        sample=sample,
        seed=seed,
        models=models,
    )


def evaluate(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    *,
    outputs: str | Sequence[str] | None = None,
    inputs: str | Sequence[str] | None = None,
    split: str | None = None,
    run: Callable[[Any, Any], Any] | str | None = None,
    artifact: Any = None,
    output_column: str | None = None,
    cases: int | None = None,
    timeout: float = 60,
    lang: str | None = None,
    on_event: Listener | None = None,
    concurrency: int = 8,
    executor: Executor | None = None,
    sample: str = "first",
    seed: int | None = None,
    models: ModelSettings | None = None,
    run_cache: RunCache | None = None,
) -> EvalReport:
    """Every case (or the first ``cases``), ``concurrency`` at a time, or on ``executor``.

    The same machinery as :func:`check`; returns an :class:`EvalReport` with
    the mean score, the means of named scores, and the worst cases first.
    """
    if not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"concurrency must be a whole number of 1 or more, got {concurrency!r}.")
    return _execute(  # type: ignore[return-value]
        "eval",
        metric,
        data,
        on_event=on_event,
        run_cache=run_cache,
        concurrency=concurrency,
        executor=executor,
        outputs=outputs,
        inputs=inputs,
        split=split,
        run=run,
        artifact=artifact,
        output_column=output_column,
        cases=cases,
        timeout=timeout,
        lang=lang,
        sample=sample,
        seed=seed,
        models=models,
    )
