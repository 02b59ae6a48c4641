"""The report's fragments, once: every view (text, static HTML, live widgets) says them.

The headline, the summary line (``summary_text``), the "interrupted" line, a
step's fix (``step_hint``), a case's "failed at" line, error and traceback, its
named scores and score level, the "more cases" line, the marks and their legend,
and how a value reads (``show_value``; numbers and money are ``formats``', the
stylesheet is ``style``'s).  One wording change is one edit.

Every piece of user text (data, outputs, feedback, errors) is escaped by the
views through ``esc``; shown text is also redacted (``Clean``: no configured
secret leaves in a report) and bounded per value (``bounded``, ``cell``: a 10 MB
feedback stays in the data, not in the page); a value whose ``__repr__`` raises
shows as a placeholder.  Other layers import these from ``show.render``, their
public home; inside ``show`` the case columns (``case_columns.py``) and the
static report (``render.py``) import them from here.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from typing import Any

from ..core.contract import safe_value_repr, step_title
from ..core.json_export import safe_str
from ..core.report import ADVICE, FAILED, PASSED, SKIPPED, CaseResult, CheckReport, Step
from ..i18n import t
from .formats import fmt_mean, fmt_score, fmt_usd
from .style import STYLE

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
    cached: int = 0,
    replayed: int = 0,
) -> str:
    """The summary line from its numbers: the static report's and the live view's.

    ``scored``: how many of the ``count`` cases have a score (None: all of them);
    ``cached``: how many came from the run cache or a replay (all of them is said in the
    header); ``replayed``: how many of those are a replayed output whose case called no
    model (:func:`replayed_without_model`): all of them is said as what it is.
    """
    parts = [t("report.metric", lang, name=metric_name), t("report.cases", lang, count=count)]
    parts += means_parts(lang, mean, means, scored, count)
    if retries:  # the provider held the run back: said, so slow cases are not a mystery
        parts.append(t("view.retries", lang, count=retries))
    if stand_ins:  # offline answers are never mistaken for a real model's
        parts.append(t("report.stand_in_calls", lang, count=stand_ins))
    if count and replayed >= count:  # no model anywhere: "from the run cache" would be untrue
        parts.append(t("report.all_replayed", lang))
    elif count and cached >= count:  # nothing was asked now: the header says it, not each row
        parts.append(t("report.all_cached", lang))
    return " · ".join(parts)


def replayed_without_model(case: CaseResult) -> bool:
    """A cached case that called no model (neither its run nor its judge): its output is the
    last check's, replayed (a case is cached otherwise only when its model calls were
    answered from the run cache), and there was no model to ask."""
    return case.cached and not case.model_calls


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
        sum(1 for case in report.cases if case.cached),
        sum(1 for case in report.cases if replayed_without_model(case)),
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


# A status's colour class, without its view's prefix ("sk-" here, "skv-" in the live view).
STATUS_CLASS = {PASSED: "pass", FAILED: "fail", SKIPPED: "skip", ADVICE: "advice"}
# A status's name (a live step chip's tooltip).
STATUS_TITLES = {
    PASSED: "status.passed",
    FAILED: "status.failed",
    SKIPPED: "status.skipped",
    ADVICE: "status.advice",
}


def head_html(
    prefix: str,
    title: str,
    tone: str,
    lines: Sequence[tuple[str, str]] = (),
    *,
    box: str = "",
    after: str = "",
) -> str:
    """The head every view draws: its title in a tone, then its lines (the one drawing).

    ``prefix`` is the view's CSS prefix (``skv`` live, ``sko`` optimizer and alignment,
    ``skq`` quality); each line is (kind, text), its class ``{prefix}-{kind}``
    (``sub``, ``note``, ``error``, ``advice``).  ``box``: the classes of the block
    that holds the head, with the stylesheet before it (a head drawn alone); none for
    a head inside a page that has both.  ``after``: markup that ends the head (the
    live view's step chips), already escaped.
    """
    parts = [f'<div class="{prefix}-title {tone}">{esc(title)}</div>']
    parts += [f'<div class="{prefix}-{kind}">{esc(text)}</div>' for kind, text in lines]
    parts.append(after)
    inner = "".join(parts)
    return f'{STYLE}<div class="{box}">{inner}</div>' if box else inner
