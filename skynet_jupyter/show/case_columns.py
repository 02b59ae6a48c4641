"""One table of a case's columns, and the three views that draw a case from it.

A case is shown three ways: as text (terminals, the CLI, ``print``), as static
HTML (nbconvert, GitHub, a saved notebook) and as the live widget's table.
Each column is written once, in ``COLUMNS``: its name, its heading's message
id, and how it shows in each view, side by side, so a new column or a changed
cell is one edit in one place.  Which columns a view shows, and in what order,
is a choice written below the table (``TEXT_HEAD``, ``TEXT_FIELDS``,
``STATIC_COLUMNS``, ``LIVE_COLUMNS``): the live view folds the named scores
into the score's cell and the times and cost into one "measures" cell, and
draws the result as a row under the case, because a live table stays narrow.

The first column names the row (the case's number and mark); every other cell
carries its column's heading (``data-label``), shown above the value when a
narrow output stacks the cells.  User text is always escaped (``esc``) and
redacted (``CaseRow.clean``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.contract import safe_value_repr
from ..core.report import FAILED, PASSED, CaseResult
from ..i18n import t
from .formats import fmt_ms, fmt_score, fmt_usd
from .fragments import (
    CASE_MARKS,
    CELL_CHARS,
    MARKS,
    REDACT_MARGIN,
    Clean,
    bounded,
    cell,
    cost_text,
    cut,
    error_text,
    esc,
    failed_at_text,
    named_scores_text,
    replayed_without_model,
    score_level,
    show_value,
    traceback_text,
)
from .terminal_text import fill_parts, wrap_block

FULL_CHARS = 20_000  # a value unfolded in a live cell
FEEDBACK_CHARS = 20_000  # the rest stays in the data (report.cases[i].feedback)
PART_CLASS = {"accuracy": "skv-acc", "speed": "skv-speed", "cost": "skv-cost"}

# Indents of a text field: its first line, then its continuation lines.
FIELD_INDENT = ("      ", "          ")
TRACEBACK_INDENT = ("        ", "            ")

TextBlock = tuple[str, str, str]  # a text, its first line's indent, its next lines' indent


@dataclass(frozen=True, slots=True)
class CaseRow:
    """One case as a view draws it, with what the rows of one table share."""

    case: CaseResult
    lang: str
    clean: Clean  # a redactor the rows of one drawing share (gathering secrets costs)
    same_as: int | None = None  # a case shown above that failed the same way
    cached_said: bool = False  # "cached" was said in full on an earlier row
    open_traceback: bool = True  # the live view folds tracebacks in a long list

    @property
    def mark(self) -> str:
        return CASE_MARKS[PASSED if self.case.passed else FAILED]

    @property
    def cached_note(self) -> str:
        """Why the time and cost are the original run's (said once in full): a replayed
        output whose case called no model is said to be one, never "cached"."""
        if replayed_without_model(self.case):
            said = "value.replayed_again" if self.cached_said else "value.replayed"
        else:
            said = "value.cached_again" if self.cached_said else "value.cached"
        return t(said, self.lang)

    def labelled(self, label: str, text: object) -> str:
        """ "label: text" ("label : text" in French)."""
        return t("labelled", self.lang, label=label, text=text)


Draw = Callable[[CaseRow], str]


@dataclass(frozen=True, slots=True)
class CaseColumn:
    """A column of the case table: its heading, and how each view shows it (None: not at all).

    ``text_head``: its parts on the text's head line; ``text_field``: its own lines
    under it; ``static``: the static table's cell; ``live``: the live table's cell
    (``live_class`` its CSS class) or, for the result, the row under the case.
    """

    name: str
    title: str
    text_head: Callable[[CaseRow], list[str]] | None = None
    text_field: Callable[[CaseRow], list[TextBlock]] | None = None
    static: Draw | None = None
    live: Draw | None = None
    live_class: str = ""


# --- text ---------------------------------------------------------------------------


def _field(row: CaseRow, label: str, text: object) -> list[TextBlock]:
    return [(row.labelled(label, text), *FIELD_INDENT)]


def _value_field(name: str, title: str) -> Callable[[CaseRow], list[TextBlock]]:
    # Strings quoted, as in the HTML views: the text ["a", "b"] never reads as a list.
    def field(row: CaseRow) -> list[TextBlock]:
        value = getattr(row.case, name)
        if name == "expected" and value is None:
            return []
        return _field(row, t(title, row.lang), cell(value, row.clean, quote=True))

    return field


def _feedback_field(row: CaseRow) -> list[TextBlock]:
    feedback = row.case.feedback
    if feedback is None:
        return []
    return _field(row, t("col.feedback", row.lang), bounded(feedback, row.lang, row.clean))


def _result_field(row: CaseRow) -> list[TextBlock]:
    case, lang, clean = row.case, row.lang, row.clean
    if case.failed_step is None:
        return []
    blocks = _field(row, failed_at_text(case, lang), error_text(case, lang, clean, row.same_as))
    if case.traceback and row.same_as is None:
        lines = traceback_text(case, lang, clean).splitlines()
        blocks += [(line, *TRACEBACK_INDENT) for line in lines]
    return blocks


def _cost_head(row: CaseRow) -> list[str]:
    case, lang = row.case, row.lang
    parts = []
    if case.cost_usd is not None or case.run_ms is not None:
        parts.append(f"{t('col.cost', lang)} {fmt_usd(case.cost_usd, lang)}")
    if case.judge_cost_usd is not None:
        parts.append(f"{t('col.judge_cost', lang)} {fmt_usd(case.judge_cost_usd, lang)}")
    if case.cached:  # the time and cost above are the original run's
        parts.append(f"({row.cached_note})")
    return parts


def _ms_head(name: str, title: str) -> Callable[[CaseRow], list[str]]:
    def head(row: CaseRow) -> list[str]:
        return [f"{t(title, row.lang)} {fmt_ms(getattr(row.case, name), row.lang)}"]

    return head


# --- static HTML --------------------------------------------------------------------


def _static_value(name: str) -> Draw:
    def draw(row: CaseRow) -> str:
        value = getattr(row.case, name)
        if name == "expected" and value is None:
            return "—"
        return breakable(cell(value, row.clean, quote=True))

    return draw


def _static_score(row: CaseRow) -> str:
    level = score_level(row.case.score)
    score = esc(fmt_score(row.case.score))
    return f'<span class="sk-score-{level}">{score}</span>' if level else score


def _static_feedback(row: CaseRow) -> str:
    feedback = row.case.feedback
    return "—" if feedback is None else breakable(bounded(feedback, row.lang, row.clean))


def _static_cost(row: CaseRow) -> str:
    cost = esc(cost_text(row.case, row.lang))
    if row.case.cached:  # the time and cost shown are the original run's
        cost += f'<br><span class="sk-held">({esc(row.cached_note)})</span>'
    return cost


def _static_result(row: CaseRow) -> str:
    case, lang, clean = row.case, row.lang, row.clean
    if case.passed:
        return f'<span class="sk-held">{row.mark} {esc(t("view.case_held", lang))}</span>'
    verdict = (
        f'<span class="sk-fail">{row.mark} {esc(failed_at_text(case, lang))}</span><br>'
        f"{breakable(error_text(case, lang, clean, row.same_as))}"
    )
    if case.traceback and row.same_as is None:
        verdict += f"<pre>{breakable(traceback_text(case, lang, clean))}</pre>"
    return verdict


# --- live HTML ----------------------------------------------------------------------


def _pretty(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, default=safe_value_repr)
    except Exception:  # circular, odd keys, a __repr__ that raises: never a broken view
        return safe_value_repr(value)


NONE_HTML = '<span class="skv-none">—</span>'


def value_html(value: Any, lang: str, clean: Clean) -> str:
    """A value cut to one short line; the value (up to FULL_CHARS) one click away."""
    text = show_value(value, quote=True)  # a string quoted: text never looks like a list
    if len(text) <= CELL_CHARS and " ".join(text.split()) == text:
        return kept_whole(breakable(clean(text)))
    flat = " ".join(clean(text[: CELL_CHARS + REDACT_MARGIN]).split())
    full = bounded(_pretty(value), lang, clean, FULL_CHARS)
    return (
        '<details class="skv-more"><summary>'
        f'<span class="skv-cut">{kept_whole(breakable(cut(flat, CELL_CHARS)))}</span></summary>'
        f'<div class="skv-full">{breakable(full)}</div></details>'
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


# A run of text with no space (a URL, a token, compact JSON, a long path) is as wide as
# the narrowest its column can be: at 1400 px with the file browser open, one pushed the
# "time and cost" column out of view.  A run longer than _LONG_RUN characters gets break
# opportunities (<wbr>): after its punctuation, before an opening bracket, and
# after _CHUNK_CHARS other characters; words and shorter runs stay whole (and searchable).
_LONG_RUN = 16
_CHUNK_CHARS = 15
_AFTER = re.escape("/,:;&?=.)]}_@|\\")
_BEFORE = re.escape("{[(<")
_RUN_PIECES = re.compile(
    rf"[{_BEFORE}]{{0,4}}(?:[^{_AFTER}{_BEFORE}]{{1,{_CHUNK_CHARS}}}[{_AFTER}]{{0,4}}|[{_AFTER}]{{1,4}})|."
)


def breakable(text: str) -> str:
    """``text`` escaped, each run of more than _LONG_RUN characters breakable (``<wbr>``)."""
    pieces = re.split(r"(\s+)", text)
    for i, piece in enumerate(pieces):
        if len(piece) > _LONG_RUN and not piece.isspace():
            pieces[i] = "<wbr>".join(esc(part) for part in _RUN_PIECES.findall(piece))
        else:
            pieces[i] = esc(piece)
    return "".join(pieces)


def mini_bar_html(value: float, name: str = "") -> str:
    """A small 0..1 bar (values outside are clamped; the number says the truth)."""
    width = max(0.0, min(1.0, value)) * 100
    color = f' class="{PART_CLASS[name]}"' if name in PART_CLASS else ""
    return f'<span class="skv-mini"><span{color} style="width:{width:.1f}%"></span></span>'


def named_scores_html(scores: dict[str, float]) -> str:
    rows = [
        f"<span>{esc(name)}</span>{mini_bar_html(value, name)}"
        f'<span class="skv-num" data-score="{esc(name)}">{fmt_score(value)}</span>'
        for name, value in scores.items()
    ]
    return f'<div class="skv-named">{"".join(rows)}</div>'


def score_class(score: float | None) -> str:
    """The score's colour on its own scale: low, middle or high (not the contract's status)."""
    level = score_level(score)
    return f"skv-score-{level}" if level else ""


def _missing(name: str, case: CaseResult) -> bool:
    """No expected value at all, or no output because the run failed: a dash, not "null"."""
    if name == "expected":
        return case.expected is None
    return name == "output" and case.output is None and case.failed_step is not None


def _live_value(name: str) -> Draw:
    def draw(row: CaseRow) -> str:
        if _missing(name, row.case):
            return NONE_HTML
        return value_html(getattr(row.case, name), row.lang, row.clean)

    return draw


def _live_score(row: CaseRow) -> str:
    case = row.case
    named = named_scores_html(case.scores) if case.scores else ""
    return (
        f'<div class="skv-num skv-score {score_class(case.score)}">{esc(fmt_score(case.score))}'
        f"</div>{named}"
    )


def _live_feedback(row: CaseRow) -> str:
    case, lang = row.case, row.lang
    if case.feedback is None:
        return NONE_HTML
    if not case.feedback:
        return f'<span class="skv-none">{esc(t("view.empty_feedback", lang))}</span>'
    text = bounded(case.feedback, lang, row.clean, FEEDBACK_CHARS)
    return f'<div class="skv-feedback" data-feedback="{case.index}">{breakable(text)}</div>'


def _live_measures(row: CaseRow) -> str:
    case, lang = row.case, row.lang
    lines = [
        (t("col.metric_ms", lang), fmt_ms(case.metric_ms, lang)),
        (t("col.run_ms", lang), fmt_ms(case.run_ms, lang)),
        (t("col.cost", lang), fmt_usd(case.cost_usd, lang)),
    ]
    if case.judge_cost_usd is not None:
        lines.append((t("col.judge_cost", lang), fmt_usd(case.judge_cost_usd, lang)))
    html = "<br>".join(f"<span>{esc(label)}</span> {esc(value)}" for label, value in lines)
    if case.cached:  # the original run's time and cost: said in full on the first such row
        html += f"<br><span>({esc(row.cached_note)})</span>"
    return f'<div class="skv-measures">{html}</div>'


def _live_result(row: CaseRow) -> str:
    case, lang, clean = row.case, row.lang, row.clean
    html = (
        f'<span class="skv-fail"><b>{MARKS[FAILED]} {esc(failed_at_text(case, lang))}'
        f"</b></span> "
        f'<span class="skv-error">{breakable(error_text(case, lang, clean, row.same_as))}</span>'
    )
    if case.traceback and row.same_as is None:
        traceback = traceback_text(case, lang, clean)
        html += (
            f'<details class="skv-tb-box"{" open" if row.open_traceback else ""}>'
            f"<summary>{esc(t('view.traceback', lang))}"
            f'</summary><pre class="skv-tb">{breakable(traceback)}</pre></details>'
        )
    return html


# --- the table ----------------------------------------------------------------------


def _case_head(row: CaseRow) -> list[str]:
    return [f"{row.mark} {t('col.case', row.lang)} {row.case.index}"]


def _static_case(row: CaseRow) -> str:
    mark_class = "sk-held" if row.case.passed else "sk-fail"
    return f'<span class="{mark_class}">{row.mark}</span> {row.case.index}'


def _live_case(row: CaseRow) -> str:
    mark_class = "skv-held" if row.case.passed else "skv-fail"
    return f'<span class="{mark_class}">{row.mark}</span> {row.case.index}'


def _score_head(row: CaseRow) -> list[str]:
    return [f"{t('col.score', row.lang)} {fmt_score(row.case.score)}"]


def _scores_head(row: CaseRow) -> list[str]:
    return [f"({named_scores_text(row.case.scores)})"] if row.case.scores else []


def _static_scores(row: CaseRow) -> str:
    return esc(named_scores_text(row.case.scores))


def _static_ms(name: str) -> Draw:
    def draw(row: CaseRow) -> str:
        return esc(fmt_ms(getattr(row.case, name), row.lang))

    return draw


_TABLE = (
    CaseColumn("case", "col.case", _case_head, static=_static_case, live=_live_case),
    *(
        CaseColumn(
            name,
            title,
            text_field=_value_field(name, title),
            static=_static_value(name),
            live=_live_value(name),
            live_class="skv-in" if name == "input" else "skv-val",
        )
        for name, title in (
            ("input", "col.input"),
            ("output", "col.output"),
            ("expected", "col.expected"),
        )
    ),
    CaseColumn(  # the live cell holds the named scores too
        "score",
        "col.score",
        _score_head,
        static=_static_score,
        live=_live_score,
        live_class="skv-nowrap",
    ),
    CaseColumn("scores", "col.scores", _scores_head, static=_static_scores),
    CaseColumn(
        "feedback",
        "col.feedback",
        text_field=_feedback_field,
        static=_static_feedback,
        live=_live_feedback,
        live_class="skv-fb",
    ),
    CaseColumn(
        "metric_ms",
        "col.metric_ms",
        _ms_head("metric_ms", "col.metric_ms"),
        static=_static_ms("metric_ms"),
    ),
    CaseColumn(
        "run_ms", "col.run_ms", _ms_head("run_ms", "col.run_ms"), static=_static_ms("run_ms")
    ),
    CaseColumn("cost", "col.cost", _cost_head, static=_static_cost),
    # The live view's times and cost, in one cell.
    CaseColumn("measures", "view.col_measures", live=_live_measures, live_class="skv-nowrap"),
    # The live view draws the result as a row under a failed case.
    CaseColumn(
        "result", "col.result", text_field=_result_field, static=_static_result, live=_live_result
    ),
)
COLUMNS = {column.name: column for column in _TABLE}

# Which columns each view shows, in its order.
TEXT_HEAD = ("case", "score", "scores", "run_ms", "metric_ms", "cost")
TEXT_FIELDS = ("input", "output", "expected", "feedback", "result")
STATIC_COLUMNS = tuple(name for name in COLUMNS if COLUMNS[name].static)
LIVE_COLUMNS = ("case", "input", "output", "expected", "score", "feedback", "measures")
LIVE_BELOW = "result"  # the row under a failed case


def column_title(name: str, lang: str) -> str:
    return t(COLUMNS[name].title, lang)


def _draw(draw: Draw | None, row: CaseRow) -> str:
    assert draw is not None, "a view shows only the columns that draw in it"
    return draw(row)


# --- the three views of a case ------------------------------------------------------


def case_lines(row: CaseRow, width: int | None) -> list[str]:
    """The case as text: a head line (mark, number, score, times), then one field per line."""
    parts = [part for name in TEXT_HEAD for part in _head_parts(name, row)]
    lines = fill_parts(parts, "  ", "      ", width)
    for name in TEXT_FIELDS:
        for text, first, rest in _field_blocks(name, row):
            lines += wrap_block(text, first, rest, width)
    return lines


def _head_parts(name: str, row: CaseRow) -> list[str]:
    head = COLUMNS[name].text_head
    return head(row) if head else []


def _field_blocks(name: str, row: CaseRow) -> list[TextBlock]:
    field = COLUMNS[name].text_field
    return field(row) if field else []


def static_head_cells(lang: str) -> str:
    return "".join(f"<th>{esc(column_title(name, lang))}</th>" for name in STATIC_COLUMNS)


def static_row_html(row: CaseRow) -> str:
    """The case's row in the static table (``data-label``: the heading, for stacked cells)."""
    first, *rest = STATIC_COLUMNS
    cells = [f'<td data-col="{first}">{_draw(COLUMNS[first].static, row)}</td>']
    for name in rest:
        label = esc(column_title(name, row.lang))
        value = _draw(COLUMNS[name].static, row)
        cells.append(f'<td data-col="{name}" data-label="{label}">{value}</td>')
    status = "passed" if row.case.passed else "failed"
    return f'<tr data-case="{row.case.index}" data-status="{status}">{"".join(cells)}</tr>'


def live_head_cells(lang: str) -> str:
    return "".join(f"<th>{esc(column_title(name, lang))}</th>" for name in LIVE_COLUMNS)


def live_row_html(row: CaseRow) -> str:
    """The case's live row, and the row under it with the failure when it failed.

    The first cell says whether the case kept the contract (a neutral mark when it
    did: the score, coloured on its own scale, says how good the output is)."""
    case, lang = row.case, row.lang
    status = PASSED if case.passed else FAILED
    title = t("view.case_held" if case.passed else "view.case_broke", lang)
    first, *rest = LIVE_COLUMNS
    cells = [
        f'<td class="skv-mark skv-nowrap" title="{esc(title)}" data-contract="{status}">'
        f"{_draw(COLUMNS[first].live, row)}</td>"
    ]
    for name in rest:
        column = COLUMNS[name]
        label = esc(column_title(name, lang))
        value = _draw(column.live, row)
        cells.append(f'<td class="{column.live_class}" data-label="{label}">{value}</td>')
    row_class = "" if case.passed else ' class="skv-has-sub"'
    html = f'<tr data-case="{case.index}" data-status="{status}"{row_class}>{"".join(cells)}</tr>'
    if not case.passed:
        below = _draw(COLUMNS[LIVE_BELOW].live, row)
        html += (
            f'<tr class="skv-sub" data-case-failure="{case.index}"><td></td>'
            f'<td colspan="{len(LIVE_COLUMNS) - 1}">{below}</td></tr>'
        )
    return html
