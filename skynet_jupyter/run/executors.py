"""Running cases on any ``concurrent.futures.Executor``: threads, processes, Dask.

Cases travel in chunks.  Each chunk runs under the same watched workers as a
local run (``workers.run_in_threads``), on whichever machine the executor picks, so
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

import contextvars
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
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from typing import Any

from ..core.dataset import Case
from ..core.report import CaseResult
from .driver import TICK, Batch, Driven, NotRun, OnResult, drive

TARGET_CHUNK_SECONDS = 0.25
MAX_CHUNK = 2048
IN_FLIGHT_PER_WORKER = 2
_KEEP_RUNNERS = 4
_PROTOCOL = pickle.HIGHEST_PROTOCOL

# What a chunk sends back: its results, the seconds it took, a provider's stop sentence, and
# the indices of the cases it did not run because the run stopped (its caller says why).
# Results, seconds, a provider's stop, the cases not taken, and the replies the run cache
# could not write there (the file locked: the caller keeps them, see CallCache.adopt).
Chunk = tuple[list[CaseResult], float, str | None, list[int], dict[str, str]]


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


def _cancels_running_work(executor: Executor) -> bool:
    """Whether ``cancel()`` on this executor's futures also stops a chunk already running.

    distributed's ClientExecutor never marks its futures running, so ``cancel()``
    succeeds on a chunk a worker is scoring and its finished cases are lost;
    concurrent.futures' pools refuse to cancel a running future.
    """
    return getattr(executor, "_client", None) is not None


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


def _run_chunk(runner: Any, cases: Sequence[Case]) -> Chunk:
    from .workers import Threads

    started = time.perf_counter()
    threads = Threads(runner, cases, concurrency=1, track_started=False)
    results = drive(threads, cases, runner, None, fill_left_over=False).results
    ran = {result.index for result in results}
    untaken = [case.index for case in cases if case.index not in ran]
    cache = runner.call_cache
    unwritten = {} if cache is None else cache.unwritten()
    return results, time.perf_counter() - started, threads.provider_stop, untaken, unwritten


def _in_language(lang: str, runner: Any, cases: Sequence[Case]) -> Chunk:
    """A chunk on a thread of the pool, in the caller's language (``i18n.language``)."""
    from ..i18n import language

    with language(lang):
        return _run_chunk(runner, cases)


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


def _run_packed_chunk(
    key: bytes, runner_blob: bytes, cases_blob: bytes, run_id: str, settings: dict[str, Any]
) -> bytes:
    """A chunk sent as bytes: unpacked after ``skynet`` exists, results packed back.

    ``run_id`` only makes each submission distinct: Dask would merge equal
    "pure" tasks, and a judge that calls a model must run every time.
    ``settings`` carry what the caller's process set that this one must hold
    too: the refusal limit (``configure(refusal_timeout=...)``) and the language.
    """
    from ..core.skynet_import import install_skynet_module
    from ..i18n import language
    from ..models.carried import carry
    from ..models.rate_limit import set_refusal_timeout

    install_skynet_module()
    set_refusal_timeout(settings["refusal_timeout"])
    carry(settings.get("litellm_keys"))  # keys set on litellm in the caller (issue 43, K4)
    runner = unpack_runner(key, runner_blob)
    with language(settings["lang"]):
        chunk = _run_chunk(runner, pickle.loads(cases_blob))
    return dumps(chunk)


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

    class SourceKeepingPickler(cloudpickle.Pickler):  # type: ignore[misc, unused-ignore]  # untyped base
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
        from ..i18n import current_lang
        from ..models.carried import keys_to_carry
        from ..models.rate_limit import refusal_timeout

        self.executor = executor
        self.in_process = isinstance(executor, ThreadPoolExecutor)
        # The runner's language (the run's, via execute), told to threads and workers alike.
        self.lang: str = getattr(runner, "lang", None) or current_lang()
        if self.in_process:
            self.runner = runner
        else:
            self.blob = _pack_runner(runner)
            self.key = hashlib.blake2b(self.blob, digest_size=16).digest()
            self.run_id = uuid.uuid4().hex
            self.settings = {
                "refusal_timeout": refusal_timeout(),
                "lang": self.lang,
                "litellm_keys": keys_to_carry(),
            }

    def submit(self, chunk: list[Case]) -> Future[Any]:
        if self.in_process:
            # In a copy of the caller's context: a pool thread does not inherit it.
            in_context = contextvars.copy_context().run
            return self.executor.submit(in_context, _in_language, self.lang, self.runner, chunk)
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
            self.settings,
        )

    def collect(self, future: Future[Any]) -> Chunk:
        value = future.result()
        finished: Chunk = value if self.in_process else pickle.loads(value)
        return finished


def _failure(exc: BaseException, chunk: Sequence[Case], finished: int) -> ExecutorError:
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
        f"{finished} case(s) had finished.",
        cases=[case.index for case in chunk],
    )


def run_on_executor(
    executor: Executor,
    runner: Any,
    cases: Sequence[Case],
    *,
    on_result: OnResult | None,
    workers: int | None = None,
) -> Driven:
    """Run ``cases`` on ``executor`` (:class:`~.driver.Driven`).

    ``executor`` may also be a Dask ``Client`` (its ``get_executor()`` is used).
    ``workers`` overrides how many cases the executor is taken to run at once
    (it sizes the chunks); by default it is asked (:func:`executor_workers`).
    Raises :class:`~.driver.BackendFailed` (its ``error`` an :class:`ExecutorError`, its
    ``results`` the cases that finished) when the executor itself fails.
    """
    if not isinstance(executor, Executor) and callable(getattr(executor, "get_executor", None)):
        executor = executor.get_executor()  # a Dask Client given for its executor
    if not cases:
        return Driven([], False)
    backend = OnExecutor(executor, runner, cases, workers or executor_workers(executor))
    return drive(backend, cases, runner, on_result)


class OnExecutor:
    """The driver's backend on a ``concurrent.futures.Executor`` (``driver.Backend``)."""

    def __init__(self, executor: Executor, runner: Any, cases: Sequence[Case], slots: int) -> None:
        self.dispatch = _Dispatch(executor, runner)
        self.call_cache = runner.call_cache  # keeps what the workers could not write
        self.planner = ChunkPlanner(slots)
        self.cases = cases
        self.in_flight = slots * IN_FLIGHT_PER_WORKER
        self.pending: dict[Future[Any], list[Case]] = {}
        self.position = 0  # the cases before it were submitted
        self.cancelled: list[Case] = []  # submitted, then cancelled before they started
        self.untaken: list[Case] = []  # sent, and not run by their chunk: the run had stopped
        self.stopped = False
        self.provider_stop: str | None = None
        self.collected = 0  # results handed over: the figure an ExecutorError gives

    def start(self) -> None:
        """Nothing to start: the executor's workers are its own (chunks go in ``collect``)."""

    def collect(self) -> Batch:
        started = self._submit()
        if started:  # said at once: a listener that fails now cancels these chunks
            return Batch(started=started)
        if not self.pending:
            return Batch(over=True)
        done, _ = wait(list(self.pending), timeout=TICK, return_when=FIRST_COMPLETED)
        finished: list[CaseResult] = []
        for future in done:
            finished += self._chunk_done(future)
        return Batch(finished=finished, over=self._over())

    def _over(self) -> bool:
        return not self.pending and (self.stopped or self.position >= len(self.cases))

    def _submit(self) -> list[int]:
        """Submit chunks while the workers have room: the indices of the cases sent."""
        started: list[int] = []
        total = len(self.cases)
        while not self.stopped and self.position < total and len(self.pending) < self.in_flight:
            size = self.planner.next_size(total - self.position)
            chunk = list(self.cases[self.position : self.position + size])
            self.pending[self.dispatch.submit(chunk)] = chunk
            self.position += size
            started += [case.index for case in chunk]
        return started

    def _chunk_done(self, future: Future[Any]) -> list[CaseResult]:
        chunk = self.pending.pop(future)
        try:
            results, seconds, provider_stop, untaken, unwritten = self.dispatch.collect(future)
        except Exception as exc:
            raise _failure(exc, chunk, self.collected) from exc
        if unwritten and self.call_cache is not None:
            self.call_cache.adopt(unwritten)
        self.planner.observe(len(chunk), seconds)
        self.collected += len(results)
        if untaken:
            left = set(untaken)
            self.untaken += [case for case in chunk if case.index in left]
        if provider_stop is not None and self.provider_stop is None:
            self.provider_stop = provider_stop  # the driver stops the run
        return results

    def stop_starting(self) -> None:
        self.stopped = True
        if _cancels_running_work(self.dispatch.executor):
            return  # the chunks sent finish, as the cases in flight do on every backend
        for future in list(self.pending):
            if future.cancel():  # not started yet: never will
                self.cancelled += self.pending.pop(future)

    def cancel(self) -> list[CaseResult]:
        """Results of chunks that finished while we were interrupted."""
        kept: list[CaseResult] = []
        for future in list(self.pending):
            if future.done() and not future.cancelled() and future.exception() is None:
                kept.extend(self.dispatch.collect(future)[0])
                del self.pending[future]
        return kept

    def left_over(self) -> list[Case]:
        return self.cancelled + self.untaken + list(self.cases[self.position :])

    def not_run(self, stop: NotRun | None) -> NotRun | None:
        return stop

    def in_order(self) -> bool:
        return False  # chunks finish in any order

    def finish(self, results: list[CaseResult]) -> None:
        """Nothing to add: each chunk finished its own results where it ran."""

    def close(self) -> None:
        for future in self.pending:
            future.cancel()
