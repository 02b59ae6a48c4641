"""Cases on watched worker threads: time limits without a thread per call.

Workers run cases one after another and publish each result without a lock;
the calling thread watches them.  A case past its limit is failed, its worker
abandoned (and stopped, if it is in Python code) and a fresh worker carries on,
so a limit costs a thread start only when it is hit.  Events reach the caller
in its own thread, every ``TICK``; Ctrl-C stops the run and keeps what finished.
"""

from __future__ import annotations

import ctypes
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

from ._runner import CaseRunner, Deadline
from .contract import RUN_FUNCTION
from .dataset import NO_OUTPUT, Case
from .i18n import t
from .report import CaseResult
from .runtime import CaseContext, _current, install_skynet_module

_NEVER = math.inf
TICK = 0.1  # how often the watcher wakes: bounds event latency and timeout slack


class _Abandoned(BaseException):
    """Raised (best effort) in a worker whose case ran past its limit."""


class _Watch(Deadline):
    """What one worker is doing, read by the watcher: its case and that phase's deadline.

    The worker writes these without a lock (one attribute at a time, under the
    GIL); the order of its writes is what lets the watcher read them safely.
    """

    __slots__ = ("abandoned", "case", "exited", "finishing", "thread")

    def __init__(self) -> None:
        super().__init__()
        self.case: Case | None = None
        self.finishing: Case | None = None  # set just before the case's result is published
        self.abandoned = False
        self.exited = False
        self.thread: threading.Thread | None = None


class _Job:
    """Cases shared by watched workers; results are published without a lock per case."""

    def __init__(
        self, runner: CaseRunner, cases: Sequence[Case], track_started: bool = False
    ) -> None:
        self.runner = runner
        self.cases = cases
        self.todo = iter(range(len(cases)))  # next() on it is atomic under the GIL
        self.finished: list[CaseResult] = []  # append-only: list.append is atomic
        self.started: deque[int] | None = deque() if track_started else None
        self.timed_out: dict[int, CaseResult] = {}  # case index -> its timeout result (wins)
        self.lock = threading.Lock()  # for the count of live workers, not per case
        self.alive = 0
        self.stop = False
        self.all_done = threading.Event()

    def work(self, watch: _Watch) -> None:
        # The hot loop: locals only, no lock, one context for every case.
        runner = self.runner
        score_case = runner.score_case
        ctx = CaseContext(runner.models)
        token = _current.set(ctx)
        cases = self.cases
        todo = self.todo
        publish = self.finished.append
        started = self.started
        try:
            while not (self.stop or watch.abandoned):
                position = next(todo, None)
                if position is None:
                    break
                case = cases[position]
                watch.case = case
                if started is not None:
                    started.append(case.index)
                result = score_case(case, ctx, watch)
                # Order matters: the watcher never times out a case marked finishing.
                watch.finishing = case
                publish(result)
                watch.deadline = _NEVER
                watch.case = None
        except _Abandoned:
            pass
        finally:
            _current.reset(token)
            self._exit(watch)

    def _exit(self, watch: _Watch) -> None:
        with self.lock:
            watch.exited = True
            if not watch.abandoned:
                self._one_less()

    def _one_less(self) -> None:
        self.alive -= 1
        if self.alive == 0:
            self.all_done.set()

    def spawn(self) -> _Watch:
        watch = _Watch()
        thread = threading.Thread(target=self.work, args=(watch,), name="skynet-case", daemon=True)
        watch.thread = thread
        with self.lock:
            self.alive += 1
            self.all_done.clear()
        thread.start()
        return watch

    def abandon(self, watch: _Watch, now: float = _NEVER) -> Case | None:
        """Give up on a worker whose case is past ``now``: that case, or None if it is not."""
        with self.lock:
            case = watch.case
            if (
                watch.exited
                or watch.abandoned
                or case is None
                or watch.finishing is case
                or watch.deadline > now
            ):
                return None
            watch.abandoned = True
            self._one_less()
        _interrupt_thread(watch.thread)
        return case


def _interrupt_thread(thread: threading.Thread | None) -> None:
    # Stops a runaway pure-Python loop; a call blocked in C ignores it, and is
    # simply left behind (its result is never read).
    if thread is not None and thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(_Abandoned)
        )


def _timeout_result(runner: CaseRunner, case: Case, step: str) -> CaseResult:
    result = CaseResult(case.index, case.input, case.expected, failed_step=step)
    if case.output is not NO_OUTPUT:
        result.output = case.output
    if step == RUN_FUNCTION:
        result.error = t("case.run_timeout", runner.lang, seconds=f"{runner.limits.run:g}")
    else:
        result.error = t("case.metric_timeout", runner.lang, seconds=f"{runner.limits.metric:g}")
        result.metric_ms = runner.limits.metric * 1000.0
    return result


def supervise(
    runner: CaseRunner,
    cases: Sequence[Case],
    *,
    concurrency: int,
    on_result: Callable[[list[int], list[CaseResult]], None] | None,
) -> tuple[list[CaseResult], bool]:
    """Run ``cases`` on ``concurrency`` watched workers; (results in case order, interrupted).

    The calling thread watches: every ``TICK`` it hands new results to
    ``on_result``, fails a case past its limit (and replaces its worker), and
    turns Ctrl-C into a stop that keeps what finished.
    """
    install_skynet_module()
    from ._models import warm_up

    # A litellm model's first call imports litellm (seconds): do it before timing.
    warm_up(runner.models.task_model, runner.models.judge_model)
    job = _Job(runner, cases, track_started=on_result is not None)
    finished = job.finished
    timed_out = job.timed_out
    watches: list[_Watch] = []
    seen = 0
    interrupted = False
    try:
        for _ in range(max(1, min(concurrency, len(cases)))):
            watches.append(job.spawn())
        while True:
            done = job.all_done.wait(TICK)
            count = len(finished)
            fresh = finished[seen:count]
            seen = count
            if timed_out:
                fresh = [r for r in fresh if r.index not in timed_out]
            now = time.perf_counter()
            for watch in list(watches):
                if watch.case is None or now <= watch.deadline:
                    continue
                step = watch.step
                case = job.abandon(watch, now)
                if case is not None:
                    timed_out[case.index] = _timeout_result(runner, case, step)
                    fresh.append(timed_out[case.index])
                    watches.remove(watch)
                    watches.append(job.spawn())
            if on_result is not None:
                started = _take(job.started)
                if fresh or started:
                    on_result(started, fresh)
            if done and job.all_done.is_set() and len(finished) == seen:
                break
    except KeyboardInterrupt:
        interrupted = True
        job.stop = True
        for watch in watches:
            with job.lock:
                if not (watch.exited or watch.abandoned):
                    watch.abandoned = True
                    job._one_less()
            _interrupt_thread(watch.thread)
    results = [r for r in finished if r.index not in timed_out] + list(timed_out.values())
    if len(results) != len(cases) or timed_out or interrupted or concurrency > 1:
        order = {case.index: position for position, case in enumerate(cases)}
        results.sort(key=lambda r: order[r.index])
    return results, interrupted


def _take(started: deque[int] | None) -> list[int]:
    taken: list[int] = []
    while started:
        taken.append(started.popleft())  # a deque: safe against appending workers
    return taken
