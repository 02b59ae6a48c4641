"""Scoring outputs for the quality measurements, on the engine's own machinery.

Every measurement starts with one ordinary evaluation (``evaluate``): it gets
the real outputs from ``run(artifact, input)`` (through the run cache) or from
``output_column``, with their measured time and cost.  Later passes score
*known* outputs (synthetic probe outputs, repeats, a second metric) through
``evaluate`` again, so limits, concurrency, executors and cost accounting are
the engine's; a run cache that hands each case its known output keeps ``run``
from ever being called again, and keeps each output's original measurements
(the reward's speed and cost parts stay those of the real run).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from ..contract import RUN_FUNCTION, ContractError
from ..dataset import Case
from ..engine import RunCache, evaluate
from ..i18n import resolve_lang, t
from ..metric import Metric, load_metric
from ..report import CaseResult, EvalReport

# Options that say which cases and outputs to use: they belong to the first pass only.
DATA_OPTIONS = frozenset(
    {
        "outputs",
        "inputs",
        "split",
        "run",
        "artifact",
        "output_column",
        "cases",
        "sample",
        "seed",
        "json_columns",
    }
)


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
        step = t(f"step.{problem.step}", lang)
        raise MetricNotUsable(
            t("quality.metric_unusable", lang, step=step, error=problem.message(lang))
        ) from None


def language(options: dict[str, Any]) -> str:
    return resolve_lang(options.get("lang"))


def first_pass(
    metric: Metric,
    data: Any,
    options: dict[str, Any],
    *,
    run_cache: RunCache | None,
    on_event: Listener | None,
) -> EvalReport:
    """The ordinary evaluation: real outputs (run or output_column) and their scores."""
    if on_event is not None:
        on_event(Phase("outputs", 0))
    report = evaluate(metric, data, on_event=on_event, run_cache=run_cache, **options)
    if not report.cases and report.failed_steps:
        step = report.failed_steps[0]
        raise MetricNotUsable(
            t("quality.metric_unusable", report.lang, step=step.title, error=step.message)
        )
    return report


def has_output(case: CaseResult) -> bool:
    """The case's run gave an output (a metric failure still leaves the output)."""
    return case.failed_step != RUN_FUNCTION


def known_items(report: EvalReport) -> list[Item]:
    """The real outputs of the first pass, with their measurements."""
    return [Item(c.index, c.output, c.measured) for c in report.cases if has_output(c)]


def score_items(
    metric: Metric,
    base: EvalReport,
    items: Sequence[Item],
    options: dict[str, Any],
    *,
    phase: str,
    on_event: Listener | None,
) -> tuple[list[CaseResult | None], bool]:
    """Score ``items`` (outputs of the first pass's cases); (results in order, interrupted).

    A result is None when the pass was interrupted before it.
    """
    if not items:
        return [], False
    by_index = {case.index: case for case in base.cases}
    first = by_index[items[0].case]
    input_names = list(first.input)
    expected_names = list(first.expected) if first.expected is not None else None
    rows = []
    for item in items:
        case = by_index[item.case]
        rows.append({**case.input, **(case.expected or {})})
    engine_options = {k: v for k, v in options.items() if k not in DATA_OPTIONS}
    if on_event is not None:
        on_event(Phase(phase, len(items)))
    report = evaluate(
        metric,
        rows,
        outputs=expected_names,
        inputs=input_names,
        run=_never_run,
        cases=None,
        run_cache=_KnownOutputs(items),
        on_event=on_event,
        **engine_options,
    )
    results: list[CaseResult | None] = [None] * len(items)
    for result in report.cases:
        results[result.index] = result
    return results, report.interrupted


class _KnownOutputs(RunCache):
    """A run cache that already holds every row's output: the engine never calls run."""

    def __init__(self, items: Sequence[Item]) -> None:
        super().__init__()
        self.items = items

    def fill(self, runner: Any, cases: Any) -> list[Case]:
        filled = []
        for case in cases:
            item = self.items[case.index]
            filled.append(
                Case(case.index, case.input, case.expected, deepcopy(item.output), item.measured)
            )
        return filled

    def keep(self, runner: Any, results: Any) -> None:
        return None  # these outputs are not the run's: never store them


def _never_run(artifact: Any, input: Any) -> Any:
    # Every row comes with its output (see _KnownOutputs); reaching this is a bug.
    raise RuntimeError("skynet_jupyter: a quality pass re-scores known outputs; run is not called.")


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
