"""At most about ten front-end updates a second, however fast events arrive.

Events only mark the view dirty; a timer flushes it.  After a flush that sent
``n`` comm messages the next one waits ``n`` gaps, so the view never sends
more than one message per gap on average (10 a second at the default gap).

The timers of every view share one thread (:data:`LATER`): starting a thread
per run cost a quick check about a millisecond.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import threading
import time
import traceback
from collections.abc import Callable

GAP = 0.1  # seconds per comm message: 10 messages a second at most
SETTLE = 0.02  # let a batch of events (delivered together) land before flushing


class Due:
    """One call :class:`Later` will make, unless cancelled first."""

    __slots__ = ("action", "cancelled")

    def __init__(self, action: Callable[[Due], object]) -> None:
        self.action = action
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Later:
    """Calls made after a delay, on one daemon thread started on first use."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, Due]] = []
        self._order = itertools.count()  # equal times: first scheduled, first called
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def call(self, delay: float, action: Callable[[Due], object]) -> Due:
        """Call ``action(due)`` in ``delay`` seconds; ``due.cancel()`` stops it."""
        due = Due(action)
        with self._wake:
            at = time.monotonic() + delay
            heapq.heappush(self._due, (at, next(self._order), due))
            if self._thread is None or not self._thread.is_alive():  # first use, or forked
                self._thread = threading.Thread(target=self._run, name="skynet-later", daemon=True)
                self._thread.start()
            self._wake.notify()
        return due

    def _run(self) -> None:
        while True:
            with self._wake:
                while True:
                    wait = self._due[0][0] - time.monotonic() if self._due else None
                    if wait is not None and wait <= 0:
                        break
                    self._wake.wait(wait)
                due = heapq.heappop(self._due)[2]
            if due.cancelled:
                continue
            try:
                due.action(due)
            except Exception:  # one view's failure must not stop the others' timers
                traceback.print_exc(file=sys.stderr)


LATER = Later()


class Throttle:
    """Calls ``flush()`` (which returns the messages it sent) no faster than the budget."""

    # A plain class, not a dataclass: making the dataclass at import cost a first check ~1 ms.

    def __init__(
        self,
        flush: Callable[[], int],
        lock: threading.RLock,
        *,
        gap: float = GAP,
        clock: Callable[[], float] = time.perf_counter,
        on_error: Callable[[BaseException], object] | None = None,
    ) -> None:
        self.flush = flush
        self.lock = lock
        self.gap = gap
        self.clock = clock
        self.on_error = on_error
        self.flushes = 0
        self.messages = 0
        self._next = 0.0  # earliest time of the next flush
        self._timer: Due | None = None

    @property
    def idle(self) -> bool:
        """No flush is due yet (read without the lock: a hint for the hot path)."""
        return self._timer is None

    def poke(self) -> None:
        """Something changed: flush soon (within the budget)."""
        if self._timer is not None:  # read without the lock: a flush is already due
            return
        with self.lock:
            if self._timer is not None:
                return
            delay = max(SETTLE, self._next - self.clock())
            self._timer = LATER.call(delay, self._fire)

    def _fire(self, due: Due) -> None:
        with self.lock:
            if self._timer is not due:  # cancelled, or superseded
                return
            self._timer = None
            self._run()

    def now(self) -> int:
        """Flush at once (the final update); cancel any pending one."""
        with self.lock:
            self.cancel()
            return self._run()

    def cancel(self) -> None:
        with self.lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def _run(self) -> int:
        # A flush that raises must not end the updates (nor the engine's listener):
        # the error is reported and the next event flushes again.
        try:
            sent = self.flush()
        except Exception as error:
            self._report(error)
            sent = 0
        self.flushes += 1
        self.messages += sent
        self._next = self.clock() + self.gap * max(1, sent)
        return sent

    def _report(self, error: Exception) -> None:
        if self.on_error is not None:
            try:
                self.on_error(error)
                return
            except Exception:  # the reporter itself failed: stderr is left
                pass
        traceback.print_exception(error, file=sys.stderr)
