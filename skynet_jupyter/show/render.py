"""Check and evaluation reports as text and HTML, and the public home of ``show``'s fragments.

* **The static report**: ``report_text`` (terminals, the CLI, ``print``) and
  ``report_html`` (nbconvert, GitHub, a saved notebook); a check or evaluation
  report shows itself through them (registered below: the core never imports
  this module).  A case in them is drawn from the one table of case columns
  (``case_columns.py``), as the live view's rows are.
* **Fragments** every view shares (``fragments.py``: the headline, the summary
  line, a step's fix, "failed at", marks, how a value reads, ``esc``...), and
  the one head every view draws (``head_html``): other layers import them from
  here.  The live view's own layout (step chips, callouts) is
  ``widgets/_html.py``; the steps themselves are built in ``core/report.py``
  (``build_steps``, ``step_failed_by``).

Every piece of user text (data, outputs, feedback, errors) is escaped (``esc``),
redacted and bounded per value (``fragments``).
"""

from __future__ import annotations

from ..core.inert_text import shown
from ..core.report import FAILED, PASSED, CaseResult, CheckReport, SameErrors
from ..core.secrets import Redactor
from ..core.shows_itself import show_with
from ..i18n import t
from .case_columns import CaseRow, case_lines, static_head_cells, static_row_html
from .fragments import (
    CASE_MARKS,
    CELL_CHARS,
    MARKS,
    REDACT_MARGIN,
    SHOWN_CASES,
    STATUS_CLASS,
    STATUS_TITLES,
    TEXT_CHARS,
    TRACEBACK_CHARS,
    Clean,
    bounded,
    cases_missing_unsaid,
    cell,
    cost_text,
    cut,
    error_text,
    esc,
    failed_at_text,
    head_html,
    headline,
    hint_label,
    interrupted_line,
    marks_legend,
    means_parts,
    more_cases_line,
    named_scores_text,
    replayed_without_model,
    score_level,
    show_value,
    step_hint,
    summary_line,
    summary_text,
    traceback_text,
)
from .style import STYLE
from .terminal_text import terminal_width, wrap_block

# The fragments' public home is here (other layers import them from ``show.render``).
__all__ = [
    "CASE_MARKS",
    "CELL_CHARS",
    "MARKS",
    "REDACT_MARGIN",
    "SHOWN_CASES",
    "STATUS_CLASS",
    "STATUS_TITLES",
    "TEXT_CHARS",
    "TRACEBACK_CHARS",
    "Clean",
    "bounded",
    "case_text",
    "cases_missing_unsaid",
    "cases_table_html",
    "cell",
    "cost_text",
    "cut",
    "error_text",
    "esc",
    "failed_at_text",
    "head_html",
    "headline",
    "hint_label",
    "interrupted_line",
    "marks_legend",
    "means_parts",
    "more_cases_line",
    "named_scores_text",
    "replayed_without_model",
    "report_html",
    "report_text",
    "score_level",
    "show_value",
    "step_hint",
    "steps_html",
    "summary_line",
    "summary_text",
    "traceback_text",
]


# --- text ---------------------------------------------------------------------


def report_text(report: CheckReport, width: int | None = None) -> str:
    """The report as text, wrapped to ``width`` columns with hanging indents.

    ``width=None`` is the terminal's width when stdout is a terminal, else no
    hard wrapping (a notebook, a pipe or a CI log wraps at its own width);
    ``width=0`` never wraps.  A value's own line breaks are indented under it
    either way (``terminal_text``).  Control characters, lone surrogates and
    bidirectional controls of the user's text are shown escaped (``inert_text.shown``),
    as ``repr`` and ``skynet-check`` show them.
    """
    width = terminal_width() if width is None else (width if width > 0 else None)
    lang = report.lang
    clean = Redactor()
    lines = wrap_block(f"{headline(report)} — {summary_line(report)}", "", "    ", width)
    if report.interrupted:
        lines += wrap_block(interrupted_line(report), "", "    ", width)
    for step in report.steps:
        head = step.title
        if step.message:
            message = bounded(step.message, lang, clean)
            head = t("labelled", lang, label=step.title, text=message)
        lines += wrap_block(head, f"  {MARKS.get(step.status, '?')} ", "      ", width)
        hint = step_hint(step, lang, clean)
        if hint:
            hint_line = t("labelled", lang, label=hint[0], text=hint[1])
            lines += wrap_block(hint_line, "      ", "        ", width)
    cases = report.worst(20) if report.kind == "eval" else report.cases[:SHOWN_CASES]
    if report.kind == "eval" and report.cases:
        lines.append(t("labelled", lang, label=t("report.worst", lang), text="").rstrip())
    same = SameErrors()  # a failure repeated across cases: its words and traceback once
    for case in cases:
        lines.extend(case_text(case, lang, clean, width, same.of(case), same.cached_said(case)))
    if len(report.cases) > len(cases):
        lines += wrap_block(more_cases_line(report, len(cases)), "  ", "    ", width)
    # A model's terminal escape (\x1b[31m) or a lone surrogate in a feedback, an output or
    # an error is shown as repr shows it: print(report) never recolours, clears or fails.
    return shown("\n".join(lines))


def case_text(
    case: CaseResult,
    lang: str,
    clean: Clean | None = None,
    width: int | None = None,
    same_as: int | None = None,
    cached_said: bool = False,
) -> list[str]:
    """One case: a head line (mark, number, score, times), then one field per line.

    Wrapped to ``width`` (None: not wrapped); a field's continuation lines, and
    the lines of a multi-line value, are indented under its label.  ``same_as``:
    the case shown above that failed the same way (then said in a few words).
    """
    row = CaseRow(case, lang, clean or Redactor(), same_as, cached_said)
    return case_lines(row, width)


# --- HTML ---------------------------------------------------------------------

# A status's colour class in the static report.
_CLASS = {status: "sk-" + name for status, name in STATUS_CLASS.items()}


def steps_html(report: CheckReport, clean: Clean | None = None) -> str:
    lang = report.lang
    clean = clean or Redactor()
    items = []
    for step in report.steps:
        text = f"<b>{esc(step.title)}</b>"
        if step.message:
            text = t("labelled", lang, label=text, text=esc(bounded(step.message, lang, clean)))
        hint = step_hint(step, lang, clean)
        if hint:
            hint_html = t("labelled", lang, label=esc(hint[0]), text=esc(hint[1]))
            text += f'<div class="sk-hint">{hint_html}</div>'
        items.append(
            f'<li class="{_CLASS.get(step.status, "")}" data-step="{esc(step.id)}" '
            f'data-status="{esc(step.status)}">{MARKS.get(step.status, "?")} {text}</li>'
        )
    return f'<ul class="sk-steps">{"".join(items)}</ul>'


def cases_table_html(cases: list[CaseResult], lang: str, clean: Clean | None = None) -> str:
    clean = clean or Redactor()
    same = SameErrors()
    rows = "".join(
        static_row_html(CaseRow(case, lang, clean, same.of(case), same.cached_said(case)))
        for case in cases
    )
    legend = f'<div class="sk-notes">{esc(marks_legend(lang))}</div>'
    return (
        f'<table class="sk-cases"><thead><tr>{static_head_cells(lang)}</tr></thead>'
        f"<tbody>{rows}</tbody></table>" + legend
    )


def report_html(report: CheckReport) -> str:
    lang = report.lang
    status = _CLASS[PASSED if report.passed else FAILED]
    parts = [
        STYLE,
        '<div class="skynet-report">',
        f'<div class="sk-head {status}">{esc(headline(report))}</div>',
        f"<div>{esc(summary_line(report))}</div>",
    ]
    if report.interrupted:
        parts.append(f"<div class='sk-fail'>{esc(interrupted_line(report))}</div>")
    clean = Redactor()  # the secrets gathered once for the whole page
    parts.append(steps_html(report, clean))
    if report.cases:
        cases = report.worst(50) if report.kind == "eval" else report.cases[:SHOWN_CASES]
        if report.kind == "eval":
            parts.append(f"<div>{esc(t('report.worst', lang))}</div>")
        parts.append(cases_table_html(cases, lang, clean))
        if len(report.cases) > len(cases):
            parts.append(f"<div>{esc(more_cases_line(report, len(cases)))}</div>")
    parts.append("</div>")
    return "".join(parts)


# A check or evaluation report shows itself through these (core/shows_itself.py): the
# core never imports this module.
show_with(CheckReport, text=report_text, html=report_html)
