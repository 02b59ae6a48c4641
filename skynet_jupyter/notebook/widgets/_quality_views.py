"""``QualityView``: the live view of ``probe``, ``stability``, ``agreement`` and ``compare``.

It follows a measurement's passes (``Phase`` events, then the engine's case
events) with a progress bar, then draws the report's own HTML.  A probe
report adds a picker that shows one probe's outputs, scores and feedback.
Like ``LiveView``, it displays as two outputs, the widget and the report's
static HTML (``_display``), so exports and GitHub show the report too.
"""

from __future__ import annotations

import time
import traceback
from typing import Any

import ipywidgets as W

from ...i18n import resolve_lang, t
from ...quality import Phase, ProbeReport, QualityFinished
from ...quality.probe import probe_label
from ...run.engine import CaseFinished, CaseStarted
from ...show.render import esc
from ._display import ShownTwice, TwoOutputs

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
GAP = 0.1  # seconds between progress updates sent to the browser
# The progress bar's label for each pass of a measurement (a Phase event's name).
PHASE_TITLES = {
    "outputs": "quality.phase.outputs",
    "probes": "quality.phase.probes",
    "repeats": "quality.phase.repeats",
    "metric_b": "quality.phase.metric_b",
}


class QualityView(ShownTwice):
    """A measurement's view: progress while it runs, its report when it ends.

    ``show()`` displays it once; ``on_event`` is the listener to pass as
    ``on_event=``; ``finish(report)`` draws the report (the ``QualityFinished``
    event calls it).
    """

    def __init__(self, *, kind: str, lang: str | None = "en", metric_name: str = "default"):
        self.kind = kind
        self.lang = resolve_lang(lang)
        self.metric_name = metric_name
        self.report: Any = None
        self._phase = "outputs"
        self._done = 0
        self._total = 0
        self._last_sent = 0.0
        self._outputs = TwoOutputs()  # the widget, then its static copy (see _display)
        self._display_id = self._outputs.widget_id
        self._shown = False
        # Hides the static copy wherever this widget renders (one report on screen).
        self.hide = W.HTML(self._outputs.hide_css(), layout=W.Layout(display="none"))
        running = t("quality.running", self.lang, name=metric_name)
        self.head = W.HTML(f'<div class="skq-title"><b>{esc(running)}</b></div>')
        self.progress = W.IntProgress(
            value=0,
            min=0,
            max=1,
            description=t(PHASE_TITLES[self._phase], self.lang),
            bar_style="info",
            style={"description_width": "initial"},
            layout=W.Layout(width="460px"),
        )
        self.picker = W.Dropdown(
            options=[],
            description="probe",
            style={"description_width": "initial"},
            layout=W.Layout(display="none", width="auto", align_self="flex-start"),
        )
        self.picker.observe(lambda _: self._guard(self._draw_detail), names="value")
        self.body = W.HTML(layout=W.Layout(width="auto", align_self="stretch"))
        self.detail = W.HTML(layout=W.Layout(width="auto", align_self="stretch"))
        self.errors = W.Output()
        self.widget = W.VBox(
            [self.hide, self.head, self.progress, self.body, self.picker, self.detail, self.errors],
            layout=W.Layout(width="100%"),
            _dom_classes=["skynet-view", "skynet-quality", f"skynet-{kind}"],
        )

    # --- the listener -----------------------------------------------------------

    def on_event(self, event: Any) -> None:
        """Take a measurement event (``Phase``, engine case events, ``QualityFinished``)."""
        kind = type(event)
        if kind is CaseFinished:
            self._done, self._total = event.done, event.total
            now = time.monotonic()
            if now - self._last_sent >= GAP or self._done >= self._total:
                self._last_sent = now
                self._draw_progress()
        elif kind is CaseStarted:
            if event.total != self._total:
                self._total = event.total
                self._draw_progress()
        elif kind is Phase:
            self._phase, self._done, self._total = event.name, 0, event.total
            self._draw_progress()
        elif kind is QualityFinished:
            self.finish(event.report)
        # The engine's own Finished ends one pass, not the measurement: nothing to draw.

    def _draw_progress(self) -> None:
        progress = self.progress
        label = t(PHASE_TITLES[self._phase], self.lang)
        with progress.hold_sync():
            progress.max = max(1, self._total)
            progress.value = min(self._done, progress.max)
            progress.description = f"{label} {self._done}/{self._total}" if self._total else label

    # --- the end ----------------------------------------------------------------

    def finish(self, report: Any) -> None:
        """Draw ``report`` (and refresh the static copy of the display)."""
        self.report = report
        self.head.value = ""
        self.progress.layout.display = "none" if not report.interrupted else None
        self.body.value = report.html()
        if isinstance(report, ProbeReport):
            choices = [(probe_label(name, report.lang), name) for name in report.probes]
            flagged = [f.probe for f in report.findings]
            with self.picker.hold_sync():
                self.picker.options = choices
                self.picker.value = flagged[0] if flagged else (choices[0][1] if choices else None)
                self.picker.description = t("quality.view.pick", self.lang)
            self.picker.layout.display = None if choices else "none"
            self._draw_detail()
        self._outputs.update(self.widget.model_id, *self._static())

    def _draw_detail(self) -> None:
        report = self.report
        if isinstance(report, ProbeReport) and self.picker.value:
            self.detail.value = report.probe_html(self.picker.value)

    def _guard(self, action: Any) -> None:
        """Run a widget callback; show its error in the view instead of losing it."""
        try:
            action()
        except Exception:
            self.errors.append_stderr(traceback.format_exc())

    # --- display ----------------------------------------------------------------

    def _static(self) -> tuple[str, str]:
        if self.report is None:
            running = t("quality.running", self.lang, name=self.metric_name)
            return f'<div class="skynet-report"><i>{esc(running)}</i></div>', running
        return self.report.html(), self.report.text()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return self._bundle()

    def _bundle(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            WIDGET_MIME: {"version_major": 2, "version_minor": 0, "model_id": self.widget.model_id}
        }
        if self.report is None:
            running = t("quality.running", self.lang, name=self.metric_name)
            data["text/html"] = f'<div class="skynet-report"><i>{esc(running)}</i></div>'
            data["text/plain"] = running
        else:
            data["text/html"] = self.report.html()
            data["text/plain"] = self.report.text()
        return data

    def close(self) -> None:
        for widget in (
            self.widget,
            self.hide,
            self.head,
            self.progress,
            self.picker,
            self.body,
            self.detail,
            self.errors,
        ):
            widget.close()
