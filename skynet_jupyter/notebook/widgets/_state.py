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
import math
from array import array
from collections.abc import Iterable
from typing import Any

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
from ...show.render import summary_text

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


class _Smallest:
    """The ``size`` items with the smallest keys, kept as they arrive (a bounded max-heap).

    Keys go in negated, so the heap's top is the largest key kept; a new item
    costs one comparison unless it belongs in.
    """

    __slots__ = ("heap", "seen", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.seen = 0
        self.heap: list[tuple[tuple, int, Any]] = []

    def offer(self, negated_key: tuple, item: Any) -> None:
        """Keep ``item`` if it is among the smallest (callers count it in ``seen``)."""
        heap = self.heap
        if len(heap) < self.size:
            heapq.heappush(heap, (negated_key, len(heap), item))
        elif negated_key > heap[0][0]:
            heapq.heapreplace(heap, (negated_key, len(heap), item))

    def items(self) -> list[Any]:
        """Smallest key first."""
        return [entry[2] for entry in sorted(self.heap, key=lambda e: e[0], reverse=True)]


WORST_ROWS = 20  # worst cases an evaluation lists
LOWEST_BARS = 10  # lowest rewards an evaluation draws


class LiveState:
    """The cases seen so far and their running sums."""

    # Slots and a hand-written __init__, not a dataclass: making that class at import
    # cost every fresh kernel's first check ~3 ms.
    __slots__ = (
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
        # The cases with reward components, and their components flat (3 floats a case): no
        # object per case, so a big run leaves the garbage collector little more to walk.
        self.reward_cases: list[CaseResult] = []
        self.reward_parts = array("d")
        # Kept up to date case by case, so a flush of a big evaluation never sorts it.
        self.worst = _Smallest(WORST_ROWS)
        self.lowest = _Smallest(LOWEST_BARS)
        self.lowest_weights: tuple[float, float, float] | None = None
        if spec is not None:
            self.lowest_weights = tuple(spec.weights[p] for p in PARTS)  # type: ignore[assignment]

    # --- feeding ----------------------------------------------------------------

    def add_many(self, cases: Iterable[CaseResult]) -> None:
        """Take finished cases (one tight loop: this runs for every case of a big run)."""
        keep = self.results.append
        failures, named = self.failures, self.named
        reward, reward_part = self.reward_cases.append, self.reward_parts.append
        track = self.kind != "check"  # a check lists its cases in order: nothing to rank
        worst, worst_heap, worst_size = self.worst.offer, self.worst.heap, self.worst.size
        weights = self.lowest_weights if track else None
        lowest, lowest_heap, lowest_size = self.lowest.offer, self.lowest.heap, self.lowest.size
        wa, ws, wc = weights or (0.0, 0.0, 0.0)
        score_n = part_n = run_n = cost_n = seen = offered = parts_only_n = 0
        retries = stand_ins = 0
        score_sum = acc_sum = speed_sum = cost_part_sum = run_sum = cost_sum = 0.0
        only_acc = only_speed = only_cost = 0.0
        for case in cases:
            keep(case)
            retries += case.retries
            stand_ins += case.stand_in_calls
            step = case.failed_step
            if step is not None:
                failed = failures.get(step)
                if failed is None:
                    failed = failures[step] = []
                failed.append(case)
            value = case.score
            if track:
                # Keys are negated (see _Smallest); most cases lose at the first comparison.
                seen += 1
                rank = -(step is None)
                if len(worst_heap) < worst_size:
                    worst((rank, math.inf if value is None else -value, -case.index), case)
                else:
                    top = worst_heap[0][0]
                    if rank >= top[0]:
                        key = (rank, math.inf if value is None else -value, -case.index)
                        if key > top:
                            worst(key, case)
            if value is not None:
                score_sum += value
                score_n += 1
                scores = case.scores
                if scores:
                    rewarded = "accuracy" in scores and "speed" in scores and "cost" in scores
                    if not rewarded or len(scores) > 3:
                        for name, number in scores.items():
                            bucket = named.get(name)
                            if bucket is None:
                                bucket = named[name] = _Sum()
                            bucket.total += number
                            bucket.count += 1
                    elif part_n == 0 and not self.parts_only.count:
                        for name in scores:  # keep the names in the order the metric gave
                            named.setdefault(name, _Sum())
                    if rewarded:
                        acc, speed, cost = scores["accuracy"], scores["speed"], scores["cost"]
                        reward(case)
                        reward_part(acc)
                        reward_part(speed)
                        reward_part(cost)
                        acc_sum += acc
                        speed_sum += speed
                        cost_part_sum += cost
                        part_n += 1
                        if len(scores) == 3:  # named means come from the parts' sums
                            parts_only_n += 1
                            only_acc += acc
                            only_speed += speed
                            only_cost += cost
                        if weights is not None:
                            offered += 1
                            mixed = -(wa * acc + ws * speed + wc * cost)
                            if len(lowest_heap) < lowest_size or mixed >= lowest_heap[0][0][0]:
                                low = (mixed, -case.index)
                                if len(lowest_heap) < lowest_size or low > lowest_heap[0][0]:
                                    lowest(low, (case, (acc, speed, cost)))
            measured = case.run_ms
            if measured is not None:
                run_sum += measured
                run_n += 1
            measured = case.cost_usd
            if measured is not None:
                cost_sum += measured
                cost_n += 1
        if parts_only_n:
            self.parts_only.count += parts_only_n
            sums = self.parts_only_sums
            sums[0] += only_acc
            sums[1] += only_speed
            sums[2] += only_cost
        self.worst.seen += seen
        self.lowest.seen += offered
        self.retries += retries
        self.stand_in_calls += stand_ins
        for bucket, total, count in (
            (self.score, score_sum, score_n),
            (self.parts[0], acc_sum, part_n),
            (self.parts[1], speed_sum, part_n),
            (self.parts[2], cost_part_sum, part_n),
            (self.run_ms, run_sum, run_n),
            (self.cost_usd, cost_sum, cost_n),
        ):
            bucket.total += total
            bucket.count += count

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
