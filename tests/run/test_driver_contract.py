"""The driver's side of the backend contract, on a backend that does exactly as told.

A Ctrl-C can land at any moment of a run, also while the first workers start
(a metric that presses Ctrl-C on its first call, before the calling thread is
back from starting its worker): that is the run's Ctrl-C, and the run returns
what finished, marked interrupted, like a Ctrl-C anywhere else.
"""

from __future__ import annotations

import pytest

from skynet_jupyter.core.dataset import Case
from skynet_jupyter.core.report import CaseResult
from skynet_jupyter.run.driver import Batch, NotRun, StoppedByListener, drive

CASES = [Case(index, {"n": index}, None) for index in range(3)]


class Scripted:
    """A backend that finishes the cases one ``collect`` at a time, and can be told to
    press Ctrl-C while it starts or after some cases."""

    def __init__(self, *, interrupt_at_start: bool = False, interrupt_after: int | None = None):
        self.interrupt_at_start = interrupt_at_start
        self.interrupt_after = interrupt_after
        self.done = 0
        self.closed = False
        self.cancelled = False
        self.provider_stop: str | None = None

    def start(self) -> None:
        if self.interrupt_at_start:
            raise KeyboardInterrupt

    def collect(self) -> Batch:
        if self.interrupt_after is not None and self.done == self.interrupt_after:
            raise KeyboardInterrupt
        if self.done == len(CASES):
            return Batch(over=True)
        case = CASES[self.done]
        self.done += 1
        return Batch([case.index], [CaseResult(case.index, case.input, None, score=1.0)])

    def stop_starting(self) -> None:
        pass

    def cancel(self) -> list[CaseResult]:
        self.cancelled = True
        return []

    def left_over(self) -> list[Case]:
        return list(CASES[self.done :])

    def not_run(self, provider: NotRun | None) -> NotRun | None:
        return provider

    def in_order(self) -> bool:
        return True

    def finish(self, results: list[CaseResult]) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def test_a_ctrl_c_while_the_workers_start_is_the_runs_own() -> None:
    backend = Scripted(interrupt_at_start=True)
    results, interrupted, _ = drive(backend, CASES, None, None)
    assert (results, interrupted) == ([], True)
    assert backend.cancelled and backend.closed


def test_a_ctrl_c_mid_run_keeps_what_finished_in_order() -> None:
    backend = Scripted(interrupt_after=2)
    results, interrupted, _ = drive(backend, CASES, None, None)
    assert interrupted and [result.index for result in results] == [0, 1]
    assert backend.closed


def test_a_run_to_its_end_hands_every_case_to_the_listener_once() -> None:
    told: list[tuple[list[int], list[int]]] = []
    results, interrupted, _ = drive(
        Scripted(),
        CASES,
        None,
        lambda started, done: told.append((started, [r.index for r in done])),
    )
    assert not interrupted and [result.index for result in results] == [0, 1, 2]
    assert told == [([0], [0]), ([1], [1]), ([2], [2])]


def test_a_listener_that_raises_stops_the_run_and_is_raised_with_the_results() -> None:
    def refuse(started: list[int], done: list[CaseResult]) -> None:
        raise LookupError("no")

    backend = Scripted()
    with pytest.raises(StoppedByListener) as stopped:
        drive(backend, CASES, None, refuse)
    assert isinstance(stopped.value.error, LookupError) and backend.closed
    assert [result.index for result in stopped.value.results] == [0, 1, 2]
