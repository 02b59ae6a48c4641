"""At most about ten front-end updates a second, however fast events arrive.

Events only mark the view dirty; a timer flushes it.  After a flush that sent
``n`` comm messages the next one waits ``n`` gaps, so the view never sends
more than one message per gap on average (10 a second at the default gap).
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

GAP = 0.1  # seconds per comm message: 10 messages a second at most
SETTLE = 0.02  # let a batch of events (delivered together) land before flushing


@dataclass(eq=False)
class Throttle:
    """Calls ``flush()`` (which returns the messages it sent) no faster than the budget."""

    flush: Callable[[], int]
    lock: threading.RLock
    gap: float = field(default=GAP, kw_only=True)
    clock: Callable[[], float] = field(default=time.perf_counter, kw_only=True)
    on_error: Callable[[BaseException], object] | None = field(default=None, kw_only=True)
    flushes: int = field(default=0, init=False)
    messages: int = field(default=0, init=False)
    _next: float = field(default=0.0, init=False)  # earliest time of the next flush
    _timer: threading.Timer | None = field(default=None, init=False)

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
            timer = threading.Timer(delay, self._fire)
            timer.daemon = True
            self._timer = timer
            timer.start()

    def _fire(self) -> None:
        with self.lock:
            if self._timer is not threading.current_thread():  # cancelled, or superseded
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
