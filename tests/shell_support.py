"""The in-process IPython shell the magics' tests drive: written once, used by every file.

A test module either takes the ``shell`` fixture from conftest.py (optionally overriding it
with a fixture of the same name that adds its namespace or metric on top) or, when its
set-up must come before the extension loads, enters ``loaded_shell`` itself.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

import ipywidgets
import pytest
from IPython.core.interactiveshell import InteractiveShell

import skynet_jupyter as sj


@contextlib.contextmanager
def loaded_shell(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[InteractiveShell]:
    """The shell with an empty namespace and the extension freshly loaded, run from ``cwd``.

    ``cwd`` is a temporary folder: the magics' default ``.skynet_cache`` lands in the
    current directory, never in the repository.  Messages are English unless a test
    asks (``SKYNET_LANG`` can be set again with ``monkeypatch`` inside the block).
    """
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("SKYNET_LANG", "en")
    # The shell puts its user module in sys.modules["__main__"]: process pools started
    # later in the same run (Dask, spawn) need the real one back.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    shell = InteractiveShell.instance()
    shell.reset(new_session=False)
    shell.config.pop("SkynetMagics", None)  # %config values live in the shell's config
    shell.extension_manager.load_extension("skynet_jupyter")
    try:
        yield shell
    finally:
        shell.extension_manager.unload_extension("skynet_jupyter")
        sj.unload_ipython_extension(shell)  # in case a test loaded it without the manager
        ipywidgets.Widget.close_all()
