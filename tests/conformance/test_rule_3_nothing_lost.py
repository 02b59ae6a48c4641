"""Rule 3: nothing finished is lost, on every path.

A listener that raises, a worker that dies, Ctrl-C and an executor or cluster that
fails all return, or attach to the exception as ``.skynet_report``, the tool's own
partial report, with every finished case in it.
"""

from __future__ import annotations

import _thread
import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from skynet_jupyter.core.report import CheckReport, EvalReport
from skynet_jupyter.run.executors import ExecutorError
from tests.cli_support import cli_env, skynet_check_command
from tests.conformance.paths import BACKENDS, OPTIMIZERS, Command, not_applicable, use

OWN_REPORT = {
    **dict.fromkeys(BACKENDS, "EvalReport"),
    "check": "CheckReport",
    "evaluate": "EvalReport",
    "probe": "ProbeReport",
    "stability": "StabilityReport",
    "agreement": "AgreementReport",
    "compare": "CompareReport",
    "optimize": "OptimizeReport",
    "race": "RaceReport",
    "align": "AlignReport",
}

# Ends its worker process on the Lisbon ticket (case 6 of the shipped tickets), after the
# cases before it had time to finish.
LISBON = 6
DIES = """
import os, time


def score(input, output, expected=None):
    if "Lisbon" in input["text"]:
        time.sleep(0.5)
        os._exit(3)
    return float(output == expected["label"]), {"feedback": "Scored."}
"""
# Each call takes a while, then leaves a mark in a folder (threads and worker processes
# alike): the test presses Ctrl-C once two calls have ended, mid-run on every path.
SLOW = """
import os, time, uuid
MARKS = {marks!r}


def score(input, output, expected=None):
    time.sleep(0.3)
    open(os.path.join(MARKS, uuid.uuid4().hex), "w").close()
    return float(output == expected["label"]), {{"feedback": "Scored."}}
"""
JUDGE_LINE = 'JUDGE = """Answer PASS or FAIL."""\n'
IN_THE_CALLERS_PROCESS = (
    "its cases run in the caller's own process (threads): a case that ends the process ends "
    "the caller; isolation='process' is the remedy, and the 'process' path proves it keeps "
    "the other cases"
)


@pytest.mark.parametrize(
    "path",
    not_applicable(
        "a listener that raises",
        {"skynet-check": "the command line takes no listener (its child's reports are its own)"},
    ),
)
def test_a_listener_that_raises_leaves_the_tools_own_partial_report_on_it(path, scenario):
    finished: list[int] = []
    told = []

    def listener(event):
        told.append(event)
        result = getattr(event, "result", None)
        if result is not None:
            finished.append(result.index)
        if len(told) == 3:
            raise LookupError("the view went away")

    with pytest.raises(LookupError) as raised:
        use(path, scenario.but(on_event=listener))
    partial = raised.value.skynet_report
    assert type(partial).__name__ == OWN_REPORT[path]
    if isinstance(partial, CheckReport):
        kept = {case.index for case in partial.cases}
        assert set(finished) <= kept and partial.interrupted


@pytest.mark.parametrize(
    "path",
    not_applicable(
        "a worker that dies",
        {
            path: IN_THE_CALLERS_PROCESS
            for path in (
                "threads", "thread-pool", "check", "evaluate", "probe", "stability",
                "agreement", "compare", "optimize", "race", "align",
            )
        },
    ),
)  # fmt: skip
def test_a_worker_that_dies_loses_no_finished_case(path, scenario):
    rows = scenario.rows[:8]
    if path == "skynet-check":  # its cases in worker processes, as the 'process' path
        done = use(path, scenario.but(metric=DIES, rows=rows, cli_args=("--isolation", "process")))
        assert isinstance(done, Command) and done.code == 1, done.stderr
        cases = done.report["cases"]
        assert len(cases) == 8 and sum(case["failed_step"] is None for case in cases) == 7
        assert "exit code 3" in cases[LISBON]["error"]
        return
    pools = dict(scenario.pools)
    if path == "process-pool":  # a pool whose worker dies is broken for good: its own
        pools[path] = ProcessPoolExecutor(2)
    try:
        report = use(path, scenario.but(metric=DIES, rows=rows, pools=pools))
    except ExecutorError as failed:  # a pool or a cluster that lost its worker
        report = failed.skynet_report
        assert isinstance(report, EvalReport) and report.interrupted
        assert all(case.passed for case in report.cases) and report.total_cases == 8
        return
    finally:
        if path == "process-pool":
            pools[path].shutdown()
    assert path == "process"  # one case ends its own worker: the others are scored
    assert len(report.cases) == 8 and [c.index for c in report.cases if not c.passed] == [LISBON]
    assert "exit code 3" in report.cases[LISBON].error


@pytest.mark.parametrize("path", not_applicable("Ctrl-C", {}))
def test_ctrl_c_returns_the_partial_report_with_what_finished(path, scenario, ctrl_c):
    marks = scenario.cwd / "marks"
    marks.mkdir()
    metric = SLOW.format(marks=str(marks))
    if path == "skynet-check":
        return ctrl_c_the_command(scenario, metric, marks)
    if path == "align":
        metric = JUDGE_LINE + metric
    with ctrl_c_after(marks, 2):
        report = use(path, scenario.but(metric=metric))
    assert type(report).__name__ == OWN_REPORT[path]
    if isinstance(report, CheckReport):
        assert report.interrupted and 1 <= len(report.cases) < len(scenario.rows)
        assert all(case.passed or case.failed_step is None for case in report.cases)
    elif path in OPTIMIZERS:
        assert report.stopped == "interrupted"
    else:
        assert report.interrupted


@contextlib.contextmanager
def ctrl_c_after(marks, count: int, press=_thread.interrupt_main):
    """Press Ctrl-C (``press``) once ``count`` metric calls have begun."""
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if len(os.listdir(marks)) >= count:
                press()
                return
            time.sleep(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


def ctrl_c_the_command(scenario, metric, marks):
    """SIGINT to skynet-check mid-run: exit 130, the cases that finished printed."""
    folder = scenario.cwd
    (folder / "metric.py").write_text(metric)
    rows = "".join(json.dumps(row) + "\n" for row in scenario.rows)
    (folder / "cases.jsonl").write_text(rows)
    command = [*skynet_check_command(), "metric.py", "--data", "cases.jsonl", "--outputs",
               "label", "--output-column", "label", "--all"]  # fmt: skip
    started = subprocess.Popen(
        command, cwd=folder, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    with ctrl_c_after(marks, 2, lambda: started.send_signal(signal.SIGINT)):
        out, err = started.communicate(timeout=120)
    assert started.returncode == 130, err
    assert "interrupted" in (out + err).lower(), out
