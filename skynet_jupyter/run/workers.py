"""Cases on watched worker threads: time limits without a thread per call.

Workers run cases one after another and publish each result without a lock;
the calling thread watches them.  A case past its limit is failed, its worker
abandoned (and stopped, if it is in Python code) and a fresh worker carries on,
so a limit costs a thread start only when it is hit.  Events reach the caller
in its own thread, every ``TICK``; Ctrl-C stops the run and keeps what finished.

A call blocked in C (``time.sleep``, a socket read, a lock) cannot be stopped
in a thread: its worker stays behind until the call returns.  At most
``MAX_BLOCKED_THREADS`` such threads are left in the process; past that, the
remaining cases are not started and say why (``isolation="process"`` runs
cases in processes that can be killed: ``isolation``), and the next checks in
this process run in processes by themselves (``threads_exhausted``; the
engine says so once): one hung metric never fails the checks of others.
"""

from __future__ import annotations

import contextvars
import ctypes
import math
import os
import threading
import time
from collections import deque
from collections.abc import Sequence
from functools import partial
from typing import Any

from ..core.contract import METRIC_TIME_LIMIT, RUN_FUNCTION
from ..core.dataset import NO_OUTPUT, Case
from ..core.observation import Observation
from ..core.report import CaseResult
from ..core.skynet_import import install_skynet_module
from ..i18n import t
from ..models.case_context import current_case as _current
from ..models.litellm_import import fresh_clients
from .driver import TICK, Batch, Driven, NotRun, OnResult, drive, stops_the_run
from .forks import carried_on, end_copy, forget_copies, name_the_fork, on_worker_thread
from .one_case import Abandoned, CaseRunner, Deadline, clock_held, fill_measures

_NEVER = math.inf
MAX_BLOCKED_THREADS = 16  # abandoned threads still blocked, per process, before we stop starting
_GRACE = 0.25  # how long a stopped worker gets to leave Python code before it counts as blocked
_POLL = 0.005

# --- threads left behind in C calls (process-wide) -----------------------------------

_blocked: list[threading.Thread] = []
_blocked_lock = threading.Lock()


def blocked_threads() -> int:
    """How many abandoned workers are still blocked in this process (live ones only)."""
    with _blocked_lock:
        _blocked[:] = [thread for thread in _blocked if thread.is_alive()]
        return len(_blocked)


def threads_exhausted() -> bool:
    """True once the bound on blocked threads is reached: no thread-mode case can start."""
    return blocked_threads() >= MAX_BLOCKED_THREADS


_said_processes_instead = False  # the switch to processes is said once per process


def processes_instead() -> str | None:
    """The one sentence saying that checks now run in processes (in the run's language,
    ``i18n.language``); None once said."""
    global _said_processes_instead
    if _said_processes_instead:
        return None
    _said_processes_instead = True
    return t("case.processes_instead", count=blocked_threads())


def _left_behind(thread: threading.Thread) -> None:
    with _blocked_lock:
        _blocked.append(thread)
    # Imported here, not with the engine: a check that calls no model never pays for it.
    from ..models.rate_limit import abandon as abandon_calls

    abandon_calls(thread.ident)  # a request it hangs in gives its place at the provider back


# One function on purpose (C901): once the first exception is sent, no Python function may
# be entered until the flag is cleared (see below), so its parts cannot be helpers.
def _stop_threads(watches: Sequence[_Watch]) -> list[_Watch]:  # noqa: C901
    """Stop each worker that runs Python code; the ones still blocked (in C) after a grace.

    An asynchronous exception stops a runaway Python loop, but a thread in a C
    call only sees it when the call returns.  Left pending, it keeps the
    interpreter's "eval breaker" set, and in CPython 3.11 every *traced* thread
    (a debugger, coverage, pdb: sys.settrace / threading.settrace) then spins
    at its next Python function entry until the blocked thread wakes: the
    watcher itself would stall, and limits would not hold.  So each exception
    gets a short grace; one still pending is withdrawn and the flag cleared.
    Between the first exception sent and the flag cleared, this function runs
    no Python function (only C calls and slot reads), so a traced caller never
    reaches a function entry while the flag is up.
    """
    set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    targets = [(watch, watch.thread.ident) for watch in watches if watch.thread is not None]
    sent: list[tuple[_Watch, int]] = []
    for watch, ident in targets:
        if (
            ident is not None
            and not watch.exited
            and set_async(ctypes.c_ulong(ident), ctypes.py_object(Abandoned))
        ):
            sent.append((watch, ident))
    if not sent:
        return []
    waited = 0.0
    while waited < _GRACE:
        time.sleep(_POLL)
        waited += _POLL
        running = False
        for watch, _ident in sent:
            if not watch.exited:
                running = True
                break
        if not running:
            break
    blocked: list[_Watch] = []
    for watch, ident in sent:
        if not watch.exited:
            set_async(ctypes.c_ulong(ident), None)  # withdraw it
            blocked.append(watch)
    own = ctypes.c_ulong(threading.get_ident())
    try:  # clear the flag: send ourselves one and consume it at the loop's backward jump
        set_async(own, ctypes.py_object(_Flush))
        for _ in range(1_000_000):  # the first backward jump raises it
            pass
        set_async(own, None)  # never here on CPython; never let it fire later, elsewhere
    except _Flush:
        pass
    # A thread stopped inside an HTTP client's lock (between its acquire and its ``with``)
    # leaves that lock held for good: the next call gets clients of its own.
    fresh_clients()
    return blocked


class _Flush(BaseException):
    """Sent by this thread to itself, to clear the pending-async-exception flag."""


# --- the job: cases shared by watched workers ----------------------------------------


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
        self.todo = iter(cases)  # next() on it is atomic under the GIL
        self.finished: list[CaseResult] = []  # append-only: list.append is atomic
        self.started: deque[int] | None = deque() if track_started else None
        self.timed_out: dict[int, CaseResult] = {}  # case index -> its timeout result (wins)
        self.lock = threading.Lock()  # for the count of live workers, not per case
        self.alive = 0
        self.stop = False
        self.all_done = threading.Event()
        self.forked: dict[int, bool] = {}  # case index -> forked in run (else in score)
        self.refused: str | None = None  # why no more workers start (cases left say it)
        self.provider_stop: str | None = None  # a provider refused everything (cases left say it)

    def work(self, watch: _Watch) -> None:
        # The hot loop: locals only, no lock, one context for every case.
        runner = self.runner
        score_case = runner.score_case
        ctx = runner.context()
        ctx.stop_run = self.stop_for_provider
        ctx.hold_clock = partial(clock_held, watch)  # litellm's import at a miss: not its time
        token = _current.set(ctx)
        todo = self.todo
        publish = self.finished.append
        started = self.started
        never = _NEVER
        on_worker_thread(self, watch)  # a fork made by a case on this thread is watched
        try:
            # Whether to stop is asked before each case is taken (a case taken is run):
            # once here, then at the end of each case.  ``for`` takes the next case
            # from the shared iterator as atomically as next() did, without a call.
            if self.stop or watch.abandoned:
                return
            for case in todo:
                watch.case = case
                if started is not None:
                    started.append(case.index)
                result = score_case(case, ctx, watch)  # never raises, but for Abandoned
                # Order matters: the watcher never times out a case marked finishing.
                watch.finishing = case
                if result.failed_step is not None and stops_the_run(result):
                    # The driver's rule, seen here first: no worker takes another case.
                    self.stop = True
                publish(result)
                watch.deadline = never
                watch.case = None
                if self.stop or watch.abandoned:
                    break
        except Abandoned:
            pass
        finally:
            _current.reset(token)
            self._exit(watch)

    def stop_for_provider(self, reason: str) -> None:
        """No further case starts (a provider refused every request): ``reason`` says why."""
        if self.provider_stop is None:
            self.provider_stop = reason
        self.stop = True

    def _exit(self, watch: _Watch) -> None:
        end_copy()  # in a copy made by os.fork in a case: ends here (before any lock)
        with self.lock:
            watch.exited = True
            if not watch.abandoned:
                self._one_less()

    def _one_less(self) -> None:
        self.alive -= 1
        if self.alive == 0:
            self.all_done.set()

    def spawn(self) -> _Watch | None:
        """A new worker, or None when none may or can start (``refused`` says why)."""
        blocked = blocked_threads()
        if blocked >= MAX_BLOCKED_THREADS:
            self.refused = t("case.not_run_blocked", self.runner.lang, count=blocked)
            return None
        watch = _Watch()
        # In a copy of the caller's context: the run's language (``i18n.language``) holds there.
        in_context = contextvars.copy_context().run
        thread = threading.Thread(
            target=in_context, args=(self.work, watch), name="skynet-case", daemon=True
        )
        watch.thread = thread
        with self.lock:
            self.alive += 1
            self.all_done.clear()
        try:
            thread.start()
        except RuntimeError as exc:  # "can't start new thread": a process thread limit
            with self.lock:
                self._one_less()
            self.refused = t(
                "case.not_run_no_thread",
                self.runner.lang,
                error=f"{type(exc).__name__}: {exc}",
                count=blocked,
            )
            return None
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
        return case

    def left_over(self) -> list[Case]:
        """The cases no worker took (after every worker has stopped)."""
        return list(self.todo)


def timeout_result(
    runner: CaseRunner,
    case: Case,
    step: str,
    blocked: bool,
    given: tuple[Any, Observation | None] | None = None,
) -> CaseResult:
    """The result of a case past its limit.  A metric that ran out of time shows the
    output it was given and what its run measured: ``given`` (the case's own, when the
    output was known before; else what its run gave, ``Deadline.ran``)."""
    result = CaseResult(case.index, case.input, case.expected, failed_step=step)
    if case.output is not NO_OUTPUT:
        result.output = case.output
        if case.measured is not None:
            fill_measures(result, case.measured, replayed=True)
            result.cached = True
    elif step != RUN_FUNCTION and given is not None:
        result.output, seen = given
        if seen is not None:
            fill_measures(result, seen, replayed=False)
    if step == RUN_FUNCTION:
        result.error = t("case.run_timeout", runner.lang, seconds=f"{runner.limits.run:g}")
    else:
        result.error = t("case.metric_timeout", runner.lang, seconds=f"{runner.limits.metric:g}")
        result.metric_ms = runner.limits.metric * 1000.0
    if blocked:  # a thread cannot stop a C call; a process can be killed
        result.error += " " + t("case.blocked_hint", runner.lang)
    return result


def run_in_threads(
    runner: CaseRunner,
    cases: Sequence[Case],
    *,
    concurrency: int,
    on_result: OnResult | None,
) -> Driven:
    """Run ``cases`` on ``concurrency`` watched workers (:class:`~.driver.Driven`).

    The calling thread watches: every ``TICK`` it hands new results to
    ``on_result``, fails a case past its limit (and replaces its worker), and
    turns Ctrl-C into a stop that keeps what finished.  If ``on_result``
    raises, no new case starts, the cases in flight finish (or time out), and
    :class:`StoppedByListener` carries the results (the loop: ``driver.drive``).
    """
    threads = Threads(runner, cases, concurrency, track_started=on_result is not None)
    return drive(threads, cases, runner, on_result)


def _warm_up_models(runner: CaseRunner) -> None:
    """Import litellm before the cases, when their calls will likely be made now."""
    models = runner.models_to_warm()
    if models:
        from ..models.llm import warm_up

        warm_up(*models)  # a litellm model's first call imports litellm (seconds): not timed


class Threads:
    """The driver's backend on watched worker threads (``driver.Backend``)."""

    def __init__(
        self, runner: CaseRunner, cases: Sequence[Case], concurrency: int, track_started: bool
    ) -> None:
        install_skynet_module()
        self.runner = runner
        self.job = _Job(runner, cases, track_started=track_started)
        self.watches: list[_Watch] = []
        self.seen = 0  # how many of the job's finished results were collected
        self.refused_step = METRIC_TIME_LIMIT  # the step of a case whose worker was not replaced
        # One worker first, the others once cases are seen to wait (_Ramp).
        self.ramp = _Ramp(max(1, min(concurrency, len(cases))))

    def start(self) -> None:
        _warm_up_models(self.runner)  # here: a Ctrl-C during litellm's import is the run's
        self.ramp.grow(self.job, self.watches)

    @property
    def provider_stop(self) -> str | None:
        return self.job.provider_stop

    def collect(self) -> Batch:
        job, watches, ramp = self.job, self.watches, self.ramp
        if not watches:
            return Batch(over=True)
        done = job.all_done.wait(ramp.interval() if ramp.open else TICK)
        if ramp.open and watches[0].case is not None and ramp.cases_wait(watches[0].case):
            ramp.grow(job, watches)  # (a worker between cases, or done, waits for nothing)
        finished = job.finished
        count = len(finished)
        fresh = finished[self.seen : count]
        self.seen = count
        if job.timed_out:  # a late result of a timed-out case (its worker finished after all)
            fresh = [r for r in fresh if r.index not in job.timed_out]
        fresh += self._time_out(time.perf_counter())
        started = _take(job.started)
        over = done and job.all_done.is_set() and len(finished) == self.seen
        return Batch(started, fresh, over)

    def _time_out(self, now: float) -> list[CaseResult]:
        """Fail the cases past their limit, replacing their workers: their results."""
        late: list[tuple[_Watch, Case, str]] = []
        for watch in self.watches:
            if watch.case is None or now <= watch.deadline:
                continue
            step = watch.step
            case = self.job.abandon(watch, now)
            if case is not None:
                late.append((watch, case, step))
        if not late:
            return []
        blocked = _stop_threads([watch for watch, _, _ in late])
        return [self._timed_out(watch, case, step, watch in blocked) for watch, case, step in late]

    def _timed_out(self, watch: _Watch, case: Case, step: str, stuck: bool) -> CaseResult:
        if stuck and watch.thread is not None:
            _left_behind(watch.thread)
        given = watch.given if case.output is NO_OUTPUT else None
        result = timeout_result(self.runner, case, step, stuck, given)
        self.job.timed_out[case.index] = result
        self.watches.remove(watch)
        if not self.job.stop:
            replacement = self.job.spawn()
            if replacement is not None:
                self.watches.append(replacement)
            else:
                self.refused_step = step
        return result

    def stop_starting(self) -> None:
        self.job.stop = True  # no new case; those in flight finish or time out

    def cancel(self) -> list[CaseResult]:
        job = self.job
        job.stop = True
        kept = len(job.finished)  # what finished before Ctrl-C; not the cases stopped below
        stopping = []
        for watch in self.watches:
            with job.lock:
                if not (watch.exited or watch.abandoned):
                    watch.abandoned = True
                    job._one_less()
                    stopping.append(watch)
        for watch in _stop_threads(stopping):
            if watch.thread is not None:
                _left_behind(watch.thread)
        # Not collected yet; an abandoned worker may still append to ``finished``.
        return [r for r in job.finished[self.seen : kept] if r.index not in job.timed_out]

    def left_over(self) -> list[Case]:
        return self.job.left_over()

    def not_run(self, stop: NotRun | None) -> NotRun:
        job = self.job
        if job.refused is not None:
            # Refused for threads left blocked (maybe by another check): no hint blames this code.
            return NotRun(self.refused_step, job.refused, "hint.not_run_blocked")
        if stop is not None:
            return stop
        return NotRun(self.refused_step, t("case.lost", self.runner.lang))

    def in_order(self) -> bool:
        return not self.job.timed_out and self.ramp.spawned <= 1

    def finish(self, results: list[CaseResult]) -> None:
        # A case that forked on its thread fails if its copy came back.  A case failed at its
        # time limit is not waited for: its copy may run as long as the hung case does,
        # and the case has failed already.
        forked = {i: v for i, v in self.job.forked.items() if i not in self.job.timed_out}
        forget_copies(set(self.job.forked) - set(forked))
        if forked:
            carried = carried_on(forked)
            for result in results:
                if result.index in carried:
                    name_the_fork(result, forked[result.index], self.runner.lang)

    def close(self) -> None:
        """Nothing to release: the workers end by themselves (or stay blocked, counted)."""


class _Ramp:
    """When to start the workers past the first: once the cases are seen to wait.

    Under the GIL, threads speed up only cases that wait (a model call, a
    socket, ``time.sleep``); a CPU-bound metric in Python runs fastest on one
    thread (issue 26: 8 threads cost it 1.2-2.2x).  So one worker starts, and
    the watcher looks at how the first worker spent the time since its last
    look: when it was blocked (neither running nor waiting for a CPU: Linux's
    per-thread ``schedstat``) more than half of it, twice in a row, every other
    worker starts.  A case that runs alone for ``LONG`` starts them too: a slow or
    hung case never holds back the others (they ran beside it before).
    The first look comes after a few milliseconds (an I/O-bound run loses no
    more than that); after a look that saw the worker busy the next one waits
    twice as long, up to ``TICK``, and after one that saw it blocked, a few
    milliseconds again, to confirm.  Each look takes the GIL from a busy worker
    (the hand-off costs most on a loaded machine), so a CPU-bound run is looked
    at a handful of times, not every few milliseconds.  Without ``schedstat``
    the process's CPU time stands in (a loaded machine may then start them all,
    as before).
    """

    __slots__ = (
        "blocked_before",
        "busy",
        "current",
        "gap",
        "open",
        "since",
        "slots",
        "spawned",
        "stat",
        "wall",
    )

    FIRST = 0.002  # seconds before the first look, and after a look that saw it blocked
    BLOCKED = 0.5  # above this share of the time blocked, the cases wait
    LONG = 0.5  # seconds one case may run alone before the other workers start anyway

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.spawned = 0
        self.open = slots > 1
        self.stat: str | None = None
        self.blocked_before = False
        self.wall = time.perf_counter()
        self.busy = 0.0
        self.current: object = None  # the case the first worker was last seen on
        self.since = self.wall
        self.gap = self.FIRST  # until the next look

    def interval(self) -> float:
        return self.gap

    def _busy(self) -> float:
        """Seconds the first worker ran or was ready to run (else: the process's CPU time)."""
        if self.stat is not None:
            try:
                with open(self.stat, "rb") as stat:
                    running, ready = stat.read().split()[:2]
                return (int(running) + int(ready)) / 1e9
            except (OSError, ValueError):
                self.stat = None
        return time.process_time()

    def cases_wait(self, case: object) -> bool:
        wall = time.perf_counter()
        if case is not self.current:
            self.current, self.since = case, wall
        elif wall - self.since > self.LONG:
            return True
        slept = wall - self.wall
        if slept < self.FIRST:
            return False
        busy = self._busy()
        blocked = 1.0 - (busy - self.busy) / slept > self.BLOCKED
        self.wall, self.busy = wall, busy
        self.gap = self.FIRST if blocked else min(TICK, 2.0 * self.gap)
        # Twice in a row: once may be the worker waiting for the GIL while the watcher,
        # holding it, was descheduled (a loaded machine).
        seen, self.blocked_before = self.blocked_before, blocked
        return blocked and seen

    def grow(self, job: _Job, watches: list[_Watch]) -> None:
        """The first worker; called again, the others (none once the run stops)."""
        want = 1 if self.spawned == 0 else self.slots
        while len(watches) < want and not job.stop:
            watch = job.spawn()
            if watch is None:
                break
            watches.append(watch)
            self.spawned += 1
        if self.spawned == 1 and watches[0].thread is not None:
            native = watches[0].thread.native_id
            path = f"/proc/self/task/{native}/schedstat"
            self.stat = path if native is not None and os.path.exists(path) else None
            self.wall, self.busy = time.perf_counter(), self._busy()
        self.open = self.open and self.spawned == 1 and not job.stop


def _take(started: deque[int] | None) -> list[int]:
    taken: list[int] = []
    while started:
        taken.append(started.popleft())  # a deque: safe against appending workers
    return taken
