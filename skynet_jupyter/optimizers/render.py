"""An optimizer run as plain text and as HTML: the one renderer of the static
report and of the live view (a wording change is one edit).

Every piece of user text (texts, inputs, outputs, feedback, errors) goes
through ``esc``; inputs and outputs are quoted as in the check view.  Numbers,
money and the stylesheet are ``show``'s, the same as every view's.
``word_diff`` shows a proposal against its parent.
"""

from __future__ import annotations

from typing import Any

from ..core.shows_itself import show_with
from ..i18n import t
from ..runlog.words import word_diff  # one word diff: the run log's, the optimizers', the race's
from ..show.formats import fmt_mean, fmt_score, fmt_usd
from ..show.render import esc, show_value
from ..show.render import head_html as drawn_head
from ..show.style import STYLE
from .report import Candidate, OptimizeReport, Proposal
from .tool_rules import STOPPED_BY_ERROR, past_max_cost

SHOWN_PROPOSALS = 12  # newest first; report.proposals has them all
OPEN_PROPOSALS = 2  # shown open; older ones fold to their one-line head
SHOWN_RECORDS = 5  # feedback records shown per proposal
TEXT_CHARS = 4_000


# --- words -------------------------------------------------------------------------


def _as_text(value: Any) -> str:
    if isinstance(value, dict):
        return "\n".join(f"[{name}]\n{text}" for name, text in value.items())
    return "" if value is None else str(value)


def diff_html(old: Any, new: Any) -> str:
    tags = {"-": "del", "+": "ins"}
    parts = []
    for op, text in word_diff(_as_text(old), _as_text(new)):
        if op == "=":
            parts.append(esc(text))
        else:
            parts.append(f"<{tags[op]}>{esc(text)}</{tags[op]}>")
    return f'<div class="sko-text sko-diff">{"".join(parts)}</div>'


def diff_text(old: Any, new: Any) -> str:
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "".join(marks[op].format(text) for op, text in word_diff(_as_text(old), _as_text(new)))


# --- small pieces ------------------------------------------------------------------------


def cost_line(report: OptimizeReport) -> str:
    lang, cost = report.lang, report.cost_usd
    line = t(
        "optimize.cost",
        lang,
        total=fmt_usd(cost.total, lang),
        task=fmt_usd(cost.task, lang),
        judge=fmt_usd(cost.judge, lang),
        reflection=fmt_usd(cost.reflection, lang),
    )
    if not cost.known:
        line += " " + t("optimize.cost_partial", lang)
    return line


def title(report: OptimizeReport) -> tuple[str, str]:
    """(the headline, its tone: run, up or flat)."""
    lang = report.lang
    if report.stop is not None:  # a key or model problem: said first, no verdict
        return report.stop.sentence, "flat"
    if not report.finished:
        return t("optimize.running", lang, name=report.metric_name), "run"
    if report.improved:
        best = report.best
        assert best is not None
        return (
            t(
                "optimize.improved",
                lang,
                seed=fmt_mean(report.seed_score),
                best=fmt_mean(report.best_score),
                candidate=best.index,
                val=report.val_size,
            ),
            "up",
        )
    return t(
        "optimize.not_improved", lang, seed=fmt_mean(report.seed_score), val=report.val_size
    ), "flat"


def status_line(report: OptimizeReport) -> str:
    """Calls against the budget, best so far, candidates and proposals, cost so far."""
    lang = report.lang
    parts = [calls_said(report.calls, report.budget, lang, why=True)]
    if report.candidates:
        best, seed = fmt_mean(report.best_score), fmt_mean(report.seed_score)
        parts.append(t("optimize.best_so_far", lang, best=best, seed=seed))
    candidates = t("optimize.candidate_count", lang, count=len(report.candidates))
    proposals = t("optimize.proposal_count", lang, count=len(report.proposals))
    parts.append(f"{candidates}, {proposals}")
    parts.append(cost_line(report))
    if report.max_cost is not None:
        parts.append(t("optimize.max_cost", lang, max_cost=fmt_usd(report.max_cost, lang)))
    return " · ".join(parts)


def calls_said(calls: int, budget: int, lang: str, *, why: bool = False) -> str:
    """The metric calls against the budget; past it, by how many, and with ``why`` (the
    report's line; a progress bar's label is short) why: GEPA checks its budget between
    iterations, so a run ends with the iteration that passed it."""
    if calls > budget:
        said = "optimize.calls_past_why" if why else "optimize.calls_past"
        return t(said, lang, calls=calls, budget=budget, past=calls - budget)
    return t("optimize.calls", lang, calls=calls, budget=budget)


# Why the run ended (OptimizeReport.stopped), as the report says it; a stop (a key
# problem) is the report's head instead.
_STOPPED = {
    "budget": "optimize.stopped_budget",
    "max_cost": "optimize.stopped_max_cost",
    "interrupted": "optimize.stopped_interrupted",
    "reflection_error": "optimize.stopped_reflection_error",
    STOPPED_BY_ERROR: "optimize.stopped_error",
}


def stopped_line(report: OptimizeReport) -> str:
    said = _STOPPED.get(report.stopped or "")
    if said is None or report.stop is not None:
        return ""
    lang = report.lang
    return t(
        said,
        lang,
        calls=report.calls,
        budget=report.budget,
        max_cost=fmt_usd(report.max_cost, lang) if report.max_cost is not None else "",
    )


def past_max_cost_line(report: OptimizeReport) -> str | None:
    """By how much the run went past max_cost, and why, when it did."""
    why = t("optimize.past_max_cost_why", report.lang)
    return past_max_cost(report.cost_usd.total, report.max_cost, report.lang, why)


def _parent_label(candidate: Candidate, lang: str) -> str:
    if candidate.parent is None:
        return t("optimize.seed", lang)
    return t("optimize.from", lang, parent=candidate.parent)


def _verdict(proposal: Proposal, lang: str) -> tuple[str, str]:
    if proposal.accepted:
        return t("optimize.kept", lang, candidate=proposal.candidate), "sko-kept"
    if proposal.accepted is False:
        return t("optimize.dropped", lang), "sko-dropped"
    if proposal.text is None:
        return t("optimize.writing", lang), "sko-note"
    return t("optimize.scoring", lang), "sko-note"


def _minibatch(proposal: Proposal, lang: str) -> str:
    before = sum(proposal.before)
    after = "…" if proposal.after is None else fmt_score(sum(proposal.after))
    return t(
        "optimize.minibatch", lang, before=fmt_score(before), after=after, size=len(proposal.before)
    )


# --- text --------------------------------------------------------------------------------


def report_text(report: OptimizeReport) -> str:
    lang = report.lang
    headline, _ = title(report)
    lines = [headline, "  " + status_line(report)]
    stopped = stopped_line(report)
    if stopped:
        lines.append("  " + stopped)
    past = past_max_cost_line(report)
    if past:
        lines.append("  " + past)
    if report.error:
        lines.append("  " + report.error)
    for note in report.advice:
        lines.append("  ! " + note)
    if report.candidates:
        lines.append(t("optimize.candidates", lang))
        best = report.best
        for c in report.candidates:
            mark = "  ← " + t("optimize.best", lang) if c is best else ""
            lines.append(f"  #{c.index:<3} {_parent_label(c, lang):<12} {fmt_mean(c.score)}{mark}")
    lines += proposals_text(report)
    if report.finished and report.improved:
        lines.append(t("optimize.best_text", lang))
        lines.append("  " + _as_text(report.best_artifact).replace("\n", "\n  "))
    return "\n".join(lines)


def proposals_text(report: OptimizeReport) -> list[str]:
    """The newest proposals, each with the feedback it read and its word diff, as lines."""
    lang = report.lang
    lines = []
    shown = list(reversed(report.proposals))[:SHOWN_PROPOSALS]
    if shown:
        lines.append(t("optimize.proposals", lang))
    for proposal in shown:
        verdict, _ = _verdict(proposal, lang)
        lines.append(
            "  "
            + t(
                "optimize.proposal_head", lang, iteration=proposal.iteration, parent=proposal.parent
            )
            + f": {_minibatch(proposal, lang)}; {verdict}"
        )
        for record in proposal.records[:SHOWN_RECORDS]:
            lines.append(f"    - {record.get('Feedback', '')}")
        if proposal.text is not None:
            lines.append(
                "    " + diff_text(proposal.parent_text, proposal.text).replace("\n", "\n    ")
            )
    return lines


# --- HTML ----------------------------------------------------------------------------------


def head_html(report: OptimizeReport) -> str:
    """The optimizer's head: what it found, how far it got, why it stopped, what to do."""
    headline, tone = title(report)
    lines = [("sub", status_line(report))]
    stopped = stopped_line(report)
    if stopped:
        lines.append(("note", stopped))
    past = past_max_cost_line(report)
    if past:
        lines.append(("note", past))
    if report.error:
        lines.append(("error", report.error))
    lines += [("advice", note) for note in report.advice]
    return drawn_head("sko", headline, f"sko-{tone}", lines, box="sko sko-head")


def candidates_html(report: OptimizeReport) -> str:
    lang = report.lang
    if not report.candidates:
        return ""
    best = report.best
    top = max(1.0, *(c.score or 0.0 for c in report.candidates))
    rows = []
    for c in report.candidates:
        width = 0.0 if c.score is None else max(0.0, min(1.0, c.score / top)) * 100
        mark = f' <span class="sko-best-mark">{esc(t("optimize.best", lang))}</span>'
        rows.append(
            f'<tr class="sko-cand{" sko-best" if c is best else ""}" data-candidate="{c.index}"'
            f' data-score="{c.score if c.score is not None else ""}">'
            f'<td class="sko-num">#{c.index}</td>'
            f"<td>{esc(_parent_label(c, lang))}</td>"
            f'<td class="sko-num"><span class="sko-bar"><span style="width:{width:.1f}%">'
            f'</span></span><span class="sko-score">{esc(fmt_mean(c.score))}</span>'
            f"{mark if c is best else ''}</td>"
            f'<td class="sko-num">{c.calls}</td></tr>'
        )
    head = "".join(
        f"<th>{esc(t(column, lang))}</th>"
        for column in (
            "optimize.col_candidate",
            "optimize.col_parent",
            "optimize.col_score",
            "optimize.col_calls",
        )
    )
    return (
        f'<div class="sko-h">{esc(t("optimize.candidates", lang))}</div>'
        f'<table class="sko-candidates"><tr>{head}</tr>{"".join(rows)}</table>'
    )


def _records_html(records: list[dict[str, Any]], lang: str) -> str:
    if not records:
        return ""
    head = "".join(
        f"<th>{esc(t(column, lang))}</th>"
        for column in (
            "optimize.col_inputs",
            "optimize.col_outputs",
            "optimize.col_feedback",
            "optimize.col_score",
        )
    )
    rows = []
    for record in records[:SHOWN_RECORDS]:
        score = record.get("Score")
        shown = fmt_score(score) if isinstance(score, int | float) else ""
        rows.append(
            "<tr>"
            # Strings quoted, as in the check view: the text ["a", "b"] never reads as a list.
            f"<td>{esc(show_value(record.get('Inputs'), quote=True))}</td>"
            f"<td>{esc(show_value(record.get('Generated Outputs'), quote=True))}</td>"
            f'<td><span class="sko-feedback">{esc(record.get("Feedback", ""))}</span></td>'
            f'<td class="sko-num">{esc(shown)}</td>'
            "</tr>"
        )
    more = ""
    if len(records) > SHOWN_RECORDS:
        left = t("optimize.more_records", lang, count=len(records) - SHOWN_RECORDS)
        more = f'<div class="sko-note">{esc(left)}</div>'
    return (
        f'<div class="sko-note">{esc(t("optimize.read", lang, count=len(records)))}</div>'
        f'<table class="sko-records"><tr>{head}</tr>{"".join(rows)}</table>{more}'
    )


def proposal_html(proposal: Proposal, lang: str, *, open: bool = True) -> str:
    verdict, tone = _verdict(proposal, lang)
    head = t("optimize.proposal_head", lang, iteration=proposal.iteration, parent=proposal.parent)
    diff = ""
    if proposal.text is not None:
        diff = f'<div class="sko-note">{esc(t("optimize.change", lang))}</div>' + diff_html(
            proposal.parent_text, proposal.text
        )
    return (
        f'<details class="sko-proposal" data-iteration="{proposal.iteration}"'
        f"{' open' if open else ''}>"
        f"<summary><b>{esc(head)}</b> · {esc(_minibatch(proposal, lang))} · "
        f'<span class="{tone}">{esc(verdict)}</span></summary>'
        f"{_records_html(proposal.records, lang)}{diff}</details>"
    )


def proposals_html(report: OptimizeReport) -> str:
    lang = report.lang
    if not report.proposals:
        return ""
    shown = list(reversed(report.proposals))[:SHOWN_PROPOSALS]
    more = ""
    if len(report.proposals) > len(shown):
        left = t("optimize.more_proposals", lang, count=len(report.proposals) - len(shown))
        more = f'<div class="sko-note">{esc(left)}</div>'
    return (
        f'<div class="sko-h">{esc(t("optimize.proposals", lang))}</div>'
        + "".join(
            proposal_html(p, lang, open=number < OPEN_PROPOSALS) for number, p in enumerate(shown)
        )
        + more
    )


def best_html(report: OptimizeReport) -> str:
    if not (report.finished and report.improved):
        return ""
    text = _as_text(report.best_artifact)
    if len(text) > TEXT_CHARS:
        text = text[: TEXT_CHARS - 1] + "…"
    return (
        f'<div class="sko-h">{esc(t("optimize.best_text", report.lang))}</div>'
        f'<div class="sko-text sko-best-text">{esc(text)}</div>'
    )


def body_html(report: OptimizeReport, *, styled: bool = True) -> str:
    """Everything under the head: candidates, proposals, the best text.

    ``styled=False`` leaves the stylesheet out, where the head above carries it.
    """
    inner = candidates_html(report) + proposals_html(report) + best_html(report)
    if not inner:
        return ""
    return f'{STYLE if styled else ""}<div class="sko sko-body">{inner}</div>'


def report_html(report: OptimizeReport) -> str:
    body = body_html(report, styled=False)  # the head carries the stylesheet, once
    return f'<div class="skynet-optimize">{head_html(report)}{body}</div>'


# The report shows itself through these (core/shows_itself.py): it never imports this module.
show_with(OptimizeReport, text=report_text, html=report_html)
