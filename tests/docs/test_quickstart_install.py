"""The quickstart needs only the ``lab`` extra: it installs in seconds.

``lab`` brings JupyterLab and nothing else; the tutorials that need DSPy, Dask
or litellm say so at their top.  The proof: the quickstart notebook runs top
to bottom in a real kernel where importing any of those packages fails.
"""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.notebook_client import WAIT_FOR_OUTPUTS

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("dspy", "dask", "distributed", "litellm", "gepa")

BLOCKER = f"""
import sys

class _NotInstalled:
    # Stands in for a machine with only the `lab` extra installed.
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {HEAVY!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (the lab extra)")
        return None

sys.meta_path.insert(0, _NotInstalled())
"""


def test_the_lab_extra_is_jupyterlab_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lab = project["optional-dependencies"]["lab"]
    assert [req.split(">")[0].split("=")[0].strip() for req in lab] == ["jupyterlab"]
    core = " ".join(project["dependencies"])
    assert not any(name in core for name in HEAVY)


@pytest.mark.slow
def test_quickstart_runs_without_dspy_dask_or_litellm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "site"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCKER)
    workdir = tmp_path / "notebooks"
    workdir.mkdir()
    shutil.copy(ROOT / "notebooks" / "01-quickstart.ipynb", workdir)
    paths = [str(blocker), str(ROOT), os.environ.get("PYTHONPATH")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, paths)))
    monkeypatch.setenv("SKYNET_LANG", "en")
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    notebook = nbformat.read(workdir / "01-quickstart.ipynb", as_version=4)
    probe = nbformat.v4.new_code_cell(
        "import sys\n"
        f"print('BLOCKED' if all(n not in sys.modules for n in {HEAVY!r}) else 'LOADED')\n"
        "try:\n    import litellm\nexcept ModuleNotFoundError as e:\n    print('NO', e)"
    )
    notebook.cells.append(probe)
    client = NotebookClient(
        notebook,
        **WAIT_FOR_OUTPUTS,
        timeout=240,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute()  # any error in any cell (a missing package, say) raises here
    last = "".join(output.get("text", "") for output in notebook.cells[-1].outputs)
    assert "BLOCKED" in last
    assert "NO No module named 'litellm' (the lab extra)" in last
