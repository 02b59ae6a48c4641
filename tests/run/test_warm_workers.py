"""``isolation="process"`` workers start warm: forked from a starter (issue 37, item 3).

The starter has imported what a worker needs, litellm included, so a worker
does not import it again; it serves every run of its parent, ends with it
(and so do its workers), is started again when it died, and where it cannot
start the workers are fresh interpreters as before.  Real processes, checked in
/proc.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import skynet_jupyter as sj
from skynet_jupyter import ModelSettings
from skynet_jupyter.run import isolation as _isolation
from skynet_jupyter.run import warm_start
from tests.openai_server import OpenAIServer
from tests.process_support import alive, end, gone_within
from tests.run.test_executors import notebook_cell

HERE = str(Path(sj.__file__).resolve().parents[1])
ROWS = [{"text": "t", "label": "x", "out": "x"}]

pytestmark = pytest.mark.skipif(not warm_start.AVAILABLE, reason="no fork: fresh workers only")


class WhereAmI:
    """A metric that says its worker's parent, and whether litellm was already imported
    when the worker read its runner (this metric is part of it)."""

    def __init__(self) -> None:
        self.litellm_before_runner: bool | None = None

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.litellm_before_runner = "litellm" in sys.modules

    def __call__(self, input, output, expected=None):
        said = f"{os.getppid()} {self.litellm_before_runner}"
        return 1.0, {"feedback": said}


def run_where(rows: list[dict], **options) -> list[tuple[int, bool]]:
    """(the worker's parent, litellm already there) per case."""
    report = sj.evaluate(WhereAmI(), rows, isolation="process", **options)
    assert report.passed, [case.error for case in report.cases]
    found = []
    for case in report.cases:
        parent, before = (case.feedback or "").split()
        found.append((int(parent), before == "True"))
    return found


def many(count: int) -> list[dict]:
    return [{"n": n, "out": "x"} for n in range(count)]


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as fresh:
        fresh.reply = lambda request: "x"
        yield fresh


ASK = """
from skynet import llm

def ask(artifact, case):
    return llm("Say x.", case["text"])
"""


def test_workers_started_warm_do_not_import_litellm_themselves(server: OpenAIServer) -> None:
    model = {"model": "openai/gpt-4o-mini", "api_base": server.base_url, "api_key": "sk-test"}
    rows = [{"text": f"ticket {n}", "label": "x"} for n in range(4)]
    code = notebook_cell(ASK)
    report = sj.evaluate(
        WhereAmI(),
        rows,
        outputs="label",
        run=code["ask"],
        models=ModelSettings(task_model=model),
        isolation="process",
        concurrency=2,
    )
    assert report.passed, [case.error for case in report.cases]
    assert len(server.calls()) == 4  # each case asked the model from its worker
    parents = {int((case.feedback or "").split()[0]) for case in report.cases}
    assert all(case.feedback.endswith("True") for case in report.cases)  # type: ignore[union-attr]
    assert parents != {os.getpid()} and len(parents) == 1  # all forked by the one starter


def test_a_second_run_reuses_the_starter() -> None:
    first = run_where(many(3), output_column="out", concurrency=2)
    second = run_where(many(3), output_column="out", concurrency=2)
    starters = {parent for parent, _ in first + second}
    assert len(starters) == 1 and os.getpid() not in starters
    assert alive(starters.pop())  # it stays for the next run


def test_a_starter_that_died_is_started_again() -> None:
    ((starter, _),) = run_where(many(1), output_column="out")
    assert starter != os.getpid(), "the worker was not forked by a starter"  # never kill us
    os.kill(starter, signal.SIGKILL)
    assert gone_within((starter,), 5) == []
    ((again, _),) = run_where(many(1), output_column="out")
    assert again not in (starter, os.getpid())


def test_workers_are_fresh_interpreters_when_warm_start_is_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_isolation, "WARM_START", False)
    assert run_where(many(2), output_column="out", concurrency=2) == [(os.getpid(), False)] * 2


def test_workers_are_fresh_interpreters_when_the_starter_cannot_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = warm_start.start_worker
    broken = [sys.executable, "-c", "raise SystemExit(3)"]  # ends before it is ready
    monkeypatch.setattr(warm_start, "_STARTERS", warm_start._Starters())
    monkeypatch.setattr(
        warm_start, "start_worker", lambda command, argv, models: real(broken, argv, models)
    )
    assert run_where(many(2), output_column="out", concurrency=2) == [(os.getpid(), False)] * 2


RECORDING_METRIC = textwrap.dedent(
    """
    import os, subprocess, sys, time
    from pathlib import Path

    def score(input, output, expected=None):
        program = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        record = Path({record!r})
        record.with_suffix(".tmp").write_text(f"{{os.getpid()}} {{program.pid}} {{os.getppid()}}")
        record.with_suffix(".tmp").rename(record)
        time.sleep(300)
        return 1.0, {{"feedback": "late"}}
    """
)


def recording_metric(folder: Path) -> tuple[Path, Path]:
    record = folder / "pids.txt"
    metric = folder / "recording_metric.py"
    metric.write_text(RECORDING_METRIC.format(record=str(record)))
    return metric, record


def recorded(record: Path, timeout: float = 120) -> tuple[int, int, int]:
    """(the worker, the program its case started, the worker's parent)."""
    deadline = time.monotonic() + timeout
    while not record.exists():
        assert time.monotonic() < deadline, "the metric never started"
        time.sleep(0.05)
    worker, program, parent = record.read_text().split()
    return int(worker), int(program), int(parent)


def test_a_warm_worker_killed_past_its_limit_takes_its_group(tmp_path: Path) -> None:
    metric, record = recording_metric(tmp_path)
    report = sj.check(
        str(metric), ROWS, outputs="label", output_column="out", timeout=1, isolation="process"
    )
    worker, program, parent = recorded(record, timeout=1)
    try:
        assert parent != os.getpid()  # forked by the starter
        assert report.cases[0].failed_step == "metric_time_limit"
        assert gone_within((worker, program), 5) == []
        assert alive(parent)  # the starter stays
    finally:
        end((worker, program))


def test_killing_the_kernel_leaves_no_starter_and_no_worker(tmp_path: Path) -> None:
    metric, record = recording_metric(tmp_path)
    kernel = textwrap.dedent(
        f"""
        import skynet_jupyter as sj
        sj.check({str(metric)!r}, {ROWS!r}, outputs="label", output_column="out",
                 timeout=600, isolation="process")
        """
    )
    env = {**os.environ, "PYTHONPATH": HERE}
    parent = subprocess.Popen([sys.executable, "-c", kernel], env=env, cwd=tmp_path)
    pids: tuple[int, ...] = ()
    try:
        pids = recorded(record)
        starter = pids[2]
        assert starter != parent.pid  # the worker was forked by the kernel's starter
        parent.send_signal(signal.SIGKILL)  # no clean-up code runs in the kernel
        parent.wait(30)
        assert gone_within(pids, 5) == []
    finally:
        parent.kill()
        parent.wait()
        end(pids)


def test_a_changed_environment_gets_a_new_starter_and_the_old_one_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ((before, _),) = run_where(many(1), output_column="out")
    monkeypatch.setenv("SKYNET_WARM_TEST", "changed")  # what a fresh worker would import with
    ((after, _),) = run_where(many(1), output_column="out")
    assert after not in (before, os.getpid())
    assert gone_within((before,), 5) == []  # it had no worker left: it ended


# --- the starter started ahead, and a worker's quick end (issue 45, item 1) ---------------

AHEAD = """
import json, os, sys, time
import skynet_jupyter as sj
from skynet_jupyter.models import import_ahead
from skynet_jupyter.run import warm_start

model = {"model": "openai/gpt-4o-mini", "api_base": sys.argv[1], "api_key": "sk-test-0000"}


class Where:
    def __call__(self, input, output, expected=None):
        return 1.0, {"feedback": str(os.getppid())}


sj.configure(task_model=model)  # the import ahead starts the starter after its pause
assert import_ahead.wait(240), import_ahead.status()
handle = warm_start._STARTERS.current
ahead = None if handle is None else handle.process.pid
os.environ["OPENAI_API_KEY"] = "sk-set-after-the-model"  # as a notebook's next cell does
report = sj.evaluate(Where(), [{"n": n, "out": "x"} for n in range(3)], output_column="out",
                     isolation="process", concurrency=2)
parents = sorted({int(case.feedback) for case in report.cases})
print(json.dumps({"ahead": ahead, "parents": parents, "status": import_ahead.status(),
                  "passed": report.passed, "me": os.getpid()}))
"""


def test_a_configured_model_starts_the_starter_ahead_and_the_first_run_forks_from_it(
    server: OpenAIServer,
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SKYNET_")},
        "PYTHONPATH": HERE,
        "SKYNET_IMPORT_AHEAD": "1",  # as a user has it (tests/conftest.py turns it off)
    }
    kernel = subprocess.run(
        [sys.executable, "-c", AHEAD, server.base_url],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert kernel.returncode == 0, kernel.stderr[-3000:]
    said = json.loads(kernel.stdout.strip().splitlines()[-1])
    assert said["passed"] and said["status"].startswith("imported")
    assert said["ahead"] is not None and said["ahead"] != said["me"]
    # Every worker of the first run is a child of the starter started ahead: none new,
    # although a key was set after the model (credentials change no import).
    assert said["parents"] == [said["ahead"]]
    assert gone_within((said["ahead"],), 5) == []  # it ended with its kernel


QUICK_END = """
import atexit, json, os, sys
from pathlib import Path
from skynet_jupyter.run import warm_start

folder = Path(sys.argv[1])


class TornDown:
    def __del__(self):  # runs at an interpreter's teardown, never after os._exit
        (folder / "torn-down").write_text("yes")


kept = TornDown()


def main():
    atexit.register(lambda: (folder / "atexit").write_text("ran"))
    sys.stdin.read()  # the parent's end of the pipe
    raise SystemExit(3)


warm_start.run_worker(main)
"""


def test_a_worker_ends_with_its_atexit_functions_and_without_the_teardown(tmp_path: Path) -> None:
    worker = subprocess.Popen(
        [sys.executable, "-c", QUICK_END, str(tmp_path)],
        stdin=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": HERE},
    )
    assert worker.stdin is not None
    worker.stdin.close()
    assert worker.wait(60) == 3  # main's own exit code
    assert (tmp_path / "atexit").read_text() == "ran"  # a run cache's replies get written
    assert not (tmp_path / "torn-down").exists()  # the heap is left to the system whole


FORKED_KERNEL = """
import json, multiprocessing, os, sys
import skynet_jupyter as sj
from skynet_jupyter.run import warm_start


class Where:
    def __call__(self, input, output, expected=None):
        return 1.0, {"feedback": str(os.getppid())}


def run():
    report = sj.evaluate(Where(), [{"out": "x"}], output_column="out", isolation="process")
    return int(report.cases[0].feedback)


if __name__ == "__main__":
    mine = run()  # this process's starter
    with multiprocessing.get_context("fork").Pool(1) as pool:
        theirs = pool.apply(run)  # a fork of this process: its own starter, not ours
    print(json.dumps({"mine": mine, "theirs": theirs}))
"""


def test_a_fork_of_the_kernel_starts_its_own_starter(tmp_path: Path) -> None:
    script = tmp_path / "forked_kernel.py"
    script.write_text(FORKED_KERNEL)
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": HERE},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert said["mine"] != said["theirs"]
