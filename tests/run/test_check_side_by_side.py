"""The contract check runs its cases side by side, as evaluate does (issue 45, item 2).

A metric that hangs on every case then costs one time limit, not one per case (the
figure is measured in ``benchmarks/bench_hung_check.py``, not asserted here).  What a
test can hold without a clock: the three cases were all under way at once, the report
is in case order, each case failed at its own limit, on every backend the check has
(threads, worker processes) and through each way in (``sj.check``, ``%skynet_check``,
``skynet-check``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_TIME_LIMIT
from skynet_jupyter.core.keywords import CHECK
from skynet_jupyter.core.options import CHECK_CONCURRENCY
from tests.cli_support import skynet_check
from tests.shell_support import loaded_shell

# Each call says it began in a folder shared by threads and worker processes, then waits
# for the others to begin, and says it saw them: a case run alone reaches its limit first.
# Then each hangs (in short sleeps: a thread past its limit is stopped, not left blocked).
METRIC = """
import os, time
FOLDER = {folder!r}

def score(input, output, expected=None):
    n = input["n"]
    open(os.path.join(FOLDER, f"began-{{n}}"), "w").close()
    while sum(name.startswith("began-") for name in os.listdir(FOLDER)) < 3:
        time.sleep(0.01)
    open(os.path.join(FOLDER, f"saw-{{n}}"), "w").close()
    while True:
        time.sleep(0.05)
"""
ROWS = [{"n": n, "out": "x"} for n in range(3)]


def hanging_metric(folder: Path) -> str:
    folder.mkdir()
    return METRIC.format(folder=str(folder))


def all_began(folder: Path) -> bool:
    """Every case saw the three under way before its own limit."""
    return sorted(path.name for path in folder.glob("saw-*")) == ["saw-0", "saw-1", "saw-2"]


def test_the_check_runs_cases_side_by_side_by_default() -> None:
    options = CHECK.options("check", {"output_column": "out"})
    assert options.concurrency == CHECK_CONCURRENCY > 1


@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_a_metric_that_hangs_on_every_case_fails_each_at_its_own_limit(tmp_path, isolation):
    folder = tmp_path / "began"
    report = sj.check(
        hanging_metric(folder), ROWS, output_column="out", timeout=1, isolation=isolation
    )
    assert all_began(folder)  # before any limit: the three were under way together
    assert [case.index for case in report.cases] == [0, 1, 2]
    assert [case.failed_step for case in report.cases] == [METRIC_TIME_LIMIT] * 3


def test_the_check_magic_runs_its_cases_side_by_side(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "began"
    with loaded_shell(tmp_path, monkeypatch) as shell:
        shell.user_ns["rows"] = ROWS
        shell.run_cell_magic("skynet_metric", "", hanging_metric(folder))
        report = shell.run_line_magic(
            "skynet_check", "--data rows --output-column out --timeout 1 --no-raise"
        )
    assert all_began(folder)
    assert [case.failed_step for case in report.cases] == [METRIC_TIME_LIMIT] * 3


def test_skynet_check_runs_its_cases_side_by_side(tmp_path) -> None:
    folder = tmp_path / "began"
    (tmp_path / "metric.py").write_text(hanging_metric(folder))
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    done = skynet_check(
        "metric.py",
        "--data",
        "cases.jsonl",
        "--output-column",
        "out",
        "--timeout",
        "1",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    assert all_began(folder)
    steps = [case["failed_step"] for case in json.loads(done.stdout)["cases"]]
    assert steps == [METRIC_TIME_LIMIT] * 3
