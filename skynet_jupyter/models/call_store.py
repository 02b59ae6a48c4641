"""Model replies on disk: one sqlite file, shared by kernels and processes.

``CallStore`` keeps a JSON record per request key (the standard library's
sqlite3; WAL mode, so two kernels or two processes may write at once).  A
lock held by another process is waited for a short, bounded time
(``LOCK_WAIT_S``), never 30 s in silence.  A file that cannot be used
(damaged, locked, read-only, a directory) is one warning naming it; the
cache then works in memory only, and the check runs as if there were none.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..i18n import resolve_lang, t

__all__ = ["LOCK_WAIT_S", "CallStore", "Cleared"]

LOCK_WAIT_S = 1.5  # how long a write waits for another process's lock before giving up
# sqlite may answer "locked" at once, without waiting (two processes creating the file,
# WAL recovery): a few tries before the file is given up for this store.
_LOCK_TRIES = 3
_TABLE = "replies"
_OLD_TABLES = ("outputs",)  # the run-output cache of earlier versions: its keys never match


@dataclass(frozen=True, slots=True)
class Cleared:
    """What :meth:`CallStore.clear` did: how many entries went, and what happened to the path."""

    count: int
    removed: str | None = None  # "damaged" (an unreadable file), "directory" (an empty one)
    kept_directory: bool = False  # a directory with files in it: left as it is


class CallStore:
    """Replies on disk: ``get(key)``, ``put(key, record)``, ``clear()``, ``len()``.

    ``record`` is a dict of JSON values.  Any failure to open, read or write
    warns once (naming the path) and turns the file off for this store.
    """

    def __init__(self, path: str | os.PathLike[str], *, warn: Callable[[str], None] | None = None):
        self.path = Path(path).expanduser()
        self._warn = warn or (lambda text: warnings.warn(text, RuntimeWarning, stacklevel=4))
        self._local = threading.local()
        self._lock = threading.Lock()
        self.broken = False
        self._warned = False

    def __getstate__(self) -> dict[str, Any]:
        # Another process (a worker, a Dask node) opens its own connection to the same file.
        return {"path": self.path, "broken": self.broken}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])  # type: ignore[misc]
        self.broken = state["broken"]
        self._warned = self.broken  # the kernel said so already

    # A connection per thread: sqlite connections are not shared across threads.
    def _connection(self) -> sqlite3.Connection | None:
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
                _patiently(_prepare, connection)
            except BaseException:
                connection.close()
                raise
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc)
            return None
        self._local.connection = connection
        return connection

    def _fail(self, exc: BaseException) -> None:
        with self._lock:
            self.broken = True
            if self._warned:
                return
            self._warned = True
        self.close()
        self._warn(
            t(
                "cache.unusable",
                resolve_lang(None),
                path=str(self.path),
                error=f"{type(exc).__name__}: {exc}",
            )
        )

    def get(self, key: str) -> dict[str, Any] | None:
        connection = self._connection()
        if connection is None:
            return None
        try:
            row = connection.execute(
                f"SELECT record FROM {_TABLE} WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.Error as exc:
            self._fail(exc)
            return None
        if row is None:
            return None
        try:
            record = json.loads(row[0])
        except (TypeError, ValueError):  # one damaged entry is a miss, not a broken cache
            return None
        return record if isinstance(record, dict) else None

    def put(self, key: str, record: dict[str, Any]) -> bool:
        connection = self._connection()
        if connection is None:
            return False
        try:
            _patiently(
                connection.execute,
                f"INSERT OR REPLACE INTO {_TABLE} (key, record, saved) VALUES (?, ?, ?)",
                (key, json.dumps(record, ensure_ascii=False), time.time()),
            )
        except sqlite3.Error as exc:
            self._fail(exc)
            return False
        return True

    def __len__(self) -> int:
        connection = self._connection()
        if connection is None:
            return 0
        try:
            return int(connection.execute(f"SELECT COUNT(*) FROM {_TABLE}").fetchone()[0])
        except sqlite3.Error as exc:
            self._fail(exc)
            return 0

    def size_bytes(self) -> int:
        """The file's size on disk, with its write-ahead log (0 for a directory)."""
        total = 0
        for part in self._files():
            if part.is_file():
                total += part.stat().st_size
        return total

    def clear(self) -> Cleared:
        """Forget every reply.  A damaged file is removed, an empty directory too."""
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
        for part in self._files():
            if part.is_dir():  # a "-wal" or "-shm" directory: never a user's folder
                shutil.rmtree(part, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):  # a path under a file: nothing to remove
                    part.unlink(missing_ok=True)
        self._reset()
        return Cleared(count or 0, removed="damaged" if damaged else None)

    def _count_quietly(self) -> int | None:
        """How many entries the file holds, or None when it cannot be read (no warning)."""
        try:
            with sqlite3.connect(self.path, timeout=LOCK_WAIT_S) as raw:
                names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
                if _TABLE not in names:
                    return 0
                return int(raw.execute(f"SELECT COUNT(*) FROM {_TABLE}").fetchone()[0])
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


def _prepare(connection: sqlite3.Connection) -> None:
    """WAL mode and the table, writing only what is missing (a second kernel takes no lock)."""
    if connection.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")  # WAL: safe, and no fsync a call
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if _TABLE not in tables:
        connection.execute(
            f"CREATE TABLE IF NOT EXISTS {_TABLE} ("
            "key TEXT PRIMARY KEY, record TEXT NOT NULL, saved REAL NOT NULL)"
        )
    for old in _OLD_TABLES:
        if old in tables:
            connection.execute(f"DROP TABLE IF EXISTS {old}")


def _patiently(do: Callable[..., Any], *args: Any) -> Any:
    """``do(*args)``, tried again when another process held the file ("locked", "busy")."""
    for attempt in range(_LOCK_TRIES):
        try:
            return do(*args)
        except sqlite3.OperationalError as exc:
            words = str(exc).lower()
            if attempt == _LOCK_TRIES - 1 or ("locked" not in words and "busy" not in words):
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")  # the last try returned or raised
