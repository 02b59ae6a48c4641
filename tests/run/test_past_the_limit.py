"""A time limit holds when the watcher cannot look in time (issue 43, rule 4; issue 45).

In thread mode a call that holds its thread (C code under the GIL: a regular expression
that backtracks) keeps the watcher from running until it returns: its result came first
and the case passed, past its limit.  And a hung case that forked on its thread made the
check wait for its copy as well, the forks' whole wait, after the limit.
"""

from __future__ import annotations

import os
import re
import time

import pytest

import skynet_jupyter as sj
from skynet_jupyter.run import forks

ROW = [{"text": "x", "output": "y"}]
BACKTRACKS = r"(a+)+$"  # on "a" * n + "b": 2**n steps in C, with the GIL held


def slow_in_c(seconds: float) -> str:
    """A subject for BACKTRACKS that takes about ``seconds`` on this machine (or more)."""
    for n in range(16, 32):
        started = time.perf_counter()
        re.match(BACKTRACKS, "a" * n + "b")
        if time.perf_counter() - started > seconds / 4:
            return "a" * (n + 2) + "b"  # four times as long: past the limit, on any load
    return "a" * 32 + "b"


def test_a_metric_that_held_its_thread_past_the_limit_fails_at_its_limit():
    subject = slow_in_c(2.0)

    def score(input, output, expected=None):
        re.match(BACKTRACKS, subject)
        return 1.0, {"feedback": "Returned, late."}

    report = sj.check(score, ROW, output_column="output", timeout=1, cases=1)
    (case,) = report.cases
    assert not report.passed and case.score is None
    assert "past the 1 s metric time limit" in case.error
    assert case.output == "y" and case.metric_ms == 1000.0


def test_a_run_that_held_its_thread_past_the_limit_fails_at_its_limit():
    subject = slow_in_c(2.0)

    def run(artifact, input):
        re.match(BACKTRACKS, subject)
        return "late"

    def score(input, output, expected=None):
        return 1.0, {"feedback": "Scored."}

    report = sj.evaluate(score, [{"text": "x"}], run=run, artifact="a", run_timeout=1)
    (case,) = report.cases
    assert not report.passed and case.error.startswith("run(artifact, input) took")
    assert "past its 1 s time limit" in case.error


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_hung_case_that_forked_is_not_waited_for_past_its_limit(monkeypatch):
    monkeypatch.setattr(forks, "WAIT_S", 30.0)  # what the check waited for each copy

    def score(input, output, expected=None):
        if os.fork() == 0:  # a helper process the metric starts, and then hangs
            time.sleep(40)
            os._exit(0)
        time.sleep(60)

    rows = [{"text": f"case {n}", "output": "x"} for n in range(3)]
    started = time.perf_counter()
    report = sj.check(score, rows, output_column="output", timeout=1, isolation="thread")
    assert time.perf_counter() - started < 15  # the copies' 30 s wait was not spent
    assert all("metric time limit" in case.error for case in report.cases)
