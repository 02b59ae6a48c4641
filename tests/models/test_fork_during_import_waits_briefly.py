"""A fork while litellm is imported in another thread waits for that import only while it
can end (issue 43, rule 7; A3/A4/M1 of its attack).

The fork handler waits for the import under way, so that the child gets litellm whole.
The import's first call submits to a thread pool, whose fork handler holds that pool's
global lock while the other handlers run: when it ran before ours, the import could not
end and each fork waited the whole ``FORK_WAIT_S`` (a pool of two forked twice: the 120 s
of a CI run).  Each scenario runs in a fresh interpreter: fork handlers cannot be taken back.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.fresh_python import ROOT

HOLD = """
import os, sys, threading, time
import skynet_jupyter.models.litellm_import as importing
{after_ours}
importing.FORK_WAIT_S = 20
importing.STALL_S = 2.0  # a stalled import is not waited for past this

started = threading.Event()


def import_that_needs(lock_taker):
    with importing._importing():  # what imported_litellm holds while it imports
        started.set()
        time.sleep(0.3)
        lock_taker()


def fork_waits() -> float:
    began = time.monotonic()
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
    return time.monotonic() - began
"""

THREAD_POOL = (
    HOLD.format(after_ours="from concurrent.futures import ThreadPoolExecutor")
    + """
def submit():
    with ThreadPoolExecutor(1) as pool:  # litellm's first call logs through one
        pool.submit(lambda: None).result()


importer = threading.Thread(target=import_that_needs, args=(submit,))
importer.start()
started.wait()
waited = fork_waits()
importer.join(30)
print(round(waited, 2))
sys.exit(0 if waited < 3 and not importer.is_alive() else 1)
"""
)

FOREIGN_HANDLER = (
    HOLD.format(
        after_ours="""
theirs = threading.Lock()  # a library's fork handler registered after ours: runs before it
os.register_at_fork(before=theirs.acquire, after_in_parent=theirs.release,
                    after_in_child=theirs.release)
"""
    )
    + """
def take_theirs():
    with theirs:
        pass


importer = threading.Thread(target=import_that_needs, args=(take_theirs,))
importer.start()
started.wait()
first, second = fork_waits(), fork_waits()
importer.join(30)
print(round(first, 2), round(second, 2))
stall = importing.STALL_S
sys.exit(0 if first < stall + 1.5 and second < 0.5 and not importer.is_alive() else 1)
"""
)


def run(code: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "SKYNET_IMPORT_AHEAD": "0"}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=90,
    )


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_fork_does_not_wait_for_an_import_that_needs_the_thread_pools_lock():
    done = run(THREAD_POOL)
    assert done.returncode == 0, f"the fork waited {done.stdout.strip()} s: {done.stderr}"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_fork_stops_waiting_for_an_import_stuck_behind_another_fork_handler():
    """A lock no one can know of ahead: the import stops moving, the fork stops waiting
    after STALL_S, and the next fork does not wait for that import again."""
    done = run(FOREIGN_HANDLER)
    assert done.returncode == 0, f"the forks waited {done.stdout.strip()} s: {done.stderr}"


HALF_IMPORTED = """
import os, sys, threading, time, types, importlib.abc, importlib.util
import skynet_jupyter.models.litellm_import  # noqa: F401  (its fork handlers)

inside, go_on = threading.Event(), threading.Event()


class Slow(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    \"\"\"``slow_module``: its import waits, in the parent, until told to go on.\"\"\"

    def find_spec(self, name, path=None, target=None):
        if name == "slow_module":
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if os.getpid() == PARENT:
            inside.set()
            go_on.wait(30)
        module.value = 42


PARENT = os.getpid()
sys.meta_path.insert(0, Slow())
importer = threading.Thread(target=lambda: __import__("slow_module"))  # litellm's logging
importer.start()                                                       # thread, say
inside.wait(10)
child = os.fork()
if child == 0:  # the importing thread is not here: its module lock would never be released
    threading.Timer(20, lambda: os._exit(3)).start()
    import slow_module
    os._exit(0 if slow_module.value == 42 else 1)
go_on.set()
importer.join()
_, status = os.waitpid(child, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_module_another_thread_was_importing_at_the_fork_imports_in_the_child():
    """A process pool's worker forked while litellm's logging thread imported a module
    lazily hung at its first call: the child imports that module afresh."""
    done = run(HALF_IMPORTED)
    assert done.returncode == 0, f"the child's import hung or failed: {done.stderr}"
