"""Two metrics (or two versions of one) on the same cases and the same outputs.

``compare`` runs ``metric_a`` as an ordinary evaluation (``run`` is called once
per case, or the outputs come from ``output_column``), then scores exactly
those outputs with ``metric_b``, and lays the two side by side: per-case
scores and feedback, which cases changed, the mean change, and, when both
define ``REWARD_SPEC``, their accuracy/speed/cost parts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Unpack

from ..core.keywords import EVALUATE, EvalKeywords
from ..core.options import RunOptions, speaks_its_options_language
from ..core.report import CaseResult, RunStop
from ..core.reward import PARTS
from ..i18n import t
from ..run.engine import RunCache
from ..show.formats import fmt_delta, fmt_mean, fmt_mean_delta, fmt_score, fmt_weight
from . import _scoring
from ._show import (
    Block,
    Line,
    Note,
    QualityReport,
    Table,
    case_frame,
    short,
    unscored_note,
    value_cell,
)

SHOWN_CASES = 50


@dataclass
class CompareReport(QualityReport):
    """``metric_a`` and ``metric_b`` on the same outputs, case by case."""

    _page = "compare"

    name_a: str
    name_b: str
    lang: str
    a: dict[int, CaseResult]
    b: dict[int, CaseResult]
    spec_a: Any = None
    spec_b: Any = None
    skipped: tuple[int, ...] = ()
    judge_cost_usd: float | None = None
    judge_unpriced: int = 0  # cases whose judge calls had no known price
    interrupted: bool = False
    elapsed_s: float = 0.0
    stop: RunStop | None = None  # a pass stopped for a configuration problem

    @property
    def cases(self) -> list[int]:
        return [case for case in self.a if case in self.b]

    @property
    def unscored(self) -> list[int]:
        """The cases neither metric scored: nothing to compare there."""
        return [c for c in self.cases if self.a[c].score is None and self.b[c].score is None]

    @property
    def changed(self) -> list[int]:
        """The cases whose score changed (a failure on one side counts as a change)."""
        return [c for c in self.cases if self.a[c].score != self.b[c].score]

    @property
    def feedback_changed(self) -> list[int]:
        """The cases whose feedback text changed."""
        return [c for c in self.cases if self.a[c].feedback != self.b[c].feedback]

    @property
    def mean_delta(self) -> float | None:
        """The mean of score b − score a over the cases both scored (None: none did)."""
        deltas = [
            self.b[c].score - self.a[c].score  # type: ignore[operator]
            for c in self.cases
            if self.a[c].score is not None and self.b[c].score is not None
        ]
        return sum(deltas) / len(deltas) if deltas else None

    @property
    def per_case(self) -> Any:
        """One row per case: score_a, score_b, delta (b − a), feedback_a, feedback_b."""
        rows: dict[int, dict[str, Any]] = {}
        for case in self.cases:
            a, b = self.a[case], self.b[case]
            delta = None if a.score is None or b.score is None else b.score - a.score
            rows[case] = {
                "score_a": a.score,
                "score_b": b.score,
                "delta": delta,
                "feedback_a": a.feedback if a.score is not None else a.error,
                "feedback_b": b.feedback if b.score is not None else b.error,
            }
            for side, result in (("a", a), ("b", b)):
                for part in PARTS if self.reward_parts else ():
                    rows[case][f"{part}_{side}"] = result.scores.get(part)
        columns = ["score_a", "score_b", "delta", "feedback_a", "feedback_b"]
        frame = case_frame(rows)
        return frame[[*columns, *[c for c in frame.columns if c not in columns]]] if rows else frame

    def to_frame(self) -> Any:
        return self.per_case

    @property
    def reward_parts(self) -> dict[str, dict[str, tuple[float, float | None]]] | None:
        """When both define ``REWARD_SPEC``: side -> part -> (weight, mean component)."""
        if self.spec_a is None or self.spec_b is None:
            return None
        parts: dict[str, dict[str, tuple[float, float | None]]] = {}
        for side, spec, results in (("a", self.spec_a, self.a), ("b", self.spec_b, self.b)):
            parts[side] = {}
            for part in PARTS:
                seen = [
                    r.scores[part]
                    for c in self.cases
                    if (r := results[c]).score is not None and part in r.scores
                ]
                mean = sum(seen) / len(seen) if seen else None
                parts[side][part] = (float(spec.weights[part]), mean)
        return parts

    # --- showing ------------------------------------------------------------------

    def _title(self) -> str:
        return t("quality.compare.title", self.lang, a=self.name_a, b=self.name_b)

    def _summary(self) -> str:
        lang = self.lang
        if not self.changed and not self.feedback_changed:
            return t("quality.compare.same", lang, count=len(self.cases))
        delta = self.mean_delta
        return t(
            "quality.compare.summary",
            lang,
            changed=len(self.changed),
            count=len(self.cases),
            feedback=len(self.feedback_changed),
            delta=fmt_mean_delta(delta),
        )

    def _facts(self) -> list[str]:
        return [t("quality.cases", self.lang, count=len(self.cases))]

    def _status(self) -> str:
        if self.unscored:
            return "bad"
        return "warn" if self._changed_any() else "good"

    def _changed_any(self) -> bool:
        return bool(self.changed or self.feedback_changed)

    def _notes(self) -> list[str]:
        notes = []
        if self.skipped:
            notes.append(t("quality.skipped", self.lang, count=len(self.skipped)))
        if self.interrupted:
            notes.append(t("quality.interrupted", self.lang))
        return notes

    def _headers(self) -> list[str]:
        lang = self.lang
        return [
            t("col.case", lang),
            t("col.output", lang),
            f"{t('col.score', lang)} {self.name_a}",
            f"{t('col.score', lang)} {self.name_b}",
            "Δ",
            f"{t('quality.col.feedback', lang)} {self.name_a}",
            f"{t('quality.col.feedback', lang)} {self.name_b}",
        ]

    def _rows(self) -> list[list[tuple[str, str]]]:
        changed = set(self.changed)
        order = sorted(self.cases, key=lambda c: (c not in changed, c))  # changed cases first
        rows = []
        for case in order[:SHOWN_CASES]:
            a, b = self.a[case], self.b[case]
            delta = None if a.score is None or b.score is None else b.score - a.score
            moved = "skq-num skq-flag" if case in changed else "skq-num"
            rows.append(
                [
                    (str(case), "skq-num"),
                    (value_cell(a.output, 40), ""),
                    (fmt_score(a.score) if a.score is not None else "error", "skq-num"),
                    (fmt_score(b.score) if b.score is not None else "error", moved),
                    (fmt_delta(delta), moved),
                    (short(a.feedback if a.score is not None else a.error or "", 160), ""),
                    (short(b.feedback if b.score is not None else b.error or "", 160), ""),
                ]
            )
        return rows

    def _parts_table(self) -> Table | None:
        parts = self.reward_parts
        if parts is None:
            return None
        lang = self.lang
        headers = [
            t("quality.compare.part", lang),
            f"{t('quality.compare.weight', lang)} {self.name_a}",
            f"{t('quality.col.mean', lang)} {self.name_a}",
            f"{t('quality.compare.weight', lang)} {self.name_b}",
            f"{t('quality.col.mean', lang)} {self.name_b}",
        ]
        rows = []
        for part in PARTS:
            wa, ma = parts["a"][part]
            wb, mb = parts["b"][part]
            rows.append(
                [
                    (part, ""),
                    (fmt_weight(wa), "skq-num"),
                    (fmt_mean(ma), "skq-num"),
                    (fmt_weight(wb), "skq-num" if math.isclose(wa, wb) else "skq-num skq-flag"),
                    (fmt_mean(mb), "skq-num"),
                ]
            )
        return Table(headers, rows, "skq-reward-parts")

    def _body(self) -> list[Block]:
        unscored = self.unscored
        first = self.a[unscored[0]] if unscored else None
        error = None if first is None else first.error
        said = unscored_note(self.lang, unscored, len(self.cases), error)
        body: list[Block] = [said] if said else []  # first: "the same score" would mislead
        if len(unscored) < len(self.cases) or not self.cases:
            kind = "ok" if not (self._changed_any() or unscored) else "note"
            body.append(Note(self._summary(), kind, mark=""))
        body += [Note(note) for note in self._notes()]
        body.append(Table(self._headers(), self._rows(), "skq-compare"))
        parts = self._parts_table()
        if parts is not None:
            body += [Line(t("quality.compare.reward", self.lang), "skq-title"), parts]
        return body

    def __repr__(self) -> str:
        delta = fmt_mean_delta(self.mean_delta)
        return (
            f"<CompareReport {self.name_a!r} -> {self.name_b!r}: {len(self.cases)} cases, "
            f"{len(self.changed)} changed, mean delta {delta}>"
        )


def _name(given: Any, loaded: Any) -> str:
    """A side's label: the registered name, or a plain function's own name."""
    if loaded.name == "default" and callable(given) and hasattr(given, "__name__"):
        return str(given.__name__)
    return str(loaded.name)


@EVALUATE.signed
def compare(
    metric_a: Any,
    metric_b: Any,
    data: Any,
    *,
    names: tuple[str, str] | None = None,
    run_cache: RunCache | None = None,
    on_event: _scoring.Listener | None = None,
    **options: Unpack[EvalKeywords],
) -> CompareReport:
    """Score the same outputs with two metrics and show what changed, case by case.

    The outputs come once (``run`` called once per case, through the run cache,
    or ``output_column``).  ``names`` labels the two sides (default: the
    metrics' names).  Options are those of :func:`~skynet_jupyter.evaluate`.
    """
    checked = EVALUATE.options("compare", options)
    return compare_with(
        metric_a, metric_b, data, checked, names=names, run_cache=run_cache, on_event=on_event
    )


@speaks_its_options_language
def compare_with(
    metric_a: Any,
    metric_b: Any,
    data: Any,
    options: RunOptions,
    *,
    names: tuple[str, str] | None = None,
    run_cache: RunCache | None = None,
    on_event: _scoring.Listener | None = None,
) -> CompareReport:
    """:func:`compare` with its options already checked (``%skynet_compare`` calls it)."""
    started = _scoring.clock()
    lang = options.language
    loaded_a = _scoring.load(metric_a, lang)
    loaded_b = _scoring.load(metric_b, lang)
    name_a, name_b = names or (_name(metric_a, loaded_a), _name(metric_b, loaded_b))
    if name_a == name_b and names is None:
        name_a, name_b = f"{name_a} (a)", f"{name_b} (b)"
    base = _scoring.first_pass(loaded_a, data, options, run_cache=run_cache, on_event=on_event)
    items = _scoring.known_items(base, lang)
    results, interrupted = _scoring.score_items(
        loaded_b, base, items, options, phase="metric_b", on_event=on_event
    )
    by_case = {case.index: case for case in base.cases}
    a = {item.case: by_case[item.case] for item in items}
    b = {item.case: r for item, r in zip(items, results, strict=False) if r is not None}
    report = CompareReport(
        name_a=name_a,
        name_b=name_b,
        lang=lang,
        a={case: result for case, result in a.items() if case in b},
        b=b,
        spec_a=loaded_a.reward_spec,
        spec_b=loaded_b.reward_spec,
        skipped=_scoring.without_output(base),
        judge_cost_usd=_scoring.judge_cost([*base.cases, *results]),
        judge_unpriced=_scoring.unpriced_judging([*base.cases, *results]),
        interrupted=interrupted,
    )
    return _scoring.finished(report, started, on_event)
