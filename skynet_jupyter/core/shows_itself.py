"""``ShowsItself``: how every report shows itself, written once, without importing its views.

``print(report)`` and terminal IPython show its text, a notebook its HTML.  A
report class either says what its text and HTML are itself (``_text``,
``_html``: the quality reports, whose views live beside them), or its views
live in a higher layer and *register* for it (``show_with``): the check and
evaluation reports (``core/report.py``, drawn by ``show/render.py``), the
optimizer's report (``optimizers/render.py``) and the alignment's
(``alignment/render.py``).  This mixin turns either into ``__str__``,
``_repr_pretty_`` and ``_repr_html_``; the text with the user's control characters shown
escaped (``inert_text.shown``), as every report's text shows them.

Why a registry: a report is plain data built low in the package (a check
report in the core, below the engine that fills it), and its views are built
from everything above it (numbers, styles, terminal widths).  Importing the
view from the report made the core import a higher layer, and each
report/renderer pair import each other.  Now the view module imports the
report (to register for its class) and never the other way.

A report can be shown before anything imported its views (``sj.check`` loads
the engine, not ``show``): then the registry imports the modules that register
views, *by name*, once (``VIEW_MODULES``) — a plugin lookup, as the codec
registry finds ``encodings`` or matplotlib its backends.  No import statement
points up; ``tests/test_layers.py`` counts every one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .inert_text import shown

__all__ = ["VIEW_MODULES", "ShowsItself", "View", "show_with", "view_of"]

# The modules that register views, imported by name, in this order, until the report
# being shown has one (a check report loads only the first); each registers its views
# whenever it is imported anyway.
VIEW_MODULES = (
    "skynet_jupyter.show.render",
    "skynet_jupyter.optimizers.render",
    "skynet_jupyter.alignment.render",
    "skynet_jupyter.optimizers.race_render",
)


@dataclass(frozen=True, slots=True)
class View:
    """How one report class shows itself: as text, and as HTML."""

    text: Callable[[Any], str]
    html: Callable[[Any], str]


_VIEWS: dict[type, View] = {}


def show_with(
    report_class: type, *, text: Callable[[Any], str], html: Callable[[Any], str]
) -> None:
    """Register the views of ``report_class`` (and of its subclasses without their own)."""
    _VIEWS[report_class] = View(text, html)


def _registered(report_class: type) -> View | None:
    # Along the MRO: an evaluation report is a check report, shown by the same views.
    return next((_VIEWS[kind] for kind in report_class.__mro__ if kind in _VIEWS), None)


def view_of(report_class: type) -> View:
    """The registered views of ``report_class``, loading the view modules on first need."""
    view = _registered(report_class)
    for name in VIEW_MODULES:
        if view is not None:
            return view
        importlib.import_module(name)  # registers its views as it is imported
        view = _registered(report_class)
    if view is None:
        raise LookupError(f"no view is registered for {report_class.__qualname__}")
    return view


class ShowsItself:
    """Mixin: ``str()`` and IPython's plain display are ``_text()``, the notebook's ``_html()``."""

    __slots__ = ()  # the reports are slotted dataclasses: the mixin adds no __dict__

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # IPython's pretty printer takes the first class in the MRO that defines either
        # _repr_pretty_ or __repr__, and @dataclass gives every class its own __repr__:
        # each report class gets _repr_pretty_ in its own namespace, or the dataclass
        # repr would be shown instead of the report.
        if "_repr_pretty_" not in cls.__dict__:
            cls._repr_pretty_ = ShowsItself._repr_pretty_  # type: ignore[method-assign]

    def _text(self) -> str:
        """The report as text: its registered view's, unless the class defines its own."""
        return view_of(type(self)).text(self)

    def _html(self) -> str:
        """The report as HTML: its registered view's, unless the class defines its own."""
        return view_of(type(self)).html(self)

    def __str__(self) -> str:
        # Every report's text, whichever layer draws it: a model's terminal escape in an
        # output, a feedback or a name is shown as repr shows it, never obeyed.
        return shown(self._text())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))

    def _repr_html_(self) -> str:
        return self._html()
