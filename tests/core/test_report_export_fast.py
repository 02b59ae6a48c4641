"""``to_frame`` built a column at a time and ``to_dict`` with its fast paths give what the
row-by-row builds gave (issue 26: the same output, faster; ``benchmarks/bench_export.py``)."""

from __future__ import annotations

import math

import pandas as pd

from skynet_jupyter.core.report import CaseResult, CheckReport
from skynet_jupyter.core.secrets import REDACTED, Redactor


def _row_wise_frame(report: CheckReport) -> pd.DataFrame:
    """The DataFrame as ``to_frame`` built it before: one dict per case."""
    rows = []
    for case in report.cases:
        row = {
            "case": case.index, "input": case.input, "expected": case.expected,
            "output": case.output, "score": case.score, "feedback": case.feedback,
            "passed": case.passed, "failed_step": case.failed_step, "error": case.error,
            "metric_ms": case.metric_ms, "run_ms": case.run_ms, "cost_usd": case.cost_usd,
            "judge_cost_usd": case.judge_cost_usd, "cached": case.cached,
            "retries": case.retries, "stand_in_calls": case.stand_in_calls,
        }  # fmt: skip
        for name, value in case.scores.items():
            row[f"scores.{name}"] = value
        rows.append(row)
    return pd.DataFrame(rows).set_index("case") if rows else pd.DataFrame()


def _mixed_cases() -> list[CaseResult]:
    cases = []
    for i in range(9):
        scores = {"acc": i / 8, "flag": True} if i % 2 else {"other": 0.5, "flag": False}
        if i == 4:
            scores = {}
        cases.append(
            CaseResult(
                i, {"text": f"t{i}", "n": i}, {"label": "x"} if i % 3 else None,
                None if i == 5 else f"out {i}", None if i == 5 else i / 9, "fb", scores, None,
                error="boom" if i == 5 else None, failed_step="run" if i == 5 else None,
                metric_ms=0.1 if i % 2 else None, run_ms=2.0 if i == 1 else None,
                cost_usd=0.001 if i == 2 else None, retries=1 if i == 3 else 0,
            )
        )  # fmt: skip
    return cases


def test_to_frame_is_the_row_wise_frame():
    for cases in (_mixed_cases(), _mixed_cases()[:1], [], [CaseResult(0, {}, None, "o", 1.0)]):
        report = CheckReport(steps=[], cases=cases)
        pd.testing.assert_frame_equal(report.to_frame(), _row_wise_frame(report))


def test_to_dict_keeps_types_redaction_and_odd_values():
    secret = "sk-abcdefghijklmnop1234"
    cases = _mixed_cases()
    cases[0].input = {"text": f"key {secret}", 3: math.inf, "nested": {"deep": [1, "x"]}}
    cases[1].output = math.nan
    cases[2].feedback = f"Bearer {secret}"
    report = CheckReport(steps=[], cases=cases)
    first, second = report.to_dict()["cases"][:2]
    assert first["input"] == {"text": f"key sk-{REDACTED}", "3": None, "nested": {"deep": [1, "x"]}}
    assert second["output"] is None
    assert report.to_dict()["cases"][2]["feedback"] == f"Bearer {REDACTED}"
    assert secret not in repr(report.to_dict())


def test_a_redactor_gives_the_same_answer_the_second_time():
    clean = Redactor(["s3cret-value"])
    for text in ("plain", "token=abcdef123", "it is s3cret-value", "x" * 300 + " api_key=zzzzzz"):
        assert clean(text) == clean(text) == Redactor(["s3cret-value"])(text)
    assert "s3cret-value" not in clean("it is s3cret-value")

    class Odd(str):
        def __hash__(self) -> int:
            raise TypeError("unhashable on purpose")

    assert clean(Odd("token=abcdef123")) == f"token={REDACTED}"
