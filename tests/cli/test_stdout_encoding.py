"""skynet-check on a stdout that cannot hold every character (a CI log or a Windows
console in cp1252): what it cannot write is written as an escape, and the verdict and
its exit code stay (a UnicodeEncodeError ended the check in a traceback, exit 1)."""

from __future__ import annotations

import os
import subprocess

import pytest

GOOD = """
def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "\u2713 bien reçu — right"}
"""
BAD = """
def score(input, output, expected=None):
    return 0.5
"""


@pytest.mark.parametrize(
    ("metric", "code", "shown"),
    [
        (GOOD, 0, "\\u2713 bien reçu — right"),  # a feedback's own characters
        (BAD, 1, "\\u2717 Metric return value"),  # the report's own mark of a failed step
    ],
)
def test_the_check_on_a_cp1252_stdout_escapes_what_it_cannot_hold(tmp_path, metric, code, shown):
    (tmp_path / "metric.py").write_text(metric, encoding="utf-8")
    (tmp_path / "cases.csv").write_text("text,label,prediction\nhello,greeting,greeting\n")
    done = subprocess.run(
        [
            "skynet-check",
            "metric.py",
            "--data",
            "cases.csv",
            "--outputs",
            "label",
            "--output-column",
            "prediction",
        ],
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
        timeout=120,
    )
    out, err = done.stdout.decode("cp1252"), done.stderr.decode("cp1252")
    assert done.returncode == code, out + err
    assert "Traceback" not in err
    assert shown in out, out
