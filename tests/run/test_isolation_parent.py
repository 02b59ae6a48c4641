"""The parent side of ``isolation="process"``: what it makes of a worker that ends or is killed.

A worker that ends in the middle of a case fails that case at the step it was in
(read from the shared page); a worker killed at the time limit is restarted, and
what the killed one still says (its reader thread's end, on Windows) is ignored.
Real worker processes.
"""

from __future__ import annotations

import _thread
import gc
import os
import selectors
import time
import warnings

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE, METRIC_TIME_LIMIT, RUN_FUNCTION
from skynet_jupyter.i18n import t
from skynet_jupyter.run import isolation as _isolation
from skynet_jupyter.run.engine import CaseFinished


def run_ends_on_request(artifact, input):
    if input["text"] == "ends in run":
        os._exit(5)
    return artifact


def score_ends_on_request(input, output, expected=None):
    if input["text"] == "ends in score":
        os._exit(7)
    return 1.0, {"feedback": "Scored."}


def score_hangs_on_request(input, output, expected=None):
    if input["text"] == "hangs":
        time.sleep(60)
    return 1.0, {"feedback": "Scored."}


class EndsWhenLoaded:
    """A metric whose copy ends the worker process that loads it (exit code 3)."""

    def __call__(self, input, output, expected=None):
        return 1.0, {"feedback": "Scored."}

    def __reduce__(self):
        return (os._exit, (3,))


def refuse_elsewhere(parent: int) -> Unreadable:
    if os.getpid() != parent:
        raise LookupError("not here")
    return Unreadable(parent)


class Unreadable:
    """A value that copies in this process and cannot be read in any other."""

    def __init__(self, parent: int) -> None:
        self.parent = parent

    def __reduce__(self):
        return (refuse_elsewhere, (self.parent,))


class Unsendable:
    """A value that copies (as itself) but cannot be sent to another process."""

    def __deepcopy__(self, memo: dict) -> Unsendable:
        return self

    def __reduce__(self):
        raise TypeError("it stays here")


def outcomes(report) -> list[tuple[int, bool, str | None, str | None]]:
    return [(c.index, c.passed, c.failed_step, c.error) for c in report.cases]


def test_a_worker_that_ends_fails_its_case_at_the_step_it_was_in() -> None:
    rows = [{"text": "ends in run"}, {"text": "ends in score"}, {"text": "fine"}]
    report = sj.evaluate(
        score_ends_on_request,
        rows,
        run=run_ends_on_request,
        artifact="a",
        isolation="process",
        concurrency=1,
        lang="fr",
    )
    assert outcomes(report) == [
        (0, False, RUN_FUNCTION, t("case.process_died", "fr", code=5)),
        (1, False, METRIC_RETURN_VALUE, t("case.process_died", "fr", code=7)),
        (2, True, None, None),
    ]


def one_worker_with_a_hanging_case(*texts: str) -> sj.EvalReport:
    """Cases on one worker process, 1 s each; a "hangs" case is killed at its limit."""
    rows = [{"text": text, "out": "x"} for text in texts]
    return sj.evaluate(
        score_hangs_on_request,
        rows,
        output_column="out",
        timeout=1,
        isolation="process",
        concurrency=1,
    )


@pytest.mark.timeout(60)  # a reader thread that never hands on a reply: nothing ever comes
def test_a_killed_workers_last_words_are_ignored_after_its_restart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Reader threads (the Windows way): the killed worker's thread still reports the end
    # of its output after the restart; its generation marks it as the old process's.
    monkeypatch.setattr(_isolation, "POLL_OUTPUTS", False)
    report = one_worker_with_a_hanging_case("hangs", "fine", "fine")
    assert outcomes(report) == [
        (0, False, METRIC_TIME_LIMIT, t("case.metric_timeout", "en", seconds="1")),
        (1, True, None, None),
        (2, True, None, None),
    ]


@pytest.mark.skipif(not _isolation.POLL_OUTPUTS, reason="Windows pipes cannot be polled")
def test_a_worker_output_that_cannot_be_read_is_the_end_of_that_worker() -> None:
    # A pipe end that fails every read (EBADF): what a broken pipe looks like to the poll.
    pool = _isolation._Pool.__new__(_isolation._Pool)
    pool.selector, pool.buffers = selectors.DefaultSelector(), {0: bytearray()}
    reading, broken = os.pipe()
    os.close(reading)
    try:
        pool.selector.register(broken, selectors.EVENT_READ, (0, 7))
        assert pool.poll(5.0) == [(0, 7, None)]
        assert pool.buffers == {0: bytearray()} and not pool.selector.get_map()
    finally:
        pool.selector.close()
        os.close(broken)


@pytest.mark.timeout(60)  # a worker restarted each time it ends while starting: no end
@pytest.mark.parametrize("with_run", [False, True], ids=["metric only", "run function"])
def test_a_worker_that_ends_while_loading_runs_no_case_and_says_why(with_run: bool) -> None:
    rows = [{"text": "a", "out": "x"}, {"text": "b", "out": "x"}]
    given = {"run": run_ends_on_request, "artifact": "a"} if with_run else {"output_column": "out"}
    report = sj.evaluate(EndsWhenLoaded(), rows, isolation="process", lang="pt", **given)
    step = RUN_FUNCTION if with_run else METRIC_RETURN_VALUE
    said = t("case.process_broken", "pt", error="exit code 3")
    assert outcomes(report) == [(0, False, step, said), (1, False, step, said)]
    assert report.interrupted is False


def test_a_case_the_worker_cannot_read_fails_and_the_next_one_runs() -> None:
    rows = [{"text": "a", "thing": Unreadable(os.getpid()), "out": "x"}, {"text": "b", "out": "x"}]
    report = sj.evaluate(
        score_ends_on_request, rows, output_column="out", isolation="process", concurrency=1
    )
    said = t("case.input_not_copyable", "en", error="LookupError: not here")
    assert outcomes(report) == [(0, False, METRIC_RETURN_VALUE, said), (1, True, None, None)]


def test_a_listener_that_fails_stops_the_run_with_the_cases_so_far() -> None:
    class Refuses(Exception):
        pass

    def listener(event: object) -> None:
        if isinstance(event, CaseFinished):
            raise Refuses("the view closed")

    rows = [{"text": text, "out": "x"} for text in "abc"]
    with pytest.raises(Refuses) as raised:
        sj.evaluate(
            score_ends_on_request,
            rows,
            output_column="out",
            isolation="process",
            concurrency=1,
            on_event=listener,
        )
    report = raised.value.skynet_report  # type: ignore[attr-defined]
    assert outcomes(report) == [(0, True, None, None)]
    assert report.interrupted is True and report.total_cases == 3


def test_a_worker_killed_at_its_limit_leaves_no_pipe_open() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = one_worker_with_a_hanging_case("hangs", "fine")
        gc.collect()  # an unclosed pipe says so (ResourceWarning) when it is freed
    assert [c.failed_step for c in report.cases] == [METRIC_TIME_LIMIT, None]
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []


def test_ctrl_c_keeps_the_cases_that_finished_and_says_interrupted(ctrl_c: None) -> None:
    def press_ctrl_c(event: object) -> None:
        if isinstance(event, CaseFinished):
            _thread.interrupt_main()  # the kernel's Ctrl-C, after the first case

    rows = [{"text": text, "out": "x"} for text in "abc"]
    report = sj.evaluate(
        score_ends_on_request,
        rows,
        output_column="out",
        isolation="process",
        concurrency=1,
        on_event=press_ctrl_c,
    )
    assert outcomes(report) == [(0, True, None, None)]
    assert report.interrupted is True and report.total_cases == 3


def test_a_case_that_cannot_be_sent_fails_and_the_next_one_runs() -> None:
    rows = [{"text": "a", "thing": Unsendable(), "out": "x"}, {"text": "b", "out": "x"}]
    report = sj.evaluate(
        score_ends_on_request, rows, output_column="out", isolation="process", concurrency=1
    )
    said = t("case.input_not_copyable", "en", error="TypeError: it stays here")
    assert outcomes(report) == [(0, False, METRIC_RETURN_VALUE, said), (1, True, None, None)]
