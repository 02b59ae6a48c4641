"""Running cases: the contract check and the full evaluation.

One case is one call (``run_case``; the work itself is ``one_case``): run
``run(artifact, input)``, call the metric on copies of the case, validate the
return.  Many cases run on watched worker threads (``workers``), in worker
processes (``isolation``) or on any ``concurrent.futures.Executor``
(``executors``), all under one loop (``driver``).  This module turns data, a
metric and options into cases, runs them, and builds the report with its steps.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from copy import deepcopy
from dataclasses import dataclass, replace
from typing import Any, Unpack

from ..core.contract import (
    METRIC_LOADS,
    METRIC_RETURN_VALUE,
    METRIC_TIME_LIMIT,
    RUN_FUNCTION,
    ContractError,
)
from ..core.dataset import NO_OUTPUT, Case, Cases, inputs_note, load_cases, pick_cases
from ..core.keywords import CHECK, EVALUATE, CheckKeywords, EvalKeywords
from ..core.metric import Metric, load_function, load_metric
from ..core.model_settings import ModelSettings
from ..core.observation import Observation
from ..core.options import (
    Isolation,
    Kind,
    Limits,
    RunOptions,
)
from ..core.report import CaseResult, CheckReport, EvalReport, RunStop, build_steps
from ..core.skynet_import import shadowing_note
from ..i18n import language, sentences, t
from ..models import import_ahead
from ..models.call_cache import CallCache
from ..models.first_contact import FirstContact
from ..models.litellm_import import price_map_fallback
from ..models.settings import current_settings
from .driver import Driven, StoppedByListener, StoppedEarly
from .one_case import CaseRunner
from .workers import processes_instead, run_in_threads, threads_exhausted

__all__ = [
    "CaseFinished",
    "CaseRunner",
    "CaseStarted",
    "Event",
    "Finished",
    "KnownOutputs",
    "Limits",
    "Listener",
    "RunCache",
    "check",
    "chosen_cases",
    "evaluate",
    "execute",
    "execute_cases",
    "run_case",
]

# --- events -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaseStarted:
    """Sent to ``on_event``, in the calling thread, when a case has started running.

    ``index`` is the case's ``Case.index`` (its row in the data); ``total`` is how
    many cases this run has.  With an executor, "started" means sent to a worker.
    """

    index: int
    total: int


@dataclass(frozen=True, slots=True)
class CaseFinished:
    """Sent to ``on_event``, in the calling thread, each time a case has finished.

    ``result`` is that case's :class:`CaseResult`; ``done`` counts the finished
    cases so far (1 to ``total``), in the order they finished, not in case order.
    """

    result: CaseResult
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class Finished:
    """Sent to ``on_event`` once, last, when the run is over (not after ``on_event`` raised).

    ``report`` is what ``check`` (a :class:`CheckReport`) or ``evaluate`` (an
    :class:`EvalReport`) returns.
    """

    report: CheckReport


Event = CaseStarted | CaseFinished | Finished
Listener = Callable[[Event], None]


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
    return run_in_threads(runner, [case], concurrency=1, on_result=None).results[0]


# --- the public entry points ---------------------------------------------------


def _run_function(options: RunOptions) -> Callable[[Any, Any], Any] | None:
    """``options.run``: a function as is; "FILE.py:FUNC" loaded; anything else a TypeError."""
    return None if options.run is None else load_function(options.run)


def chosen_cases(data: Any, options: RunOptions) -> list[Case]:
    """The cases ``options`` choose from ``data``, with what loading noticed (:class:`Cases`)."""
    all_cases = load_cases(
        data,
        options.outputs,
        options.inputs,
        options.split,
        output_column=options.output_column,
        json_columns=options.json_columns,
        dtype=options.dtype,
    )
    return pick_cases(all_cases, options.cases, options.sample, options.seed)


def _runner(
    metric: Metric | Callable[..., Any] | str | os.PathLike[str],
    run: Callable[[Any, Any], Any] | None,
    options: RunOptions,
) -> tuple[CaseRunner | None, ContractError | None]:
    try:
        loaded = load_metric(metric)
    except ContractError as problem:
        return None, problem
    models = current_settings(options.models)
    runner = CaseRunner(loaded, run, options.artifact, options.limits, options.language, models)
    return runner, None


@dataclass(frozen=True, slots=True)
class KnownOutputs:
    """Outputs already produced, by case index (its row in the data), to score as they are.

    ``outputs[index]`` is ``(output, measured)``: ``measured`` is what the run
    that made the output measured (an :class:`Observation`, or None), so the
    case keeps that run's time and cost, and a reward's speed and cost parts
    stay those of the real run.  ``run`` is never called: a chosen case with
    no output here fails at the run step, ``missing`` saying why.  ``note``
    is added to the run step's message: the view names the replay.
    """

    outputs: Mapping[int, tuple[Any, Observation | None]]
    missing: str
    note: str = ""

    def given_to(self, cases: Sequence[Case]) -> list[Case]:
        """``cases``, each with its known output (a copy: the caller's stays as it is)."""
        filled = []
        for case in cases:
            known = self.outputs.get(case.index)
            if known is not None:
                output, measured = known
                case = Case(case.index, case.input, case.expected, deepcopy(output), measured)
            filled.append(case)
        return filled


RunCache = CallCache
"""The run cache: every model call made through ``llm()``, kept by its request.

``RunCache()`` keeps replies in the kernel; ``RunCache(path=...)`` also in a
sqlite file that survives a restart and is shared by processes.  ``run`` runs
every time; a call it makes that was made before (the same model, arguments
and messages) is answered from the cache with its original time, tokens and
cost.  The name is the one earlier versions gave their cache of run outputs.
"""


@import_ahead.run_decides  # no litellm imported ahead while it runs
def execute(
    kind: Kind,
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    options: RunOptions,
    *,
    on_event: Listener | None,
    run_cache: RunCache | None,
    known_outputs: KnownOutputs | None = None,
    record: bool = False,
) -> CheckReport:
    """Check (``kind="check"``) or evaluate with options already checked.

    The one way in for every entry point: :func:`check` and :func:`evaluate`
    build ``options`` from their keywords; the magics, ``skynet-check``, the
    quality tools and the optimizer build their :class:`RunOptions` once and
    pass it here as it is.  With ``known_outputs``, the chosen cases are scored
    on outputs already produced (the edit loop re-scores its last check's):
    ``run`` is not called, and the run step says the outputs were replayed.
    ``run_cache`` answers the model calls made again (``llm()`` in run or metric).
    ``record=True`` records the run in the run log (``runlog/``; never raises).
    """
    started = time.perf_counter()
    with language(options.language):  # the run's language, for every sentence made below
        run = _run_function(options)
        chosen = chosen_cases(data, options)
        runner, load_error = _runner(metric, run, options)
        cases = chosen
        if known_outputs is not None:
            cases = known_outputs.given_to(chosen)
            if runner is not None:
                runner = replace(runner, refused_run=known_outputs.missing)
        plan = _Run(kind, metric, options, cases, chosen, on_event, run_cache, started)
        report = _run_cases(plan, runner, load_error)
        if known_outputs is not None and known_outputs.note:
            _note_on_run_step(report, known_outputs.note)
        if record:  # the run log (issue 46): imported here, never raises, never fails a run
            from ..runlog.recorder import record_run

            record_run(report, metric if runner is None else runner.metric, chosen, options)
    return report


@import_ahead.run_decides
def execute_cases(
    kind: Kind,
    metric: Metric | Callable[..., Any] | str,
    cases: Sequence[Case],
    options: RunOptions,
    *,
    on_event: Listener | None,
    run_cache: RunCache | None,
) -> CheckReport:
    """Like :func:`execute`, on cases already made: ``options`` choose no cases here.

    A case that carries its output (and the run's ``measured`` time and cost)
    is scored on it; the others are run, through ``run_cache``.  For callers
    whose cases do not come from one data set: the optimizer's batches, the
    quality tools' passes over known outputs.
    """
    started = time.perf_counter()
    with language(options.language):  # the run's language, for every sentence made below
        runner, load_error = _runner(metric, _run_function(options), options)
        given = list(cases)
        plan = _Run(kind, metric, options, given, Cases(given), on_event, run_cache, started)
        return _run_cases(plan, runner, load_error)


@dataclass(frozen=True, slots=True)
class _Run:
    """What one run is asked to do, as :func:`execute` and :func:`execute_cases` made it."""

    kind: Kind
    metric: Metric | Callable[..., Any] | str
    options: RunOptions
    chosen: list[Case]  # the cases to run, in order
    data_notes: list[Case]  # what loading noticed (a ``Cases``)
    on_event: Listener | None
    run_cache: RunCache | None
    started: float  # perf_counter() when the call came in

    @property
    def report_type(self) -> type[CheckReport]:
        return EvalReport if self.kind == "eval" else CheckReport


def _run_cases(
    plan: _Run, runner: CaseRunner | None, load_error: ContractError | None
) -> CheckReport:
    """Run ``plan.chosen`` and build the report (the metric did not load: ``load_error``)."""
    if runner is None:
        return _unloaded(plan, load_error)
    if plan.run_cache is not None:
        runner = replace(runner, call_cache=plan.run_cache)
    contact = _first_contact(runner, plan.options)
    if contact is not None:
        runner = replace(runner, first_contact=contact)
    stopped: StoppedEarly | None = None
    moved = False  # to processes: this kernel keeps no more blocked threads
    stop: RunStop | None = None
    try:
        (results, interrupted, stop), moved = _run_on_backend(plan, runner, _listener(plan))
    except StoppedEarly as early:  # a listener or the backend failed: nothing finished is lost
        stopped = early
        results, interrupted = early.results, True
    finally:
        if contact is not None:
            contact.close()
    results = _account(plan.chosen, results, interrupted, plan.options.language)
    report = _report(plan, runner, results, interrupted)
    report.stop = stop
    if moved and (said := processes_instead()) is not None:
        _note_on(report, METRIC_TIME_LIMIT, said)
    _note_shadowing(report)
    from ..core.advice import advise

    advice = advise(report, plan.data_notes)
    if advice is not None:
        report.steps.append(advice)
    if stopped is not None:
        _attach(stopped, report)
        raise stopped.error
    if plan.on_event is not None:
        _tell(plan.on_event, Finished(report), report)
    return report


def _first_contact(runner: CaseRunner, options: RunOptions) -> FirstContact | None:
    """The run's rule that a model's key is tried once, when its cases may call a model
    (shared with worker processes when they may run elsewhere than this process)."""
    if runner.models.task_model is None and runner.models.judge_model is None:
        return None
    in_process = options.executor is None and options.isolation is not Isolation.PROCESS
    shared = not in_process or threads_exhausted()
    if isinstance(options.executor, ThreadPoolExecutor):
        shared = False
    return FirstContact.for_run(shared=shared)


def _unloaded(plan: _Run, load_error: ContractError | None) -> CheckReport:
    """The report of a run whose metric did not load: no case ran."""
    lang, options = plan.options.language, plan.options
    steps = build_steps(
        lang,
        load_error=load_error,
        has_spec=False,
        run_used=False,
        output_column=options.output_column,
        cases=[],
    )
    report = plan.report_type(
        steps=steps,
        cases=[],
        lang=lang,
        metric_name=getattr(plan.metric, "name", "default"),
        total_cases=len(plan.chosen),
    )
    _note_shadowing(report)
    if plan.on_event is not None:
        _tell(plan.on_event, Finished(report), report)
    return report


def _listener(plan: _Run) -> Callable[[list[int], list[CaseResult]], None] | None:
    """The backends' ``on_result``, turned into the caller's events (None: nobody listens)."""
    on_event = plan.on_event
    if on_event is None:
        return None
    total = len(plan.chosen)
    progress = itertools.count(1)

    def deliver(started_ids: list[int], fresh: list[CaseResult]) -> None:
        for index in started_ids:
            on_event(CaseStarted(index, total))
        for result in fresh:
            on_event(CaseFinished(result, next(progress), total))

    return deliver


def _run_on_backend(
    plan: _Run,
    runner: CaseRunner,
    listener: Callable[[list[int], list[CaseResult]], None] | None,
) -> tuple[Driven, bool]:
    """What the run gave back, and whether it moved to processes, on the backend the
    options choose."""
    options, chosen = plan.options, plan.chosen
    if options.executor is not None:
        from .executors import run_on_executor

        return run_on_executor(options.executor, runner, chosen, on_result=listener), False
    if options.isolation is Isolation.PROCESS:
        from .isolation import run_isolated

        isolated = run_isolated(runner, chosen, concurrency=options.concurrency, on_result=listener)
        return isolated, False
    return _in_threads(runner, chosen, options.concurrency, listener)


def _report(
    plan: _Run, runner: CaseRunner, results: list[CaseResult], interrupted: bool
) -> CheckReport:
    """The report of the cases that ran, with its steps (and the inputs it guessed)."""
    lang, options = plan.options.language, plan.options
    steps = build_steps(
        lang,
        has_spec=runner.metric.reward_spec is not None,
        run_used=runner.run is not None,
        output_column=options.output_column,
        cases=results,
    )
    report = plan.report_type(
        steps=steps,
        cases=results,
        lang=lang,
        metric_name=runner.metric.name,
        reward_spec=runner.metric.reward_spec,
        interrupted=interrupted,
        total_cases=len(plan.chosen),
        elapsed_s=time.perf_counter() - plan.started,
    )
    if runner.run is not None:
        _note_inputs(report, plan.data_notes)
    _note_price_map(report, runner.run is not None)
    return report


def _note_inputs(report: CheckReport, cases: Sequence[Case]) -> None:
    """The run step names the columns that became inputs when ``inputs`` did not name them."""
    note = inputs_note(cases, report.lang)
    if note is not None:
        _note_on_run_step(report, note)


def _note_price_map(report: CheckReport, run_used: bool) -> None:
    """The first report after a litellm import slowed by an offline price-map download."""
    step_id = RUN_FUNCTION if run_used else METRIC_RETURN_VALUE  # where the calls were made
    if not any(step.id == step_id for step in report.steps):
        return  # said by the next report that has that step
    seconds = price_map_fallback()
    if seconds is not None:
        _note_on(
            report, step_id, t("models.price_map_fallback", report.lang, seconds=f"{seconds:.1f}")
        )


def _note_on_run_step(report: CheckReport, note: str) -> None:
    _note_on(report, RUN_FUNCTION, note)


def _note_on(report: CheckReport, step_id: str, note: str) -> None:
    for number, step in enumerate(report.steps):
        if step.id == step_id:
            message = sentences(step.message, note)
            report.steps[number] = replace(step, message=message)


def _note_shadowing(report: CheckReport) -> None:
    """A failed check says so when ``import skynet`` gives the user's own module, not ours."""
    if report.passed:
        return
    note = shadowing_note(report.lang)
    if note is not None:
        _note_on(report, report.failed_steps[0].id if report.failed_steps else METRIC_LOADS, note)


def _in_threads(
    runner: CaseRunner,
    chosen: list[Case],
    concurrency: int,
    listener: Callable[[list[int], list[CaseResult]], None] | None,
) -> tuple[Driven, bool]:
    """(what the run gave back, moved): in watched threads, or in processes (moved) once
    this kernel holds as many blocked threads as it keeps: a hung case of an earlier
    check must not fail this one."""
    if threads_exhausted():
        from .isolation import run_isolated

        with contextlib.suppress(ValueError):  # not picklable: the threads' refusal says why
            return run_isolated(runner, chosen, concurrency=concurrency, on_result=listener), True
    return run_in_threads(runner, chosen, concurrency=concurrency, on_result=listener), False


def _account(
    chosen: Sequence[Case], results: list[CaseResult], interrupted: bool, lang: str
) -> list[CaseResult]:
    """One result per case asked, in order: a case without one fails, saying so.

    Every path (threads, processes, an executor, Dask) ends here, so a case
    lost anywhere can never make a report pass.  Interrupted runs keep only
    what finished (the report says it was interrupted).
    """
    if len(results) == len(chosen) and [r.index for r in results] == [c.index for c in chosen]:
        return results
    by_index: dict[int, CaseResult] = {}
    for result in results:
        by_index.setdefault(result.index, result)  # the first result of a case wins
    kept: list[CaseResult] = []
    for case in chosen:
        found = by_index.get(case.index)
        if found is not None:
            kept.append(found)
        elif not interrupted:
            lost = CaseResult(case.index, case.input, case.expected)
            if case.output is not NO_OUTPUT:
                lost.output = case.output
            lost.failed_step = METRIC_RETURN_VALUE
            lost.error = t("case.lost", lang)
            kept.append(lost)
    return kept


def _attach(stopped: StoppedEarly, report: CheckReport) -> None:
    """Keep the partial report on the exception that stopped the run, and say so on it."""
    error = stopped.error
    # An exception type that refuses new attributes (no __dict__, a strict __setattr__)
    # is raised as it is: the listener's own error is what the caller must see.
    with contextlib.suppress(AttributeError, TypeError):
        error.skynet_report = report  # type: ignore[attr-defined]
    said = "engine.listener_failed" if isinstance(stopped, StoppedByListener) else "engine.failed"
    note = t(said, report.lang, done=len(report.cases), total=report.total_cases)
    with contextlib.suppress(AttributeError, TypeError):
        error.add_note(note)


def _tell(on_event: Listener, event: Event, report: CheckReport) -> None:
    """The last event; if the listener raises, its exception carries the (whole) report."""
    try:
        on_event(event)
    except Exception as exc:
        with contextlib.suppress(AttributeError, TypeError):
            exc.skynet_report = report  # type: ignore[attr-defined]
        raise


@CHECK.signed
def check(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    *,
    on_event: Listener | None = None,
    run_cache: RunCache | None = None,
    **options: Unpack[CheckKeywords],
) -> CheckReport:
    """The contract check: run the metric on the first ``cases`` cases (3).

    ``metric`` is a :class:`Metric`, a ``score`` callable, a ``metric.py`` path
    or source text.  Outputs come from ``run(artifact, input)`` or from the
    ``output_column`` of the data.  Returns a :class:`CheckReport`; a metric
    that breaks the contract fails the report, it never raises.

    ``timeout`` is the metric's time limit per call (1..600 s); ``run_timeout``
    the run function's, per case (1..86400 s, default 600).  ``isolation``:
    ``"thread"`` (default, fastest) or ``"process"``: each case runs in a worker
    process that is killed when the case runs past its limit, so a call blocked
    in C (``time.sleep``, a socket read) is really stopped; notebook-defined
    code is sent by value (cloudpickle).  If ``on_event`` raises, no new case
    starts, the calls in flight finish, and its exception is raised with the
    partial report (marked interrupted) as its ``skynet_report`` attribute.

    ``json_columns`` parses the named columns' cells as JSON; ``dtype`` gives
    pandas the types of CSV/TSV columns (otherwise every cell is text, as
    written): see :func:`~skynet_jupyter.load_cases`.
    """
    checked = CHECK.options("check", options)
    return execute(
        "check", metric, data, checked, on_event=on_event, run_cache=run_cache, record=True
    )


@EVALUATE.signed
def evaluate(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    *,
    on_event: Listener | None = None,
    run_cache: RunCache | None = None,
    **options: Unpack[EvalKeywords],
) -> EvalReport:
    """Every case (or the first ``cases``), ``concurrency`` at a time, or on ``executor``.

    The same machinery as :func:`check` (``timeout``, ``run_timeout``,
    ``isolation``, ``on_event`` as there); returns an :class:`EvalReport` with
    the mean score, the means of named scores, and the worst cases first.
    ``isolation="process"`` runs ``concurrency`` worker processes; it does not
    combine with ``executor`` (whose workers are the executor's).
    """
    checked = EVALUATE.options("evaluate", options)
    report = execute(
        "eval", metric, data, checked, on_event=on_event, run_cache=run_cache, record=True
    )
    assert isinstance(report, EvalReport)
    return report
