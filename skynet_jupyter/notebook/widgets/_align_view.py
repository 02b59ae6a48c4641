"""``AlignView``: the live view of ``%skynet_align``, fed by ``align``'s events.

It is the optimizer's view (``_optimize_view``: the widget and its static
copy, throttled updates) drawing an ``AlignReport`` with ``alignment/render.py``:
the held-out agreement before and so far, the calls and cost (judge and
reflection apart), GEPA's proposals with the disagreements each one read,
and at the end the held-out cases that flipped and the new instructions as a
word diff against the old.
"""

from __future__ import annotations

from typing import Any

from ...alignment.render import align_html, body_html, head_html
from ...i18n import t
from ._optimize_view import Drawing, OptimizeView


class AlignView(OptimizeView):
    """An alignment that updates in place; ``show()`` once, ``on_event`` as listener."""

    drawing = Drawing(align_html, head_html, body_html)

    def __init__(self, *, prompt_name: str = "JUDGE", **options: Any) -> None:
        self.prompt_name = prompt_name  # read by the waiting text, drawn in __init__
        super().__init__(**options)
        self.widget.add_class("skynet-align-view")

    def _running_text(self) -> str:
        return t("align.running", self.lang, name=self.metric_name, prompt=self.prompt_name)

    def _draw_progress(self, report: Any) -> int:
        return super()._draw_progress(report.optimization)  # GEPA's calls against its budget
