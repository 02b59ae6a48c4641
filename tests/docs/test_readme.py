"""The README's Python example runs as written, from the project's root."""

from __future__ import annotations

import os
import re

from tests.conftest import ROOT


def test_the_python_example_in_the_readme_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1]
    (code,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)[:1]
    before = os.getcwd()
    os.chdir(ROOT)
    try:
        namespace: dict = {}
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(before)
    assert namespace["report"].passed
    # The prompt "billing: charge" finds the 10 billing tickets and nothing else.
    assert namespace["full"].mean_score == 10 / 30
    assert len(namespace["full"].cases) == 30


def test_the_readme_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)[:2]
    assert "notebooks/01-quickstart.ipynb" in blocks[0]
    assert blocks[1].strip() == "pip install -e '.[test]' && python -m pytest"
    # CI runs the same two, the install held to the locked versions (CONTRIBUTING.md).
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert "python -m pip install -c .ci/test-lock.txt -e '.[test]' || exit 1" in ci
    assert "step python -m pytest" in ci  # step: run, and said in the summary if it fails
