"""Shared pieces of the quality reports' text and static HTML.

Every piece of user text (outputs, feedback, labels, names) goes through
``esc``; callers pass plain strings and get escaped markup back.  Inputs,
outputs and labels are quoted as the check view quotes them (``value_cell``);
numbers, money and the stylesheet are ``show``'s, the same as every view's.

A report describes itself once (``QualityReport``: a title, a subtitle, a
status and the blocks of its body: ``Note``, ``Line``, ``Table``); its text and
its HTML are both made from that description.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from ..core.inert_text import shown
from ..core.report import RunStop
from ..core.shows_itself import ShowsItself
from ..i18n import t
from ..show.case_columns import breakable
from ..show.formats import fmt_usd
from ..show.render import cut, esc, head_html, show_value
from ..show.style import STYLE

CELL_CHARS = 80


def judge_cost_text(lang: str, cost: float | None, unpriced: int) -> str:
    """The judge's cost ($0 when it made no call), saying how many calls had no known price."""
    text = t("quality.judge_cost", lang, cost=fmt_usd(cost or 0.0, lang))
    if unpriced:
        text += " " + t("quality.judge_unpriced", lang, count=unpriced)
    return text


def short(value: Any, limit: int = CELL_CHARS) -> str:
    """A compact, one-cell form of a text (feedback, an error) or a value (not escaped)."""
    return cut(show_value(value), limit)


def value_cell(value: Any, limit: int = CELL_CHARS) -> str:
    """An input, output or label for one cell, a string quoted as the check view quotes it.

    The text ``["a", "b"]`` never reads as the list it is not (not escaped).
    """
    return cut(show_value(value, quote=True), limit)


def box_html(text: str, kind: str = "", title: str = "") -> str:
    """A callout: ``kind`` is "" (a problem), "note" or "ok"."""
    css = f"skq-box skq-{kind}" if kind else "skq-box"
    bold = f"<b>{esc(title)}</b> " if title else ""
    return f'<div class="{css}">{bold}{esc(text)}</div>'


def table_html(
    headers: Sequence[str],
    rows: Sequence[Sequence[tuple[str, str]]],
    attrs: str = "",
    wrapped: Collection[int] = (),
) -> str:
    """A table from plain header texts and (text, css class) cells; everything escaped.

    The cells of the ``wrapped`` columns (inputs, outputs) are escaped by the check view's
    ``breakable``: a long run with no space wraps instead of widening the table.
    """
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)

    def td(column: int, text: str, css: str) -> str:
        inner = breakable(text) if column in wrapped else esc(text)
        return f'<td class="{esc(css)}">{inner}</td>' if css else f"<td>{inner}</td>"

    body = "".join(
        "<tr>" + "".join(td(column, text, css) for column, (text, css) in enumerate(row)) + "</tr>"
        for row in rows
    )
    return f"<table {attrs}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def wrap_html(parts: Sequence[str], kind: str) -> str:
    return f'{STYLE}<div class="skq skq-{esc(kind)}">{"".join(parts)}</div>'


def table_text(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Aligned plain-text table lines (cells cut to keep lines readable)."""
    cells = [[cut(str(c).replace("\n", " "), 40) for c in row] for row in rows]
    # A list, not max(h, *cells): an interrupted report may have no row at all.
    widths = [max([len(str(h)), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    for row in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return lines


def case_frame(rows: dict[int, dict[str, Any]], columns: list[str] | None = None) -> Any:
    """A pandas DataFrame of ``rows`` (case -> column -> value), indexed by case."""
    import pandas as pd  # imported when a frame is asked for, not with the package

    frame = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    frame.index.name = "case"
    return frame


def labels(lang: str, *message_ids: str) -> list[str]:
    """Column headers in ``lang``, from their message ids."""
    return [t(message_id, lang) for message_id in message_ids]


# --- the blocks of a report's body: each is a few lines of text and a piece of HTML -----


class Block(Protocol):
    """A part of a report's body: its lines in the text, its piece of the HTML."""

    def lines(self) -> list[str]: ...

    def html(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Note:
    """A sentence: a line of the text after ``mark``, a box of ``kind`` in the HTML.

    ``kind`` is ``box_html``'s: "" (a problem), "note" or "ok".
    """

    text: str
    kind: str = "note"
    mark: str = "  ! "

    def lines(self) -> list[str]:
        return [self.mark + self.text]

    def html(self) -> str:
        return box_html(self.text, self.kind)


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the text; in the HTML a ``<div>`` of class ``css`` ("": none), None: no HTML."""

    text: str
    css: str | None = ""

    def lines(self) -> list[str]:
        return [self.text]

    def html(self) -> str:
        if self.css is None:
            return ""
        attrs = f' class="{esc(self.css)}"' if self.css else ""
        return f"<div{attrs}>{esc(self.text)}</div>"


@dataclass(frozen=True, slots=True)
class Table:
    """Rows of (text, css class) cells: aligned lines of text, a ``<table>`` of class ``css``."""

    headers: Sequence[str]
    rows: Sequence[Sequence[tuple[str, str]]]
    css: str

    def lines(self) -> list[str]:
        return table_text(self.headers, [[text for text, _ in row] for row in self.rows])

    def html(self) -> str:
        return table_html(self.headers, self.rows, f'class="{esc(self.css)}"')


def unscored_note(lang: str, unscored: Sequence[int], total: int, error: str | None) -> Note | None:
    """What a report says first when some of its ``total`` cases did not score (else None).

    ``error`` is the first such case's: a judge that was never configured, or always
    raises, must not read as a steady or ungameable metric.
    """
    if not unscored:
        return None
    count, case, said = len(unscored), unscored[0], short(error or "", 300)
    if count >= total:
        text = t("quality.unscored_all", lang, count=count, case=case, error=said)
    else:
        text = t("quality.unscored_some", lang, count=count, total=total, case=case, error=said)
    return Note(text, "")


class QualityReport(ShowsItself):
    """Mixin of the quality reports: each shows itself as its text and HTML.

    Both are made from the report's one description: ``_title()``, the subtitle's
    ``_facts()`` (the judge's cost follows them), ``_status()`` (the title's colour:
    "good", "warn" or "bad") and ``_body()``, its blocks in order.  Shown once in a
    magic's cell (its live view) is the notebook's business
    (``notebook/cell_display.py``), as for every report.
    """

    # Fields of every report.  Each declares its own: as the last of its fields they keep
    # their place in its __init__ (a dataclass base's fields would come first).
    lang: str
    judge_cost_usd: float | None
    judge_unpriced: int  # cases whose judge calls had no known price
    interrupted: bool
    elapsed_s: float
    stop: RunStop | None  # a pass stopped for a configuration problem: said first
    _page: ClassVar[str]  # the report's kind, a class of its HTML ("probe", ...)

    # What each report defines (abstract for the type checker; no ABCMeta on the reports).
    @abstractmethod
    def _title(self) -> str: ...

    @abstractmethod
    def _facts(self) -> list[str]: ...  # the subtitle's parts before the judge's cost

    @abstractmethod
    def _status(self) -> str: ...

    @abstractmethod
    def _body(self) -> list[Block]: ...

    def _subtitle(self) -> str:
        cost = judge_cost_text(self.lang, self.judge_cost_usd, self.judge_unpriced)
        return " · ".join([*self._facts(), cost])

    def _blocks(self) -> list[Block]:
        """The body; only the sentence of a configuration problem that stopped the
        measurement, when one did (what came before it measures nothing worth a verdict)."""
        if self.stop is not None:
            return [Note(self.stop.sentence, "")]
        return self._body()

    def text(self) -> str:
        lines = [self._title(), self._subtitle()]
        for block in self._blocks():
            lines += block.lines()
        # A model's terminal escape in an output or a feedback is shown, never obeyed, as in
        # every report's text (the notebook's plain-text output reads this too).
        return shown("\n".join(lines))

    def html(self) -> str:
        status = "bad" if self.stop is not None else self._status()
        tone = f"skq-{esc(status)}"
        parts = [head_html("skq", self._title(), tone, [("sub", self._subtitle())])]
        parts += [block.html() for block in self._blocks()]
        return wrap_html(parts, self._page)

    def _text(self) -> str:  # str() and the reprs (ShowsItself) are the public text()/html()
        return self.text()

    def _html(self) -> str:
        return self.html()
