"""The CLI tests' shared fixture: ``project``, the folder the in-process tests work in.

A module that defines its own ``project`` (test_ci_reports.py, test_import_folders.py,
test_in_a_notebook.py) uses its own.  The command itself is started by
``tests/cli_support.py``'s ``skynet_check``, with its one environment rule.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.cli.in_process_support import CASES, FAILING, GOOD, ONE_ARGUMENT, RUN


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with metrics, cases, a run file and an artifact; the current directory."""
    for name, source in (
        ("good.py", GOOD),
        ("failing.py", FAILING),
        ("one_argument.py", ONE_ARGUMENT),
        ("run.py", RUN),
    ):
        (tmp_path / name).write_text(source)
    (tmp_path / "cases.csv").write_text(CASES)
    (tmp_path / "prompt.txt").write_text("farewell\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKYNET_LANG", "en")
    for role in ("TASK", "METRIC", "REFLECTION"):
        monkeypatch.delenv(f"SKYNET_{role}_MODEL", raising=False)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)  # file= is relative to this folder
    monkeypatch.setattr(sys, "path", list(sys.path))  # the child's _check prepends folders
    return tmp_path
