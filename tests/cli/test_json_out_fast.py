"""``strict_document`` walks only what may hold a NaN or an infinity: ``--json`` prints the
same bytes as the walk over every value did (issue 26; ``benchmarks/bench_export.py``)."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import pytest

from skynet_jupyter.cli import json_out
from skynet_jupyter.cli.json_out import strict_document, strict_json
from skynet_jupyter.core.report import CaseResult, CheckReport


def _walked_document(report: Any) -> dict[str, Any]:
    """``strict_document`` as it was: every value of the document walked (the reference)."""
    document = report.to_dict()
    found: dict[str, str] = {}
    for number, case in enumerate(report.cases):
        for key in ("input", "expected", "output", "scores", "score"):
            json_out._note_non_finite(getattr(case, key, None), f"/cases/{number}/{key}", found)
    document = json_out._replace_non_finite(document, "", found)
    document["non_finite"] = dict(sorted(found.items()))
    return document


def _plain_cases(count: int) -> list[CaseResult]:
    labels = ("billing", "technical", "other")
    return [
        CaseResult(i, {"text": f"ticket {i}"}, {"label": labels[i % 3]}, labels[(2 * i) % 3],
                   float(i % 2), "Correct." if i % 2 else "Wrong.",
                   {"accuracy": float(i % 2), "speed": 0.5}, None, metric_ms=0.01)
        for i in range(count)
    ]  # fmt: skip


def _assert_same_bytes(report: Any) -> None:
    fast, walked = strict_document(report), _walked_document(report)
    assert strict_json(fast) == strict_json(walked)
    assert list(fast) == list(walked)


@pytest.mark.parametrize("run", [2_048, 3])
def test_strict_document_gives_the_walked_bytes(monkeypatch, run):
    monkeypatch.setattr(json_out, "_RUN", run)  # runs of 3: plain and odd runs side by side
    cases = _plain_cases(30)
    _assert_same_bytes(CheckReport(steps=[], cases=cases))
    # Odd values where the walk finds or changes something, each in its own run.
    cases[1].metric_ms = math.nan  # a raw field: only the document walk nulls it
    cases[4].cost_usd = -math.inf
    cases[7].input = {"x": math.nan, "deep": [1.0, {"y": math.inf}], "t": (1, 2)}
    cases[10].scores = {"accuracy": math.inf}
    cases[13].output = [math.nan, "a"]
    cases[16].score = math.nan
    cases[19].expected = {"label": float("-inf")}
    cases[22].run_ms = (1.0, 2.0)  # a tuple in a raw field: a list in the document
    cases[25].judge_cost_usd = {"a": math.nan}
    cases[28].retries = 2**70
    report = CheckReport(steps=[], cases=cases)
    _assert_same_bytes(report)
    found = strict_document(report)["non_finite"]
    assert found["/cases/1/metric_ms"] == "NaN" and found["/cases/4/cost_usd"] == "-Infinity"
    assert found["/cases/7/input/deep/1/y"] == "Infinity"
    assert found["/cases/25/judge_cost_usd/a"] == "NaN"


def test_strict_document_of_a_duck_typed_report_is_the_walked_one():
    case = SimpleNamespace(input={"a/b": math.nan}, expected=None, output=(1.0, math.nan))
    report = SimpleNamespace(
        cases=[case, SimpleNamespace()],
        to_dict=lambda: {"mean_score": math.nan, "cases": [{"m": math.inf}, ["x", math.nan]]},
    )
    _assert_same_bytes(report)
    no_cases = SimpleNamespace(cases=[], to_dict=lambda: {"mean_scores": {"a": math.inf}})
    _assert_same_bytes(no_cases)
