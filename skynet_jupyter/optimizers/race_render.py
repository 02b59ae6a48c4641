"""A race of metrics as plain text and as HTML: the static report and the live view's parts.

The standings (held-out referee score as mean and range per metric, calls,
proposals made and kept, cost split, why each run stopped), the verdict (the
winner and its margin, or a tie and why), each metric's best artifact as a word
diff against the seed, and the progress chart: each run's best validation score
by its own metric against the calls spent, one colour per metric.  Every piece
of user text goes through ``esc``; the numbers and the stylesheet are ``show``'s.
"""

from __future__ import annotations

from ..core.inert_text import one_line
from ..core.report import MODEL_KEY, NO_MODEL, PROVIDER_REFUSED
from ..core.shows_itself import show_with
from ..i18n import t
from ..show.formats import fmt_mean, fmt_usd
from ..show.render import esc
from ..show.render import head_html as drawn_head
from ..show.style import STYLE
from .race_report import RaceEntry, RaceReport, RaceRun, Verdict
from .render import diff_html, diff_text
from .report import Costs
from .tool_rules import STOPPED_BY_ERROR, past_max_cost

__all__ = [
    "chart_svg",
    "race_body_html",
    "race_calls_said",
    "race_head_html",
    "race_html",
    "race_text",
    "verdict_text",
]

# Colour-blind-safe (Okabe–Ito), one per metric in race order.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442")
# One dash pattern per GEPA seed (the first solid), so a metric's runs are told apart
# where their colours are the same; the legend under the chart names both.
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2", "1 2", "12 4")
CHART_WIDTH, CHART_HEIGHT, PAD = 460, 160, 34
LEGEND_ROW = 18  # the height of one row of the legend under the plot
LEGEND_CHAR = 6.5  # about the width of a character of the legend's 11 px text
Y_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
RUN_OFFSET = 1.6  # px between the lines of two runs at the same score, so both show


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
    if report.stop is not None:  # a key problem: its sentence, and no verdict
        return report.stop.sentence, "flat"
    if not report.finished:
        return t("race.running", lang, metrics=len(report.entries), referee=report.referee), "run"
    return verdict_said(report, report.verdict())


def verdict_said(report: RaceReport, verdict: Verdict) -> tuple[str, str]:
    """(``verdict`` of ``report`` in one sentence, its tone: up or flat)."""
    lang = report.lang
    if verdict.why == "stopped" and report.stop is not None:
        return report.stop.sentence, "flat"
    if verdict.leader is None:
        if report.stopped == "referee_cost":
            return t("race.no_runs_referee_cost", lang), "flat"
        return t("race.no_result", lang), "flat"
    if verdict.why == "alone":
        return t("race.only_one", lang, name=_name(verdict.leader)), "flat"
    if verdict.why == "failed":
        return t("race.all_failed", lang, cases=len(report.held_out_cases)), "flat"
    if verdict.winner is not None:
        return _won(report, verdict), "up"
    return _tied(report, verdict), "flat"


def _name(name: str) -> str:
    """A metric's name on one line, its line breaks and control characters shown as repr
    shows them (``\\n``, ``\\x1b``), as every report's text shows them, never sent."""
    return one_line(name)


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
    if verdict.why == "equal" and _kept_the_seed(report, leader) and _kept_the_seed(report, second):
        return t("race.tie_seed", lang, **fields)  # why it is a tie: nothing beat the seed
    if verdict.why == "ranges":
        return t("race.tie_ranges", lang, **fields)
    if verdict.why == "too_few" and verdict.needed is not None:
        margin = fmt_mean(verdict.margin)
        return t("race.tie_too_few", lang, margin=margin, needed=verdict.needed, **fields)
    if verdict.why == "too_few":
        return t("race.tie_noise", lang, **fields)
    return t("race.tie_equal", lang, **fields)


def verdict_text(verdict: Verdict) -> str:
    """What ``print(report.verdict())`` shows: the sentence the report's head says."""
    if verdict.report is None:  # a verdict made by hand: its fields
        return repr(verdict)
    return verdict_said(verdict.report, verdict)[0]


def verdict_html(verdict: Verdict) -> str:
    if verdict.report is None:
        return f"<code>{esc(repr(verdict))}</code>"
    said, tone = verdict_said(verdict.report, verdict)
    return drawn_head("sko", said, f"sko-{tone}", box="sko sko-head skr-head")


def _kept_the_seed(report: RaceReport, entry: RaceEntry) -> bool:
    """Every finished run of ``entry`` ended with the seed artifact as its best."""
    runs = entry.finished_runs
    return bool(runs) and all(
        run.optimization.best_artifact == report.seed_artifact for run in runs
    )


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
        fields = {
            "usd": fmt_usd(report.max_cost, lang),
            "share": fmt_usd(report.run_max_cost, lang),
        }
        if report.referee_kept_usd > 0:
            kept = fmt_usd(report.referee_kept_usd, lang)
            line += " " + t("race.max_cost_referee", lang, kept=kept, **fields)
        else:
            line += " " + t("race.max_cost", lang, **fields)
    return line


def race_calls_said(report: RaceReport, *, why: bool = True) -> str:
    """The metric calls of every run against the race's budget; past it, by how many,
    and with ``why`` (the report's line; the progress bar's label is short) why: GEPA
    checks each run's budget between iterations."""
    calls, budget = sum(entry.calls for entry in report.entries), report.total_budget
    if calls > budget:
        fields = {"calls": calls, "budget": budget, "past": calls - budget}
        if not why:
            return t("race.calls_past_short", report.lang, **fields)
        return t("race.calls_past", report.lang, per_run=report.budget, **fields)
    return t("race.calls", report.lang, calls=calls, budget=budget)


def calls_past_text(report: RaceReport) -> str | None:
    """The calls past the race's budget, said as such in the report (None: within it)."""
    said = race_calls_said(report)
    calls = sum(entry.calls for entry in report.entries)
    return said if calls > report.total_budget else None


def money_past_text(report: RaceReport) -> str | None:
    """By how much the race went past max_cost, and why, when it did: runs that passed
    their share (GEPA checks it between iterations), a referee that cost more than kept."""
    lang = report.lang
    share = report.run_max_cost
    reasons = []
    runs = [run for entry in report.entries for run in entry.runs]
    if share is not None and any(run.optimization.cost_usd.total > share for run in runs):
        reasons.append(t("race.past_why_runs", lang, share=fmt_usd(share, lang)))
    referee = report.referee_cost_usd.total
    if report.max_cost is not None and referee > report.referee_kept_usd * (1 + 1e-9):
        fields = {
            "spent": fmt_usd(referee, lang),
            "past": fmt_usd(referee - report.referee_kept_usd, lang),
            "kept": fmt_usd(report.referee_kept_usd, lang),
        }
        reasons.append(t("race.past_why_referee", lang, **fields))
    return past_max_cost(report.cost_usd.total, report.max_cost, lang, " ".join(reasons))


def why_lines(report: RaceReport) -> list[str]:
    """Why a metric's best artifact is the seed: its kept proposals never beat the seed on
    GEPA's validation cases, or GEPA kept none (a tie then says why, item 7 of #44)."""
    lines = []
    for entry in report.standings:
        finished = entry.finished_runs
        seedlike = [
            run for run in finished if run.optimization.best_artifact == report.seed_artifact
        ]
        kept_runs = [run for run in seedlike if _kept(run)]
        if kept_runs:
            kept = sum(_kept(run) for run in kept_runs)
            fields = {"runs": len(kept_runs), "total": len(finished), "val": report.val_size}
            lines.append(
                t("race.kept_not_better", report.lang, name=entry.name, kept=kept, **fields)
            )
        elif finished and len(seedlike) == len(finished) and entry.proposals:
            said = t("race.none_kept", report.lang, name=entry.name, proposals=entry.proposals)
            lines.append(said)
    return lines


def _kept(run: RaceRun) -> int:
    return max(0, len(run.optimization.candidates) - 1)


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
    if said is None:
        return None
    lang = report.lang
    per_scoring = fmt_usd(report.referee_kept_usd, lang)
    return t(said, lang, kept=per_scoring, usd=fmt_usd(report.max_cost, lang))


def notes_text(report: RaceReport) -> list[str]:
    """The head's notes under the facts: why it stopped, past budget or money, why the
    best artifacts are the seed."""
    notes = [stopped_text(report), calls_past_text(report), money_past_text(report)]
    return [note for note in notes if note] + why_lines(report)


_RACE_STOPPED = {
    "interrupted": "race.stopped_interrupted",
    "max_cost": "race.stopped_max_cost",
    "referee_cost": "race.stopped_referee_cost",
    STOPPED_BY_ERROR: "race.stopped_error",
}


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
    MODEL_KEY: "race.stop_model_key",
    NO_MODEL: "race.stop_no_model",
    PROVIDER_REFUSED: "race.stop_provider_refused",
    STOPPED_BY_ERROR: "race.stop_error",
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
    lines += ["  " + note for note in notes_text(report)]
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
        lines.append(best_of(report, entry, best))
        diff = diff_text(report.seed_artifact, entry.best_artifact)
        lines.append("  " + diff.replace("\n", "\n  "))
    return "\n".join(lines)


def best_of(report: RaceReport, entry: RaceEntry, best: RaceRun) -> str:
    """The head of a metric's best artifact; it says so when that is the seed unchanged."""
    if entry.best_artifact == report.seed_artifact:
        return t("race.best_is_seed", report.lang, name=entry.name, seed=best.seed)
    return t("race.best_of", report.lang, name=entry.name, seed=best.seed)


# --- HTML ------------------------------------------------------------------------------------


def race_head_html(report: RaceReport) -> str:
    said, tone = headline(report)
    lines = [("sub", facts_line(report))]
    lines += [("note", note) for note in notes_text(report)]
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
    """Each run's best validation score (by its own metric) against the calls spent: a
    colour per metric, a dash pattern per GEPA seed, ticks on both axes, and a legend
    under the plot naming both (item 10 of #44)."""
    # Each line runs to the calls its run has spent, not to its last improvement: a run
    # that never beat the seed (feedback that teaches nothing) is a flat line, not a dot.
    runs = [
        (report.entries.index(entry), run)
        for entry in report.entries
        for run in entry.runs
        if run.curve
    ]
    if not runs:
        return ""
    most = max(report.budget, *(max(run.optimization.calls, run.curve[-1][0]) for _, run in runs))
    seeds = sorted({run.seed for _, run in runs})
    plot = _Plot(most, len(seeds))
    lines = [_run_line(report, place, run, seeds.index(run.seed), plot) for place, run in runs]
    metrics = sorted({place for place, _ in runs})
    legend, legend_height = _legend(report, metrics, seeds)
    height = CHART_HEIGHT + legend_height
    label = esc(t("race.chart_label", report.lang))
    return (
        f'<svg class="skr-chart" role="img" aria-label="{label}" width="{CHART_WIDTH}" '
        f'height="{height}" viewBox="0 0 {CHART_WIDTH} {height}">'
        f"{_axes(report, plot)}{''.join(lines)}{legend}</svg>"
    )


class _Plot:
    """Where a (calls, score) point is drawn, and how far apart the seeds' lines sit."""

    def __init__(self, most: int, seeds: int) -> None:
        self.most, self.seeds = max(1, most), seeds
        self.width, self.height = CHART_WIDTH - 2 * PAD, CHART_HEIGHT - 2 * PAD

    def x(self, calls: float) -> float:
        return PAD + self.width * calls / self.most

    def y(self, score: float, seed_place: float = 0) -> float:
        # Runs at the same score drawn a pixel or two apart (centred on the value), so
        # one line never hides another; the tooltip gives the exact score.
        offset = (seed_place - (self.seeds - 1) / 2) * RUN_OFFSET
        return PAD + self.height * (1 - max(0.0, min(1.0, score))) + offset


def _run_line(report: RaceReport, place: int, run: RaceRun, seed_place: int, plot: _Plot) -> str:
    """One run's line: its metric's colour, its seed's dash pattern, a tooltip."""
    curve = run.curve
    points = []
    for i, (calls, score) in enumerate(curve):
        if i:  # a step: the best so far holds until the next better candidate
            points.append(f"{plot.x(calls):.1f},{plot.y(curve[i - 1][1], seed_place):.1f}")
        points.append(f"{plot.x(calls):.1f},{plot.y(score, seed_place):.1f}")
    end = max(curve[-1][0], run.optimization.calls)
    points.append(f"{plot.x(end):.1f},{plot.y(curve[-1][1], seed_place):.1f}")
    name = report.entries[place].name
    colour = PALETTE[place % len(PALETTE)]
    dash = DASHES[seed_place % len(DASHES)]
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    tip = t(
        "race.chart_run",
        report.lang,
        name=_name(name),
        seed=run.seed,
        score=fmt_mean(curve[-1][1]),
        calls=end,
    )
    return (
        f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dashed} '
        f'data-metric="{esc(_name(name))}" data-seed="{run.seed}" points="{" ".join(points)}">'
        f"<title>{esc(tip)}</title></polyline>"
    )


def _axes(report: RaceReport, plot: _Plot) -> str:
    """Both axes, their ticks and titles, and faint grid lines at the score ticks."""
    lang = report.lang
    left, right, bottom = PAD, PAD + plot.width, PAD + plot.height
    parts = [
        f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" '
        'stroke="currentColor" stroke-opacity=".35"/>',
        f'<line x1="{left}" y1="{PAD}" x2="{left}" y2="{bottom}" '
        'stroke="currentColor" stroke-opacity=".35"/>',
        f'<text x="{left}" y="{PAD - 10}" font-size="11" fill="currentColor">'
        f"{esc(t('race.chart_score', lang))}</text>",
        f'<text x="{right}" y="{CHART_HEIGHT - 4}" font-size="11" text-anchor="end" '
        f'fill="currentColor">{esc(t("race.chart_calls", lang, most=plot.most))}</text>',
    ]
    for score in Y_TICKS:
        y = plot.y(score, (plot.seeds - 1) / 2)  # the tick at the value itself
        parts.append(
            f'<line class="skr-grid" x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" '
            'stroke="currentColor" stroke-opacity=".12"/>'
            f'<text class="skr-tick" x="{left - 4}" y="{y + 3.5:.1f}" font-size="10" '
            f'text-anchor="end" fill="currentColor">{score:g}</text>'
        )
    for calls in _call_ticks(plot.most):
        x = plot.x(calls)
        parts.append(
            f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" '
            'stroke="currentColor" stroke-opacity=".35"/>'
            f'<text class="skr-tick" x="{x:.1f}" y="{bottom + 14}" font-size="10" '
            f'text-anchor="middle" fill="currentColor">{calls}</text>'
        )
    return "".join(parts)


def _call_ticks(most: int) -> list[int]:
    """Round numbers of calls under ``most``: 0 and four or five steps."""
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        step = candidate
        if most / candidate <= 5:
            break
    else:
        step = max(1, most // 5)
    return list(range(0, most + 1, step))


def _legend(report: RaceReport, metrics: list[int], seeds: list[int]) -> tuple[str, int]:
    """The legend under the plot, and its height: the metrics (their colours), then the
    GEPA seeds (their dash patterns), each group starting a row, wrapped to the width."""
    lang = report.lang
    groups = [
        [
            (PALETTE[place % len(PALETTE)], "", _short(_name(report.entries[place].name)))
            for place in metrics
        ],
        [
            ("currentColor", DASHES[number % len(DASHES)], t("race.chart_seed", lang, seed=seed))
            for number, seed in enumerate(seeds)
        ],
    ]
    parts, row = ['<g class="skr-legend">'], 0
    for group in groups:
        x = float(PAD)
        for colour, dash, text in group:
            wide = 27 + LEGEND_CHAR * len(text) + 16
            if x > PAD and x + wide > CHART_WIDTH:  # wrap: the next row
                row, x = row + 1, float(PAD)
            y = CHART_HEIGHT + 2 + row * LEGEND_ROW
            dashed = f' stroke-dasharray="{dash}"' if dash else ""
            parts.append(
                f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 22:.1f}" y2="{y:.1f}" '
                f'stroke="{colour}" stroke-width="2"{dashed}/>'
                f'<text x="{x + 27:.1f}" y="{y + 3.5:.1f}" font-size="11" '
                f'fill="currentColor">{esc(text)}</text>'
            )
            x += wide
        row += 1
    parts.append("</g>")
    return "".join(parts), row * LEGEND_ROW + 4


def _short(name: str, most: int = 40) -> str:
    """A name the legend can hold (the standings and the tooltips give it whole)."""
    return name if len(name) <= most else name[: most - 1] + "…"


def best_html(report: RaceReport) -> str:
    parts = []
    for entry in report.standings:
        best = entry.best_run
        if best is None:
            continue
        said = best_of(report, entry, best)
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
show_with(Verdict, text=verdict_text, html=verdict_html)
