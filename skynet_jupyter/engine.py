"""Running cases: the contract check and the full evaluation.

One case is one call (``run_case``; the work itself is ``_runner``): run
``run(artifact, input)``, call the metric on copies of the case, validate the
return.  Many cases run on watched worker threads (``_workers``) or on any
``concurrent.futures.Executor`` (``scale``).  This module turns data, a metric
and options into cases, runs them, and builds the report with its steps.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from concurrent.futures import Executor
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from ._runner import CaseRunner, Limits
from ._workers import supervise
from .contract import ContractError
from .dataset import NO_OUTPUT, Case, DataError, load_cases, pick_cases
from .i18n import resolve_lang
from .metric import Metric, load_metric
from .report import CaseResult, CheckReport, EvalReport, build_steps
from .runtime import ModelSettings, current_settings

__all__ = [
    "CaseFinished",
    "CaseRunner",
    "CaseStarted",
    "Event",
    "Finished",
    "Limits",
    "Listener",
    "RunCache",
    "check",
    "evaluate",
    "run_case",
]

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
        results, interrupted = supervise(
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
