"""A race of metrics as plain text and as HTML: the static report and the live view's parts.

The standings (held-out referee score as mean and range per metric, calls,
proposals made and kept, cost split, why each run stopped), the verdict (the
winner and its margin, or a tie and why), each metric's best artifact as a word
diff against the seed, and the progress chart: each run's best validation score
by its own metric against the calls spent, one colour per metric.  Every piece
of user text goes through ``esc``; the numbers and the stylesheet are ``show``'s.
"""

from __future__ import annotations

from ..core.shows_itself import show_with
from ..i18n import t
from ..show.formats import fmt_mean, fmt_usd
from ..show.render import esc
from ..show.render import head_html as drawn_head
from ..show.style import STYLE
from ..show.terminal_text import visible_controls
from .race_report import RaceEntry, RaceReport, Verdict
from .render import diff_html, diff_text
from .report import Costs

__all__ = ["chart_svg", "race_body_html", "race_head_html", "race_html", "race_text"]

# Colour-blind-safe (Okabe–Ito), one per metric in race order.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442")
CHART_WIDTH, CHART_HEIGHT, PAD = 420, 150, 28


# --- sentences -----------------------------------------------------------------------------


def _range(entry: RaceEntry) -> str:
    if entry.mean is None:
        return "—"
    if len(entry.scores) < 2:
        return fmt_mean(entry.mean)
    return f"{fmt_mean(entry.mean)} [{fmt_mean(entry.low)}–{fmt_mean(entry.high)}]"


def headline(report: RaceReport) -> tuple[str, str]:
    """(the verdict in one sentence, its tone: run, up or flat)."""
    lang = report.lang
    if not report.finished:
        return t("race.running", lang, metrics=len(report.entries), referee=report.referee), "run"
    verdict = report.verdict()
    if verdict.leader is None:
        return t("race.no_result", lang), "flat"
    if verdict.why == "alone":
        return t("race.only_one", lang, name=_name(verdict.leader)), "flat"
    if verdict.why == "failed":
        return t("race.all_failed", lang, cases=len(report.held_out_cases)), "flat"
    if verdict.winner is not None:
        return _won(report, verdict), "up"
    return _tied(report, verdict), "flat"


# Every line break a terminal or a log could split on, shown as an escape in a name.
_BREAKS = str.maketrans(
    {"\n": "\\n", "\r": "\\r", "\x85": "\\x85", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def _name(name: str) -> str:
    """A metric's name on one line, control characters shown, never sent."""
    return visible_controls(name.translate(_BREAKS))


def _entry(report: RaceReport, name: str | None) -> RaceEntry:
    return next(entry for entry in report.entries if entry.name == name)


def _won(report: RaceReport, verdict: Verdict) -> str:
    winner, second = _entry(report, verdict.winner), _entry(report, verdict.runner_up)
    return t(
        "race.winner",
        report.lang,
        name=winner.name,
        score=fmt_mean(winner.mean),
        other=second.name,
        other_score=fmt_mean(second.mean),
        margin=fmt_mean(verdict.margin),
        cases=len(report.held_out_cases),
    )


def _tied(report: RaceReport, verdict: Verdict) -> str:
    leader, second = _entry(report, verdict.leader), _entry(report, verdict.runner_up)
    lang = report.lang
    fields = {
        "name": leader.name,
        "score": fmt_mean(leader.mean),
        "other": second.name,
        "other_score": fmt_mean(second.mean),
        "cases": len(report.held_out_cases),
    }
    if verdict.why == "ranges":
        return t("race.tie_ranges", lang, **fields)
    if verdict.why == "too_few" and verdict.needed is not None:
        margin = fmt_mean(verdict.margin)
        return t("race.tie_too_few", lang, margin=margin, needed=verdict.needed, **fields)
    if verdict.why == "too_few":
        return t("race.tie_noise", lang, **fields)
    return t("race.tie_equal", lang, **fields)


def facts_line(report: RaceReport) -> str:
    """The referee, the held-out cases, the seed's score there, the budget's meaning."""
    lang = report.lang
    line = t(
        "race.facts",
        lang,
        referee=report.referee,
        held=len(report.held_out_cases),
        train=report.train_size,
        val=report.val_size,
        seed=fmt_mean(report.seed_score),
        budget=report.budget,
        repeats=report.repeats,
        total=report.total_budget,
    )
    if report.max_cost is not None:
        share = fmt_usd(report.run_max_cost, lang)
        line += " " + t("race.max_cost", lang, usd=fmt_usd(report.max_cost, lang), share=share)
    return line


def cost_text(costs: Costs, lang: str) -> str:
    return t(
        "race.cost",
        lang,
        total=fmt_usd(costs.total, lang),
        task=fmt_usd(costs.task, lang),
        judge=fmt_usd(costs.judge, lang),
        reflection=fmt_usd(costs.reflection, lang),
    )


def failures_text(report: RaceReport) -> list[str]:
    """What failed and was scored 0, never hidden: held-out scorings, GEPA's evaluations."""
    lang = report.lang
    lines = []
    if report.held_failures:
        lines.append(
            t("race.held_failures", lang, count=report.held_failures, total=report.held_scorings)
        )
    for entry in report.entries:
        failed = sum(run.optimization.failed_cases for run in entry.runs)
        if failed:
            lines.append(t("race.gepa_failures", lang, name=_name(entry.name), count=failed))
    return lines


def stopped_text(report: RaceReport) -> str | None:
    said = _RACE_STOPPED.get(report.stopped or "")
    return None if said is None else t(said, report.lang)


_RACE_STOPPED = {"interrupted": "race.stopped_interrupted", "max_cost": "race.stopped_max_cost"}


def _stops(entry: RaceEntry, lang: str) -> str:
    reasons: dict[str, int] = {}
    for reason in entry.stopped:
        reasons[reason] = reasons.get(reason, 0) + 1
    return ", ".join(
        t(_STOPS.get(reason, "race.stop_other"), lang) + (f" ×{count}" if count > 1 else "")
        for reason, count in reasons.items()
    )


_STOPS = {
    "budget": "race.stop_budget",
    "max_cost": "race.stop_max_cost",
    "interrupted": "race.stop_interrupted",
    "reflection_error": "race.stop_reflection_error",
}


def _row(entry: RaceEntry, lang: str) -> list[str]:
    return [
        _name(entry.name),  # a terminal escape or a line break in a name is shown, never sent
        _range(entry),
        str(entry.calls),
        f"{entry.proposals} ({entry.kept})",
        fmt_usd(entry.cost_usd.total, lang),
        _stops(entry, lang),
    ]


_COLUMNS = (
    "race.col_metric",
    "race.col_held_out",
    "race.col_calls",
    "race.col_proposals",
    "race.col_cost",
    "race.col_stopped",
)


def _columns(lang: str) -> list[str]:
    return [t(column, lang) for column in _COLUMNS]


# --- text ------------------------------------------------------------------------------------


def race_text(report: RaceReport) -> str:
    lang = report.lang
    said, _ = headline(report)
    lines = [said, "  " + facts_line(report)]
    stopped = stopped_text(report)
    if stopped:
        lines.append("  " + stopped)
    lines += ["  ! " + line for line in failures_text(report)]
    rows = [_columns(lang)] + [_row(entry, lang) for entry in report.standings]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        lines.append("  " + "  ".join(cells).rstrip())
    lines.append("  " + cost_text(report.cost_usd, lang))
    for entry in report.standings:
        best = entry.best_run
        if best is None:
            continue
        lines.append(t("race.best_of", lang, name=entry.name, seed=best.seed))
        diff = diff_text(report.seed_artifact, entry.best_artifact)
        lines.append("  " + diff.replace("\n", "\n  "))
    return "\n".join(lines)


# --- HTML ------------------------------------------------------------------------------------


def race_head_html(report: RaceReport) -> str:
    said, tone = headline(report)
    lines = [("sub", facts_line(report))]
    stopped = stopped_text(report)
    if stopped:
        lines.append(("note", stopped))
    lines += [("advice", line) for line in failures_text(report)]
    return drawn_head("sko", said, f"sko-{tone}", lines, box="sko sko-head skr-head")


def standings_html(report: RaceReport) -> str:
    lang = report.lang
    if not report.entries:
        return ""
    head = "".join(f"<th>{esc(title)}</th>" for title in _columns(lang))
    verdict = report.verdict()
    rows = []
    for entry in report.standings:
        cells = _row(entry, lang)
        colour = PALETTE[report.entries.index(entry) % len(PALETTE)]
        swatch = f'<span class="skr-swatch" style="background:{colour}"></span>'
        won = ' class="sko-best"' if entry.name == verdict.winner else ""
        mean = "" if entry.mean is None else entry.mean
        rows.append(
            f'<tr{won} data-metric="{esc(cells[0])}" data-mean="{mean}">'
            f"<td>{swatch}{esc(cells[0])}</td>"
            + "".join(f'<td class="sko-num">{esc(cell)}</td>' for cell in cells[1:5])
            + f"<td>{esc(cells[5])}</td></tr>"
        )
    cost = f'<div class="sko-note">{esc(cost_text(report.cost_usd, lang))}</div>'
    return f'<table class="skr-standings"><tr>{head}</tr>{"".join(rows)}</table>{cost}'


def chart_svg(report: RaceReport) -> str:
    """Each run's best validation score (by its own metric) against the calls spent."""
    # Each line runs to the calls its run has spent, not to its last improvement: a run
    # that never beat the seed (feedback that teaches nothing) is a flat line, not a dot.
    curves = [
        (report.entries.index(entry), run.curve, run.optimization.calls)
        for entry in report.entries
        for run in entry.runs
        if run.curve
    ]
    if not curves:
        return ""
    lang = report.lang
    most = max(
        report.budget,
        *(max(spent, curve[-1][0]) for _, curve, spent in curves),
        1,
    )
    width, height = CHART_WIDTH - 2 * PAD, CHART_HEIGHT - 2 * PAD

    def point(calls: int, score: float) -> str:
        x = PAD + width * calls / most
        y = PAD + height * (1 - max(0.0, min(1.0, score)))
        return f"{x:.1f},{y:.1f}"

    lines = []
    for place, curve, spent in curves:
        steps = []
        for i, (calls, score) in enumerate(curve):
            if i:  # a step: the best so far holds until the next better candidate
                steps.append(point(calls, curve[i - 1][1]))
            steps.append(point(calls, score))
        steps.append(point(max(curve[-1][0], spent), curve[-1][1]))
        colour = PALETTE[place % len(PALETTE)]
        name = esc(_name(report.entries[place].name))
        lines.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(steps)}">'
            f"<title>{name}</title></polyline>"
        )
    axis = (
        f'<line x1="{PAD}" y1="{PAD + height}" x2="{PAD + width}" y2="{PAD + height}" '
        'stroke="currentColor" stroke-opacity=".35"/>'
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{PAD + height}" '
        'stroke="currentColor" stroke-opacity=".35"/>'
        f'<text x="{PAD}" y="{PAD - 8}" font-size="11" fill="currentColor">'
        f"{esc(t('race.chart_score', lang))}</text>"
        f'<text x="{PAD + width}" y="{CHART_HEIGHT - 6}" font-size="11" text-anchor="end" '
        f'fill="currentColor">{esc(t("race.chart_calls", lang, most=most))}</text>'
        f'<text x="{PAD - 4}" y="{PAD + 4}" font-size="10" text-anchor="end" '
        'fill="currentColor">1</text>'
        f'<text x="{PAD - 4}" y="{PAD + height}" font-size="10" text-anchor="end" '
        'fill="currentColor">0</text>'
    )
    label = esc(t("race.chart_label", lang))
    return (
        f'<svg class="skr-chart" role="img" aria-label="{label}" width="{CHART_WIDTH}" '
        f'height="{CHART_HEIGHT}" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}">'
        f"{axis}{''.join(lines)}</svg>"
    )


def best_html(report: RaceReport) -> str:
    parts = []
    for entry in report.standings:
        best = entry.best_run
        if best is None:
            continue
        said = t("race.best_of", report.lang, name=entry.name, seed=best.seed)
        parts.append(
            f'<div class="sko-h">{esc(said)}</div>'
            + diff_html(report.seed_artifact, entry.best_artifact)
        )
    return "".join(parts)


_RACE_STYLE = (
    "<style>.sko .skr-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;"
    "margin-right:6px;vertical-align:baseline}.sko .skr-chart{display:block;max-width:100%;"
    "height:auto;margin:6px 0}.sko .skr-standings td{overflow-wrap:anywhere}</style>"
)


def race_body_html(report: RaceReport, *, styled: bool = True) -> str:
    """Everything under the head: the standings, the chart, each best artifact."""
    inner = standings_html(report) + chart_svg(report) + best_html(report)
    if not inner:
        return ""
    style = STYLE if styled else ""
    return f'{style}{_RACE_STYLE}<div class="sko sko-body skr-body">{inner}</div>'


def race_html(report: RaceReport) -> str:
    body = race_body_html(report, styled=False)  # the head carries the stylesheet, once
    return f'<div class="skynet-race">{race_head_html(report)}{body}</div>'


# The report shows itself through these (core/shows_itself.py): it never imports this module.
show_with(RaceReport, text=race_text, html=race_html)
