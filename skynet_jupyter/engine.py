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

    def run_one(self, case: Case, watch: _Watch | None = None) -> CaseResult:
        """Run one case in its own helper context (the watched workers reuse theirs)."""
        ctx = CaseContext(self.models)
        token = _current.set(ctx)
        try:
            return self.score_case(case, ctx, watch if watch is not None else _Watch())
        finally:
            _current.reset(token)

    def score_case(self, case: Case, ctx: CaseContext, watch: _Watch) -> CaseResult:
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

    def _run(self, case: Case, ctx: CaseContext, watch: _Watch) -> tuple[Any, Any, Any]:
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
    """What one worker is doing, read by the watcher: its case and that phase's deadline.

    The worker writes these without a lock (one attribute at a time, under the
    GIL); the order of its writes is what lets the watcher read them safely.
    """

    __slots__ = ("abandoned", "case", "deadline", "exited", "finishing", "step", "thread")

    def __init__(self) -> None:
        self.case: Case | None = None
        self.finishing: Case | None = None  # set just before the case's result is published
        self.deadline = _NEVER
        self.step = METRIC_TIME_LIMIT
        self.abandoned = False
        self.exited = False
        self.thread: threading.Thread | None = None


class _Job:
    """Cases shared by watched workers; results are published without a lock per case."""

    def __init__(
        self, runner: CaseRunner, cases: Sequence[Case], track_started: bool = False
    ) -> None:
        self.runner = runner
        self.cases = cases
        self.todo = iter(range(len(cases)))  # next() on it is atomic under the GIL
        self.finished: list[CaseResult] = []  # append-only: list.append is atomic
        self.started: deque[int] | None = deque() if track_started else None
        self.timed_out: dict[int, CaseResult] = {}  # case index -> its timeout result (wins)
        self.lock = threading.Lock()  # for the count of live workers, not per case
        self.alive = 0
        self.stop = False
        self.all_done = threading.Event()

    def work(self, watch: _Watch) -> None:
        # The hot loop: locals only, no lock, one context for every case.
        runner = self.runner
        score_case = runner.score_case
        ctx = CaseContext(runner.models)
        token = _current.set(ctx)
        cases = self.cases
        todo = self.todo
        publish = self.finished.append
        started = self.started
        try:
            while not (self.stop or watch.abandoned):
                position = next(todo, None)
                if position is None:
                    break
                case = cases[position]
                watch.case = case
                if started is not None:
                    started.append(case.index)
                result = score_case(case, ctx, watch)
                # Order matters: the watcher never times out a case marked finishing.
                watch.finishing = case
                publish(result)
                watch.deadline = _NEVER
                watch.case = None
        except _Abandoned:
            pass
        finally:
            _current.reset(token)
            self._exit(watch)

    def _exit(self, watch: _Watch) -> None:
        with self.lock:
            watch.exited = True
            if not watch.abandoned:
                self._one_less()

    def _one_less(self) -> None:
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

    def abandon(self, watch: _Watch, now: float = _NEVER) -> Case | None:
        """Give up on a worker whose case is past ``now``: that case, or None if it is not."""
        with self.lock:
            case = watch.case
            if (
                watch.exited
                or watch.abandoned
                or case is None
                or watch.finishing is case
                or watch.deadline > now
            ):
                return None
            watch.abandoned = True
            self._one_less()
        _interrupt_thread(watch.thread)
        return case


def _interrupt_thread(thread: threading.Thread | None) -> None:
    # Stops a runaway pure-Python loop; a call blocked in C ignores it, and is
    # simply left behind (its result is never read).
    if thread is not None and thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned)
        )


def _timeout_result(runner: CaseRunner, case: Case, step: str) -> CaseResult:
    result = CaseResult(case.index, case.input, case.expected, failed_step=step)
    if case.output is not NO_OUTPUT:
        result.output = case.output
    if step == RUN_FUNCTION:
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
    """Run ``cases`` on ``concurrency`` watched workers; (results in case order, interrupted).

    The calling thread watches: every ``TICK`` it hands new results to
    ``on_result``, fails a case past its limit (and replaces its worker), and
    turns Ctrl-C into a stop that keeps what finished.
    """
    install_skynet_module()
    from ._models import warm_up

    # A litellm model's first call imports litellm (seconds): do it before timing.
    warm_up(runner.models.task_model, runner.models.judge_model)
    job = _Job(runner, cases, track_started=on_result is not None)
    finished = job.finished
    timed_out = job.timed_out
    watches: list[_Watch] = []
    seen = 0
    interrupted = False
    try:
        for _ in range(max(1, min(concurrency, len(cases)))):
            watches.append(job.spawn())
        while True:
            done = job.all_done.wait(TICK)
            count = len(finished)
            fresh = finished[seen:count]
            seen = count
            if timed_out:
                fresh = [r for r in fresh if r.index not in timed_out]
            now = time.perf_counter()
            for watch in list(watches):
                if watch.case is None or now <= watch.deadline:
                    continue
                step = watch.step
                case = job.abandon(watch, now)
                if case is not None:
                    timed_out[case.index] = _timeout_result(runner, case, step)
                    fresh.append(timed_out[case.index])
                    watches.remove(watch)
                    watches.append(job.spawn())
            if on_result is not None:
                started = _take(job.started)
                if fresh or started:
                    on_result(started, fresh)
            if done and job.all_done.is_set() and len(finished) == seen:
                break
    except KeyboardInterrupt:
        interrupted = True
        job.stop = True
        for watch in watches:
            with job.lock:
                if not (watch.exited or watch.abandoned):
                    watch.abandoned = True
                    job._one_less()
            _interrupt_thread(watch.thread)
    results = [r for r in finished if r.index not in timed_out] + list(timed_out.values())
    if len(results) != len(cases) or timed_out or interrupted or concurrency > 1:
        order = {case.index: position for position, case in enumerate(cases)}
        results.sort(key=lambda r: order[r.index])
    return results, interrupted


def _take(started: deque[int] | None) -> list[int]:
    taken: list[int] = []
    while started:
        taken.append(started.popleft())  # a deque: safe against appending workers
    return taken


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
