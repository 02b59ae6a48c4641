"""skynet-check leaves nothing running, and names a metric that forks.

``kill -9`` of skynet-check gives its child no chance to clean up: the child
(and in process mode the isolation worker) notices its parent is gone and ends
with its whole process group, the program the metric started included.  Real
processes, checked in /proc.
"""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from skynet_jupyter.i18n import t
from tests.cli_support import cli_env, skynet_check, skynet_check_command
from tests.process_support import end, gone_within, recorded_pids, spawning_metric

# skynet-check as its console script runs it (that script may sit outside this copy's path)
SKYNET_CHECK = skynet_check_command("main")
FORKS = """\
import os

def score(input, output, expected=None):
    os.fork()  # the copy returns too
    return 1.0, {"feedback": "Scored."}
"""


def arguments(metric: Path, folder: Path) -> list[str]:
    data = folder / "cases.csv"
    data.write_text("text,label\na,billing\nb,technical\n")
    return [str(metric), "--data", str(data), "--outputs", "label", "--output-column", "label"]


@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_kill_9_of_skynet_check_leaves_nothing_running(tmp_path: Path, isolation: str) -> None:
    metric, record = spawning_metric(tmp_path)
    command = [*SKYNET_CHECK, *arguments(metric, tmp_path), "--isolation", isolation, "--json"]
    check = subprocess.Popen(
        command,
        env=cli_env(),
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        scorer, program = recorded_pids(record)  # the child, or the isolation worker
        assert scorer != check.pid
        check.send_signal(signal.SIGKILL)
        check.wait(30)
        assert gone_within((scorer, program), 5) == []
    finally:
        check.kill()
        check.wait()
        if record.exists():
            end(recorded_pids(record))


@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_a_metric_that_forks_is_named_as_the_metrics_failure(
    tmp_path: Path, isolation: str
) -> None:
    metric = tmp_path / "metric.py"
    metric.write_text(FORKS)
    args = arguments(metric, tmp_path)
    done = skynet_check(*args, "--isolation", isolation, "--json", cwd=tmp_path, how="main")
    assert done.returncode == 1, done.stdout + done.stderr  # a failed check, not "no verdict"
    document = json.loads(done.stdout)
    errors = [case["error"] for case in document["cases"]]
    assert errors == [t("case.forked", "en", function="score")] * 2
    assert "skynet_jupyter" not in done.stdout  # never "a bug in skynet_jupyter"
