"""A ``skynet.py`` or ``skynet/`` of the user's own, in the folder they work in.

Loading the extension or checking a metric never runs the user's file and
never pushes their module out of ``sys.modules``; a failed check whose
``import skynet`` got their module instead of the helpers says so.  Each
scenario runs in a fresh interpreter, started in the user's folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import skynet_jupyter
from skynet_jupyter.i18n import t
from tests import cli_support

HERE = str(Path(skynet_jupyter.__file__).resolve().parents[1])  # this copy of the package

# Runs only if something executes the user's file: leaves a trace, then ends the process.
EXITS = textwrap.dedent(
    """
    import pathlib, sys
    pathlib.Path(__file__).with_name("executed").write_text("yes")
    sys.exit(3)
    """
)
PLAIN_METRIC = textwrap.dedent(
    """
    def score(input, output, expected=None):
        return (1.0 if output == expected["label"] else 0.0), {"feedback": "Compared."}
    """
)
HELPER_METRIC = "from skynet import llm\n" + PLAIN_METRIC
CHECK = (
    "import json, sys, skynet_jupyter as sj\n"
    "r = sj.check(sys.argv[1], 'cases.csv', outputs='label', output_column='label', lang='en')\n"
    "print(json.dumps({'passed': r.passed, 'text': ' '.join(s.message for s in r.steps)}))\n"
)
LOAD_EXT = (
    "from IPython.core.interactiveshell import InteractiveShell\n"
    "shell = InteractiveShell.instance()\n"
    "shell.extension_manager.load_extension('skynet_jupyter')\n"
    "print('loaded', 'SkynetMagics' in str(shell.magics_manager.registry))\n"
)


def python(code: str, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKYNET_")}
    env["PYTHONPATH"] = HERE  # after the folder itself: '' comes first on sys.path
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def folder_with(tmp_path: Path, metric: str) -> Path:
    (tmp_path / "metric.py").write_text(metric)
    (tmp_path / "cases.csv").write_text("text,label\na,billing\nb,technical\n")
    return tmp_path


def test_a_local_skynet_py_is_never_run_by_a_check(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, PLAIN_METRIC)
    (folder / "skynet.py").write_text(EXITS)
    done = python(CHECK, folder, "metric.py")
    assert done.returncode == 0, done.stderr  # no SystemExit escaped sj.check
    assert json.loads(done.stdout.splitlines()[-1])["passed"] is True
    assert not (folder / "executed").exists()


def test_a_local_skynet_py_is_never_run_by_load_ext(tmp_path: Path) -> None:
    (tmp_path / "skynet.py").write_text(EXITS)
    done = python(LOAD_EXT, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["loaded", "True"]
    assert not (tmp_path / "executed").exists()


def skynet_check(folder: Path) -> subprocess.CompletedProcess[str]:
    """``main()`` as the console script calls it, the folder first on ``sys.path``."""
    arguments = ["metric.py", "--data", "cases.csv", "--outputs", "label"]
    return cli_support.skynet_check(
        *arguments, "--output-column", "label", "--json", cwd=folder, how="main"
    )


def test_a_local_skynet_py_is_never_run_by_skynet_check(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, PLAIN_METRIC)
    (folder / "skynet.py").write_text(EXITS)
    done = skynet_check(folder)
    assert done.returncode == 0, done.stdout + done.stderr  # passed: not "itself failed"
    assert json.loads(done.stdout)["passed"] is True
    assert not (folder / "executed").exists()


def test_the_users_own_skynet_package_stays_imported(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, PLAIN_METRIC)
    package = folder / "skynet"
    package.mkdir()
    (package / "__init__.py").write_text("OWN = True\n")
    (package / "datasets.py").write_text("ROWS = 3\n")
    after = "import skynet, skynet.datasets\nprint(skynet.OWN, skynet.datasets.ROWS)\n"
    for first in ("", "import skynet\n"):  # imported before the extension loads, or not
        done = python(first + LOAD_EXT + CHECK + after, folder, "metric.py")
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == "True 3"


def test_a_check_whose_skynet_is_the_users_says_so_in_one_sentence(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, HELPER_METRIC)
    (folder / "skynet.py").write_text("OWN = True\n")  # theirs: no llm in it
    done = python(CHECK, folder, "metric.py")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["passed"] is False
    said = t(
        "skynet.shadowed",
        "en",
        path=str(folder / "skynet.py"),
        helpers="llm, reward, observation, service_cost",
    )
    assert found["text"].count(said) == 1


def test_skynet_check_says_when_the_users_skynet_hides_the_helpers(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, HELPER_METRIC)
    (folder / "skynet.py").write_text("OWN = True\n")
    done = skynet_check(folder)
    assert done.returncode == 2, done.stdout + done.stderr  # the metric does not load
    said = t(
        "skynet.shadowed",
        "en",
        path=str(folder / "skynet.py"),
        helpers="llm, reward, observation, service_cost",
    )
    assert json.loads(done.stdout)["message"].count(said) == 1
