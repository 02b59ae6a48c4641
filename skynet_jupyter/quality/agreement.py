"""Agreement with human labels: does the metric say what a person says?

The optimizer learns only as much as the metric agrees with what a human
wants.  ``agreement`` scores the real outputs and compares the scores with a
column of human labels.  Pass/fail labels (``1``/``0``, ``true``/``false``,
``pass``/``fail``, ``yes``/``no``, ...) give accuracy, Cohen's kappa and the
confusion table (a score at or above ``threshold`` is a pass); numeric labels
give Spearman's and Pearson's correlations.  The human column never reaches
the metric: it is neither an input nor an Output column.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Unpack

from ..core.dataset import DataError, load_cases
from ..core.keywords import EVALUATE, EvalKeywords
from ..core.options import RunOptions, finite_number, speaks_its_options_language
from ..core.report import RunStop
from ..core.secrets import Redactor
from ..i18n import t
from ..run.engine import RunCache
from ..show.case_columns import FIELD_INDENT
from ..show.formats import fmt_score
from ..show.render import cell
from ..show.terminal_text import wrap_block
from . import _scoring
from ._show import (
    Block,
    Line,
    Note,
    QualityReport,
    Table,
    case_frame,
    labels,
    short,
    table_html,
    table_text,
    unscored_note,
    value_cell,
)

POSITIVE = frozenset({"1", "pass", "passed", "true", "yes", "y", "correct", "good", "ok", "right"})
NEGATIVE = frozenset({"0", "fail", "failed", "false", "no", "n", "incorrect", "bad", "wrong"})
BINARY = "binary"
NUMERIC = "numeric"
WEAK = 0.6  # below this kappa (or Spearman), the report advises reading the disagreements
RANK_GAP = 0.25  # numeric labels: a case disagrees when its ranks differ by a quarter of the range
SHOWN = 20
DEFAULT_LABELS = "human"  # the human-label column when neither labels= nor human= names one


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A case where the metric and the person differ."""

    case: int
    human: Any
    score: float
    feedback: str | None
    input: dict[str, Any] | None = None  # what the metric judged (None: the report kept none)
    output: Any = None


@dataclass(frozen=True, slots=True)
class DisagreementTable:
    """The disagreements, each with what was judged (``judged``: its input and output as
    the check view shortens them; empty when the report kept none).

    The HTML's table has the input and output columns; the text's table keeps its columns
    narrow and puts them on the lines under each row, as the check view's text does.
    """

    lang: str
    headers: Sequence[str]  # case, human label, score, feedback
    rows: Sequence[Sequence[tuple[str, str]]]
    judged: Sequence[tuple[str, str]] = ()

    def lines(self) -> list[str]:
        head, *rows = table_text(self.headers, [[text for text, _ in row] for row in self.rows])
        if not self.judged:
            return [head, *rows]
        names = labels(self.lang, "col.input", "col.output")
        lines = [head]
        for row, values in zip(rows, self.judged, strict=True):
            lines.append(row)
            for name, value in zip(names, values, strict=True):
                said = t("labelled", self.lang, label=name, text=value)
                lines += wrap_block(said, *FIELD_INDENT, None)
        return lines

    def html(self) -> str:
        css = 'class="skq-disagreements"'
        if not self.judged:
            return table_html(self.headers, self.rows, css)
        case, *rest = self.headers
        headers = [case, *labels(self.lang, "col.input", "col.output"), *rest]
        rows = [
            [row[0], (shown_input, ""), (shown_output, ""), *row[1:]]
            for row, (shown_input, shown_output) in zip(self.rows, self.judged, strict=True)
        ]
        return table_html(headers, rows, css, wrapped=(1, 2))


@dataclass
class AgreementReport(QualityReport):
    """The metric's scores beside the human labels of the same cases."""

    _page = "agreement"

    metric_name: str
    lang: str
    human: str
    threshold: float
    kind: str  # "binary" or "numeric"
    labels: dict[int, Any]  # case -> the human label as given
    values: dict[int, float]  # case -> the label as a number (pass 1, fail 0)
    scores: dict[int, float]
    feedbacks: dict[int, str | None]
    disagreements: list[Disagreement] = field(default_factory=list)
    inputs: dict[int, dict[str, Any]] = field(default_factory=dict)  # case -> what was judged
    outputs: dict[int, Any] = field(default_factory=dict)
    unlabeled: tuple[int, ...] = ()
    failed: tuple[int, ...] = ()
    failed_error: str | None = None  # why the first case that did not score failed
    judge_cost_usd: float | None = None
    judge_unpriced: int = 0  # cases whose judge calls had no known price
    interrupted: bool = False
    elapsed_s: float = 0.0
    stop: RunStop | None = None  # a pass stopped for a configuration problem

    @property
    def n(self) -> int:
        """How many cases have both a human label and a score."""
        return len(self.scores)

    def predicted(self, case: int) -> int:
        """The metric's verdict on ``case`` as pass (1) / fail (0), by ``threshold``."""
        return 1 if self.scores[case] >= self.threshold else 0

    def _verdicts(self) -> list[tuple[int, int]]:
        """(human, metric) per case, 1 for pass and 0 for fail (pass/fail labels, else none)."""
        if self.kind != BINARY:
            return []
        return [(int(self.values[c]), self.predicted(c)) for c in self.scores]

    def _correlation(self, measure: Callable[[list[float], list[float]], float]) -> float | None:
        """``measure`` of the labels against the scores (numeric labels, two cases or more)."""
        if self.kind != NUMERIC or self.n < 2:
            return None
        cases = list(self.scores)
        return measure([self.values[c] for c in cases], [self.scores[c] for c in cases])

    @property
    def accuracy(self) -> float | None:
        """Fraction of cases where the metric's pass/fail equals the label (pass/fail labels)."""
        pairs = self._verdicts()
        return sum(h == m for h, m in pairs) / len(pairs) if pairs else None

    @property
    def kappa(self) -> float | None:
        """Cohen's kappa of the metric's pass/fail against the labels (pass/fail labels).

        NaN when both give every case the same verdict (chance agreement is then 1).
        """
        pairs = self._verdicts()
        return cohen_kappa([h for h, _ in pairs], [m for _, m in pairs]) if pairs else None

    @property
    def spearman(self) -> float | None:
        """Spearman's rank correlation of scores and labels (numeric labels)."""
        return self._correlation(spearman)

    @property
    def pearson(self) -> float | None:
        """Pearson's correlation of scores and labels (numeric labels)."""
        return self._correlation(pearson)

    @property
    def confusion_counts(self) -> dict[tuple[int, int], int]:
        """(human, metric) -> count, with 1 for pass and 0 for fail (pass/fail labels)."""
        counts = {(h, m): 0 for h in (1, 0) for m in (1, 0)}
        for pair in self._verdicts():
            counts[pair] += 1
        return counts

    @property
    def confusion(self) -> Any:
        """The confusion table: human labels down, the metric's verdicts across (DataFrame)."""
        import pandas as pd

        lang = self.lang
        names = {1: t("quality.agree.pass", lang), 0: t("quality.agree.fail", lang)}
        counts = self.confusion_counts
        frame = pd.DataFrame(
            [[counts[(h, m)] for m in (1, 0)] for h in (1, 0)],
            index=pd.Index([names[1], names[0]], name=t("quality.agree.human_axis", lang)),
            columns=pd.Index([names[1], names[0]], name=t("quality.agree.metric_axis", lang)),
        )
        return frame

    @property
    def single_label(self) -> Any:
        """The one label every scored case has (None: the labels differ, or there are none).

        Then kappa (or Spearman) cannot measure agreement: chance explains it all.
        """
        values = set(self.values.values())
        if len(values) != 1:
            return None
        return self.labels[next(iter(self.scores))]

    @property
    def weak(self) -> bool:
        """The metric agrees weakly with the labels (never said when the measure is undefined
        because every label is the same: a metric right on every case is not weak)."""
        if self.single_label is not None:
            return False
        measure = self.kappa if self.kind == BINARY else self.spearman
        return measure is not None and (math.isnan(measure) or measure < WEAK)

    @property
    def passed(self) -> bool:
        """Agreement was measured on every labeled case, and it is not weak."""
        measured = self.n > 0 and self.single_label is None
        return measured and not (self.weak or self.failed or self.interrupted)

    @property
    def advice(self) -> str | None:
        return t("quality.agree.advice", self.lang) if self.weak else None

    def to_frame(self) -> Any:
        """One row per case: human label, label value, score, verdict, feedback."""
        rows = {
            case: {
                "human": self.labels[case],
                "human_value": self.values[case],
                "score": self.scores[case],
                "metric_pass": self.predicted(case) if self.kind == BINARY else None,
                "feedback": self.feedbacks[case],
            }
            for case in self.scores
        }
        return case_frame(rows)

    # --- showing ------------------------------------------------------------------

    def _title(self) -> str:
        return t("quality.agree.title", self.lang, name=self.metric_name, column=self.human)

    def _measures(self) -> str:
        lang = self.lang
        if self.kind == BINARY:
            return t(
                "quality.agree.binary",
                lang,
                n=self.n,
                accuracy=fmt_score(self.accuracy),
                kappa=fmt_score(self.kappa),
                threshold=fmt_score(self.threshold),
            )
        return t(
            "quality.agree.numeric",
            lang,
            n=self.n,
            spearman=fmt_score(self.spearman),
            pearson=fmt_score(self.pearson),
        )

    def _facts(self) -> list[str]:
        return [self._measures()]

    def _status(self) -> str:
        if self.weak or self.interrupted or self.failed or not self.n:
            return "bad"
        return "warn" if self.single_label is not None else "good"

    def _single_label_note(self) -> str | None:
        """What the measure cannot say when every label is the same (None: they differ)."""
        label, lang = self.single_label, self.lang
        if label is None:
            return None
        if self.kind != BINARY:
            return t("quality.agree.one_value", lang, label=short(label, 40))
        passed = self.values[next(iter(self.scores))] == 1.0
        names = [t("quality.agree.pass", lang), t("quality.agree.fail", lang)]
        label_name, other = names if passed else names[::-1]
        agreed = sum(h == m for h, m in self._verdicts())
        return t(
            "quality.agree.one_label", lang, label=label_name, other=other, agreed=agreed, n=self.n
        )

    def _notes(self) -> list[str]:
        lang = self.lang
        notes = []
        if self.unlabeled:
            notes.append(t("quality.agree.unlabeled", lang, count=len(self.unlabeled)))
        if self.interrupted:
            notes.append(t("quality.interrupted", lang))
        return notes

    def _confusion_table(self) -> Table:
        lang = self.lang
        names = {1: t("quality.agree.pass", lang), 0: t("quality.agree.fail", lang)}
        counts = self.confusion_counts
        headers = [t("quality.agree.axes", lang), names[1], names[0]]
        rows = [
            [(names[h], "")]
            + [(str(counts[(h, m)]), "skq-num" if h == m else "skq-num skq-flag") for m in (1, 0)]
            for h in (1, 0)
        ]
        return Table(headers, rows, "skq-confusion")

    def _disagreement_table(self) -> DisagreementTable:
        lang, shown = self.lang, self.disagreements[:SHOWN]
        headers = labels(lang, "col.case", "quality.col.human", "col.score", "quality.col.feedback")
        rows = [
            [
                (str(d.case), "skq-num"),
                (value_cell(d.human, 40), ""),
                (fmt_score(d.score), "skq-num"),
                (short(d.feedback or "—", 160), ""),
            ]
            for d in shown
        ]
        if not self.inputs:  # a report made without its cases (alignment's held-out one)
            return DisagreementTable(lang, headers, rows)
        clean = Redactor()  # what was judged is user data: redacted as the check view does
        judged = [
            (cell(d.input, clean, quote=True), cell(d.output, clean, quote=True)) for d in shown
        ]
        return DisagreementTable(lang, headers, rows, judged)

    def _body(self) -> list[Block]:
        # Cases that did not score come first: agreement on the others is not the metric's.
        unscored = unscored_note(
            self.lang, self.failed, self.n + len(self.failed), self.failed_error
        )
        body: list[Block] = [unscored] if unscored else []
        if self.advice:
            body.append(Note(self.advice))
        single = self._single_label_note()
        if single is not None:
            body.append(Note(single))
        body += [Note(note) for note in self._notes()]
        if self.kind == BINARY:
            body.append(self._confusion_table())
        count = len(self.disagreements)
        body.append(Line(t("quality.agree.disagreements", self.lang, count=count)))
        if self.disagreements:
            body.append(self._disagreement_table())
        return body

    def __repr__(self) -> str:
        if self.kind == BINARY:
            measures = f"accuracy {fmt_score(self.accuracy)}, kappa {fmt_score(self.kappa)}"
        else:
            measures = f"spearman {fmt_score(self.spearman)}, pearson {fmt_score(self.pearson)}"
        who = f"metric={self.metric_name!r} vs {self.human!r}"
        return f"<AgreementReport {who}: n={self.n}, {measures}>"


# --- the statistics (plain Python: no SciPy needed) ----------------------------------


def cohen_kappa(first: Sequence[Any], second: Sequence[Any]) -> float:
    """Cohen's kappa of two raters over the same items (NaN when chance agreement is 1)."""
    n = len(first)
    if n == 0 or n != len(second):
        return math.nan
    # (observed - chance) / (1 - chance) over n * n, in whole numbers and one division:
    # a kappa of exactly 0.6 is 0.6, never 0.5999999999999996 (which WEAK would call weak).
    agreed = sum(a == b for a, b in zip(first, second, strict=True))
    categories = set(first) | set(second)
    chance = sum(list(first).count(c) * list(second).count(c) for c in categories)
    if chance >= n * n:
        return math.nan
    return (n * agreed - chance) / (n * n - chance)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            result[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return result


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation (NaN when either side is constant)."""
    n = len(xs)
    if n < 2:
        return math.nan
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return math.nan
    return sxy / math.sqrt(sxx * syy)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's on the ranks (ties averaged)."""
    return pearson(ranks(xs), ranks(ys))


# --- reading the labels ---------------------------------------------------------------


def missing_label(label: Any) -> bool:
    """No label: None, NaN or blank text (the case is left out, not read as a fail)."""
    if label is None:
        return True
    if isinstance(label, float) and math.isnan(label):
        return True
    return isinstance(label, str) and not label.strip()


def label_value(label: Any) -> float | None:
    """A label as a number: pass-like words 1, fail-like 0, numbers as they are; else None."""
    if isinstance(label, bool):
        return 1.0 if label else 0.0
    if isinstance(label, int | float) and math.isfinite(label):
        return float(label)
    if hasattr(label, "item") and not isinstance(label, str):  # NumPy scalars
        return label_value(label.item())
    if isinstance(label, str):
        word = label.strip().lower()
        if word in POSITIVE:
            return 1.0
        if word in NEGATIVE:
            return 0.0
        try:
            number_ = float(word)
        except ValueError:
            return None
        return number_ if math.isfinite(number_) else None
    return None


def _names(value: str | Sequence[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [name.strip() for name in value.split(",") if name.strip()]
    return list(value)


def human_columns(
    data: Any, options: RunOptions, columns: Sequence[str]
) -> tuple[dict[int, dict[str, Any]], RunOptions]:
    """The human ``columns`` of every case (case -> {column: value}), and ``options`` whose
    inputs leave them out: what people wrote never reaches the metric."""
    lang = options.language
    outputs = _names(options.outputs)
    given_inputs = options.inputs
    for column in columns:
        if column in outputs or column in _names(given_inputs) or column == options.output_column:
            raise DataError(t("quality.agree.column_used", lang, column=column))
    every = load_cases(data, split=options.split)  # every column, as inputs
    known = list(every[0].input) if every else []
    for column in columns:
        if column not in known:
            raise DataError(
                t("quality.agree.no_column", lang, column=column, known=", ".join(map(str, known)))
            )
    if given_inputs is None:  # every other column, but never the human ones
        skip = {*columns, *outputs, options.output_column}
        options = replace(options, inputs=[c for c in known if c not in skip])
    rows = {case.index: {c: case.input[c] for c in columns} for case in every}
    return rows, options


@EVALUATE.signed
def agreement(
    metric: Any,
    data: Any,
    *,
    labels: str | None = None,
    threshold: float = 0.5,
    run_cache: RunCache | None = None,
    on_event: _scoring.Listener | None = None,
    human: str | None = None,
    **options: Unpack[EvalKeywords],
) -> AgreementReport:
    """Compare the metric's scores with the human labels in column ``labels`` of the data
    (``"human"`` by default; ``human=`` is its older name, as ``sj.align``'s ``labels=``).

    Pass/fail labels give ``.accuracy``, ``.kappa`` and ``.confusion`` (a score
    at or above ``threshold`` is a pass); numeric labels give ``.spearman`` and
    ``.pearson``.  The human column is never passed to the metric.  Options are
    those of :func:`~skynet_jupyter.evaluate`.
    """
    checked = EVALUATE.options("agreement", options)
    return agreement_with(
        metric,
        data,
        checked,
        labels=labels,
        threshold=threshold,
        run_cache=run_cache,
        on_event=on_event,
        human=human,
    )


@speaks_its_options_language
def agreement_with(
    metric: Any,
    data: Any,
    options: RunOptions,
    *,
    labels: str | None = None,
    human: str | None = None,
    threshold: float = 0.5,
    run_cache: RunCache | None = None,
    on_event: _scoring.Listener | None = None,
) -> AgreementReport:
    """:func:`agreement` with its options already checked (``%skynet_agree`` calls it)."""
    column = labels_column(labels, human)
    return _agreement(metric, data, options, column, threshold, run_cache, on_event)


def labels_column(labels: str | None, human: str | None) -> str:
    """The human-label column: ``labels=``, or its older name ``human=``, never both."""
    if labels is not None and human is not None:
        raise TypeError(t("quality.agree.labels_twice", labels=labels, human=human))
    return labels if labels is not None else human if human is not None else DEFAULT_LABELS


def _agreement(
    metric: Any,
    data: Any,
    options: RunOptions,
    column: str,
    threshold: float,
    run_cache: RunCache | None,
    on_event: _scoring.Listener | None,
) -> AgreementReport:
    started = _scoring.clock()
    lang = options.language
    if not finite_number(threshold):  # NaN would make every score a fail
        raise ValueError(t("quality.agree.threshold", lang, value=threshold))
    rows, options = human_columns(data, options, [column])
    labels_all = {index: row[column] for index, row in rows.items()}
    loaded = _scoring.load(metric, lang)
    base = _scoring.first_pass(loaded, data, options, run_cache=run_cache, on_event=on_event)
    labels: dict[int, Any] = {}
    values: dict[int, float] = {}
    scores: dict[int, float] = {}
    feedbacks: dict[int, str | None] = {}
    inputs: dict[int, dict[str, Any]] = {}
    outputs: dict[int, Any] = {}
    unlabeled, failed = [], []
    for case in base.cases:
        label = labels_all.get(case.index)
        if missing_label(label):
            unlabeled.append(case.index)
            continue
        value = label_value(label)
        if value is None:
            raise DataError(
                t("quality.agree.bad_labels", lang, column=column, example=short(label, 40))
            )
        if case.score is None:
            failed.append(case.index)
            continue
        labels[case.index], values[case.index] = label, value
        scores[case.index], feedbacks[case.index] = case.score, case.feedback
        inputs[case.index], outputs[case.index] = case.input, case.output
    kind = label_kind(values.values())
    report = AgreementReport(
        metric_name=loaded.name,
        lang=lang,
        human=column,
        threshold=float(threshold),
        kind=kind,
        labels=labels,
        values=values,
        scores=scores,
        feedbacks=feedbacks,
        inputs=inputs,
        outputs=outputs,
        unlabeled=tuple(unlabeled),
        failed=tuple(failed),
        judge_cost_usd=_scoring.judge_cost(base.cases),
        judge_unpriced=_scoring.unpriced_judging(base.cases),
        interrupted=base.interrupted,
    )
    report.disagreements = disagreements_of(report)
    report.failed_error = next((c.error for c in base.cases if c.index in failed), None)
    return _scoring.finished(report, started, on_event)


def label_kind(values: Iterable[float]) -> str:
    """``binary`` when every label is a pass (1) or a fail (0), else ``numeric``."""
    return BINARY if all(v in (0.0, 1.0) for v in values) else NUMERIC


def disagreements_of(report: AgreementReport) -> list[Disagreement]:
    """Worst first: pass/fail by how far the score is from the label; numeric by rank gap."""
    cases = list(report.scores)
    if report.kind == BINARY:
        wrong = [c for c in cases if report.predicted(c) != report.values[c]]
        gap = {c: abs(report.scores[c] - report.values[c]) for c in wrong}
    else:
        if len({report.values[c] for c in cases}) < 2:
            return []  # one label for all: no order to compare ranks with (the report says so)
        human_ranks = ranks([report.values[c] for c in cases])
        metric_ranks = ranks([report.scores[c] for c in cases])
        span = len(cases) - 1
        gap = {
            c: abs(h - m) / span
            for c, h, m in zip(cases, human_ranks, metric_ranks, strict=True)
            if abs(h - m) / span >= RANK_GAP
        }
        wrong = list(gap)
    wrong.sort(key=lambda c: (-gap[c], c))
    return [
        Disagreement(
            c,
            report.labels[c],
            report.scores[c],
            report.feedbacks[c],
            report.inputs.get(c),
            report.outputs.get(c),
        )
        for c in wrong
    ]
