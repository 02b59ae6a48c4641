"""The edit loop: re-running a metric's last check on the outputs that check got.

When a metric checked in this kernel is registered again, the magics re-run
its :class:`LastCheck` through the engine with the outputs ``run`` gave in
that check (``known_outputs``): only the metric runs again, and a case whose
run failed fails again, saying why, without calling ``run``.  No cache key is
involved (the outputs are the check's own), and the run step names the replay.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

from ..core.observation import Observation
from ..core.options import RunOptions
from ..core.report import CheckReport
from ..i18n import t
from ..run.engine import KnownOutputs

__all__ = ["LastCheck", "run_outputs"]


class LastCheck:
    """A metric's last check: what the edit loop re-runs when the metric is registered again."""

    # A plain class, not a dataclass: making one at import cost every first check ~1 ms.
    __slots__ = ("data", "options", "outputs", "view")

    def __init__(
        self,
        data: Any,
        options: RunOptions,
        view: Any,
        outputs: dict[int, tuple[Any, Observation | None]] | None = None,
    ) -> None:
        self.data = data
        self.options = options  # as checked for that call; the re-check changes only the models
        self.view = view  # the LiveView to update in place, or None when the check was silenced
        # By case: what run gave and measured (its time and cost stay with the output).
        self.outputs: dict[int, tuple[Any, Observation | None]] = {} if outputs is None else outputs

    def __repr__(self) -> str:
        return f"LastCheck(data={self.data!r}, options={self.options!r}, view={self.view!r})"

    def known_outputs(self) -> KnownOutputs | None:
        """What the re-check scores: None when the outputs came from a column of the data.

        Its sentences are in the run's language (``language()``, set by the magic).
        """
        if self.options.run is None:
            return None
        return KnownOutputs(self.outputs, t("magic.run_not_repeated"), note=t("engine.replayed"))


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
