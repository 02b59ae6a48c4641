"""``!skynet-check`` in a notebook: a real kernel runs it in a pseudo-terminal nobody
looks at, whose output is saved in the notebook, so no terminal escape code and no
80-column wrap (a notebook's ``!`` is not an interactive terminal)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_support import checkout_env, skynet_check_command
from tests.conftest import ROOT, require_module
from tests.notebook_client import WAIT_FOR_OUTPUTS

LONG_FEEDBACK = "Wrong: " + " ".join(["the label should name the customer's actual problem"] * 4)
METRIC = f"""
def score(input, output, expected=None):
    return 0.0, {{"feedback": {LONG_FEEDBACK!r}}}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "metric.py").write_text(METRIC)
    (tmp_path / "cases.csv").write_text("text,label\nhello,greeting\nbye,farewell\n")
    return tmp_path


COMMAND = "metric.py --data cases.csv --outputs label --output-column label"


@pytest.mark.slow
def test_bang_skynet_check_in_a_real_kernel_saves_plain_unwrapped_text(project, monkeypatch):
    nbformat = require_module("nbformat")
    nbclient = require_module("nbclient")
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setenv("SKYNET_LANG", "en")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(f"!{sys.executable} -m skynet_jupyter.cli {COMMAND}")
    ]
    client = nbclient.NotebookClient(
        notebook,
        **WAIT_FOR_OUTPUTS,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(project)}},
    )
    client.execute()
    saved = "".join(
        output.get("text", "")
        for output in notebook.cells[0].outputs
        if output.output_type == "stream"
    )
    assert "Contract check passed" in saved, notebook.cells[0].outputs
    # No progress line, no escape code: the kernel's terminal ends lines with CR LF (as
    # for any ``!command``); no other carriage return is left.
    assert "\x1b" not in saved and "\r" not in saved.replace("\r\n", "\n")
    assert "Running the contract check" not in saved
    # The feedback is one line, as in a pipe: the notebook wraps it at its own width.
    assert any(LONG_FEEDBACK in line for line in saved.splitlines()), saved


def test_a_terminal_under_a_kernel_is_not_an_interactive_terminal(project):
    """The same through a pseudo-terminal: the progress line on its own, none under a kernel."""

    def through_a_pty(**env: str) -> str:
        leader, follower = pty.openpty()
        with subprocess.Popen(
            [*skynet_check_command(), *COMMAND.split()],
            stdout=follower,
            stderr=follower,
            cwd=project,
            env=checkout_env(COLUMNS="80", **env),
        ) as child:
            os.close(follower)
            chunks = []
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            child.wait(timeout=120)
        os.close(leader)
        return b"".join(chunks).decode("utf-8", "replace")

    on_a_terminal = through_a_pty()
    assert "\x1b[K" in on_a_terminal  # the progress line: this is a terminal
    assert not any(LONG_FEEDBACK in line for line in on_a_terminal.splitlines())  # wrapped
    for kernel_env in (
        {"JPY_PARENT_PID": "1"},
        {"TERM": "xterm-color", "PAGER": "cat", "CLICOLOR_FORCE": "1"},
    ):
        under_a_kernel = through_a_pty(**kernel_env)
        assert "Contract check passed" in under_a_kernel
        assert "\x1b" not in under_a_kernel, kernel_env
        assert any(LONG_FEEDBACK in line for line in under_a_kernel.splitlines()), kernel_env
