"""A run cache file locked by another process for longer than a worker or a script lives
(issue 45, item 5; B1 and B2 of its attack).

The replies made while the file is locked wait in memory and are written once it is free.
A worker process (``isolation="process"``) ended with the run and took its waiting
replies with it, silently; a script that ended while the lock was held lost its own after
a warning that promised they would be written.  Now a worker hands them to the parent,
which outlives it, and a process that ends before the lock passes says how many it could
not write.  Real processes, a real sqlite lock, a real HTTP model on 127.0.0.1.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import warnings

from skynet import llm

import skynet_jupyter as sj
from tests.fresh_python import ROOT
from tests.openai_server import OpenAIServer

ROWS = [{"text": f"case {n}"} for n in range(12)]


def run(artifact, input):
    return llm(artifact, input["text"])


def score(input, output, expected=None):
    return 1.0, {"feedback": "Scored."}


def locked(path: str) -> sqlite3.Connection:
    """Another holder of the file's write lock (sqlite's own lock, as another process's)."""
    sqlite3.connect(path).execute("PRAGMA journal_mode=WAL").fetchone()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def rows_in(path: str) -> int:
    """The replies in the file (none when no process could make its table)."""
    tables = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    if "replies" not in tables:
        return 0
    return sqlite3.connect(path).execute("SELECT COUNT(*) FROM replies").fetchone()[0]


def test_replies_a_worker_process_could_not_write_reach_the_file_through_its_parent(tmp_path):
    path = str(tmp_path / "runs.sqlite")
    with OpenAIServer(reply=lambda request: "ok") as server:
        model = {"model": "openai/m", "api_base": server.base_url, "api_key": "sk-test-0000"}
        cache = sj.RunCache(path=path)
        holder = locked(path)
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            report = sj.evaluate(
                score,
                ROWS,
                run=run,
                artifact="Say it.",
                concurrency=2,
                isolation="process",
                models=sj.ModelSettings(task_model=model),
                run_cache=cache,
            )
        assert report.passed
        assert any("is locked by another process" in str(w.message) for w in said)
        assert cache.disk.pending == len(ROWS)  # the workers' replies, kept by the parent
        holder.execute("COMMIT")
        assert cache.disk.flush()
        assert rows_in(path) == len(ROWS)


SCRIPT = """
import sys
import skynet_jupyter as sj
from skynet import llm

base, path = sys.argv[1:3]
model = {"model": "openai/m", "api_base": base, "api_key": "sk-test-0000"}
report = sj.evaluate(
    lambda input, output, expected=None: (1.0, {"feedback": "Scored."}),
    [{"text": f"case {n}"} for n in range(5)],
    run=lambda artifact, input: llm(artifact, input["text"]),
    artifact="Say it.",
    models=sj.ModelSettings(task_model=model),
    run_cache=sj.RunCache(path=path),
)
print("passed" if report.passed else "failed")
"""


def test_a_process_that_ends_while_the_file_is_locked_says_what_it_could_not_write(tmp_path):
    path = str(tmp_path / "runs.sqlite")
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "SKYNET_IMPORT_AHEAD": "0",
    }
    with OpenAIServer(reply=lambda request: "ok") as server:
        holder = locked(path)
        try:
            done = subprocess.run(
                [sys.executable, "-c", textwrap.dedent(SCRIPT), server.base_url, path],
                capture_output=True,
                text=True,
                env=environment,
                timeout=120,
            )
        finally:
            holder.execute("COMMIT")
    assert done.stdout.strip() == "passed", done.stderr
    assert "5 model replies were not written to the run cache" in done.stderr
    assert path in done.stderr
    assert rows_in(path) == 0
