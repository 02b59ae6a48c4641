"""An alignment as plain text and as HTML: the one renderer of the static report and of
the live view of ``%skynet_align``.

The head says the held-out agreement before and after (so far, while GEPA
runs), the split, the calls and the cost, judge and reflection apart; the body
the agreement measures side by side, the held-out cases that flipped, the new
instructions as a word diff against the old, and GEPA's proposals with the
disagreements each one read (``render.py``'s).  Every piece of user text goes
through ``esc``.
"""

from __future__ import annotations

from ..core.shows_itself import show_with
from ..i18n import t
from ..optimizers.render import (
    cost_line,
    diff_html,
    diff_text,
    past_max_cost_line,
    proposals_html,
    proposals_text,
    stopped_line,
)
from ..quality.agreement import BINARY, AgreementReport
from ..show.formats import fmt_score, fmt_usd
from ..show.render import esc, show_value
from ..show.render import head_html as drawn_head
from ..show.style import STYLE
from .report import AlignReport, Flip

SHOWN_FLIPS = 20


# --- the pieces ----------------------------------------------------------------------------


def _measure_name(report: AlignReport) -> str:
    return t("align.accuracy" if report.kind == BINARY else "align.spearman", report.lang)


def _headline_value(agreement: AgreementReport | None) -> str:
    if agreement is None:
        return "—"
    return fmt_score(agreement.accuracy if agreement.kind == BINARY else agreement.spearman)


def title(report: AlignReport) -> tuple[str, str]:
    """(the headline, its tone: run, up or flat)."""
    lang = report.lang
    fields = {
        "name": report.metric_name,
        "prompt": report.prompt_name,
        "measure": _measure_name(report),
        "before": _headline_value(report.before),
        "after": _headline_value(report.after),
        "count": len(report.held_out_cases),
    }
    if report.stop is not None:  # the judge's key (or model): said first, no verdict
        return report.stop.sentence, "flat"
    if not report.finished:
        if report.before is None:
            return t("align.running", lang, **fields), "run"
        return t("align.running_so_far", lang, **fields), "run"
    if report.improved:
        return t("align.improved", lang, **fields), "up"
    return t("align.not_improved", lang, **fields), "flat"


def _measures(agreement: AgreementReport | None, lang: str) -> str:
    if agreement is None:
        return "—"
    if agreement.kind == BINARY:
        return t(
            "align.binary",
            lang,
            accuracy=fmt_score(agreement.accuracy),
            kappa=fmt_score(agreement.kappa),
        )
    return t(
        "align.numeric",
        lang,
        spearman=fmt_score(agreement.spearman),
        pearson=fmt_score(agreement.pearson),
    )


def status_lines(report: AlignReport) -> list[str]:
    """The split, the calls (judge and reflection apart) and the cost, the stop."""
    lang = report.lang
    lines = []
    held = len(report.held_out_cases)
    if held:
        train = len(report.train_cases)
        lines.append(t("align.split", lang, train=train, held=held, count=held))
    optimization = report.optimization
    calls = t(
        "align.calls",
        lang,
        judge=report.calls,
        reflection=report.reflection_calls,
        budget=report.budget,
    )
    line = f"{calls} · {cost_line(optimization)}"
    if optimization.max_cost is not None:
        line += " · " + t("optimize.max_cost", lang, max_cost=fmt_usd(optimization.max_cost, lang))
    lines.append(line)
    if report.left_out:
        lines.append(t("align.left_out", lang, count=len(report.left_out)))
    stopped = stopped_line(optimization) if optimization.finished else ""
    if stopped:
        lines.append(stopped)
    past = past_max_cost_line(optimization)
    if past:
        lines.append(past)
    if optimization.error:
        lines.append(optimization.error)
    return lines


def _flip_word(flip: Flip, lang: str) -> str:
    return t("align.fixed" if flip.fixed else "align.broken", lang)


def _flips_line(report: AlignReport) -> str:
    flips = report.flips
    fixed = sum(1 for f in flips if f.fixed)
    return t("align.flips", report.lang, fixed=fixed, broken=len(flips) - fixed, count=fixed)


# --- text ------------------------------------------------------------------------------------


def align_text(report: AlignReport) -> str:
    lang = report.lang
    headline, _ = title(report)
    lines = [headline, *("  " + line for line in status_lines(report))]
    lines += ["  ! " + note for note in report.advice]
    if report.before is not None:
        lines.append(t("align.held_out", lang))
        lines.append(f"  {t('align.before', lang):<8} {_measures(report.before, lang)}")
        if report.after is not report.before:
            lines.append(f"  {t('align.after', lang):<8} {_measures(report.after, lang)}")
    if report.finished and report.flips:
        lines.append(_flips_line(report))
        for flip in report.flips[:SHOWN_FLIPS]:
            lines.append(
                f"  #{flip.case:<4} {show_value(flip.human)!s:<8} "
                f"{fmt_score(flip.before)} → {fmt_score(flip.after)}  {_flip_word(flip, lang)}"
            )
    if report.finished and report.improved:
        lines.append(t("align.new_prompt", lang, prompt=report.prompt_name))
        diff = diff_text(report.seed_prompt, report.best_prompt)
        lines.append("  " + diff.replace("\n", "\n  "))
    lines += proposals_text(report.optimization)
    return "\n".join(lines)


# --- HTML ------------------------------------------------------------------------------------


def head_html(report: AlignReport) -> str:
    """The alignment's head: agreement before and after, the split, the costs, advice."""
    headline, tone = title(report)
    lines = [("sub", line) for line in status_lines(report)]
    lines += [("advice", note) for note in report.advice]
    box = "sko sko-head skynet-align-head"
    return drawn_head("sko", headline, f"sko-{tone}", lines, box=box)


def _agreement_html(report: AlignReport) -> str:
    lang = report.lang
    if report.before is None:
        return ""
    rows: list[tuple[str, AgreementReport | None]] = [(t("align.before", lang), report.before)]
    if report.after is not report.before:
        rows.append((t("align.after", lang), report.after))
    body = "".join(
        f"<tr><td>{esc(label)}</td><td>{esc(_measures(agreement, lang))}</td></tr>"
        for label, agreement in rows
    )
    return (
        f'<div class="sko-h">{esc(t("align.held_out", lang))}</div>'
        f'<table class="sko-candidates skynet-align-agreement">{body}</table>'
    )


def _flips_html(report: AlignReport) -> str:
    lang = report.lang
    flips = report.flips
    if not (report.finished and flips):
        return ""
    head = "".join(
        f"<th>{esc(t(column, lang))}</th>"
        for column in ("col.case", "quality.col.human", "align.before", "align.after", "align.flip")
    )
    rows = "".join(
        f'<tr data-case="{flip.case}"><td class="sko-num">{flip.case}</td>'
        f"<td>{esc(show_value(flip.human))}</td>"
        f'<td class="sko-num">{esc(fmt_score(flip.before))}</td>'
        f'<td class="sko-num">{esc(fmt_score(flip.after))}</td>'
        f'<td class="{"sko-kept" if flip.fixed else "sko-dropped"}">'
        f"{esc(_flip_word(flip, lang))}</td></tr>"
        for flip in flips[:SHOWN_FLIPS]
    )
    return (
        f'<div class="sko-h">{esc(_flips_line(report))}</div>'
        f'<table class="sko-records skynet-align-flips"><tr>{head}</tr>{rows}</table>'
    )


def _new_prompt_html(report: AlignReport) -> str:
    if not (report.finished and report.improved):
        return ""
    heading = t("align.new_prompt", report.lang, prompt=report.prompt_name)
    return f'<div class="sko-h">{esc(heading)}</div>' + diff_html(
        report.seed_prompt, report.best_prompt
    )


def body_html(report: AlignReport, *, styled: bool = True) -> str:
    """Everything under the head; ``styled=False`` where the head carries the stylesheet."""
    inner = (
        _agreement_html(report)
        + _flips_html(report)
        + _new_prompt_html(report)
        + proposals_html(report.optimization)
    )
    if not inner:
        return ""
    return f'{STYLE if styled else ""}<div class="sko sko-body">{inner}</div>'


def align_html(report: AlignReport) -> str:
    body = body_html(report, styled=False)
    return f'<div class="skynet-optimize skynet-align">{head_html(report)}{body}</div>'


# The report shows itself through these (core/shows_itself.py): it never imports this module.
show_with(AlignReport, text=align_text, html=align_html)
