"""Running cases: the contract check and the full evaluation.

One case is one call (``run_case``; the work itself is ``one_case``): run
``run(artifact, input)``, call the metric on copies of the case, validate the
return.  Many cases run on watched worker threads (``workers``) or on any
``concurrent.futures.Executor`` (``executors``).  This module turns data, a metric
and options into cases, runs them, and builds the report with its steps.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import time
import types
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from concurrent.futures import Executor
from copy import deepcopy
from dataclasses import dataclass, replace
from typing import Any

from ..core.contract import METRIC_RETURN_VALUE, RUN_FUNCTION, ContractError
from ..core.dataset import NO_OUTPUT, Case, Cases, inputs_note, load_cases, pick_cases
from ..core.metric import Metric, load_function, load_metric
from ..core.options import (
    CHECK_CASES,
    EVAL_CONCURRENCY,
    RUN_TIMEOUT,
    Isolation,
    Kind,
    Limits,
    RunOptions,
)
from ..core.report import CaseResult, CheckReport, EvalReport, build_steps
from ..i18n import t
from ..models.case_context import Observation
from ..models.settings import ModelSettings, current_settings
from .cache import RunStore, global_names, model_identity, output_key
from .one_case import CaseRunner
from .workers import StoppedByListener, supervise

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
    results, _ = supervise(runner, [case], concurrency=1, on_result=None)
    return results[0]


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
    no output here fails at the run step, ``missing`` saying why.
    """

    outputs: Mapping[int, tuple[Any, Observation | None]]
    missing: str

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


class RunCache:
    """Outputs of ``run(artifact, input)``, so re-checks skip the run (and its cost).

    In the kernel by default; with ``path=`` also in a sqlite file that survives a
    restart and is shared by processes (:mod:`.cache`).  An output is found
    again only for the same run function (code, closure, the data it reads), the
    same artifact, the same input and the same task model; the API key is not
    part of that.  A cached case keeps the time and cost of the run that made
    it, so a reward's speed and cost parts stay those of the real run.
    """

    def __init__(
        self,
        store: MutableMapping[Any, Any] | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
    ) -> None:
        self.store: MutableMapping[Any, Any] = {} if store is None else store
        self.disk: RunStore | None = None if path is None else RunStore(path)
        self.reads = True  # False: every case runs again, and its output replaces the old one

    def fresh(self) -> RunCache:
        """This cache, written to but not read from (``--fresh``: run everything again)."""
        again = RunCache(self.store)
        again.disk = self.disk
        again.reads = False
        return again

    @staticmethod
    def key(run: Any, artifact: Any, case_input: Any, task_model: Any = None) -> Any:
        code = getattr(run, "__code__", None)
        run_key = (
            getattr(run, "__module__", None),
            getattr(run, "__qualname__", repr(run)),
            code.co_code if code is not None else id(run),
            code.co_consts if code is not None else None,
            # The closure's values: without them a closure over "B" would get the output
            # cached for the same code over "A".  Immutable values count by value; a
            # mutable one (a list recording calls, a client) by identity, as it changes.
            tuple(_cell_key(cell) for cell in getattr(run, "__closure__", None) or ()),
            # What the body reads from its globals: a notebook that edits PROMPT (or a
            # settings dict, in place) must not get the old prompt's outputs back.
            _globals_key(run),
        )
        try:
            model = model_identity(task_model)
        except Exception:  # a model object with no stable form: this object only
            model = ("id", id(task_model))
        return (_freeze(run_key), _freeze(artifact), _freeze(case_input), _freeze(model))

    def disk_key(self, run: Any, artifact: Any, case_input: Any, task_model: Any) -> str | None:
        """The file's name for an output (None: not kept on disk)."""
        return output_key(run, artifact, case_input, task_model)

    def fill(self, runner: CaseRunner, cases: Iterable[Case]) -> list[Case]:
        """``cases`` with the outputs this cache knows filled in."""
        if not self.reads:
            return list(cases)
        filled = []
        model = runner.models.task_model
        for case in cases:
            if case.output is NO_OUTPUT:
                hit = self.store.get(self.key(runner.run, runner.artifact, case.input, model))
                if hit is None and self.disk is not None:
                    name = self.disk_key(runner.run, runner.artifact, case.input, model)
                    hit = None if name is None else _from_disk(self.disk.get(name))
                if hit is not None:
                    output, seen = hit
                    case = Case(case.index, case.input, case.expected, deepcopy(output), seen)
            filled.append(case)
        return filled

    def keep(self, runner: CaseRunner, results: Iterable[CaseResult]) -> None:
        model = runner.models.task_model
        for result in results:
            if result.cached or result.measured is None or result.measured.run_ms is None:
                continue
            entry = (deepcopy(result.output), result.measured)
            self.store[self.key(runner.run, runner.artifact, result.input, model)] = entry
            if self.disk is not None:
                name = self.disk_key(runner.run, runner.artifact, result.input, model)
                if name is not None:
                    # Plain fields, not the class: a later version may add fields.
                    self.disk.put(name, (entry[0], dataclasses.asdict(result.measured)))

    def clear(self) -> int:
        """Forget every output, in the kernel and on disk; how many were forgotten."""
        count = len(self.store)
        self.store.clear()
        if self.disk is not None:
            count = max(count, self.disk.clear())
        return count

    def __len__(self) -> int:
        return max(len(self.store), 0 if self.disk is None else len(self.disk))


def _from_disk(entry: Any) -> tuple[Any, Observation] | None:
    """(output, observation) from a stored entry, or None (a miss) if it is not one."""
    try:
        output, fields = entry
        known = {f.name for f in dataclasses.fields(Observation)}
        seen = Observation(**{k: v for k, v in fields.items() if k in known})
    except Exception:  # an entry of another version or shape: run again
        return None
    if not isinstance(seen.run_ms, int | float):
        return None
    return output, seen


def _globals_key(run: Any) -> Any:
    """The globals ``run``'s code reads: modules, classes and builtins by name, the rest by value.

    Unlike the closure, a global container counts by its contents (a settings dict
    edited in place); a run that records its calls in a global list simply misses.
    """
    code = getattr(run, "__code__", None)
    namespace = getattr(run, "__globals__", None)
    if code is None or namespace is None:
        return None
    found: list[tuple[str, Any]] = []
    for name in global_names(code):
        if name not in namespace:
            continue
        value = namespace[name]
        if isinstance(value, types.ModuleType):
            found.append((name, ("module", value.__name__)))
        elif isinstance(value, type | types.BuiltinFunctionType):
            found.append((name, ("named", value.__module__, value.__qualname__)))
        else:
            found.append((name, _freeze(value)))
    return tuple(found)


def _cell_key(cell: Any) -> Any:
    try:
        value = cell.cell_contents
    except ValueError:  # a cell not yet filled (a name assigned after the def)
        return None
    if isinstance(value, str | bytes | int | float | bool | tuple | type(None)):
        try:
            hash(value)  # a tuple holding a list is not a value
            return value
        except TypeError:
            pass
    return ("id", id(value))


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


def execute(
    kind: Kind,
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    options: RunOptions,
    *,
    on_event: Listener | None,
    run_cache: RunCache | None,
    known_outputs: KnownOutputs | None = None,
) -> CheckReport:
    """Check (``kind="check"``) or evaluate with options already checked.

    The one way in for every entry point: :func:`check` and :func:`evaluate`
    build ``options`` from their keywords; the magics, ``skynet-check``, the
    quality tools and the optimizer build their :class:`RunOptions` once and
    pass it here as it is.  With ``known_outputs``, the chosen cases are scored
    on outputs already produced (the edit loop re-scores its last check's):
    ``run`` is not called and ``run_cache`` is not used.
    """
    started = time.perf_counter()
    run = _run_function(options)
    chosen = chosen_cases(data, options)
    runner, load_error = _runner(metric, run, options)
    cases = chosen
    if known_outputs is not None:
        cases = known_outputs.given_to(chosen)
        run_cache = None  # nothing to look up, and these outputs are not this run's to keep
        if runner is not None:
            runner = replace(runner, refused_run=known_outputs.missing)
    return _run_cases(
        kind, metric, runner, load_error, cases, chosen, options, on_event, run_cache, started
    )


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
    runner, load_error = _runner(metric, _run_function(options), options)
    given = list(cases)
    return _run_cases(
        kind, metric, runner, load_error, given, Cases(given), options, on_event, run_cache, started
    )


def _run_cases(
    kind: Kind,
    metric: Metric | Callable[..., Any] | str,
    runner: CaseRunner | None,
    load_error: ContractError | None,
    chosen: list[Case],
    data_notes: list[Case],
    options: RunOptions,
    on_event: Listener | None,
    run_cache: RunCache | None,
    started: float,
) -> CheckReport:
    """Run ``chosen`` and build the report; ``data_notes``: what loading noticed (Cases)."""
    lang, concurrency, executor = options.language, options.concurrency, options.executor
    report_type = EvalReport if kind == "eval" else CheckReport
    if runner is None:
        report = report_type(
            steps=build_steps(
                lang,
                load_error=load_error,
                has_spec=False,
                run_used=False,
                output_column=options.output_column,
                cases=[],
            ),
            cases=[],
            lang=lang,
            metric_name=getattr(metric, "name", "default"),
            total_cases=len(chosen),
        )
        if on_event is not None:
            _tell(on_event, Finished(report), report)
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
    stopped: StoppedByListener | None = None
    try:
        if executor is not None:
            from .executors import run_on_executor

            results, interrupted = run_on_executor(executor, runner, chosen, on_result=listener)
        elif options.isolation is Isolation.PROCESS:
            from .isolation import run_isolated

            results, interrupted = run_isolated(
                runner, chosen, concurrency=concurrency, on_result=listener
            )
        else:
            results, interrupted = supervise(
                runner, chosen, concurrency=concurrency, on_result=listener
            )
    except StoppedByListener as stop:
        stopped = stop
        results, interrupted = stop.results, True
    results = _account(chosen, results, interrupted, lang)
    if run_cache is not None and runner.run is not None:
        run_cache.keep(runner, results)
    report = report_type(
        steps=build_steps(
            lang,
            has_spec=runner.metric.reward_spec is not None,
            run_used=runner.run is not None,
            output_column=options.output_column,
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
    if runner.run is not None:
        _note_inputs(report, data_notes)
    from ..core.advice import advise

    advice = advise(report, data_notes)
    if advice is not None:
        report.steps.append(advice)
    if stopped is not None:
        _attach(stopped.error, report)
        raise stopped.error
    if on_event is not None:
        _tell(on_event, Finished(report), report)
    return report


def _note_inputs(report: CheckReport, cases: Sequence[Case]) -> None:
    """The run step names the columns that became inputs when ``inputs`` did not name them."""
    note = inputs_note(cases, report.lang)
    if note is None:
        return
    for number, step in enumerate(report.steps):
        if step.id == RUN_FUNCTION:
            message = f"{step.message} {note}" if step.message else note
            report.steps[number] = replace(step, message=message)


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


def _attach(error: BaseException, report: CheckReport) -> None:
    """Keep the partial report on the listener's exception, and say so on it."""
    with contextlib.suppress(AttributeError, TypeError):  # a type without a __dict__
        error.skynet_report = report  # type: ignore[attr-defined]
    error.add_note(
        t(
            "engine.listener_failed",
            report.lang,
            done=len(report.cases),
            total=report.total_cases,
        )
    )


def _tell(on_event: Listener, event: Event, report: CheckReport) -> None:
    """The last event; if the listener raises, its exception carries the (whole) report."""
    try:
        on_event(event)
    except Exception as exc:
        with contextlib.suppress(AttributeError, TypeError):
            exc.skynet_report = report  # type: ignore[attr-defined]
        raise


# What check and evaluate take besides their options: every other keyword is a RunOptions
# field, given as it is (tests/core/test_options.py holds the signatures to the fields).
_NOT_OPTIONS = frozenset({"metric", "data", "on_event", "run_cache"})


def _options_in(arguments: dict[str, Any]) -> dict[str, Any]:
    """The run options among a call's own arguments (``locals()`` on its first line)."""
    return {name: value for name, value in arguments.items() if name not in _NOT_OPTIONS}


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
    cases: int | None = CHECK_CASES,
    timeout: float = 60,
    lang: str | None = None,
    on_event: Listener | None = None,
    sample: str = "first",
    seed: int | None = None,
    models: ModelSettings | None = None,
    run_cache: RunCache | None = None,
    run_timeout: float = RUN_TIMEOUT,
    isolation: str = "thread",
    json_columns: str | Sequence[str] | None = None,
    dtype: Any = None,
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
    options = RunOptions.given(**_options_in(locals()))
    return execute("check", metric, data, options, on_event=on_event, run_cache=run_cache)


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
    concurrency: int = EVAL_CONCURRENCY,
    executor: Executor | None = None,
    sample: str = "first",
    seed: int | None = None,
    models: ModelSettings | None = None,
    run_cache: RunCache | None = None,
    run_timeout: float = RUN_TIMEOUT,
    isolation: str = "thread",
    json_columns: str | Sequence[str] | None = None,
    dtype: Any = None,
) -> EvalReport:
    """Every case (or the first ``cases``), ``concurrency`` at a time, or on ``executor``.

    The same machinery as :func:`check` (``timeout``, ``run_timeout``,
    ``isolation``, ``on_event`` as there); returns an :class:`EvalReport` with
    the mean score, the means of named scores, and the worst cases first.
    ``isolation="process"`` runs ``concurrency`` worker processes; it does not
    combine with ``executor`` (whose workers are the executor's).
    """
    options = RunOptions.given(**_options_in(locals()))
    report = execute("eval", metric, data, options, on_event=on_event, run_cache=run_cache)
    assert isinstance(report, EvalReport)
    return report
