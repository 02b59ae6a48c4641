"""A notebook name used in a metric cell is a warning at registration (issue 44, item 4).

The cell runs as its own module, as ``metric.py``: a notebook variable it uses is not
visible to it.  Registering says so at once, as a warning (on stderr, which JupyterLab
shows on its warning background, apart from the registration lines on stdout), and a
check fails with a clear error where the metric uses it.  README's magic table says
exactly that: the test reads it.
"""

from __future__ import annotations

import re
import textwrap

import pytest
from IPython.utils.capture import capture_output

from skynet_jupyter.core.contract import METRIC_RETURN_VALUE
from tests.conftest import ROOT

USES_A_NOTEBOOK_NAME = """
def score(input, output, expected=None):
    return THRESHOLD, {"feedback": "Fine."}
"""


def register(shell, body: str):
    with capture_output() as captured:
        result = shell.run_cell(f"%%skynet_metric\n{textwrap.dedent(body)}")
    result.raise_error()
    return captured


def test_the_note_is_a_warning_on_stderr_apart_from_the_registration(shell):
    shell.user_ns["THRESHOLD"] = 0.5
    captured = register(shell, USES_A_NOTEBOOK_NAME)
    assert captured.stdout.startswith("Metric 'default' registered")
    assert "THRESHOLD" not in captured.stdout
    warning = " ".join(captured.stderr.split())
    assert warning.startswith(
        "Warning: The metric uses 'THRESHOLD', which it does not define: it runs as its own "
        "module, as metric.py, so a notebook variable is not visible to it."
    )


def test_the_warning_is_in_the_report_language(shell):
    shell.run_line_magic("config", "SkynetMagics.lang = 'fr'")
    captured = register(shell, USES_A_NOTEBOOK_NAME)
    assert captured.stderr.startswith("Attention : ")
    shell.run_line_magic("config", "SkynetMagics.lang = 'pt'")
    assert register(shell, USES_A_NOTEBOOK_NAME).stderr.startswith("Aviso: ")


def test_a_self_contained_cell_warns_of_nothing(shell):
    captured = register(
        shell, 'def score(input, output, expected=None):\n    return 1.0, {"feedback": "ok"}\n'
    )
    assert captured.stderr == ""


def test_a_refused_save_still_warns(shell, tmp_path):
    (tmp_path / "metric.py").write_text("# by hand\n")
    with capture_output() as captured:
        result = shell.run_cell(
            f"%%skynet_metric --save metric.py\n{textwrap.dedent(USES_A_NOTEBOOK_NAME)}"
        )
    assert result.error_in_exec is not None
    assert captured.stderr.startswith("Warning: The metric uses 'THRESHOLD'")


def test_the_check_fails_with_a_clear_error_where_the_name_is_used(shell):
    shell.user_ns["THRESHOLD"] = 0.5
    shell.user_ns["rows"] = [{"text": "a", "label": "a"}]
    register(shell, USES_A_NOTEBOOK_NAME)
    with capture_output():
        result = shell.run_cell(
            "report = %skynet_check --data rows --outputs label --output-column label --no-raise"
        )
    result.raise_error()
    report = shell.user_ns["report"]
    assert report.step(METRIC_RETURN_VALUE).status == "failed"
    assert "score uses the name 'THRESHOLD'" in report.cases[0].error


@pytest.mark.parametrize("claim", ["is a clear error, not a hidden dependency"])
def test_the_readme_says_what_registration_does(claim):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (row,) = [line for line in readme.splitlines() if line.startswith("| `%%skynet_metric [NAME]")]
    assert claim not in row  # registration never was an error
    assert re.search(r"registering warns at once, naming it \(a warning on stderr", row)
    assert "a check fails with a clear error where the metric uses it" in row
