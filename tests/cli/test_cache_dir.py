"""skynet-check --cache-dir DIR: the run cache in DIR/runs.sqlite (issue 23).

Without it every model call is made (a CI run measures the models); with it a
second run asks the loopback server nothing, for the task model and the judge.
"""

from __future__ import annotations

import json

import pytest

from tests.cli.test_models import JUDGE, JUDGED, ROWS, RUN, TASK, answer, check_args, command
from tests.openai_server import OpenAIServer


@pytest.fixture
def server():
    with OpenAIServer(reply=answer) as running:
        yield running


def test_a_second_run_with_the_same_cache_dir_asks_nothing(server, tmp_path):
    (tmp_path / "metric.py").write_text(JUDGED, encoding="utf-8")
    (tmp_path / "run.py").write_text(RUN, encoding="utf-8")
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    models = ["--task-model", f"openai/{TASK}", "--metric-model", f"openai/{JUDGE}"]
    args = [
        *check_args(tmp_path, "--artifact-text", "Label it.", *models),
        "--api-base",
        server.base_url,
        "--json",
    ]
    first = command(*args, "--cache-dir", str(tmp_path / "cache"))
    assert first.returncode == 0, first.stderr
    asked = len(server.requests)
    assert asked == 2 * len(ROWS)  # the run's call and the judge's, per case
    again = command(*args, "--cache-dir", str(tmp_path / "cache"))
    assert again.returncode == 0, again.stderr
    assert len(server.requests) == asked
    cases = json.loads(again.stdout)["cases"]
    assert [case["cached"] for case in cases] == [True] * len(ROWS)
    assert (tmp_path / "cache" / "runs.sqlite").is_file()
    uncached = command(*args)  # no --cache-dir: every call is made
    assert uncached.returncode == 0, uncached.stderr
    assert len(server.requests) == 2 * asked
