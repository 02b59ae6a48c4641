"""Concurrent writers lose nothing: threads of one process, and separate processes (two
kernels, parallel CI jobs) recording into one log at once, readers listing meanwhile."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import skynet_jupyter as sj
from skynet_jupyter.runlog.location import LogLocation
from skynet_jupyter.runlog.record import draft
from skynet_jupyter.runlog.recorder import write_draft

from .support import SOURCE_A, Source, case, report

WRITER = """
import sys
sys.path.insert(0, {root!r})
from tests.history.support import SOURCE_A, Source, case, report
from skynet_jupyter.runlog.record import draft
from skynet_jupyter.runlog.recorder import write_draft
from skynet_jupyter.runlog.location import LogLocation
for number in range({count}):
    cases = [case(i, f"w{writer}-{{number}}-{{i}}") for i in range(3)]
    made = draft(report(cases, name="w{writer}"), Source(SOURCE_A, "w{writer}"), None, None,
                 surface="python")
    print(write_draft(made, LogLocation(path=__import__("pathlib").Path({log!r}))))
"""


def test_threads_writing_at_once_lose_nothing_and_readers_see_only_whole_records(tmp_path):
    written: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    seen_sizes: list[int] = []

    def writer(number: int) -> None:
        for round_ in range(10):
            cases = [case(i, f"t{number}-{round_}-{i}") for i in range(4)]
            made = draft(report(cases), Source(SOURCE_A), None, None, surface="python")
            run_id = write_draft(made, LogLocation(path=tmp_path))
            with lock:
                written.append(run_id)

    def reader() -> None:
        while not stop.is_set():
            for record in sj.history(log=tmp_path, limit=None):
                assert len(record.cases) == 4  # never half a record
            seen_sizes.append(len(sj.history(log=tmp_path, limit=None)))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    reading = threading.Thread(target=reader)
    reading.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    reading.join()
    found = sj.history(log=tmp_path, limit=None)
    assert sorted(r.id for r in found) == sorted(written) and len(written) == 60
    assert seen_sizes == sorted(seen_sizes)  # a listing never lost a record once seen


def test_processes_writing_at_once_lose_nothing(tmp_path):
    root = str(Path(__file__).resolve().parents[2])
    count = 8
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WRITER.format(root=root, count=count, writer=w, log=str(tmp_path)),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for w in range(4)
    ]
    written = []
    for process in processes:
        out, _ = process.communicate(timeout=120)
        assert process.returncode == 0
        written += out.split()
    found = sj.history(log=tmp_path, limit=None)
    assert sorted(r.id for r in found) == sorted(written) and len(written) == 4 * count
    assert sorted({r.metric for r in found}) == ["w0", "w1", "w2", "w3"]
    assert all(len(r.cases) == 3 for r in found)
