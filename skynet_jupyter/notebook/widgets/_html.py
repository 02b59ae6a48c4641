"""The live view's layout, built from ``show``'s fragments (user text always through ``esc``).

Here is only what the live view draws its own way: the header's step chips and
callouts (in ``show``'s one ``head_html``), the case table around the rows that
the one table of case columns draws (``show/case_columns.live_row_html``), the
reward bars and the named-score panel.  Their words and values (the summary line, a
step's fix, "failed at", error and traceback, marks, score levels) come from
``render``, as the static report's do, the numbers from ``show/formats`` and the
one stylesheet from ``show/style``; the live steps come from ``report``
(``widgets/_state.LiveState.steps``).  The fragments are plain
functions of data, so the widget view and its static fallback (nbconvert,
GitHub) draw the same bars from the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ...core.report import ADVICE, FAILED, CaseResult, Step, StepStatus
from ...core.reward import PART_TITLES, PARTS
from ...core.secrets import Redactor
from ...i18n import t
from ...show.case_columns import PART_CLASS, live_head_cells, mini_bar_html
from ...show.formats import fmt_mean, fmt_ms, fmt_score, fmt_usd, fmt_weight
from ...show.render import (
    MARKS,
    STATUS_CLASS,
    STATUS_TITLES,
    bounded,
    esc,
    failed_at_text,
    head_html,
    marks_legend,
    step_hint,
)
from ...show.style import STYLE as STYLE  # the reward view and the tests take it from here
from ._state import PENDING

_CLASS = {status: "skv-" + name for status, name in {**STATUS_CLASS, PENDING: "pending"}.items()}
_MARK = {**MARKS, PENDING: "…"}


# --- header ----------------------------------------------------------------------


def live_head_html(
    title: str,
    title_status: StepStatus,
    subtitle: str,
    steps: list[Step],
    lang: str,
    clean: Redactor | None = None,
) -> str:
    """The live check's head: its title and subtitle, then the step chips and callouts."""
    lines = [("sub", subtitle)] if subtitle else []
    chips = step_chips_html(steps, lang, clean)
    tone = _CLASS.get(title_status, "")
    return head_html("skv", title, tone, lines, box="skv skv-head", after=chips)


def step_chips_html(steps: list[Step], lang: str, clean: Redactor | None = None) -> str:
    """Step chips with marks, then each failed step's reason and fix (the first one first).

    ``clean``: a redactor a whole redraw shares (gathering the secrets reads the environment)."""
    if not steps:
        return ""
    if clean is None and any(step.message or step.status in _CALLED_OUT for step in steps):
        clean = Redactor()  # only then: a running check's steps have no message
    chips: list[str] = []
    callouts: list[str] = []
    notes: dict[str, list[str]] = {}
    for step in steps:
        message = bounded(step.message, lang, clean) if step.message and clean else ""
        chips.append(_chip_html(step, message, lang))
        if step.status in _CALLED_OUT and clean is not None:
            callouts.append(_callout_html(step, message, lang, clean, first=not callouts))
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


_CALLED_OUT = (FAILED, ADVICE)  # a step said again under the chips, with its fix


def _chip_html(step: Step, message: str, lang: str) -> str:
    status = step.status
    tip = t(STATUS_TITLES[status], lang) if status != PENDING else t("view.pending", lang)
    if message:
        tip = t("labelled", lang, label=tip, text=message)
    return (
        f'<span class="skv-step {_CLASS.get(status, "")}" data-step="{esc(step.id)}" '
        f'data-status="{esc(status)}" title="{esc(tip)}">'
        f"{_MARK.get(status, '?')} {esc(step.title)}</span>"
    )


def _callout_html(step: Step, message: str, lang: str, clean: Redactor, *, first: bool) -> str:
    """A failed step's reason and fix (the first failure stands out), or an advice's."""
    status = step.status
    box = "skv-advice-box" if status == ADVICE else "skv-first" if first else ""
    text = f"<b>{_MARK[status]} {esc(step.title)}</b>"
    if message:
        text += f" — {esc(message)}"
    hint = step_hint(step, lang, clean)
    if hint:
        label, hint_text = hint
        hint_html = t("labelled", lang, label=f"<b>{esc(label)}</b>", text=esc(hint_text))
        text += f'<div class="skv-hint">{hint_html}</div>'
    return f'<div class="skv-callout {box}" data-callout="{esc(step.id)}">{text}</div>'


# --- cases -------------------------------------------------------------------------


def cases_html(
    cases: list[CaseResult],
    lang: str,
    *,
    row: Callable[[CaseResult], str],
    summary: str = "",
    note: str = "",
) -> str:
    """The case table: ``row`` draws each case (``live_row_html``: a second row when it failed)."""
    parts = [STYLE, '<div class="skv skv-cases-box">']
    if summary:
        parts.append(f'<div class="skv-summary">{esc(summary)}</div>')
    if cases:
        rows = "".join(row(case) for case in cases)
        parts.append(
            '<div class="skv-scroll"><table class="skv-cases">'
            f"<thead><tr>{live_head_cells(lang)}</tr></thead><tbody>{rows}</tbody></table></div>"
        )
    if note:
        parts.append(f'<div class="skv-notes">{esc(note)}</div>')
    if cases:
        parts.append(f'<div class="skv-notes skv-marks">{esc(marks_legend(lang))}</div>')
    parts.append("</div>")
    return "".join(parts)


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
