"""The default concurrency adds threads only when cases wait (issue 26).

Under the GIL a CPU-bound metric runs fastest on one thread, so ``evaluate`` starts
one worker and starts the others once the cases are seen to wait (a model call, a
socket, a sleep).  Which threads ran the cases says which happened; the results are
the same either way, in case order.
"""

from __future__ import annotations

import threading
import time

import skynet_jupyter as sj
from skynet_jupyter.core.options import EVAL_CONCURRENCY

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
