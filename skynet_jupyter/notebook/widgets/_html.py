"""The live view's layout, built from ``render``'s fragments (user text always through ``esc``).

Here is only what the live view draws its own way: the header with step chips
and callouts, the case table with foldable cells and a failure row, the reward
bars and the named-score panel.  Their words and values (the summary line, a
step's fix, "failed at", error and traceback, marks, score levels) come from
``render``, as the static report's do, the numbers from ``show/formats`` and the
one stylesheet from ``show/style``; the live steps come from ``report``
(``widgets/_state.LiveState.steps``).  The fragments are plain
functions of data, so the widget view and its static fallback (nbconvert,
GitHub) draw the same bars from the same numbers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ...core.contract import safe_value_repr
from ...core.report import ADVICE, FAILED, PASSED, CaseResult, Step, StepStatus
from ...core.reward import PART_TITLES, PARTS
from ...core.secrets import Redactor
from ...i18n import t
from ...show.formats import fmt_mean, fmt_ms, fmt_score, fmt_usd, fmt_weight
from ...show.render import (
    CASE_MARKS,
    CELL_CHARS,
    COLUMN_TITLES,
    MARKS,
    REDACT_MARGIN,
    STATUS_CLASS,
    STATUS_TITLES,
    Clean,
    bounded,
    cut,
    error_text,
    esc,
    failed_at_text,
    marks_legend,
    score_level,
    show_value,
    step_hint,
    traceback_text,
)
from ...show.style import STYLE
from ._state import PENDING

FULL_CHARS = 20_000  # a value unfolded in a cell
FEEDBACK_CHARS = 20_000  # the rest stays in the data (report.cases[i].feedback)

_CLASS = {status: "skv-" + name for status, name in {**STATUS_CLASS, PENDING: "pending"}.items()}
_MARK = {**MARKS, PENDING: "…"}
PART_CLASS = {"accuracy": "skv-acc", "speed": "skv-speed", "cost": "skv-cost"}


# --- header ----------------------------------------------------------------------


def head_html(
    title: str,
    title_status: StepStatus,
    subtitle: str,
    steps: list[Step],
    lang: str,
    clean: Redactor | None = None,
) -> str:
    parts = [
        STYLE,
        '<div class="skv skv-head">',
        f'<div class="skv-title {_CLASS.get(title_status, "")}">{esc(title)}</div>',
    ]
    if subtitle:
        parts.append(f'<div class="skv-sub">{esc(subtitle)}</div>')
    parts.append(steps_html(steps, lang, clean))
    parts.append("</div>")
    return "".join(parts)


def steps_html(steps: list[Step], lang: str, clean: Redactor | None = None) -> str:
    """Step chips with marks, then each failed step's reason and fix (the first one first).

    ``clean``: a redactor a whole redraw shares (gathering the secrets reads the environment)."""
    if not steps:
        return ""
    chips: list[str] = []
    callouts: list[str] = []
    notes: dict[str, list[str]] = {}
    for step in steps:
        status = step.status
        message = ""
        if step.message:  # gathered when needed: a running check's steps have no message
            clean = clean or Redactor()
            message = bounded(step.message, lang, clean)
        tip = f"{t(STATUS_TITLES[status], lang) if status != PENDING else t('view.pending', lang)}"
        if message:
            tip = t("labelled", lang, label=tip, text=message)
        chips.append(
            f'<span class="skv-step {_CLASS.get(status, "")}" data-step="{esc(step.id)}" '
            f'data-status="{esc(status)}" title="{esc(tip)}">'
            f"{_MARK.get(status, '?')} {esc(step.title)}</span>"
        )
        if status in (FAILED, ADVICE):
            box = "skv-first" if status == FAILED and not callouts else ""
            if status == ADVICE:
                box = "skv-advice-box"
            text = f"<b>{_MARK[status]} {esc(step.title)}</b>"
            if message:
                text += f" — {esc(message)}"
            clean = clean or Redactor()
            hint = step_hint(step, lang, clean)
            if hint:
                label, hint_text = hint
                hint_html = t("labelled", lang, label=f"<b>{esc(label)}</b>", text=esc(hint_text))
                text += f'<div class="skv-hint">{hint_html}</div>'
            callouts.append(
                f'<div class="skv-callout {box}" data-callout="{esc(step.id)}">{text}</div>'
            )
        elif message:
            notes.setdefault(message, []).append(step.title)
    html = f'<div class="skv-steps">{"".join(chips)}</div>'
    if notes:  # one line per message ("Not reached" names every step it applies to)
        lines = [
            t("labelled", lang, label=esc(", ".join(titles)), text=esc(message))
            for message, titles in notes.items()
        ]
        html += f'<div class="skv-notes">{"<br>".join(lines)}</div>'
    return html + "".join(callouts)


# --- cases -------------------------------------------------------------------------


def _pretty(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, default=safe_value_repr)
    except Exception:  # circular, odd keys, a __repr__ that raises: never a broken view
        return safe_value_repr(value)


def value_html(value: Any, lang: str, *, missing: bool = False, clean: Clean | None = None) -> str:
    """A value cut to one short line; the value (up to FULL_CHARS) one click away."""
    if missing:
        return '<span class="skv-none">—</span>'
    clean = clean or Redactor()
    text = show_value(value, quote=True)  # a string quoted: text never looks like a list
    if len(text) <= CELL_CHARS and " ".join(text.split()) == text:
        return kept_whole(esc(clean(text)))
    flat = " ".join(clean(text[: CELL_CHARS + REDACT_MARGIN]).split())
    full = bounded(_pretty(value), lang, clean, FULL_CHARS)
    return (
        '<details class="skv-more"><summary>'
        f'<span class="skv-cut">{kept_whole(esc(cut(flat, CELL_CHARS)))}</span></summary>'
        f'<div class="skv-full">{esc(full)}</div></details>'
    )


# A browser may break a line after any hyphen: a date became "2024-03-" / "14" in a narrow
# column.  A short word with a hyphen is kept whole (a longer one may still wrap, so that a
# cell never overflows its column).
_HYPHENATED = re.compile(r"(?<![^\s>])[^\s<>]*-[^\s<>]*")
_WHOLE_CHARS = 32


def kept_whole(html: str) -> str:
    """Escaped text (no tags) with each short hyphenated word in a span that never breaks."""
    if "-" not in html:
        return html
    return _HYPHENATED.sub(
        lambda m: f'<span class="skv-word">{m[0]}</span>' if len(m[0]) <= _WHOLE_CHARS else m[0],
        html,
    )


def mini_bar_html(value: float, name: str = "") -> str:
    """A small 0..1 bar (values outside are clamped; the number says the truth)."""
    width = max(0.0, min(1.0, value)) * 100
    color = f' class="{PART_CLASS[name]}"' if name in PART_CLASS else ""
    return f'<span class="skv-mini"><span{color} style="width:{width:.1f}%"></span></span>'


def named_scores_html(scores: dict[str, float]) -> str:
    if not scores:
        return '<span class="skv-none">—</span>'
    rows = [
        f"<span>{esc(name)}</span>{mini_bar_html(value, name)}"
        f'<span class="skv-num" data-score="{esc(name)}">{fmt_score(value)}</span>'
        for name, value in scores.items()
    ]
    return f'<div class="skv-named">{"".join(rows)}</div>'


def feedback_html(case: CaseResult, lang: str, clean: Clean | None = None) -> str:
    if case.feedback is None:
        return '<span class="skv-none">—</span>'
    if not case.feedback:
        return f'<span class="skv-none">{esc(t("view.empty_feedback", lang))}</span>'
    text = bounded(case.feedback, lang, clean or Redactor(), FEEDBACK_CHARS)
    return f'<div class="skv-feedback" data-feedback="{case.index}">{esc(text)}</div>'


def measures_html(case: CaseResult, lang: str, cached_said: bool = False) -> str:
    lines = [
        (t("col.metric_ms", lang), fmt_ms(case.metric_ms, lang)),
        (t("col.run_ms", lang), fmt_ms(case.run_ms, lang)),
        (t("col.cost", lang), fmt_usd(case.cost_usd, lang)),
    ]
    if case.judge_cost_usd is not None:
        lines.append((t("col.judge_cost", lang), fmt_usd(case.judge_cost_usd, lang)))
    html = "<br>".join(f"<span>{esc(label)}</span> {esc(value)}" for label, value in lines)
    if case.cached:  # the original run's time and cost: said in full on the first such row
        said = t("value.cached_again" if cached_said else "value.cached", lang)
        html += f"<br><span>({esc(said)})</span>"
    return f'<div class="skv-measures">{html}</div>'


def _failure_html(
    case: CaseResult,
    lang: str,
    open_traceback: bool = True,
    clean: Clean | None = None,
    same_as: int | None = None,
) -> str:
    clean = clean or Redactor()
    html = (
        f'<span class="skv-fail"><b>{MARKS[FAILED]} {esc(failed_at_text(case, lang))}'
        f"</b></span> "
        f'<span class="skv-error">{esc(error_text(case, lang, clean, same_as))}</span>'
    )
    if case.traceback and same_as is None:
        traceback = traceback_text(case, lang, clean)
        html += (
            f'<details class="skv-tb-box"{" open" if open_traceback else ""}>'
            f"<summary>{esc(t('view.traceback', lang))}"
            f'</summary><pre class="skv-tb">{esc(traceback)}</pre></details>'
        )
    return html


_COLUMNS = ("case", "input", "output", "expected", "score", "feedback")


def cases_html(
    cases: list[CaseResult],
    lang: str,
    *,
    summary: str = "",
    note: str = "",
    row: Callable[[CaseResult, str], str] | None = None,
) -> str:
    """The case table: one row per case, a second row with the failure when it failed."""
    row = row or case_row_html
    parts = [STYLE, '<div class="skv skv-cases-box">']
    if summary:
        parts.append(f'<div class="skv-summary">{esc(summary)}</div>')
    if cases:
        head = "".join(f"<th>{esc(t(COLUMN_TITLES[name], lang))}</th>" for name in _COLUMNS)
        head += f"<th>{esc(t('view.col_measures', lang))}</th>"
        rows = [row(case, lang) for case in cases]
        parts.append(
            '<div class="skv-scroll"><table class="skv-cases">'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )
    if note:
        parts.append(f'<div class="skv-notes">{esc(note)}</div>')
    if cases:
        parts.append(f'<div class="skv-notes skv-marks">{esc(marks_legend(lang))}</div>')
    parts.append("</div>")
    return "".join(parts)


def score_class(score: float | None) -> str:
    """The score's colour on its own scale: low, middle or high (not the contract's status)."""
    level = score_level(score)
    return f"skv-score-{level}" if level else ""


def case_row_html(
    case: CaseResult,
    lang: str,
    open_traceback: bool = True,
    same_as: int | None = None,
    cached_said: bool = False,
    clean: Redactor | None = None,
) -> str:
    """One case's row (and its failure row); a long list keeps tracebacks folded.

    ``same_as``: a case drawn above that failed the same way (its failure is said there).
    ``clean``: a redactor the rows of one redraw share.

    The first cell says whether the case kept the contract (a neutral mark when it
    did: the score, coloured on its own scale, says how good the output is).
    """
    status = PASSED if case.passed else FAILED
    title = t("view.case_held" if case.passed else "view.case_broke", lang)
    failed = not case.passed
    no_output = case.output is None and case.failed_step is not None
    clean = clean or Redactor()  # the secrets gathered once for the row (or the redraw)
    expected = value_html(case.expected, lang, missing=case.expected is None, clean=clean)
    mark_class = "skv-held" if case.passed else "skv-fail"

    def label(name: str) -> str:  # shown above the value when a narrow view stacks the cells
        return f' data-label="{esc(name)}"'

    cells = [
        f'<td class="skv-mark skv-nowrap" title="{esc(title)}" data-contract="{status}">'
        f'<span class="{mark_class}">{CASE_MARKS[status]}</span> {case.index}</td>',
        f'<td class="skv-in"{label(t("col.input", lang))}>'
        f"{value_html(case.input, lang, clean=clean)}</td>",
        f'<td class="skv-val"{label(t("col.output", lang))}>'
        f"{value_html(case.output, lang, missing=no_output, clean=clean)}</td>",
        f'<td class="skv-val"{label(t("col.expected", lang))}>{expected}</td>',
        f'<td class="skv-nowrap"{label(t("col.score", lang))}>'
        f'<div class="skv-num skv-score {score_class(case.score)}">{esc(fmt_score(case.score))}'
        f"</div>{named_scores_html(case.scores) if case.scores else ''}</td>",
        f'<td class="skv-fb"{label(t("col.feedback", lang))}>'
        f"{feedback_html(case, lang, clean)}</td>",
        f'<td class="skv-nowrap"{label(t("view.col_measures", lang))}>'
        f"{measures_html(case, lang, cached_said)}</td>",
    ]
    row_class = ' class="skv-has-sub"' if failed else ""
    row = f'<tr data-case="{case.index}" data-status="{status}"{row_class}>{"".join(cells)}</tr>'
    if failed:
        failure = _failure_html(case, lang, open_traceback, clean, same_as)
        row += (
            f'<tr class="skv-sub" data-case-failure="{case.index}"><td></td>'
            f'<td colspan="{len(_COLUMNS)}">{failure}</td></tr>'
        )
    return row


# --- reward ------------------------------------------------------------------------


def legend_html(
    weights: tuple[float, float, float],
    lang: str,
    sliders: tuple[float, float, float] | None = None,
) -> str:
    """The parts and their weights; beside each, the slider's own number when it reads
    another (the sliders are rescaled to sum to 1: speed 1.00 and cost 0.10 weigh 0.91
    and 0.09)."""
    items = []
    for position, (part, weight) in enumerate(zip(PARTS, weights, strict=True)):
        shown = fmt_weight(weight)
        slider = "" if sliders is None else fmt_weight(sliders[position])
        note = (
            f' <span class="skv-slider-value">({esc(t("view.legend_slider", lang, value=slider))})'
            "</span>"
            if slider and slider != shown
            else ""
        )
        items.append(
            f'<span data-legend="{part}"><span class="skv-dot {PART_CLASS[part]}"></span>'
            f"{esc(t(PART_TITLES[part], lang))} × {shown}{note}</span>"
        )
    return f'<div class="skv-legend">{"".join(items)}</div>'


def reward_bar_html(
    label: str,
    found: tuple[float, float, float],
    weights: tuple[float, float, float],
    raw: str,
    lang: str,
    *,
    case: int | None = None,
    mean: bool = False,
) -> str:
    """One stacked bar: the weighted parts, side by side, summing to the reward."""
    weighted = [w * c for w, c in zip(weights, found, strict=True)]
    value = sum(weighted)
    segments, numbers = [], []
    for part, weight, comp, part_value in zip(PARTS, weights, found, weighted, strict=True):
        name = t(PART_TITLES[part], lang)
        tip = f"{name}: {fmt_weight(weight)} × {fmt_mean(comp)} = {fmt_mean(part_value)}"
        segments.append(
            f'<div class="skv-seg {PART_CLASS[part]}" data-part="{part}" '
            f'data-value="{part_value:.6f}" style="width:{max(0.0, part_value) * 100:.3f}%" '
            f'title="{esc(tip)}"></div>'
        )
        numbers.append(
            f'<span class="{PART_CLASS[part]}-text" title="{esc(tip)}">'
            f"{fmt_mean(part_value)}</span>"
        )
    row_class = " skv-mean-row" if mean else ""
    target = ' data-mean="1"' if mean else f' data-case="{case}"'
    return (
        f'<span class="skv-num{row_class}">{esc(label)}</span>'
        f'<div class="skv-track{row_class}" data-reward="{value:.6f}"{target}>'
        f"{''.join(segments)}</div>"
        f'<span class="skv-num{row_class}" data-reward-value="{value:.6f}">{fmt_mean(value)}</span>'
        f'<span class="skv-parts{row_class}">= {" + ".join(numbers)}</span>'
        f'<span class="skv-raw{row_class}">{esc(raw)}</span>'
    )


def raw_measures(run_ms: float | None, cost_usd: float | None, lang: str) -> str:
    return f"{t('col.run_ms', lang)} {fmt_ms(run_ms, lang)} · {t('col.cost', lang)} " + (
        fmt_usd(cost_usd, lang)
    )


def no_reward_row(case: CaseResult, lang: str) -> str:
    why = failed_at_text(case, lang) if case.failed_step else t("view.no_reward", lang)
    return (
        f'<span class="skv-num">{esc(t("col.case", lang))} {case.index}</span>'
        f'<div class="skv-track" data-case="{case.index}" data-reward=""></div>'
        f'<span class="skv-none">—</span><span class="skv-fail skv-why">{esc(why)}</span>'
        '<span class="skv-why"></span>'
    )


def spec_line_html(weights: tuple[float, float, float], same: bool, lang: str) -> str:
    body = json.dumps({part: round(w, 3) for part, w in zip(PARTS, weights, strict=True)})
    note = f" ({esc(t('view.weights_same', lang))})" if same else ""
    code = (
        f'<code class="skv-spec" data-spec-weights="{esc(body)}">'
        f'"weights": {esc(body)}</code>{note}'
    )
    label = f"<b>{esc(t('view.write_weights', lang))}</b>"
    return f'<div class="skv">{t("labelled", lang, label=label, text=code)}</div>'


def named_panel_html(
    rows: list[CaseResult], means: dict[str, float], lang: str, *, static: bool = False
) -> str:
    """For a metric with named scores and no reward: each case's scores and their means."""
    parts = [STYLE, '<div class="skv">'] if not static else ['<div class="skv">']
    parts.append(f'<div class="skv-rh">{esc(t("view.named_title", lang))}</div>')
    head = "".join(f"<th>{esc(name)}</th>" for name in means)
    body = []
    for case in rows:
        cells = "".join(
            f'<td class="skv-num">{mini_bar_html(case.scores[n])} {fmt_score(case.scores[n])}</td>'
            if n in case.scores
            else '<td class="skv-none">—</td>'
            for n in means
        )
        body.append(f'<tr><td class="skv-num">{case.index}</td>{cells}</tr>')
    mean_cells = "".join(
        f'<td class="skv-num" data-mean-score="{esc(name)}">{mini_bar_html(value)} '
        f"<b>{fmt_mean(value)}</b></td>"
        for name, value in means.items()
    )
    body.append(f"<tr><td><b>{esc(t('view.mean', lang))}</b></td>{mean_cells}</tr>")
    parts.append(
        f'<table class="skv-cases skv-named-table"><thead><tr><th>{esc(t("col.case", lang))}'
        f"</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )
    return "".join(parts)
