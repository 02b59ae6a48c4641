"""``--artifact 'Solve the problem.'``: a quoted artifact is the text itself.

The docs write the artifact inline; before, that text was looked up as a
notebook variable and then a file, and failed.  Unquoted still names a
variable, an expression or a file.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import skynet_jupyter as sj

ECHO = """
def score(input, output, expected=None):
    return 1.0, {"feedback": f"run saw {output!r}"}
"""


@pytest.fixture
def shell(shell: InteractiveShell) -> InteractiveShell:
    """conftest.py's shell, with the rows, run function and prompt these tests name."""
    shell.user_ns.update(
        rows=[{"q": "1+1"}],
        echo=lambda artifact, input: artifact,
        prompt="from a variable",
    )
    return shell


def run(shell: InteractiveShell, source: str):
    with capture_output():
        result = shell.run_cell(textwrap.dedent(source).lstrip("\n"))
    result.raise_error()
    return result.result


@pytest.mark.parametrize(
    ("option", "artifact"),
    [
        ("--artifact 'Solve the problem.'", "Solve the problem."),
        ('--artifact "Solve the problem."', "Solve the problem."),
        ("--artifact 'prompt'", "prompt"),  # quoted wins over a variable of that name
        ("--artifact prompt", "from a variable"),
        ("--artifact prompt.upper()", "FROM A VARIABLE"),
        ("--artifact prompt.txt", "from a file\n"),
    ],
)
def test_the_artifact_option(shell: InteractiveShell, tmp_path: Path, option: str, artifact: str):
    (tmp_path / "prompt.txt").write_text("from a file\n")
    run(shell, f"%%skynet_metric\n{ECHO}")
    report = run(shell, f"%skynet_check --data rows --run echo {option} --cases 1;")
    assert isinstance(report, sj.CheckReport)
    assert report.passed
    assert report.cases[0].output == artifact
    assert report.cases[0].feedback == f"run saw {artifact!r}"
