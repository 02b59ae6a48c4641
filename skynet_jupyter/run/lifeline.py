"""A helper process that ends when its parent does, and takes its process group along.

skynet-check's child and each ``isolation="process"`` worker lead their own
process group, which holds whatever the metric or the run function started (a
code-generation metric running the candidate program).  If the parent is
killed, even by ``kill -9``, nobody would stop them: so each such process ends
itself and its whole group when its parent is gone.

- On Linux the kernel says so at once: ``prctl(PR_SET_PDEATHSIG, SIGTERM)``,
  and the SIGTERM handler kills the group.
- Everywhere (and when the handler cannot run: the main thread is deep in C
  code), a watcher thread notices that the parent changed within ``POLL_S``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import Any

__all__ = ["end_group", "end_with_parent"]

POLL_S = 0.5  # how often the watcher looks at the parent: the bound on how long an orphan runs
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_ORPHANED = 3  # the exit code of a process whose parent went away (the CLI's "no verdict")


def end_group(code: int = _ORPHANED) -> None:
    """End this process now, with everything in its process group if it leads one."""
    if os.name == "posix" and os.getpgrp() == os.getpid():
        with contextlib.suppress(OSError):
            os.killpg(os.getpid(), signal.SIGKILL)  # this process too: nothing runs after
    os._exit(code)


def end_with_parent(parent: int) -> None:
    """From now on, end this process (and its group) as soon as ``parent`` ends.

    Call it from the main thread (it installs a SIGTERM handler there): SIGTERM
    to this process then ends its group too, as a parent ending it would want.
    """
    if os.name == "posix" and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_term)
        if sys.platform.startswith("linux"):
            _ask_kernel()
    if os.getppid() != parent:  # it ended before we asked: no signal will come
        end_group()
    threading.Thread(target=_watch, args=(parent,), name="skynet-lifeline", daemon=True).start()


def _on_term(signum: int, frame: Any) -> None:
    end_group(128 + signum)


def _ask_kernel() -> None:
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_S)
    end_group()
