"""Cases in worker processes that can be killed: ``isolation="process"``.

A thread cannot stop a call blocked in C (``time.sleep``, a socket read, a
lock): in thread mode such a case is failed at its limit but its thread stays
behind.  Here each concurrency slot is a worker process (a fresh interpreter:
``python -c``, so nothing of the notebook's ``__main__`` is re-run), fed one
case at a time; a case past its limit has its process killed, and the slot
starts a new one.

- **Code travels by value.**  The runner (metric, run function, artifact,
  models) is sent once per process with cloudpickle, as the executor path does
  (``executors``): functions defined in a notebook work, tracebacks name the cell.
- **Limits.**  The runner in the worker writes each phase's deadline and step
  to a shared page (``mmap``, one cell per slot); the parent reads it every
  ``TICK`` and kills a worker whose case is past it.  ``time.perf_counter`` is
  the system's monotonic clock, the same in every process.
- **Nothing left running.**  Each worker leads its own process group, and a
  worker is killed with its group: the programs its case started go too.  A
  worker whose parent is gone (a killed kernel) ends with its group
  (``lifeline``); a copy made by ``os.fork`` in a case is stopped and named
  (``forks``).
- **Protocol.**  Length-prefixed pickles (plain pickle when it can, cloudpickle
  for the notebook's own classes) over the worker's stdin / stdout; the worker
  points its own fd 1 at stderr, so a metric's ``print`` never mixes into the
  protocol.  It ignores SIGINT: Ctrl-C is the parent's to handle.  The parent
  polls the workers' outputs (POSIX; reader threads on Windows).
- **Events** come in the calling thread, as in thread mode; a failing listener
  stops new cases, lets those in flight finish, and raises
  ``StoppedByListener`` with the results.

The cost is a process start per slot (and per killed case), and per case a
pickle each way (``benchmarks/bench_isolation.py`` measures it).  On POSIX a
worker starts warm: forked from a helper that has imported all a worker needs,
litellm included (``warm_start``); elsewhere, or when that helper cannot
start, it is a fresh ``python -c``.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import mmap
import os
import pickle
import queue
import selectors
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Sequence
from functools import partial
from typing import IO, Any

from ..core.contract import METRIC_RETURN_VALUE, METRIC_TIME_LIMIT, RUN_FUNCTION
from ..core.dataset import Case
from ..core.report import CaseResult
from ..i18n import t
from . import warm_start
from .driver import TICK, Batch, Driven, NotRun, OnResult, drive, failing_step, not_run_result
from .forks import ForkGuard
from .one_case import CaseRunner, clock_held, exception_line
from .workers import timeout_result

_HEADER = struct.Struct("!Q")
# Doubles per slot on the shared page: the phase deadline, its step (0 run, 1 metric), and
# for a fork made in the case, the copy's pid and what it said (``forks``).
_CELL = 4
_STEPS = (RUN_FUNCTION, METRIC_TIME_LIMIT)
_EXIT_WAIT = 1.0  # how long finished workers get to exit before they are killed
POLL_OUTPUTS = os.name == "posix"  # Windows pipes cannot be polled: reader threads there
WARM_START = warm_start.AVAILABLE  # workers forked from a warm starter (else python -c)


# --- the worker process ----------------------------------------------------------------


class _PageWatch:
    """The runner's ``Deadline``, written to the shared page the parent reads; what the
    run gave the metric (``ran``) is told to the parent, which shows it if the metric
    then runs out of time (the worker is killed with it)."""

    __slots__ = ("_at", "_cells", "tell")

    def __init__(self, cells: Any, slot: int) -> None:  # a memoryview of doubles
        self._cells = cells
        self._at = slot * _CELL
        self.tell: Any = None  # (kind, value) -> None: the worker's replies

    def ran(self, output: Any, seen: Any) -> None:
        if self.tell is not None:
            with contextlib.suppress(Exception):  # an output that cannot travel: not shown
                self.tell("given", (output, seen))

    @property
    def deadline(self) -> float:
        return float(self._cells[self._at])

    @deadline.setter
    def deadline(self, value: float) -> None:
        self._cells[self._at] = value

    @property
    def step(self) -> str:
        return _STEPS[int(self._cells[self._at + 1])]

    @step.setter
    def step(self, value: str) -> None:
        self._cells[self._at + 1] = 0.0 if value == RUN_FUNCTION else 1.0

    def detach(self) -> None:
        """From now on, write a private copy of the cells (a fork's copy: not the page)."""
        self._cells = memoryview(bytearray(self._cells.tobytes())).cast("d")


def _read_message(stream: IO[bytes]) -> bytes | None:
    header = _read_exact(stream, _HEADER.size)
    if header is None:
        return None
    return _read_exact(stream, _HEADER.unpack(header)[0])


def _read_exact(stream: IO[bytes], size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = stream.read(size)
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _write_message(stream: IO[bytes], data: bytes) -> None:
    stream.write(_HEADER.pack(len(data)) + data)


def _pack(value: Any) -> bytes:
    """Plain pickle (fast, C) when it can; cloudpickle (by value) for notebook objects."""
    try:
        data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception:  # a lambda, a class made at run time: send it by value
        data = None
    if data is None or b"__main__" in data:  # the notebook's names do not exist over there
        from .executors import dumps

        return dumps(value)
    return data


def _child_main() -> None:
    """The worker: ``python -c "...; _child_main()" PAGE SLOT PARENT`` (or the same
    arguments in a child of the warm starter, its lifeline the starter)."""
    from .lifeline import end_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    page_path, slot = sys.argv[1], int(sys.argv[2])
    end_with_parent(int(sys.argv[3]))  # a killed kernel or skynet-check leaves nothing running
    commands = os.fdopen(os.dup(0), "rb", buffering=0)
    replies = _Replies(os.fdopen(os.dup(1), "wb", buffering=0))
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # input() must not read the protocol
    os.dup2(2, 1)  # print, from Python or C, goes to stderr

    first = _read_message(commands)
    if first is None:
        return
    try:
        worker = _WorkerCases(first, page_path, slot, replies)
    except BaseException as exc:
        replies.send("broken", exception_line(exc))
        return
    replies.send("ready", None)
    worker.serve(commands)


class _Replies:
    """The worker's answers to the parent; a thread the case started may send one too
    (a provider refused everything: "stop"), hence the lock."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.writing = threading.Lock()

    def send(self, kind: str, value: Any) -> None:
        self.write(_pack((kind, value)))

    def write(self, message: bytes) -> None:
        with self.writing:
            _write_message(self.stream, message)


def _warm_imports() -> None:
    """What a worker imports before its first case: the warm starter imports it once."""
    from ..core import skynet_import  # noqa: F401
    from ..i18n import language  # noqa: F401
    from ..models import case_context, llm, rate_limit  # noqa: F401
    from . import executors, lifeline  # noqa: F401

    with contextlib.suppress(ImportError):
        import cloudpickle  # noqa: F401


class _WorkerCases:
    """In the worker: the runner read from the parent's first message, and its cases."""

    def __init__(self, first: bytes, page_path: str, slot: int, replies: _Replies) -> None:
        path, key, blob, settings = pickle.loads(first)
        sys.path[:0] = [entry for entry in path if entry not in sys.path]
        from ..core.skynet_import import install_skynet_module
        from ..i18n import language
        from ..models.carried import carry
        from ..models.case_context import current_case
        from ..models.llm import warm_up
        from ..models.rate_limit import set_refusal_timeout
        from .executors import unpack_runner

        set_refusal_timeout(settings["refusal_timeout"])  # what configure() set in the parent
        carry(settings.get("litellm_keys"))  # keys set on litellm in the parent (issue 43, K4)
        install_skynet_module()  # before the runner: metric code may import skynet
        self.runner = runner = unpack_runner(key, blob)
        # The run's language, told by the parent (a context does not cross processes),
        # for the life of this process.
        language(runner.lang).__enter__()
        warm_up(*settings.get("warm", ()))  # forked from a warm starter: nothing left to do
        with open(page_path, "r+b") as page_file:
            page = mmap.mmap(page_file.fileno(), 0)
        cells = memoryview(page).cast("d")
        self.watch = _PageWatch(cells, slot)
        self.watch.tell = replies.send
        self.forks = ForkGuard(cells, slot * _CELL + 2, self.watch)
        self.ctx = runner.context()
        # A provider refused every request: the parent starts no further case (as threads do).
        self.ctx.stop_run = lambda reason: replies.send("stop", reason)
        self.ctx.hold_clock = partial(clock_held, self.watch)  # as the thread workers do
        current_case.set(self.ctx)
        self.replies = replies

    def serve(self, commands: IO[bytes]) -> None:
        """Score each case the parent sends, until its end of the pipe."""
        replies = self.replies
        while True:
            data = _read_message(commands)
            if data is None:
                return
            try:
                case = pickle.loads(data)
            except BaseException as exc:  # a class this process cannot import
                replies.send("unreadable", exception_line(exc))
                continue
            replies.write(self._scored(case))

    def _hand_over_unwritten(self) -> None:
        """Replies the run cache could not write (another process holds the file): to the
        parent, which outlives this worker and writes them once the file is free."""
        cache = self.runner.call_cache
        unwritten = {} if cache is None else cache.unwritten()
        if unwritten:
            self.replies.send("unwritten", unwritten)

    def _scored(self, case: Case) -> bytes:
        """The result message of one case (never raises)."""
        runner, forks, watch = self.runner, self.forks, self.watch
        forks.start()
        result = runner.score_case(case, self.ctx, watch)  # never raises
        forks.stop_if_copy()  # a copy made by os.fork in the case ends here
        watch.deadline = math.inf
        result = forks.checked(result, runner.lang)
        self._hand_over_unwritten()
        try:
            return _pack(("result", result))
        except BaseException as exc:
            failed = CaseResult(case.index, case.input, case.expected)
            failed.failed_step = failing_step(runner)
            failed.error = t("case.result_unsendable", runner.lang, error=exception_line(exc))
            return _pack(("result", failed))


# --- the parent ------------------------------------------------------------------------


class _Slot:
    """One worker process, the case it runs, and what that case's run gave its metric."""

    __slots__ = ("case", "generation", "given", "number", "process", "ready")

    def __init__(self, number: int) -> None:
        self.number = number
        self.generation = 0
        self.process: warm_start.WorkerProcess | None = None
        self.ready = False
        self.case: Case | None = None
        self.given: tuple[Any, Any] | None = None


def _reader(number: int, generation: int, stream: IO[bytes], inbox: queue.SimpleQueue[Any]) -> None:
    """One per worker process: its replies, then None at its end (it exited or was killed)."""
    try:
        while True:
            data = _read_message(stream)
            if data is None:
                break
            inbox.put((number, generation, data))
    except (OSError, ValueError):  # the pipe broke: the same as an end
        pass
    finally:
        inbox.put((number, generation, None))
        with contextlib.suppress(OSError):
            stream.close()


class _Pool:
    """Worker processes, one per slot, restarted when killed."""

    def __init__(self, runner: CaseRunner, slots: int) -> None:
        from ..models.carried import keys_to_carry
        from ..models.rate_limit import refusal_timeout
        from .executors import dumps_with_sources, unpicklable_part

        try:
            blob = dumps_with_sources(runner)
        except Exception as exc:
            raise ValueError(
                t(
                    "isolation.unpicklable",
                    runner.lang,
                    part=unpicklable_part(runner),
                    error=f"{type(exc).__name__}: {exc}",
                )
            ) from exc
        key = hashlib.blake2b(blob, digest_size=16).digest()
        # The starter warms up whenever the run has a litellm model: it lives as long as the
        # kernel, so that one import serves every later run (a cache that holds replies may
        # still miss, and then each cold worker would import litellm for itself).  A fresh
        # interpreter, where there is no starter, warms up only when calls will be made.
        self.models = (runner.models.task_model, runner.models.judge_model)
        warm = warm_start.plain(runner.models_to_warm())
        settings = {
            "refusal_timeout": refusal_timeout(),
            "warm": warm,
            "litellm_keys": keys_to_carry(),
        }
        self.first = pickle.dumps((list(sys.path), key, blob, settings), pickle.HIGHEST_PROTOCOL)
        self.provider_stop: str | None = None  # a worker's provider refused everything: why
        descriptor, self.page_path = tempfile.mkstemp(prefix="skynet-page-")
        with os.fdopen(descriptor, "wb") as page_file:
            page_file.write(b"\0" * max(mmap.PAGESIZE, slots * _CELL * 8))
        with open(self.page_path, "r+b") as page_file:
            self.page = mmap.mmap(page_file.fileno(), 0)
        self.cells: Any = memoryview(self.page).cast("d")  # doubles (typeshed says ints)
        # POSIX: the workers' outputs are polled here (one wake-up per reply); elsewhere
        # (Windows pipes cannot be polled) a reader thread per worker feeds a queue.
        self.selector = selectors.DefaultSelector() if POLL_OUTPUTS else None
        self.buffers: dict[int, bytearray] = {}
        self.inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.slots = [_Slot(number) for number in range(slots)]
        # The worker imports this very copy of skynet_jupyter (a source checkout too),
        # without putting site-packages ahead of the standard library.
        here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        on_path = f"import sys; sys.path.insert(0, {here!r}) if {here!r} not in sys.path else None"
        self.command = [
            sys.executable,
            "-c",
            f"{on_path}; from skynet_jupyter.run.isolation import _child_main; _child_main()",
        ]
        # The warm starter: imports what a worker needs, then forks one per request (the
        # same command the import ahead starts it with: warm_start.start_ahead).
        self.starter_command = warm_start.starter_command()

    def start(self, slot: _Slot) -> None:
        slot.generation += 1
        slot.ready = False
        slot.case = None
        self.cells[slot.number * _CELL] = math.inf
        slot.process = process = self._new_worker(slot.number)
        assert process.stdin is not None and process.stdout is not None
        if self.selector is not None:
            self.buffers[slot.number] = bytearray()
            self.selector.register(
                process.stdout.fileno(), selectors.EVENT_READ, (slot.number, slot.generation)
            )
        else:
            threading.Thread(
                target=_reader,
                args=(slot.number, slot.generation, process.stdout, self.inbox),
                name="skynet-isolation-reader",
                daemon=True,
            ).start()
        self._send(slot, self.first)

    def _new_worker(self, number: int) -> warm_start.WorkerProcess:
        """A worker forked warm when it can be, else a fresh interpreter; each in its
        own process group: killing it kills what its case started, too."""
        argv = [self.page_path, str(number)]
        if WARM_START:
            warm = warm_start.start_worker(self.starter_command, argv, self.models)
            if warm is not None:
                return warm
        return subprocess.Popen(
            [*self.command, *argv, str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            process_group=0 if os.name == "posix" else None,
        )

    def poll(self, timeout: float) -> list[tuple[int, int, bytes | None]]:
        """The replies that came within ``timeout``: (slot, generation, message or None at end)."""
        items: list[tuple[int, int, bytes | None]] = []
        if self.selector is None:
            with contextlib.suppress(queue.Empty):
                items.append(self.inbox.get(timeout=timeout))
                while True:
                    items.append(self.inbox.get_nowait())
            return items
        if not self.selector.get_map():
            time.sleep(timeout)
            return items
        for key, _ in self.selector.select(timeout):
            number, generation = key.data
            try:
                chunk = os.read(key.fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:  # the worker exited or was killed
                self._forget(key.fd)
                items.append((number, generation, None))
                continue
            buffer = self.buffers[number]
            buffer += chunk
            while len(buffer) >= _HEADER.size:
                end = _HEADER.size + _HEADER.unpack_from(buffer)[0]
                if len(buffer) < end:
                    break
                items.append((number, generation, bytes(buffer[_HEADER.size : end])))
                del buffer[:end]
        return items

    def _forget(self, descriptor: int) -> None:
        if self.selector is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(descriptor)

    def _send(self, slot: _Slot, data: bytes) -> bool:
        process = slot.process
        try:
            assert process is not None and process.stdin is not None
            _write_message(process.stdin, data)
            process.stdin.flush()
        except (OSError, ValueError):  # it died: its reader reports the end
            return False
        return True

    def send_case(self, slot: _Slot, case: Case, payload: bytes) -> None:
        self.cells[slot.number * _CELL] = math.inf
        slot.case, slot.given = case, None
        self._send(slot, payload)

    def late(self, slot: _Slot, now: float) -> str | None:
        """The step whose limit ``slot``'s case has passed, or None."""
        at = slot.number * _CELL
        if slot.case is None or now <= self.cells[at]:
            return None
        return _STEPS[int(self.cells[at + 1])]

    def step_of(self, slot: _Slot) -> str:
        return _STEPS[int(self.cells[slot.number * _CELL + 1])]

    def kill(self, slot: _Slot) -> None:
        slot.generation += 1  # whatever the old process still says is ignored
        slot.ready = False
        slot.case = None
        process, slot.process = slot.process, None
        if process is not None:
            _kill_group(process)
            self._close(process)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(_EXIT_WAIT)

    def retire(self, slot: _Slot) -> None:
        """No more cases for ``slot``: its worker reads the end of its input and exits."""
        process = slot.process
        if process is not None and process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()

    def close(self) -> None:
        deadline = time.monotonic() + _EXIT_WAIT
        for slot in self.slots:
            self.retire(slot)
        for slot in self.slots:
            process, slot.process = slot.process, None
            if process is None:
                continue
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(0.0, deadline - time.monotonic()))
            _kill_group(process)  # what its cases started and left running, it too if it hangs
            process.wait()
            self._close(process)
        if self.selector is not None:
            self.selector.close()
        self.cells.release()
        self.page.close()
        with contextlib.suppress(OSError):
            os.unlink(self.page_path)

    def _close(self, process: warm_start.WorkerProcess) -> None:
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        if self.selector is not None and process.stdout is not None:
            # Polled here, so closed here (a reader thread closes its own at the end).
            self._forget(process.stdout.fileno())
            with contextlib.suppress(OSError):
                process.stdout.close()


def _kill_group(process: warm_start.WorkerProcess) -> None:
    """Kill a worker and its process group: every process its cases started."""
    if os.name == "posix":
        with contextlib.suppress(OSError):  # the group is empty: all of it has ended
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):  # the worker itself, even if its case left the group
        process.kill()


def run_isolated(
    runner: CaseRunner,
    cases: Sequence[Case],
    *,
    concurrency: int,
    on_result: OnResult | None,
) -> Driven:
    """Run ``cases`` in ``concurrency`` worker processes (:class:`~.driver.Driven`)."""
    if not cases:
        return Driven([], False)
    return drive(Processes(runner, cases, concurrency), cases, runner, on_result)


class Processes:
    """The driver's backend on worker processes, one per slot (``driver.Backend``)."""

    def __init__(self, runner: CaseRunner, cases: Sequence[Case], concurrency: int) -> None:
        self.runner = runner
        self.pool = _Pool(runner, max(1, min(concurrency, len(cases))))
        self.todo = deque(cases)
        self.started: list[int] = []
        self.fresh: list[CaseResult] = []
        self.stopped = False  # the listener failed: no further case starts
        self.broken: str | None = None  # a worker could not even load the runner

    def start(self) -> None:
        for slot in self.pool.slots:  # (close() stops those started if this fails)
            self.pool.start(slot)

    @property
    def provider_stop(self) -> str | None:
        return self.pool.provider_stop

    def stopping(self) -> bool:
        """No further case starts: a broken worker, a listener, a provider."""
        return self.stopped or self.broken is not None or self.pool.provider_stop is not None

    def collect(self) -> Batch:
        pool = self.pool
        stop = self.stopping()
        if not stop:
            self._send_cases()
        if not any(slot.case is not None for slot in pool.slots) and (stop or not self.todo):
            return self._batch(over=True)
        if stop or not self.todo:
            for slot in pool.slots:
                if slot.case is None:
                    pool.retire(slot)
        for item in pool.poll(TICK):
            self._receive(item)
        self._time_out(time.perf_counter())
        return self._batch(over=False)

    def _batch(self, over: bool) -> Batch:
        batch = Batch(self.started, self.fresh, over)
        self.started, self.fresh = [], []
        return batch

    def _send_cases(self) -> None:
        pool, todo = self.pool, self.todo
        for slot in pool.slots:
            while slot.ready and slot.case is None and todo:
                case = todo.popleft()
                try:
                    payload = _pack(case)
                except Exception as exc:  # a lock or an open file in the case
                    self.fresh.append(_unsendable_case(self.runner, case, exc))
                    continue
                pool.send_case(slot, case, payload)
                self.started.append(case.index)

    def _time_out(self, now: float) -> None:
        """Kill the workers whose case is past its limit; a new one takes the slot."""
        pool = self.pool
        for slot in pool.slots:
            step = pool.late(slot, now)
            if step is None:
                continue
            late_case, given = slot.case, slot.given
            assert late_case is not None
            pool.kill(slot)
            self.fresh.append(timeout_result(self.runner, late_case, step, False, given))
            if self.todo and not self.stopping():
                pool.start(slot)

    def _receive(self, item: tuple[int, int, bytes | None]) -> None:
        """Handle one message, or the end of a worker's output."""
        number, generation, data = item
        slot = self.pool.slots[number]
        if generation != slot.generation:  # from a process already killed
            return
        if data is None:
            self._ended(slot)
            return
        kind, value = pickle.loads(data)
        if kind == "ready":
            slot.ready = True
        elif kind == "broken":
            self.broken = self.broken or value
        elif kind == "stop":
            self.pool.provider_stop = self.pool.provider_stop or value
        elif kind == "given":
            slot.given = value
        elif kind == "unwritten":
            self._adopt_unwritten(value)
        elif kind in ("unreadable", "result"):
            self._finished(slot, kind, value)

    def _adopt_unwritten(self, replies: dict[str, str]) -> None:
        cache = self.runner.call_cache
        if cache is not None:
            cache.adopt(replies)

    def _finished(self, slot: _Slot, kind: str, value: Any) -> None:
        case, slot.case = slot.case, None
        if case is None:
            return
        if kind == "unreadable":
            self.fresh.append(_unsendable_case(self.runner, case, value))
        else:
            value.input, value.expected = case.input, case.expected  # the caller's own
            self.fresh.append(value)

    def _ended(self, slot: _Slot) -> None:
        """The worker process ended: its case fails; a worker that died starting breaks the run."""
        pool = self.pool
        process = slot.process
        code = None
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = process.wait(_EXIT_WAIT)
        case, was_ready, step = slot.case, slot.ready, pool.step_of(slot)
        pool.kill(slot)
        if case is not None:
            died = t("case.process_died", self.runner.lang, code=code)
            failed_at = RUN_FUNCTION if step == RUN_FUNCTION else METRIC_RETURN_VALUE
            self.fresh.append(not_run_result(case, failed_at, died))
        elif not was_ready and self.broken is None:
            self.broken = f"exit code {code}"  # it died while starting: every restart would too
        if self.todo and not self.stopping():
            pool.start(slot)

    def stop_starting(self) -> None:
        self.stopped = True

    def cancel(self) -> list[CaseResult]:
        for slot in self.pool.slots:
            if slot.case is not None:
                self.pool.kill(slot)
        return self._batch(over=True).finished

    def left_over(self) -> list[Case]:
        return list(self.todo)

    def not_run(self, stop: NotRun | None) -> NotRun | None:
        if self.broken is not None:
            reason = t("case.process_broken", self.runner.lang, error=self.broken)
            return NotRun(failing_step(self.runner), reason)
        return stop

    def in_order(self) -> bool:
        return False  # the slots finish in any order

    def finish(self, results: list[CaseResult]) -> None:
        """Nothing to add: a worker names a forked case itself (``forks.ForkGuard``)."""

    def close(self) -> None:
        self.pool.close()


def _unsendable_case(runner: CaseRunner, case: Case, exc: BaseException | str) -> CaseResult:
    error = exc if isinstance(exc, str) else exception_line(exc)
    reason = t("case.input_not_copyable", runner.lang, error=error)
    return not_run_result(case, failing_step(runner), reason)
