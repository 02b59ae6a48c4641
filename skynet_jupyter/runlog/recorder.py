"""Recording a finished run: the engine's one call (:func:`record_run`), which never raises.

Every ``check`` and ``evaluate`` (the magics, ``sj.*``, ``skynet-check``) ends with
``record_run``.  It takes what the run left (:func:`~.record.draft`: references, in
microseconds) and writes the record: at once for a small run in a local folder (a
3-case check: about a millisecond), else on a writer thread, so that a big
evaluation returns as fast as before and the record is made while the notebook
waits for the next cell.  The writer thread is not a daemon: a script's last
records are written before the interpreter exits; ``flush()`` waits for them
(``sj.history``, ``sj.diff`` and ``skynet-check`` call it first).

Recording never fails a run: a log that cannot be written (a read-only folder, a
file in its place, a bucket that refuses) gives one warning, in the caller's
thread: at once, or at the next ``flush`` or record for a write made in the
background.
"""

from __future__ import annotations

import collections
import os
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..i18n import current_surface, t
from .location import LogLocation, resolve_location
from .store import open_store, warn

if TYPE_CHECKING:
    from ..core.options import RunOptions
    from ..core.report import CheckReport
    from .record import Draft

__all__ = ["SYNC_CASES", "flush", "record_run", "write_draft"]

SYNC_CASES = 100  # a local run with at most this many cases is written before the call returns
# The writer thread lets this long pass before it starts: the call that queued a record
# returns without sharing the interpreter with it (flush() wakes it at once).
SETTLE_S = 0.05


def write_draft(made: Draft, location: LogLocation) -> str:
    """Write ``made`` to the log at ``location``; the record's file, as a sentence names it."""
    store = open_store(location)
    _head, data = made.encode()  # reads the metric's source too
    store.write_run(made.run_id, data)
    if made.source is not None and made.version is not None:
        from ..core.secrets import redact

        store.write_source(made.version, redact(made.source))
    return made.run_id


def record_run(
    report: CheckReport,
    metric: Any,
    cases: Any = None,
    options: RunOptions | None = None,
    *,
    log: Any = None,
) -> str | None:
    """Record the finished run ``report`` in the run log; its run id (None: not recorded).

    Never raises: a problem is one warning (:class:`~.store.RunLogWarning`).
    """
    try:
        _WRITER.said_problems()
        location = resolve_location(log)
        if location is None:
            return None
        made = _draft(report, metric, cases, options)
        if location.path is not None and len(made.cases) <= SYNC_CASES:
            _write_now(made, location)
        else:
            _WRITER.submit(lambda: write_draft(made, location), location)
        return made.run_id
    except Exception as problem:  # recording must never fail a check
        warn(_unwritten(problem, None))
        return None


def _draft(report: CheckReport, metric: Any, cases: Any, options: RunOptions | None) -> Draft:
    from ..models.settings import current_settings
    from .record import draft

    models = current_settings(None if options is None else options.models)
    return draft(report, metric, cases, options, surface=current_surface(), models=models)


def _write_now(made: Draft, location: LogLocation) -> None:
    try:
        write_draft(made, location)
    except Exception as problem:
        warn(_unwritten(problem, location))


def _unwritten(problem: BaseException, location: LogLocation | None) -> str:
    from ..core.secrets import redact

    where = location.shown if location is not None else "?"
    error = redact(f"{type(problem).__name__}: {problem}")
    return t("history.not_recorded", where=where, error=error)


def flush(timeout: float | None = None) -> None:
    """Wait until every record this process started writing is written (or has failed,
    said by one warning each)."""
    _WRITER.wait(timeout)
    _WRITER.said_problems()


class _Writer:
    """This process's writer of records made in the background: a queue, and a thread
    while the queue has work (it ends when the queue is empty)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._jobs: collections.deque[tuple[Callable[[], Any], LogLocation]] = collections.deque()
        self._busy = 0  # jobs taken and not finished
        self._thread: threading.Thread | None = None
        self._problems: list[str] = []
        self._hurry = False  # flush() is waiting: no settling

    def submit(self, job: Callable[[], Any], location: LogLocation) -> None:
        with self._lock:
            self._jobs.append((job, location))
            if self._thread is None:
                # Not a daemon: the interpreter waits for the last records before it exits.
                self._thread = threading.Thread(
                    target=self._work, name="skynet-run-log", daemon=False
                )
                self._thread.start()

    def _work(self) -> None:
        with self._lock:
            self._lock.wait_for(lambda: self._hurry, timeout=SETTLE_S)
        while True:
            with self._lock:
                if not self._jobs:
                    self._thread = None
                    self._hurry = False
                    self._lock.notify_all()
                    return
                job, location = self._jobs.popleft()
                self._busy += 1
            try:
                job()
            except Exception as problem:
                self._failed(_unwritten(problem, location))
            finally:
                with self._lock:
                    self._busy -= 1
                    self._lock.notify_all()

    def _failed(self, message: str) -> None:
        if not threading.main_thread().is_alive():  # the interpreter is exiting: say it now
            print(f"skynet_jupyter: {message}", file=sys.stderr)
            return
        with self._lock:
            self._problems.append(message)

    def wait(self, timeout: float | None) -> None:
        with self._lock:
            if self._jobs or self._busy:
                self._hurry = True
                self._lock.notify_all()
            self._lock.wait_for(lambda: not self._jobs and not self._busy, timeout)

    def said_problems(self) -> None:
        """Each problem of a background write, as one warning in the calling thread."""
        with self._lock:
            problems, self._problems = self._problems, []
        for message in problems:
            warn(message)

    def _after_fork(self) -> None:
        # A forked child (a worker process) starts with no writer and no queue of its own.
        self.__init__()  # type: ignore[misc]  # the same object, made new in the child


_WRITER = _Writer()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WRITER._after_fork)
