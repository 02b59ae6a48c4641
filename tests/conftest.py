"""Shared fixtures: a fresh IPython shell per test, sample data, paths."""

from __future__ import annotations

import importlib
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

# litellm (imported by dspy too) otherwise fetches its price map over the network at
# import, retrying for half a minute on a machine without one (the package never sets it:
# tests/models/test_price_map_notice.py).  Inherited by the kernels and subprocesses tests
# start.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# No litellm imported in the background a second after a test configures a model: at a
# moment no test chose, in this process and every kernel a test starts.  The import ahead
# is tested where it is asked for (tests/models/test_import_ahead.py sets its own
# environment, without this).
os.environ.setdefault("SKYNET_IMPORT_AHEAD", "0")
# No run recorded in a run log (issue 46: on by default, .skynet_runs in the working
# directory, which is the repository here) unless a test asks: tests/history/ sets its own.
os.environ.setdefault("SKYNET_RUN_LOG", "0")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "skynet_jupyter" / "examples"


def require_module(name: str) -> ModuleType:
    """Import ``name`` for a test module, or skip it, but fail under CI: there it must run.

    Like ``pytest.importorskip``, except that CI (``CI`` set, as every CI service
    does) installs ``.[test]``, so a missing package there is a broken setup, not a
    reason to skip tests silently.
    """
    try:
        return importlib.import_module(name)
    except ImportError as problem:
        reason = (
            f"the Python package {name!r} is not installed ({problem}): pip install -e '.[test]'"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and these tests cannot run: {reason}", pytrace=False)
        pytest.skip(reason, allow_module_level=True)


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the marks added here
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On both cores: browser tests on one worker, a module's shared fixture started once.

    The rules, and why, are in tests/parallel_support.py. First of its hook: xdist's own
    worker (registered after this file) reads the groups this marks into the test ids.
    """
    from tests.parallel_support import group_items

    group_items(items)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """An ``alone`` test runs while no other test does (outermost: pytest-timeout's limit
    starts once the test may run, not while it waits its turn)."""
    from tests.parallel_support import sharing_the_machine

    with sharing_the_machine(item):
        yield


@pytest.fixture(autouse=True)
def _ctrl_c_left_as_found(request: pytest.FixtureRequest) -> Iterator[None]:
    """SIGINT's handler is put back as each test found it, and a test that changed it
    fails: a later test of Ctrl-C on the same worker would otherwise pass or fail by the
    order the tests ran in.  (The suite started in the background, ``pytest &``, starts
    with SIGINT ignored: a test of interruption asks for the ``ctrl_c`` fixture.)

    asyncio's loops, as nbclient runs them, put Python's own handler back when they
    end, whatever they found: that change is undone, and not held against the test.
    """
    before = signal.getsignal(signal.SIGINT)
    yield
    after = signal.getsignal(signal.SIGINT)
    if after is before:
        return
    signal.signal(signal.SIGINT, before)
    if not (before is signal.SIG_IGN and after is signal.default_int_handler):
        pytest.fail(
            f"{request.node.nodeid} left SIGINT's handler as {after!r} (it was {before!r})",
            pytrace=False,
        )


@pytest.fixture
def tickets() -> list[dict]:
    """Five rows of the example ticket data, as a list of dicts."""
    return [
        {"text": "I was charged twice.", "label": "billing"},
        {"text": "The app crashes on start.", "label": "technical"},
        {"text": "Do you have an office in Lisbon?", "label": "other"},
        {"text": "Please refund my annual plan.", "label": "billing"},
        {"text": "Login fails with error 500.", "label": "technical"},
    ]


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[InteractiveShell]:
    """The in-process IPython shell, the extension freshly loaded, cwd a temp folder.

    A module adds its own names or metric by overriding ``shell`` with a fixture
    that takes this one.  Imported here: IPython and the package load only for
    the tests that ask for a shell, after the environment above is set.
    """
    from tests.shell_support import loaded_shell

    with loaded_shell(tmp_path, monkeypatch) as loaded:
        yield loaded


@pytest.fixture
def ctrl_c():
    """Ctrl-C raises KeyboardInterrupt in the main thread, as in a terminal or a kernel.

    ``_thread.interrupt_main`` does nothing while SIGINT is ignored, and some
    runners (mutmut's workers) ignore it: a test of interruption sets Python's
    own handler for its duration.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything imported to collect the tests (litellm, dspy, pandas, the test modules:
    a million objects) is set aside from the garbage collector for the rest of the run.

    IPython's ``shell.reset``, which every test of the magics does, and the collector's
    own full passes walk every object the process holds; in a worker that has collected
    the suite that took 0.5 s a pass, half of what a test of the magics takes.
    """
    import gc

    if os.environ.get("SKYNET_TEST_GC_FREEZE", "1") == "0":  # benchmarks/bench_test_suite.py
        return
    gc.collect()
    gc.freeze()
