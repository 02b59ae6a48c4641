"""skynet-check loads the metric and the run file with their own folders importable,
as Skynet loads metric.py from its folder: from the parent folder too."""

from __future__ import annotations

from pathlib import Path

from tests.cli_support import skynet_check_in

METRIC = """
from helpers import feedback_for

def score(input, output, expected=None):
    right = output == expected["label"]
    return float(right), {"feedback": feedback_for(right, expected["label"])}
"""
HELPERS = """
def feedback_for(right, label):
    return "Right." if right else f"Wrong: the label is {label}."
"""
RUN = """
from labels import label_of

def run(artifact, case_input):
    return label_of(case_input["text"])
"""
LABELS = "def label_of(text):\n    return 'greeting' if text == 'hello' else 'other'\n"


def project(root: Path) -> Path:
    proj = root / "proj"
    (proj / "app").mkdir(parents=True)
    (proj / "metric.py").write_text(METRIC)
    (proj / "helpers.py").write_text(HELPERS)
    (proj / "app" / "run.py").write_text(RUN)
    (proj / "app" / "labels.py").write_text(LABELS)
    (proj / "cases.csv").write_text("text,label\nhello,greeting\nbye,other\n")
    return proj


def test_a_metric_imports_a_module_beside_it_from_the_parent_folder(tmp_path):
    project(tmp_path)
    args = ["--data", "proj/cases.csv", "--outputs", "label", "--output-column", "label"]
    done = skynet_check_in(tmp_path, "proj/metric.py", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contract check passed" in done.stdout


def test_a_run_file_imports_a_module_beside_it(tmp_path):
    project(tmp_path)
    done = skynet_check_in(
        tmp_path,
        "proj/metric.py",
        "--data",
        "proj/cases.csv",
        "--outputs",
        "label",
        "--run",
        "proj/app/run.py:run",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'output: "greeting"' in done.stdout


def test_from_inside_the_folder_it_still_works(tmp_path):
    proj = project(tmp_path)
    done = skynet_check_in(
        proj, "metric.py", "--data", "cases.csv", "--outputs", "label", "--run", "app/run.py"
    )
    assert done.returncode == 0, done.stdout + done.stderr
