"""The default concurrency adds threads only when cases wait (issue 26).

Under the GIL a CPU-bound metric runs fastest on one thread, so ``evaluate`` starts
one worker and starts the others once the cases are seen to wait (a model call, a
socket, a sleep).  Which threads ran the cases says which happened; the results are
the same either way, in case order.
"""

from __future__ import annotations

import threading
import time

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.options import EVAL_CONCURRENCY
from skynet_jupyter.run import workers

ROWS = [{"text": f"ticket {i}", "label": "billing", "prediction": "billing"} for i in range(60)]


def _threads_of(metric, rows, **options):
    report = sj.evaluate(metric, rows, outputs="label", output_column="prediction", **options)
    assert report.passed and [c.index for c in report.cases] == list(range(len(rows)))
    return {c.feedback for c in report.cases}


def cpu_bound(input, output, expected=None):
    total = 0
    for i in range(20_000):  # ~1-5 ms of Python: never waits
        total += i % 7
    return 1.0, {"feedback": str(threading.get_ident())}


def waits(input, output, expected=None):
    time.sleep(0.03)  # a model call's wait
    return 1.0, {"feedback": str(threading.get_ident())}


def test_cpu_bound_cases_run_on_one_thread_at_the_default_concurrency():
    assert EVAL_CONCURRENCY > 1
    assert len(_threads_of(cpu_bound, ROWS)) == 1


@pytest.mark.alone  # 32 waits of 0.03 s in parallel, timed against 0.48 s
def test_cases_that_wait_get_every_slot():
    assert len(_threads_of(waits, ROWS[:32])) == EVAL_CONCURRENCY
    assert len(_threads_of(waits, ROWS[:32], concurrency=16)) == 16
    started = time.perf_counter()
    _threads_of(waits, ROWS[:32], concurrency=16)
    assert time.perf_counter() - started < 32 * 0.03 / 2  # in parallel, not one by one


def test_concurrency_one_stays_one_thread():
    assert len(_threads_of(waits, ROWS[:4], concurrency=1)) == 1


def slow_first(input, output, expected=None):
    if input["text"] == "ticket 0":  # a slow or stuck case, busy in Python: it never waits
        until = time.perf_counter() + 1.5
        while time.perf_counter() < until:
            pass
    return 1.0, {"feedback": str(threading.get_ident())}


def test_a_long_case_does_not_hold_back_the_others():
    # One case busy for 1.5 s must not keep the other workers from starting: the
    # others ran beside it, on other threads, as with every worker started at once.
    threads = _threads_of(slow_first, ROWS[:20])
    assert len(threads) > 1


class _Clocked(workers._Ramp):
    """A ramp whose clocks the test moves: the wall clock, and the worker's busy seconds."""

    def __init__(self) -> None:
        self.now = 0.0
        self.busy_s = 0.0
        super().__init__(EVAL_CONCURRENCY)

    def _busy(self) -> float:
        return self.busy_s


def _look(ramp: _Clocked, case: object, busy_share: float) -> bool:
    """Let ``ramp.interval()`` pass with the worker busy ``busy_share`` of it; then look."""
    gap = ramp.interval()
    ramp.now += gap
    ramp.busy_s += busy_share * gap
    return ramp.cases_wait(case)


def test_a_busy_worker_is_looked_at_ever_less_often_and_a_waiting_one_soon(monkeypatch):
    """Each look takes the GIL from a busy worker: the gaps double while it is busy."""
    ramp = _Clocked()
    monkeypatch.setattr(workers.time, "perf_counter", lambda: ramp.now)
    ramp.wall = ramp.since = 0.0
    case = object()
    gaps = []
    for _ in range(8):
        gaps.append(ramp.interval())
        assert not _look(ramp, case, busy_share=1.0)
    first = workers._Ramp.FIRST
    assert gaps == [min(workers.TICK, first * 2**n) for n in range(8)]
    # 0.33 s on one case, near LONG: a new case restarts that count (the gap stays).
    case = object()
    assert ramp.interval() == workers.TICK
    # Blocked once: looked at again soon; twice in a row: the cases wait.
    assert not _look(ramp, case, busy_share=0.1)
    assert ramp.interval() == first
    assert _look(ramp, case, busy_share=0.1)
    # Blocked, then busy: not twice in a row, and the gaps grow again.
    ramp = _Clocked()
    ramp.wall = ramp.since = 0.0
    assert not _look(ramp, case, busy_share=0.0)
    assert not _look(ramp, case, busy_share=1.0)
    assert ramp.interval() == 2 * first
