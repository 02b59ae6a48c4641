"""What importing the package, and pytest's loading of its plugin, cost: next to nothing.

``import skynet_jupyter`` (and the ``pytest11`` plugin, which pytest loads in every
project where the package is installed) import only the package and the ``import
skynet`` hook; the engine, pandas and IPython come when used (issue 26).  Each case
runs in a fresh interpreter, so nothing imported by this test run counts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = {"pandas", "numpy", "pyarrow", "IPython", "ipywidgets", "litellm", "dspy", "gepa"}
OURS_AT_IMPORT = {"skynet_jupyter", "skynet_jupyter.core", "skynet_jupyter.core.skynet_import"}

REPORT = """
import json, sys
print(json.dumps(sorted(sys.modules)))
"""


def modules_after(code: str, *args: str, cwd: Path | None = None) -> set[str]:
    done = subprocess.run(
        [sys.executable, *args, "-c", code + REPORT],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=cwd,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def ours(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] == "skynet_jupyter"}


def heavy(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules} & HEAVY


def test_importing_the_package_imports_only_the_package_and_the_skynet_hook():
    modules = modules_after("import skynet_jupyter")
    assert ours(modules) == OURS_AT_IMPORT
    assert not heavy(modules)


def test_the_public_names_are_still_there_when_asked_for():
    modules = modules_after("import skynet_jupyter as sj; sj.load_cases; sj.check")
    assert {"skynet_jupyter.core.dataset", "skynet_jupyter.run.engine"} <= modules
    assert "pandas" not in modules


def test_the_pytest_plugin_imports_only_the_package_and_the_skynet_hook():
    modules = modules_after("import skynet_jupyter.pytest_plugin")
    assert ours(modules) == {*OURS_AT_IMPORT, "skynet_jupyter.pytest_plugin"}
    assert not heavy(modules)


def test_an_unrelated_test_run_with_the_plugin_imports_nothing_else_of_ours(tmp_path):
    # The test of an unrelated project says what was imported by the time it ran.
    (tmp_path / "test_one.py").write_text(
        "import json, sys\n\n\ndef test_one():\n"
        "    ours = sorted(m for m in sys.modules if m.split('.')[0] == 'skynet_jupyter')\n"
        "    print('OURS=' + json.dumps(ours))\n"
        "    import skynet  # the plugin's work: a metric's `from skynet import llm` works\n\n"
        "    assert callable(skynet.llm)\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "test_one.py"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (line,) = [line for line in done.stdout.splitlines() if "OURS=" in line]
    said = set(json.loads(line.split("OURS=", 1)[1]))
    assert said == {*OURS_AT_IMPORT, "skynet_jupyter.pytest_plugin"}
