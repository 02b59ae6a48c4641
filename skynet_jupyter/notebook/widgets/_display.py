"""How a live view is displayed: the widget, then the report's static copy, as two outputs.

A front end picks one MIME type per output, and an export with saved widget
state (``jupyter nbconvert --to html --execute``, the default) picks the
widget view, whose scripts come from a CDN: a static copy inside the widget's
output would be lost there (offline, behind a proxy, in a CI artifact, in an
emailed report).  So the static copy is an output of its own, right after the
widget, and the widget's HTML carries a CSS rule (``hide_css``) that hides that
output wherever the widget renders.  One report on screen in a live front end
or an online export; the static one everywhere else (offline exports, GitHub,
nbviewer, a notebook opened without its kernel).
"""

from __future__ import annotations

import uuid
from typing import Any

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STATIC_CLASS = "skynet-static"  # the output holding a view's static copy


class TwoOutputs:
    """The display ids of one view's widget and static copy, and the bundles for them."""

    def __init__(self, prefix: str = "skynet") -> None:
        self.widget_id = f"{prefix}-{uuid.uuid4().hex}"
        self.static_id = f"{self.widget_id}-static"
        self.shown = False

    def hide_css(self) -> str:
        """The rule, placed inside the rendered widget only, that hides this static copy."""
        target = f'[data-skynet-static="{self.static_id}"]'
        return (
            f"<style>.jp-OutputArea-child:has({target}),.output_area:has({target}),"
            f"{target}{{display:none}}</style>"
        )

    def widget_bundle(self, model_id: str) -> dict[str, Any]:
        # text/plain is empty: where widgets don't render, the static output says it all.
        model = {"version_major": 2, "version_minor": 0, "model_id": model_id}
        return {WIDGET_MIME: model, "text/plain": ""}

    def static_bundle(self, html: str, text: str) -> dict[str, Any]:
        marker = f'<div class="{STATIC_CLASS}" data-skynet-static="{self.static_id}">'
        return {"text/html": f"{marker}{html}</div>", "text/plain": text}

    def show(self, model_id: str, html: str, text: str) -> None:
        from IPython.display import display

        # IPython ships no types for display() and update_display().
        display(self.widget_bundle(model_id), raw=True, display_id=self.widget_id)  # type: ignore[no-untyped-call, unused-ignore]
        display(self.static_bundle(html, text), raw=True, display_id=self.static_id)  # type: ignore[no-untyped-call, unused-ignore]
        self.shown = True

    def update(self, model_id: str, html: str, text: str) -> None:
        """Both outputs, in place (wherever they are: the edit loop updates an earlier cell)."""
        if not self.shown:
            return
        from IPython.display import update_display

        update_display(self.widget_bundle(model_id), raw=True, display_id=self.widget_id)  # type: ignore[no-untyped-call, unused-ignore]
        update_display(self.static_bundle(html, text), raw=True, display_id=self.static_id)  # type: ignore[no-untyped-call, unused-ignore]


class ShownTwice:
    """``show()`` and redraws of a view displayed as :class:`TwoOutputs`.

    A view sets ``_outputs`` (a ``TwoOutputs``), ``widget`` and ``_shown``, and
    defines ``_static()``: the (HTML, text) of its static copy.
    """

    _outputs: TwoOutputs
    widget: Any
    _shown: bool

    def _static(self) -> tuple[str, str]:
        raise NotImplementedError

    def show(self) -> None:
        """Display the view (once) in the current output: the widget, then its static copy."""
        self._outputs.show(self.widget.model_id, *self._static())
        self._shown = True

    def _ipython_display_(self) -> None:
        self.show()

    def _update_display(self) -> None:
        self._outputs.update(self.widget.model_id, *self._static())
