"""The report's fragments, once, and the static report built from them.

Two parts:

* **Fragments** every view shares, so one wording change is one edit: the
  headline, the summary line (``summary_text``), the "interrupted" line, a
  step's fix (``step_hint``), a case's "failed at" line, error and traceback,
  its named scores and score level, the "more cases" line, the marks and their
  legend, and how a value reads (``show_value``; numbers and money are
  ``formats``', the stylesheet is ``style``'s, shared by every view).
  The live view (``widgets/_html.py``, ``widgets/_state.py``), the terminal and
  CLI text (``report_text``) and the static HTML all call these.
* **The static report**: ``report_text`` (terminals, the CLI, ``print``) and
  ``report_html`` (nbconvert, GitHub, a saved notebook).  The live view's own
  layout (step chips, foldable cells) is ``widgets/_html.py``; the steps
  themselves are built in ``core/report.py`` (``build_steps``, ``step_failed_by``).

Every piece of user text (data, outputs, feedback, errors) is escaped here:
views call ``esc`` and never build markup from raw strings.  Shown text is also
redacted (``_secrets.Redactor``: no configured secret leaves in a report) and
bounded per value (a 10 MB feedback stays in the data, not in the page); a
value whose ``__repr__`` raises shows as a placeholder.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from ..core.contract import safe_value_repr, step_title
from ..core.json_export import safe_str
from ..core.report import (
    ADVICE,
    FAILED,
    PASSED,
    SKIPPED,
    CaseResult,
    CheckReport,
    SameErrors,
    Step,
)
from ..core.secrets import Redactor
from ..i18n import t
from .formats import fmt_mean, fmt_ms, fmt_score, fmt_usd
from .style import STYLE
from .terminal_text import fill_parts, terminal_width, wrap_block

MARKS = {PASSED: "✓", FAILED: "✗", SKIPPED: "–", ADVICE: "!"}
# A case's mark says whether it kept the contract, not whether its output was good:
# a neutral circle when it did (the score says how good), a cross when it broke.
CASE_MARKS = {PASSED: "○", FAILED: "✗"}
CELL_CHARS = 80
SHOWN_CASES = 200  # a static report of a huge check stays readable (and small)
TEXT_CHARS = 4_000  # per feedback, error or message in static HTML and text
TRACEBACK_CHARS = 8_000
REDACT_MARGIN = 256  # redact a little past the cut: a secret across it is still found whole

Clean = Callable[[str], str]


def esc(value: object) -> str:
    """HTML-escaped text of ``value`` (quotes included)."""
    return html.escape(value if isinstance(value, str) else safe_str(value), quote=True)


def cut(text: str, limit: int = CELL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bounded(text: str, lang: str, clean: Clean, limit: int = TEXT_CHARS) -> str:
    """``text`` redacted and cut to ``limit`` characters, with a note saying how long it was."""
    if len(text) <= limit:
        return clean(text)
    shown = clean(text[: limit + REDACT_MARGIN])[:limit]
    return shown + " " + t("value.cut", lang, shown=limit, total=len(text))


def cell(value: Any, clean: Clean, limit: int = CELL_CHARS, *, quote: bool = False) -> str:
    """A value for one table cell or line: readable, redacted, cut to ``limit``."""
    return cut(clean(show_value(value, quote=quote)[: limit + REDACT_MARGIN]), limit)


def show_value(value: Any, *, quote: bool = False) -> str:
    """A compact, readable form of an input, output or expected value (never raises).

    ``quote=True`` (the views) shows a string in double quotes, so the text
    ``["name", "email"]`` never looks like the list it is not.
    """
    try:
        if isinstance(value, str):
            return _quoted(value) if quote else value
        if isinstance(value, dict) and len(value) == 1:
            (only,) = value.values()
            if isinstance(only, str | int | float):
                shown = _quoted(only) if quote and isinstance(only, str) else only
                return f"{next(iter(value))}: {shown}"
        return json.dumps(value, ensure_ascii=False, default=safe_value_repr)
    except Exception:  # circular, odd keys, a __str__ or __len__ that raises
        return safe_value_repr(value)


def _quoted(text: str) -> str:
    # Plain quotes around the text as it is (no escapes: a view folds its lines anyway).
    return f'"{str.__str__(text)}"'


def cost_text(case: CaseResult, lang: str) -> str:
    """The run's cost, and the judge's apart when the metric called a model."""
    text = fmt_usd(case.cost_usd, lang)
    if case.judge_cost_usd is not None:
        text += f" · {t('col.judge_cost', lang)} {fmt_usd(case.judge_cost_usd, lang)}"
    return text


def headline(report: CheckReport) -> str:
    lang = report.lang
    if report.kind == "check":
        return t("report.check_passed" if report.passed else "report.check_failed", lang)
    return t("report.eval_passed" if report.passed else "report.eval_failed", lang)


def means_parts(
    lang: str,
    mean: float | None,
    means: dict[str, float],
    scored: int | None = None,
    count: int | None = None,
) -> list[str]:
    """The mean score, then each named score's mean, as every summary line says them.

    When only ``scored`` of the ``count`` cases have a score (the others failed),
    the mean says so: a mean of one good case in four is not the metric's mean.
    """
    parts = [] if mean is None else [f"{t('report.mean', lang)} {fmt_mean(mean)}"]
    if parts and scored is not None and count is not None and scored < count:
        parts[0] += " " + t("report.mean_over", lang, scored=scored, count=count)
    parts += [f"{name} {fmt_mean(value)}" for name, value in means.items()]
    return parts


def summary_text(
    lang: str,
    metric_name: str,
    count: int,
    mean: float | None,
    means: dict[str, float],
    retries: int = 0,
    stand_ins: int = 0,
    scored: int | None = None,
) -> str:
    """The summary line from its numbers: the static report's and the live view's.

    ``scored``: how many of the ``count`` cases have a score (None: all of them).
    """
    parts = [t("report.metric", lang, name=metric_name), t("report.cases", lang, count=count)]
    parts += means_parts(lang, mean, means, scored, count)
    if retries:  # the provider held the run back: said, so slow cases are not a mystery
        parts.append(t("view.retries", lang, count=retries))
    if stand_ins:  # offline answers are never mistaken for a real model's
        parts.append(t("report.stand_in_calls", lang, count=stand_ins))
    return " · ".join(parts)


def summary_line(report: CheckReport) -> str:
    """The report's summary line (the live view's ``LiveState.summary`` says the same)."""
    return summary_text(
        report.lang,
        report.metric_name,
        len(report.cases),
        report.mean_score,
        report.mean_scores,
        report.retries,
        report.stand_in_calls,
        sum(1 for case in report.cases if case.score is not None),
    )


def interrupted_line(report: CheckReport) -> str:
    """Said by the text, the static HTML, the live view's header and the magics."""
    return t("report.interrupted", report.lang, done=len(report.cases), total=report.total_cases)


def cases_missing_unsaid(report: CheckReport) -> bool:
    """Cases are missing and no step says why: Ctrl-C, or a run that ended early.

    A failed step (the signature, the REWARD_SPEC, the first case) already says why
    the other cases did not run: "interrupted" would be a second, wrong reason.
    """
    if report.interrupted:
        return True
    if len(report.cases) >= report.total_cases:
        return False
    return not any(step.status == FAILED for step in report.steps)


def more_cases_line(report: CheckReport, shown: int) -> str:
    return t("report.more_cases", report.lang, count=len(report.cases) - shown)


def hint_label(status: str, lang: str) -> str:
    """What a step's hint is: a fix (a failed step) or advice."""
    return t("report.fix" if status == FAILED else "report.advice", lang)


def step_hint(step: Step, lang: str, clean: Clean) -> tuple[str, str] | None:
    """(label, hint) of a failed or advice step that has a hint (bounded, redacted), else None."""
    if step.status not in (FAILED, ADVICE) or not step.hint:
        return None
    return hint_label(step.status, lang), bounded(step.hint, lang, clean)


def failed_at_text(case: CaseResult, lang: str) -> str:
    """The verdict of a case that broke the contract: "failed at <step>"."""
    step = step_title(case.failed_step, lang) if case.failed_step else ""
    return t("failed_at", lang, step=step)


def error_text(case: CaseResult, lang: str, clean: Clean, same_as: int | None = None) -> str:
    """Why the case failed; ``same_as``: an earlier row's case that said the same already."""
    if same_as is not None:
        return t("case.same_error", lang, case=same_as)
    return bounded(case.error or "", lang, clean)


def traceback_text(case: CaseResult, lang: str, clean: Clean) -> str:
    return bounded(case.traceback or "", lang, clean, TRACEBACK_CHARS)


def named_scores_text(scores: dict[str, float]) -> str:
    """A case's named scores on one line: ``format 1, accuracy 0.5``."""
    return ", ".join(f"{name} {fmt_score(value)}" for name, value in scores.items())


def score_level(score: float | None) -> str:
    """The score on its own scale ("lo", "mid", "hi"): apart from the contract's status."""
    if score is None:
        return ""
    return "hi" if score >= 0.8 else "mid" if score >= 0.5 else "lo"


def marks_legend(lang: str) -> str:
    """What a case's mark and its score's colour mean (under every case table)."""
    return t("view.marks_legend", lang, held=CASE_MARKS[PASSED], broke=CASE_MARKS[FAILED])


# --- text ---------------------------------------------------------------------


def report_text(report: CheckReport, width: int | None = None) -> str:
    """The report as text, wrapped to ``width`` columns with hanging indents.

    ``width=None`` is the terminal's width when stdout is a terminal, else no
    hard wrapping (a notebook, a pipe or a CI log wraps at its own width);
    ``width=0`` never wraps.  A value's own line breaks are indented under it
    either way (``terminal_text``).
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
    return "\n".join(lines)


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
    clean = clean or Redactor()
    mark = CASE_MARKS[PASSED if case.passed else FAILED]
    parts = [
        f"{mark} {t('col.case', lang)} {case.index}",
        f"{t('col.score', lang)} {fmt_score(case.score)}",
    ]
    if case.scores:
        parts.append(f"({named_scores_text(case.scores)})")
    parts += [
        f"{t('col.run_ms', lang)} {fmt_ms(case.run_ms, lang)}",
        f"{t('col.metric_ms', lang)} {fmt_ms(case.metric_ms, lang)}",
    ]
    if case.cost_usd is not None or case.run_ms is not None:
        parts.append(f"{t('col.cost', lang)} {fmt_usd(case.cost_usd, lang)}")
    if case.judge_cost_usd is not None:
        parts.append(f"{t('col.judge_cost', lang)} {fmt_usd(case.judge_cost_usd, lang)}")
    if case.cached:  # the time and cost above are the original run's (said once in full)
        parts.append(f"({t('value.cached_again' if cached_said else 'value.cached', lang)})")
    lines = fill_parts(parts, "  ", "      ", width)

    def field(label: str, text: object) -> list[str]:  # "label: text", "label : text" in French
        labelled = t("labelled", lang, label=label, text=text)
        return wrap_block(labelled, "      ", "          ", width)

    # Strings quoted, as in the HTML views: the text ["a", "b"] never reads as a list.
    lines += field(t("col.input", lang), cell(case.input, clean, quote=True))
    lines += field(t("col.output", lang), cell(case.output, clean, quote=True))
    if case.expected is not None:
        lines += field(t("col.expected", lang), cell(case.expected, clean, quote=True))
    if case.feedback is not None:
        lines += field(t("col.feedback", lang), bounded(case.feedback, lang, clean))
    if case.failed_step is not None:
        lines += field(failed_at_text(case, lang), error_text(case, lang, clean, same_as))
        if case.traceback and same_as is None:
            for line in traceback_text(case, lang, clean).splitlines():
                lines += wrap_block(line, "        ", "            ", width)
    return lines


# --- HTML ---------------------------------------------------------------------

# A status's colour class, without its view's prefix ("sk-" here, "skv-" in the live view).
STATUS_CLASS = {PASSED: "pass", FAILED: "fail", SKIPPED: "skip", ADVICE: "advice"}
# A status's name (a live step chip's tooltip).
STATUS_TITLES = {
    PASSED: "status.passed",
    FAILED: "status.failed",
    SKIPPED: "status.skipped",
    ADVICE: "status.advice",
}
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


def case_row_html(
    case: CaseResult,
    lang: str,
    clean: Clean | None = None,
    same_as: int | None = None,
    cached_said: bool = False,
) -> str:
    clean = clean or Redactor()
    named = named_scores_text(case.scores)
    if case.passed:
        held = esc(t("view.case_held", lang))
        verdict = f'<span class="sk-held">{CASE_MARKS[PASSED]} {held}</span>'
    else:
        verdict = (
            f'<span class="sk-fail">{CASE_MARKS[FAILED]} '
            f"{esc(failed_at_text(case, lang))}</span><br>"
            f"{esc(error_text(case, lang, clean, same_as))}"
        )
        if case.traceback and same_as is None:
            verdict += f"<pre>{esc(traceback_text(case, lang, clean))}</pre>"
    cost = esc(cost_text(case, lang))
    if case.cached:  # the time and cost shown are the original run's (said once in full)
        said = t("value.cached_again" if cached_said else "value.cached", lang)
        cost += f'<br><span class="sk-held">({esc(said)})</span>'
    level = score_level(case.score)
    score = esc(fmt_score(case.score))
    if level:
        score = f'<span class="sk-score-{level}">{score}</span>'
    mark_class = "sk-held" if case.passed else "sk-fail"
    cells = [
        f'<span class="{mark_class}">{CASE_MARKS[PASSED if case.passed else FAILED]}</span> '
        f"{case.index}",
        esc(cell(case.input, clean, quote=True)),
        esc(cell(case.output, clean, quote=True)),
        esc(cell(case.expected, clean, quote=True)) if case.expected is not None else "—",
        score,
        esc(named),
        esc(bounded(case.feedback, lang, clean)) if case.feedback is not None else "—",
        esc(fmt_ms(case.metric_ms, lang)),
        esc(fmt_ms(case.run_ms, lang)),
        cost,
        verdict,
    ]
    status = "passed" if case.passed else "failed"
    # data-label: the column's name, shown above the value when a narrow output stacks them.
    row = [f'<td data-col="case">{cells[0]}</td>']
    for name, value in zip(CASE_COLUMNS[1:], cells[1:], strict=True):
        label = esc(t(COLUMN_TITLES[name], lang))
        row.append(f'<td data-col="{name}" data-label="{label}">{value}</td>')
    return f'<tr data-case="{case.index}" data-status="{status}">{"".join(row)}</tr>'


CASE_COLUMNS = (
    "case",
    "input",
    "output",
    "expected",
    "score",
    "scores",
    "feedback",
    "metric_ms",
    "run_ms",
    "cost",
    "result",
)
# Each column's heading, by column name (the live view's columns too).
COLUMN_TITLES = {
    "case": "col.case",
    "input": "col.input",
    "output": "col.output",
    "expected": "col.expected",
    "score": "col.score",
    "scores": "col.scores",
    "feedback": "col.feedback",
    "metric_ms": "col.metric_ms",
    "run_ms": "col.run_ms",
    "cost": "col.cost",
    "judge_cost": "col.judge_cost",
    "result": "col.result",
}


def cases_table_html(cases: list[CaseResult], lang: str, clean: Clean | None = None) -> str:
    clean = clean or Redactor()
    head = "".join(f"<th>{esc(t(COLUMN_TITLES[name], lang))}</th>" for name in CASE_COLUMNS)
    same = SameErrors()
    rows = "".join(
        case_row_html(case, lang, clean, same.of(case), same.cached_said(case)) for case in cases
    )
    legend = f'<div class="sk-notes">{esc(marks_legend(lang))}</div>'
    return (
        f'<table class="sk-cases"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        + legend
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
