"""``isolation="process"``: what a case started ends with it, and workers end with their parent.

A case killed at its limit takes its whole process group along (the program a
code-generation metric ran, say); a worker whose parent is killed (a kernel
``kill -9``) ends itself and its group.  Real processes, checked in /proc.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import skynet_jupyter as sj
from tests.process_support import end, gone_within, recorded_pids, spawning_metric

HERE = str(Path(sj.__file__).resolve().parents[1])
ROWS = [{"text": "t", "label": "x", "out": "x"}]


def test_a_case_killed_at_its_limit_leaves_nothing_it_started(tmp_path: Path) -> None:
    metric, record = spawning_metric(tmp_path)
    report = sj.check(
        str(metric), ROWS, outputs="label", output_column="out", timeout=1, isolation="process"
    )
    pids = recorded_pids(record, timeout=1)  # the case ran before it was killed
    try:
        assert not report.passed
        assert report.cases[0].failed_step == "metric_time_limit"
        assert gone_within(pids, 5) == []  # the worker and the program its metric started
    finally:
        end(pids)


def test_a_worker_ends_with_its_parent_and_takes_its_group(tmp_path: Path) -> None:
    metric, record = spawning_metric(tmp_path)
    kernel = textwrap.dedent(
        f"""
        import skynet_jupyter as sj
        sj.check({str(metric)!r}, {ROWS!r}, outputs="label", output_column="out",
                 timeout=600, isolation="process")
        """
    )
    env = {**os.environ, "PYTHONPATH": HERE}
    parent = subprocess.Popen([sys.executable, "-c", kernel], env=env, cwd=tmp_path)
    try:
        pids = recorded_pids(record)
        parent.send_signal(signal.SIGKILL)  # the kernel dies at once: no clean-up code runs
        parent.wait(30)
        assert gone_within(pids, 5) == []
    finally:
        parent.kill()
        parent.wait()
        if record.exists():
            end(recorded_pids(record))
