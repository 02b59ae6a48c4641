"""An optimizer run as plain text and as HTML: the one renderer of the static
report and of the live view (a wording change is one edit).

Every piece of user text (texts, inputs, outputs, feedback, errors) goes
through ``esc``.  ``word_diff`` shows a proposal against its parent.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from .i18n import t
from .render import esc, fmt_usd, show_value

if TYPE_CHECKING:
    from .optimize import Candidate, OptimizeReport, Proposal

SHOWN_PROPOSALS = 12  # newest first; report.proposals has them all
OPEN_PROPOSALS = 2  # shown open; older ones fold to their one-line head
SHOWN_RECORDS = 5  # feedback records shown per proposal
TEXT_CHARS = 4_000
_TOKENS = re.compile(r"\w+|\s+|[^\w\s]+")  # words, spaces, punctuation

STYLE = """<style>
.sko{font-family:var(--jp-ui-font-family,system-ui,-apple-system,"Segoe UI",sans-serif);
font-size:13px;line-height:1.45;color:var(--jp-ui-font-color1,#1f2328)}
.sko .sko-title{font-size:15px;font-weight:600;margin:2px 0}
.sko .sko-up{color:#1a7f37}.sko .sko-flat{color:#9a6700}.sko .sko-run{color:#0969da}
.sko .sko-sub{color:var(--jp-ui-font-color2,#57606a);margin-bottom:6px}
.sko .sko-h{font-weight:600;font-size:13.5px;margin:10px 0 3px}
.sko table{border-collapse:collapse}
.sko th{font-weight:600;text-align:left;font-size:12px;color:var(--jp-ui-font-color2,#57606a);
border-bottom:2px solid var(--jp-border-color2,#d0d7de);padding:3px 8px}
.sko td{border-bottom:1px solid var(--jp-border-color2,#d0d7de);padding:4px 8px;
vertical-align:top;text-align:left}
.sko .sko-num{font-variant-numeric:tabular-nums;white-space:nowrap}
.sko .sko-bar{display:inline-block;width:120px;height:9px;
background:var(--jp-layout-color3,#eaeef2);border-radius:4px;overflow:hidden;vertical-align:middle;margin-right:6px}
.sko .sko-bar>span{display:block;height:100%;background:#0969da}
.sko tr.sko-best td{background:rgba(45,164,78,.12)}
.sko .sko-best-mark{color:#1a7f37;font-weight:600}
.sko .sko-text{font-family:var(--jp-code-font-family,monospace);font-size:12px;white-space:pre-wrap;
overflow-wrap:anywhere;max-width:60em;max-height:18em;overflow:auto;
background:var(--jp-layout-color2,#f6f8fa);border-radius:4px;padding:4px 8px;margin:3px 0}
.sko del{background:#ffebe9;color:#82071e;text-decoration:line-through}
.sko ins{background:#dafbe1;color:#116329;text-decoration:none}
.sko .sko-proposal{border:1px solid var(--jp-border-color2,#d0d7de);border-radius:6px;
padding:5px 9px;margin:6px 0;max-width:70em}
.sko details.sko-proposal>summary{cursor:pointer}
.sko .sko-kept{color:#1a7f37;font-weight:600}.sko .sko-dropped{color:#6e7781;font-weight:600}
.sko .sko-records td{font-size:12px;max-width:28em;overflow-wrap:anywhere;white-space:pre-wrap}
.sko .sko-feedback{background:var(--jp-layout-color2,#f6f8fa);border-radius:4px;padding:2px 5px}
.sko .sko-advice{border-left:4px solid #d4a72c;background:#fff8c5;color:#1f2328;padding:6px 10px;
margin:6px 0;border-radius:0 6px 6px 0;white-space:pre-wrap}
.sko .sko-error{border-left:4px solid #cf222e;background:#ffebe9;color:#1f2328;padding:6px 10px;
margin:6px 0;border-radius:0 6px 6px 0;white-space:pre-wrap}
.sko .sko-note{color:var(--jp-ui-font-color2,#57606a);font-size:12px}
</style>"""


# --- words -------------------------------------------------------------------------


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """``new`` against ``old`` word by word: ``("=", text)``, ``("-", text)``, ``("+", text)``."""
    before, after = _TOKENS.findall(old), _TOKENS.findall(new)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    pieces: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(("=", "".join(before[i1:i2])))
            continue
        if op in ("delete", "replace"):
            pieces.append(("-", "".join(before[i1:i2])))
        if op in ("insert", "replace"):
            pieces.append(("+", "".join(after[j1:j2])))
    return pieces


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


def fmt(score: float | None) -> str:
    return "—" if score is None else f"{score:.3f}"


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
    if not report.finished:
        return t("optimize.running", lang, name=report.metric_name), "run"
    if report.improved:
        best = report.best
        assert best is not None
        return (
            t(
                "optimize.improved",
                lang,
                seed=fmt(report.seed_score),
                best=fmt(report.best_score),
                candidate=best.index,
                val=report.val_size,
            ),
            "up",
        )
    return t(
        "optimize.not_improved", lang, seed=fmt(report.seed_score), val=report.val_size
    ), "flat"


def status_line(report: OptimizeReport) -> str:
    """Calls against the budget, best so far, candidates and proposals, cost so far."""
    lang = report.lang
    parts = [t("optimize.calls", lang, calls=report.calls, budget=report.budget)]
    if report.candidates:
        parts.append(
            t(
                "optimize.best_so_far",
                lang,
                best=fmt(report.best_score),
                seed=fmt(report.seed_score),
            )
        )
    parts.append(
        t(
            "optimize.counts",
            lang,
            candidates=len(report.candidates),
            proposals=len(report.proposals),
        )
    )
    parts.append(cost_line(report))
    if report.max_cost is not None:
        parts.append(t("optimize.max_cost", lang, max_cost=fmt_usd(report.max_cost, lang)))
    return " · ".join(parts)


def stopped_line(report: OptimizeReport) -> str:
    if report.stopped is None:
        return ""
    lang = report.lang
    return t(
        f"optimize.stopped_{report.stopped}",
        lang,
        calls=report.calls,
        budget=report.budget,
        max_cost=fmt_usd(report.max_cost, lang) if report.max_cost is not None else "",
    )


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
    after = "…" if proposal.after is None else f"{sum(proposal.after):.3g}"
    return t(
        "optimize.minibatch", lang, before=f"{before:.3g}", after=after, size=len(proposal.before)
    )


# --- text --------------------------------------------------------------------------------


def report_text(report: OptimizeReport) -> str:
    lang = report.lang
    headline, _ = title(report)
    lines = [headline, "  " + status_line(report)]
    stopped = stopped_line(report)
    if stopped:
        lines.append("  " + stopped)
    if report.error:
        lines.append("  " + report.error)
    for note in report.advice:
        lines.append("  ! " + note)
    if report.candidates:
        lines.append(t("optimize.candidates", lang))
        best = report.best
        for c in report.candidates:
            mark = "  ← " + t("optimize.best", lang) if c is best else ""
            lines.append(f"  #{c.index:<3} {_parent_label(c, lang):<12} {fmt(c.score)}{mark}")
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
    if report.finished and report.improved:
        lines.append(t("optimize.best_text", lang))
        lines.append("  " + _as_text(report.best_artifact).replace("\n", "\n  "))
    return "\n".join(lines)


# --- HTML ----------------------------------------------------------------------------------


def head_html(report: OptimizeReport) -> str:
    headline, tone = title(report)
    parts = [
        STYLE,
        '<div class="sko sko-head">',
        f'<div class="sko-title sko-{tone}">{esc(headline)}</div>',
        f'<div class="sko-sub">{esc(status_line(report))}</div>',
    ]
    stopped = stopped_line(report)
    if stopped:
        parts.append(f'<div class="sko-note">{esc(stopped)}</div>')
    if report.error:
        parts.append(f'<div class="sko-error">{esc(report.error)}</div>')
    for note in report.advice:
        parts.append(f'<div class="sko-advice">{esc(note)}</div>')
    parts.append("</div>")
    return "".join(parts)


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
            f'</span></span><span class="sko-score">{esc(fmt(c.score))}</span>'
            f"{mark if c is best else ''}</td>"
            f'<td class="sko-num">{c.calls}</td></tr>'
        )
    head = "".join(
        f"<th>{esc(t(f'optimize.col_{name}', lang))}</th>"
        for name in ("candidate", "parent", "score", "calls")
    )
    return (
        f'<div class="sko-h">{esc(t("optimize.candidates", lang))}</div>'
        f'<table class="sko-candidates"><tr>{head}</tr>{"".join(rows)}</table>'
    )


def _records_html(records: list[dict[str, Any]], lang: str) -> str:
    if not records:
        return ""
    head = "".join(
        f"<th>{esc(t(f'optimize.col_{name}', lang))}</th>"
        for name in ("inputs", "outputs", "feedback", "score")
    )
    rows = []
    for record in records[:SHOWN_RECORDS]:
        score = record.get("Score")
        rows.append(
            "<tr>"
            f"<td>{esc(show_value(record.get('Inputs')))}</td>"
            f"<td>{esc(show_value(record.get('Generated Outputs')))}</td>"
            f'<td><span class="sko-feedback">{esc(record.get("Feedback", ""))}</span></td>'
            f'<td class="sko-num">{esc(fmt(score) if isinstance(score, int | float) else "")}</td>'
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


def body_html(report: OptimizeReport) -> str:
    """Everything under the head: candidates, proposals, the best text."""
    inner = candidates_html(report) + proposals_html(report) + best_html(report)
    return f'{STYLE}<div class="sko sko-body">{inner}</div>' if inner else ""


def report_html(report: OptimizeReport) -> str:
    return f'<div class="skynet-optimize">{head_html(report)}{body_html(report)}</div>'
