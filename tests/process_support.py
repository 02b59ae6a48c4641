"""Processes a test started, and whether they still run: /proc, no dependency.

``spawning_metric`` is a metric file whose ``score`` starts a long-running
subprocess (as a code-generation metric runs the candidate program), records
its own pid and that subprocess's pid, then hangs past any limit.
"""

from __future__ import annotations

import contextlib
import os
import signal
import textwrap
import time
from pathlib import Path

SPAWNING_METRIC = textwrap.dedent(
    """
    import os, subprocess, sys, time
    from pathlib import Path

    def score(input, output, expected=None):
        program = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        record = Path({record!r})
        record.with_suffix(".tmp").write_text(f"{{os.getpid()}} {{program.pid}}")
        record.with_suffix(".tmp").rename(record)  # whole, never half written
        time.sleep(300)
        return 1.0, {{"feedback": "late"}}
    """
)


def spawning_metric(folder: Path) -> tuple[Path, Path]:
    """(the metric file, the file where it records "its pid, its program's pid")."""
    record = folder / "pids.txt"
    metric = folder / "spawning_metric.py"
    metric.write_text(SPAWNING_METRIC.format(record=str(record)))
    return metric, record


def recorded_pids(record: Path, timeout: float = 60) -> tuple[int, int]:
    deadline = time.monotonic() + timeout
    while not record.exists():
        assert time.monotonic() < deadline, "the metric never started"
        time.sleep(0.05)
    scorer, program = record.read_text().split()
    return int(scorer), int(program)


def alive(pid: int) -> bool:
    """Running (a zombie has ended: only its parent has not read its exit code yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def gone_within(pids: tuple[int, ...], seconds: float) -> list[int]:
    """The pids still running after ``seconds`` (empty: all ended)."""
    deadline = time.monotonic() + seconds
    while True:
        left = [pid for pid in pids if alive(pid)]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


def end(pids: tuple[int, ...]) -> None:
    """Clean up after a failed test: kill what is still running."""
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
