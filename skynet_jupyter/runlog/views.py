"""A :class:`~.api.History` and a :class:`~.diff.RunDiff` as text and as HTML.

This module is a layer above the rest of ``runlog/`` (it draws with ``show/``: its
stylesheet, numbers and escaping), and is found by name (``views_lookup.py``).

The history's HTML is a chart per metric: each run's mean score (a solid line,
round marks) and pass rate (a dashed line, square marks) in time order, each
version its own colour, a new version marked where it starts; then the runs as a
table.  The chart is an SVG drawn here, every label and tooltip escaped.  A diff
lists its regressions first (marked as such), then improvements, the cases whose
feedback changed, added and removed ones, each with its feedback's word diff, then
the metric's source diff.  All user text is escaped (HTML) and none of it can run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.inert_text import one_line
from ..i18n import t
from ..show.formats import fmt_delta, fmt_mean, fmt_mean_delta, fmt_score, fmt_share, fmt_usd
from ..show.render import cut, esc, show_value
from ..show.style import STYLE
from .words import diff_text as pieces_text

if TYPE_CHECKING:
    from .api import History
    from .record import RunRecord
    from .run_diff import CaseChange, RunDiff

__all__ = [
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "SHOWN_CASES",
    "SHOWN_RUNS",
    "chart_svg",
    "diff_html",
    "diff_text",
    "history_html",
    "history_text",
]

SHOWN_RUNS = 50  # rows of the table (the chart draws every run of the history)
SHOWN_CASES = 50  # cases listed per group of a diff
SHOWN_METRICS = 6  # charts drawn (one per metric)
CHART_WIDTH, CHART_HEIGHT = 640, 200
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 40, 12, 14, 28
# Versions are told apart by colour (a palette readable on light and dark themes).
PALETTE = ("#0969da", "#bc4c00", "#8250df", "#1a7f37", "#bf3989", "#9a6700", "#0a7e8c")
VALUE_CHARS = 120

_CSS = """<style>
.sko.skh .skh-chart{display:block;width:100%;max-width:640px;height:auto;margin:4px 0 8px}
.sko.skh .skh-chart text{font-size:10px;fill:var(--skv-muted)}
.sko.skh .skh-chart .skh-axis{stroke:var(--skv-line);stroke-width:1}
.sko.skh .skh-chart .skh-mean{fill:none;stroke-width:2}
.sko.skh .skh-chart .skh-rate{fill:none;stroke-width:1.5;stroke-dasharray:5 3}
.sko.skh .skh-chart .skh-cut{stroke:var(--skv-line);stroke-dasharray:2 3}
.sko.skh .skh-legend{font-size:12px;color:var(--skv-muted);margin:2px 0}
.sko.skh .skh-legend span{margin-right:12px;white-space:nowrap}
.sko.skh .skh-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;
vertical-align:middle;margin-right:4px}
.sko.skh table{font-size:12.5px;margin:4px 0}
.sko.skh .skh-reg{color:var(--skv-bad);font-weight:600}
.sko.skh .skh-imp{color:var(--skv-ok);font-weight:600}
.sko.skh tr.skh-row-reg td{background:var(--skv-bad-bg)}
.sko.skh tr.skh-row-imp td{background:var(--skv-ok-bg)}
.sko.skh .skh-src{font-family:var(--jp-code-font-family,monospace);font-size:12px;
white-space:pre;overflow:auto;max-height:22em;background:var(--skv-code-bg);
border-radius:4px;padding:4px 8px;margin:3px 0}
.sko.skh .skh-src .skh-add{color:var(--skv-ok)}
.sko.skh .skh-src .skh-del{color:var(--skv-bad)}
.sko.skh td{max-width:32em;overflow-wrap:anywhere;white-space:pre-wrap}
.sko.skh table.skh-runs td{overflow-wrap:normal;white-space:normal;
font-variant-numeric:tabular-nums}
</style>"""


def _note(text: str) -> str:
    return f'<div class="sko-note">{esc(text)}</div>'


def _page(body: str) -> str:
    return f'{STYLE}{_CSS}<div class="sko skh">{body}</div>'


# --- the history ------------------------------------------------------------------


def _where(history: History) -> str:
    return history.location.shown if history.location is not None else ""


def history_title(history: History) -> str:
    lang = history.lang
    if history.location is None:
        return t("history.log_off", lang)
    if history.metric is not None:
        return t("history.title_metric", lang, metric=history.metric, count=history.total)
    return t("history.title", lang, count=history.total)


def _version(record: RunRecord) -> str:
    return record.version or "?"


def _rate(record: RunRecord) -> str:
    totals = record.totals
    return f"{totals.get('passed', 0)}/{totals.get('cases', 0)}"


def _started(record: RunRecord) -> str:
    return f"{record.started:%Y-%m-%d %H:%M:%S}"


def _row(record: RunRecord, lang: str) -> list[str]:
    verdict = t("history.passed" if record.passed else "history.failed", lang)
    return [
        record.id,
        _started(record),
        record.metric,
        _version(record),
        record.kind,
        record.origin,
        verdict,
        _rate(record),
        fmt_mean(record.mean),
        "—" if record.cost_usd is None else fmt_usd(record.cost_usd, lang),
        f"{record.elapsed_s:.2f} s",
    ]


def _text_row(record: RunRecord, lang: str) -> list[str]:
    """A run's row as text: a line break in a record's text (its metric's name) is shown
    escaped, so that a record can never add a line of its own to the listing."""
    return [one_line(cell) for cell in _row(record, lang)]


def _head_cells(lang: str) -> list[str]:
    return [
        t(key, lang)
        for key in (
            "history.col_run",
            "history.col_started",
            "history.col_metric",
            "history.col_version",
            "history.col_kind",
            "history.col_origin",
            "history.col_verdict",
            "history.col_passed",
            "history.col_mean",
            "history.col_cost",
            "history.col_time",
        )
    ]


def history_text(history: History) -> str:
    lang = history.lang
    lines = [history_title(history)]
    if history.location is not None:
        lines.append(t("history.where", lang, where=_where(history)))
    if not history.runs:
        if history.location is not None:
            lines.append(t("history.empty", lang))
        return "\n".join(lines)
    rows = [_head_cells(lang), *(_text_row(r, lang) for r in history.runs[:SHOWN_RUNS])]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    if len(history.runs) > SHOWN_RUNS:
        lines.append(t("history.more_runs", lang, count=len(history.runs) - SHOWN_RUNS))
    lines += [f"  {line}" for line in version_lines(history)]
    return "\n".join(lines)


def version_lines(history: History) -> list[str]:
    """Per metric and version: its runs, its last mean and pass rate (oldest version first)."""
    lang = history.lang
    lines = []
    for metric, runs in _by_metric(history.runs):
        for version, group in _by_version(runs):
            last = group[-1]
            lines.append(
                t(
                    "history.version_line",
                    lang,
                    metric=metric,
                    version=version,
                    count=len(group),
                    mean=fmt_mean(last.mean),
                    rate=fmt_share(last.pass_rate),
                )
            )
    return lines


def _by_metric(runs: Sequence[RunRecord]) -> list[tuple[str, list[RunRecord]]]:
    """Runs grouped by metric, each group oldest first; the metric run last comes first."""
    groups: dict[str, list[RunRecord]] = {}
    for record in runs:  # newest first
        groups.setdefault(record.metric, []).append(record)
    return [(metric, list(reversed(group))) for metric, group in groups.items()]


def _by_version(runs: list[RunRecord]) -> list[tuple[str, list[RunRecord]]]:
    groups: dict[str, list[RunRecord]] = {}
    for record in runs:  # oldest first
        groups.setdefault(_version(record), []).append(record)
    return list(groups.items())


def history_html(history: History, *, live: bool = False) -> str:
    lang = history.lang
    parts = [f'<div class="sko-title">{esc(history_title(history))}</div>']
    if history.location is not None:
        parts.append(
            f'<div class="sko-sub">{esc(t("history.where", lang, where=_where(history)))}</div>'
        )
    if not history.runs:
        if history.location is not None:
            parts.append(f'<div class="sko-note">{esc(t("history.empty", lang))}</div>')
        return _page("".join(parts))
    groups = _by_metric(history.runs)
    for metric, runs in groups[:SHOWN_METRICS]:
        parts.append(f'<div class="sko-h">{esc(metric)}</div>')
        parts.append(chart_svg(runs, metric, lang))
        parts.append(_legend(runs, lang))
    if len(groups) > SHOWN_METRICS:
        parts.append(_note(t("history.more_metrics", lang, count=len(groups) - SHOWN_METRICS)))
    parts.append(_table(history))
    return _page("".join(parts))


def _table(history: History) -> str:
    lang = history.lang
    head = "".join(f"<th>{esc(cell)}</th>" for cell in _head_cells(lang))
    rows = []
    for record in history.runs[:SHOWN_RUNS]:
        cells = _row(record, lang)
        tone = "sko-up" if record.passed else "skh-reg"
        shown = [esc(cell) for cell in cells]
        shown[6] = f'<span class="{tone}">{shown[6]}</span>'
        rows.append(
            f'<tr data-run="{esc(record.id)}" data-version="{esc(_version(record))}">'
            + "".join(f"<td>{cell}</td>" for cell in shown)
            + "</tr>"
        )
    more = ""
    if len(history.runs) > SHOWN_RUNS:
        more = _note(t("history.more_runs", lang, count=len(history.runs) - SHOWN_RUNS))
    body = "".join(rows)
    return (
        f'<table class="skh-runs"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}'
    )


def _colours(runs: Sequence[RunRecord]) -> dict[str, str]:
    versions: dict[str, str] = {}
    for record in runs:
        version = _version(record)
        if version not in versions:
            versions[version] = PALETTE[len(versions) % len(PALETTE)]
    return versions


def _legend(runs: Sequence[RunRecord], lang: str) -> str:
    colours = _colours(runs)
    items = [
        f'<span><span class="skh-swatch" style="background:{colour}"></span>'
        f"{esc(t('history.version_label', lang, version=version))}</span>"
        for version, colour in colours.items()
    ]
    items.append(f"<span>━ {esc(t('history.series_mean', lang))}</span>")
    items.append(f"<span>┅ {esc(t('history.series_rate', lang))}</span>")
    return f'<div class="skh-legend">{"".join(items)}</div>'


def _bounds(runs: Sequence[RunRecord]) -> tuple[float, float]:
    values = [v for r in runs for v in (r.mean, r.pass_rate) if v is not None]
    low = min([0.0, *values])
    high = max([1.0, *values])
    return low, high if high > low else low + 1.0


def chart_svg(runs: Sequence[RunRecord], metric: str, lang: str) -> str:
    """The chart of ``runs`` (one metric, oldest first): mean score and pass rate per run."""
    low, high = _bounds(runs)
    inner_w = CHART_WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = CHART_HEIGHT - PAD_TOP - PAD_BOTTOM
    count = len(runs)

    def x(position: int) -> float:  # the marks kept clear of the axis and its labels
        inset = 10
        span = inner_w - 2 * inset
        return PAD_LEFT + inset + (span / 2 if count == 1 else span * position / (count - 1))

    def y(value: float) -> float:
        return PAD_TOP + inner_h * (1 - (value - low) / (high - low))

    colours = _colours(runs)
    parts = [_axes(low, high, y)]
    parts += _version_marks(runs, x, lang)
    for series, css, mark in (("mean", "skh-mean", "circle"), ("pass_rate", "skh-rate", "rect")):
        parts += _series_lines(runs, series, css, colours, x, y)
        parts += _series_marks(runs, series, mark, colours, x, y, lang)
    parts.append(_time_labels(runs, x))
    label = t("history.chart_label", lang, metric=metric, count=count)
    return (
        f'<svg class="skh-chart" role="img" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" '
        f'data-metric="{esc(metric)}" aria-label="{esc(label)}">'
        f"<title>{esc(label)}</title>{''.join(parts)}</svg>"
    )


def _axes(low: float, high: float, y: Any) -> str:
    lines = []
    for value in sorted({low, (low + high) / 2, high}):
        level = y(value)
        lines.append(
            f'<line class="skh-axis" x1="{PAD_LEFT}" x2="{CHART_WIDTH - PAD_RIGHT}" '
            f'y1="{level:.1f}" y2="{level:.1f}"/>'
            f'<text x="{PAD_LEFT - 4}" y="{level + 3:.1f}" text-anchor="end">'
            f"{esc(fmt_score(value))}</text>"
        )
    return "".join(lines)


def _version_marks(runs: Sequence[RunRecord], x: Any, lang: str) -> list[str]:
    marks = []
    previous = None
    for position, record in enumerate(runs):
        version = _version(record)
        if previous is not None and version != previous:
            left = (x(position - 1) + x(position)) / 2
            marks.append(
                f'<line class="skh-cut" x1="{left:.1f}" x2="{left:.1f}" y1="{PAD_TOP}" '
                f'y2="{CHART_HEIGHT - PAD_BOTTOM}"><title>'
                f"{esc(t('history.version_label', lang, version=version))}</title></line>"
            )
        previous = version
    return marks


def _series_lines(
    runs: Sequence[RunRecord], series: str, css: str, colours: dict[str, str], x: Any, y: Any
) -> list[str]:
    """One polyline per stretch of runs of one version with a value (a gap breaks it)."""
    lines = []
    stretch: list[str] = []
    version = None

    def close() -> None:
        if len(stretch) > 1:
            colour = colours.get(version or "?", PALETTE[0])
            lines.append(
                f'<polyline class="{css}" data-series="{series}" '
                f'data-version="{esc(version or "?")}" stroke="{colour}" '
                f'points="{" ".join(stretch)}"/>'
            )

    for position, record in enumerate(runs):
        value = getattr(record, series)
        current = _version(record)
        if value is None or current != version:
            close()
            stretch = []
            version = current
        if value is not None:
            stretch.append(f"{x(position):.1f},{y(value):.1f}")
    close()
    return lines


def _series_marks(
    runs: Sequence[RunRecord],
    series: str,
    mark: str,
    colours: dict[str, str],
    x: Any,
    y: Any,
    lang: str,
) -> list[str]:
    marks = []
    for position, record in enumerate(runs):
        value = getattr(record, series)
        if value is None or not math.isfinite(value):
            continue
        colour = colours[_version(record)]
        cx, cy = x(position), y(value)
        tip = esc(
            t(
                "history.point_tip",
                lang,
                run=record.id,
                version=_version(record),
                started=_started(record),
                mean=fmt_mean(record.mean),
                rate=fmt_share(record.pass_rate),
            )
        )
        data = f'data-series="{series}" data-run="{esc(record.id)}" data-value="{value:.6g}"'
        if mark == "circle":
            shape = f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{colour}" {data}>'
            marks.append(f"{shape}<title>{tip}</title></circle>")
        else:
            shape = (
                f'<rect x="{cx - 3:.1f}" y="{cy - 3:.1f}" width="6" height="6" '
                f'fill="{colour}" {data}>'
            )
            marks.append(f"{shape}<title>{tip}</title></rect>")
    return marks


def _time_labels(runs: Sequence[RunRecord], x: Any) -> str:
    if not runs:
        return ""
    base = CHART_HEIGHT - PAD_BOTTOM + 16
    when = f"{runs[0].started:%Y-%m-%d %H:%M}"
    first = f'<text x="{x(0):.1f}" y="{base}" text-anchor="start">{esc(when)}</text>'
    if len(runs) == 1:
        return first
    last = runs[-1]
    return first + (
        f'<text x="{x(len(runs) - 1):.1f}" y="{base}" text-anchor="end">'
        f"{esc(f'{last.started:%Y-%m-%d %H:%M}')}</text>"
    )


# --- the diff ----------------------------------------------------------------------


def _run_line(record: RunRecord, lang: str) -> str:
    return t(
        "history.run_line",
        lang,
        run=record.id,
        metric=record.metric,
        version=_version(record),
        kind=record.kind,
        origin=record.origin,
        started=_started(record),
    )


def diff_title(diff: RunDiff) -> str:
    lang = diff.lang
    if diff.regressions:
        return t("history.diff_regressed", lang, count=len(diff.regressions))
    if diff.empty:
        return t("history.diff_same", lang)
    return t("history.diff_no_regression", lang)


def counts_line(diff: RunDiff) -> str:
    return t(
        "history.counts",
        diff.lang,
        regressions=len(diff.regressions),
        improvements=len(diff.improvements),
        unchanged=len(diff.unchanged),
        added=len(diff.added),
        removed=len(diff.removed),
    )


def deltas_line(diff: RunDiff) -> str:
    lang = diff.lang
    deltas = diff.deltas
    cost = (
        "—"
        if deltas.cost_usd is None
        else ("+" if deltas.cost_usd >= 0 else "-") + fmt_usd(abs(deltas.cost_usd), lang)
    )
    return t(
        "history.deltas",
        lang,
        rate=_points(deltas.pass_rate),
        mean=fmt_mean_delta(deltas.mean),
        cost=cost,
        time=f"{deltas.elapsed_s:+.2f} s" if deltas.elapsed_s is not None else "—",
    )


def _points(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:+.0f} pts"


def _value(value: Any) -> str:
    return cut(show_value(value, quote=True), VALUE_CHARS)


def _value_line(value: Any) -> str:
    """A value on one line of the text: its line breaks shown escaped (``one_line``)."""
    return cut(one_line(show_value(value, quote=True)), VALUE_CHARS)


def _verdict(passed: bool | None, lang: str) -> str:
    if passed is None:
        return "—"
    return t("history.passed" if passed else "history.failed", lang)


def change_line(change: CaseChange, lang: str) -> str:
    """One line per case: its verdicts when they differ (or one is missing), its scores."""
    scores = {
        "score_a": fmt_score(change.score_a),
        "score_b": fmt_score(change.score_b),
        "delta": fmt_delta(change.delta),
    }
    if change.passed_a == change.passed_b:
        return t("history.case_score_line", lang, case=change.index, id=change.id, **scores)
    return t(
        "history.case_line",
        lang,
        case=change.index,
        id=change.id,
        before=_verdict(change.passed_a, lang),
        after=_verdict(change.passed_b, lang),
        **scores,
    )


_GROUPS = (
    ("regressions", "history.group_regressions", "skh-reg", "✗"),
    ("improvements", "history.group_improvements", "skh-imp", "✓"),
    ("changed_feedback", "history.group_feedback", "", "~"),
    ("added", "history.group_added", "", "+"),
    ("removed", "history.group_removed", "", "-"),
)


def diff_text(diff: RunDiff) -> str:
    """The diff as text.  Every user text (an input, a feedback, a metric's name) is shown
    on its line with its line breaks escaped (``one_line``: ``\\n``, ``\\u2028``...): a
    metric's feedback can never write a line that looks like one of the diff's own."""
    lang = diff.lang
    lines = [
        diff_title(diff),
        "  a: " + one_line(_run_line(diff.a, lang)),
        "  b: " + one_line(_run_line(diff.b, lang)),
    ]
    if diff.note:
        lines.append(diff.note)
    lines += [counts_line(diff), deltas_line(diff)]
    for attribute, title, _css, mark in _GROUPS:
        changes: list[CaseChange] = getattr(diff, attribute)
        if not changes:
            continue
        lines.append(f"{t(title, lang, count=len(changes))}:")
        for change in changes[:SHOWN_CASES]:
            lines.append(f"  {mark} {one_line(change_line(change, lang))}")
            lines.append(f"      {t('history.input', lang)}: {_value_line(change.input)}")
            feedback = _feedback_line(change)
            if feedback:
                lines.append(f"      {t('history.feedback', lang)}: {feedback}")
        if len(changes) > SHOWN_CASES:
            lines.append("  " + t("history.more_cases", lang, count=len(changes) - SHOWN_CASES))
    source = diff.source_diff
    if source:
        lines.append(
            t("history.source_changed", lang, a=_version(diff.a), b=_version(diff.b)) + ":"
        )
        lines += [f"  {line}" for line in _source_lines(source)]
    return "\n".join(lines)


def _source_lines(source: str) -> list[str]:
    """A source diff's lines, each shown on one line: its header names the metric, and a
    source may hold a lone ``\\r`` or a form feed (a line break to some readers)."""
    text = source.replace("\r\n", "\n").rstrip("\n")
    return [one_line(line) for line in text.split("\n")]


def _feedback_line(change: CaseChange) -> str:
    """A case's feedback (its word diff when it changed) on one line ("" when none, or
    blank: a feedback of spaces or line breaks alone has no word to show, changed or not)."""
    if change.feedback_changed:
        shown = pieces_text(change.feedback_diff)
    else:
        shown = (change.feedback_b if change.feedback_b is not None else change.feedback_a) or ""
    return one_line(shown) if shown.strip() else ""


def _feedback_html(change: CaseChange) -> str:
    if not change.feedback_changed:
        shown = change.feedback_b if change.feedback_b is not None else change.feedback_a
        return f'<div class="sko-text">{esc(shown or "")}</div>'
    tags = {"-": "del", "+": "ins"}
    parts = [
        esc(text) if op == "=" else f"<{tags[op]}>{esc(text)}</{tags[op]}>"
        for op, text in change.feedback_diff
    ]
    return f'<div class="sko-text sko-diff">{"".join(parts)}</div>'


def _case_rows(changes: list[CaseChange], css: str, lang: str) -> str:
    rows = []
    tone = {"skh-reg": "skh-row-reg", "skh-imp": "skh-row-imp"}.get(css, "")
    for change in changes[:SHOWN_CASES]:
        rows.append(
            f'<tr class="{tone}" data-case="{esc(change.id)}" data-kind="{esc(change.kind)}">'
            f"<td>{esc(change.index)}</td>"
            f"<td>{esc(_value(change.input))}</td>"
            f"<td>{esc(_verdict(change.passed_a, lang))} → "
            f"{esc(_verdict(change.passed_b, lang))}</td>"
            f'<td class="sko-num">{esc(fmt_score(change.score_a))} → '
            f"{esc(fmt_score(change.score_b))}"
            f" ({esc(fmt_delta(change.delta))})</td>"
            f"<td>{_feedback_html(change)}</td></tr>"
        )
    head = "".join(
        f"<th>{esc(t(key, lang))}</th>"
        for key in (
            "history.col_case",
            "history.input",
            "history.col_verdict",
            "history.col_score",
            "history.feedback",
        )
    )
    more = ""
    if len(changes) > SHOWN_CASES:
        more = _note(t("history.more_cases", lang, count=len(changes) - SHOWN_CASES))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{more}"


def _source_html(source: str) -> str:
    lines = []
    for line in source.rstrip("\n").splitlines():
        css = ""
        if line.startswith("+") and not line.startswith("+++"):
            css = "skh-add"
        elif line.startswith("-") and not line.startswith("---"):
            css = "skh-del"
        lines.append(f'<span class="{css}">{esc(line)}</span>' if css else esc(line))
    return f'<div class="skh-src">{chr(10).join(lines)}</div>'


def diff_html(diff: RunDiff) -> str:
    lang = diff.lang
    tone = "skh-reg" if diff.regressions else "sko-up"
    parts = [
        f'<div class="sko-title {tone}">{esc(diff_title(diff))}</div>',
        f'<div class="sko-sub">a: {esc(_run_line(diff.a, lang))}<br>'
        f"b: {esc(_run_line(diff.b, lang))}</div>",
    ]
    if diff.note:
        parts.append(f'<div class="sko-note">{esc(diff.note)}</div>')
    parts.append(f"<div>{esc(counts_line(diff))}</div><div>{esc(deltas_line(diff))}</div>")
    for attribute, title, css, _mark in _GROUPS:
        changes: list[CaseChange] = getattr(diff, attribute)
        if not changes:
            continue
        parts.append(
            f'<div class="sko-h {css}" data-group="{attribute}">'
            f"{esc(t(title, lang, count=len(changes)))}</div>"
        )
        parts.append(_case_rows(changes, css, lang))
    source = diff.source_diff
    if source:
        title = t("history.source_changed", lang, a=_version(diff.a), b=_version(diff.b))
        parts.append(f'<div class="sko-h">{esc(title)}</div>{_source_html(source)}')
    return _page("".join(parts))
