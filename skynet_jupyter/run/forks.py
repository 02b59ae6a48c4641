"""A worker process's copy made by ``os.fork`` in ``score`` or ``run``, that returned.

Such a copy would carry on as a second worker: read the next case meant for
the real one, answer on the same channel, and cases would go missing.  So a
copy that comes back from the case stops at once (``os._exit``), says so on
the shared page, and the real worker fails the case that forked, naming
what the user's code did ("score forked its process...").  A fork whose child
ends itself (``os._exit``, ``exec``, multiprocessing) changes nothing.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Protocol

from ..core.contract import METRIC_RETURN_VALUE, RUN_FUNCTION
from ..core.report import CaseResult
from ..i18n import t

__all__ = [
    "ForkGuard",
    "carried_on",
    "end_copy",
    "forget_copies",
    "name_the_fork",
    "on_worker_thread",
]

WAIT_S = 2.0  # how long the real worker waits for a copy to either end or report itself
_POLL_S = 0.005


class Detachable(Protocol):
    """The worker's watch: its step, and a way for a copy to stop writing the shared page."""

    @property
    def step(self) -> str: ...

    def detach(self) -> None: ...


class ForkGuard:
    """One per worker process: its slot's cells ``pid_at`` (a copy's pid), ``pid_at + 1``."""

    def __init__(self, cells: Any, pid_at: int, watch: Detachable) -> None:
        self._cells = cells
        self._pid_at = pid_at
        self._said_at = pid_at + 1  # 0: nothing said; 1 + 0 run, 1 + 1 score
        self._watch = watch
        self._pid = os.getpid()
        self._forked_in = RUN_FUNCTION
        self._forked = False  # in the real worker: this case forked
        if hasattr(os, "register_at_fork"):  # POSIX: elsewhere there is no fork
            os.register_at_fork(after_in_parent=self._in_parent, after_in_child=self._in_copy)

    def _in_parent(self) -> None:
        self._forked = True

    def _in_copy(self) -> None:
        self._forked_in = self._watch.step
        self._watch.detach()  # the copy's deadlines must not move the real worker's
        self._cells[self._pid_at] = float(os.getpid())

    def start(self) -> None:
        self._forked = False
        self._cells[self._pid_at] = 0.0
        self._cells[self._said_at] = 0.0

    def stop_if_copy(self) -> None:
        """In a copy that returned from the case: say so and end, before touching anything."""
        if os.getpid() != self._pid:
            self._cells[self._said_at] = 1.0 + (self._forked_in != RUN_FUNCTION)
            os._exit(0)

    def checked(self, result: CaseResult, lang: str) -> CaseResult:
        """``result``, or the failure naming the fork if a copy of this case carried on."""
        if not self._forked:
            return result
        deadline = time.monotonic() + WAIT_S
        # The copy writes its pid first thing (before fork() returns in it); then it either
        # ends (exec, os._exit) or comes back from the case and says so.
        while not self._cells[self._pid_at] and time.monotonic() < deadline:
            time.sleep(_POLL_S)
        copy = int(self._cells[self._pid_at])
        while not self._cells[self._said_at] and _running(copy) and time.monotonic() < deadline:
            time.sleep(_POLL_S)
        said = int(self._cells[self._said_at])
        if not said:
            return result
        return name_the_fork(result, said == 1, lang)


def _running(pid: int) -> bool:
    """True while this process's child ``pid`` has not ended (never reaps it: its code is
    the user's to read)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:  # not ours to wait for, or already read: it ended
        return False


def name_the_fork(result: CaseResult, in_run: bool, lang: str) -> CaseResult:
    """``result`` failed: its run or score forked, and the copy came back from the case."""
    result.score = None
    result.failed_step = RUN_FUNCTION if in_run else METRIC_RETURN_VALUE
    result.error = t("case.forked", lang, function="run" if in_run else "score")
    result.hint_id = "hint.forked"
    return result


# --- thread mode: a fork made on a worker thread ----------------------------------------
#
# The copy holds only the thread that forked; it finishes its case, then its worker loop
# sees ``stop`` (set in the copy only) and the copy ends.  It tells the real process over a
# pipe made at the first fork: "S pid case" when it starts, "C case" when it came back.


class _OnThread(threading.local):
    job: Any = None  # the job whose cases this worker thread runs (None: not a worker)
    watch: Any = None
    copy_of: int | None = None  # in a copy: the case it was forked in


_on_thread = _OnThread()
_pipe: list[int] = []  # [read, write], made by the first fork on a worker thread
_heard: dict[int, list[int]] = {}  # case index -> [copy pid, came back (0/1)]


def on_worker_thread(job: Any, watch: Any) -> None:
    """This thread runs ``job``'s cases: a fork here is watched.  Once per worker, not per case."""
    _on_thread.job, _on_thread.watch = job, watch


def _before() -> None:
    if _on_thread.job is not None and not _pipe:
        read, write = os.pipe()
        os.set_blocking(read, False)
        _pipe[:] = [read, write]


def _after_in_parent() -> None:
    job, watch = _on_thread.job, _on_thread.watch
    case = None if watch is None else watch.case
    if job is not None and case is not None:
        job.forked[case.index] = watch.step == RUN_FUNCTION


def _after_in_child() -> None:
    job, watch = _on_thread.job, _on_thread.watch
    case = None if watch is None else watch.case
    if job is None or case is None or not _pipe:
        return
    job.stop = True  # in this copy only: it takes no other case
    _on_thread.copy_of = case.index
    os.write(_pipe[1], f"S {os.getpid()} {case.index}\n".encode())


def end_copy() -> None:
    """In a copy that came back from its case (its worker loop ended): say so, and end."""
    index = _on_thread.copy_of
    if index is not None:
        os.write(_pipe[1], f"C {index}\n".encode())
        os._exit(0)


def carried_on(forked: dict[int, bool]) -> set[int]:
    """The cases of ``forked`` whose copy came back instead of ending (waits ``WAIT_S`` at most)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        _read_pipe()
        waiting = [
            index
            for index in forked
            if index not in _heard or (not _heard[index][1] and _running(_heard[index][0]))
        ]
        if not waiting or time.monotonic() >= deadline:
            break
        time.sleep(_POLL_S)
    return {index for index in forked if _heard.pop(index, [0, 0])[1]}


def forget_copies(cases: set[int]) -> None:
    """Forget what the copies of ``cases`` said (cases not waited for: failed already)."""
    _read_pipe()
    for index in cases:
        _heard.pop(index, None)


def _read_pipe() -> None:
    data = b""
    while _pipe:
        try:
            chunk = os.read(_pipe[0], 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        data += chunk
    for line in data.decode().splitlines():
        kind, *numbers = line.split()
        if kind == "S":
            _heard[int(numbers[1])] = [int(numbers[0]), 0]
        elif kind == "C" and int(numbers[0]) in _heard:
            _heard[int(numbers[0])][1] = 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=_before, after_in_parent=_after_in_parent, after_in_child=_after_in_child
    )
