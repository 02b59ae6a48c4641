"""The CI examples in examples/ci: their commands run here, as the jobs would run them.

The YAML itself needs GitHub's or GitLab's runners and cannot run in the test suite;
what it runs can.  The install step (``pip install .``) is the one command not run:
this checkout is what the tests import already, and installing it again would change
the environment every other test runs in.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.cli.in_process_support import assert_valid_junit
from tests.cli_support import checkout_env
from tests.conftest import EXAMPLES, ROOT, require_module

yaml = require_module("yaml")

CI = EXAMPLES / "ci"
INSTALL = "pip install ."


def github_commands() -> list[str]:
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text())
    (job,) = workflow["jobs"].values()
    return [step["run"] for step in job["steps"] if "run" in step]


def gitlab_commands() -> list[str]:
    return yaml.safe_load((CI / "gitlab-ci.yml").read_text())["skynet-check"]["script"]


def run_in_a_checkout(commands: list[str], folder: Path) -> list[subprocess.CompletedProcess]:
    """The commands in ``folder``, where the repository's examples/ are, in order."""
    (folder / "examples").symlink_to(ROOT / "examples")
    assert commands[0] == INSTALL, commands  # the package from the checkout, then its use
    return [
        subprocess.run(
            ["bash", "-c", command],
            cwd=folder,
            env=checkout_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        for command in commands[1:]
    ]


@pytest.mark.parametrize("commands", [github_commands, gitlab_commands], ids=["github", "gitlab"])
def test_the_jobs_commands_pass_and_write_the_junit_report(commands, tmp_path):
    done = run_in_a_checkout(commands(), tmp_path)
    assert [step.returncode for step in done] == [0] * len(done), [s.stderr for s in done]
    root = assert_valid_junit((tmp_path / "reports" / "skynet-check.xml").read_text())
    (suite,) = root
    assert suite.get("name") == "examples/metric.py" and suite.get("failures") == "0"


def test_the_github_job_annotates_the_log():
    (step,) = [command for command in github_commands() if "skynet-check" in command]
    assert "--format github" in step and "--junit-xml reports/skynet-check.xml" in step
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text())
    (job,) = workflow["jobs"].values()
    (report,) = [s for s in job["steps"] if "junit" in s.get("uses", "")]
    assert report["if"] == "always()" and report["with"]["report_paths"] == (
        "reports/skynet-check.xml"
    )


def test_the_pre_commit_example_uses_the_hook_id_and_gives_only_options():
    config = yaml.safe_load((CI / "pre-commit-config.yaml").read_text())
    (repo,) = config["repos"]
    (hook,) = repo["hooks"]
    assert hook["id"] == "skynet-check"
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["skynet-check"]
    assert all(arg.startswith("--") for arg in hook["args"][::2])  # options, no metric file


def test_the_hook_manifest_says_beside_its_files_line_that_it_is_the_one_to_change():
    # Issue 44, item 11: the hook checks files named exactly metric.py; a my_metric.py is
    # checked once that one line matches it, and the line says so where it stands.
    lines = (ROOT / ".pre-commit-hooks.yaml").read_text().splitlines()
    (at,) = [number for number, line in enumerate(lines) if line.strip().startswith("files:")]
    comment = " ".join(line.strip("# ") for line in lines[at - 3 : at])
    assert "the one line to change" in comment and "my_metric.py" in comment
    hooks = yaml.safe_load("\n".join(lines))
    assert re.search(hooks[0]["files"], "proj/metric.py")
    assert not re.search(hooks[0]["files"], "proj/my_metric.py")
