"""The pre-commit hook (.pre-commit-hooks.yaml, id skynet-check) with the real pre-commit.

pre-commit installs the hook repository at a commit, so the tests commit a copy of
this checkout's files (committed or not: the same in a fresh CI clone and in a
working tree) and point pre-commit at it.  ``language: python`` builds the hook's
own virtualenv from the package registry, as it does for a user; that takes a
minute, once per store.

Two ways in: ``pre-commit run`` with a user's ``.pre-commit-config.yaml`` (the hook
and its ``args``, as README shows), and ``pre-commit try-repo`` against the copy.
try-repo writes its own configuration, with the hook's id only (no way to give
``args``), so for it the copy's manifest carries the same ``args`` as defaults.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, require_module

require_module("pre_commit")
yaml = require_module("yaml")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

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
HOOK_ARGS = ["--data", "cases.csv", "--outputs", "label", "--output-column", "prediction"]
GIT = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}


def run(*command: object, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT, **env},
        timeout=800,
    )


def committed_copy(target: Path, hook_args: list[str] | None = None) -> str:
    """This checkout's files (tracked or new, not ignored) committed in ``target``; the commit."""
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.stdout.split("\0")):
        source, copy = ROOT / name, target / name
        if not os.path.lexists(source):  # deleted in the working tree
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            copy.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, copy)
    if hook_args is not None:
        manifest = target / ".pre-commit-hooks.yaml"
        hooks = yaml.safe_load(manifest.read_text())
        hooks[0]["args"] = hook_args
        manifest.write_text(yaml.safe_dump(hooks))
    for step in (("init", "-q"), ("add", "-A"), ("commit", "-q", "-m", "the checkout")):
        assert run("git", *step, cwd=target).returncode == 0
    return run("git", "rev-parse", "HEAD", cwd=target).stdout.strip()


def user_repository(folder: Path) -> Path:
    folder.mkdir()
    for name, source in (("good", GOOD), ("bad", BAD)):
        (folder / name).mkdir()
        (folder / name / "metric.py").write_text(source)
    (folder / "cases.csv").write_text("text,label,prediction\nhello,greeting,greeting\n")
    assert run("git", "init", "-q", cwd=folder).returncode == 0
    return folder


@pytest.fixture(scope="module")
def hooked(tmp_path_factory) -> tuple[Path, Path]:
    """A user's repository whose .pre-commit-config.yaml uses the hook; pre-commit's store."""
    root = tmp_path_factory.mktemp("pre_commit")
    revision = committed_copy(root / "checkout")
    user = user_repository(root / "user")
    config = {
        "repos": [
            {
                "repo": str(root / "checkout"),
                "rev": revision,
                "hooks": [{"id": "skynet-check", "args": HOOK_ARGS}],
            }
        ]
    }
    (user / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    assert run("git", "add", "-A", cwd=user).returncode == 0
    return user, root / "store"


def pre_commit(user: Path, store: Path, *files: str) -> subprocess.CompletedProcess:
    return run("pre-commit", "run", "--files", *files, cwd=user, PRE_COMMIT_HOME=str(store))


def test_the_hook_passes_a_good_metric(hooked):
    done = pre_commit(*hooked, "good/metric.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "skynet-check" in done.stdout and "Passed" in done.stdout


def test_the_hook_fails_a_bad_metric_and_checks_every_file_given(hooked):
    done = pre_commit(*hooked, "good/metric.py", "bad/metric.py")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    # Both files were checked, one by one, in one call: the good one passed.
    good_at, bad_at = done.stdout.index("==> good/metric.py <=="), done.stdout.index("==> bad")
    assert good_at < done.stdout.index("Contract check passed") < bad_at
    assert "Contract check failed" in done.stdout[bad_at:]


def test_the_hook_runs_only_for_metric_files(hooked):
    done = pre_commit(*hooked, "cases.csv")
    assert done.returncode == 0
    assert "(no files to check)Skipped" in done.stdout.replace(".", "")


def test_try_repo_against_the_checkout_passes_a_good_metric_and_fails_a_bad_one(tmp_path):
    copy = tmp_path / "checkout"
    committed_copy(copy, hook_args=HOOK_ARGS)
    user = user_repository(tmp_path / "user")
    # Each try-repo builds the hook's environment in a fresh store of its own (half a
    # minute): one call, both metrics, each checked and reported in turn.
    both = run(
        "pre-commit",
        "try-repo",
        copy,
        "skynet-check",
        "--files",
        "good/metric.py",
        "bad/metric.py",
        cwd=user,
    )
    assert both.returncode == 1, both.stdout + both.stderr
    assert "Failed" in both.stdout
    good_at, bad_at = both.stdout.index("==> good/metric.py <=="), both.stdout.index("==> bad")
    assert good_at < both.stdout.index("Contract check passed") < bad_at
    assert "Contract check failed" in both.stdout[bad_at:]
    assert "Metric return value" in both.stdout[bad_at:]
