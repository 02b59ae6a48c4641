"""skynet-check on a small CSV imports no pandas, in the command nor in the process it
starts: reading a few rows must not cost a 300-500 ms import (issue 26).

Each process's imports are read from Python's own report (``PYTHONPROFILEIMPORTTIME``:
one line per module imported, on stderr, which the check's process shares with the
command when its output is not a terminal).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_support import skynet_check

METRIC = """\
def score(input, output, expected):
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": "Correct." if ok else "Wrong label."}
"""
HEAVY = ("pandas", "numpy", "pyarrow", "IPython", "ipywidgets", "litellm")


def imported(stderr: str) -> set[str]:
    """The modules named in the import-time report on ``stderr``."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "self [us]" not in line
    }


def check_with_imports(tmp_path: Path, data: str, name: str = "cases.csv") -> tuple[int, set[str]]:
    (tmp_path / "metric.py").write_text(METRIC, encoding="utf-8")
    (tmp_path / name).write_text(data, encoding="utf-8")
    command = ["metric.py", "--data", name, "--outputs", "label", "--output-column", "prediction"]
    done = skynet_check(*command, cwd=tmp_path, env={"PYTHONPROFILEIMPORTTIME": "1"})
    return done.returncode, imported(done.stderr)


@pytest.mark.parametrize("name", ["cases.csv", "cases.tsv"])
def test_a_check_on_a_small_table_imports_no_pandas(tmp_path, name):
    sep = "\t" if name.endswith(".tsv") else ","
    rows = [["question", "label", "prediction"], ["2+2?", "4", "4"], ["Paris?", "yes", "yes"]]
    code, modules = check_with_imports(tmp_path, "".join(sep.join(r) + "\n" for r in rows), name)
    assert code == 0
    # Both processes reported: the command's and the check's (which ran the engine).
    assert {"skynet_jupyter.cli.supervise", "skynet_jupyter.run.engine"} <= modules
    assert not {module.split(".")[0] for module in modules} & set(HEAVY)


def test_a_file_only_pandas_reads_its_way_still_reads_through_pandas(tmp_path):
    # A line of blanks: pandas skips it (the standard library would read a field).
    code, modules = check_with_imports(
        tmp_path, "question,label,prediction\n   \n2+2?,4,4\nParis?,yes,yes\n"
    )
    assert code == 0
    assert "pandas" in modules
