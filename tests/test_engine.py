"""check / evaluate: cases, copies, limits, failures, interruption, events, cache."""

from __future__ import annotations

import _thread
import copy
import json
import threading
import time

import pytest

import skynet_jupyter as sj
from skynet_jupyter import CaseFinished, CaseStarted, Finished, RunCache
from skynet_jupyter.dataset import load_cases


def exact(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}."}


def always_billing(artifact, case_input):
    return "billing"


def test_check_runs_three_cases_and_reports_every_step(tickets):
    report = sj.check(exact, tickets, outputs="label", run=always_billing)
    assert isinstance(report, sj.CheckReport)
    assert report.passed
    assert [c.index for c in report.cases] == [0, 1, 2]
    assert [s.id for s in report.steps] == [
        "metric_loads",
        "metric_signature",
        "reward_spec",
        "run_function",
        "metric_return_value",
        "metric_time_limit",
    ]
    assert [c.score for c in report.cases] == [1.0, 0.0, 0.0]
    assert report.cases[1].feedback == "Expected 'technical', got 'billing'."
    assert report.cases[0].run_ms is not None and report.cases[0].metric_ms is not None
    assert report.mean_score == pytest.approx(1 / 3)


def test_cases_option_and_random_sample(tickets):
    assert len(sj.check(exact, tickets, outputs="label", run=always_billing, cases=5).cases) == 5
    report = sj.check(exact, tickets, outputs="label", run=always_billing, sample="random", seed=1)
    assert len(report.cases) == 3


def test_the_metric_gets_copies_and_the_callers_data_is_unchanged():
    rows = [
        {"text": "a", "meta": {"tags": ["x"]}, "label": "billing"},
        {"text": "b", "meta": {"tags": ["y"]}, "label": "other"},
    ]
    before = copy.deepcopy(rows)

    def vandal(input, output, expected=None):
        input["meta"]["tags"].append("vandal")
        input["text"] = None
        expected["label"] = "changed"
        output.append("mutated")
        return 1.0, {"feedback": "ok"}

    report = sj.check(vandal, rows, outputs="label", run=lambda a, i: ["out"])
    assert report.passed
    assert rows == before
    assert report.cases[0].input == {"text": "a", "meta": {"tags": ["x"]}}
    assert report.cases[0].output == ["out"]
    again = sj.check(vandal, rows, outputs="label", run=lambda a, i: ["out"])
    assert again.passed and rows == before


@pytest.mark.parametrize("timeout", [0, 0.5, 601, "60", None])
def test_timeout_out_of_range_is_refused_before_anything_runs(timeout, tickets):
    calls = []

    def run(artifact, case_input):
        calls.append(1)
        return "x"

    with pytest.raises(ValueError, match="timeout must be between 1 and 600"):
        sj.check(exact, tickets, outputs="label", run=run, timeout=timeout)
    assert calls == []


def test_a_hung_metric_fails_its_case_near_the_limit_and_the_check_goes_on(tickets):
    def hangs_on_second(input, output, expected=None):
        if input["text"].startswith("The app"):
            time.sleep(30)
        return 1.0, {"feedback": "ok"}

    started = time.perf_counter()
    report = sj.check(hangs_on_second, tickets, outputs="label", run=always_billing, timeout=1)
    elapsed = time.perf_counter() - started
    assert 1.0 <= elapsed < 4  # about the limit, far from the 30 s the metric sleeps
    assert [c.failed_step for c in report.cases] == [None, "metric_time_limit", None]
    assert "1 s metric time limit" in report.cases[1].error
    step = report.step("metric_time_limit")
    assert not step.passed and step.cases == (1,)
    assert not report.passed


def test_a_runaway_loop_is_stopped(tickets):
    def spins(input, output, expected=None):
        while True:
            pass

    before = threading.active_count()
    report = sj.check(spins, tickets, outputs="label", run=always_billing, timeout=1, cases=1)
    assert report.cases[0].failed_step == "metric_time_limit"
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before  # the spinning worker was ended


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("raise ZeroDivisionError('division by zero')", "score raised ZeroDivisionError"),
        ("import sys; sys.exit(2)", "sys.exit(2)"),
        ("return score(input, output, expected)", "recursed without end"),
        ("return undefined_helper(output)", "define or import 'undefined_helper'"),
    ],
)
def test_a_failing_metric_fails_its_own_case_only(body, says, tickets):
    source = (
        "def score(input, output, expected=None):\n"
        "    if expected['label'] == 'technical':\n"
        f"        {body}\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )
    report = sj.check(source, tickets, outputs="label", run=always_billing)
    assert [c.passed for c in report.cases] == [True, False, True]
    failed = report.cases[1]
    assert failed.failed_step == "metric_return_value"
    assert says in failed.error
    assert failed.traceback and "<skynet_metric default>" in failed.traceback
    assert "engine.py" not in failed.traceback


def test_a_failing_run_function_fails_at_run_function(tickets):
    def run(artifact, case_input):
        if "twice" in case_input["text"]:
            raise KeyError("model_name")
        return "billing"

    report = sj.check(exact, tickets, outputs="label", run=run)
    assert report.cases[0].failed_step == "run_function"
    assert "KeyError" in report.cases[0].error
    assert report.step("run_function").status == "failed"
    assert report.cases[1].passed


def test_interrupt_returns_what_finished(tickets):
    def slow(input, output, expected=None):
        time.sleep(0.3)
        return 1.0, {"feedback": "ok"}

    threading.Timer(0.45, _thread.interrupt_main).start()
    report = sj.evaluate(slow, tickets * 4, outputs="label", run=always_billing, concurrency=1)
    assert report.interrupted and not report.passed
    assert 1 <= len(report.cases) < 20
    assert "Interrupted" in str(report)


def test_events_arrive_in_order_in_the_calling_thread(tickets):
    seen = []
    caller = threading.get_ident()

    def listen(event):
        assert threading.get_ident() == caller
        seen.append(event)

    report = sj.check(exact, tickets, outputs="label", run=always_billing, on_event=listen)
    kinds = [type(e) for e in seen]
    assert kinds.count(CaseStarted) == 3 and kinds.count(CaseFinished) == 3
    assert isinstance(seen[-1], Finished) and seen[-1].report is report
    finished = [e for e in seen if isinstance(e, CaseFinished)]
    assert [e.done for e in finished] == [1, 2, 3] and finished[-1].total == 3


def test_evaluate_runs_every_case_concurrently_and_sorts_worst_first(tickets):
    rows = tickets * 10

    def sleepy(input, output, expected=None):
        time.sleep(0.02)
        return exact(input, output, expected)

    started = time.perf_counter()
    report = sj.evaluate(sleepy, rows, outputs="label", run=always_billing, concurrency=10)
    assert time.perf_counter() - started < 0.02 * 50 / 2
    assert isinstance(report, sj.EvalReport)
    assert [c.index for c in report.cases] == list(range(50))
    assert report.mean_score == pytest.approx(0.4)
    assert report.worst()[0].score == 0.0
    with pytest.raises(ValueError, match="concurrency"):
        sj.evaluate(exact, rows, outputs="label", run=always_billing, concurrency=0)


def test_run_cache_skips_the_run_on_a_recheck(tickets):
    calls = []

    def run(artifact, case_input):
        calls.append(case_input["text"])
        return "billing"

    cache = RunCache()
    first = sj.check(exact, tickets, outputs="label", run=run, artifact="p1", run_cache=cache)
    second = sj.check(exact, tickets, outputs="label", run=run, artifact="p1", run_cache=cache)
    assert len(calls) == 3
    assert [c.output for c in second.cases] == [c.output for c in first.cases]
    assert all(c.cached for c in second.cases)
    assert [c.run_ms for c in second.cases] == [c.run_ms for c in first.cases]
    sj.check(exact, tickets, outputs="label", run=run, artifact="p2", run_cache=cache)
    assert len(calls) == 6  # another artifact is another run


def test_run_and_output_column_are_exclusive_and_one_is_needed(tickets):
    with pytest.raises(sj.DataError, match="not both"):
        sj.check(exact, tickets, outputs="label", run=always_billing, output_column="text")
    with pytest.raises(sj.DataError, match="No outputs"):
        sj.check(exact, tickets, outputs="label")


def test_run_case_is_one_call(tickets):
    (case, *_) = load_cases(tickets, outputs="label")
    result = sj.run_case(exact, case, always_billing)
    assert result.score == 1.0 and result.feedback == "Correct."


def test_reports_escape_hostile_text_and_serialise(tickets):
    hostile = '<img src=x onerror="window.__pwned=1">'

    def metric(input, output, expected=None):
        return 0.5, {"feedback": hostile, "scores": {"format": 1.0}}

    report = sj.check(metric, tickets, outputs="label", run=lambda a, i: "<b>bold</b>")
    html = report._repr_html_()
    assert hostile not in html and "&lt;img src=x onerror=&quot;" in html
    assert "<b>bold</b>" not in html
    assert hostile in str(report)  # plain text keeps the text as it is
    document = json.loads(json.dumps(report.to_dict()))
    assert document["passed"] is True
    assert document["cases"][0]["feedback"] == hostile
    frame = report.to_frame()
    assert list(frame["scores.format"]) == [1.0, 1.0, 1.0]


def test_report_language(tickets):
    report = sj.check(lambda i, o, e: 0.5, tickets, outputs="label", run=always_billing, lang="fr")
    assert report.step("metric_return_value").title == "Valeur de retour de la métrique"
    report = sj.check(exact, tickets, outputs="label", run=always_billing, lang="pt")
    assert report.step("metric_return_value").title == "Valor devolvido pela métrica"


def test_skynet_language_from_the_environment(tickets, monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "fr")
    report = sj.check(exact, tickets, outputs="label", run=always_billing)
    assert report.lang == "fr"
