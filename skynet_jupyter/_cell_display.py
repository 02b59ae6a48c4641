"""What a magic's cell displays: the live view *is* the display.

A check or evaluation shows its live view while it runs (:func:`lazy_show`
shows it at the first engine event, so a data error leaves no empty view).
The report the magic returns is a :class:`ShownLive` one: the cell's ``Out``
does not show it a second time while that cell runs (:class:`CellMark` is
open), and ``r`` in a later cell displays it as any report.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .report import CheckReport, EvalReport

__all__ = [
    "CellMark",
    "ShownCheckReport",
    "ShownEvalReport",
    "ShownLive",
    "lazy_show",
    "plain_report",
    "shown_live",
]


class CellMark:
    """Open while the cell that produced a report runs."""

    __slots__ = ("open",)

    def __init__(self) -> None:
        self.open = True


class ShownLive:
    """A report the live view already shows: the cell's Out does not show it twice.

    After that cell it displays as any report (``r`` in a later cell shows it).
    """

    _cell: CellMark

    def _ipython_display_(self) -> None:
        cell = getattr(self, "_cell", None)  # absent on a dataclasses.replace() copy
        if cell is not None and cell.open:
            return
        from IPython.display import display

        display(plain_report(self))  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return repr(plain_report(self))  # type: ignore[arg-type]


class ShownCheckReport(ShownLive, CheckReport):
    pass


class ShownEvalReport(ShownLive, EvalReport):
    pass


def plain_report(report: CheckReport) -> CheckReport:
    kind = EvalReport if isinstance(report, EvalReport) else CheckReport
    return kind(**{f.name: getattr(report, f.name) for f in dataclasses.fields(kind) if f.init})


def shown_live(report: CheckReport, cell: CellMark) -> CheckReport:
    kind = ShownEvalReport if isinstance(report, EvalReport) else ShownCheckReport
    shown = kind(**{f.name: getattr(report, f.name) for f in dataclasses.fields(report) if f.init})
    shown._cell = cell
    return shown


def lazy_show(view: Any) -> Callable[[Any], None]:
    """Feed engine events to ``view``, showing it at the first one.

    Shown late so that a data error (raised before any event) leaves no empty view.
    """
    shown = False

    def on_event(event: Any) -> None:
        nonlocal shown
        if not shown:
            view.show()
            shown = True
        view.on_event(event)

    return on_event
