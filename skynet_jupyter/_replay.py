"""The edit loop: re-running a metric's last check on the outputs already cached.

When a metric checked in this kernel is registered again, the magics re-run
its :class:`LastCheck` with a :class:`ReplayCache` (the kernel's run cache,
looked up as for the original run function) and a run function that refuses
to run (:func:`no_new_run`): only the metric runs again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .engine import RunCache
from .options import RunOptions

__all__ = ["LastCheck", "NotRunAgain", "ReplayCache", "no_new_run"]


@dataclasses.dataclass(slots=True)
class LastCheck:
    data: Any
    options: RunOptions  # as checked for that call; the re-check changes only run and models
    view: Any  # the LiveView to update in place, or None when the check was silenced


class NotRunAgain(Exception):
    pass


class ReplayCache(RunCache):
    """The kernel's run cache, looked up as for the original run function."""

    def __init__(self, cache: RunCache, run: Any) -> None:
        super().__init__(cache.store)
        self.disk = cache.disk
        self._original = run

    def key(  # type: ignore[override]
        self, run: Any, artifact: Any, case_input: Any, task_model: Any = None
    ) -> Any:
        return RunCache.key(self._original, artifact, case_input, task_model)

    def disk_key(self, run: Any, artifact: Any, case_input: Any, task_model: Any) -> str | None:
        return RunCache.disk_key(self, self._original, artifact, case_input, task_model)


def no_new_run(message: str) -> Callable[[Any, Any], Any]:
    def run(artifact: Any, input: Any) -> Any:
        raise NotRunAgain(message)

    return run
