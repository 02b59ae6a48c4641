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
runs.  ``max_cost`` is in dollars for the whole race: the referee's scoring is
kept apart, and every run gets the same share of the rest, counted at the price
of every call (a call the run cache answered included), so identical metrics
get identical runs; reaching its share ends that run only (``_Race``).  A key
problem stops the race with its sentence and no verdict; Ctrl-C returns the
partial report, marked interrupted; any other exception carries it as
``.skynet_report`` (``tool_rules``).
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
from ..core.report import CheckReport
from ..i18n import t
from ..run.engine import RunCache, chosen_cases, execute_cases
from .gepa_adapter import import_gepa, list_price
from .optimize import (
    DEFAULT_MINIBATCH,
    check_stops,
    chosen_reflection_model,
    optimize_cases,
    split_cases,
)
from .race_report import RaceEntry, RaceEvent, RaceListener, RaceReport, RaceRun
from .report import Costs, OptimizeEvent, OptimizeReport
from .tool_rules import ToolStopped, keeping_partial, stop_if_the_run_stopped

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
    race = _Race(report, judge, held, options, run_cache, on_event)
    with keeping_partial(lambda: report):  # an exception leaving carries the race so far
        try:
            race.emit("started")
            race.score_the_seed()
            for repeat in range(repeats):
                if not race.round_can_start():
                    break
                run_seed = seed + repeat
                train, validation = split_cases(rest, val, run_seed, lang)
                for entry in report.entries:
                    race.run_one(
                        entry,
                        loaded[entry.name],
                        train,
                        validation,
                        run_seed,
                        budget=budget,
                        model=model,
                        gepa_options=gepa_options,
                    )
        except KeyboardInterrupt:
            report.stopped = "interrupted"
        except ToolStopped as stopped:  # a key problem: no further run, no verdict
            report.stop, report.stopped = stopped.stop, stopped.stop.kind
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
    count = _held_out_count(held_out, total, lang)
    # GEPA needs a training and a validation case at least, besides the held-out ones.
    if total - count < 2:
        left = max(total - count, 0)
        raise DataError(t("race.too_few_left", lang, count=count, total=total, left=left))
    held_places = _held_places(cases, count, seed)
    held = [case for place, case in enumerate(cases) if place in held_places]
    rest = [case for place, case in enumerate(cases) if place not in held_places]
    if len(held) < MIN_HELD_OUT:  # identical rows kept together left too few apart
        fields = {"count": len(held), "total": total, "least": MIN_HELD_OUT}
        raise DataError(t("race.held_out_grouped", lang, **fields))
    return held, rest


def _held_out_count(held_out: float | int | None, total: int, lang: str) -> int:
    """How many cases ``held_out`` holds out of ``total``; too few is refused with the
    value that would do (a count, or the smallest share), never a count of cases the
    user already has."""
    least_cases = MIN_HELD_OUT + 2  # and a training and a validation case for GEPA
    if total < least_cases:
        said = t("race.too_few_cases", lang, total=total, least=MIN_HELD_OUT, cases=least_cases)
        raise DataError(said)
    if held_out is None:
        return max(MIN_HELD_OUT, round(DEFAULT_HELD_OUT * total))
    if isinstance(held_out, bool) or not isinstance(held_out, int | float):
        raise ValueError(t("race.bad_held_out", lang, value=repr(held_out)))
    if isinstance(held_out, float) and 0 < held_out < 1:
        count = round(held_out * total)
        if count < MIN_HELD_OUT:
            fields = {"value": held_out, "count": count, "total": total, "least": MIN_HELD_OUT}
            share = least_share(total)
            raise DataError(t("race.held_out_share_too_small", lang, share=share, **fields))
        return count
    if held_out >= 1 and float(held_out).is_integer():
        if held_out < MIN_HELD_OUT:
            said = t("race.held_out_count_too_small", lang, count=int(held_out), least=MIN_HELD_OUT)
            raise DataError(said)
        return int(held_out)
    raise ValueError(t("race.bad_held_out", lang, value=repr(held_out)))


def least_share(total: int) -> float:
    """The smallest share of ``total`` cases, to two significant digits, that holds out
    ``MIN_HELD_OUT`` cases (as ``held_out=`` rounds it)."""
    exact = MIN_HELD_OUT / total
    scale = 10 ** (1 - math.floor(math.log10(exact)))  # two significant digits
    share = math.ceil(round(exact * scale, 9)) / scale
    while round(share * total) < MIN_HELD_OUT:  # round() halves to even: 4.5 is 4
        share = round(share + 1 / scale, 12)
    return share


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
    """The race as it runs: the report it fills, the referee's scoring, the money.

    The money (``max_cost``) is split before the first run: the referee's scoring of
    the held-out cases is kept apart (the seed's, paid, and one more per run at the
    seed's price), and every run gets the same share of the rest, whatever the runs
    before it spent.  Reaching its share ends that run only; a round of seeds starts
    only while the race has money left, so every metric has as many runs as the others.
    """

    def __init__(
        self,
        report: RaceReport,
        judge: Metric,
        held: list[Case],
        options: RunOptions,
        run_cache: RunCache | None,
        on_event: RaceListener | None,
    ) -> None:
        self.report, self.judge, self.held, self.options = report, judge, held, options
        self.run_cache, self.on_event = run_cache, on_event

    def emit(self, kind: str, entry: RaceEntry | None = None) -> None:
        if self.on_event is not None:
            self.on_event(RaceEvent(kind, self.report, entry))

    def spent(self) -> float:
        return self.report.cost_usd.total

    def score_the_seed(self) -> None:
        """The referee's scores of the seed artifact, and the money kept for the others."""
        report = self.report
        scored = self.referee_run(report.seed_artifact)
        report.seed_scores, report.seed_failures = _scores(scored.cases)
        runs = len(report.entries) * report.repeats
        report.referee_kept_usd = report.referee_cost_usd.total + runs * _price(scored.cases)
        share = report.run_max_cost
        if share is not None and share <= 0:  # the referee alone would spend max_cost
            report.stopped = "referee_cost"

    def round_can_start(self) -> bool:
        """Whether the next seed's runs start: not after a stop, nor with no money left."""
        report = self.report
        if report.stopped is not None:
            return False
        if report.max_cost is not None and self.spent() >= report.max_cost:
            report.stopped = "max_cost"
            return False
        return True

    def referee_run(self, artifact: Any) -> CheckReport:
        """The referee's scoring of ``artifact`` on the held-out cases, its cost counted."""
        options = dataclasses.replace(self.options, artifact=artifact)
        scored = execute_cases(
            "eval", self.judge, self.held, options, on_event=None, run_cache=self.run_cache
        )
        _add_referee_cost(self.report.referee_cost_usd, scored.cases)
        if scored.interrupted:
            raise KeyboardInterrupt
        stop_if_the_run_stopped(scored)  # the referee's key: the race stops here
        return scored

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
    ) -> None:
        """One GEPA run of ``entry``'s metric with its share of the money, refereed.

        Raises ``KeyboardInterrupt`` (Ctrl-C) and :class:`ToolStopped` (a key
        problem) to end the race; any other exception carries the run so far."""

        def forward(event: OptimizeEvent) -> None:
            _recorded(entry, run_seed, event.report)
            self.emit("run", entry)

        try:
            optimization = optimize_cases(
                metric,
                train,
                validation,
                self.options,
                budget=budget,
                reflection_model=model,
                max_cost=self.report.run_max_cost,  # its share, fixed before the first run
                seed=run_seed,
                run_cache=self.run_cache,
                on_event=forward,
                gepa_options=gepa_options,
                at_list_price=True,  # a cache the runs before filled buys no extra work
            )
        except Exception as error:  # the run so far joins the race the error carries
            partial = getattr(error, "skynet_report", None)
            if isinstance(partial, OptimizeReport):
                _recorded(entry, run_seed, partial)
            raise
        this = _recorded(entry, run_seed, optimization)
        if optimization.stop is not None:
            raise ToolStopped(optimization.stop)
        if optimization.stopped == "interrupted":
            raise KeyboardInterrupt
        scored = self.referee_run(optimization.best_artifact)
        this.held_scores, this.held_failures = _scores(scored.cases)
        self.emit("scored", entry)

    def finish(self, started: float) -> RaceReport:
        self.report.finished = True
        self.report.elapsed_s = time.perf_counter() - started
        self.emit("finished")
        return self.report


def _recorded(entry: RaceEntry, run_seed: int, optimization: OptimizeReport) -> RaceRun:
    """``entry``'s run of ``optimization``, added the first time it is seen."""
    if not entry.runs or entry.runs[-1].optimization is not optimization:
        entry.runs.append(RaceRun(run_seed, optimization))
    return entry.runs[-1]


def _scores(cases: Sequence[Any]) -> tuple[dict[int, float], int]:
    """Each held-out case's referee score, and how many of them failed (the run or the
    referee broke: scored 0, and counted, never hidden)."""
    failed = sum(1 for case in cases if case.failed_step is not None)
    return {case.index: _score(case) for case in cases}, failed


def _price(cases: Sequence[Any]) -> float:
    """What scoring these cases costs at the price of every call, a cached one's included
    (the next artifact's scoring asks anew): the run's and the judge's."""
    return sum(list_price(case) for case in cases)


def _score(case: Any) -> float:
    score = getattr(case, "score", None)
    return float(score) if isinstance(score, int | float) and math.isfinite(score) else 0.0


def _add_referee_cost(costs: Costs, cases: Sequence[Any]) -> None:
    for case in cases:
        costs.add_case(case, ran_now=not getattr(case, "cached", False))
