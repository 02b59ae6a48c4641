"""Scoring outputs for the quality measurements, on the engine's own machinery.

Every measurement starts with one ordinary evaluation (``execute``): it gets
the real outputs from ``run(artifact, input)`` (through the run cache) or from
``output_column``, with their measured time and cost.  Later passes score
*known* outputs (synthetic probe outputs, repeats, a second metric) through
the engine again (``execute_cases``, on cases that carry their outputs), so
limits, concurrency, executors and cost accounting are the engine's, ``run``
is never called again, and each output keeps its original measurements (the
reward's speed and cost parts stay those of the real run).

The run-level rules hold for every measurement here, once (issue 43):

- a pass that stopped for a configuration problem (a model's key, no model:
  ``report.stop``) ends the measurement: no further pass runs, and the
  report carries that ``stop`` and says its sentence first;
- a listener that raises, or an executor that fails, stops the measurement as
  Ctrl-C does, and the exception leaves :func:`finished` carrying the
  measurement's own partial report (``.skynet_report``: a ``ProbeReport``,
  not the engine's ``EvalReport`` of one pass).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from copy import deepcopy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.contract import RUN_FUNCTION, ContractError, step_title
from ..core.dataset import Case
from ..core.metric import Metric, load_metric
from ..core.options import MAX_SCORINGS, RunOptions
from ..core.report import CaseResult, EvalReport, RunStop
from ..i18n import t
from ..run.engine import RunCache, execute, execute_cases

if TYPE_CHECKING:
    from ._show import QualityReport

R = TypeVar("R", bound="QualityReport")


@dataclass(frozen=True, slots=True)
class Phase:
    """A measurement moves to its next pass (``outputs``, ``probes``, ``repeats``, ``metric_b``).

    The engine's ``CaseStarted``/``CaseFinished``/``Finished`` events of that pass follow.
    """

    name: str
    total: int


@dataclass(frozen=True, slots=True)
class QualityFinished:
    """The last event of a measurement: its report."""

    report: Any


Listener = Callable[[Any], None]


class MetricNotUsable(ValueError):
    """The metric cannot be measured (it does not load, or no case has an output)."""


@dataclass(slots=True)
class _Held:
    """What stopped the measurement under way: a pass's stop, an error to raise at the end."""

    stop: RunStop | None = None
    error: BaseException | None = None

    @property
    def stopped(self) -> bool:
        return self.stop is not None or self.error is not None


# The measurement under way in this context (each starts with ``first_pass``).
_held: ContextVar[_Held | None] = ContextVar("skynet_quality_held", default=None)


def _now() -> _Held:
    held = _held.get()
    if held is None:
        held = _Held()
        _held.set(held)
    return held


@contextlib.contextmanager
def _holding(held: _Held) -> Iterator[None]:
    """A listener's or an executor's exception is held until the report is made; what a
    pass finished comes back on it (the engine's ``skynet_report``), marked interrupted."""
    try:
        yield
    except Exception as error:
        if held.error is None:
            held.error = error


def _tell(on_event: Listener | None, event: Any) -> None:
    """A phase event: a listener that raises stops the measurement (held, raised at the end)."""
    if on_event is None:
        return
    held = _now()
    with _holding(held):
        on_event(event)


def _pass(held: _Held, run: Callable[[], EvalReport | Any]) -> EvalReport | None:
    """One pass through the engine: its report, the partial one an exception carried, or
    None when nothing came back (the exception is held)."""
    try:
        report = run()
    except Exception as error:
        partial = getattr(error, "skynet_report", None)
        if held.error is None:
            held.error = error
        return partial if isinstance(partial, EvalReport) else None
    if isinstance(report, EvalReport) and report.stop is not None and held.stop is None:
        held.stop = report.stop  # a configuration problem: no further pass runs
    return report if isinstance(report, EvalReport) else None


@dataclass(slots=True)
class Item:
    """One output to score: the case it belongs to and the output itself."""

    case: int  # the case index in the first pass
    output: Any
    measured: Any = None


def load(metric: Any, lang: str) -> Metric:
    """The loaded metric, or a clear ``MetricNotUsable``."""
    try:
        return load_metric(metric)
    except ContractError as problem:
        step = step_title(problem.step, lang)
        raise MetricNotUsable(
            t("quality.metric_unusable", lang, step=step, error=problem.message(lang))
        ) from None


def first_pass(
    metric: Metric,
    data: Any,
    options: RunOptions,
    *,
    run_cache: RunCache | None,
    on_event: Listener | None,
) -> EvalReport:
    """The ordinary evaluation: real outputs (run or output_column) and their scores."""
    held = _Held()
    _held.set(held)  # a new measurement: nothing held from an earlier one
    _tell(on_event, Phase("outputs", 0))
    report = None
    if not held.stopped:
        report = _pass(
            held,
            lambda: execute("eval", metric, data, options, on_event=on_event, run_cache=run_cache),
        )
    if report is None:  # the listener or the executor failed before any case came back
        report = EvalReport(steps=[], cases=[], lang=options.language, interrupted=True)
    if held.error is not None:
        report.interrupted = True  # what a pass after an error finished is not measured
    if not report.cases and report.failed_steps:
        step = report.failed_steps[0]
        raise MetricNotUsable(
            t("quality.metric_unusable", report.lang, step=step.title, error=step.message)
        )
    return report


def has_output(case: CaseResult) -> bool:
    """The case's run gave an output (a metric failure still leaves the output)."""
    return case.failed_step != RUN_FUNCTION


def with_output(report: EvalReport, lang: str) -> list[CaseResult]:
    """The first pass's cases that have an output; none (unless interrupted): MetricNotUsable."""
    cases = [case for case in report.cases if has_output(case)]
    if not cases and not report.interrupted and report.stop is None:  # (a stop says why)
        raise MetricNotUsable(t("quality.no_outputs", lang))
    return cases


def without_output(report: EvalReport) -> tuple[int, ...]:
    """The first pass's cases whose run gave no output: a measurement skips them."""
    return tuple(case.index for case in report.cases if not has_output(case))


def known_items(report: EvalReport, lang: str) -> list[Item]:
    """The real outputs of the first pass, with their measurements (see ``with_output``)."""
    return [Item(c.index, c.output, c.measured) for c in with_output(report, lang)]


def refuse_scorings(cases: int, scorings: int, lang: str) -> None:
    """A sentence, before any is made, when ``cases`` x ``scorings`` metric calls are too many.

    Each call keeps its result until the report is made: the bound keeps the kernel alive.
    """
    total = cases * scorings
    if total > MAX_SCORINGS:
        raise ValueError(
            t(
                "quality.scorings_max",
                lang,
                total=total,
                cases=cases,
                repeats=scorings,
                high=MAX_SCORINGS,
            )
        )


def score_items(
    metric: Metric,
    base: EvalReport,
    items: Sequence[Item],
    options: RunOptions,
    *,
    phase: str,
    on_event: Listener | None,
) -> tuple[list[CaseResult | None], bool]:
    """Score ``items`` (outputs of the first pass's cases); (results in order, interrupted).

    A result is None when the pass was interrupted before it.  After an interrupted
    first pass nothing is scored.
    """
    held = _now()
    if base.interrupted or held.error is not None:
        return [], True
    if not items or held.stop is not None:  # stopped: the report says why, first
        return [], False
    by_index = {case.index: case for case in base.cases}
    cases = []
    for position, item in enumerate(items):  # a case per item: its index is the item's place
        case = by_index[item.case]
        known = deepcopy(item.output)
        cases.append(Case(position, case.input, case.expected, known, item.measured))
    _tell(on_event, Phase(phase, len(items)))
    if held.error is not None:
        return [], True
    report = _pass(
        held,
        lambda: execute_cases("eval", metric, cases, options, on_event=on_event, run_cache=None),
    )
    results: list[CaseResult | None] = [None] * len(items)
    if report is None:
        return results, True
    for result in report.cases:
        results[result.index] = result
    return results, report.interrupted or held.error is not None


def unpriced_judging(results: Sequence[CaseResult | None]) -> int:
    """How many of ``results`` called the judge at a price that is not known."""
    count = 0
    for result in results:
        if result is None or result.judge_cost_usd is not None:
            continue
        run_calls = getattr(result.measured, "model_calls", 0) or 0
        if result.model_calls > run_calls:  # the judge was called, and its cost is unknown
            count += 1
    return count


def judge_cost(results: Sequence[CaseResult | None]) -> float | None:
    """The judge's cost over ``results`` (None when no case called a priced judge)."""
    costs = [r.judge_cost_usd for r in results if r is not None and r.judge_cost_usd is not None]
    return sum(costs) if costs else None


def clock() -> float:
    return time.perf_counter()


def finished(report: R, started: float, on_event: Listener | None) -> R:
    """``report``, timed from ``started`` (a ``clock()``), told to the listener: its last event.

    A measurement that met a configuration problem carries it (``report.stop``); one that
    a listener or an executor stopped raises that exception here, with ``report`` (marked
    interrupted) as its ``skynet_report``: nothing measured is lost.
    """
    held = _now()
    _held.set(None)
    report.elapsed_s = clock() - started
    report.stop = held.stop
    if held.error is not None:
        report.interrupted = True
        _attach(held.error, report)
        raise held.error
    if on_event is not None:
        try:
            on_event(QualityFinished(report))
        except Exception as error:
            _attach(error, report)
            raise
    return report


def _attach(error: BaseException, report: Any) -> None:
    with contextlib.suppress(AttributeError, TypeError):  # an exception refusing attributes
        error.skynet_report = report  # type: ignore[attr-defined]
