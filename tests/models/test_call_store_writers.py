"""Many writers on one run cache file (issue 45, item 5), and a fork at any moment.

Four processes of eight threads write 150 replies each to one file while their threads
keep the GIL busy (as a run's own Python work does): no "locked by another process"
warning, and a fifth process finds every reply.  Then the mechanism, deterministically:
one thread of a process writes at a time and takes the others' replies with its own; a
reply still waiting for the file when the process ends is written then; a forked child
gets locks and connections of its own.  Real processes and real sqlite files; no time is
asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from skynet_jupyter.models import call_store
from skynet_jupyter.models.call_cache import CallCache
from skynet_jupyter.models.call_store import CallStore
from tests.fresh_python import ROOT

WRITERS, THREADS, CASES = 4, 8, 150

WRITER = """
import json, sys, time
from concurrent.futures import ThreadPoolExecutor
from skynet_jupyter.models.call_cache import CachedReply, CallCache

path, first = sys.argv[1], int(sys.argv[2])
cache = CallCache(path=path)
said = []
cache.disk._warn = said.append


def busy(seconds):  # the run's own Python work: the GIL taken from the writer
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        json.loads(json.dumps({"n": list(range(50))}))


def case(n):
    key = f"{n:064d}"
    busy(0.005)
    if cache.get(key) is None:
        time.sleep(0.02)  # the model call
        busy(0.01)
        cache.put(key, CachedReply(f"reply {n}", 10, 2, 0.001, 20.0))


with ThreadPoolExecutor(THREADS) as pool:
    list(pool.map(case, range(first, first + CASES)))
print(json.dumps({"said": said}))
"""


def python(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def last_line(process: subprocess.Popen[str]) -> dict:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.alone  # 32 writers timed against the lock's bound
def test_four_processes_of_eight_threads_write_one_file_without_a_lock_warning(tmp_path):
    path = tmp_path / "runs.sqlite"
    code = WRITER.replace("THREADS", str(THREADS)).replace("CASES", str(CASES))
    writers = [python(code, str(path), str(n * CASES)) for n in range(WRITERS)]
    said = [last_line(writer)["said"] for writer in writers]
    assert said == [[]] * WRITERS  # not one "locked by another process"
    fifth = CallCache(path=path)  # another process's view: the file alone
    found = [fifth.get(f"{n:064d}") for n in range(WRITERS * CASES)]
    assert [reply.text if reply else None for reply in found] == [
        f"reply {n}" for n in range(WRITERS * CASES)
    ]


def test_one_thread_writes_at_a_time_and_takes_the_others_replies_along(tmp_path):
    store = CallStore(tmp_path / "runs.sqlite")
    assert store.put("first", {"text": "1"})  # the file and its table exist
    holder = store._writing  # what a thread writing holds: another thread is writing now
    assert holder.acquire(blocking=False)
    try:
        # This thread's reply is left to the writer: no wait, nothing written yet.
        assert store.put("second", {"text": "2"}) is True
        assert store.pending == 1 and store.get("second") == {"text": "2"}
        done = threading.Event()

        def writer() -> None:  # the writer ends its batch, then looks again
            with holder:
                pass
            store.flush()
            done.set()

        holder.release()
        thread = threading.Thread(target=writer)
        thread.start()
        thread.join()
        assert done.is_set()
    finally:
        if holder.locked():
            holder.release()
    assert store.pending == 0
    assert CallStore(store.path).get("second") == {"text": "2"}


HOLDER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")  # another process holds the file's write lock
print("holding", flush=True)
sys.stdin.readline()  # until told
connection.execute("COMMIT")
print("released", flush=True)
"""

LATE_WRITER = """
import sys
from skynet_jupyter.models import call_store
from skynet_jupyter.models.call_store import CallStore

call_store.LOCK_WAIT_S = 0.2
store = CallStore(sys.argv[1], warn=lambda text: None)
written = store.put("late", {"text": "kept"})
print("put", written, store.pending, flush=True)
sys.stdin.readline()  # the lock is released meanwhile; then this process just ends
"""


def test_a_reply_still_waiting_for_the_file_at_the_end_of_the_process_is_written(tmp_path):
    path = tmp_path / "runs.sqlite"
    assert CallStore(path).put("first", {"text": "1"})
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin and holder.stdout
    writer = None
    try:
        # The writer starts once the file is held (started beside the holder, a writer
        # quicker than it wrote at once, and the test saw no reply waiting).
        assert holder.stdout.readline().strip() == "holding"
        writer = subprocess.Popen(
            [sys.executable, "-c", LATE_WRITER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert writer.stdin and writer.stdout
        assert writer.stdout.readline().split() == ["put", "False", "1"]  # kept in memory
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "released"
        writer.stdin.write("\n")
        writer.stdin.flush()
        assert writer.wait(60) == 0
    finally:
        for process in (holder, writer):
            if process is not None:
                process.kill()
                process.wait()
    assert CallStore(path).get("late") == {"text": "kept"}  # written at the process's end


FORK = """
import json, os, sys, threading
from skynet_jupyter.core import secrets
from skynet_jupyter.models.call_cache import CachedReply, CallCache

cache = CallCache(path=sys.argv[1])
cache.put("a" * 64, CachedReply("parent", 1, 1, 0.0, 1.0))  # the parent's connection
held, release = threading.Event(), threading.Event()


def hold():  # another thread holds the cache's locks at the moment of the fork
    with cache.disk._lock, cache.disk._writing, cache._counts._lock, secrets._known_lock:
        held.set()
        release.wait(30)


thread = threading.Thread(target=hold)
thread.start()
held.wait()
pid = os.fork()
if pid == 0:  # the child: its own locks and connection, the parent's left alone
    try:
        cache.put("b" * 64, CachedReply("child", 1, 1, 0.0, 1.0))
        found = cache.get("a" * 64)  # counted as a hit, under the counts' lock
        shown = secrets.redact("api_key=abcdef123456")  # the secrets' lock
        ok = found is not None and found.text == "parent" and "abcdef" not in shown
        os._exit(0 if ok else 3)
    except BaseException:
        os._exit(4)
release.set()
thread.join()
_, status = os.waitpid(pid, 0)
print(json.dumps({"child": os.waitstatus_to_exitcode(status)}))
"""


def test_a_fork_while_another_thread_holds_the_caches_locks_leaves_the_child_working(
    tmp_path,
):
    path = tmp_path / "runs.sqlite"
    process = python(FORK, str(path))
    try:
        said = last_line(process)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the forked child hung on a lock its parent's thread held")
    assert said == {"child": 0}
    assert CallStore(path).get("b" * 64) is not None


def test_a_batch_larger_than_one_statement_is_written_whole(tmp_path, monkeypatch):
    store = CallStore(tmp_path / "runs.sqlite")
    assert store.put("warm", {"text": "w"})
    rows = {f"{n:064d}": json.dumps({"text": str(n)}) for n in range(3 * 250 + 7)}
    store._pending.update(rows)  # replies that waited for the file: many at once
    assert store.flush() and store.pending == 0
    assert len(CallStore(store.path)) == len(rows) + 1
    assert CallStore(store.path).get(f"{756:064d}") == {"text": "756"}
    assert call_store._ROWS_AT_ONCE * 3 < 999  # each statement under sqlite's oldest limit
