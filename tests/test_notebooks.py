"""Every tutorial in notebooks/ runs top to bottom, offline, so the tutorials cannot rot.

Each notebook runs in a real ``python3`` kernel (nbclient) whose working
directory is a temporary copy of notebooks/, so files a tutorial writes
(``--save metric.py``) land there and never in the repository.  A cell that
fails on purpose must say so (``--no-raise`` or the ``raises-exception`` tag);
any other error fails the test.  The stored notebooks carry no outputs.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from skynet_jupyter.i18n import t

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TUTORIALS = (
    "01-quickstart",
    "02-useful-feedback",
    "03-llm-judge",
    "04-accuracy-speed-cost",
    "05-dspy",
    "06-at-scale",
)
SLOW = {"06-at-scale"}  # starts a Dask LocalCluster with two worker processes
CELL_TIMEOUT = 240


def stored() -> list[Path]:
    return sorted(NOTEBOOKS.glob("*.ipynb"))


def test_the_six_tutorials_are_there():
    assert [path.stem for path in stored()] == list(TUTORIALS)


@pytest.mark.parametrize("path", stored(), ids=lambda path: path.stem)
def test_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata.get("kernelspec", {}).get("name") == "python3"
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        where = f"{path.name}, cell {number}"
        assert cell.outputs == [], f"{where} has outputs: clear them before committing"
        assert cell.execution_count is None, f"{where} has an execution count"
    assert notebook.cells[0].cell_type == "markdown", "a tutorial opens with what it teaches"


# What each tutorial must still show when it runs (in its plain-text outputs).
SHOWS = {
    "01-quickstart": [t("report.check_failed", "en"), "score returned 0.8", "Feedback advice"],
    "02-useful-feedback": ["Generic feedback 'Bad format.'", t("step.feedback_advice", "fr")],
    "03-llm-judge": ["FAIL. The answer should give 'reset link'"],
    "04-accuracy-speed-cost": ["longer prompt", "scores.cost"],
    "05-dspy": ["EvaluationResult"],
    "06-at-scale": [t("report.eval_passed", "en")],
}
WRITES = {"01-quickstart": ["metric.py"], "05-dspy": ["ticket_metric.py"]}


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in TUTORIALS],
)
def test_notebook_runs(name, tmp_path, monkeypatch):
    workdir = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, workdir)
    in_repo = sorted(NOTEBOOKS.iterdir())
    # The kernel imports this checkout, answers in English, and never needs a network.
    paths = [str(ROOT), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, paths)))
    monkeypatch.setenv("SKYNET_LANG", "en")
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    notebook = nbformat.read(workdir / f"{name}.ipynb", as_version=4)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any error

    text = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if "raises-exception" not in cell.metadata.get("tags", []):
                assert output.output_type != "error", cell.source
            text.append(output.get("text", "") + output.get("data", {}).get("text/plain", ""))
    shown = "\n".join(text)
    for expected in SHOWS[name]:
        assert expected in shown, f"{name} no longer shows {expected!r}"
    for written in WRITES.get(name, []):
        assert (workdir / written).is_file()
    assert sorted(NOTEBOOKS.iterdir()) == in_repo, "a tutorial wrote into the repository"
