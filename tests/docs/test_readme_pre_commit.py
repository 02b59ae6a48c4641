"""The README's pre-commit block works as a reader copies it (issue 36, item 10).

The block is read from README.md as written; only its ``repo:`` URL is replaced by a
local copy of this checkout (tests/cli/test_pre_commit.py's ``committed_copy``), which
carries the names this repository has (its branches and tags, each at the copy's
commit): a ``rev`` this repository does not have, such as a tag never made, fails
here as it fails for the reader.  Then ``pre-commit autoupdate``, as the README says,
and the hook runs again at the pinned ``rev``.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.conftest import ROOT, require_module

require_module("pre_commit")
yaml = require_module("yaml")

from tests.cli.test_pre_commit import committed_copy, run, user_repository  # noqa: E402

README = ROOT / "README.md"


def readme_pre_commit_block() -> tuple[str, str]:
    """The yaml block of the README's pre-commit item, and the prose after it."""
    text = README.read_text(encoding="utf-8")
    start = text.index("- **pre-commit**")
    found = re.search(r"```yaml\n(?P<code>.*?)\n\s*```\n(?P<after>.*?)\n\n", text[start:], re.S)
    assert found, "the README's pre-commit item has no yaml block"
    code = "\n".join(
        line[2:] if line.startswith("  ") else line for line in found["code"].split("\n")
    )
    return code, found["after"]


def repository_names() -> set[str]:
    """This repository's branch and tag names (a CI clone's remote branches too)."""
    listed = subprocess.run(
        [
            "git",
            "-C",
            str(ROOT),
            "for-each-ref",
            "--format=%(refname)",
            "refs/heads",
            "refs/tags",
            "refs/remotes",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.split()
    names = set()
    for ref in listed:
        for prefix in ("refs/heads/", "refs/tags/", "refs/remotes/origin/"):
            if ref.startswith(prefix) and not ref.endswith("/HEAD"):
                names.add(ref.removeprefix(prefix))
    return names


def repository_tags() -> set[str]:
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "tag", "--list"], capture_output=True, text=True, timeout=60
    )
    return set(listed.stdout.split())


def test_the_block_names_a_rev_this_repository_has_or_says_to_autoupdate():
    code, after = readme_pre_commit_block()
    (repo,) = yaml.safe_load(code)["repos"]
    rev = str(repo["rev"])
    assert re.fullmatch(r"[0-9a-f]{40}", rev) or rev in repository_names(), (
        f"README's pre-commit rev {rev!r} is not a commit, branch or tag of this repository"
    )
    assert "pre-commit autoupdate" in code + after
    assert "63 s" in after, "say how long the first run takes (it builds a virtualenv)"


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_block_as_written_then_autoupdate_passes_a_good_metric(tmp_path):
    checkout = tmp_path / "checkout"
    head = committed_copy(checkout)
    current = run("git", "symbolic-ref", "--short", "HEAD", cwd=checkout).stdout.strip()
    tags = repository_tags()
    for name in repository_names() - {current}:  # the names a reader's `rev` can take
        kind = "tag" if name in tags else "branch"
        assert run("git", kind, "-f", name, head, cwd=checkout).returncode == 0
    user = user_repository(tmp_path / "user")
    code, _ = readme_pre_commit_block()
    config = yaml.safe_load(code)
    config["repos"][0]["repo"] = str(checkout)  # the only change: where the repository is
    (user / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    assert run("git", "add", "-A", cwd=user).returncode == 0
    store = str(tmp_path / "store")

    first = run("pre-commit", "run", "--files", "good/metric.py", cwd=user, PRE_COMMIT_HOME=store)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "skynet-check" in first.stdout and "Passed" in first.stdout

    updated = run("pre-commit", "autoupdate", cwd=user, PRE_COMMIT_HOME=store)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    pinned = yaml.safe_load((user / ".pre-commit-config.yaml").read_text())["repos"][0]["rev"]
    assert pinned in (head, *tags), f"autoupdate pinned {pinned!r}, not the newest commit {head}"

    again = run("pre-commit", "run", "--files", "good/metric.py", cwd=user, PRE_COMMIT_HOME=store)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Passed" in again.stdout
