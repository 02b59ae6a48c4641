"""litellm, imported once per process, when a model call first needs it (issue 37).

``import skynet_jupyter`` never imports litellm: it takes seconds.  A check
imports it before its first case when its calls will be made (``warm_up``), the
first call a run cache cannot answer imports it otherwise, and
``import_ahead`` imports it in the background once a litellm model is
configured.  Whoever comes first imports it; the others wait for the rest of
that one import (:func:`warm_up` holds a lock while it works), never start a
second.

Two things we do to litellm, both said in ``docs/models.md``:

- ``litellm.suppress_debug_info = True``: no "Give Feedback / Get Help" lines
  printed into notebook cells at each provider error;
- a first call answered by litellm itself (``mock_response``: no request, no
  cost) loads what a real first call would load lazily, unless the user has set
  litellm logging callbacks it would reach.

We never set ``LITELLM_LOCAL_MODEL_COST_MAP``.  When litellm could not download
its price map (offline) and fell back to the copy it ships with, its import
waited for that attempt: :func:`price_map_fallback` says so once, and the first
report names the variable that skips it.

The next call works after anything (issue 43, rule 7):

- **Ctrl-C during the import.**  Python takes the modules that failed out of
  ``sys.modules``, but keeps the submodules that finished (``litellm.types...``
  without ``litellm``): the next import would then fail, and be taken for a broken
  install.  Those are taken out too, so the next call imports cleanly; an
  interruption is never remembered as "broken".
- **A fork during the import** (a ``ProcessPoolExecutor`` started while litellm is
  imported ahead, in the background): the child has no importing thread, only its
  lock, held forever.  So a fork waits for the import under way (seconds, at most
  :data:`FORK_WAIT_S`) and the child gets litellm whole; when it cannot wait (the
  forking thread is what the import waits for, the import has stopped moving for
  :data:`STALL_S`, or the wait is spent), the child gets a new lock.  Every child
  drops the modules that threads it does not have left half imported (litellm's
  logging thread imports lazily, after a call returned): it imports them afresh.
- **A failed import** is said once and not tried again (seconds each time): a
  missing dependency names it; a failure after an interrupted import says that a
  restart is needed, never that the install is broken.  Once the missing module is
  found (``%pip install`` in the kernel), the next call imports again, and if that
  fails too, says that a restart is needed.
"""

from __future__ import annotations

import concurrent.futures.thread  # noqa: F401  (before our fork handler: see below)
import contextlib
import importlib
import importlib.util
import logging  # noqa: F401  (before our fork handler: see below)
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..i18n import t

__all__ = [
    "FORK_WAIT_S",
    "STALL_S",
    "fresh_clients",
    "imported_litellm",
    "is_ready",
    "litellm_models",
    "price_map_fallback",
    "warm_up",
]

FORK_WAIT_S = 30.0  # how long a fork waits for litellm's import under way in another thread
# An import whose thread has not moved for this long waits for something else.  Long: a
# call into C (pydantic building a schema) stays in one frame for seconds on a loaded
# machine, and a child forked while it holds the extension's own lock would hang.
STALL_S = 10.0


class _State:
    # Held by whoever imports or warms up (re-entered by the same thread); the others wait.
    warming = threading.RLock()
    warmer: int | None = None  # the thread holding it (outermost), for a fork to look at
    ready = False  # imported and warmed up, in this process
    broken: str | None = None  # why litellm failed to load once: said again, not retried
    missing: str | None = None  # the module it missed then: tried again once it is found
    installed: str | None = None  # that module, installed since: a new failure needs a restart
    interrupted = False  # an import was cut short here (Ctrl-C): a failure after it is ours
    fallback_s: float | None = None  # the import that fell back to the bundled price map
    told = False
    fork_held = False  # the fork under way holds ``warming`` (it waited for the import)
    stalled: int | None = None  # the importing thread a fork found stalled: not waited for again


@contextlib.contextmanager
def _importing() -> Iterator[None]:
    """``_State.warming``, held: a second thread (and a fork) waits for this one's import."""
    with _State.warming:
        outermost = _State.warmer is None
        if outermost:
            _State.warmer = threading.get_ident()
        try:
            yield
        finally:
            if outermost:
                _State.warmer = None
                _State.stalled = None  # a thread's number is given again to a later thread


def imported_litellm() -> Any:
    """litellm, imported now if it is not yet (waiting for an import under way)."""
    if _State.broken is not None and not _installed_since():
        # Tried once: seconds per call to fail the same way.
        raise ImportError(_State.broken)  # a new one each time: no traceback piling up
    if "litellm" not in sys.modules:
        with _importing():
            return _first_import()
    import litellm  # imported, or being imported by another thread: its lock waits for it

    return litellm


def _installed_since() -> bool:
    """Whether the module litellm missed when it failed, not found then, is found now
    (``%pip install`` in the kernel): the failure is forgotten, the next import tries again."""
    missing = _State.missing
    if missing is None:
        return False
    importlib.invalidate_caches()  # the path finders cached the folders before the install
    found = _findable(missing)
    if found:
        _State.broken, _State.missing, _State.installed = None, None, missing
    return found


def _findable(module: str) -> bool:
    """Whether the import system finds ``module``'s top package (without importing it)."""
    try:
        return importlib.util.find_spec(module.split(".")[0]) is not None
    except (ImportError, ValueError):
        return False


def _first_import() -> Any:
    """``import litellm`` in this process, said once if it fails, taken back if cut short."""
    if _State.broken is not None and not _installed_since():  # the thread waited for failed
        raise ImportError(_State.broken)
    fresh = "litellm" not in sys.modules
    before = set(sys.modules)
    started = time.perf_counter()
    try:
        import litellm
    except ImportError as problem:
        _forget_orphans(before)
        if problem.name == "litellm":  # not installed: cheap to find again, never remembered
            raise ImportError(t("model.litellm_missing")) from None
        _State.broken = _not_importable(problem)
        raise ImportError(_State.broken) from problem
    except Exception as problem:  # litellm's own code failed while it loaded
        _forget_orphans(before)
        _State.broken = _not_importable(problem)
        raise ImportError(_State.broken) from problem
    except BaseException:  # Ctrl-C: cut short, not broken; the next call imports again
        _forget_orphans(before)
        _State.interrupted = True
        raise
    if fresh:
        _note_price_map(time.perf_counter() - started)
    litellm.suppress_debug_info = True  # no "Give Feedback / Get Help" prints in notebooks
    return litellm


def _forget_orphans(before: set[str]) -> None:
    """Take out the modules this import added whose package is gone (Python removed the
    modules that failed, not their finished submodules): the next import starts clean."""
    added = [name for name in list(sys.modules) if name not in before]
    for name in added:
        parts = name.split(".")
        ancestors = (".".join(parts[:end]) for end in range(1, len(parts)))
        if any(ancestor not in sys.modules for ancestor in ancestors):
            sys.modules.pop(name, None)


def _not_importable(problem: BaseException) -> str:
    """The sentence of a litellm that could not load: the restart it needs after an
    interrupted import here, else what it misses and how to reinstall it."""
    missing = getattr(problem, "name", None) if isinstance(problem, ImportError) else None
    error = f"{type(problem).__name__}: {problem}"
    if _State.interrupted:
        return t("model.litellm_restart", error=error)
    if _State.installed is not None:  # what it missed came since: this process keeps the rest
        return t("model.litellm_restart_installed", missing=_State.installed, error=error)
    if missing:
        # Tried again once it is found, if it was not found now (a module that is there but
        # fails to import is not fixed by installing it).
        _State.missing = missing if not _findable(missing) else None
        return t("model.litellm_broken_missing", missing=missing)
    return t("model.litellm_broken", error=repr(problem))


def litellm_models(models: Iterable[Any]) -> list[Any]:
    """The litellm models among ``models``: model strings and dicts of litellm arguments."""
    return [model for model in models if isinstance(model, str | Mapping)]


def is_ready() -> bool:
    """Whether litellm is imported and warmed up in this process."""
    return _State.ready


def warm_up(*models: Any) -> None:
    """Import litellm now if one of ``models`` is a litellm model (once per process).

    Called before a case's timed phases, so the one-time import (seconds) counts
    neither toward the first case's run time nor toward the metric time limit.
    A second caller (another thread) waits for the first one's work to end.
    """
    if _State.ready or not litellm_models(models):
        return
    with _importing():
        if _State.ready:
            return
        try:
            litellm = imported_litellm()
        except Exception:  # not installed, or broken: llm() says so when a call needs it
            return
        with contextlib.suppress(Exception):
            importlib.import_module("httpcore")  # the HTTP client's transport, loaded lazily
            hooks = ("callbacks", "success_callback", "failure_callback", "input_callback")
            if not any(getattr(litellm, name, None) for name in hooks):
                # litellm's own offline answer (no request, no cost) loads what its first
                # call loads lazily; skipped when the user has logging hooks it would reach.
                litellm.completion(
                    model="openai/gpt-4o-mini",
                    messages=[{"role": "user", "content": "warm up"}],
                    mock_response="ok",
                )
        _State.ready = True


def price_map_fallback() -> float | None:
    """Once per process: the seconds of an import that could not download the price map.

    None when the import used the bundled map as told (``LITELLM_LOCAL_MODEL_COST_MAP``),
    downloaded it, has not happened, or was already said.
    """
    seconds = _State.fallback_s
    if seconds is None or _State.told:
        return None
    _State.told = True
    return seconds


def _note_price_map(seconds: float) -> None:
    with contextlib.suppress(Exception):  # an older or newer litellm: nothing to say
        from litellm.litellm_core_utils.get_model_cost_map import (
            get_model_cost_map_source_info,
        )

        source = get_model_cost_map_source_info()
        if source.get("fallback_reason") and not source.get("is_env_forced"):
            _State.fallback_s = seconds


# --- a fork at any moment ------------------------------------------------------------------


def _before_fork() -> None:
    """Wait for litellm's import under way in another thread, so that the child gets it
    whole, unless that import cannot end while this thread forks.

    It cannot when it waits for a module this very thread is importing, or for a lock
    that this thread or another fork handler holds (it then stops moving: a fork handler
    that takes a lock and runs before this one, or the forking thread's own lock).  The
    standard library's handlers that take locks the import needs (logging's,
    ``concurrent.futures``'s) are registered before this one, so they run after it; for
    the others, an importing thread that has not moved for :data:`STALL_S` is not waited
    for, then or at the next forks.
    """
    _State.fork_held = False
    deadline = time.monotonic() + FORK_WAIT_S
    progress = _Progress()
    while True:
        if _State.warming.acquire(timeout=0.05):  # free, or held by this thread: at once
            _State.fork_held = True
            return
        warmer = _State.warmer
        if (
            time.monotonic() >= deadline
            or warmer == _State.stalled
            or _waits_for_this_thread(warmer)
        ):
            return
        if progress.stalled_for(warmer) >= STALL_S:
            _State.stalled = warmer
            return


class _Progress:
    """Where a thread is (its innermost frame and instruction), and since when it is there."""

    def __init__(self) -> None:
        self.place: tuple[int, int] | None = None
        self.since = time.monotonic()

    def stalled_for(self, thread: int | None) -> float:
        frame = sys._current_frames().get(thread) if thread is not None else None
        place = (id(frame.f_code), frame.f_lasti) if frame is not None else None
        now = time.monotonic()
        if place != self.place:
            self.place, self.since = place, now
        return now - self.since


def _after_fork_in_parent() -> None:
    if _State.fork_held:
        _State.fork_held = False
        _State.warming.release()


def _after_fork_in_child() -> None:
    """In the child: the lock as the parent's forking thread left it, or, when another
    thread held it (the fork could not wait), a new one; and no module half imported.

    A module another thread was importing at the fork stays locked in the child for a
    thread it does not have, so a later import of it would wait forever: litellm's own
    logging thread imports modules lazily, after the call that started it has returned.
    """
    forget_half_imported()
    if _State.fork_held:
        _State.fork_held = False
        _State.warming.release()
        return
    if _State.warming.acquire(blocking=False):  # free (or this thread's own): as it was
        _State.warming.release()
        return
    _State.warming = threading.RLock()  # held by a thread the child does not have
    _State.warmer = None


def _waits_for_this_thread(thread: int | None) -> bool:
    """Whether ``thread``'s import waits for a module this thread is importing (then
    waiting for it would never end)."""
    if thread is None:
        return False
    try:
        blocking = _import_system()._blocking_on.get(thread)
        locks = blocking if isinstance(blocking, list) else [blocking]  # 3.12+: a list
        return any(getattr(lock, "owner", None) == threading.get_ident() for lock in locks)
    except Exception:  # another Python's import internals: wait as long as allowed
        return False


def _import_system() -> Any:
    """The import system's own module (``importlib._bootstrap``): its module locks."""
    return sys.modules["_frozen_importlib"]


def forget_half_imported() -> list[str]:
    """In a forked child: the modules that threads the fork did not copy were importing,
    taken out of ``sys.modules`` with their submodules (their import can never finish:
    a later import of them would wait forever); their names."""
    me = threading.get_ident()
    try:
        locks = _import_system()._module_locks
        half = []
        for name, reference in list(locks.items()):
            lock = reference()
            owner = getattr(lock, "owner", None)
            if owner and owner != me:
                half.append(name)
                del locks[name]
    except Exception:  # another Python's import internals: nothing known to drop
        return []
    for name in half:
        for loaded in [m for m in list(sys.modules) if m == name or m.startswith(name + ".")]:
            sys.modules.pop(loaded, None)
    return half


# The HTTP clients set aside: kept alive, never used, never closed (closing one could end
# a connection its parent, or a thread still in a request, uses: TLS says goodbye on close).
_inherited_clients: list[Any] = []


def _fresh_clients_in_child() -> None:
    """A forked child (a process pool's worker) makes its own connections: litellm keeps its
    HTTP clients, and their pooled keep-alive sockets, in ``in_memory_llm_clients_cache``;
    a child that reused one would share the parent's socket, and one of the two would wait
    forever for an answer the other read."""
    fresh_clients()


def fresh_clients() -> None:
    """litellm's later calls make HTTP clients of their own; those in use are set aside.

    After a fork (see above), and after a worker thread was stopped by an exception sent
    to it (Ctrl-C, a time limit): stopped inside a client's connection-pool lock, it left
    that lock held, and every later request through that client would wait forever.
    """
    litellm = sys.modules.get("litellm")
    cache = getattr(litellm, "in_memory_llm_clients_cache", None)
    if litellm is None or cache is None:
        return
    try:
        fresh = type(cache)()
    except Exception:  # another litellm's cache: leave it (no pooled client known)
        return
    _inherited_clients.append(cache)
    litellm.in_memory_llm_clients_cache = fresh  # type: ignore[attr-defined,unused-ignore]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=_before_fork,
        after_in_parent=_after_fork_in_parent,
        after_in_child=_after_fork_in_child,
    )
    os.register_at_fork(after_in_child=_fresh_clients_in_child)
