"""A provider's refusals (HTTP 429) shared by a run's worker processes, while its pace is
unknown.

In one process, every thread asks an endpoint through one limiter (``rate_limit``): a
429 without a known pace pauses the whole endpoint (0.5 s, doubled for each 429 in a
row) and the window lets one request through at a time.  A run's worker processes
(``isolation="process"``, a process pool, a local Dask cluster) each had a limiter of
their own, so each paced its 429s alone: a provider refusing everything got about 40
requests, in bursts as wide as the run's concurrency, where threads send 5 (issue 43).

So, for a run whose cases may run in other processes on this machine (its
:class:`~.first_contact.FirstContact` has a folder), an endpoint's *refusal streak* is
kept in a file of that folder, beside the first-contact files:

- a 429 to a request sent while the pace is unknown adds to the streak: when it began,
  the 429s in a row, and the pause it asks for (``Retry-After``, honoured whole) or
  implies (the limiter's backoff, cut at the refusal timeout);
- while a streak is on, a request leaves only once the streak's pause is over, and
  then takes the turn: the other processes wait for its answer (two seconds at most:
  a 429 comes at once, a slower answer is a slow provider), so one request at a time
  asks, as in one process;
- any answer that is not a 429 ends the streak: the provider answers again;
- a streak that lasted :func:`~.rate_limit.refusal_timeout` seconds refuses every
  request not taking a turn (:class:`~.rate_limit.Refused`): the run stops, in every
  process at once, and one probe per pause still goes.

Times in the file are wall-clock seconds (``time.time()``), the one clock every
process reads alike.  A worker on another machine, where the folder does not exist,
keeps the streak within its own process, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["Implied", "SharedStreak", "Streak"]

# The pause the n-th 429 in a row implies: (n, the streak's start, now, the refusal timeout)
Implied = Callable[[int, float, float, float], float]

_POLL = 0.05  # seconds between looks at the streak while its pause runs
# How long the others wait for the answer of the request that took the turn: a 429 comes
# at once, so a request unanswered this long is slow or hung, and the next one may go.
_TURN_HOLD = 2.0


@dataclass
class Streak:
    """An endpoint's refusals since its last answer: when they began and ended, how
    many in a row, the last pause (asked or implied), when that pause ends, and until
    when the request that took the turn is waited for."""

    since: float = 0.0
    last: float = 0.0
    in_row: int = 0
    pause: float = 0.0
    until: float = 0.0
    turn: float = 0.0

    def refusing(self, timeout: float) -> bool:
        """Every request was refused for ``timeout`` seconds."""
        return self.in_row > 0 and self.last - self.since >= timeout

    def to_json(self) -> list[float]:
        return [self.since, self.last, float(self.in_row), self.pause, self.until, self.turn]

    @classmethod
    def from_json(cls, data: object) -> Streak | None:
        """The streak written by :meth:`to_json`, or None for anything else."""
        if not isinstance(data, list) or len(data) != 6:
            return None
        if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in data):
            return None
        if not all(math.isfinite(x) for x in data):  # an endless pause holds every call
            return None
        since, last, in_row, pause, until, turn = (float(x) for x in data)
        if in_row < 0 or in_row != int(in_row):
            return None
        return cls(since, last, int(in_row), pause, until, turn)


@dataclass(frozen=True, slots=True)
class SharedStreak:
    """One endpoint's refusal streak in one run's folder."""

    path: str

    @classmethod
    def of(cls, folder: str | None, endpoint: tuple[str, str]) -> SharedStreak | None:
        """The streak of ``endpoint`` in a run's ``folder`` (None: no folder to share)."""
        if folder is None or not os.path.isdir(folder):
            return None
        digest = hashlib.blake2b("\0".join(endpoint).encode(), digest_size=12).hexdigest()
        return cls(os.path.join(folder, f"refusals-{digest}.json"))

    # --- before a request ---------------------------------------------------------------

    def take_turn(
        self,
        timeout: float,
        abandoned: Callable[[], bool],
        refused: Callable[[], BaseException],
        gone: Callable[[], BaseException],
        longest: float = math.inf,
        closed: Callable[[float], BaseException] | None = None,
    ) -> None:
        """Return when a request may leave: no streak, or its pause over and the turn
        taken (the others wait for this request's answer).  Raises ``refused()`` when
        the streak lasted ``timeout`` and the pause runs or another request has the turn
        (one probe at a time), ``gone()`` when ``abandoned()`` says the case was given
        up meanwhile, ``closed(seconds)`` when the pause asked for is longer than
        ``longest`` (no call waits that long: every one fails at once)."""
        waited = False
        while True:
            streak = self._read()
            if streak is None or streak.in_row == 0:
                return
            now = time.time()
            if closed is not None and streak.until - now > longest:
                raise closed(streak.until - now)
            free_at = max(streak.until, streak.turn)
            # A request that waited for the streak fails once it refuses everything (as a
            # process's held threads do); one that comes later may go as the probe.
            if streak.refusing(timeout) and (waited or now < free_at):
                raise refused()
            if now < free_at:
                if abandoned():
                    raise gone()
                time.sleep(min(free_at - now, _POLL))
                waited = True
                continue
            with self._locked():
                streak = self._read()
                now = time.time()
                if streak is None or streak.in_row == 0:
                    return
                if now >= max(streak.until, streak.turn):  # the turn is this request's
                    streak.turn = now + _TURN_HOLD
                    self._write(streak)
                    return

    # --- after an answer ----------------------------------------------------------------

    def refused(self, asked: float | None, timeout: float, implied: Implied) -> bool:
        """A 429 (``asked``: its Retry-After, in seconds, honoured whole; else
        ``implied(n, since, now, timeout)`` for the n-th 429 in a row of a streak that
        began at ``since``): the streak grows, every process waits its pause, and the turn
        is over.  Returns whether the streak now lasted ``timeout``."""
        with self._locked():
            streak = self._read() or Streak()
            now = time.time()
            # A 429 long after the last one (past the limit and its pause) begins anew: the
            # endpoint was idle, not refusing.  Not once it refused everything: a case that
            # hung past the stop and asks again is not a new run.
            idle = now - streak.last > timeout + streak.pause
            if streak.in_row == 0 or (idle and not streak.refusing(timeout)):
                streak = Streak(since=now)
            streak.in_row += 1
            streak.last = now
            if asked is not None and asked > 0:
                pause = asked
            else:  # none, or "now": no pace while every request is refused
                pause = implied(streak.in_row, streak.since, now, timeout)
            streak.pause = pause
            streak.until = max(streak.until, now + pause)
            streak.turn = 0.0  # answered: the next request goes once the pause is over
            self._write(streak)
            return streak.refusing(timeout)

    def answered(self) -> None:
        """An answer that is not a 429: the provider answers, the streak is over."""
        if not os.path.exists(self.path):  # the usual case: one look, no lock
            return
        with self._locked(), contextlib.suppress(OSError):
            os.remove(self.path)

    # --- the file -------------------------------------------------------------------------

    def _read(self) -> Streak | None:
        try:
            with open(self.path, encoding="utf-8") as file:
                return Streak.from_json(json.load(file))
        except (OSError, ValueError):
            return None

    def _write(self, streak: Streak) -> None:
        partial = f"{self.path}.{os.getpid()}.{threading.get_ident()}"
        with contextlib.suppress(OSError):  # the run ended meanwhile: nobody reads it
            with open(partial, "w", encoding="utf-8") as file:
                json.dump(streak.to_json(), file)
            os.replace(partial, self.path)  # readers see all of it or nothing

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The streak's file lock (a few file operations long; POSIX only: elsewhere
        each process keeps its own streak, as without a folder)."""
        try:
            import fcntl
        except ImportError:
            yield
            return
        try:
            file = open(self.path + ".lock", "a+b")  # noqa: SIM115  (closed below)
        except OSError:
            yield  # the run's folder is gone: the run is over
            return
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX)
            yield
        finally:
            file.close()  # closing releases the lock
