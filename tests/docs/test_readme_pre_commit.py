"""The README's pre-commit block works as a reader copies it, in any clone (issue 44, item 11).

The block is a ``repo: local`` hook: no URL (the old block's ``OWNER`` placeholder named
none), no ``rev``, no network.  It is read from README.md and written, unchanged, as a
user's ``.pre-commit-config.yaml``; the real pre-commit runs it with the ``skynet-check``
of this environment on the PATH, as a user who installed the package runs it.  Then its
``files:`` line, the one line the block says to change, is changed to the pattern its own
comment gives, and a ``my_metric.py`` saved from a notebook is checked too.  The CI
example (``examples/ci/pre-commit-config.yaml``) is the same configuration.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT, require_module

require_module("pre_commit")
yaml = require_module("yaml")

README = ROOT / "README.md"
GOOD = """
def score(input, output, expected=None):
    right = output == expected["label"]
    feedback = "Right." if right else f"Wrong: the label is {expected['label']}, not {output}."
    return float(right), {"feedback": feedback}
"""
BAD = """
def score(input, output, expected=None):
    return 0.8
"""
GIT = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}


def readme_pre_commit_block() -> tuple[str, str]:
    """The yaml block of the README's pre-commit item (as a file holds it), and the prose
    after it."""
    text = README.read_text(encoding="utf-8")
    start = text.index("- **pre-commit**")
    found = re.search(r"```yaml\n(?P<code>.*?)\n\s*```\n(?P<after>.*?)\n\n", text[start:], re.S)
    assert found, "the README's pre-commit item has no yaml block"
    code = "\n".join(
        line[2:] if line.startswith("  ") else line for line in found["code"].split("\n")
    )
    return code + "\n", found["after"]


def run(*command: object, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """A command with this environment's scripts (skynet-check, pre-commit) first on PATH."""
    scripts = str(Path(sys.executable).parent)
    path = os.pathsep.join([scripts, os.environ.get("PATH", "")])
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT, "PATH": path, "SKYNET_LANG": "en", **env},
        timeout=300,
    )


def user_repository(folder: Path, config: str) -> Path:
    """A user's git repository: a good and a bad metric.py, a my_metric.py, the cases."""
    folder.mkdir()
    for name, source in (("good/metric.py", GOOD), ("bad/metric.py", BAD), ("my_metric.py", BAD)):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(source)
    (folder / "cases.csv").write_text("text,label,prediction\nhello,greeting,greeting\n")
    (folder / ".pre-commit-config.yaml").write_text(config)
    for step in (("init", "-q"), ("add", "-A")):
        assert run("git", *step, cwd=folder).returncode == 0
    return folder


def pre_commit(user: Path, *files: str) -> subprocess.CompletedProcess:
    home = user.parent / "pre-commit-home"
    return run("pre-commit", "run", "--files", *files, cwd=user, PRE_COMMIT_HOME=str(home))


def test_the_block_is_a_local_hook_with_no_url_to_fill_in():
    code, _ = readme_pre_commit_block()
    (repo,) = yaml.safe_load(code)["repos"]
    assert repo["repo"] == "local" and "rev" not in repo
    assert "OWNER" not in README.read_text(encoding="utf-8")
    (hook,) = repo["hooks"]
    assert hook["id"] == "skynet-check" and hook["entry"] == "skynet-check"
    assert all(arg.startswith("--") for arg in hook["args"][::2])  # options, no metric file


def test_the_ci_example_is_the_readme_block():
    code, _ = readme_pre_commit_block()
    example = yaml.safe_load((EXAMPLES / "ci" / "pre-commit-config.yaml").read_text())
    assert example == yaml.safe_load(code)


def files_line(code: str) -> tuple[str, str]:
    """The block's ``files:`` line, and the pattern its comment gives for my_metric.py."""
    (line,) = [line for line in code.splitlines() if line.strip().startswith("files:")]
    at = code.index(line)
    comment = code[code.rindex("\n", 0, code.rindex("\n", 0, at)) : at]
    assert "the one line to change" in code[: at + len(line)]
    (other,) = re.findall(r"(\(\^\|/\)\S+\$)", comment)
    return line, other


def test_the_comment_beside_the_files_line_says_it_is_the_one_to_change():
    code, after = readme_pre_commit_block()
    line, other = files_line(code)
    pattern = yaml.safe_load(line.strip())["files"]
    for path, checked in (
        ("metric.py", True),
        ("proj/metric.py", True),
        ("my_metric.py", False),
        ("test_metric.py", False),
    ):
        assert bool(re.search(pattern, path)) is checked, path
    for path, checked in (("my_metric.py", True), ("metric.py", True), ("test_metric.py", False)):
        assert bool(re.search(other, path)) is checked, path
    assert "my_metric.py" in after and "files:" in after


@pytest.mark.slow
def test_the_block_as_written_checks_each_changed_metric(tmp_path):
    code, after = readme_pre_commit_block()
    user = user_repository(tmp_path / "user", code)
    started = time.monotonic()
    good = pre_commit(user, "good/metric.py")
    first_run_s = time.monotonic() - started
    assert good.returncode == 0, good.stdout + good.stderr
    assert "skynet-check (Skynet metric contract)" in good.stdout and "Passed" in good.stdout
    assert first_run_s < 30, f"the first run took {first_run_s:.1f} s: nothing to build"
    assert "nothing is built or downloaded" in after

    both = pre_commit(user, "good/metric.py", "bad/metric.py")
    assert both.returncode == 1, both.stdout + both.stderr
    good_at, bad_at = both.stdout.index("==> good/metric.py <=="), both.stdout.index("==> bad")
    assert good_at < both.stdout.index("Contract check passed") < bad_at
    assert "Metric return value" in both.stdout[bad_at:]

    # A metric saved from a notebook as my_metric.py is not a metric.py: not checked...
    mine = pre_commit(user, "my_metric.py")
    assert mine.returncode == 0 and "(no files to check)Skipped" in mine.stdout.replace(".", "")


@pytest.mark.slow
def test_the_files_line_changed_as_its_comment_says_checks_my_metric(tmp_path):
    code, _ = readme_pre_commit_block()
    line, other = files_line(code)
    changed = code.replace(line, line.replace(line.split("files:", 1)[1].strip(), other))
    assert sum(a != b for a, b in zip(code.splitlines(), changed.splitlines(), strict=True)) == 1
    user = user_repository(tmp_path / "user", changed)
    mine = pre_commit(user, "my_metric.py", "cases.csv")
    assert mine.returncode == 1, mine.stdout + mine.stderr  # my_metric.py is BAD: checked
    assert "Contract check failed — metric 'my_metric.py'" in mine.stdout
    assert "cases.csv" not in mine.stdout.split("Contract check")[0]
    good = pre_commit(user, "good/metric.py")
    assert good.returncode == 0, good.stdout + good.stderr
