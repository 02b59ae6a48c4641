"""Scoring outputs for the quality measurements, on the engine's own machinery.

Every measurement starts with one ordinary evaluation (``execute``): it gets
the real outputs from ``run(artifact, input)`` (through the run cache) or from
``output_column``, with their measured time and cost.  Later passes score
*known* outputs (synthetic probe outputs, repeats, a second metric) through
the engine again (``execute_cases``, on cases that carry their outputs), so
limits, concurrency, executors and cost accounting are the engine's, ``run``
is never called again, and each output keeps its original measurements (the
reward's speed and cost parts stay those of the real run).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.contract import RUN_FUNCTION, ContractError, step_title
from ..core.dataset import Case
from ..core.metric import Metric, load_metric
from ..core.options import MAX_SCORINGS, RunOptions
from ..core.report import CaseResult, EvalReport
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
    if on_event is not None:
        on_event(Phase("outputs", 0))
    report = execute("eval", metric, data, options, on_event=on_event, run_cache=run_cache)
    assert isinstance(report, EvalReport)
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
    if not cases and not report.interrupted:
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
    if base.interrupted:
        return [], True
    if not items:
        return [], False
    by_index = {case.index: case for case in base.cases}
    cases = []
    for position, item in enumerate(items):  # a case per item: its index is the item's place
        case = by_index[item.case]
        known = deepcopy(item.output)
        cases.append(Case(position, case.input, case.expected, known, item.measured))
    if on_event is not None:
        on_event(Phase(phase, len(items)))
    report = execute_cases("eval", metric, cases, options, on_event=on_event, run_cache=None)
    results: list[CaseResult | None] = [None] * len(items)
    for result in report.cases:
        results[result.index] = result
    return results, report.interrupted


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
    """``report``, timed from ``started`` (a ``clock()``), told to the listener: its last event."""
    report.elapsed_s = clock() - started
    if on_event is not None:
        on_event(QualityFinished(report))
    return report
