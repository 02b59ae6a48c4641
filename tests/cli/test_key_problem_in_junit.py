"""A refused key, found by the run, is filed in JUnit under the run's setup, never under
"Metric loads": the metric loaded (found by the attack on issue 43, rule 1 on
``skynet-check --junit-xml``)."""

from __future__ import annotations

import json

from tests.cli_support import skynet_check
from tests.openai_server import OpenAIServer

JUDGED = """from skynet import llm


def score(input, output, expected=None):
    verdict = llm("Answer PASS or FAIL.", input=str(output))
    return (1.0 if verdict.startswith("PASS") else 0.0), {"feedback": verdict}
"""
KEY = "sk-junit-REFUSED-1234567890abcdef"


def test_a_refused_key_is_the_runs_failure_in_junit_not_the_metrics(tmp_path):
    (tmp_path / "metric.py").write_text(JUDGED)
    rows = [{"q": str(i), "a": "1", "pred": "1"} for i in range(3)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    with OpenAIServer() as server:
        server.reject_keys = {KEY}
        done = skynet_check(
            "metric.py", "--data", "cases.jsonl", "--outputs", "a", "--output-column", "pred",
            "--metric-model", "openai/gpt-4o-mini", "--api-base", server.base_url,
            "--junit-xml", "out.xml",
            cwd=tmp_path, env={"OPENAI_API_KEY": KEY},
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    xml = (tmp_path / "out.xml").read_text()
    assert "refused the API key" in xml
    assert "Metric loads" not in xml and 'type="run_configuration"' in xml
    assert KEY not in xml
