"""The worker side of ``isolation="process"``, run in this process: its loop and its framing.

The real-process tests (test_process_groups, test_forking_metric, test_case_failures)
show workers at work; here the worker's own functions run in the test process, so
that a mutation tool sees them: ``_child_main`` reads its commands from a file at
fd 0 and writes its replies to a file at fd 1, as it does over its pipes.  Only
``end_with_parent`` is replaced (a recorder): in this process it would tie pytest's
life to its parent's; the real one is tested with real processes.
"""

from __future__ import annotations

import contextvars
import io
import math
import os
import pickle
import queue
import signal
import struct
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE, METRIC_TIME_LIMIT, RUN_FUNCTION
from skynet_jupyter.core.dataset import Case
from skynet_jupyter.i18n import t
from skynet_jupyter.models.case_context import current_case
from skynet_jupyter.models.rate_limit import refusal_timeout, set_refusal_timeout
from skynet_jupyter.run import isolation, lifeline
from skynet_jupyter.run.one_case import CaseRunner

SLOT = 1  # of two: slot 0's cells must stay untouched
SENTINEL = 7.0
seen: dict[str, Any] = {}  # what the metric saw, in this very process


def frame(data: bytes) -> bytes:
    return struct.pack("!Q", len(data)) + data


def page_cells(path: str) -> list[float]:
    raw = Path(path).read_bytes()
    return list(memoryview(raw).cast("d")[: 2 * isolation._CELL])


def looking_metric(input, output, expected=None):
    """Scores by its input; records its cell on the page, and what fd 0 reads."""
    seen.setdefault("cells", []).append(page_cells(seen["page"]))
    seen["stdin"] = os.read(0, 16)
    seen["context"] = type(current_case.get()).__name__  # what skynet.llm() will use
    seen.setdefault("replied", []).append(replies_in(Path(seen["replies"]).read_bytes()))
    os.write(1, b"noise on fd 1")  # must not reach the protocol
    return float(input["n"]), {"feedback": f"n={input['n']}"}


def locked_metric(input, output, expected=None):
    return 1.0, {"feedback": "ok", "info": {"lock": threading.Lock()}}


def forking_metric(input, output, expected=None):
    os.fork()  # the copy comes back from here too: it must end, and the case fail
    return 1.0, {"feedback": "scored"}


def locked_run(artifact, input):
    return threading.Lock()


def first_message(runner: CaseRunner, path: list[str]) -> bytes:
    from skynet_jupyter.run.executors import dumps_with_sources

    blob = dumps_with_sources(runner)
    settings = {"refusal_timeout": refusal_timeout()}  # this process's: the worker sets it
    return pickle.dumps((path, os.urandom(16), blob, settings), pickle.HIGHEST_PROTOCOL)


def replies_in(data: bytes) -> list[tuple[str, Any]]:
    stream = io.BytesIO(data)
    found = []
    while (message := isolation._read_message(stream)) is not None:
        found.append(pickle.loads(message))
    assert stream.read() == b""  # nothing but whole messages
    return found


def run_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, messages: list[bytes]) -> dict:
    """``_child_main`` over ``messages``: its replies, the page, what it set up."""
    page = tmp_path / "page"
    cells = [SENTINEL] * (2 * isolation._CELL)
    page.write_bytes(struct.pack(f"{len(cells)}d", *cells) + b"\0" * 4096)
    commands = tmp_path / "commands"
    commands.write_bytes(b"".join(frame(m) for m in messages))
    replies = tmp_path / "replies"
    parents: list[int] = []
    monkeypatch.setattr(lifeline, "end_with_parent", parents.append)
    monkeypatch.setattr(sys, "argv", ["-c", str(page), str(SLOT), "4242"])
    monkeypatch.setattr(sys, "path", list(sys.path))
    seen.clear()
    seen["page"] = str(page)
    seen["replies"] = str(replies)
    path_before = list(sys.path)
    sigint, sigterm = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    saved = os.dup(0), os.dup(1)
    command_fd = os.open(commands, os.O_RDONLY)
    reply_fd = os.open(replies, os.O_WRONLY | os.O_CREAT)
    try:
        os.dup2(command_fd, 0)
        os.dup2(reply_fd, 1)
        contextvars.copy_context().run(isolation._child_main)
        after = {
            "sigint": signal.getsignal(signal.SIGINT),
            "fd0": os.read(0, 16),
            "fd1_is_fd2": os.path.sameopenfile(1, 2),
            "sys_path": list(sys.path),
            "path_before": path_before,
        }
    finally:
        os.dup2(saved[0], 0)
        os.dup2(saved[1], 1)
        for fd in (*saved, command_fd, reply_fd):
            os.close(fd)
        signal.signal(signal.SIGINT, sigint)
        signal.signal(signal.SIGTERM, sigterm)
    return {
        **after,
        "parents": parents,
        "replies": replies_in(replies.read_bytes()),
        "cells": page_cells(str(page)),
    }


def test_the_worker_scores_each_case_and_sends_back_its_result(tmp_path, monkeypatch):
    runner = CaseRunner(sj.Metric(looking_metric), limits=sj.Limits(metric=30.0))
    cases = [Case(n, {"n": n}, None, f"out{n}") for n in range(3)]
    here = str(tmp_path / "on-the-path")
    first = first_message(runner, [here, sys.path[0]])
    worker = run_worker(tmp_path, monkeypatch, [first, *(isolation._pack(c) for c in cases)])

    kinds = [kind for kind, _ in worker["replies"]]
    assert kinds == ["ready", "result", "result", "result"]
    assert worker["replies"][0] == ("ready", None)
    results = [value for _, value in worker["replies"][1:]]
    assert [(r.index, r.score, r.feedback, r.output) for r in results] == [
        (0, 0.0, "n=0", "out0"),
        (1, 1.0, "n=1", "out1"),
        (2, 2.0, "n=2", "out2"),
    ]
    assert all(r.passed for r in results)
    # Set up as a worker: its parent watched, Ctrl-C ignored, fds 0 and 1 off the protocol.
    assert worker["parents"] == [4242]
    assert worker["sigint"] is signal.SIG_IGN
    assert worker["fd0"] == b"" and seen["stdin"] == b""
    assert worker["fd1_is_fd2"]
    assert seen["context"] == "CaseContext"
    assert worker["sys_path"] == [here, *worker["path_before"]]  # only what it lacked, first
    # Each reply is out before the next case starts (unbuffered: the parent waits for it).
    assert [[kind for kind, _ in replied] for replied in seen["replied"]] == [
        ["ready"],
        ["ready", "result"],
        ["ready", "result", "result"],
    ]
    # While scoring, its slot's cells held the metric's deadline and step, the fork cells 0.
    at = SLOT * isolation._CELL
    for during in seen["cells"]:
        assert during[:at] == [SENTINEL] * at  # slot 0: not this worker's
        assert math.isfinite(during[at]) and during[at] > 0
        assert during[at + 1 :] == [1.0, 0.0, 0.0]  # the metric's step; no fork
    # After its last case: no deadline.
    assert worker["cells"][:at] == [SENTINEL] * at
    assert worker["cells"][at:] == [math.inf, 1.0, 0.0, 0.0]


def stopping_metric(input, output, expected=None):
    # What the limiter does when a provider refused every request: tell the run to stop.
    current_case.get().stop_run(f"stop after case {input['n']}")
    seen["refusal_timeout"] = refusal_timeout()
    return 1.0, {"feedback": "Scored.", "scores": {}}


def test_the_worker_takes_the_parents_refusal_timeout_and_passes_a_stop_on(tmp_path, monkeypatch):
    from skynet_jupyter.run.executors import dumps_with_sources

    runner = CaseRunner(sj.Metric(stopping_metric), limits=sj.Limits(metric=30.0))
    blob = dumps_with_sources(runner)
    first = pickle.dumps(([], os.urandom(16), blob, {"refusal_timeout": 7.5}), 5)
    before = refusal_timeout()
    try:
        case = isolation._pack(Case(0, {"n": 0}, None, "out"))
        worker = run_worker(tmp_path, monkeypatch, [first, case])
    finally:
        set_refusal_timeout(before)
    assert seen["refusal_timeout"] == 7.5  # configure(refusal_timeout=) of the parent
    assert [kind for kind, _ in worker["replies"]] == ["ready", "stop", "result"]
    assert worker["replies"][1] == ("stop", "stop after case 0")
    assert worker["replies"][2][1].passed


def test_a_worker_given_nothing_says_nothing(tmp_path, monkeypatch):
    worker = run_worker(tmp_path, monkeypatch, [])
    assert worker["replies"] == []
    assert worker["cells"] == [SENTINEL] * (2 * isolation._CELL)


def test_a_worker_that_cannot_load_its_runner_says_why_and_ends(tmp_path, monkeypatch):
    case = isolation._pack(Case(0, {"n": 1}, None, "out"))
    worker = run_worker(tmp_path, monkeypatch, [pickle.dumps(("a", "b")), case])
    assert worker["replies"] == [
        ("broken", "ValueError: not enough values to unpack (expected 4, got 2)")
    ]


def test_a_case_the_worker_cannot_read_is_said_and_the_next_one_runs(tmp_path, monkeypatch):
    runner = CaseRunner(sj.Metric(looking_metric), limits=sj.Limits(metric=30.0))
    unreadable = b"cno_such_module_here\nThing\n."  # a class this process cannot import
    after = isolation._pack(Case(5, {"n": 5}, None, "out"))
    worker = run_worker(tmp_path, monkeypatch, [first_message(runner, []), unreadable, after])
    (ready, said, (kind, result)) = worker["replies"]
    assert ready == ("ready", None)
    assert said == ("unreadable", "ModuleNotFoundError: No module named 'no_such_module_here'")
    assert kind == "result" and (result.index, result.score) == (5, 5.0)


@pytest.mark.parametrize(
    ("metric", "run", "step"),
    [(locked_metric, None, METRIC_RETURN_VALUE), (looking_metric, locked_run, RUN_FUNCTION)],
    ids=["score", "run"],
)
def test_a_result_that_cannot_be_sent_is_a_failure_naming_why(
    tmp_path, monkeypatch, metric, run, step
):
    runner = CaseRunner(sj.Metric(metric), run, lang="fr", limits=sj.Limits(metric=30.0))
    case = Case(3, {"n": 1}, {"label": "x"}, *(() if run else ("out",)))  # run: no output
    worker = run_worker(tmp_path, monkeypatch, [first_message(runner, []), isolation._pack(case)])
    (ready, (kind, result)) = worker["replies"]
    assert ready == ("ready", None) and kind == "result"
    error = "TypeError: cannot pickle '_thread.lock' object"
    assert (result.index, result.input, result.expected) == (3, {"n": 1}, {"label": "x"})
    assert result.failed_step == step
    assert result.error == t("case.result_unsendable", "fr", error=error)
    assert result.score is None


def test_a_case_that_forks_fails_by_name_in_the_runners_language(tmp_path, monkeypatch):
    runner = CaseRunner(sj.Metric(forking_metric), lang="fr", limits=sj.Limits(metric=30.0))
    case = isolation._pack(Case(0, {"n": 1}, None, "out"))
    worker = run_worker(tmp_path, monkeypatch, [first_message(runner, []), case])
    (ready, (kind, result)) = worker["replies"]  # the copy said nothing on the channel
    assert ready == ("ready", None) and kind == "result"
    assert (result.failed_step, result.score) == (METRIC_RETURN_VALUE, None)
    assert result.error == t("case.forked", "fr", function="score")


# --- the framing -------------------------------------------------------------------------


class Trickle(io.RawIOBase):
    """A pipe that hands out at most ``most`` bytes per read, as a real pipe may."""

    def __init__(self, data: bytes, most: int) -> None:
        self._data = io.BytesIO(data)
        self._most = most

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        return self._data.read(min(size, self._most))


def test_messages_are_read_whole_across_short_reads():
    out = io.BytesIO()
    messages = [b"", b"x", b"hello world" * 50]
    for message in messages:
        isolation._write_message(out, message)
    assert out.getvalue()[:8] == b"\0" * 8 and out.getvalue()[8:16] == struct.pack("!Q", 1)
    stream = Trickle(out.getvalue(), 3)
    assert [isolation._read_message(stream) for _ in range(4)] == [*messages, None]


def test_a_message_cut_short_reads_as_the_end():
    whole = frame(b"abcdef")
    assert isolation._read_message(io.BytesIO(whole[:5])) is None  # inside the header
    assert isolation._read_message(Trickle(whole[:11], 2)) is None  # inside the body
    assert isolation._read_exact(io.BytesIO(b"abc"), 0) == b""
    assert isolation._read_exact(Trickle(b"abcdef", 4), 6) == b"abcdef"


def test_the_reader_thread_hands_on_each_reply_then_the_end():
    read, write = os.pipe()
    with os.fdopen(write, "wb") as out:
        out.write(frame(b"one") + frame(b"two"))
    stream = os.fdopen(read, "rb", buffering=0)
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    isolation._reader(2, 9, stream, inbox)
    got = [inbox.get_nowait() for _ in range(inbox.qsize())]
    assert got == [(2, 9, b"one"), (2, 9, b"two"), (2, 9, None)]
    assert stream.closed


def test_a_broken_pipe_is_the_end_of_a_reader():
    class Broken(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            raise OSError("pipe broke")

        def close(self) -> None:
            super().close()
            raise OSError("and cannot be closed")

    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    stream = Broken()
    isolation._reader(0, 1, stream, inbox)  # raises nothing
    assert [inbox.get_nowait() for _ in range(inbox.qsize())] == [(0, 1, None)]
    assert stream.closed


class Sent:
    """A class of the notebook's (``__main__``): the worker has no such name."""

    __module__ = "__main__"


def test_plain_values_go_as_plain_pickles_and_notebook_ones_by_value(monkeypatch):
    value = ("result", {"n": 1})
    assert isolation._pack(value) == pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    main = sys.modules["__main__"]
    monkeypatch.setattr(main, "Sent", Sent, raising=False)
    data = isolation._pack(Sent())  # plain pickle could (by name), but over there it cannot
    monkeypatch.delattr(main, "Sent")
    assert type(pickle.loads(data)).__name__ == "Sent"
    made = [lambda: 5]  # plain pickle cannot send a lambda: cloudpickle does
    assert pickle.loads(isolation._pack(made))[0]() == 5


# --- the page watch and the parent's sentences ---------------------------------------------


def test_the_page_watch_writes_its_slot_until_detached():
    cells = memoryview(bytearray(8 * 3 * isolation._CELL)).cast("d")
    watch = isolation._PageWatch(cells, 2)
    watch.deadline = 12.5
    watch.step = METRIC_TIME_LIMIT
    assert list(cells) == [0.0] * 8 + [12.5, 1.0, 0.0, 0.0]
    assert (watch.deadline, watch.step) == (12.5, METRIC_TIME_LIMIT)
    watch.step = RUN_FUNCTION
    assert cells[9] == 0.0 and watch.step == RUN_FUNCTION
    watch.detach()  # a fork's copy: its own cells from now on, starting as the page was
    assert (watch.deadline, watch.step) == (12.5, RUN_FUNCTION)
    watch.deadline = 99.0
    watch.step = METRIC_TIME_LIMIT
    assert (watch.deadline, watch.step) == (99.0, METRIC_TIME_LIMIT)
    assert list(cells) == [0.0] * 8 + [12.5, 0.0, 0.0, 0.0]  # the page is untouched


@pytest.mark.parametrize("run", [None, locked_run], ids=["metric only", "with run"])
def test_a_case_that_cannot_be_sent_is_not_run_and_says_why(run):
    runner = CaseRunner(sj.Metric(looking_metric), run, lang="pt")
    case = Case(4, {"n": 1}, {"label": "x"}, "known")
    step = RUN_FUNCTION if run is not None else METRIC_RETURN_VALUE
    for given, error in [
        (TypeError("cannot pickle 'lock'"), "TypeError: cannot pickle 'lock'"),
        ("ModuleNotFoundError: gone", "ModuleNotFoundError: gone"),
    ]:
        result = isolation._unsendable_case(runner, case, given)
        assert (result.index, result.input, result.expected) == (4, {"n": 1}, {"label": "x"})
        assert result.failed_step == step
        assert result.error == t("case.input_not_copyable", "pt", error=error)
        assert result.output == "known" and result.score is None
