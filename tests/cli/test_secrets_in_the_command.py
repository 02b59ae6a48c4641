"""skynet-check prints no secret of its environment (moved from tests/core/test_secrets.py).

The key and the password are the test's own (``fresh()``), given to the command through
the one runner's environment rule (tests/cli_support.py), which removes the developer's.
"""

from __future__ import annotations

import json
import uuid

import pytest

from tests.cli_support import skynet_check


def fresh(name: str) -> str:
    """A secret no other test (nor any pattern) knows (as tests/core/test_secrets.py makes them)."""
    return f"{name}{uuid.uuid4().hex[:12]}"


METRIC_FILE = """
import os

def score(input, output, expected=None):
    key = os.environ["OPENAI_API_KEY"]
    base = os.environ["OPENAI_API_BASE"]
    password = base.split(":")[2].split("@")[0]
    if input["text"].startswith("I was"):
        raise RuntimeError(f"provider said: bad key {key}, bad password {password}")
    return 1.0, {"feedback": f"scored with {key} via {base}"}
"""


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_the_cli_prints_no_environment_secret(tmp_path, tickets, as_json):
    key, password = fresh("sk-cli-"), fresh("PASS")
    (tmp_path / "metric.py").write_text(METRIC_FILE, encoding="utf-8")
    (tmp_path / "cases.jsonl").write_text(
        "\n".join(json.dumps(row) for row in tickets), encoding="utf-8"
    )
    env = {"OPENAI_API_KEY": key, "OPENAI_API_BASE": f"http://alice:{password}@127.0.0.1:9/v1"}
    args = [tmp_path / "metric.py", "--data", tmp_path / "cases.jsonl", "--outputs", "label"]
    done = skynet_check(
        *args, "--output-column", "label", *(["--json"] if as_json else []), env=env
    )
    assert done.returncode == 1, done.stderr
    printed = done.stdout + done.stderr
    assert key not in printed and password not in printed
    if as_json:
        document = json.loads(done.stdout)
        first, second = document["cases"][:2]
        assert "bad key [redacted], bad password [redacted]" in first["error"]
        assert "[redacted]" in second["feedback"]
    else:
        assert "bad key [redacted], bad password [redacted]" in done.stdout
