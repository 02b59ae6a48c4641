"""Judge stability: the same metric, the same outputs, ``repeats`` times.

A judge that changes its verdict on an unchanged output feeds the optimizer
noise.  ``stability`` scores every case's output ``repeats`` times (the run
is not repeated: outputs come once, its model calls through the run cache)
and reports how often a case's score is not the same in every repeat.  The
judge's calls are never answered from a cache: not from the run cache (read
for the run's calls only), and litellm's own cache, when a notebook turned it
on, is set aside for the measurement and put back after.
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Unpack

from ..core.keywords import EVALUATE, EvalKeywords
from ..core.options import MAX_REPEATS, RunOptions, refuse_count, speaks_its_options_language
from ..core.report import RunStop
from ..i18n import t
from ..run.engine import RunCache
from ..show.formats import fmt_mean, fmt_score, fmt_share
from . import _scoring
from ._show import Block, Note, QualityReport, Table, case_frame, labels, unscored_note

SHOWN_CASES = 50


@dataclass
class StabilityReport(QualityReport):
    """Scores of the same outputs over ``repeats`` runs of the metric."""

    _page = "stability"

    metric_name: str
    lang: str
    repeats: int
    scores: dict[int, list[float | None]]  # case -> its score in each repeat (None: failed)
    feedbacks: dict[int, list[str | None]]
    judge_cost_usd: float | None = None
    judge_unpriced: int = 0  # cases whose judge calls had no known price
    skipped: tuple[int, ...] = ()
    interrupted: bool = False
    model_cache_bypassed: bool = False
    unscored_error: str | None = None  # why the first case that never scored failed
    elapsed_s: float = 0.0
    stop: RunStop | None = None  # a pass stopped for a configuration problem
    # Per-case statistics, kept once computed (as CheckReport._memo: not the report's data).
    _stats: dict[int, dict[str, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def _stat(self, case: int) -> dict[str, Any]:
        if case not in self._stats:
            values = [s for s in self.scores[case] if s is not None]
            mean = sum(values) / len(values) if values else math.nan
            std = (
                math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
                if values
                else math.nan
            )
            self._stats[case] = {
                "mean": mean,
                "std": std,
                "min": min(values) if values else math.nan,
                "max": max(values) if values else math.nan,
                "distinct_feedbacks": len(set(self.feedbacks[case])),
                "failed_repeats": len(self.scores[case]) - len(values),
                "flipped": len(set(self.scores[case])) > 1,
            }
        return self._stats[case]

    @property
    def cases(self) -> list[int]:
        return list(self.scores)

    @property
    def flipped(self) -> list[int]:
        """The cases whose score was not identical in every repeat (a failed repeat counts)."""
        return [case for case in self.scores if self._stat(case)["flipped"]]

    @property
    def unscored(self) -> list[int]:
        """The cases the metric never scored (it failed in every repeat): nothing measured."""
        return [case for case, seen in self.scores.items() if all(s is None for s in seen)]

    @property
    def scored(self) -> list[int]:
        """The cases scored at least once: the ones whose stability was measured."""
        unscored = set(self.unscored)
        return [case for case in self.scores if case not in unscored]

    @property
    def flip_rate(self) -> float:
        """The fraction of scored cases whose score was not identical in all repeats.

        NaN when no case scored: a metric that never scored is not a steady one.
        """
        scored = self.scored
        return len(self.flipped) / len(scored) if scored else math.nan

    @property
    def mean_std(self) -> float:
        """The mean over cases of the standard deviation of their scores (population std)."""
        stds = [self._stat(c)["std"] for c in self.scores if not math.isnan(self._stat(c)["std"])]
        return sum(stds) / len(stds) if stds else math.nan

    @property
    def per_case(self) -> Any:
        """One row per case: mean, std, min, max, distinct feedbacks (pandas DataFrame)."""
        columns = ["mean", "std", "min", "max", "distinct_feedbacks", "failed_repeats", "flipped"]
        return case_frame(
            {case: {k: self._stat(case)[k] for k in columns} for case in self.scores}, columns
        )

    @property
    def advice(self) -> str | None:
        """How to make the judge steadier, when some case flipped."""
        return t("quality.stability.advice", self.lang) if self.flipped else None

    @property
    def passed(self) -> bool:
        """Every case scored, the same in every repeat (and the repeats ran to the end)."""
        return bool(self.scores) and not (self.flipped or self.unscored or self.interrupted)

    def to_frame(self) -> Any:
        return self.per_case

    # --- showing ------------------------------------------------------------------

    def _title(self) -> str:
        return t("quality.stability.title", self.lang, name=self.metric_name, repeats=self.repeats)

    def _facts(self) -> list[str]:
        lang = self.lang
        return [
            t("quality.cases", lang, count=len(self.scores)),
            t("quality.stability.flip_rate", lang, rate=fmt_share(self.flip_rate)),
            t("quality.stability.mean_std", lang, std=fmt_score(self.mean_std)),
        ]

    def _status(self) -> str:
        return "good" if self.passed else "bad"

    def _verdict(self) -> str | None:
        """The sentence on the cases that scored (None: no case did, nothing to say)."""
        lang = self.lang
        scored = len(self.scored)
        if not scored:
            return None
        if self.flipped:
            return t(
                "quality.stability.flips",
                lang,
                flipped=len(self.flipped),
                count=scored,
                rate=fmt_share(self.flip_rate),
            )
        if self.unscored:
            return t("quality.stability.stable_scored", lang, count=scored, repeats=self.repeats)
        return t("quality.stability.stable", lang, repeats=self.repeats)

    def _notes(self) -> list[str]:
        lang = self.lang
        notes = []
        if self.model_cache_bypassed:
            notes.append(t("quality.stability.cache_bypassed", lang))
        if self.skipped:
            notes.append(t("quality.skipped", lang, count=len(self.skipped)))
        if self.interrupted:
            notes.append(t("quality.interrupted", lang))
        return notes

    def _headers(self) -> list[str]:
        return labels(
            self.lang,
            "col.case",
            "quality.col.scores",
            "quality.col.mean",
            "quality.col.std",
            "quality.col.feedbacks",
        )

    def _rows(self) -> list[list[tuple[str, str]]]:
        # Flipped cases first: they are what the person came to see.
        order = sorted(self.scores, key=lambda c: (not self._stat(c)["flipped"], c))
        rows = []
        for case in order[:SHOWN_CASES]:
            stat = self._stat(case)
            css = "skq-num skq-flag" if stat["flipped"] else "skq-num"
            seen = " ".join("error" if s is None else fmt_score(s) for s in self.scores[case])
            rows.append(
                [
                    (str(case), "skq-num"),
                    (seen, css),
                    (fmt_mean(stat["mean"]), "skq-num"),
                    (fmt_score(stat["std"]), "skq-num"),
                    (str(stat["distinct_feedbacks"]), "skq-num"),
                ]
            )
        return rows

    def _body(self) -> list[Block]:
        # Cases that never scored come first: without them the rest would read as steady.
        unscored = unscored_note(self.lang, self.unscored, len(self.scores), self.unscored_error)
        body: list[Block] = [unscored] if unscored else []
        verdict = self._verdict()
        if verdict is not None:
            body.append(Note(verdict, "ok" if self.passed else "", mark=""))
        if self.advice:
            body.append(Note(self.advice))
        body += [Note(note) for note in self._notes()]
        body.append(Table(self._headers(), self._rows(), "skq-stability"))
        return body

    def __repr__(self) -> str:
        return (
            f"<StabilityReport metric={self.metric_name!r}: {len(self.scores)} cases x "
            f"{self.repeats} repeats, flip rate {fmt_score(self.flip_rate)}, "
            f"mean std {fmt_score(self.mean_std)}>"
        )


@contextlib.contextmanager
def fresh_model_calls() -> Iterator[bool]:
    """Model calls made inside are never answered from litellm's cache (True: one was on)."""
    litellm = sys.modules.get("litellm")  # not imported: it has no cache turned on
    saved = getattr(litellm, "cache", None) if litellm is not None else None
    if saved is not None:
        litellm.cache = None  # type: ignore[union-attr]
    try:
        yield saved is not None
    finally:
        if saved is not None:
            litellm.cache = saved  # type: ignore[union-attr]


@EVALUATE.signed
def stability(
    metric: Any,
    data: Any,
    repeats: int = 5,
    *,
    run_cache: RunCache | None = None,
    on_event: _scoring.Listener | None = None,
    **options: Unpack[EvalKeywords],
) -> StabilityReport:
    """Score the same outputs ``repeats`` times and report how often a case's score changes.

    The outputs come once (``run`` through the run cache, or ``output_column``);
    the metric is called ``repeats`` times per case, concurrently as in
    :func:`~skynet_jupyter.evaluate`, with no cached model calls.  Options are
    those of :func:`~skynet_jupyter.evaluate`.  ``repeats`` is 2 to 1000, and
    cases x repeats at most 200,000 metric calls (refused before the repeats).
    A case the metric never scored is said first, and the report does not pass.
    """
    checked = EVALUATE.options("stability", options)
    return stability_with(
        metric, data, checked, repeats=repeats, run_cache=run_cache, on_event=on_event
    )


@speaks_its_options_language
def stability_with(
    metric: Any,
    data: Any,
    options: RunOptions,
    *,
    repeats: int = 5,
    run_cache: RunCache | None = None,
    on_event: _scoring.Listener | None = None,
) -> StabilityReport:
    """:func:`stability` with its options already checked (``%skynet_stability`` calls it)."""
    started = _scoring.clock()
    lang = options.language
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 2:
        raise ValueError(t("quality.stability.repeats", lang, value=repeats))
    refuse_count("repeats", repeats, MAX_REPEATS, lang, low=2)
    loaded = _scoring.load(metric, lang)
    with fresh_model_calls() as bypassed:
        # The run's calls may come from the cache; the judge's never do (its flips are measured).
        fresh = None if run_cache is None else run_cache.fresh_judge()
        base = _scoring.first_pass(loaded, data, options, run_cache=fresh, on_event=on_event)
        items = _scoring.known_items(base, lang)
        _scoring.refuse_scorings(len(items), repeats, lang)  # before the repeats fill memory
        again = items * (repeats - 1)
        results, interrupted = _scoring.score_items(
            loaded, base, again, options, phase="repeats", on_event=on_event
        )
    by_case = {case.index: case for case in base.cases}
    scores: dict[int, list[float | None]] = {}
    feedbacks: dict[int, list[str | None]] = {}
    # A case counts only when every repeat of it ran (an interrupted pass leaves some out).
    complete = set() if base.interrupted else {item.case for item in items}
    for position, result in enumerate(results):
        if result is None:
            complete.discard(again[position].case)  # an interrupted repeat: not measured
    for item in items:
        if item.case not in complete:
            continue
        first = by_case[item.case]
        scores[item.case] = [first.score]
        feedbacks[item.case] = [first.feedback]
    for position, result in enumerate(results):
        case = again[position].case
        if case in scores and result is not None:
            scores[case].append(result.score)
            feedbacks[case].append(result.feedback)
    report = StabilityReport(
        metric_name=loaded.name,
        lang=lang,
        repeats=repeats,
        scores=scores,
        feedbacks=feedbacks,
        judge_cost_usd=_scoring.judge_cost([*base.cases, *results]),
        judge_unpriced=_scoring.unpriced_judging([*base.cases, *results]),
        skipped=_scoring.without_output(base),
        interrupted=interrupted,
        model_cache_bypassed=bypassed,
    )
    report.unscored_error = next((by_case[c].error for c in report.unscored), None)
    return _scoring.finished(report, started, on_event)
