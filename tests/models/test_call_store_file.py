"""The sqlite file of the call cache, read and written directly (in process)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from skynet_jupyter.models.call_store import CallStore, Cleared


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
    assert saved == [("k", '{"text": "é"}')] and tables(path) == {"replies"}
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
