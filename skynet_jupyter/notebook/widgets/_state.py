"""What a live view knows: plain data, updated in O(1) per event, no ipywidgets.

``LiveState`` collects the cases as they finish and keeps the running sums a
view shows (mean score, named-score means, the reward components, the raw
measurements, retries and stand-in calls), so a flush never walks every case
again except to pick the worst ones.

It computes nothing it words itself: its summary line is ``render.summary_text``
from the running sums (the same line as the finished report's
``render.summary_line``), and its running steps are made by ``report``'s
``titled_step`` and ``step_failed_by``, as the finished report's are.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Callable, Iterable
from operator import neg
from typing import Any, Generic, TypeVar

from ...core.contract import (
    FEEDBACK_ADVICE,
    METRIC_LOADS,
    METRIC_SIGNATURE,
    REWARD_SPEC,
    STEP_IDS,
    step_title,
)
from ...core.report import (
    PASSED,
    CaseResult,
    CheckReport,
    Step,
    StepStatus,
    step_failed_by,
    titled_step,
    worst_key,
)
from ...core.reward import PARTS, RewardSpec
from ...i18n import t
from ...show.render import replayed_without_model, summary_text

Item = TypeVar("Item")

PENDING = StepStatus.PENDING
ALL = "all"
FAILED_ANY = "failed"
PASSED_ONLY = "passed"
_BEFORE_CASES = (METRIC_LOADS, METRIC_SIGNATURE, REWARD_SPEC)


def as_spec(spec: Any) -> RewardSpec | None:
    """A ``RewardSpec`` from a spec or a ``REWARD_SPEC`` dict; None when there is none."""
    if spec is None or isinstance(spec, RewardSpec):
        return spec
    try:
        return RewardSpec.from_dict(spec)
    except Exception:  # an invalid spec fails the check's own step; the view shows scores
        return None


def components(case: CaseResult) -> tuple[float, float, float] | None:
    """The accuracy, speed and cost components ``reward()`` stored, or None."""
    scores = case.scores
    if not scores or case.score is None:
        return None
    try:
        return (scores["accuracy"], scores["speed"], scores["cost"])
    except KeyError:
        return None


class _Sum:
    __slots__ = ("count", "total")

    def __init__(self, total: float = 0.0, count: int = 0) -> None:
        self.total = total
        self.count = count

    def __repr__(self) -> str:
        return f"_Sum(total={self.total!r}, count={self.count!r})"

    def add(self, value: float) -> None:
        self.total += value
        self.count += 1

    @property
    def mean(self) -> float | None:
        return self.total / self.count if self.count else None


class _Smallest(Generic[Item]):
    """The ``size`` items with the smallest ``key(item)``, kept as they arrive.

    A bounded max-heap: keys go in negated, so the heap's top is the largest key
    kept; a new item costs its key and one comparison unless it belongs in.  The
    order is the one ``key`` gives (the worst cases: ``report.worst_key``, the
    same order as ``report.worst`` and ``select``).
    """

    __slots__ = ("heap", "key", "largest", "seen", "size")

    def __init__(self, size: int, key: Callable[[Item], tuple[float, ...]]) -> None:
        self.size = size
        self.key = key
        self.seen = 0  # items offered: the heap holds the smallest of all of them
        self.heap: list[tuple[tuple[float, ...], int, Item]] = []
        self.largest: tuple[float, ...] = ()  # the largest key kept, once the heap is full

    def offer(self, item: Item) -> None:
        """Keep ``item`` if it is among the smallest so far."""
        self.seen += 1
        key = self.key(item)
        heap = self.heap
        if len(heap) < self.size:
            heapq.heappush(heap, (_negated(key), len(heap), item))
        elif key < self.largest:
            heapq.heapreplace(heap, (_negated(key), len(heap), item))
        else:
            return  # most items of a big run: one comparison
        if len(heap) == self.size:
            self.largest = _negated(heap[0][0])

    def items(self) -> list[Item]:
        """Smallest key first."""
        return [entry[2] for entry in sorted(self.heap, key=lambda e: e[0], reverse=True)]


def _negated(key: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(map(neg, key))


Parts = tuple[float, float, float]  # a reward's accuracy, speed and cost components
Rewarded = tuple[CaseResult, Parts]


def _reward_key(weights: Parts) -> Callable[[Rewarded], tuple[float, ...]]:
    """The lowest rewards first under ``weights``, then by index (as ``lowest_rewards``)."""
    wa, ws, wc = weights

    def key(rewarded: Rewarded) -> tuple[float, ...]:
        case, (acc, speed, cost) = rewarded
        return (wa * acc + ws * speed + wc * cost, case.index)

    return key


WORST_ROWS = 20  # worst cases an evaluation lists
LOWEST_BARS = 10  # lowest rewards an evaluation draws


class LiveState:
    """The cases seen so far and their running sums."""

    # Slots and a hand-written __init__, not a dataclass: making that class at import
    # cost every fresh kernel's first check ~3 ms.
    __slots__ = (
        "cached_cases",
        "cost_usd",
        "failures",
        "kind",
        "lang",
        "lowest",
        "lowest_weights",
        "metric_name",
        "named",
        "parts",
        "parts_only",
        "parts_only_sums",
        "replayed_cases",
        "report",
        "results",
        "retries",
        "reward_cases",
        "reward_parts",
        "run_ms",
        "score",
        "spec",
        "stand_in_calls",
        "started",
        "total",
        "worst",
    )

    def __init__(
        self,
        kind: str = "check",
        lang: str = "en",
        metric_name: str = "default",
        spec: RewardSpec | None = None,
        total: int = 0,
        started: int = 0,
    ) -> None:
        self.kind = kind
        self.lang = lang
        self.metric_name = metric_name
        self.spec = spec
        self.total = total
        self.started = started
        self.results: list[CaseResult] = []
        self.report: CheckReport | None = None
        self.failures: dict[str, list[CaseResult]] = {}
        self.score = _Sum()
        self.named: dict[str, _Sum] = {}
        # Cases whose only named scores are the reward's parts add to these, not to ``named``.
        self.parts_only = _Sum()
        self.parts_only_sums = [0.0, 0.0, 0.0]
        self.parts = [_Sum(), _Sum(), _Sum()]
        self.run_ms = _Sum()
        self.cost_usd = _Sum()
        self.retries = 0  # rate-limit retries and stand-in answers, for the summary line
        self.stand_in_calls = 0
        self.cached_cases = 0  # every case from the run cache: the summary says so
        self.replayed_cases = 0  # ... or replayed, calling no model: said as what it is
        # The cases with reward components, and their components flat (3 floats a case): no
        # object per case, so a big run leaves the garbage collector little more to walk.
        self.reward_cases: list[CaseResult] = []
        self.reward_parts = array("d")
        # Kept up to date case by case, so a flush of a big evaluation never sorts it.
        self.worst: _Smallest[CaseResult] = _Smallest(WORST_ROWS, worst_key)
        self.lowest_weights: Parts | None = None
        if spec is not None:
            weights = spec.weights
            self.lowest_weights = (weights["accuracy"], weights["speed"], weights["cost"])
        self.lowest: _Smallest[Rewarded] = _Smallest(
            LOWEST_BARS, _reward_key(self.lowest_weights or (0.0, 0.0, 0.0))
        )

    # --- feeding ----------------------------------------------------------------

    def add_many(self, cases: Iterable[CaseResult]) -> None:
        """Take finished cases (this runs for every case of a big run: O(1) each, lean)."""
        keep, failures = self.results.append, self.failures
        score, run_ms, cost_usd = self.score, self.run_ms, self.cost_usd
        # A check lists its cases in order: nothing to rank.
        rank = self.worst.offer if self.kind != "check" else None
        for case in cases:
            keep(case)
            self.retries += case.retries
            self.stand_in_calls += case.stand_in_calls
            self.cached_cases += case.cached
            self.replayed_cases += replayed_without_model(case)
            if case.failed_step is not None:
                failures.setdefault(case.failed_step, []).append(case)
            if rank is not None:
                rank(case)
            value = case.score
            if value is not None:
                score.total += value  # the sums inline, not _Sum.add: the hot loop
                score.count += 1
                if case.scores:
                    self._add_scores(case, ranked=rank is not None)
            value = case.run_ms
            if value is not None:
                run_ms.total += value
                run_ms.count += 1
            value = case.cost_usd
            if value is not None:
                cost_usd.total += value
                cost_usd.count += 1

    def _add_scores(self, case: CaseResult, *, ranked: bool) -> None:
        """A scored case's named scores, and its reward's parts when ``reward()`` made them."""
        scores, named = case.scores, self.named
        parts = components(case)
        only_parts = parts is not None and len(scores) == 3
        for name, number in scores.items():
            bucket = named.get(name)  # not setdefault: no new _Sum per case in the hot loop
            if bucket is None:
                bucket = named[name] = _Sum()
            if not only_parts:  # else their means come from the parts' sums (names kept in order)
                bucket.total += number
                bucket.count += 1
        if parts is not None:
            self._add_parts(case, parts, only=only_parts, ranked=ranked)

    def _add_parts(self, case: CaseResult, parts: Parts, *, only: bool, ranked: bool) -> None:
        self.reward_cases.append(case)
        self.reward_parts.extend(parts)
        for bucket, value in zip(self.parts, parts, strict=True):
            bucket.add(value)
        if only:  # named means come from the parts' sums
            self.parts_only.count += 1
            for position, value in enumerate(parts):
                self.parts_only_sums[position] += value
        if ranked and self.lowest_weights is not None:
            self.lowest.offer((case, parts))

    @classmethod
    def from_report(cls, report: CheckReport, spec: RewardSpec | None = None) -> LiveState:
        state = cls(
            kind=report.kind,
            lang=report.lang,
            metric_name=report.metric_name,
            spec=as_spec(report.reward_spec) or spec,
            total=report.total_cases or len(report.cases),
            started=len(report.cases),
        )
        state.add_many(report.cases)
        state.report = report
        return state

    def holds(self, report: CheckReport) -> bool:
        """True when this state already saw exactly ``report``'s cases."""
        cases, mine = report.cases, self.results
        if len(cases) != len(mine):
            return False
        # The same objects, maybe in another order (an evaluation's cases finish in any order).
        return set(map(id, cases)) == set(map(id, mine))

    # --- reading ----------------------------------------------------------------

    @property
    def done(self) -> int:
        return len(self.results)

    @property
    def failed_count(self) -> int:
        return sum(len(cases) for cases in self.failures.values())

    @property
    def has_reward(self) -> bool:
        return self.spec is not None and self.parts[0].count > 0

    @property
    def mean_parts(self) -> tuple[float, float, float] | None:
        if not self.parts[0].count:
            return None
        return tuple(bucket.mean for bucket in self.parts)  # type: ignore[return-value]

    def summary(self) -> str:
        """The report's summary line (``render.summary_line``), from the running sums."""
        return summary_text(
            self.lang,
            self.metric_name,
            self.done,
            self.score.mean,
            self.mean_named(),
            self.retries,
            self.stand_in_calls,
            self.score.count,
            self.cached_cases,
            self.replayed_cases,
        )

    def mean_named(self) -> dict[str, float]:
        means = {}
        extra = self.parts_only.count
        for name, bucket in self.named.items():
            total, count = bucket.total, bucket.count
            if extra and name in PARTS:
                total += self.parts_only_sums[PARTS.index(name)]
                count += extra
            if count:
                means[name] = total / count
        return means

    def steps(self) -> list[Step]:
        """The report's steps when finished; while running, what the cases tell so far."""
        if self.report is not None:
            return list(self.report.steps)
        lang = self.lang
        steps = []
        for step_id in STEP_IDS:
            failed = self.failures.get(step_id)
            if failed:  # said as the finished report will say it
                steps.append(step_failed_by(step_id, failed, lang))
            elif step_id in _BEFORE_CASES and self.started:
                steps.append(titled_step(step_id, PASSED, lang))
            else:
                steps.append(titled_step(step_id, PENDING, lang))
        # The finished report ends with the feedback advice: the same chips while running.
        steps.append(titled_step(FEEDBACK_ADVICE, PENDING, lang))
        return steps

    def select(self, which: str = ALL, count: int | None = 50) -> tuple[list[CaseResult], int]:
        """(the cases to list, how many match): in case order for a check, worst first else."""
        cases = self.results
        if which == FAILED_ANY:
            cases = [c for c in cases if c.failed_step is not None]
        elif which == PASSED_ONLY:
            cases = [c for c in cases if c.failed_step is None]
        elif which != ALL:
            cases = self.failures.get(which, [])
        matching = len(cases)
        if self.kind == "check":
            ordered = self.report.cases if self.report is not None and which == ALL else cases
            return list(ordered[:count] if count is not None else ordered), matching
        tracked = self.worst.seen == len(self.results)  # it saw every case (an evaluation)
        if which == ALL and tracked and count is not None and count <= self.worst.size:
            return self.worst.items()[:count], matching
        if count is None or count >= matching:
            return sorted(cases, key=worst_key), matching
        return heapq.nsmallest(count, cases, key=worst_key), matching

    def lowest_rewards(
        self, weights: tuple[float, float, float], count: int
    ) -> list[tuple[CaseResult, tuple[float, float, float]]]:
        """The ``count`` cases with the lowest reward under ``weights``."""
        tracked = self.lowest.seen == len(self.reward_cases)
        if tracked and weights == self.lowest_weights and count <= self.lowest.size:
            return self.lowest.items()[:count]
        wa, ws, wc = weights
        parts, cases = self.reward_parts, self.reward_cases
        lowest = heapq.nsmallest(
            count,
            range(len(cases)),
            key=lambda i: (
                wa * parts[3 * i] + ws * parts[3 * i + 1] + wc * parts[3 * i + 2],
                cases[i].index,
            ),
        )
        return [(cases[i], (parts[3 * i], parts[3 * i + 1], parts[3 * i + 2])) for i in lowest]


def filter_options(state: LiveState) -> list[tuple[str, str]]:
    """(label, value) pairs for the evaluation's filter, with counts."""
    lang = state.lang
    failed = state.failed_count
    options = [(t("view.filter_all", lang, count=state.done), ALL)]
    if failed:
        options.append((t("view.filter_failed", lang, count=failed), FAILED_ANY))
        for step_id in STEP_IDS:
            cases = state.failures.get(step_id)
            if cases:
                label = t(
                    "view.filter_step", lang, step=step_title(step_id, lang), count=len(cases)
                )
                options.append((label, step_id))
    options.append((t("view.filter_passed", lang, count=state.done - failed), PASSED_ONLY))
    return options


__all__ = ["PARTS", "LiveState", "as_spec", "components", "filter_options", "worst_key"]
