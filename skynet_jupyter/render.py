"""Reports as plain text (terminals, the CLI) and static HTML (nbconvert, GitHub).

Every piece of user text (data, outputs, feedback, errors) is escaped here:
views call ``esc`` and never build markup from raw strings.
"""

from __future__ import annotations

import html
import json
import math
from typing import Any

from .i18n import t
from .report import ADVICE, FAILED, PASSED, CaseResult, CheckReport

MARKS = {PASSED: "✓", FAILED: "✗", "skipped": "–", ADVICE: "!"}
CELL_CHARS = 80
SHOWN_CASES = 200  # a static report of a huge check stays readable (and small)


def esc(value: object) -> str:
    """HTML-escaped text of ``value`` (quotes included)."""
    return html.escape(value if isinstance(value, str) else str(value), quote=True)


def cut(text: str, limit: int = CELL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show_value(value: Any) -> str:
    """A compact, readable form of an input, output or expected value."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and len(value) == 1:
        (only,) = value.values()
        if isinstance(only, str | int | float):
            return f"{next(iter(value))}: {only}"
    try:
        return json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        return repr(value)


def fmt_ms(ms: float | None, lang: str) -> str:
    if ms is None:
        return t("value.not_measured", lang)
    return f"{ms:.1f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"


def fmt_usd(usd: float | None, lang: str) -> str:
    if usd is None:
        return t("value.not_measured", lang)
    return f"${usd:.6f}".rstrip("0").rstrip(".") if usd else "$0"


def cost_text(case: CaseResult, lang: str) -> str:
    """The run's cost, and the judge's apart when the metric called a model."""
    text = fmt_usd(case.cost_usd, lang)
    if case.judge_cost_usd is not None:
        text += f" · {t('col.judge_cost', lang)} {fmt_usd(case.judge_cost_usd, lang)}"
    return text


def fmt_score(score: float | None) -> str:
    return "—" if score is None else f"{score:.3g}"


def headline(report: CheckReport) -> str:
    lang = report.lang
    kind = "check" if report.kind == "check" else "eval"
    outcome = "passed" if report.passed else "failed"
    return t(f"report.{kind}_{outcome}", lang)


def summary_line(report: CheckReport) -> str:
    lang = report.lang
    parts = [
        t("report.metric", lang, name=report.metric_name),
        t("report.cases", lang, count=len(report.cases)),
    ]
    mean = report.mean_score
    if mean is not None:
        parts.append(f"{t('report.mean', lang)} {mean:.3f}")
    for name, value in report.mean_scores.items():
        parts.append(f"{name} {value:.3f}")
    return " · ".join(parts)


def interrupted_line(report: CheckReport) -> str:
    return t("report.interrupted", report.lang, done=len(report.cases), total=report.total_cases)


# --- text ---------------------------------------------------------------------


def report_text(report: CheckReport) -> str:
    lang = report.lang
    lines = [f"{headline(report)} — {summary_line(report)}"]
    if report.interrupted:
        lines.append(
            t("report.interrupted", lang, done=len(report.cases), total=report.total_cases)
        )
    for step in report.steps:
        lines.append(
            f"  {MARKS.get(step.status, '?')} {step.title}"
            + (f": {step.message}" if step.message else "")
        )
        if step.status in (FAILED, ADVICE) and step.hint:
            label = t("report.fix" if step.status == FAILED else "report.advice", lang)
            lines.append(f"      {label}: {step.hint}")
    cases = report.worst(20) if report.kind == "eval" else report.cases[:SHOWN_CASES]
    if report.kind == "eval" and report.cases:
        lines.append(t("report.worst", lang) + ":")
    for case in cases:
        lines.extend(case_text(case, lang))
    if len(report.cases) > len(cases):
        lines.append("  " + more_cases_line(report, len(cases)))
    return "\n".join(lines)


def more_cases_line(report: CheckReport, shown: int) -> str:
    return t("report.more_cases", report.lang, count=len(report.cases) - shown)


def case_text(case: CaseResult, lang: str) -> list[str]:
    mark = MARKS[PASSED if case.passed else FAILED]
    head = (
        f"  {mark} {t('col.case', lang)} {case.index}  {t('col.score', lang)} "
        f"{fmt_score(case.score)}"
    )
    if case.scores:
        head += "  (" + ", ".join(f"{k} {v:.3g}" for k, v in case.scores.items()) + ")"
    head += (
        f"  {t('col.run_ms', lang)} {fmt_ms(case.run_ms, lang)}"
        f"  {t('col.metric_ms', lang)} {fmt_ms(case.metric_ms, lang)}"
    )
    if case.cost_usd is not None or case.run_ms is not None:
        head += f"  {t('col.cost', lang)} {fmt_usd(case.cost_usd, lang)}"
    if case.judge_cost_usd is not None:
        head += f"  {t('col.judge_cost', lang)} {fmt_usd(case.judge_cost_usd, lang)}"
    lines = [head]
    lines.append(f"      {t('col.input', lang)}: {cut(show_value(case.input))}")
    lines.append(f"      {t('col.output', lang)}: {cut(show_value(case.output))}")
    if case.expected is not None:
        lines.append(f"      {t('col.expected', lang)}: {cut(show_value(case.expected))}")
    if case.feedback is not None:
        lines.append(f"      {t('col.feedback', lang)}: {case.feedback}")
    if case.failed_step is not None:
        lines.append(
            f"      {t('failed_at', lang, step=t('step.' + case.failed_step, lang))}: {case.error}"
        )
        if case.traceback:
            lines.extend("        " + line for line in case.traceback.splitlines())
    return lines


# --- HTML ---------------------------------------------------------------------

_STYLE = """<style>
.skynet-report{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:13px}
.skynet-report .sk-head{font-weight:600;font-size:14px;margin:4px 0}
.skynet-report .sk-pass{color:#1a7f37}.skynet-report .sk-fail{color:#cf222e}
.skynet-report .sk-skip{color:#6e7781}.skynet-report .sk-advice{color:#9a6700}
.skynet-report ul.sk-steps{list-style:none;padding-left:4px;margin:4px 0}
.skynet-report table{border-collapse:collapse;margin-top:6px}
.skynet-report th,.skynet-report td{border-bottom:1px solid #d0d7de;padding:3px 6px;
text-align:left;vertical-align:top;max-width:28em;white-space:pre-wrap;word-break:break-word}
.skynet-report .sk-hint{color:#57606a;margin-left:1.5em}
.skynet-report pre{margin:2px 0;font-size:11px;white-space:pre-wrap}
</style>"""

_CLASS = {PASSED: "sk-pass", FAILED: "sk-fail", "skipped": "sk-skip", ADVICE: "sk-advice"}


def steps_html(report: CheckReport) -> str:
    lang = report.lang
    items = []
    for step in report.steps:
        text = f"<b>{esc(step.title)}</b>"
        if step.message:
            text += f": {esc(step.message)}"
        if step.status in (FAILED, ADVICE) and step.hint:
            label = t("report.fix" if step.status == FAILED else "report.advice", lang)
            text += f'<div class="sk-hint">{esc(label)}: {esc(step.hint)}</div>'
        items.append(
            f'<li class="{_CLASS.get(step.status, "")}" data-step="{esc(step.id)}" '
            f'data-status="{esc(step.status)}">{MARKS.get(step.status, "?")} {text}</li>'
        )
    return f'<ul class="sk-steps">{"".join(items)}</ul>'


def case_row_html(case: CaseResult, lang: str) -> str:
    named = ", ".join(f"{k} {v:.3g}" for k, v in case.scores.items())
    if case.passed:
        verdict = f'<span class="sk-pass">{MARKS[PASSED]} {esc(t("status.passed", lang))}</span>'
    else:
        step = t("step." + case.failed_step, lang) if case.failed_step else ""
        verdict = (
            f'<span class="sk-fail">{MARKS[FAILED]} '
            f"{esc(t('failed_at', lang, step=step))}</span><br>{esc(case.error or '')}"
        )
        if case.traceback:
            verdict += f"<pre>{esc(case.traceback)}</pre>"
    cells = [
        str(case.index),
        esc(cut(show_value(case.input))),
        esc(cut(show_value(case.output))),
        esc(cut(show_value(case.expected))) if case.expected is not None else "—",
        esc(fmt_score(case.score)),
        esc(named),
        esc(case.feedback) if case.feedback is not None else "—",
        esc(fmt_ms(case.metric_ms, lang)),
        esc(fmt_ms(case.run_ms, lang)),
        esc(cost_text(case, lang)),
        verdict,
    ]
    status = "passed" if case.passed else "failed"
    return (
        f'<tr data-case="{case.index}" data-status="{status}">'
        + "".join(f"<td>{cell}</td>" for cell in cells)
        + "</tr>"
    )


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


def cases_table_html(cases: list[CaseResult], lang: str) -> str:
    head = "".join(f"<th>{esc(t('col.' + name, lang))}</th>" for name in CASE_COLUMNS)
    rows = "".join(case_row_html(case, lang) for case in cases)
    return f'<table class="sk-cases"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def report_html(report: CheckReport) -> str:
    lang = report.lang
    status = _CLASS[PASSED if report.passed else FAILED]
    parts = [
        _STYLE,
        '<div class="skynet-report">',
        f'<div class="sk-head {status}">{esc(headline(report))}</div>',
        f"<div>{esc(summary_line(report))}</div>",
    ]
    if report.interrupted:
        parts.append(f"<div class='sk-fail'>{esc(interrupted_line(report))}</div>")
    parts.append(steps_html(report))
    if report.cases:
        cases = report.worst(50) if report.kind == "eval" else report.cases[:SHOWN_CASES]
        if report.kind == "eval":
            parts.append(f"<div>{esc(t('report.worst', lang))}</div>")
        parts.append(cases_table_html(cases, lang))
        if len(report.cases) > len(cases):
            parts.append(f"<div>{esc(more_cases_line(report, len(cases)))}</div>")
    parts.append("</div>")
    return "".join(parts)


# --- JSON ---------------------------------------------------------------------


def json_ready(case: CaseResult) -> dict[str, Any]:
    """A case as plain JSON types (unknown objects become their repr)."""

    def clean(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, str | int | float | bool) or value is None:
            return value
        if isinstance(value, dict):
            return {str(k): clean(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [clean(v) for v in value]
        return repr(value)

    return {
        "case": case.index,
        "input": clean(case.input),
        "expected": clean(case.expected),
        "output": clean(case.output),
        "score": case.score,
        "scores": clean(case.scores),
        "feedback": case.feedback,
        "passed": case.passed,
        "failed_step": case.failed_step,
        "error": case.error,
        "traceback": case.traceback,
        "metric_ms": case.metric_ms,
        "run_ms": case.run_ms,
        "cost_usd": case.cost_usd,
        "judge_cost_usd": case.judge_cost_usd,
        "cached": case.cached,
    }
