"""Race metrics through the optimizer: does a metric's feedback teach GEPA? ``race``.

Two metrics can give every case the same score and still teach the optimizer
very differently: GEPA's reflection model reads the feedback to write the next
text.  ``race`` answers which teaches it better, fairly:

- every metric starts from the same seed artifact, on the same cases split the
  same way (GEPA's training and validation cases), with the same budget, the
  same reflection model and the same seeds (``repeats`` GEPA seeds each);
- a **held-out** part of the cases, chosen first, never reaches GEPA: not its
  training, its validation nor the reflection model's records;
- each run's best artifact (and the seed) is scored on the held-out cases by
  **one referee** metric (the first metric by default), so every metric is
  judged by the same yardstick, not each by itself.

``budget`` is per GEPA run (each metric, each seed), so the race may make
``budget x metrics x repeats`` metric calls in all, bounded before anything
runs; ``max_cost`` is in dollars for the whole race.  Ctrl-C returns the
partial report, marked interrupted.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.dataset import Case, DataError
from ..core.keywords import OPTIMIZER
from ..core.metric import Metric, load_metric
from ..core.options import (
    MAX_BUDGET,
    MAX_REPEATS,
    RunOptions,
    refuse_count,
    speaks_its_options_language,
)
from ..i18n import t
from ..run.engine import RunCache, chosen_cases, execute_cases
from .gepa_adapter import import_gepa
from .optimize import (
    DEFAULT_MINIBATCH,
    check_stops,
    chosen_reflection_model,
    optimize_cases,
    split_cases,
)
from .race_report import RaceEntry, RaceEvent, RaceListener, RaceReport, RaceRun
from .report import Costs, OptimizeEvent

__all__ = ["MIN_HELD_OUT", "RaceReport", "race", "race_with"]

MIN_HELD_OUT = 5  # fewer held-out cases cannot tell two metrics apart
DEFAULT_HELD_OUT = 0.3  # the share of the cases held out when held_out= is not given

MetricLike = Metric | Callable[..., Any] | str


def race(
    metrics: Mapping[str, MetricLike] | Sequence[MetricLike],
    data: Any,
    *,
    run: Callable[[Any, Any], Any] | str,
    artifact: str | dict[str, str],
    referee: MetricLike | None = None,
    budget: int = 40,
    reflection_model: Any = None,
    val: float | int | None = None,
    held_out: float | int | None = None,
    seed: int = 0,
    repeats: int = 1,
    max_cost: float | None = None,
    run_cache: RunCache | None = None,
    on_event: RaceListener | None = None,
    **options: Any,
) -> RaceReport:
    """Race ``metrics`` through the real GEPA and score each one's best artifact on
    held-out cases with one ``referee``: whose feedback teaches the optimizer best?

    ``metrics`` is a dict of name → metric (a ``score`` callable, a ``metric.py``
    path, source text or a :class:`Metric`), or a list of them (named by their
    own names).  ``referee`` is the metric every artifact is scored with on the
    held-out cases (a name from ``metrics``, or any metric; default: the first).
    ``held_out`` is the share of the cases (or that many cases) GEPA never sees
    (default 30%, at least 5); ``val`` splits the rest into GEPA's training and
    validation cases, as in :func:`~skynet_jupyter.optimize`.  Each metric runs
    ``repeats`` times, with GEPA seeds ``seed``, ``seed + 1``...; ``budget`` is
    metric calls per run and ``max_cost`` dollars for the whole race.  The other
    ``options`` are ``optimize``'s: the run options (``outputs``, ``inputs``,
    ``timeout``, ``concurrency``...) and ``gepa.optimize`` keywords.
    """
    # The run options by name (optimize's own); every other keyword is gepa.optimize's.
    run_keywords = {k: v for k, v in options.items() if k in OPTIMIZER.names}
    gepa_options = {k: v for k, v in options.items() if k not in run_keywords}
    checked = OPTIMIZER.options("race", {**run_keywords, "run": run, "artifact": artifact})
    return race_with(
        _named(metrics, checked.language),
        data,
        checked,
        referee=referee,
        budget=budget,
        reflection_model=reflection_model,
        val=val,
        held_out=held_out,
        seed=seed,
        repeats=repeats,
        max_cost=max_cost,
        run_cache=run_cache,
        on_event=on_event,
        gepa_options=gepa_options,
    )


def _named(metrics: Any, lang: str) -> dict[str, MetricLike]:
    """The racing metrics by name: a dict as given, a list named by each metric's name."""
    if isinstance(metrics, Mapping):
        named = {str(name): metric for name, metric in metrics.items()}  # race_with checks
    elif isinstance(metrics, Sequence) and not isinstance(metrics, str):
        named = {}
        for metric in metrics:
            _refuse_not_a_metric("?", metric, lang)  # loaded here, for its name
            loaded = load_metric(metric)
            name = loaded.name
            while name in named:  # two metrics loaded from text are both "default"
                name = f"{loaded.name}-{len(named) + 1}"
            named[name] = loaded
    else:
        raise TypeError(t("race.bad_metrics", lang, type=type(metrics).__name__))
    if len(named) < 2:
        raise ValueError(t("race.too_few_metrics", lang, count=len(named)))
    return named


def _refuse_not_a_metric(name: str, metric: Any, lang: str) -> None:
    """A racing metric has a name to show and is something ``load_metric`` takes."""
    if not name.strip():
        raise ValueError(t("race.blank_name", lang))
    if not (callable(metric) or isinstance(metric, str | os.PathLike | Metric)):
        raise TypeError(t("race.not_a_metric", lang, name=name, type=type(metric).__name__))


@speaks_its_options_language
def race_with(
    metrics: Mapping[str, MetricLike],
    data: Any,
    options: RunOptions,
    *,
    referee: MetricLike | None = None,
    budget: int = 40,
    reflection_model: Any = None,
    val: float | int | None = None,
    held_out: float | int | None = None,
    seed: int = 0,
    repeats: int = 1,
    max_cost: float | None = None,
    run_cache: RunCache | None = None,
    on_event: RaceListener | None = None,
    gepa_options: Mapping[str, Any] | None = None,
) -> RaceReport:
    """:func:`race` with its run options already checked (``%skynet_race`` calls it)."""
    started = time.perf_counter()
    lang = options.language
    import_gepa()  # without the library, say so before anything runs
    _refuse_bounds(budget, max_cost, repeats, len(metrics), lang)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(t("race.bad_seed", lang, value=repr(seed)))
    for name, metric in metrics.items():
        _refuse_not_a_metric(name, metric, lang)
    loaded = {name: load_metric(metric, name=name) for name, metric in metrics.items()}
    judge, referee_name = _referee(referee, loaded, lang)
    model = chosen_reflection_model(reflection_model, options.models)
    cases = chosen_cases(data, options)
    held, rest = _held_out(cases, held_out, seed, lang)
    train, validation = split_cases(rest, val, seed, lang)  # the sizes; each seed re-splits
    _refuse_budget_below_one_proposal(budget, len(train), len(validation), lang)

    report = RaceReport(
        seed_artifact=options.artifact,
        referee=referee_name,
        budget=budget,
        repeats=repeats,
        lang=lang,
        max_cost=max_cost,
        entries=[RaceEntry(name) for name in loaded],
        held_out_cases=[case.index for case in held],
        train_size=len(train),
        val_size=len(validation),
    )
    race = _Race(report, judge, held, options, run_cache, on_event, max_cost)
    try:
        race.emit("started")
        report.seed_scores, report.seed_failures = race.referee_scores(options.artifact)
        for repeat in range(repeats):
            run_seed = seed + repeat
            train, validation = split_cases(rest, val, run_seed, lang)
            for entry in report.entries:
                if not race.run_one(
                    entry,
                    loaded[entry.name],
                    train,
                    validation,
                    run_seed,
                    budget=budget,
                    model=model,
                    gepa_options=gepa_options,
                ):
                    return race.finish(started)
    except KeyboardInterrupt:
        report.stopped = "interrupted"
    return race.finish(started)


def _refuse_budget_below_one_proposal(budget: int, train: int, validation: int, lang: str) -> None:
    """A budget GEPA spends before it can propose once (the seed on the validation cases,
    then a minibatch before and after) races nothing: every metric would keep the seed."""
    least = validation + 2 * min(DEFAULT_MINIBATCH, train)
    if budget < least:
        fields = {"budget": budget, "val": validation, "least": least}
        raise ValueError(t("race.budget_too_small", lang, **fields))


def _refuse_bounds(budget: Any, max_cost: Any, repeats: Any, count: int, lang: str) -> None:
    """Every count bounded before anything runs: per run, and the race in all."""
    check_stops(budget, max_cost, lang)
    refuse_count("repeats", repeats, MAX_REPEATS, lang)
    total = budget * count * repeats
    if total > MAX_BUDGET:
        raise ValueError(
            t(
                "race.total_budget",
                lang,
                total=total,
                budget=budget,
                metrics=count,
                repeats=repeats,
                most=MAX_BUDGET,
            )
        )


def _referee(
    referee: MetricLike | None, loaded: dict[str, Metric], lang: str
) -> tuple[Metric, str]:
    """The metric that scores every artifact on the held-out cases, and its name."""
    if referee is None:
        name = next(iter(loaded))
        return loaded[name], name
    if isinstance(referee, str) and referee in loaded:
        return loaded[referee], referee
    if isinstance(referee, str) and _looks_like_a_name(referee):
        names = ", ".join(repr(name) for name in loaded)
        raise ValueError(t("race.unknown_referee", lang, name=referee, names=names))
    _refuse_not_a_metric("referee", referee, lang)
    if isinstance(referee, Metric):
        return referee, referee.name
    named = getattr(referee, "__name__", "")
    name = named if callable(referee) and named.isidentifier() else "referee"
    return load_metric(referee, name=name), name


def _looks_like_a_name(text: str) -> bool:
    """A referee given as one word, neither a file nor source text: a metric's name."""
    return "\n" not in text and not text.endswith(".py") and not os.path.exists(text)


def _held_out(
    cases: list[Case], held_out: float | int | None, seed: int, lang: str
) -> tuple[list[Case], list[Case]]:
    """(held-out, the rest): chosen first, by ``seed``, so no GEPA run ever sees them."""
    total = len(cases)
    if held_out is None:
        count = max(MIN_HELD_OUT, round(DEFAULT_HELD_OUT * total))
    elif isinstance(held_out, bool) or not isinstance(held_out, int | float):
        raise ValueError(t("race.bad_held_out", lang, value=repr(held_out)))
    elif isinstance(held_out, float) and 0 < held_out < 1:
        count = round(held_out * total)
    elif held_out >= 1 and float(held_out).is_integer():
        count = int(held_out)
    else:
        raise ValueError(t("race.bad_held_out", lang, value=repr(held_out)))
    if count < MIN_HELD_OUT or (held_out is None and total - count < 2):
        least = MIN_HELD_OUT + 2 if held_out is None else max(total, MIN_HELD_OUT + 2)
        count = min(count, max(total - 2, 0))  # what could be held out of so few
        fields = {"count": count, "total": total, "least": MIN_HELD_OUT, "cases": least}
        raise DataError(t("race.too_few_held_out", lang, **fields))
    # GEPA needs a training and a validation case at least, besides the held-out ones.
    if total - count < 2:
        left = max(total - count, 0)
        raise DataError(t("race.too_few_left", lang, count=count, total=total, left=left))
    held_places = _held_places(cases, count, seed)
    held = [case for place, case in enumerate(cases) if place in held_places]
    rest = [case for place, case in enumerate(cases) if place not in held_places]
    if len(held) < MIN_HELD_OUT:  # identical rows kept together left too few apart
        fields = {"count": len(held), "total": total, "least": MIN_HELD_OUT, "cases": total}
        raise DataError(t("race.too_few_held_out", lang, **fields))
    return held, rest


def _held_places(cases: list[Case], count: int, seed: int) -> set[int]:
    """About ``count`` places, chosen by ``seed``; identical cases (the same input and
    expected: a duplicated row) stay on one side, so no held-out case reaches GEPA under
    another row's number."""
    groups: dict[str, list[int]] = {}
    for place, case in enumerate(cases):
        groups.setdefault(repr((case.input, case.expected)), []).append(place)
    order = list(groups.values())
    random.Random(f"held-out {seed}").shuffle(order)
    chosen: set[int] = set()
    for places in order:
        if len(chosen) >= count:
            break
        if len(cases) - len(chosen) - len(places) >= 2:  # GEPA keeps two cases at least
            chosen.update(places)
    return chosen


class _Race:
    """The race as it runs: the report it fills, the referee's scoring, the cost stop."""

    def __init__(
        self,
        report: RaceReport,
        judge: Metric,
        held: list[Case],
        options: RunOptions,
        run_cache: RunCache | None,
        on_event: RaceListener | None,
        max_cost: float | None,
    ) -> None:
        self.report, self.judge, self.held, self.options = report, judge, held, options
        self.run_cache, self.on_event, self.max_cost = run_cache, on_event, max_cost

    def emit(self, kind: str, entry: RaceEntry | None = None) -> None:
        if self.on_event is not None:
            self.on_event(RaceEvent(kind, self.report, entry))

    def spent(self) -> float:
        return self.report.cost_usd.total

    def referee_scores(self, artifact: Any) -> tuple[dict[int, float], int]:
        """The referee's score of ``artifact`` on each held-out case, and how many of them
        failed (the run or the referee broke: scored 0, and counted, never hidden)."""
        options = dataclasses.replace(self.options, artifact=artifact)
        scored = execute_cases(
            "eval", self.judge, self.held, options, on_event=None, run_cache=self.run_cache
        )
        if scored.interrupted:
            raise KeyboardInterrupt
        _add_referee_cost(self.report.referee_cost_usd, scored.cases)
        failed = sum(1 for case in scored.cases if case.failed_step is not None)
        return {case.index: _score(case) for case in scored.cases}, failed

    def run_one(
        self,
        entry: RaceEntry,
        metric: Metric,
        train: list[Case],
        validation: list[Case],
        run_seed: int,
        *,
        budget: int,
        model: Any,
        gepa_options: Mapping[str, Any] | None,
    ) -> bool:
        """One GEPA run of ``entry``'s metric, refereed; False when the race stops here."""
        left = None if self.max_cost is None else self.max_cost - self.spent()
        if left is not None and left <= 0:
            self.report.stopped = "max_cost"
            return False
        share = self.report.run_max_cost
        if left is not None and share is not None:  # the same share for every run: the
            left = min(left, share)  # first one cannot spend the whole race's money

        def forward(event: OptimizeEvent) -> None:
            if not entry.runs or entry.runs[-1].optimization is not event.report:
                entry.runs.append(RaceRun(run_seed, event.report))
            self.emit("run", entry)

        optimization = optimize_cases(
            metric,
            train,
            validation,
            self.options,
            budget=budget,
            reflection_model=model,
            max_cost=left,
            seed=run_seed,
            run_cache=self.run_cache,
            on_event=forward,
            gepa_options=gepa_options,
        )
        if not entry.runs or entry.runs[-1].optimization is not optimization:
            entry.runs.append(RaceRun(run_seed, optimization))
        this = entry.runs[-1]
        if optimization.stopped == "interrupted":
            self.report.stopped = "interrupted"
            return False
        this.held_scores, this.held_failures = self.referee_scores(optimization.best_artifact)
        self.emit("scored", entry)
        if optimization.stopped == "max_cost":
            self.report.stopped = "max_cost"
            return False
        return True

    def finish(self, started: float) -> RaceReport:
        self.report.finished = True
        self.report.elapsed_s = time.perf_counter() - started
        self.emit("finished")
        return self.report


def _score(case: Any) -> float:
    score = getattr(case, "score", None)
    return float(score) if isinstance(score, int | float) and math.isfinite(score) else 0.0


def _add_referee_cost(costs: Costs, cases: Sequence[Any]) -> None:
    for case in cases:
        costs.add_case(case, ran_now=not getattr(case, "cached", False))
