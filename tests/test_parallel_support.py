"""The suite on both cores keeps its rules (tests/parallel_support.py), seen in a real run.

A small suite, run by a real ``pytest -n 2 --dist loadgroup`` with this suite's own hooks,
records when and on which worker each test ran: an ``alone`` test overlaps no other, the
other tests do run side by side, a module's shared fixture starts once, and the
``browser`` tests share one worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import ROOT
from tests.parallel_support import FIRST, SHARED, module_of, order_for_sharing

CONFTEST = """
from tests.conftest import pytest_collection_modifyitems, pytest_runtest_protocol  # noqa: F401


def pytest_configure(config):
    config.addinivalue_line("markers", "alone: measures time")
    config.addinivalue_line("markers", "browser: a real browser")
"""

RECORD = """
import json, os, time
from pathlib import Path

import pytest


def record(name, started, wait=0.4):
    time.sleep(wait)
    line = {"name": name, "worker": os.environ.get("PYTEST_XDIST_WORKER"),
            "started": started, "ended": time.time()}
    with open(os.environ["RECORD"], "a") as sink:
        sink.write(json.dumps(line) + "\\n")
"""

FILES = {
    "test_side_by_side.py": RECORD
    + """
@pytest.mark.parametrize("n", range(8))
def test_plain(n):
    record(f"plain{n}", time.time())


@pytest.mark.alone
def test_timed():
    record("alone", time.time(), wait=1.0)
""",
    "test_shared_fixture.py": RECORD
    + """
@pytest.fixture(scope="module")
def started_once():
    with open(os.environ["RECORD"] + ".fixture", "a") as sink:
        sink.write("started\\n")


@pytest.mark.parametrize("n", range(4))
def test_uses_it(started_once, n):
    record(f"shared{n}", time.time(), wait=0.1)
""",
    "test_in_a_browser.py": RECORD
    + """
pytestmark = pytest.mark.browser


@pytest.mark.parametrize("n", range(3))
def test_page(n):
    record(f"browser{n}", time.time(), wait=0.1)
""",
}


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], Path]:
    folder = tmp_path_factory.mktemp("two_workers")
    (folder / "conftest.py").write_text(CONFTEST)
    for name, source in FILES.items():
        (folder / name).write_text(textwrap.dedent(source))
    record = folder / "record.jsonl"
    # Only this small suite's own options: none of the outer run's (PYTEST_ADDOPTS, xdist's).
    environment = {
        name: value
        for name, value in os.environ.items()
        if name != "PYTEST_ADDOPTS" and not name.startswith("PYTEST_XDIST")
    }
    environment["RECORD"] = str(record)
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])
    )
    command = [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q"]
    command += [
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--rootdir",
        str(folder),
        str(folder),
    ]
    done = subprocess.run(
        command, cwd=folder, env=environment, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return lines, record


def overlap(a: dict, b: dict) -> bool:
    return a["started"] < b["ended"] and b["started"] < a["ended"]


def test_an_alone_test_runs_while_no_other_does_and_the_others_run_side_by_side(ran):
    lines, _ = ran
    (timed,) = [line for line in lines if line["name"] == "alone"]
    assert [line["name"] for line in lines if line is not timed and overlap(line, timed)] == []
    plain = [line for line in lines if line["name"].startswith("plain")]
    assert any(overlap(a, b) for a in plain for b in plain if a is not b)  # two workers
    assert {line["worker"] for line in lines} == {"gw0", "gw1"}


def test_a_modules_shared_fixture_starts_once_and_browser_tests_share_a_worker(ran):
    lines, record = ran
    assert record.with_suffix(".jsonl.fixture").read_text() == "started\n"
    for prefix in ("shared", "browser"):
        workers = {line["worker"] for line in lines if line["name"].startswith(prefix)}
        assert len(workers) == 1, (prefix, workers)


modules = st.sampled_from(
    [
        "tests/docs/test_notebooks.py",
        "tests/docs/test_tutorials.py",
        "tests/docs/test_newcomer_path.py",
        "tests/docs/test_readme.py",
        "tests/core/test_reward.py",
    ]
)


@given(st.lists(st.tuples(modules, st.integers(0, 3)), max_size=30, unique=True))
def test_the_tutorials_run_before_the_tests_that_read_them_and_nothing_else_moves(tests):
    nodeids = [f"{module}::test_{n}" for module, n in tests]
    order = order_for_sharing(nodeids)
    assert sorted(order) == list(range(len(nodeids)))  # every test, once
    ran = [nodeids[n] for n in order]
    makers = [n for n, nodeid in enumerate(ran) if module_of(nodeid) in FIRST]
    readers = [n for n, nodeid in enumerate(ran) if module_of(nodeid) in SHARED and n not in makers]
    if makers and readers:
        assert max(makers) < min(readers)
    for kind in (lambda m: m in FIRST, lambda m: m not in FIRST):  # each keeps its order
        kept = [nodeid for nodeid in nodeids if kind(module_of(nodeid))]
        assert [nodeid for nodeid in ran if kind(module_of(nodeid))] == kept
