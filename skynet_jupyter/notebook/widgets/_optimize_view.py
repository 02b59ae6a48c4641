"""``OptimizeView``: the live view of an optimizer run, fed by ``optimize``'s events.

    view = OptimizeView(lang="en", budget=40)
    view.show()
    report = optimize(..., on_event=view.on_event)   # the "finished" event draws the end

It shows the score of each candidate as GEPA evaluates it, the best so far,
for each proposal the feedback records the reflection model read and a word
diff of the new text against its parent, and the cost so far.  The HTML is
``optimizers/render.py``'s, the same as the static report's; it displays as two
outputs, the widget and that static HTML (``_display``), for places without
widgets.  Updates reach the browser at most about ten times a second.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import ipywidgets as W

from ...i18n import resolve_lang, t
from ...optimizers.optimize import OptimizeEvent, OptimizeReport
from ...optimizers.render import body_html, calls_said, head_html, report_html
from ...show.render import esc
from ._display import ShownTwice, TwoOutputs
from ._reward_view import set_value
from ._throttle import GAP, Throttle

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


class Drawing(NamedTuple):
    """How a view draws its report: whole (its static copy), and its head and body live."""

    whole: Callable[[Any], str]
    head: Callable[[Any], str]
    body: Callable[[Any], str]


class OptimizeView(ShownTwice):
    """An optimizer run that updates in place; ``show()`` once, ``on_event`` as listener."""

    drawing: ClassVar[Drawing] = Drawing(report_html, head_html, body_html)

    def __init__(
        self,
        *,
        lang: str | None = "en",
        budget: int = 1,
        metric_name: str = "default",
        gap: float = GAP,
    ) -> None:
        self.lang = resolve_lang(lang)
        self.metric_name = metric_name
        self.report: Any = None  # the report so far: an OptimizeReport (AlignView: an AlignReport)
        self.finished = False
        self._lock = threading.RLock()
        self._throttle = Throttle(self._flush, self._lock, gap=gap)
        self._outputs = TwoOutputs("skynet-optimize")  # the widget, then its static copy
        self._display_id = self._outputs.widget_id
        self._shown = False
        # Hides the static copy wherever this widget renders (one report on screen).
        self.hide = W.HTML(self._outputs.hide_css(), layout=W.Layout(display="none"))
        self.head = W.HTML(self._waiting_html())
        self.progress = W.IntProgress(
            value=0,
            min=0,
            max=max(1, budget),
            description=t("optimize.calls", self.lang, calls=0, budget=budget),
            bar_style="info",
            style={"description_width": "initial"},
            layout=W.Layout(width="460px"),
        )
        self.body = W.HTML(layout=W.Layout(width="auto", align_self="stretch"))
        self.errors = W.Output()
        self.widget = W.VBox(
            [self.hide, self.head, self.progress, self.body, self.errors],
            layout=W.Layout(width="100%"),
            _dom_classes=["skynet-view", "skynet-optimize-view"],
        )

    # --- the listener --------------------------------------------------------------

    def on_event(self, event: OptimizeEvent) -> None:
        """Take one event of ``optimize``; the browser sees it at the next update."""
        self.report = event.report
        if event.kind == "finished":
            self.finish(event.report)
        else:
            self._throttle.poke()

    def finish(self, report: OptimizeReport) -> None:
        """Draw the final state and refresh the static copy."""
        with self._lock:
            self.report = report
            self.finished = True
            self._throttle.now()
        self._update_display()

    def flush(self) -> int:
        """Send pending changes now; the number of comm messages sent."""
        return self._throttle.now()

    # --- display ---------------------------------------------------------------------

    def _static(self) -> tuple[str, str]:
        bundle = self._bundle()
        return bundle["text/html"], bundle["text/plain"]

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return self._bundle()

    def _bundle(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            WIDGET_MIME: {"version_major": 2, "version_minor": 0, "model_id": self.widget.model_id}
        }
        report = self.report
        if report is None or not self.finished:
            text = self._running_text()
            data["text/html"] = f'<div class="skynet-optimize"><i>{esc(text)}</i></div>'
            data["text/plain"] = text
        else:
            data["text/html"] = self.drawing.whole(report)
            data["text/plain"] = str(report)
        return data

    # What a view of another report (AlignView) says and draws instead.
    def _running_text(self) -> str:
        return t("optimize.running", self.lang, name=self.metric_name)

    def close(self) -> None:
        self._throttle.cancel()
        for widget in (self.widget, self.hide, self.head, self.progress, self.body, self.errors):
            widget.close()

    # --- drawing -----------------------------------------------------------------------

    def _waiting_html(self) -> str:
        text = self._running_text()
        return f'<div class="sko"><div class="sko-title sko-run">{esc(text)}</div></div>'

    def _flush(self) -> int:
        report = self.report
        if report is None:
            return 0
        try:
            sent = set_value(self.head, self.drawing.head(report))
            sent += set_value(self.body, self.drawing.body(report))
            sent += self._draw_progress(report)
        except Exception:  # a drawing bug must show, not vanish in a timer thread
            self.errors.append_stderr(traceback.format_exc())
            return 1
        return sent

    def _draw_progress(self, report: OptimizeReport) -> int:
        done = report.finished
        return self._set_progress(
            calls=report.calls,
            budget=report.budget,
            said=calls_said(report.calls, report.budget, self.lang),
            style="success" if done and report.improved else ("warning" if done else "info"),
        )

    def _set_progress(self, *, calls: int, budget: int, said: str, style: str) -> int:
        """The bar at ``calls`` of ``budget``: only what changed is sent (one message)."""
        want = {"max": max(1, budget, calls), "value": calls, "description": said}
        want["bar_style"] = style
        changed = {k: v for k, v in want.items() if getattr(self.progress, k) != v}
        if not changed:
            return 0
        with self.progress.hold_sync():
            for key in ("max", "value", "description", "bar_style"):
                if key in changed:
                    setattr(self.progress, key, changed[key])
        return 1
