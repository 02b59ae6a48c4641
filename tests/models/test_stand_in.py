"""A stand-in replies exactly what it is told; reports say which calls it answered.

The docs' judge example (``verdict.startswith("PASS")``) with the documented
offline ``sj.StandInModel("PASS")`` must score like a real PASS, and nothing
may let an offline verdict pass for a real model's.
"""

from __future__ import annotations

import json

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.json_export import json_ready
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.show.render import report_text

DOCS_JUDGE = """
from skynet import llm

def score(input, output, expected=None):
    verdict = llm("Answer PASS or FAIL, then give one sentence of reasons.",
                  input=f"Question: {input['question']}\\nAnswer: {output}")
    ok = verdict.strip().upper().startswith("PASS")
    return (1.0 if ok else 0.0), {"feedback": verdict}
"""
ROWS = [
    {"question": "2+2?", "answer": "4"},
    {"question": "Capital of France?", "answer": "Paris"},
]


@pytest.fixture(autouse=False)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())


def test_the_docs_judge_example_scores_with_the_documented_stand_in(offline: None) -> None:
    sj.configure(metric_model=sj.StandInModel("PASS"))
    report = sj.check(DOCS_JUDGE, ROWS, output_column="answer", lang="en")
    assert report.passed
    assert [case.score for case in report.cases] == [1.0, 1.0]
    assert [case.feedback for case in report.cases] == ["PASS", "PASS"]
    assert [case.stand_in_calls for case in report.cases] == [1, 1]
    text = report_text(report, width=0)
    assert "2 model calls answered by an offline stand-in, not by a real model" in text
    assert "answered by an offline stand-in" in report._repr_html_()
    assert json.loads(json.dumps([json_ready(c) for c in report.cases]))[0]["stand_in_calls"] == 1
    assert report.to_frame()["stand_in_calls"].tolist() == [1, 1]


def test_a_real_model_leaves_no_stand_in_mark(offline: None) -> None:
    sj.configure(metric_model=lambda instructions, input: "PASS. Fine.")
    report = sj.check(DOCS_JUDGE, ROWS, output_column="answer", lang="fr")
    assert report.passed and report.stand_in_calls == 0
    assert "substitut" not in report_text(report, width=0)
