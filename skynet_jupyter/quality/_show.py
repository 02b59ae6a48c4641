"""Shared pieces of the quality reports' text and static HTML.

Every piece of user text (outputs, feedback, labels, names) goes through
``esc``; callers pass plain strings and get escaped markup back.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._shows import ShowsItself
from ..render import cut, esc, show_value

STYLE = """<style>
.skq{font-family:var(--jp-ui-font-family,system-ui,-apple-system,"Segoe UI",sans-serif);
font-size:13px;line-height:1.45;color:var(--jp-ui-font-color1,#1f2328)}
.skq .skq-title{font-size:15px;font-weight:600;margin:2px 0}
.skq .skq-sub{color:var(--jp-ui-font-color2,#57606a);margin-bottom:6px}
.skq .skq-good{color:#1a7f37}.skq .skq-bad{color:#cf222e}.skq .skq-warn{color:#9a6700}
.skq .skq-box{border-left:4px solid #cf222e;background:#ffebe9;color:#1f2328;padding:6px 10px;
margin:6px 0;border-radius:0 6px 6px 0;white-space:pre-wrap;word-break:break-word}
.skq .skq-box.skq-note{border-color:#d4a72c;background:#fff8c5}
.skq .skq-box.skq-ok{border-color:#1a7f37;background:#dafbe1}
.skq .skq-box b{font-weight:600}
.skq table{border-collapse:collapse;margin:6px 0}
.skq th{font-weight:600;text-align:left;font-size:12px;color:var(--jp-ui-font-color2,#57606a);
border-bottom:2px solid var(--jp-border-color2,#d0d7de);padding:3px 8px;white-space:nowrap}
.skq td{border-bottom:1px solid var(--jp-border-color2,#d0d7de);padding:3px 8px;
vertical-align:top;text-align:left;max-width:28em;overflow-wrap:anywhere;white-space:pre-wrap}
.skq td.skq-num{font-variant-numeric:tabular-nums;white-space:nowrap;text-align:right}
.skq td.skq-flag{background:#ffebe9;color:#cf222e;font-weight:600}
.skq td.skq-err{color:#8c959f}
.skq .skq-small{font-size:12px;color:var(--jp-ui-font-color2,#57606a)}
</style>"""

CELL_CHARS = 80


def number(value: float | None, digits: int = 3) -> str:
    """A number for a table ("—" when missing or not a number)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}g}"


def money(value: float | None) -> str:
    if value is None:
        return "$0"
    return f"${value:.6f}".rstrip("0").rstrip(".") if value else "$0"


def judge_cost_text(lang: str, cost: float | None, unpriced: int) -> str:
    """The judge's cost, saying how many cases' judge calls had no known price."""
    from ..i18n import t

    text = t("quality.judge_cost", lang, cost=money(cost))
    if unpriced:
        text += " " + t("quality.judge_unpriced", lang, count=unpriced)
    return text


def short(value: Any, limit: int = CELL_CHARS) -> str:
    """A compact, one-cell form of an input, output or label (not escaped)."""
    return cut(show_value(value), limit)


def head_html(title: str, subtitle: str, status: str) -> str:
    return (
        f'<div class="skq-title skq-{esc(status)}">{esc(title)}</div>'
        f'<div class="skq-sub">{esc(subtitle)}</div>'
    )


def box_html(text: str, kind: str = "", title: str = "") -> str:
    """A callout: ``kind`` is "" (a problem), "note" or "ok"."""
    css = f"skq-box skq-{kind}" if kind else "skq-box"
    bold = f"<b>{esc(title)}</b> " if title else ""
    return f'<div class="{css}">{bold}{esc(text)}</div>'


def table_html(
    headers: Sequence[str], rows: Sequence[Sequence[tuple[str, str]]], attrs: str = ""
) -> str:
    """A table from plain header texts and (text, css class) cells; everything escaped."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{esc(css)}">{esc(text)}</td>' if css else f"<td>{esc(text)}</td>"
            for text, css in row
        )
        + "</tr>"
        for row in rows
    )
    return f"<table {attrs}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def wrap_html(parts: Sequence[str], kind: str) -> str:
    return f'{STYLE}<div class="skq skq-{esc(kind)}">{"".join(parts)}</div>'


def table_text(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Aligned plain-text table lines (cells cut to keep lines readable)."""
    cells = [[cut(str(c).replace("\n", " "), 40) for c in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    lines = ["  ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    for row in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return lines


class Shows(ShowsItself):
    """Mixin: a report shows itself as text and HTML; in a magic's cell, once (its view)."""

    _live_cell: Any = None  # set by the magic: the live view already shows this report

    def text(self) -> str:  # pragma: no cover - every report defines it
        raise NotImplementedError

    def html(self) -> str:  # pragma: no cover - every report defines it
        raise NotImplementedError

    def _text(self) -> str:  # str() and the reprs (ShowsItself) are the public text()/html()
        return self.text()

    def _html(self) -> str:
        return self.html()

    def _ipython_display_(self) -> None:
        cell = self._live_cell
        if cell is not None and getattr(cell, "open", False):
            return  # the live view above is this report: do not show it twice
        from IPython.display import display

        display({"text/html": self.html(), "text/plain": self.text()}, raw=True)
