"""``%skynet_history``'s live view: the history's chart and table, read again as runs arrive.

The view is the history's HTML (``runlog/views.py``: the chart of mean score and
pass rate per version, then the runs) in an ``HTML`` widget, with a Refresh button
for runs recorded elsewhere (CI, another kernel).  After each cell of this kernel
it reads the log again, so a ``%skynet_check`` in a later cell moves the chart
above it.  Displayed as the widget and a static copy (:class:`~.widgets._display.TwoOutputs`):
an export without the widget's scripts still shows the chart.
"""

from __future__ import annotations

import datetime
import weakref
from collections.abc import Callable
from typing import Any

from ..i18n import language, t
from .widgets._display import TwoOutputs

__all__ = ["LiveHistories", "LiveHistory"]


class LiveHistory:
    """The widget of one ``%skynet_history`` cell; ``refresh()`` reads the log again."""

    def __init__(self, read: Callable[[], Any], lang: str) -> None:
        import ipywidgets as widgets

        self._read = read  # () -> History, with the cell's filters
        self.lang = lang
        self.history = read()
        self._outputs = TwoOutputs("skynet-history")
        self._html = widgets.HTML()
        self._html.add_class("skynet-history-view")
        self._stamp = widgets.HTML()
        self._button = widgets.Button(description=t("history.refresh", lang), icon="refresh")
        self._button.on_click(lambda _button: self.refresh())
        self.widget = widgets.VBox([self._html, widgets.HBox([self._button, self._stamp])])
        self._draw()

    def _static(self) -> tuple[str, str]:
        return self.history._repr_html_(), str(self.history)

    def _draw(self) -> None:
        html, _text = self._static()
        self._html.value = self._outputs.hide_css() + html
        when = datetime.datetime.now().strftime("%H:%M:%S")
        said = _escaped(t("history.refreshed", self.lang, time=when))
        self._stamp.value = f'<span class="skynet-history-stamp">{said}</span>'

    def show(self) -> None:
        html, text = self._static()
        self._outputs.show(self.widget.model_id, html, text)

    def refresh(self) -> None:
        """Read the log again and draw what it holds now (both outputs, in place)."""
        with language(self.lang):
            self.history = self._read()
            self._draw()
            html, text = self._static()
            self._outputs.update(self.widget.model_id, html, text)


def _escaped(text: str) -> str:
    import html

    return html.escape(text, quote=True)


class LiveHistories:
    """The live history views of one kernel, read again after each cell (held weakly)."""

    def __init__(self) -> None:
        self._views: weakref.WeakSet[LiveHistory] = weakref.WeakSet()

    def add(self, view: LiveHistory) -> None:
        self._views.add(view)

    def after_cell(self, result: Any = None) -> None:
        for view in list(self._views):
            try:
                view.refresh()
            except Exception:  # a log that went away: the view keeps what it showed
                continue
