"""What a race of metrics found: ``RaceReport``, its entries and the standings, plain data.

A race runs the real GEPA once per metric and per seed, each from the same seed
artifact on the same training and validation cases, and scores every best
artifact on held-out cases GEPA never saw, with one referee metric.  The
standings compare those referee scores: mean and range over the seeds, the
winner and its margin, or a tie when the ranges overlap or the held-out cases
are too few to tell (:meth:`RaceReport.verdict` says which, and how many cases
would tell).  The views are ``optimizers/race_render.py``'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.shows_itself import ShowsItself
from .report import Costs, OptimizeReport
from .tool_rules import split_max_cost

if TYPE_CHECKING:
    from ..core.report import RunStop

__all__ = ["RaceEntry", "RaceEvent", "RaceListener", "RaceReport", "RaceRun", "Verdict"]

# A margin is told apart from noise when it is this many standard errors of the paired
# per-case differences (about 95 % on a normal approximation).
SEPARATION = 2.0


@dataclass(slots=True)
class RaceRun:
    """One metric's GEPA run with one seed, and its best artifact's held-out referee scores.

    ``held_scores`` is None when the run did not finish (Ctrl-C, the cost stop)."""

    seed: int
    optimization: OptimizeReport
    held_scores: dict[int, float] | None = None
    held_failures: int = 0  # held-out cases the referee (or the run) failed on: scored 0

    @property
    def held_score(self) -> float | None:
        """The referee's mean on the held-out cases, for this run's best artifact."""
        scores = self.held_scores
        return sum(scores.values()) / len(scores) if scores else None

    @property
    def curve(self) -> list[tuple[int, float]]:
        """(metric calls spent, best validation score so far by the run's own metric)."""
        points: list[tuple[int, float]] = []
        for candidate in self.optimization.candidates:
            if candidate.score is None:
                continue
            best = max(candidate.score, points[-1][1]) if points else candidate.score
            points.append((candidate.calls, best))
        return points


@dataclass(slots=True)
class RaceEntry:
    """One metric in the race: its runs (one per seed) and what they add up to."""

    name: str
    runs: list[RaceRun] = field(default_factory=list)

    @property
    def finished_runs(self) -> list[RaceRun]:
        return [run for run in self.runs if run.held_scores is not None]

    @property
    def scores(self) -> list[float]:
        """Each finished run's held-out referee score, in seed order."""
        return [s for s in (run.held_score for run in self.finished_runs) if s is not None]

    @property
    def mean(self) -> float | None:
        scores = self.scores
        return sum(scores) / len(scores) if scores else None

    @property
    def low(self) -> float | None:
        return min(self.scores, default=None)

    @property
    def high(self) -> float | None:
        return max(self.scores, default=None)

    @property
    def best_run(self) -> RaceRun | None:
        """The finished run whose best artifact the referee scored highest (first on a tie)."""
        runs = [run for run in self.finished_runs if run.held_score is not None]
        return max(runs, key=lambda run: run.held_score or 0.0, default=None)

    @property
    def best_artifact(self) -> Any:
        best = self.best_run
        return None if best is None else best.optimization.best_artifact

    @property
    def case_means(self) -> dict[int, float]:
        """Each held-out case's referee score, averaged over the finished runs."""
        runs = [run.held_scores for run in self.finished_runs if run.held_scores]
        if not runs:
            return {}
        return {case: sum(scores[case] for scores in runs) / len(runs) for case in runs[0]}

    @property
    def calls(self) -> int:
        return sum(run.optimization.calls for run in self.runs)

    @property
    def proposals(self) -> int:
        return sum(len(run.optimization.proposals) for run in self.runs)

    @property
    def kept(self) -> int:
        """Proposals GEPA kept (each a candidate beyond the seed)."""
        return sum(max(0, len(run.optimization.candidates) - 1) for run in self.runs)

    @property
    def cost_usd(self) -> Costs:
        return summed(run.optimization.cost_usd for run in self.runs)

    @property
    def stopped(self) -> list[str]:
        """Why each run ended (``budget``, ``max_cost``, ``interrupted``...), in seed order."""
        return [run.optimization.stopped or "" for run in self.runs]


@dataclass(frozen=True, slots=True)
class Verdict(ShowsItself):
    """The standings' conclusion: ``winner`` (None unless one is ahead), the runner-up,
    the margin between their held-out means, and when there is no winner ``why``: a tie
    (``ranges``, ``too_few`` with ``needed``, about how many held-out cases would tell
    this margin, or ``equal``), ``alone`` (one metric scored: no race), ``failed``
    (every held-out scoring failed: nothing to compare) or ``stopped`` (a key problem
    stopped the race: no verdict).  ``print(verdict)`` says it in one sentence, as the
    report's head does."""

    winner: str | None
    leader: str | None
    runner_up: str | None
    margin: float | None
    why: str | None = None
    needed: int | None = None
    report: RaceReport | None = field(default=None, repr=False, compare=False)

    @property
    def tie(self) -> bool:
        """Two metrics or more were scored and none is ahead beyond the noise."""
        return self.winner is None and self.why in ("equal", "ranges", "too_few")


@dataclass(slots=True)
class RaceReport(ShowsItself):
    """A race of metrics through the optimizer, judged on held-out cases by one referee.

    ``entries`` are the metrics in the order given; ``standings`` the same, best
    held-out mean first.  ``seed_scores`` are the referee's per-case scores of
    the seed artifact on ``held_out_cases``.  ``budget`` is per GEPA run (each
    metric, each seed) and ``max_cost`` for the whole race.
    """

    seed_artifact: Any
    referee: str
    budget: int
    repeats: int
    lang: str = "en"
    max_cost: float | None = None
    entries: list[RaceEntry] = field(default_factory=list)
    held_out_cases: list[int] = field(default_factory=list)
    train_size: int = 0
    val_size: int = 0
    seed_scores: dict[int, float] = field(default_factory=dict)
    referee_cost_usd: Costs = field(default_factory=Costs)
    seed_failures: int = 0  # held-out cases the referee (or the run) failed on, for the seed
    referee_kept_usd: float = 0.0  # of max_cost, kept apart for the referee's scoring
    # None (finished), "interrupted", "max_cost", "referee_cost" (the referee's scoring
    # alone would spend max_cost), "error" (an exception carries this report) or the
    # kind of ``stop``
    stopped: str | None = None
    stop: RunStop | None = None  # a key (or model) problem stopped the race: no verdict
    finished: bool = False
    elapsed_s: float = 0.0

    @property
    def interrupted(self) -> bool:
        return self.stopped == "interrupted"

    @property
    def seed_score(self) -> float | None:
        scores = self.seed_scores
        return sum(scores.values()) / len(scores) if scores else None

    @property
    def run_max_cost(self) -> float | None:
        """Each GEPA run's share of ``max_cost``: the same for every metric and seed, once
        the referee's scoring is kept apart (``referee_kept_usd``: the seed's, paid, and
        one per run at the seed's price)."""
        runs = len(self.entries) * self.repeats
        return split_max_cost(self.max_cost, runs, self.referee_kept_usd)

    @property
    def held_failures(self) -> int:
        """Held-out scorings that failed (the referee or the run broke): scored 0."""
        failed = sum(run.held_failures for entry in self.entries for run in entry.runs)
        return failed + self.seed_failures

    @property
    def held_scorings(self) -> int:
        """Held-out scorings made: each finished run's best artifact, and the seed."""
        runs = sum(len(entry.finished_runs) for entry in self.entries)
        return (runs + (1 if self.seed_scores else 0)) * len(self.held_out_cases)

    @property
    def total_budget(self) -> int:
        """Metric calls the race may make in all: budget x metrics x seeds."""
        return self.budget * len(self.entries) * self.repeats

    @property
    def cost_usd(self) -> Costs:
        """Everything spent: every run's task, judge and reflection, and the referee's
        scoring (counted as judge)."""
        return summed([*(entry.cost_usd for entry in self.entries), self.referee_cost_usd])

    @property
    def standings(self) -> list[RaceEntry]:
        """The entries, best held-out referee mean first (unscored last, in race order)."""
        order = {id(entry): place for place, entry in enumerate(self.entries)}
        return sorted(
            self.entries,
            key=lambda entry: (entry.mean is None, -(entry.mean or 0.0), order[id(entry)]),
        )

    def verdict(self) -> Verdict:
        """Who won and by how much, or a tie and why (see :class:`Verdict`)."""
        if self.stop is not None:  # the metrics were not raced: the key is to blame
            return Verdict(None, None, None, None, "stopped", report=self)
        scored = [entry for entry in self.standings if entry.mean is not None]
        if not scored:
            return Verdict(None, None, None, None, report=self)
        leader = scored[0]
        if len(scored) == 1:  # a race of one is no race: nobody else was scored
            return Verdict(None, leader.name, None, None, "alone", report=self)
        if self.held_failures and self.held_failures >= self.held_scorings:
            return Verdict(None, leader.name, scored[1].name, None, "failed", report=self)
        second = scored[1]
        assert leader.mean is not None and second.mean is not None
        margin = leader.mean - second.mean
        tie = _tie(leader, second, margin)
        if tie is None:
            return Verdict(leader.name, leader.name, second.name, margin, report=self)
        why, needed = tie
        return Verdict(None, leader.name, second.name, margin, why, needed, report=self)

    @property
    def winner(self) -> str | None:
        """The winning metric's name; None on a tie (or before any run finished)."""
        return self.verdict().winner

    def to_frame(self) -> Any:
        """One row per metric and seed (pandas DataFrame): held-out referee score, calls,
        proposals, kept, cost, why it stopped, best artifact."""
        import pandas as pd

        rows = [
            {
                "metric": entry.name,
                "seed": run.seed,
                "held_out": run.held_score,
                "seed_held_out": self.seed_score,
                "calls": run.optimization.calls,
                "proposals": len(run.optimization.proposals),
                "kept": max(0, len(run.optimization.candidates) - 1),
                "cost_usd": run.optimization.cost_usd.total,
                "stopped": run.optimization.stopped,
                "best_artifact": run.optimization.best_artifact,
            }
            for entry in self.entries
            for run in entry.runs
        ]
        return pd.DataFrame(rows).set_index(["metric", "seed"]) if rows else pd.DataFrame()


def summed(parts: Iterable[Costs]) -> Costs:
    """Costs added up, split kept; a figure is known only if every part's was."""
    total = Costs()
    for spent in parts:
        total.task += spent.task
        total.judge += spent.judge
        total.reflection += spent.reflection
        total.task_known &= spent.task_known
        total.judge_known &= spent.judge_known
        total.reflection_known &= spent.reflection_known
    return total


def _tie(leader: RaceEntry, second: RaceEntry, margin: float) -> tuple[str, int | None] | None:
    """Why the two leaders cannot be told apart, and the held-out size that would tell
    the margin; None when the leader really is ahead."""
    if margin <= 0:
        return "equal", None
    if len(leader.scores) > 1 and (leader.low or 0.0) <= (second.high or 0.0):
        return "ranges", None
    a, b = leader.case_means, second.case_means
    differences = [a[case] - b[case] for case in a if case in b]
    count = len(differences)
    if count < 2:
        return "too_few", None
    mean = sum(differences) / count
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (count - 1))
    error = spread / math.sqrt(count)
    if mean > SEPARATION * error:
        return None
    # n cases give an error of spread / sqrt(n): the n at which the margin is SEPARATION errors.
    needed = math.ceil((SEPARATION * spread / mean) ** 2) + 1 if mean > 0 else None
    return "too_few", needed


@dataclass(frozen=True, slots=True)
class RaceEvent:
    """The race moved on: ``kind`` is ``started``, ``run`` (a run's GEPA moved on),
    ``scored`` (a run's best artifact was refereed) or ``finished``; ``report`` is the
    report so far, ``entry`` the metric concerned (None for the race as a whole)."""

    kind: str
    report: RaceReport
    entry: RaceEntry | None = None


RaceListener = Callable[[RaceEvent], None]
