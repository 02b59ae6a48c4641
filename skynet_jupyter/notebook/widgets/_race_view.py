"""``RaceView``: the live view of ``%skynet_race``, fed by ``race``'s events.

It is the optimizer's view (``_optimize_view``: the widget and its static copy,
throttled updates) drawing a ``RaceReport`` with ``optimizers/race_render.py``:
the standings so far, and the chart of each metric's runs (best validation
score by its own metric against the calls spent), one colour per metric, since
people compare curves by looking; at the end the verdict and each best artifact.
"""

from __future__ import annotations

from typing import Any

from ...i18n import t
from ...optimizers.race_render import (
    race_body_html,
    race_calls_said,
    race_head_html,
    race_html,
)
from ._optimize_view import Drawing, OptimizeView


class RaceView(OptimizeView):
    """A race that updates in place; ``show()`` once, ``on_event`` as listener."""

    drawing = Drawing(race_html, race_head_html, race_body_html)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.widget.add_class("skynet-race-view")

    def _running_text(self) -> str:
        return t("race.waiting", self.lang)

    def _draw_progress(self, report: Any) -> int:
        calls, total = sum(entry.calls for entry in report.entries), report.total_budget
        done = report.finished
        return self._set_progress(
            calls=calls,
            budget=total,
            said=race_calls_said(report, why=False),  # past it: how many (the head says why)
            style="success" if done and report.winner else ("warning" if done else "info"),
        )
