"""Running cases on any ``concurrent.futures.Executor``: threads, processes, Dask.

Cases travel in chunks.  Each chunk runs under the same watched workers as a
local run (``_workers.supervise``), on whichever machine the executor picks, so
time limits, errors and measurements behave the same everywhere; only
infrastructure failures (a lost worker, a package missing on the cluster)
surface here, as :class:`ExecutorError`.

- **Parallelism is the executor's.**  Each chunk runs one case at a time, so a
  pool of N workers (a Dask cluster with N worker threads) runs N cases at
  once; ``evaluate(concurrency=...)`` applies to local runs only.
- **Notebook code travels by value.**  For anything but a thread pool, the
  runner (metric, run function, artifact, models) is serialized once with
  cloudpickle when it is installed (it comes with Dask), so a ``score`` or
  ``run`` defined in a notebook cell works on a process pool and on a cluster.
  A metric loaded from source travels as its source.  The worker installs the
  ``skynet`` helper module *before* reading it, so metric code that imports
  ``skynet`` loads there, and keeps the last few runners it read, so a chunk
  does not rebuild the metric.
- **Chunks size themselves.**  The first chunks hold one case (the first
  results show at once); later ones aim at about ``TARGET_CHUNK_SECONDS`` of
  work, measured on the workers, capped so the last cases still spread over
  every worker.  At most ``IN_FLIGHT_PER_WORKER`` chunks per worker are
  submitted at a time, so Ctrl-C cancels what has not started and memory
  stays flat however many cases there are.
- **Events.**  ``CaseStarted`` means the case was sent to a worker (its chunk
  was submitted); ``CaseFinished`` comes as each chunk returns.
"""

from __future__ import annotations

import functools
import hashlib
import io
import linecache
import marshal
import os
import pickle
import threading
import time
import types
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from typing import Any

from ..core.dataset import Case
from ..core.report import CaseResult

TARGET_CHUNK_SECONDS = 0.25
MAX_CHUNK = 2048
IN_FLIGHT_PER_WORKER = 2
TICK = 0.1  # how often the waiting loop wakes (Ctrl-C is seen at least this often)
_KEEP_RUNNERS = 4
_PROTOCOL = pickle.HIGHEST_PROTOCOL

OnResult = Callable[[list[int], list[CaseResult]], None]


class ExecutorError(RuntimeError):
    """The executor could not run some cases (a lost worker, a missing package, ...).

    Not the metric's fault: a metric that raises or runs past its limit fails
    its own case, as in a local run.  ``cases`` holds the indices of the cases
    of the chunk that failed on a worker; it is empty when the failure was in
    sending the work (the message then names what could not be sent).
    """

    def __init__(self, message: str, *, cases: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.cases = list(cases)

    def _render_traceback_(self) -> list[str]:
        # IPython shows this instead of our frames: the sentence and its cause.
        lines = [f"{type(self).__name__}: {self}"]
        if self.__cause__ is not None:
            cause = self.__cause__
            lines.append(f"Caused by {type(cause).__name__}: {cause}")
        return lines


def executor_workers(executor: Executor) -> int:
    """How many cases ``executor`` runs at once: Dask worker threads, pool size, or a guess."""
    client = getattr(executor, "_client", None)  # distributed's ClientExecutor
    if client is not None and callable(getattr(client, "nthreads", None)):
        try:
            threads = int(sum(client.nthreads().values()))
        except Exception:  # a client that cannot answer now: fall back to a guess
            threads = 0
        if threads > 0:
            return threads
    size = getattr(executor, "_max_workers", None)  # thread and process pools, loky
    if isinstance(size, int) and size > 0:
        return size
    return os.cpu_count() or 4


class ChunkPlanner:
    """Chunk sizes: one case at first, then about ``target`` seconds of measured work."""

    def __init__(
        self, workers: int, *, target: float = TARGET_CHUNK_SECONDS, largest: int = MAX_CHUNK
    ) -> None:
        self.workers = max(1, workers)
        self.target = target
        self.largest = largest
        self.seconds_per_case: float | None = None

    def next_size(self, remaining: int) -> int:
        if self.seconds_per_case is None:
            size = 1
        else:
            size = int(self.target / max(self.seconds_per_case, 1e-7))
        even_share = -(-remaining // self.workers)  # the tail still reaches every worker
        return max(1, min(size, self.largest, even_share, remaining))

    def observe(self, cases: int, seconds: float) -> None:
        """Learn from a finished chunk (a moving average: early outliers fade)."""
        if cases <= 0:
            return
        per_case = seconds / cases
        previous = self.seconds_per_case
        self.seconds_per_case = per_case if previous is None else (previous + per_case) / 2


# --- what runs on the worker ---------------------------------------------------


def _run_chunk(runner: Any, cases: Sequence[Case]) -> tuple[list[CaseResult], float]:
    from .workers import supervise

    started = time.perf_counter()
    results, _ = supervise(runner, cases, concurrency=1, on_result=None)
    return results, time.perf_counter() - started


_runners: OrderedDict[bytes, Any] = OrderedDict()  # per worker process, keyed by digest
_runners_lock = threading.Lock()


def unpack_runner(key: bytes, blob: bytes) -> Any:
    with _runners_lock:
        runner = _runners.get(key)
        if runner is None:
            sources, inner = pickle.loads(blob)
            for filename, lines in sources.items():
                if filename not in linecache.cache and not os.path.exists(filename):
                    linecache.cache[filename] = (sum(map(len, lines)), None, lines, filename)
            runner = pickle.loads(inner)
            _runners[key] = runner
            while len(_runners) > _KEEP_RUNNERS:
                _runners.popitem(last=False)
        else:
            _runners.move_to_end(key)
    return runner


def _run_packed_chunk(key: bytes, runner_blob: bytes, cases_blob: bytes, run_id: str) -> bytes:
    """A chunk sent as bytes: unpacked after ``skynet`` exists, results packed back.

    ``run_id`` only makes each submission distinct: Dask would merge equal
    "pure" tasks, and a judge that calls a model must run every time.
    """
    from ..core.skynet_import import install_skynet_module

    install_skynet_module()
    runner = unpack_runner(key, runner_blob)
    results, seconds = _run_chunk(runner, pickle.loads(cases_blob))
    return dumps((results, seconds))


# --- what runs here --------------------------------------------------------------


def dumps(value: Any) -> bytes:
    try:
        import cloudpickle
    except ImportError:  # plain pickle: functions must be importable on the workers
        return pickle.dumps(value, protocol=_PROTOCOL)
    blob: bytes = cloudpickle.dumps(value, protocol=_PROTOCOL)
    return blob


def _pack_runner(runner: Any) -> bytes:
    try:
        return dumps_with_sources(runner)
    except Exception as exc:
        part = unpicklable_part(runner)
        raise ExecutorError(
            f"The {part} cannot be sent to the executor's workers "
            f"({type(exc).__name__}: {exc}). Keep it free of open files, locks and "
            "connections (create those inside the function), or run without an executor."
        ) from exc


def dumps_with_sources(value: Any) -> bytes:
    """``value`` pickled with its code's file names and source lines.

    cloudpickle renames the file of code it sends by value to "<dynamic-code>";
    we send code objects whole (marshal: as version-bound as bytecode already
    is) and the cells' lines, so a worker's traceback names the user's cell and
    line exactly as a local run does.
    """
    try:
        pickler_type = _source_keeping_pickler()
    except ImportError:
        return pickle.dumps(({}, pickle.dumps(value, _PROTOCOL)), _PROTOCOL)
    buffer = io.BytesIO()
    pickler = pickler_type(buffer, protocol=_PROTOCOL)
    pickler.dump(value)
    sources = {name: lines for name in pickler.filenames if (lines := linecache.getlines(name))}
    return pickle.dumps((sources, buffer.getvalue()), _PROTOCOL)


@functools.cache
def _source_keeping_pickler() -> type:
    import cloudpickle

    class SourceKeepingPickler(cloudpickle.Pickler):  # type: ignore[misc]  # untyped base
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.filenames: set[str] = set()

        def reducer_override(self, obj: Any) -> Any:
            if type(obj) is types.CodeType:
                self.filenames.add(obj.co_filename)
                return marshal.loads, (marshal.dumps(obj),)
            return super().reducer_override(obj)

    return SourceKeepingPickler


def unpicklable_part(runner: Any) -> str:
    for name, label in (
        ("metric", "metric"),
        ("run", "run function"),
        ("artifact", "artifact"),
        ("models", "model settings"),
    ):
        try:
            dumps(getattr(runner, name, None))
        except Exception:
            return label
    return "case runner"


class _Dispatch:
    """Submits chunks: objects to a thread pool, bytes to anything else."""

    def __init__(self, executor: Executor, runner: Any) -> None:
        self.executor = executor
        self.in_process = isinstance(executor, ThreadPoolExecutor)
        if self.in_process:
            self.runner = runner
        else:
            self.blob = _pack_runner(runner)
            self.key = hashlib.blake2b(self.blob, digest_size=16).digest()
            self.run_id = uuid.uuid4().hex

    def submit(self, chunk: list[Case]) -> Future[Any]:
        if self.in_process:
            return self.executor.submit(_run_chunk, self.runner, chunk)
        try:
            cases_blob = dumps(chunk)
        except Exception as exc:
            raise ExecutorError(
                f"Cases {chunk[0].index}..{chunk[-1].index} cannot be sent to the executor's "
                f"workers ({type(exc).__name__}: {exc})."
            ) from exc
        return self.executor.submit(
            _run_packed_chunk,
            self.key,
            self.blob,
            cases_blob,
            f"{self.run_id}-{chunk[0].index}",
        )

    def collect(self, future: Future[Any]) -> tuple[list[CaseResult], float]:
        value = future.result()
        finished: tuple[list[CaseResult], float] = value if self.in_process else pickle.loads(value)
        return finished


def _failure(
    exc: BaseException, chunk: Sequence[Case], finished: list[CaseResult]
) -> ExecutorError:
    kind = type(exc).__name__
    text = str(exc)
    first, last = chunk[0].index, chunk[-1].index
    where = f"case {first}" if first == last else f"cases {first}..{last}"
    if isinstance(exc, ImportError) and "skynet_jupyter" in text:
        hint = (
            "skynet_jupyter is not installed where the executor runs: install the same "
            "version on every worker (pip install skynet-jupyter)."
        )
    elif kind in {"BrokenProcessPool", "KilledWorker"}:
        hint = (
            "A worker process died: a metric or run function that ends the process "
            "(os._exit, a crash in native code) or runs out of memory does this."
        )
    else:
        hint = "The executor, not the metric, failed; the cause is attached."
    return ExecutorError(
        f"The executor could not run {where} ({kind}: {text}). {hint} "
        f"{len(finished)} case(s) had finished.",
        cases=[case.index for case in chunk],
    )


def run_on_executor(
    executor: Executor,
    runner: Any,
    cases: Sequence[Case],
    *,
    on_result: OnResult | None,
    workers: int | None = None,
) -> tuple[list[CaseResult], bool]:
    """Run ``cases`` on ``executor``; (results in case order, interrupted).

    ``executor`` may also be a Dask ``Client`` (its ``get_executor()`` is used).
    ``workers`` overrides how many cases the executor is taken to run at once
    (it sizes the chunks); by default it is asked (:func:`executor_workers`).
    Raises :class:`ExecutorError` when the executor itself fails.
    """
    if not isinstance(executor, Executor) and callable(getattr(executor, "get_executor", None)):
        executor = executor.get_executor()  # a Dask Client given for its executor
    total = len(cases)
    if total == 0:
        return [], False
    slots = workers or executor_workers(executor)
    dispatch = _Dispatch(executor, runner)
    planner = ChunkPlanner(slots)
    pending: dict[Future[Any], list[Case]] = {}
    results: list[CaseResult] = []
    interrupted = False
    listener_error: BaseException | None = None
    position = 0

    def tell(started: list[int], finished: list[CaseResult]) -> None:
        # A listener that raises stops new chunks; the running ones finish.
        nonlocal listener_error, on_result
        if on_result is None:
            return
        try:
            on_result(started, finished)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            listener_error = exc
            on_result = None
            for future in list(pending):
                if future.cancel():  # not started yet: never will
                    del pending[future]

    try:
        while position < total or pending:
            while (
                listener_error is None
                and position < total
                and len(pending) < slots * IN_FLIGHT_PER_WORKER
            ):
                size = planner.next_size(total - position)
                chunk = list(cases[position : position + size])
                pending[dispatch.submit(chunk)] = chunk
                position += size
                tell([case.index for case in chunk], [])
            if listener_error is not None and not pending:
                break
            done, _ = wait(list(pending), timeout=TICK, return_when=FIRST_COMPLETED)
            for future in done:
                chunk = pending.pop(future)
                try:
                    chunk_results, seconds = dispatch.collect(future)
                except Exception as exc:
                    raise _failure(exc, chunk, results) from exc
                planner.observe(len(chunk), seconds)
                results.extend(chunk_results)
                tell([], chunk_results)
    except KeyboardInterrupt:
        interrupted = True
        results.extend(_salvage(dispatch, pending))
    finally:
        for future in pending:
            future.cancel()
    order = {case.index: position for position, case in enumerate(cases)}
    results.sort(key=lambda r: order[r.index])
    if listener_error is not None:
        from .workers import StoppedByListener

        raise StoppedByListener(listener_error, results, interrupted) from listener_error
    return results, interrupted


def _salvage(dispatch: _Dispatch, pending: dict[Future[Any], list[Case]]) -> list[CaseResult]:
    """Results of chunks that finished while we were interrupted."""
    kept: list[CaseResult] = []
    for future in list(pending):
        if future.done() and not future.cancelled() and future.exception() is None:
            kept.extend(dispatch.collect(future)[0])
            del pending[future]
    return kept
