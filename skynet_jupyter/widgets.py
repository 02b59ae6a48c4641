"""Live views of a check or an evaluation, fed by the engine's events.

Interface used by the magics (keep it):

    view = LiveView(kind="check", lang="en", metric_name="default")
    view.show()                      # displays itself once, in the current output
    report = check(..., on_event=view.on_event)
    view.finish(report)              # final state (also called by the Finished event)
    view.replace(report)             # re-render in place (the edit loop's re-check)

This first version renders the report's static HTML through a display handle;
the widget version keeps the same interface.
"""

from __future__ import annotations

import uuid
from typing import Any

from .engine import Event, Finished
from .report import CheckReport


class LiveView:
    """A report view that updates in place as cases finish."""

    def __init__(
        self,
        *,
        kind: str = "check",
        lang: str = "en",
        metric_name: str = "default",
        reward_spec: Any = None,
    ) -> None:
        self.kind = kind
        self.lang = lang
        self.metric_name = metric_name
        self.reward_spec = reward_spec
        self.report: CheckReport | None = None
        self._display_id = f"skynet-{uuid.uuid4().hex}"
        self._shown = False

    def show(self) -> None:
        from IPython.display import HTML, display

        display(HTML("<i>…</i>"), display_id=self._display_id)
        self._shown = True

    def on_event(self, event: Event) -> None:
        if isinstance(event, Finished):
            self.finish(event.report)

    def finish(self, report: CheckReport) -> None:
        self.replace(report)

    def replace(self, report: CheckReport) -> None:
        from IPython.display import HTML, update_display

        self.report = report
        if self._shown:
            update_display(HTML(report._repr_html_()), display_id=self._display_id)
