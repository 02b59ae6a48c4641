"""What a magic's cell displays: the live view *is* the display, and the report shows once.

Every magic that runs something (check, eval, probe, stability, agree,
compare, optimize) shows its live view while it runs: :func:`lazy_show` shows
it at the first event, so a data error leaves no empty view, and the view
displays as two outputs, the widget and the report's static copy for exports
(``widgets/_display.py``).  The report the magic returns goes through
:func:`shown_once`: the cell's ``Out`` does not show it a second time while
that cell runs (its :class:`CellMark` is open), and ``r`` in a later cell
displays it as any report.

The returned report is an instance of its public class (``CheckReport``,
``ProbeReport``, ``OptimizeReport``...): same fields and methods, the public
class's ``repr()``, equal to the same report of that class; it pickles and
copies as a plain report.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

__all__ = ["CellMark", "ShownLive", "lazy_show", "shown_once"]

R = TypeVar("R")


class CellMark:
    """Open while the cell that produced a report runs."""

    __slots__ = ("open",)

    def __init__(self) -> None:
        self.open = True


class ShownLive:
    """Mixin of a report its cell's live view already shows: that cell's Out shows nothing.

    After that cell it displays as any report (``r`` in a later cell shows it).
    A shown class is made per public report class (:func:`shown_once`).
    """

    __slots__ = ()
    _public: ClassVar[type]  # the report class this one stands for
    _cell: CellMark  # a slot of each shown class; unset on a dataclasses.replace() copy

    @classmethod
    def _of(cls, report: Any, cell: CellMark) -> Any:
        shown: Any = cls(**_init_fields(report))
        shown._cell = cell
        return shown

    def _plain(self) -> Any:
        """The same report, of its public class."""
        return self._public(**_init_fields(self))

    def _ipython_display_(self) -> None:
        cell = getattr(self, "_cell", None)
        if cell is not None and cell.open:
            return  # the live view above is this report
        from IPython.display import display

        display(self._plain())  # type: ignore[no-untyped-call, unused-ignore]  # IPython's display is unannotated (up to 9.19)

    def __repr__(self) -> str:
        return repr(self._plain())

    def __eq__(self, other: object) -> bool:
        # Equal to the same report of the public class (whose __eq__ wants its own class).
        mine = self._plain()
        result: bool = mine == (other._plain() if isinstance(other, ShownLive) else other)
        return result

    __hash__ = None  # type: ignore[assignment]  # as the reports' own: mutable dataclasses

    def __reduce_ex__(self, protocol: Any) -> Any:
        # Pickled and copied as the public class: a shown class is not importable by name.
        return _same, (self._plain(),)


def shown_once(report: R, cell: CellMark) -> R:
    """``report`` as its cell's Out sees it: already shown while ``cell`` is open."""
    public = report._public if isinstance(report, ShownLive) else type(report)
    shown: R = _shown_class(public)._of(report, cell)
    return shown


@functools.cache  # one shown class per report class, made when first needed
def _shown_class(public: type) -> Any:
    name = f"Shown{public.__name__}"
    body = {"__slots__": ("_cell",), "_public": public, "__module__": __name__}
    return type(name, (ShownLive, public), {**body, "__qualname__": name})


def _same(report: R) -> R:
    return report


def _init_fields(report: Any) -> dict[str, Any]:
    return {f.name: getattr(report, f.name) for f in dataclasses.fields(report) if f.init}


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
