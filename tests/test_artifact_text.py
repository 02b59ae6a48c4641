"""``--artifact 'Solve the problem.'``: a quoted artifact is the text itself.

The docs write the artifact inline; before, that text was looked up as a
notebook variable and then a file, and failed.  Unquoted still names a
variable, an expression or a file.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import ipywidgets
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import skynet_jupyter as sj

ECHO = """
def score(input, output, expected=None):
    return 1.0, {"feedback": f"run saw {output!r}"}
"""


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKYNET_LANG", "en")
    # The shell puts its user module in sys.modules["__main__"]: process pools started
    # later in the run (Dask, spawn) need the real one back.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    shell = InteractiveShell.instance()
    shell.reset(new_session=False)
    shell.extension_manager.load_extension("skynet_jupyter")
    shell.user_ns.update(
        rows=[{"q": "1+1"}],
        echo=lambda artifact, input: artifact,
        prompt="from a variable",
    )
    yield shell
    shell.extension_manager.unload_extension("skynet_jupyter")
    ipywidgets.Widget.close_all()


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
