"""litellm imported ahead of the first model call, in the background (issue 37).

``import litellm`` takes seconds (3.5-6 s on two cores, 14-20 s on a busy
machine).  Once a litellm model is configured (``configure()``, ``%config
SkynetMagics.*_model``, the ``SKYNET_*_MODEL`` variables at ``%load_ext``,
``skynet-check``'s model options), the user usually writes a metric before the
first check: the import can happen meanwhile, on a daemon thread, so that check
does not wait for it.  A check that starts while the import is under way waits
only for the rest of it (Python's import lock: never a second import).

It starts :data:`PAUSE_S` after the setting, unless by then:

- no configured model is a litellm model (a callable, or none), litellm is not
  installed, or it is imported already (then only the warm starter is started);
- a run started, or is under way in another thread when the pause ends
  (:func:`run_decides`): the run decides for itself, importing litellm before its
  cases when their calls will be made, at the first call the run cache cannot
  answer otherwise;
- the run cache already holds replies (a restarted kernel re-checking is
  answered from it: no seconds of CPU for calls never made);
- ``SKYNET_IMPORT_AHEAD=0`` is set (read at the setting and again after the pause).

A cell run during the import shares the interpreter with it (the import holds
the GIL most of the time): ``benchmarks/bench_import_ahead.py`` measures a small
cell then, and the first check after a pause.

Once litellm is imported here (or at once, when it already was), the warm
starter of ``isolation="process"`` workers is started too
(``run.warm_start.start_ahead``), in its own process: it imports what a worker
needs, litellm included, so a kernel's first process-isolated run forks warm
workers at once (``benchmarks/bench_warm_workers.py``).  After the kernel's
import, not beside it: two imports at once, on two cores, slowed a cell run
meanwhile twice as much.  A fresh interpreter started with ``subprocess`` (never
a fork of the kernel and its threads), it ends with the kernel.

A fork of this process (a ``ProcessPoolExecutor``) gets no timer, no import
thread and no run of its parent's: the child starts idle.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from .litellm_import import litellm_models, warm_up

__all__ = [
    "PAUSE_S",
    "enabled",
    "run_decides",
    "run_starting",
    "schedule",
    "start_now",
    "status",
    "wait",
    "watch_session_cache",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")

PAUSE_S = 1.0  # after a setting: "Run All" reaches the check before this, a person does not
_OFF = {"0", "false", "no", "off"}


class _Ahead:
    lock = threading.Lock()
    timer: threading.Timer | None = None
    thread: threading.Thread | None = None  # the import under way, or done
    status = "idle"
    session_cache: Callable[[], Path | None] | None = None
    runs = 0  # runs under way (any thread): nothing is imported ahead meanwhile
    done = threading.Event()


def enabled() -> bool:
    """False when ``SKYNET_IMPORT_AHEAD`` says no (``0``, ``false``, ``no``, ``off``)."""
    return os.environ.get("SKYNET_IMPORT_AHEAD", "1").strip().lower() not in _OFF


def watch_session_cache(path: Callable[[], Path | None] | None) -> None:
    """Let the notebook session say where its run cache file is (None: no session)."""
    _Ahead.session_cache = path


def schedule(models_now: Callable[[], Iterable[Any]], *, pause: float = PAUSE_S) -> None:
    """A model setting changed: import litellm in ``pause`` seconds if it will be useful,
    and start the warm starter of process workers (also when litellm is imported here).

    ``models_now`` gives the configured models: read now, and again after the pause.
    """
    if not enabled():
        return
    if not litellm_models(models_now()):
        return
    with _Ahead.lock:
        if _Ahead.thread is not None:  # under way (a run under way decides after the pause)
            return
        if _Ahead.timer is not None:
            _Ahead.timer.cancel()
        timer = threading.Timer(pause, _after_pause, args=(models_now,))
        timer.name = "skynet-import-ahead"
        timer.daemon = True  # never keeps a script or a kernel from ending
        _Ahead.timer = timer
        _Ahead.status = "waiting"
        _Ahead.done.clear()
    timer.start()


def start_now(models: Iterable[Any], cache_path: Path | None = None) -> bool:
    """Start the import now if ``models`` has a litellm model (``skynet-check``); started?

    Not when the run cache at ``cache_path`` already holds replies.
    """
    chosen = litellm_models(models)
    if not enabled() or "litellm" in sys.modules or not chosen:
        return False
    with _Ahead.lock:
        if _Ahead.thread is not None:
            return False
        _cancel_timer()
        thread = threading.Thread(
            target=_import_unless_cached, args=(chosen, cache_path), daemon=True
        )
        thread.name = "skynet-import-ahead"
        _Ahead.thread = thread
        _Ahead.status = "starting"
        _Ahead.done.clear()
    thread.start()
    return True


def run_starting() -> None:
    """A run starts: an import still waiting for its pause is called off (the run decides)."""
    if _Ahead.timer is None:  # the usual case, without a lock
        return
    with _Ahead.lock:
        if _cancel_timer():
            _finish("skipped: a run started first")


def run_decides(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function`` is a run: nothing is imported ahead from its start to its end.

    A pause under way is called off when it starts, and a setting made meanwhile (another
    thread) schedules nothing: the run imports litellm itself when its calls need it.
    """

    @functools.wraps(function)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        run_starting()
        with _Ahead.lock:
            _Ahead.runs += 1
        try:
            return function(*args, **kwargs)
        finally:
            with _Ahead.lock:
                _Ahead.runs -= 1

    return run


def status() -> str:
    """What the import ahead did: idle, waiting, importing, imported, or skipped: why."""
    return _Ahead.status


def wait(timeout: float | None = None) -> bool:
    """Wait until nothing is waiting or under way (tests, benchmarks); whether it ended."""
    if _Ahead.status == "idle":
        return True
    return _Ahead.done.wait(timeout)


def _cancel_timer() -> bool:
    timer, _Ahead.timer = _Ahead.timer, None
    if timer is None:
        return False
    timer.cancel()
    return True


def _finish(status: str) -> None:
    _Ahead.status = status
    _Ahead.done.set()


def _after_pause(models_now: Callable[[], Iterable[Any]]) -> None:
    with _Ahead.lock:
        if _Ahead.timer is None or _Ahead.timer is not threading.current_thread():
            return  # called off, or replaced by a later setting
        _Ahead.timer = None
        if _Ahead.runs:  # a run started in another thread meanwhile: it decides
            _finish("skipped: a run started first")
            return
        _Ahead.thread = threading.current_thread()
    session = _Ahead.session_cache
    models = litellm_models(models_now())
    _import_unless_cached(models, session() if session else None, starter=True)


def _import_unless_cached(
    models: list[Any], cache_path: Path | None, *, starter: bool = False
) -> None:
    """litellm imported here unless :func:`_why_not`; with ``starter``, the warm starter
    of process workers started too (a kernel's, never ``skynet-check``'s: its one run
    would pay a second import for a starter it may never use)."""
    try:
        why_not = _why_not(models, cache_path)
        if why_not is not None:
            if starter and why_not == "already imported":
                _start_warm_starter(models)
            _finish(f"skipped: {why_not}")
            return
        _Ahead.status = "importing"
        started = time.perf_counter()
        warm_up(*models)
        seconds = time.perf_counter() - started
        if starter and "litellm" in sys.modules:  # after this import, not beside it: two
            _start_warm_starter(models)  # imports at once would slow the user's cells more
        _finish(f"imported in {seconds:.1f} s" if "litellm" in sys.modules else "skipped: failed")
    except BaseException as problem:  # a daemon thread: nothing may escape to stderr
        _finish(f"skipped: {type(problem).__name__}")
    finally:
        with _Ahead.lock:
            if _Ahead.thread is threading.current_thread():
                _Ahead.thread = None  # a later setting may try again (litellm imported: no need)


# The run layer's warm starter, found by name: the models layer never imports a layer
# above it (tests/test_layers.py), and this is the one moment both need.
_WARM_STARTER = "skynet_jupyter.run.warm_start"


def _start_warm_starter(models: list[Any]) -> None:
    """The warm starter of process workers, started now in its own process, where it
    imports litellm too; nothing waits for it."""
    with contextlib.suppress(Exception):  # no starter: a process run starts its own
        importlib.import_module(_WARM_STARTER).start_ahead(models)


def _why_not(models: list[Any], cache_path: Path | None) -> str | None:
    if not enabled():  # turned off during the pause
        return "turned off (SKYNET_IMPORT_AHEAD)"
    if not models:
        return "no litellm model"
    if "litellm" in sys.modules:
        return "already imported"
    if importlib.util.find_spec("litellm") is None:
        return "litellm is not installed"
    if _holds_replies(cache_path):
        return "the run cache holds replies"
    return None


def _holds_replies(path: Path | None) -> bool:
    """Whether the run cache file at ``path`` holds a reply (read-only, never waits)."""
    if path is None or not path.is_file():
        return False
    from .call_store import TABLE

    with contextlib.suppress(sqlite3.Error, OSError, ValueError):
        uri = f"{path.resolve().as_uri()}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=0.2)) as db:
            return db.execute(f"SELECT 1 FROM {TABLE} LIMIT 1").fetchone() is not None
    return False


def _forget_in_child() -> None:
    """A forked child has none of its parent's threads: no timer, no import, no run."""
    _Ahead.lock = threading.Lock()  # a parent's thread may have held it at the fork
    _Ahead.timer = None
    _Ahead.thread = None
    _Ahead.runs = 0
    _Ahead.done = threading.Event()
    _Ahead.done.set()  # nothing under way here
    if _Ahead.status in ("waiting", "starting", "importing"):
        _Ahead.status = "idle"


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
