"""``.ci/run`` refuses what it does not understand before it installs anything (found by
the attack on issue 45: ``--latest --bogus`` ran the newest build and dropped
``--bogus``; ``SKYNET_CI_LATEST=true`` ran the locked one; an empty argument passed)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

CI_RUN = Path(__file__).resolve().parents[2] / ".ci" / "run"


@pytest.mark.parametrize(
    ("args", "latest", "said"),
    [
        (["--latest", "--bogus"], None, "one argument at most"),
        ([""], None, "empty argument"),
        (["--bogus"], None, "takes no argument but --latest"),
        ([], "maybe", "SKYNET_CI_LATEST is 'maybe'"),
    ],
)
def test_an_argument_it_does_not_take_is_refused_with_exit_2(args, latest, said):
    env = {k: v for k, v in os.environ.items() if k != "SKYNET_CI_LATEST"}
    if latest is not None:
        env["SKYNET_CI_LATEST"] = latest
    done = subprocess.run(
        ["bash", str(CI_RUN), *args], env=env, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert said in done.stderr
    assert "==" not in done.stdout  # refused before it said what it runs
