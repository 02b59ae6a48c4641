"""The sqlite file of the call cache, read and written directly (in process)."""

from __future__ import annotations

import contextlib
import linecache
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from skynet_jupyter.i18n import t
from skynet_jupyter.models import call_store
from skynet_jupyter.models.call_store import CallStore, Cleared, _patiently


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as raw:
        return {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def test_a_new_file_is_made_in_wal_mode_with_its_table(tmp_path: Path):
    path = tmp_path / "deeper" / "runs.sqlite"
    store = CallStore(path)
    assert store.size_bytes() == 0 and len(store) == 0
    assert store.put("k", {"text": "é"}) and store.get("k") == {"text": "é"}
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        saved = raw.execute("SELECT key, record FROM replies").fetchall()
        columns = raw.execute("PRAGMA table_info(replies)").fetchall()
    assert saved == [("k", '{"text": "é"}')] and tables(path) == {"replies"}
    assert columns == [  # (position, name, declared type, NOT NULL, default, in the key)
        (0, "key", "TEXT", 0, None, 1),
        (1, "record", "TEXT", 1, None, 0),
        (2, "saved", "REAL", 1, None, 0),
    ]
    parts = [Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm")]
    assert store.size_bytes() == sum(p.stat().st_size for p in parts if p.exists()) > 0


def test_the_old_run_output_table_is_dropped(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE outputs (key TEXT, value TEXT)")
    store = CallStore(path)
    assert len(store) == 0 and tables(path) == {"replies"}


def test_a_damaged_entry_is_a_miss_and_the_file_stays_in_use(tmp_path: Path):
    said: list[str] = []
    store = CallStore(tmp_path / "runs.sqlite", warn=said.append)
    assert store.put("ok", {"text": "x"})
    with sqlite3.connect(store.path) as raw:
        raw.execute("INSERT INTO replies VALUES ('bad', 'not json', 0), ('list', '[1]', 0)")
    assert store.get("bad") is None and store.get("list") is None and store.get("none") is None
    assert store.get("ok") == {"text": "x"} and not store.broken and said == []
    assert len(store) == 3


def test_clear_removes_the_file_and_its_log_and_counts_what_went(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    store = CallStore(path)
    for name in "abc":
        store.put(name, {"text": name})
    assert store.clear() == Cleared(3)
    assert not any(Path(f"{path}{suffix}").exists() for suffix in ("", "-wal", "-shm"))
    assert CallStore(tmp_path / "never.sqlite").clear() == Cleared(0)
    assert store.put("d", {"text": "d"}) and len(store) == 1  # usable again at once


def test_a_file_without_the_table_clears_as_empty(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE other (x)")
    assert CallStore(path).clear() == Cleared(0) and not path.exists()


def test_an_unusable_file_warns_once_naming_it_and_clear_turns_it_back_on(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    path.write_bytes(b"not a database" * 300)
    said: list[str] = []
    store = CallStore(path, warn=said.append)
    assert store.put("k", {"text": "x"}) is False and store.get("k") is None and len(store) == 0
    assert len(said) == 1 and str(path) in said[0] and store.broken
    assert store.clear() == Cleared(0, removed="damaged") and not store.broken
    assert store.put("k", {"text": "x"}) and store.get("k") == {"text": "x"} and len(said) == 1


def test_a_failure_warns_in_the_users_language_quoting_the_error(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "fr")
    path = tmp_path / "runs.sqlite"
    path.write_bytes(b"not a database" * 300)
    said: list[str] = []
    assert CallStore(path, warn=said.append).get("k") is None
    error = "DatabaseError: file is not a database"
    assert said == [t("cache.unusable", "fr", path=str(path), error=error)]


def test_a_count_that_fails_is_zero_and_one_warning_quoting_the_error(tmp_path: Path):
    said: list[str] = []
    store = CallStore(tmp_path / "runs.sqlite", warn=said.append)
    assert store.put("k", {"text": "x"}) and len(store) == 1
    with sqlite3.connect(store.path) as raw:
        raw.execute("DROP TABLE replies")
    assert len(store) == 0 and store.broken
    error = "OperationalError: no such table: replies"
    assert said == [t("cache.unusable", "en", path=str(store.path), error=error)]


@pytest.mark.parametrize("step", ["get", "put"])
def test_a_read_or_write_that_fails_is_a_miss_and_one_warning_quoting_the_error(
    tmp_path: Path, step: str
):
    said: list[str] = []
    store = CallStore(tmp_path / "runs.sqlite", warn=said.append)
    assert store.put("k", {"text": "x"}) and store.get("k") == {"text": "x"}
    with sqlite3.connect(store.path) as raw:
        raw.execute("DROP TABLE replies")  # under the open connection, as another process might
    if step == "get":
        assert store.get("k") is None
    else:
        assert store.put("k2", {"text": "y"}) is False
    assert store.broken and store.get("k") is None and store.put("k3", {}) is False
    error = "OperationalError: no such table: replies"
    assert said == [t("cache.unusable", "en", path=str(store.path), error=error)]


def test_clear_leaves_a_folder_with_files_and_removes_an_empty_one(tmp_path: Path):
    full = tmp_path / "full"
    full.mkdir()
    (full / "mine.txt").write_text("kept")
    assert CallStore(full).clear() == Cleared(0, kept_directory=True)
    assert (full / "mine.txt").read_text() == "kept"
    empty = tmp_path / "empty"
    empty.mkdir()
    store = CallStore(empty)
    assert store.clear() == Cleared(0, removed="directory") and not empty.exists()
    assert store.broken is False


def test_clear_removes_a_log_folder_but_never_follows_a_link_to_one(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    store = CallStore(path)
    assert store.put("k", {"text": "x"})
    store.close()
    Path(f"{path}-wal").unlink(missing_ok=True)  # closing the last connection may remove it
    Path(f"{path}-wal").mkdir()
    (Path(f"{path}-wal") / "inside").write_text("x")
    # sqlite cannot open a file whose log is a folder: it is damaged, and all of it goes
    assert store.clear() == Cleared(0, removed="damaged")
    assert not path.exists() and not Path(f"{path}-wal").exists()
    users = tmp_path / "users"
    users.mkdir()
    (users / "notes.txt").write_text("kept")
    Path(f"{path}-shm").symlink_to(users, target_is_directory=True)
    assert store.clear() == Cleared(0)
    assert (users / "notes.txt").read_text() == "kept"


def test_clear_under_a_file_has_nothing_to_remove(tmp_path: Path):
    (tmp_path / "a_file").write_text("x")
    assert CallStore(tmp_path / "a_file" / "runs.sqlite").clear() == Cleared(0)


def test_a_file_that_breaks_again_after_clear_warns_again(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    path.write_bytes(b"not a database" * 300)
    said: list[str] = []
    store = CallStore(path, warn=said.append)
    assert store.get("k") is None and len(said) == 1
    assert store.clear() == Cleared(0, removed="damaged") and store.broken is False
    path.write_bytes(b"not a database" * 300)
    assert store.get("k") is None and store.broken and len(said) == 2 and said[1] == said[0]


def failing(errors: list[BaseException], calls: list[tuple[object, ...]]) -> Callable[..., str]:
    """A statement that raises ``errors`` one by one, then answers "done"."""

    def do(*args: object) -> str:
        calls.append(args)
        if errors:
            raise errors.pop(0)
        return "done"

    return do


def test_a_locked_or_busy_file_is_tried_again_until_the_wait_is_spent():
    calls: list[tuple[object, ...]] = []
    locked = [
        sqlite3.OperationalError("database is locked"),
        sqlite3.OperationalError("Database BUSY"),
    ]
    assert _patiently(failing(locked, calls), "sql", 1) == "done" and calls == [("sql", 1)] * 3
    calls.clear()
    always = [sqlite3.OperationalError(f"database is locked ({n})") for n in range(1000)]
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match=r"^database is locked \(\d+\)$"):
        _patiently(failing(always, calls), deadline=started + 0.3)
    assert 0.3 <= time.monotonic() - started < 0.45 and len(calls) >= 3
    for other in (
        sqlite3.OperationalError("no such table: replies"),
        sqlite3.DatabaseError("locked"),
    ):
        calls.clear()
        with pytest.raises(type(other), match=str(other)):
            _patiently(failing([other], calls))
        assert len(calls) == 1


def test_each_thread_keeps_one_connection_until_closed(tmp_path: Path):
    store = CallStore(tmp_path / "runs.sqlite")
    soon = time.monotonic() + 1.0
    first = store._connection(soon)
    assert first is not None and store._connection(soon) is first
    elsewhere: list[object] = []
    thread = threading.Thread(target=lambda: elsewhere.append(store._connection(soon)))
    thread.start()
    thread.join()
    assert elsewhere[0] is not None and elsewhere[0] is not first
    store.close()
    assert store._connection(soon) not in (None, first)


def test_a_folder_with_files_warns_in_the_users_language(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "fr")
    (tmp_path / "mine.txt").write_text("kept")
    said: list[str] = []
    assert CallStore(tmp_path, warn=said.append).put("k", {"text": "x"}) is False
    error = f"IsADirectoryError: {t('cache.is_directory', 'fr')}"
    assert said == [t("cache.unusable", "fr", path=str(tmp_path), error=error)]


def test_missing_folders_above_the_file_are_made(tmp_path: Path):
    store = CallStore(tmp_path / "two" / "levels" / "runs.sqlite")
    assert store.put("k", {"text": "x"}) and store.get("k") == {"text": "x"} and not store.broken


def test_the_pauses_between_tries_grow_by_fifty_milliseconds(monkeypatch):
    paused: list[float] = []
    clock = SimpleNamespace(sleep=paused.append, time=time.time, monotonic=lambda: 0.0)
    monkeypatch.setattr(call_store, "time", clock)
    locked = [sqlite3.OperationalError("database is locked") for _ in range(2)]
    assert _patiently(failing(locked, [])) == "done"
    assert paused == [0.05, 0.1]


@contextlib.contextmanager
def held_by_another_connection(path: Path) -> Iterator[threading.Event]:
    """``path`` (a journal-mode file) locked by another connection until the event is set,
    and for two seconds at most: a wait longer than ``LOCK_WAIT_S`` would get the file."""
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE replies (key TEXT PRIMARY KEY, record TEXT, saved REAL)")
        raw.execute("INSERT INTO replies VALUES ('k', '{}', 0)")
    raw.close()
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        holding.set()
        release.wait(2.0)
        other.execute("COMMIT")
        other.close()

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait()
    try:
        yield release
    finally:
        release.set()
        holder.join()


def test_a_file_locked_longer_than_the_wait_warns_once_and_writes_once_free(
    tmp_path: Path, monkeypatch
):
    monkeypatch.setattr(call_store, "LOCK_WAIT_S", 0.0)
    monkeypatch.setattr(call_store, "_LOCKED_WAIT_S", 0.0)
    said: list[str] = []
    store = CallStore(tmp_path / "runs.sqlite", warn=said.append)
    with held_by_another_connection(store.path) as release:
        assert store.put("a", {"text": "x"}) is False and store.put("b", {"text": "y"}) is False
        assert store.pending == 2 and store.get("a") == {"text": "x"}  # kept in memory
        release.set()
    error = "OperationalError: database is locked"
    assert said == [t("cache.locked", "en", path=str(store.path), seconds="0", error=error)]
    assert not store.broken and store.flush() and store.pending == 0
    assert len(store) == 3 and store.get("b") == {"text": "y"} and len(said) == 1


def test_a_count_waits_for_a_lock_no_longer_than_the_store_does(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(call_store, "LOCK_WAIT_S", 0.0)
    store = CallStore(tmp_path / "runs.sqlite")
    with held_by_another_connection(store.path) as release:
        assert store._count_quietly() is None
        release.set()
    assert store._count_quietly() == 1


def test_without_a_warn_function_the_failure_is_a_runtime_warning(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    path.write_bytes(b"not a database" * 300)
    store = CallStore(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.get("k") is None and store.get("k") is None
    (warning,) = caught
    error = "DatabaseError: file is not a database"
    assert warning.category is RuntimeWarning
    assert str(warning.message) == t("cache.unusable", "en", path=str(path), error=error)
    # stacklevel=5: past the warning's lambda, _fail, _failed and _connection, to the read
    # that needed the file (under mutmut: its trampoline, one frame per wrapped function).
    shown = linecache.getline(warning.filename, warning.lineno).strip()
    opened = "connection = self._connection(deadline)"
    assert shown == opened or "mutmut" in warning.filename
