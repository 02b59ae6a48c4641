"""Rule 7: the kernel stays usable, on every path.

Ctrl-C in the middle of a run, and a fork in the middle of a run, leave the next call
working: the same path, called again, scores every case.  (An import of litellm that
fails or is interrupted is below every path, in ``models/litellm_import.py``, one
function each path calls: tests/models/test_litellm_import_rule7.py proves it in fresh
interpreters, at each moment of the import.)
"""

from __future__ import annotations

import os
import threading
import time
import traceback

import pytest

from tests.conformance.paths import JUDGED, OPTIMIZERS, QUALITY, Command, not_applicable, use
from tests.conformance.test_rule_3_nothing_lost import JUDGE_LINE, SLOW, ctrl_c_after


def scored_every_case(path: str, outcome, rows: int) -> None:
    """The path ran to its end, every case scored (the tool's own measure of it)."""
    if isinstance(outcome, Command):
        assert outcome.code in (0, 1), outcome.stderr
        assert len(outcome.report["cases"]) == rows
        assert all(case["error"] is None for case in outcome.report["cases"])
        return
    assert outcome.stop is None, path
    if path in OPTIMIZERS:
        assert outcome.stopped != "interrupted", path
        return
    if path in QUALITY:
        assert not getattr(outcome, "interrupted", False), path
        return
    assert not outcome.interrupted and len(outcome.cases) == rows, path
    assert all(case.error is None for case in outcome.cases), path


@pytest.mark.parametrize(
    "path",
    not_applicable(
        "the next call after Ctrl-C",
        {
            "skynet-check": "each command is a process of its own: Ctrl-C ends it (exit 130, "
            "rule 3), and the next command starts from nothing"
        },
    ),
)
def test_after_ctrl_c_the_next_call_on_the_same_path_scores_every_case(path, scenario, ctrl_c):
    marks = scenario.cwd / "marks"
    marks.mkdir()
    metric = SLOW.format(marks=str(marks))
    with ctrl_c_after(marks, 2):
        use(path, scenario.but(metric=JUDGE_LINE + metric if path == "align" else metric))
    scored_every_case(path, use(path, plain(path, scenario, 12)), 12)


def plain(path: str, scenario, rows: int):
    """The scenario's plain run on its first ``rows`` cases (align's metric is a judge's)."""
    return scenario.but(
        rows=scenario.rows[:rows], **({"metric": JUDGED} if path == "align" else {})
    )


IN_A_FORK = {
    "thread-pool": "the pool's threads are the parent's: a forked child has none of them "
    "(Python's own rule for a fork); the child makes its own pool",
    "process-pool": "the pool's processes answer the parent: a forked child shares its "
    "pipes; the child makes its own pool",
    "dask": "the client's connection is the parent's: a forked child makes its own",
    "skynet-check": "a command forks nothing of the caller's: it is a process of its own",
}


# A fork while litellm's import ahead or its logging thread imports: the fork waits for
# an import that can end, and the child imports afresh what a thread it lacks left half
# imported (A4, A5 of the attack on issue 43; tests/models/test_fork_during_import_*).
@pytest.mark.parametrize("path", not_applicable("a fork mid-run", IN_A_FORK))
def test_a_fork_in_the_middle_of_a_run_leaves_both_sides_working(path, scenario):
    """A fork (a user's ``multiprocessing`` with the fork start method, a library that
    forks) while a run is going: the parent's run ends as usual, and the child, calling
    the same path, scores every case; no lock held at the fork hangs either side."""
    marks = scenario.cwd / "marks"
    marks.mkdir()
    slow = SLOW.format(marks=str(marks))
    if path == "align":
        slow = JUDGE_LINE + slow
    outcome: list = []
    failed: list[str] = []

    def run() -> None:
        try:
            outcome.append(use(path, scenario.but(metric=slow)))
        except BaseException:
            failed.append(traceback.format_exc())

    running = threading.Thread(target=run)
    running.start()
    while len(os.listdir(marks)) < 2 and running.is_alive():
        time.sleep(0.01)
    child = os.fork()
    if child == 0:  # the child: the same path, to its end, within two minutes
        code = 1
        try:
            threading.Timer(120, lambda: os._exit(3)).start()
            scored_every_case(path, use(path, plain(path, scenario, 12)), 12)
            code = 0
        except BaseException:
            (scenario.cwd / "child.txt").write_text(traceback.format_exc())
        finally:
            os._exit(code)
    running.join(timeout=300)
    _, status = os.waitpid(child, 0)
    said = (scenario.cwd / "child.txt").read_text() if (scenario.cwd / "child.txt").exists() else ""
    assert os.waitstatus_to_exitcode(status) == 0, f"the forked child's call failed or hung: {said}"
    assert not running.is_alive() and outcome, f"the parent's run did not end: {failed}"
    scored_every_case(path, outcome[0], 12)
