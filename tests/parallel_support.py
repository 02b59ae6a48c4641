"""How the suite shares the machine when it runs on both cores (pytest-xdist).

``python -m pytest`` runs with ``-n 2 --dist loadgroup`` (pyproject.toml's addopts): two
worker processes take tests from one queue. Each worker is a process of its own, so the
process-wide state a test changes (environment variables, signal handlers, the thread
counters, ``sys.modules``) stays in its worker, as in one process; what two workers do
share is the machine. Three rules, applied by tests/conftest.py's hooks, keep every test
as it is in one process (CONTRIBUTING.md, "Running the tests", says why each is):

- ``browser`` tests run on one worker, one after the other (xdist group ``browser``):
  each module starts a JupyterLab and a Chromium, and two at once would starve the
  tests beside them;
- a module whose tests share a fixture wider than one test (scope ``module`` or
  ``class``: a JupyterLab, a Dask cluster, a notebook run once and read by many tests)
  runs whole on one worker (its group is the module), so the fixture starts once, as in
  one process; a module that names its own group keeps it; and the modules that share
  state through a module's globals (``SHARED``: the executed tutorials) share a worker,
  the one that makes it first (``FIRST``), so no tutorial runs twice;
- an ``alone`` test runs while no other test runs, on either worker: it measures time
  (a limit, a rate, a wait), and the other worker's load would measure the machine
  instead. The other worker waits at its next test, so the wait costs only the ``alone``
  tests' own time, a few seconds in all.

``alone`` is a readers-writer lock made of two ``flock`` files in the run's temporary
folder (the parent of each worker's ``--basetemp``): every test holds the shared lock,
an ``alone`` one the exclusive lock, and a turnstile keeps a waiting ``alone`` test from
being overtaken by the other worker's next tests. In one process there is nothing to
share and nothing is locked.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

BROWSER_GROUP = "browser"
WIDE_SCOPES = frozenset({"module", "class", "package"})
# Modules that read what another one left in its globals, and the group they share with it:
# test_notebooks.py runs each tutorial once and keeps it (EXECUTED), which test_tutorials.py
# and test_newcomer_path.py read instead of running it again.
SHARED = {
    "tests/docs/test_notebooks.py": "tutorials",
    "tests/docs/test_tutorials.py": "tutorials",
    "tests/docs/test_newcomer_path.py": "tutorials",
}
FIRST = ("tests/docs/test_notebooks.py",)  # runs before the other modules of its group


def run_folder(config: pytest.Config) -> Path | None:
    """The temporary folder every worker of this run shares; None in one process."""
    if not hasattr(config, "workerinput"):  # the controller, or no xdist at all
        return None
    return Path(config.option.basetemp).parent


def group_of(item: pytest.Item) -> str | None:
    """The xdist group ``item`` must run in, by the rules above; None: any worker, alone."""
    marker = item.get_closest_marker("xdist_group")
    if marker is not None:
        return None  # named by the test itself: xdist reads it
    if item.get_closest_marker("browser") is not None:
        return BROWSER_GROUP
    if (module := module_of(item.nodeid)) in SHARED:
        return SHARED[module]
    if shares_a_wide_fixture(item):
        return module_of(item.nodeid)
    return None


def shares_a_wide_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a fixture that lives longer than one test but not the session."""
    info: Any = getattr(item, "_fixtureinfo", None)  # pytest's own, on every Function
    if info is None:
        return False
    return any(
        definitions[-1].scope in WIDE_SCOPES for definitions in info.name2fixturedefs.values()
    )


def group_items(items: list[pytest.Item]) -> None:
    """Mark each item with the xdist group the rules give it (loadgroup reads the mark),
    and run the modules of ``FIRST`` before the other modules of their group.

    The order holds in one process too: test_newcomer_path.py, first by name, would
    otherwise run a tutorial that test_notebooks.py then runs again.
    """
    for item in items:
        if group := group_of(item):
            item.add_marker(pytest.mark.xdist_group(group))
    items[:] = [items[n] for n in order_for_sharing([item.nodeid for item in items])]


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def order_for_sharing(nodeids: list[str]) -> list[int]:
    """The positions of ``nodeids`` in the order to run them: the tests of ``FIRST``
    modules moved just before the first test of another module of their group, every
    other order kept."""
    first = [n for n, nodeid in enumerate(nodeids) if module_of(nodeid) in FIRST]
    if not first:
        return list(range(len(nodeids)))
    groups = {SHARED[module_of(nodeids[n])] for n in first}
    moved = set(first)
    rest = [n for n in range(len(nodeids)) if n not in moved]
    at = next(
        (k for k, n in enumerate(rest) if SHARED.get(module_of(nodeids[n])) in groups),
        len(rest),
    )
    return [*rest[:at], *first, *rest[at:]]


@contextlib.contextmanager
def sharing_the_machine(item: pytest.Item) -> Iterator[None]:
    """Hold the shared lock while ``item`` runs, or the exclusive one for an ``alone`` test."""
    folder = run_folder(item.config)
    if folder is None:
        yield
        return
    alone = item.get_closest_marker("alone") is not None
    with (
        (folder / "skynet-turnstile.lock").open("a") as turnstile,
        (folder / "skynet-running.lock").open("a") as running,
    ):
        fcntl.flock(turnstile, fcntl.LOCK_EX)  # behind an alone test that waits already
        if not alone:
            fcntl.flock(turnstile, fcntl.LOCK_UN)
        fcntl.flock(running, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(running, fcntl.LOCK_UN)  # released for a forked child's copy too
            if alone:
                fcntl.flock(turnstile, fcntl.LOCK_UN)
