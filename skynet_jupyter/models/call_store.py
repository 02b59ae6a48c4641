"""Model replies on disk: one sqlite file, shared by kernels and processes.

``CallStore`` keeps a JSON record per request key (the standard library's
sqlite3; WAL mode, so two kernels or two processes may write at once).  A
lock held by another process is waited for ``LOCK_WAIT_S`` in all, never 30 s
in silence; then one warning, and the replies made meanwhile wait in memory
and are written as soon as the file is free again (a lock passes: the file is
never given up for it).  A file that cannot be used (damaged, read-only, a
directory) is one warning naming it; the cache then works in memory only, and
the check runs as if there were none.

**Many writers** (issue 45, item 5: four processes of eight threads on one
file, on a loaded machine).  A reply goes to memory first; one thread of a
process writes at a time, everything waiting, in one short transaction, and a
thread that finds another writing leaves its reply to it (the writer looks
again before it stops).  So the file's lock is asked for by one thread per
process, not one per case, and held for a batch's insert, never across a model
call.  What still waits when the process ends is written then (``atexit``).

**A fork** (a ``ProcessPoolExecutor``'s worker, a metric's ``os.fork``) gets
new locks and its own connections: sqlite forbids using a parent's connection
in a child, and the thread holding a lock at the fork is not in the child.
The parent's connections are kept, never closed there (closing one could
checkpoint the parent's file from a process that does not own its locks).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import sqlite3
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..i18n import current_surface, resolve_lang, t

__all__ = ["LOCK_WAIT_S", "CallStore", "Cleared"]

LOCK_WAIT_S = 1.5  # how long a write waits, in all, for another process's lock
# While the file stays locked, each write or look-up tries again this briefly (the replies
# wait in memory meanwhile): a long lock costs a check little, and ends as soon as it passes.
_LOCKED_WAIT_S = 0.05
TABLE = "replies"
_OLD_TABLES = ("outputs",)  # the run-output cache of earlier versions: its keys never match


@dataclass(frozen=True, slots=True)
class Cleared:
    """What :meth:`CallStore.clear` did: how many entries went, and what happened to the path."""

    count: int
    # "damaged" (an unreadable file), "directory" (an empty one), "link" (a symbolic link,
    # removed without following it)
    removed: str | None = None
    kept_directory: bool = False  # a directory with files in it: left as it is


_UNUSABLE = {
    "python": "cache.unusable",
    "notebook": "cache.unusable_notebook",
    "cli": "cache.unusable_cli",
}


class CallStore:
    """Replies on disk: ``get(key)``, ``put(key, record)``, ``clear()``, ``len()``.

    ``record`` is a dict of JSON values.  A lock held by another process warns
    once while it lasts; the replies written meanwhile wait in memory (``pending``)
    and go to the file at the first write or look-up after it is released.  Any other
    failure to open, read or write warns once (naming the path) and turns the file
    off for this store, until :meth:`clear`.
    """

    def __init__(self, path: str | os.PathLike[str], *, warn: Callable[[str], None] | None = None):
        self.path = Path(path).expanduser()
        self._warn = warn or (lambda text: warnings.warn(text, RuntimeWarning, stacklevel=5))
        self._local = threading.local()
        self._lock = threading.Lock()
        self._writing = threading.Lock()  # one thread of this process writes the file at once
        self._inherited: list[threading.local] = []  # a parent's connections (kept, unused)
        self.broken = False
        self._warned = False
        self._pending: dict[str, str] = {}  # key -> record: replies not yet in the file
        self._locked_at: float | None = None  # monotonic(): the lock seen, not yet passed
        self._copy = False  # unpickled in a worker: see __setstate__
        _STORES.add(self)

    def __getstate__(self) -> dict[str, Any]:
        # Another process (a worker, a Dask node) opens its own connection to the same file.
        return {"path": self.path, "broken": self.broken}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])  # type: ignore[misc]
        self.broken = state["broken"]
        self._warned = self.broken  # the kernel said so already
        # A copy in a worker (a process, a pool, a Dask node): a lock is said once, by the
        # process that started the run, which takes the replies the copy could not write
        # (``CallCache.unwritten`` / ``adopt``); each copy waiting its own 1.5 s would add up.
        self._copy = True

    # A connection per thread: sqlite connections are not shared across threads.
    def _connection(self, deadline: float) -> sqlite3.Connection | None:
        if self.broken:
            return None
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is not None:
            return connection
        try:
            if self.path.is_dir():
                raise IsADirectoryError(t("cache.is_directory", resolve_lang(None)))
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=LOCK_WAIT_S, isolation_level=None)
            try:
                _patiently(_prepare, connection, connection=connection, deadline=deadline)
            except BaseException:
                connection.close()
                raise
        except (sqlite3.Error, OSError) as exc:
            self._failed(exc)
            return None
        self._local.connection = connection
        return connection

    def _failed(self, exc: BaseException) -> None:
        """A lock: warn once while it lasts, and try again later; anything else: ``_fail``."""
        if not _is_lock(exc):
            self._fail(exc)
            return
        self._locked(f"{type(exc).__name__}: {exc}")

    def _locked(self, error: str) -> None:
        """Another process holds the file: said once while the lock lasts (never by a
        worker's copy: the process that started the run says it)."""
        with self._lock:
            first = self._locked_at is None
            self._locked_at = time.monotonic()
        if first and not self._copy:
            self._warn(
                t(
                    "cache.locked",
                    resolve_lang(None),
                    path=str(self.path),
                    seconds=f"{LOCK_WAIT_S:g}",
                    error=error,
                )
            )

    def _fail(self, exc: BaseException) -> None:
        with self._lock:
            self.broken = True
            self._pending.clear()
            _UNWRITTEN.discard(self)
            if self._warned:
                return
            self._warned = True
        self.close()
        # Each surface names its own way to start a new cache (issue 36).
        said = _UNUSABLE[current_surface()]
        error = f"{type(exc).__name__}: {exc}"
        self._warn(t(said, resolve_lang(None), path=str(self.path), error=error))

    def _deadline(self) -> float:
        """When this operation stops waiting for another process's lock."""
        briefly = self._locked_at is not None or self._copy
        return time.monotonic() + (_LOCKED_WAIT_S if briefly else LOCK_WAIT_S)

    @property
    def pending(self) -> int:
        """Replies waiting in memory for the file to be free of another process's lock."""
        return len(self._pending)

    def get(self, key: str) -> dict[str, Any] | None:
        waiting = self._pending.get(key)
        if waiting is not None:
            return _record(waiting)
        deadline = self._deadline()
        connection = self._connection(deadline)
        if connection is None:
            return None
        try:
            row = _patiently(_one, connection, key, connection=connection, deadline=deadline)
        except sqlite3.Error as exc:
            self._failed(exc)
            return None
        return None if row is None else _record(row[0])

    def put(self, key: str, record: dict[str, Any]) -> bool:
        """Write ``record`` (and the replies waiting for a lock); False: not written now."""
        if self.broken:
            return False
        with self._lock:
            self._pending[key] = json.dumps(record, ensure_ascii=False)
        return self.flush()

    def take_pending(self) -> dict[str, str]:
        """The replies waiting in memory, taken out of this store: a worker process hands
        them to its parent, which outlives it (``adopt``)."""
        with self._lock:
            taken, self._pending = self._pending, {}
        return taken

    def adopt(self, replies: dict[str, str]) -> None:
        """Replies another process of this run could not write (the file locked): kept here
        until the file is free (said once, as a lock seen here is), newer ones first."""
        if self.broken or not replies:
            return
        with self._lock:
            for key, text in replies.items():
                self._pending.setdefault(key, text)
        self._locked("OperationalError: database is locked (by another process)")
        self.flush()

    def flush(self) -> bool:
        """Write the replies waiting in memory; False when some still wait (or it is off).

        One thread of this process writes at a time; a thread that finds another writing
        returns at once, its replies left to that one, which looks again before it stops.
        """
        while self._pending:
            if not self._writing.acquire(blocking=False):
                return not self.broken  # being written, with this thread's replies
            try:
                if not self._write_waiting():
                    _UNWRITTEN.add(self)  # kept alive (its cache may be gone) until written
                    return False
            finally:
                self._writing.release()
        _UNWRITTEN.discard(self)
        return not self.broken

    def _write_waiting(self) -> bool:
        """Everything waiting, in one transaction; False when it could not be written now."""
        with self._lock:
            waiting = dict(self._pending)
        if not waiting:
            return not self.broken
        deadline = self._deadline()
        connection = self._connection(deadline)
        if connection is None:
            return False
        saved = time.time()
        rows = [(key, text, saved) for key, text in waiting.items()]
        try:
            _patiently(_write, connection, rows, connection=connection, deadline=deadline)
        except sqlite3.Error as exc:
            self._failed(exc)
            return False
        with self._lock:
            for key, text in waiting.items():
                if self._pending.get(key) is text:  # not replaced by a newer reply meanwhile
                    del self._pending[key]
            self._locked_at = None  # the lock passed: a new one warns again
        return True

    def __len__(self) -> int:
        if self._pending:
            self.flush()
        deadline = self._deadline()
        connection = self._connection(deadline)
        if connection is None:
            return len(self._pending)
        try:
            found = int(_patiently(_count, connection, connection=connection, deadline=deadline))
        except sqlite3.Error as exc:
            self._failed(exc)
            return len(self._pending)
        return found + len(self._pending)

    def size_bytes(self) -> int:
        """The file's size on disk, with its write-ahead log (0 for a directory)."""
        total = 0
        for part in self._files():
            if part.is_file():
                total += part.stat().st_size
        return total

    def clear(self) -> Cleared:
        """Forget every reply.  A damaged file is removed, an empty directory too.

        A symbolic link is removed, never followed: what it points at is left as it is.
        """
        with self._lock:
            self._pending.clear()
            self._locked_at = None
        if self.path.is_symlink():
            through = self._count_quietly() if self.path.is_file() else 0
            self.close()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            self._remove_logs()
            self._reset()
            return Cleared(through or 0, removed="link")
        if self.path.is_dir():
            self.close()
            if any(self.path.iterdir()):
                return Cleared(0, kept_directory=True)
            self.path.rmdir()
            self._reset()
            return Cleared(0, removed="directory")
        count: int | None = 0
        if self.path.exists():
            count = self._count_quietly()
        damaged = count is None
        self.close()
        with contextlib.suppress(OSError):  # a path under a file: nothing to remove
            self.path.unlink(missing_ok=True)
        self._remove_logs()
        self._reset()
        return Cleared(count or 0, removed="damaged" if damaged else None)

    def _remove_logs(self) -> None:
        """The "-wal" and "-shm" files; a link is removed, never followed."""
        for part in self._files()[1:]:
            if part.is_dir() and not part.is_symlink():  # a "-wal" directory: never a user's
                shutil.rmtree(part, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):  # a path under a file: nothing to remove
                    part.unlink(missing_ok=True)

    def _count_quietly(self) -> int | None:
        """How many entries the file holds, or None when it cannot be read (no warning)."""
        try:
            with sqlite3.connect(self.path, timeout=LOCK_WAIT_S) as raw:
                names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
                if TABLE not in names:
                    return 0
                return int(raw.execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0])
        except (sqlite3.Error, OSError):
            return None

    def _files(self) -> list[Path]:
        return [Path(f"{self.path}{suffix}") for suffix in ("", "-wal", "-shm")]

    def _reset(self) -> None:
        self.broken = False
        self._warned = False

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def __repr__(self) -> str:
        return f"CallStore({str(self.path)!r})"

    def _forked(self) -> None:
        """In a forked child: new locks, and connections of its own from now on."""
        self._inherited.append(self._local)  # never closed here: the parent's
        self._local = threading.local()
        self._lock = threading.Lock()
        self._writing = threading.Lock()


# Every store of this process, for the two moments that concern them all: the process's
# end (what still waits is written) and a fork (the child's own locks and connections).
_STORES: weakref.WeakSet[CallStore] = weakref.WeakSet()
# The stores whose replies wait for a lock to pass: held here, so that a run's cache made
# for one call (``run_cache=RunCache(path=...)``) and dropped still writes them, or says why.
_UNWRITTEN: set[CallStore] = set()


def _write_at_exit() -> None:
    """What still waits is written, with the whole wait once more; what cannot be is said
    (the lock's warning said the replies would be written once the lock passed)."""
    for store in list(_STORES):
        if store.pending and not store.broken:
            with contextlib.suppress(Exception):  # the end of the process: nothing to raise
                store._locked_at = None
                if not store.flush():
                    count, path = store.pending, str(store.path)
                    said = t("cache.unwritten_at_exit", resolve_lang(None), count=count, path=path)
                    print(said, file=sys.stderr)


def _forget_in_child() -> None:
    for store in list(_STORES):
        store._forked()


atexit.register(_write_at_exit)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def _prepare(connection: sqlite3.Connection) -> None:
    """WAL mode and the table, writing only what is missing (a second kernel takes no lock)."""
    if connection.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")  # WAL: safe, and no fsync a call
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if TABLE not in tables:
        connection.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} ("
            "key TEXT PRIMARY KEY, record TEXT NOT NULL, saved REAL NOT NULL)"
        )
    for old in _OLD_TABLES:
        if old in tables:
            connection.execute(f"DROP TABLE IF EXISTS {old}")


_ROWS_AT_ONCE = 250  # rows per statement: 750 parameters, under every sqlite's limit (999)


def _write(connection: sqlite3.Connection, rows: list[tuple[str, str, float]]) -> None:
    """The rows, each batch of them in one statement: all of a batch written, or none.

    One statement in autocommit mode is its own transaction, made inside one call into
    sqlite, which runs without Python's GIL: the file's lock is held for the insert
    only.  A transaction of several statements (BEGIN, INSERT, COMMIT) would hold it
    while this thread waits for the GIL between them, behind the process's other
    threads: on a loaded machine, long enough for the other processes to give up.
    """
    for start in range(0, len(rows), _ROWS_AT_ONCE):
        batch = rows[start : start + _ROWS_AT_ONCE]
        values = ", ".join(["(?, ?, ?)"] * len(batch))
        flat = [value for row in batch for value in row]
        connection.execute(
            f"INSERT OR REPLACE INTO {TABLE} (key, record, saved) VALUES {values}", flat
        )


def _one(connection: sqlite3.Connection, key: str) -> Any:
    return connection.execute(f"SELECT record FROM {TABLE} WHERE key = ?", (key,)).fetchone()


def _count(connection: sqlite3.Connection) -> int:
    return int(connection.execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0])


def _record(text: Any) -> dict[str, Any] | None:
    try:
        record = json.loads(text)
    except (TypeError, ValueError):  # one damaged entry is a miss, not a broken cache
        return None
    return record if isinstance(record, dict) else None


def _is_lock(exc: BaseException) -> bool:
    """Another process holds the file ("database is locked", "busy"): it will pass."""
    words = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in words or "busy" in words)


def _patiently(
    do: Callable[..., Any],
    *args: Any,
    connection: sqlite3.Connection | None = None,
    deadline: float | None = None,
) -> Any:
    """``do(*args)``, tried again while another process holds the file, until ``deadline``.

    The whole wait, sqlite's and the pauses between tries, ends at ``deadline`` (by
    default ``LOCK_WAIT_S`` from now): sqlite may answer "locked" at once, without waiting
    (two processes creating the file, WAL recovery), so a try is not a wait.
    """
    if deadline is None:
        deadline = time.monotonic() + LOCK_WAIT_S
    attempt = 0
    while True:
        left = deadline - time.monotonic()
        if connection is not None:  # sqlite's own wait: what is left, no more
            connection.execute(f"PRAGMA busy_timeout = {max(0, int(left * 1000))}")
        try:
            return do(*args)
        except sqlite3.OperationalError as exc:
            left = deadline - time.monotonic()
            if not _is_lock(exc) or left <= 0:
                raise
        attempt += 1
        time.sleep(min(0.05 * attempt, left))
