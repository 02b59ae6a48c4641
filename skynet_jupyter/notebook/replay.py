"""The edit loop: re-running a metric's last check on the outputs that check got.

When a metric checked in this kernel is registered again, the magics re-run
its :class:`LastCheck` through the engine with the outputs ``run`` gave in
that check (``known_outputs``): only the metric runs again, and a case whose
run failed fails again, saying why, without calling ``run``.  No cache key is
involved (the outputs are the check's own), and the run step names the replay.
"""

from __future__ import annotations

import dataclasses
from copy import deepcopy
from typing import Any

from ..core.observation import Observation
from ..core.options import RunOptions
from ..core.report import CheckReport
from ..i18n import t
from ..run.engine import KnownOutputs

__all__ = ["LastCheck", "run_outputs"]


@dataclasses.dataclass(slots=True)
class LastCheck:
    data: Any
    options: RunOptions  # as checked for that call; the re-check changes only the models
    view: Any  # the LiveView to update in place, or None when the check was silenced
    # By case: what run gave and measured (its time and cost stay with the output).
    outputs: dict[int, tuple[Any, Observation | None]] = dataclasses.field(default_factory=dict)

    def known_outputs(self, lang: str) -> KnownOutputs | None:
        """What the re-check scores: None when the outputs came from a column of the data."""
        if self.options.run is None:
            return None
        return KnownOutputs(
            self.outputs, t("magic.run_not_repeated", lang), note=t("engine.replayed", lang)
        )


def run_outputs(report: CheckReport) -> dict[int, tuple[Any, Observation | None]]:
    """The outputs ``run`` gave in ``report``, copied, with what their run measured.

    Kept by the magics for the replay, not by any cache: a case whose run failed
    or ran out of time measured nothing, and has no output to re-score.
    """
    return {
        case.index: (deepcopy(case.output), case.measured)
        for case in report.cases
        if case.measured is not None and case.measured.run_ms is not None
    }
