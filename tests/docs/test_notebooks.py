"""Every tutorial in notebooks/ runs top to bottom, offline, so the tutorials cannot rot.

Each notebook runs in a real ``python3`` kernel (nbclient) whose working
directory is a temporary copy of notebooks/, so files a tutorial writes
(``--save metric.py``) land there and never in the repository.  A cell that
fails on purpose must say so (``--no-raise`` or the ``raises-exception`` tag);
any other error fails the test.  The stored notebooks carry no outputs.

"Stored" is what git holds (the index: what is committed, or about to be), not the working
copy: JupyterLab autosaves a tutorial's outputs into the file the moment a user runs it,
and its ``.ipynb_checkpoints/`` copies are nobody's tutorials.  Outside a git checkout (an
unpacked sdist) the working copy is all there is, and is read instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from skynet_jupyter.i18n import t
from tests.notebook_client import WAIT_FOR_OUTPUTS

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TUTORIALS = (
    "01-quickstart",
    "02-useful-feedback",
    "03-llm-judge",
    "04-accuracy-speed-cost",
    "05-dspy",
    "06-at-scale",
    "07-is-my-metric-good",
    "08-preview-the-optimizer",
    "09-align-the-judge",
    "10-race-your-feedback",
    "11-what-did-my-edit-do",
)
# The quickstart in the languages the docs are published in: "folder/name" -> the original.
TRANSLATIONS = {
    "fr/01-demarrage-rapide": "01-quickstart",
    "pt/01-inicio-rapido": "01-quickstart",
}
SLOW = {"06-at-scale"}  # starts a Dask LocalCluster with two worker processes
CELL_TIMEOUT = 240
EXECUTED: dict = {}  # name -> the executed notebook, read again by test_tutorials.py


CHECKPOINTS = ".ipynb_checkpoints"  # JupyterLab's autosaved copies, in every folder it opens


def stored() -> list[Path]:
    """The tutorials and their translations: notebooks/*.ipynb and notebooks/*/*.ipynb."""
    found = sorted(NOTEBOOKS.glob("*.ipynb")) + sorted(NOTEBOOKS.glob("*/*.ipynb"))
    return [path for path in found if CHECKPOINTS not in path.relative_to(NOTEBOOKS).parts]


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=60
    )


def committed_text(path: Path) -> str:
    """``path`` as git holds it (the index), or as it is on disk outside a git checkout.

    A file not yet added to git is read from disk: a new tutorial is held to the rule too.
    """
    relative = path.relative_to(ROOT).as_posix()
    try:
        held = _git("show", f":{relative}")
    except OSError:  # no git on this machine
        return path.read_text(encoding="utf-8")
    return held.stdout if held.returncode == 0 else path.read_text(encoding="utf-8")


def copy_to_run(workdir: Path) -> None:
    """notebooks/ copied to ``workdir`` to run there, without what running them leaves.

    Left out: JupyterLab's checkpoints, and the files the tutorials write (WRITES), which a
    user's own run leaves in notebooks/: a tutorial must write them itself here.
    """
    written = {Path(name).name for names in WRITES.values() for name in names}
    shutil.copytree(NOTEBOOKS, workdir, ignore=shutil.ignore_patterns(CHECKPOINTS, *written))


def name_of(path: Path) -> str:
    """The name used here: "01-quickstart", "fr/01-demarrage-rapide" for a translation."""
    return path.relative_to(NOTEBOOKS).with_suffix("").as_posix()


def test_the_tutorials_and_translations_are_there():
    assert [name_of(path) for path in stored()] == [*TUTORIALS, *sorted(TRANSLATIONS)]


@pytest.mark.parametrize("path", stored(), ids=name_of)
def test_stored_without_outputs(path):
    notebook = nbformat.reads(committed_text(path), as_version=4)
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
    "01-quickstart": [
        t("report.check_failed", "en"),
        "score returned only a number, not a pair",
        "Feedback advice",
    ],
    "02-useful-feedback": ["Generic feedback 'Bad format.'", t("step.feedback_advice", "fr")],
    "03-llm-judge": [
        "FAIL. The reply does not answer the question: it never mentions 'reset'",
        "asked: 0 | answered from the run cache: 4",  # the restart that asks nothing
        "the same verdicts: True",
    ],
    "04-accuracy-speed-cost": ["longer prompt", "scores.cost", "over the 30 ms reference"],
    "05-dspy": ["EvaluationResult"],
    "06-at-scale": [t("report.eval_passed", "en")],
    "07-is-my-metric-good": [
        "all_expected wins on 30 cases",
        t("quality.probe.passed", "en"),
        "flip rate 0.43",
        "flip rate 0.00",
        "kappa 0.62",
    ],
    "08-preview-the-optimizer": ["Improved:", "Nothing improved", "Wrong."],
    "09-align-the-judge": [
        "Aligned 'judge' (JUDGE): held-out accuracy 0.667 → 1 on 9 held-out cases.",
        "after    accuracy 1, kappa 1",
        '{+- FAIL if the reply contains "your password".+}',
        'The human\'s reason: Never ask for "your password".',
        t("align.why_no_rationale", "en"),
        t("align.too_few_labels", "en", count=8, column="human", least=10),
        t("align.why_perfect", "en"),
    ],
}
SHOWS["10-race-your-feedback"] = [
    "informative 0.5 | terse 0.5",  # the same scores...
    "'informative' wins: held-out score 0.833 against 0.417 for 'terse'",  # ...taught apart
    "A tie: neither 'quoting' nor 'terse' led GEPA to an artifact better than the seed",
    "yet none scored above the seed on GEPA's 5 validation cases",  # why (#44, item 7)
    "informative [('informative', 0.833), ('quoting', 0.417)]",
]
SHOWS["11-what-did-my-edit-do"] = [
    "Run history of 'metric.py':",  # read again after each cell: 3 runs, then 5 with CI's
    "8 cases regressed",  # %skynet_diff last~1 last: version 3's partial credit
    "0 regressions, 30 cases with new feedback",  # sj.diff of version 1 and 2
    "exit code: 1",  # skynet-check --against last fails on the regression
]
SHOWS["fr/01-demarrage-rapide"] = [
    t("report.check_failed", "fr"),  # a report in French, from %config SkynetMagics.lang
    t("step.feedback_advice", "fr"),
    "score a renvoyé seulement un nombre",  # sj.check(..., lang="fr")
    "Attendu 'billing', obtenu 'other'.",  # the metric's own French feedback
    t("report.check_passed", "fr") + " — ",  # skynet-check --lang fr
]
SHOWS["pt/01-inicio-rapido"] = [
    t("report.check_failed", "pt"),
    t("step.feedback_advice", "pt"),
    "score devolveu só um número",
    "Esperado 'billing', obtido 'other'.",
    t("report.check_passed", "pt") + " — ",
]
WRITES = {
    "01-quickstart": ["metric.py"],
    "05-dspy": ["ticket_metric.py"],
    "09-align-the-judge": ["aligned_judge.py"],
    "11-what-did-my-edit-do": ["metric.py", "gate.txt"],
    "fr/01-demarrage-rapide": ["fr/metric.py"],
    "pt/01-inicio-rapido": ["pt/metric.py"],
}


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in TUTORIALS]
    + list(TRANSLATIONS),
)
def test_notebook_runs(name, tmp_path, monkeypatch):
    workdir = tmp_path / "notebooks"
    copy_to_run(workdir)
    in_repo = sorted(NOTEBOOKS.iterdir())
    # The kernel imports this checkout, answers in English, and never needs a network.
    paths = [str(ROOT), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, paths)))
    monkeypatch.setenv("SKYNET_LANG", "en")
    # The run log as a user has it (tests/conftest.py turns it off): .skynet_runs in the copy.
    for variable in (
        "SKYNET_TASK_MODEL",
        "SKYNET_METRIC_MODEL",
        "SKYNET_REFLECTION_MODEL",
        "SKYNET_RUN_LOG",
    ):
        monkeypatch.delenv(variable, raising=False)
    notebook = nbformat.read(workdir / f"{name}.ipynb", as_version=4)
    client = NotebookClient(
        notebook,
        **WAIT_FOR_OUTPUTS,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        # in the notebook's own folder, as Jupyter runs it (a translation: notebooks/fr/)
        resources={"metadata": {"path": str((workdir / name).parent)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any error
    EXECUTED[name] = notebook

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
