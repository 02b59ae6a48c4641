"""A hung metric leaves threads blocked in C; later checks of other metrics still work.

Thread mode keeps at most ``MAX_BLOCKED_THREADS`` threads stuck in calls it
cannot stop.  Once a hung metric has used them up, the next checks in the same
kernel run in worker processes (said once), and a case that could not run at
all is never told to make *its* metric faster.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_TIME_LIMIT
from skynet_jupyter.i18n import t
from skynet_jupyter.run import workers

BOUND = 2  # the bound, lowered for the test: two hung cases reach it
SLOWER = t("hint.metric_time_limit", "en")


def good(input, output, expected=None):
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": "Same label." if ok else "Another label."}


def rows(count: int) -> list[dict]:
    return [{"text": f"t{n}", "label": "x", "out": "x"} for n in range(count)]


def checked(metric, **options):
    return sj.check(metric, rows(3), outputs="label", output_column="out", lang="en", **options)


@pytest.fixture
def used_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A hung metric has left ``BOUND`` threads blocked in this process (released after)."""
    monkeypatch.setattr(workers, "MAX_BLOCKED_THREADS", BOUND)
    monkeypatch.setattr(workers, "_said_processes_instead", False, raising=False)
    before = workers.blocked_threads()
    release = threading.Event()

    def hangs(input, output, expected=None):
        release.wait(120)  # blocked in C: its thread cannot be stopped
        return 1.0, {"feedback": "late"}

    try:
        hung = checked(hangs, timeout=1)
        assert not hung.passed
        assert workers.blocked_threads() >= BOUND
        # The hung metric's own cases: its timeouts say "make score faster", rightly.
        assert hung.step(METRIC_TIME_LIMIT).hint == SLOWER
        yield workers.blocked_threads()  # its cases ran side by side: one thread each
    finally:
        release.set()
    deadline = time.monotonic() + 10
    while workers.blocked_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)


def test_later_checks_of_a_good_metric_pass_in_processes_said_once(used_up):
    first = checked(good, timeout=30)
    second = checked(good, timeout=30)
    assert first.passed, [c.error for c in first.cases]
    assert second.passed, [c.error for c in second.cases]
    said = t("case.processes_instead", "en", count=used_up)
    assert said in first.step(METRIC_TIME_LIMIT).message
    texts = [step.message for report in (first, second) for step in report.steps]
    assert sum(text.count(said) for text in texts) == 1  # said once, not on every check


def test_a_case_that_could_not_run_is_not_told_to_make_its_metric_faster(used_up):
    lock = threading.Lock()  # cannot go to a worker process: the cases stay in threads

    def needs_the_lock(input, output, expected=None):
        with lock:
            return good(input, output, expected)

    report = checked(needs_the_lock, timeout=30)
    assert not report.passed
    assert all((c.error or "").startswith("Not run:") for c in report.cases)
    failed = report.failed_steps
    assert failed and all(step.hint != SLOWER for step in failed)
    assert report.step(METRIC_TIME_LIMIT).hint == t("hint.not_run_blocked", "en")
