"""Data files keep their meaning through skynet-check: JSON in CSV cells, the inputs named.

Moved from tests/core/test_dataset_cell_meaning.py (whose files and metrics these use):
the same checks, through the installed console script and the one runner.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_support import skynet_check as run_command
from tests.core.test_dataset_cell_meaning import (
    CONTAINS_ANSWER,
    EXTRACT,
    FIELDS_CSV,
    SEVERAL_CHECKS,
)


@pytest.fixture
def fields(tmp_path: Path) -> Path:
    """The docs' "several checks" metric, its run file and its cases, in a folder."""
    (tmp_path / "metric.py").write_text(SEVERAL_CHECKS, encoding="utf-8")
    (tmp_path / "run.py").write_text(EXTRACT, encoding="utf-8")
    (tmp_path / "cases.csv").write_text(FIELDS_CSV, encoding="utf-8")
    return tmp_path


def skynet_check(*args: str):
    """The installed console script (as the tests this came from ran it)."""
    return run_command(*args, how="script", timeout=180)


def test_json_columns_on_the_command_line(fields):
    base = [
        str(fields / "metric.py"),
        "--data",
        str(fields / "cases.csv"),
        "--outputs",
        "fields",
        "--run",
        f"{fields / 'run.py'}:run",
        "--artifact-text",
        "Extract the fields.",
        "--json",
    ]
    without = skynet_check(*base)
    assert without.returncode == 0, without.stdout + without.stderr
    document = json.loads(without.stdout)
    assert document["mean_score"] == 0.5
    advice = next(step for step in document["steps"] if step["id"] == "feedback_advice")
    assert "--json-columns fields" in advice["message"]

    done = skynet_check(*base, "--json-columns", "fields")
    assert done.returncode == 0, done.stdout + done.stderr
    document = json.loads(done.stdout)
    assert document["mean_score"] == 1.0
    assert document["cases"][0]["expected"] == {"fields": ["name", "email"]}


def test_the_cli_says_which_columns_became_inputs(tmp_path):
    (tmp_path / "metric.py").write_text(CONTAINS_ANSWER, encoding="utf-8")
    (tmp_path / "run.py").write_text(
        "def run(artifact, input):\n    return f\"{artifact} {input['question']}\"\n",
        encoding="utf-8",
    )
    (tmp_path / "cases.csv").write_text(
        "question,topic,answer\n42,math,42\nParis,geo,Paris\n", encoding="utf-8"
    )
    args = [
        str(tmp_path / "metric.py"), "--data", str(tmp_path / "cases.csv"), "--outputs",
        "answer", "--run", f"{tmp_path / 'run.py'}:run", "--artifact-text", "Answer:",
    ]  # fmt: skip
    done = skynet_check(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Inputs (every column but the Output ones): question, topic." in done.stdout
    assert "Inputs (" not in skynet_check(*args, "--inputs", "question").stdout
