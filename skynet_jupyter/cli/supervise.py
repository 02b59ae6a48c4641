"""The parent's side of ``skynet-check``: start the child, watch it, print its verdict.

The check runs in a child process (:mod:`.child`) that this one supervises.
Whatever the metric does to its own process (``os._exit(0)``, a signal, a hang
while it is imported), this process still sees that no report was written,
and only it writes to stdout: the child's stdout is its stderr, so prints from
the metric or the run function never mix with the report or the JSON document.

It enforces the load time limit (importing the user's files), ends the child
and what it started on every way out (Ctrl-C twice, SIGTERM, SIGHUP), and
turns the outcome into the exit code.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from ..i18n import t
from ..show.progress_line import ProgressLine, running_title
from .exits import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_NO_VERDICT,
    EXIT_PASSED,
    no_pass,
    usage,
)
from .job import Job

__all__ = ["CHILD", "supervise"]

CHILD = "from skynet_jupyter.cli.child import main; main()"  # the child's program
_GRACE_S = 5.0  # how long the child may take to exit once its report is in

Message = dict[str, Any]


def supervise(
    job: Job, load_timeout: float, on_verdict: Callable[[Message], None] | None = None
) -> int:
    """Run the job in a child process; its verdict, or exit 3 if it gave none.

    ``on_verdict`` is given the child's last message (its JUnit suite, say) before
    it is printed; when the child gave none, the sentence said instead (``"event"``
    ``"no_verdict"``, or ``"usage"`` for a load past its time limit).
    """
    progress = _progress_line(job)
    child = _start_child(progress)
    passing_on = None
    if child.stderr is not None:
        passing_on = threading.Thread(target=_pass_on_stderr, args=(child, progress), daemon=True)
        passing_on.start()
    progress.show()
    messages: queue.Queue[Message | None] = queue.Queue()
    threading.Thread(target=_read_messages, args=(child, messages), daemon=True).start()
    _send_job(child, job)
    watch = _Watch(child, job, load_timeout, progress, passing_on, on_verdict)
    previous_handlers = _end_with_us()
    try:
        while True:
            try:
                message = messages.get(timeout=watch.wait_s())
            except queue.Empty:
                code = watch.quiet()
            except KeyboardInterrupt:
                code = watch.interrupted_by_user()
            else:
                code = watch.heard(message)
            if code is not None:
                return code
    finally:
        _end(child)
        _restore(previous_handlers)
        progress.clear()


def _progress_line(job: Job) -> ProgressLine:
    """The progress line: on a terminal only (never in a pipe, a file or --json), and
    erased before any output."""
    running = running_title(job.kind, job.lang)
    if job.width:
        return ProgressLine(running, job.lang)
    return ProgressLine(running, job.lang, io.StringIO())  # not a terminal: inactive


def _start_child(progress: ProgressLine) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        # The user's prints and our warnings reach the terminal as they happen: straight
        # through, or, under a progress line, passed on by us once the line is erased.
        stderr=subprocess.PIPE if progress.active else None,
        # Its own process group: leftovers (a hung worker process) are ended with it.
        process_group=0 if os.name == "posix" else None,
    )


def _send_job(child: subprocess.Popen[bytes], job: Job) -> None:
    """The job, pickled on the child's stdin (the child reads it whole, then starts)."""
    assert child.stdin is not None
    try:
        child.stdin.write(pickle.dumps(job))
        child.stdin.close()
    except OSError:
        pass  # the child already died: its end is read by the watch


class _Watch:
    """What the parent knows of its child while it waits: the file being loaded (and
    the load time limit's deadline), a first Ctrl-C, when the child was seen to end.

    Each of its answers is the exit code once the watch is over, else None.
    """

    def __init__(
        self,
        child: subprocess.Popen[bytes],
        job: Job,
        load_timeout: float,
        progress: ProgressLine,
        passing_on: threading.Thread | None,
        on_verdict: Callable[[Message], None] | None,
    ) -> None:
        self.child, self.progress, self.passing_on = child, progress, passing_on
        self.lang, self.as_json = job.lang, job.as_json
        self.load_timeout, self.on_verdict = load_timeout, on_verdict
        self.loading: Message | None = None
        self.deadline = math.inf
        self.interrupted = False
        self.ended = 0.0  # when the child was first seen to have exited

    def wait_s(self) -> float:
        """How long to wait for a message: a second at most, less near the deadline."""
        return max(0.0, min(self.deadline - time.monotonic(), 1.0))

    def quiet(self) -> int | None:
        """No message for a while: the child ended without a word, or loads for too long."""
        # Ended without a word, though something it started may hold its channel
        # open (so no end of file comes): past a short grace, that is no verdict.
        if self.child.poll() is not None:
            self.ended = self.ended or time.monotonic()
            if time.monotonic() - self.ended > _GRACE_S:
                return _no_verdict(
                    self.child, self.lang, self.as_json, self.progress, self.on_verdict
                )
        if self.loading is not None and time.monotonic() >= self.deadline:
            _end(self.child)
            self.progress.clear()
            seconds = f"{self.load_timeout:g}"
            path = self.loading["path"]
            said = t("cli.load_timeout", self.lang, path=path, seconds=seconds)
            if self.on_verdict is not None:  # the JUnit file and the annotation say it too
                self.on_verdict({"event": "usage", "message": said, "file": path})
            return usage(said, self.as_json)
        return None

    def interrupted_by_user(self) -> int | None:
        """Ctrl-C: the first asks the child to stop and report what it has; a second stops now."""
        if self.interrupted:
            _end(self.child)
            self.progress.clear()
            stopped = t("cli.interrupted", self.lang)
            return no_pass("interrupted", stopped, EXIT_INTERRUPTED, self.as_json)
        self.interrupted = True
        if self.child.poll() is None:
            self.child.send_signal(signal.SIGINT)
        return None

    def heard(self, message: Message | None) -> int | None:
        """A message from the child: loading, loaded, or its last (the verdict)."""
        if message is None:  # the child closed its channel: it ended
            return _no_verdict(self.child, self.lang, self.as_json, self.progress, self.on_verdict)
        event = message.get("event")
        if event == "loading":
            self.loading = message
            self.deadline = time.monotonic() + self.load_timeout
            return None
        if event == "loaded":
            self.loading, self.deadline = None, math.inf
            return None
        return self.verdict(message)

    def verdict(self, message: Message) -> int:
        _wait_or_end(self.child)
        if self.passing_on is not None:  # the child's last words come before the report
            self.passing_on.join(timeout=_GRACE_S)
        self.progress.clear()
        if self.on_verdict is not None:
            self.on_verdict(message)
        return _verdict(message, self.as_json, self.lang)


def _pass_on_stderr(child: subprocess.Popen[bytes], progress: ProgressLine) -> None:
    """Copy the child's stderr to ours, erasing the progress line first (then showing it again)."""
    assert child.stderr is not None
    out = sys.stderr.buffer
    while chunk := child.stderr.read1(65536):  # type: ignore[attr-defined]
        progress.clear()
        try:
            out.write(chunk)
            out.flush()
        except (OSError, ValueError):
            continue  # our stderr is gone: keep draining, or the child would block
        if chunk.endswith(b"\n"):
            progress.show()


def _read_messages(child: subprocess.Popen[bytes], into: queue.Queue[Message | None]) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        try:
            into.put(json.loads(line))
        except ValueError:
            continue  # not one of ours (cannot happen: the child's stdout is its stderr)
    into.put(None)


def _verdict(message: Message, as_json: bool, lang: str) -> int:
    event = message["event"]
    if event == "interrupted":
        return no_pass("interrupted", t("cli.interrupted", lang), EXIT_INTERRUPTED, as_json)
    if event == "usage":
        return usage(message["message"], as_json)
    if event == "crashed":
        return no_pass("crashed", message["message"], EXIT_NO_VERDICT, as_json)
    # "done": the report, as text or as the (already strict) JSON document
    if as_json:
        sys.stdout.write(message["output"] + "\n")
    else:
        print(message["output"])
    if message["interrupted"]:
        return EXIT_INTERRUPTED
    return EXIT_PASSED if message["passed"] else EXIT_FAILED


def _no_verdict(
    child: subprocess.Popen[bytes],
    lang: str,
    as_json: bool,
    progress: ProgressLine,
    on_verdict: Callable[[Message], None] | None = None,
) -> int:
    code = child.wait()
    progress.clear()  # once it has ended: nothing it writes can show the line again
    if code < 0:
        try:
            how = t("cli.ended_by_signal", lang, signal=signal.Signals(-code).name)
        except ValueError:
            how = t("cli.ended_by_signal", lang, signal=-code)
    else:
        how = t("cli.ended_with_code", lang, code=code)
    said = t("cli.no_verdict", lang, how=how)
    if on_verdict is not None:  # the JUnit file and the annotation say it, not "lines above"
        on_verdict({"event": "no_verdict", "message": said})
    return no_pass("no_verdict", said, EXIT_NO_VERDICT, as_json)


def _end_with_us() -> dict[int, Any]:
    """On SIGTERM or SIGHUP (a CI job cancelled, a terminal closed), end the child too.

    The child has its own process group, so these signals do not reach it by
    themselves: leaving it running would leave paid model calls running.
    """

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)  # unwinds through supervise's finally: _end(child)

    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread() or os.name != "posix":
        return previous
    for number in (signal.SIGTERM, signal.SIGHUP):
        previous[number] = signal.signal(number, stop)
    return previous


def _restore(handlers: dict[int, Any]) -> None:
    for number, handler in handlers.items():
        signal.signal(number, handler)


def _wait_or_end(child: subprocess.Popen[bytes]) -> None:
    # Past the grace, _end stops it: its report is in, what it left running is not needed.
    with contextlib.suppress(subprocess.TimeoutExpired):
        child.wait(timeout=_GRACE_S)


def _end(child: subprocess.Popen[bytes]) -> None:
    """Stop the child and anything it started (its process group)."""
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signal.SIGKILL)
    elif child.poll() is None:
        child.kill()
    child.wait()
