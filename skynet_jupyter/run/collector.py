"""The cyclic garbage collector's young generation, spaced out while a run makes its cases.

A run keeps a ``Case`` (while it runs) and a ``CaseResult`` per case, both objects
the collector tracks, and each of its dicts counts towards the next collection:
with CPython's default threshold (700) a 10,000-case run of a trivial metric
triggered ~78 young and ~7 middle collections, each walking the cases made since
the last one, for objects that are not garbage (``benchmarks/README.md``).  During
a run the young generation's threshold is raised to :data:`SPACED` allocations;
the caller's threshold is restored when the run ends, however it ends.  The run's
garbage is still collected: later, in fewer and larger collections, when its
``Case`` objects are already freed (never walked at all).  Cyclic garbage made by
the user's code during a run waits for at most :data:`SPACED` allocations.

Runs may overlap (threads): a run that starts while the threshold is already
raised leaves it alone, and the run that raised it puts the caller's back when
it ends (an overlapping run still under way then goes on at the caller's
threshold: slower, never wrong).  Nothing is changed when the collector is off
(``gc.disable()``), when automatic collection is off (a threshold of 0), or when
the young threshold is already at least :data:`SPACED`; thresholds someone set
during the run are kept.  When the run ends, the young collection it put off is
made then and there (``gc.collect(0)``, what the next allocation would have
started), so its cost stays with the run.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")

SPACED = 100_000  # allocations between young collections while a run is under way


class _Spaced:
    """One run's change of the threshold (a class, not ``contextlib``'s generator, which
    sets ``__traceback__`` on an exception passing through: some refuse new attributes)."""

    __slots__ = ("ours", "saved")

    def __init__(self) -> None:
        self.saved: tuple[int, int, int] | None = None  # the caller's, while raised here
        self.ours: tuple[int, int, int] | None = None

    def __enter__(self) -> None:
        current = gc.get_threshold()
        if not gc.isenabled() or not 0 < current[0] < SPACED:
            return
        self.saved, self.ours = current, (SPACED, current[1], current[2])
        try:
            gc.set_threshold(*self.ours)
        except BaseException:  # Ctrl-C just then: the with statement will not call __exit__
            self.__exit__()
            raise

    def __exit__(self, *exc_info: object) -> None:
        saved, ours = self.saved, self.ours
        if saved is None or gc.get_threshold() != ours:  # not ours to restore, or set since
            return
        self.saved = None
        gc.set_threshold(*saved)
        # The young collection the run put off, now (the run's cases are freed by now):
        # here, not at whatever the caller's next allocation is.
        if gc.isenabled() and gc.get_count()[0] > saved[0]:
            gc.collect(0)


def young_collections_spaced() -> _Spaced:
    """The young generation's threshold at :data:`SPACED` inside, the caller's after."""
    return _Spaced()


def spaced_collections(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function`` run inside :func:`young_collections_spaced` (a run's entry point)."""

    @functools.wraps(function)
    def spaced(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with young_collections_spaced():
            return function(*args, **kwargs)

    return spaced
