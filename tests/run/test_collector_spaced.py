"""The collector's young generation is spaced out during a run, and restored exactly after.

``run.collector``: a run raises the young generation's threshold (fewer collections
walking cases that are not garbage) and puts the caller's thresholds back however
it ends (Ctrl-C included); an overlapping run leaves the threshold to the run that
raised it; a caller who switched the collector off, or set the thresholds during
the run, keeps what they chose.
No assertion is timed.
"""

from __future__ import annotations

import gc
import threading
from typing import Any

import pytest

import skynet_jupyter as sj
from skynet_jupyter.run import collector
from skynet_jupyter.run.collector import SPACED

ROWS = [{"q": str(n), "label": "a", "out": "a"} for n in range(5)]
OPTIONS: dict[str, Any] = {"outputs": "label", "output_column": "out", "concurrency": 1}


@pytest.fixture(autouse=True)
def _thresholds():
    """Whatever a test does, the process's collector is left as it was."""
    before, enabled = gc.get_threshold(), gc.isenabled()
    yield
    gc.set_threshold(*before)
    if enabled:
        gc.enable()
    else:
        gc.disable()


def _seen_inside(**options: Any) -> list[tuple[int, ...]]:
    seen: list[tuple[int, ...]] = []

    def metric(input, output, expected=None):
        seen.append(gc.get_threshold())
        return 1.0, {"feedback": "ok"}

    sj.evaluate(metric, ROWS, **{**OPTIONS, **options})
    return seen


def test_a_run_spaces_the_young_generation_and_restores_every_threshold():
    gc.set_threshold(900, 11, 12)
    assert set(_seen_inside()) == {(SPACED, 11, 12)}
    assert gc.get_threshold() == (900, 11, 12)
    ok = lambda input, output, expected=None: (1.0, {"feedback": "ok"})  # noqa: E731
    sj.check(ok, ROWS, outputs="label", output_column="out")
    assert gc.get_threshold() == (900, 11, 12)


def test_the_put_off_young_collection_is_made_before_the_run_returns():
    gc.set_threshold(700, 10, 10)
    gc.collect()
    rows = [{"q": str(n), "label": "a", "out": "a"} for n in range(3000)]
    sj.evaluate(lambda input, output, expected=None: (1.0, {"feedback": "ok"}), rows, **OPTIONS)
    assert gc.get_count()[0] <= 700


@pytest.mark.parametrize("how", ["metric raises", "listener raises", "no such column"])
def test_the_thresholds_come_back_however_the_run_ends(how):
    gc.set_threshold(800, 9, 8)

    def metric(input, output, expected=None):
        if how == "metric raises":
            raise ValueError("broken metric")
        return 1.0, {"feedback": "ok"}

    def listener(event: Any) -> None:
        raise RuntimeError("broken listener")

    if how == "metric raises":
        report = sj.evaluate(metric, ROWS, **OPTIONS)
        assert not report.passed
    elif how == "listener raises":
        with pytest.raises(RuntimeError, match="broken listener"):
            sj.evaluate(metric, ROWS, on_event=listener, **OPTIONS)
    else:
        with pytest.raises(Exception, match="nope"):
            sj.evaluate(metric, ROWS, **{**OPTIONS, "outputs": "nope"})
    assert gc.get_threshold() == (800, 9, 8)


def test_a_collector_switched_off_or_set_high_is_left_alone():
    gc.disable()
    gc.set_threshold(700, 10, 10)
    assert set(_seen_inside()) == {(700, 10, 10)}
    assert not gc.isenabled() and gc.get_threshold() == (700, 10, 10)
    gc.enable()
    gc.set_threshold(0, 10, 10)  # automatic collection off
    assert set(_seen_inside()) == {(0, 10, 10)}
    gc.set_threshold(SPACED * 2, 5, 5)
    assert set(_seen_inside()) == {(SPACED * 2, 5, 5)}
    assert gc.get_threshold() == (SPACED * 2, 5, 5)


def test_thresholds_set_during_the_run_are_kept():
    gc.set_threshold(700, 10, 10)

    def metric(input, output, expected=None):
        if input["q"] == "2":
            gc.set_threshold(1234, 7, 7)
        return 1.0, {"feedback": "ok"}

    sj.evaluate(metric, ROWS, **OPTIONS)
    assert gc.get_threshold() == (1234, 7, 7)


def test_an_overlapping_run_leaves_the_threshold_to_the_run_that_raised_it():
    gc.set_threshold(700, 10, 10)
    inner_done = threading.Event()
    outer_inside = threading.Event()
    seen: dict[str, list[tuple[int, ...]]] = {"outer": [], "inner": [], "outer after": []}

    def outer(input, output, expected=None):
        seen["outer"].append(gc.get_threshold())
        if input["q"] == "0":
            outer_inside.set()
            assert inner_done.wait(30)
            seen["outer after"].append(gc.get_threshold())  # the inner run ended: still ours
        return 1.0, {"feedback": "ok"}

    def inner(input, output, expected=None):
        seen["inner"].append(gc.get_threshold())
        return 1.0, {"feedback": "ok"}

    thread = threading.Thread(target=sj.evaluate, args=(outer, ROWS), kwargs=OPTIONS)
    thread.start()
    assert outer_inside.wait(30)
    sj.evaluate(inner, ROWS, **OPTIONS)
    inner_done.set()
    thread.join(30)
    assert not thread.is_alive()
    assert set(seen["outer"]) == set(seen["inner"]) == set(seen["outer after"])
    assert set(seen["outer"]) == {(SPACED, 10, 10)}
    assert gc.get_threshold() == (700, 10, 10)


def test_ctrl_c_just_as_the_threshold_is_raised_restores_it(monkeypatch):
    """A KeyboardInterrupt right after the change, before the with statement holds it."""
    gc.set_threshold(700, 10, 10)

    class Interrupted:
        def __getattr__(self, name: str) -> Any:
            return getattr(gc, name)

        def set_threshold(self, *values: int) -> None:
            gc.set_threshold(*values)
            if values[0] == SPACED:
                raise KeyboardInterrupt

    monkeypatch.setattr(collector, "gc", Interrupted())
    with pytest.raises(KeyboardInterrupt):
        sj.evaluate(lambda input, output, expected=None: (1.0, {"feedback": "ok"}), ROWS, **OPTIONS)
    assert gc.get_threshold() == (700, 10, 10)
