"""The suite passes on a checkout where the tutorials were run and saved in JupyterLab.

JupyterLab autosaves a run's outputs into the notebook, keeps ``.ipynb_checkpoints/``
copies beside it, and the tutorials write files of their own (``--save metric.py``...).
None of that is a tutorial, nor something to commit: the rule "no outputs" holds for
what git holds, checkpoints are never collected, and what a tutorial writes is ignored
by git.  Each test here builds such a checkout in a temporary git repository.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.docs import test_notebooks
from tests.docs.test_notebooks import ROOT, WRITES

CLEAN = {
    "cells": [
        {"cell_type": "markdown", "id": "what", "metadata": {}, "source": ["# What it teaches"]},
        {
            "cell_type": "code",
            "id": "hi",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": ["print('hi')"],
        },
    ],
    "metadata": {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def ran_in_jupyterlab(notebook: dict) -> dict:
    """``notebook`` as JupyterLab saves it after a run: outputs and execution counts."""
    saved = json.loads(json.dumps(notebook))
    code = saved["cells"][1]
    code["execution_count"] = 1
    code["outputs"] = [{"name": "stdout", "output_type": "stream", "text": ["hi\n"]}]
    return saved


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git checkout with one clean tutorial committed, then run and saved in JupyterLab."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    tutorial = notebooks / "01-quickstart.ipynb"
    tutorial.write_text(json.dumps(CLEAN, indent=1) + "\n", encoding="utf-8")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "notebooks")
    email, name = "user.email=t@example.com", "user.name=t"
    git(tmp_path, "-c", email, "-c", name, "commit", "-q", "-m", "tutorial")
    # What JupyterLab leaves: the outputs in the file, a checkpoint in its own folder.
    ran = json.dumps(ran_in_jupyterlab(CLEAN), indent=1) + "\n"
    tutorial.write_text(ran, encoding="utf-8")
    (notebooks / ".ipynb_checkpoints").mkdir()
    (notebooks / ".ipynb_checkpoints" / "01-quickstart-checkpoint.ipynb").write_text(ran)
    monkeypatch.setattr(test_notebooks, "ROOT", tmp_path)
    monkeypatch.setattr(test_notebooks, "NOTEBOOKS", notebooks)
    return tmp_path


def test_checkpoints_are_not_tutorials(checkout: Path) -> None:
    assert test_notebooks.stored() == [checkout / "notebooks" / "01-quickstart.ipynb"]


def test_the_rule_reads_what_git_holds_not_the_autosaved_copy(checkout: Path) -> None:
    (path,) = test_notebooks.stored()
    assert "outputs" in path.read_text() and '"execution_count": 1' in path.read_text()
    test_notebooks.test_stored_without_outputs(path)  # passes: git holds the clean one


def test_outputs_added_to_git_are_still_refused(checkout: Path) -> None:
    (path,) = test_notebooks.stored()
    git(checkout, "add", "notebooks/01-quickstart.ipynb")  # about to be committed
    with pytest.raises(AssertionError, match="has outputs: clear them before committing"):
        test_notebooks.test_stored_without_outputs(path)


def test_a_tutorial_not_yet_in_git_is_held_to_the_rule(checkout: Path) -> None:
    new = checkout / "notebooks" / "02-new.ipynb"
    new.write_text(json.dumps(ran_in_jupyterlab(CLEAN)), encoding="utf-8")
    with pytest.raises(AssertionError, match="has outputs"):
        test_notebooks.test_stored_without_outputs(new)


def test_a_run_copies_neither_checkpoints_nor_what_a_users_run_wrote(
    checkout: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    notebooks = checkout / "notebooks"
    for written in {name for names in WRITES.values() for name in names}:
        (notebooks / written).parent.mkdir(parents=True, exist_ok=True)
        (notebooks / written).write_text("left by a user's run\n")
    workdir = tmp_path_factory.mktemp("run") / "notebooks"
    test_notebooks.copy_to_run(workdir)
    copied = sorted(path.relative_to(workdir).as_posix() for path in workdir.rglob("*"))
    assert copied == ["01-quickstart.ipynb", "fr", "pt"]  # the folders, emptied of metric.py


def test_what_the_tutorials_and_the_readme_write_is_ignored_by_git() -> None:
    written = [f"notebooks/{name}" for names in WRITES.values() for name in names]
    # The README's examples, run from the top of the checkout, and the run cache.
    written += ["metric.py", "aligned.py", "reports/skynet-check.xml"]
    written += [".skynet_cache/runs.sqlite", "notebooks/.skynet_cache/runs.sqlite"]
    written += ["notebooks/.ipynb_checkpoints/01-quickstart-checkpoint.ipynb"]
    done = subprocess.run(
        ["git", "-C", str(ROOT), "check-ignore", "--no-index", "--stdin"],
        input="\n".join(written),
        capture_output=True,
        text=True,
    )
    if done.returncode == 128:
        pytest.skip(f"not a git checkout: {done.stderr.strip()}")
    assert sorted(done.stdout.split()) == sorted(written)


def test_nothing_committed_is_ignored() -> None:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "--cached", "--ignored", "--exclude-standard"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"not a git checkout: {done.stderr.strip()}")
    assert done.stdout == ""
