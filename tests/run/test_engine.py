"""check / evaluate: cases, copies, limits, failures, interruption, events, cache."""

from __future__ import annotations

import _thread
import copy
import inspect
import json
import math
import random
import threading
import time

import pytest

import skynet_jupyter as sj
from skynet_jupyter import CaseFinished, CaseStarted, Finished, ModelReply, ModelSettings, RunCache
from skynet_jupyter.core.dataset import Case, load_cases, pick_cases
from skynet_jupyter.core.options import Limits
from skynet_jupyter.helper.skynet import llm, observation
from skynet_jupyter.run.one_case import Deadline
from tests.openai_server import OpenAIServer
from tests.served_models import ask_run, asks, task_models


def exact(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}."}


def always_billing(artifact, case_input):
    return "billing"


@pytest.fixture
def server():
    """The loopback OpenAI server: the run cache's tests count the requests it got."""
    with OpenAIServer() as fresh:
        yield fresh


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
        "feedback_advice",  # always there: "no advice" passes
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
        (
            "raise ZeroDivisionError('division by zero')",
            "score raised before returning: ZeroDivisionError: division by zero",
        ),
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


def test_interrupt_returns_what_finished(tickets, ctrl_c):
    def slow(input, output, expected=None):
        time.sleep(0.3)
        return 1.0, {"feedback": "ok"}

    threading.Timer(0.45, _thread.interrupt_main).start()
    report = sj.evaluate(slow, tickets * 4, outputs="label", run=always_billing, concurrency=1)
    assert report.interrupted and not report.passed
    assert 1 <= len(report.cases) < 20
    # One at a time: what finished is the first cases, each with its real result.
    assert sorted(c.index for c in report.cases) == list(range(len(report.cases)))
    assert {(c.score, c.feedback) for c in report.cases} == {(1.0, "ok")}
    assert report.total_cases == 20
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


@pytest.mark.alone  # 50 waits of 0.02 s, 10 at a time, timed against 0.5 s
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


def test_run_cache_answers_a_rechecks_model_calls(tickets, server):
    # Issue 23: run runs every time; its model calls are what the cache answers.
    calls = []

    def run(artifact, case_input):
        calls.append(case_input["text"])
        return ask_run(artifact, case_input)

    cache = RunCache()
    models = task_models(server)
    first = sj.check(
        exact, tickets, outputs="label", run=run, artifact="p1", run_cache=cache, models=models
    )
    second = sj.check(
        exact, tickets, outputs="label", run=run, artifact="p1", run_cache=cache, models=models
    )
    assert len(calls) == 6 and asks(server) == 3  # run ran again; the model was not asked
    assert [c.output for c in second.cases] == [c.output for c in first.cases]
    assert all(c.cached for c in second.cases)
    assert [c.measured.cached_calls for c in second.cases] == [1, 1, 1]
    latencies = [cache.store[key].latency_ms for key in cache.store]
    assert all(c.run_ms >= min(latencies) for c in second.cases)  # the call's time then
    sj.check(
        exact, tickets, outputs="label", run=run, artifact="p2", run_cache=cache, models=models
    )
    assert asks(server) == 6  # another artifact is another request


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
    # Escaped; a long value may carry <wbr> break points (issue 36), which are not text.
    assert hostile not in html and "&lt;img src=x onerror=&quot;" in html.replace("<wbr>", "")
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


# --- two-argument metrics -------------------------------------------------------------


def two_args(input, output):
    """A metric without expected: scores the output on its own."""
    ok = output == "billing" and "charge" in input["text"]
    return (1.0 if ok else 0.25), {
        "feedback": f"{output} for {input['text']}",
        "scores": {"length": len(input["text"]) / 100},
    }


def test_a_two_argument_metric_is_called_with_input_and_output_in_check(tickets):
    report = sj.check(two_args, tickets, outputs="label", run=always_billing)
    assert report.passed, report
    assert [c.score for c in report.cases] == [1.0, 0.25, 0.25]
    assert report.cases[0].feedback == "billing for I was charged twice."
    assert [c.scores for c in report.cases] == [
        {"length": pytest.approx(0.20)},
        {"length": pytest.approx(0.25)},
        {"length": pytest.approx(0.32)},
    ]


def test_a_two_argument_metric_in_evaluate_and_from_source(tickets):
    report = sj.evaluate(two_args, tickets, outputs="label", run=always_billing, concurrency=2)
    assert [c.score for c in report.cases] == [1.0, 0.25, 0.25, 0.25, 0.25]
    assert report.mean_score == pytest.approx(2.0 / 5)
    assert report.mean_scores["length"] == pytest.approx(sum(len(t["text"]) for t in tickets) / 500)
    source = "def score(input, output):\n    return float(len(output)), {'feedback': output}\n"
    report = sj.evaluate(source, tickets, output_column="label", concurrency=1)
    assert report.passed
    assert [c.score for c in report.cases] == [7.0, 9.0, 5.0, 7.0, 9.0]
    assert [c.feedback for c in report.cases] == [t["label"] for t in tickets]


# --- copies: nothing the metric or run() does reaches the report ----------------------------


def vandal_metric(input, output, expected=None):
    input["text"] = "vandalised"
    input.setdefault("meta", {})["tags"] = ["vandal"]
    if expected is not None:
        expected["label"] = "vandalised"
        expected.setdefault("extra", []).append("vandal")
    if isinstance(output, list):
        output.append("vandal")
    return 1.0, {"feedback": "ok"}


def vandal_run(artifact, case_input):
    case_input["text"] = "run changed me"
    case_input.setdefault("meta", {})["tags"] = ["run vandal"]
    return ["out", {"nested": ["x"]}]


@pytest.mark.parametrize("flat", [True, False])
def test_a_mutating_metric_and_run_leave_the_reports_cases_unchanged(flat):
    rows = [
        {"text": "a", "label": "billing"},
        {"text": "b", "label": "other"},
    ]
    if not flat:  # nested values take the deep-copy path
        rows = [dict(row, meta={"tags": ["x"]}, label={"name": row["label"]}) for row in rows]
    before = copy.deepcopy(rows)
    report = sj.check(vandal_metric, rows, outputs="label", run=vandal_run)
    assert report.passed, report
    assert rows == before
    for case, row in zip(report.cases, before, strict=True):
        assert case.input == {k: v for k, v in row.items() if k != "label"}
        assert case.expected == {"label": row["label"]}
        assert case.output == ["out", {"nested": ["x"]}]


def test_the_run_cache_keeps_what_run_returned_whatever_the_metric_does(tickets, server):
    cache = RunCache()
    outputs = []

    def run(artifact, case_input):
        case_input["text"] = "changed by run"
        outputs.append(["label", {"of": ask_run("Label.", case_input)}])
        return outputs[-1]

    models = task_models(server)
    first = sj.check(
        vandal_metric, tickets, outputs="label", run=run, run_cache=cache, models=models
    )
    second = sj.check(
        vandal_metric, tickets, outputs="label", run=run, run_cache=cache, models=models
    )
    # Every case asks the same ("changed by run"): one request, then only the cache answers.
    assert len(outputs) == 6 and asks(server) == 1
    assert all(c.cached for c in second.cases)
    said = "Answer from gpt-4o-mini."
    for report in (first, second):
        assert [c.input["text"] for c in report.cases] == [t["text"] for t in tickets[:3]]
        assert [c.expected for c in report.cases] == [{"label": t["label"]} for t in tickets[:3]]
        assert [c.output for c in report.cases] == [["label", {"of": said}] for _ in range(3)]
    # Each check's output is its own: changing a report's output does not reach the next one.
    second.cases[0].output.append("changed later")
    third = sj.check(
        vandal_metric, tickets, outputs="label", run=run, run_cache=cache, models=models
    )
    assert third.cases[0].output == ["label", {"of": said}]
    assert asks(server) == 1


# --- the output column -------------------------------------------------------------------------


def test_the_output_column_never_reaches_the_metric_as_input(tickets):
    rows = [dict(row, prediction="billing", split="dev") for row in tickets]
    seen = []

    def metric(input, output, expected=None):
        seen.append((dict(input), output, dict(expected)))
        return 1.0, {"feedback": "ok"}

    for call in (sj.check, sj.evaluate):
        seen.clear()
        report = call(metric, rows, outputs="label", output_column="prediction", split="dev")
        assert report.passed
        expected_seen = [
            ({"text": row["text"]}, "billing", {"label": row["label"]})
            for row in rows[: len(report.cases)]
        ]
        assert sorted(seen, key=repr) == sorted(expected_seen, key=repr)
        assert [c.input for c in report.cases] == [{"text": r["text"]} for r in rows][
            : len(report.cases)
        ]
        assert [c.output for c in report.cases] == ["billing"] * len(report.cases)


def test_without_a_split_the_split_column_is_an_input(tickets):
    rows = [dict(row, split="dev") for row in tickets]
    report = sj.check(exact, rows, outputs="label", output_column="label")
    assert report.cases[0].input == {"text": tickets[0]["text"], "split": "dev"}


def test_inputs_and_split_choose_columns_and_rows():
    rows = [
        {"text": f"t{n}", "noise": n, "label": "billing", "split": "test" if n % 2 else "train"}
        for n in range(8)
    ]
    report = sj.check(
        exact, rows, outputs="label", inputs="text", split="test", output_column="label", cases=9
    )
    assert [c.input for c in report.cases] == [{"text": f"t{n}"} for n in (1, 3, 5, 7)]
    splits = {"train": rows[:2], "test": rows[6:]}
    report = sj.check(
        exact,
        splits,
        outputs="label",
        inputs=["text", "noise"],
        split="test",
        output_column="label",
    )
    assert [c.input for c in report.cases] == [
        {"text": "t6", "noise": 6},
        {"text": "t7", "noise": 7},
    ]


# --- random samples ---------------------------------------------------------------------------


def test_a_random_check_picks_the_cases_pick_cases_picks_with_that_seed(examples_dir):
    data = examples_dir / "tickets.csv"
    all_cases = load_cases(data, outputs="label")
    picked = {}
    for seed in (0, 1, 3):
        report = sj.check(
            exact, data, outputs="label", output_column="label", sample="random", seed=seed
        )
        chosen = pick_cases(all_cases, 3, "random", seed)
        indices = [c.index for c in report.cases]
        assert indices == [c.index for c in chosen]
        assert indices == sorted(random.Random(seed).sample(range(len(all_cases)), 3))
        assert [c.input for c in report.cases] == [c.input for c in chosen]
        picked[seed] = indices
    assert picked == {0: [12, 24, 27], 1: [4, 18, 27], 3: [7, 17, 18]}  # another seed, others
    again = sj.check(exact, data, outputs="label", output_column="label", sample="random", seed=1)
    assert [c.index for c in again.cases] == picked[1]
    first = sj.check(exact, data, outputs="label", output_column="label")
    assert [c.index for c in first.cases] == [0, 1, 2]


# --- one case, field by field (the case runner) ---------------------------------------------


def test_limits_accept_their_whole_range_and_a_fresh_deadline_is_unset():
    assert Limits.checked(1) == Limits(metric=1.0, run=600.0)
    assert Limits.checked(600).metric == 600.0
    with pytest.raises(ValueError) as caught:
        Limits.checked(600.5)
    assert str(caught.value) == (
        "timeout must be between 1 and 600 seconds (the metric time limit), got 600.5."
    )
    fresh = Deadline()  # a watcher may read it before the first phase starts
    assert (fresh.deadline, fresh.step) == (math.inf, "metric_time_limit")


def test_copies_of_dicts_of_only_nested_values_and_of_non_dict_inputs():
    def vandal(input, output, expected=None):
        first = input[0] if isinstance(input, list) else input["meta"]
        first.append("vandal") if isinstance(first, list) else first.update(x=1)
        expected["tags"].append("vandal")
        output["deep"].append("vandal")
        return 1.0, {"feedback": "ok"}

    def run(artifact, case_input):
        (case_input[0] if isinstance(case_input, list) else case_input["meta"]).clear()
        return {"deep": ["x"]}

    for case_input in ({"meta": {"tags": ["a"]}}, [["a"]]):
        case = Case(0, copy.deepcopy(case_input), {"tags": ["t"]})
        result = sj.run_case(vandal, case, run)
        assert result.passed, result.error
        assert case.input == case_input and result.input == case_input
        assert case.expected == result.expected == {"tags": ["t"]}
        assert result.output == {"deep": ["x"]}


def test_run_gets_the_artifact_and_is_timed():
    def run(artifact, case_input):
        time.sleep(0.05)
        return f"{artifact}:{case_input['text']}"

    def metric(input, output, expected=None):
        time.sleep(0.03)
        seen = observation()
        return 1.0, {"feedback": f"{output} {seen.run_ms is not None}"}

    (case,) = load_cases([{"text": "a"}])
    result = sj.run_case(metric, case, run, artifact="prompt")
    assert result.output == "prompt:a" and result.feedback == "prompt:a True"
    assert 50 <= result.run_ms < 1000
    assert 30 <= result.metric_ms < 1000
    assert result.cost_usd == 0.0 and result.model_calls == 0 and not result.cached


def test_no_run_and_no_output_is_a_data_error():
    (case,) = load_cases([{"text": "a"}])
    result = sj.run_case(exact, case, None)
    assert result.failed_step == "run_function"
    assert (
        "DataError: No outputs: give run= (outputs come from run(artifact, input)) "
        "or output_column= (outputs already in the data)."
    ) in result.error


def priced(text: str, cost: float):
    return lambda instructions, input: ModelReply(text, 10, 2, cost_usd=cost)


def test_model_costs_of_the_run_and_of_the_judge_are_counted_apart(tickets):
    from skynet import llm

    def run(artifact, case_input):
        return llm(artifact, case_input["text"])

    def judge(input, output, expected=None):
        verdict = llm("PASS or FAIL?", output)
        if "Lisbon" in input["text"]:
            raise ValueError("the judge gave up")
        return (1.0 if verdict == "PASS" else 0.0), {"feedback": verdict}

    models = ModelSettings(task_model=priced("billing", 0.002), metric_model=priced("PASS", 0.0005))
    report = sj.check(judge, tickets, outputs="label", run=run, artifact="p", models=models)
    ok, _, failed = report.cases
    assert (ok.score, ok.feedback, ok.output) == (1.0, "PASS", "billing")
    assert (ok.cost_usd, ok.judge_cost_usd, ok.model_calls) == (0.002, 0.0005, 2)
    assert ok.measured.model_calls == 1
    assert (ok.measured.input_tokens, ok.measured.output_tokens) == (10, 2)
    # A failing metric keeps what was measured, and what its judge cost.
    assert failed.failed_step == "metric_return_value"
    assert failed.error == "score raised before returning: ValueError: the judge gave up"
    assert (failed.cost_usd, failed.judge_cost_usd, failed.model_calls) == (0.002, 0.0005, 2)
    assert failed.run_ms == failed.measured.run_ms and failed.run_ms > 0
    assert failed.metric_ms is not None and failed.metric_ms >= 0
    assert (failed.index, failed.input, failed.expected, failed.output) == (
        2,
        {"text": tickets[2]["text"]},
        {"label": "other"},
        "billing",
    )


def test_the_metric_reads_the_cached_calls_observation(tickets, server):
    cache = RunCache()
    server.delay = 0.05  # each call took at least 50 ms when it was made

    def metric(input, output, expected=None):
        seen = observation()
        return 1.0, {"feedback": f"{seen.run_ms:.6f} {seen.cost_usd} {seen.output_tokens}"}

    options = dict(outputs="label", run=ask_run, artifact="Label.", run_cache=cache)
    first = sj.check(metric, tickets, models=task_models(server), **options)
    second = sj.check(metric, tickets, models=task_models(server), **options)
    assert asks(server) == 3 and all(c.cached for c in second.cases)
    assert [c.feedback for c in second.cases] == [
        f"{c.run_ms:.6f} {c.cost_usd} {c.measured.output_tokens}" for c in second.cases
    ]
    # As if asked now: the call's 50 ms count (the look-up takes far less), its tokens too.
    assert all(c.run_ms >= 50 for c in second.cases)
    assert [c.measured.output_tokens for c in second.cases] == [
        c.measured.output_tokens for c in first.cases
    ]
    assert [c.model_calls for c in second.cases] == [1, 1, 1]


def test_a_failing_case_from_the_cache_is_marked_cached(tickets, server):
    cache = RunCache()
    options = dict(run=ask_run, artifact="Label.", run_cache=cache, models=task_models(server))
    sj.check(exact, tickets, outputs="label", **options)
    report = sj.check(
        "def score(input, output, expected=None):\n    return 0.5\n",
        tickets,
        outputs="label",
        **options,
    )
    assert [(c.failed_step, c.cached) for c in report.cases] == [("metric_return_value", True)] * 3
    assert all(c.run_ms is not None and c.output.startswith("Answer") for c in report.cases)
    assert asks(server) == 3


@pytest.mark.parametrize(
    ("body", "english", "french"),
    [
        ("return 0.5, 'x'", "The side information 'x'", "Les informations annexes 'x'"),
        (
            "raise ValueError('no')",
            "score raised before returning: ValueError: no",
            "score a levé une exception avant de renvoyer sa paire : ValueError: no",
        ),
        (
            "raise ValueError()",
            "score raised before returning: ValueError",
            "score a levé une exception avant de renvoyer sa paire : ValueError",
        ),
        ("import sys; sys.exit(3)", "score called sys.exit(3)", "score a appelé sys.exit(3)"),
        ("return score(input, output, expected)", "score recursed", "score a fait une récursion"),
        ("return nowhere", "score uses the name 'nowhere'", "score utilise le nom 'nowhere'"),
        (
            "raise ImportError('gone', name='gone_module')",  # has .name, but is no NameError
            "score raised before returning: ImportError: gone",
            "score a levé une exception avant de renvoyer sa paire : ImportError: gone",
        ),
    ],
)
def test_case_failures_speak_the_reports_language(body, english, french, tickets):
    source = f"def score(input, output, expected=None):\n    {body}\n"
    for lang, says in (("en", english), ("fr", french)):
        report = sj.check(source, tickets, outputs="label", output_column="label", lang=lang)
        assert [c.failed_step for c in report.cases] == ["metric_return_value"] * 3
        assert report.cases[0].error.startswith(says), report.cases[0].error
        assert report.cases[0].output == "billing"


def test_a_failing_run_speaks_the_reports_language_and_keeps_its_traceback(tickets):
    def run(artifact, case_input):
        raise KeyError("model_name")

    for lang, says in (
        ("en", "run(artifact, input) raised KeyError: 'model_name'"),
        ("fr", "run(artifact, input) a levé KeyError: 'model_name'"),
    ):
        report = sj.check(exact, tickets, outputs="label", run=run, lang=lang, cases=1)
        (case,) = report.cases
        assert (case.failed_step, case.error) == ("run_function", says)
        assert "raise KeyError" in case.traceback and "_runner.py" not in case.traceback
        assert (case.output, case.run_ms, case.metric_ms, case.cached) == (None, None, None, False)


# --- check / evaluate: every option reaches the run ----------------------------------------------


def test_documented_defaults():
    check_defaults = inspect.signature(sj.check).parameters
    evaluate_defaults = inspect.signature(sj.evaluate).parameters
    for defaults in (check_defaults, evaluate_defaults):
        assert defaults["timeout"].default == 60
        assert defaults["sample"].default == "first"
    assert check_defaults["cases"].default == 3 and evaluate_defaults["cases"].default is None
    assert evaluate_defaults["concurrency"].default == 8


def test_a_check_runs_its_cases_side_by_side_when_they_wait(tickets):
    """As evaluate does (issue 45, item 2): a metric that waits (here 50 ms) on every case
    costs one wait, not one per case; one that hangs, one time limit."""
    active, most = [], []
    lock = threading.Lock()

    def metric(input, output, expected=None):
        with lock:
            active.append(1)
            most.append(len(active))
        time.sleep(0.05)
        with lock:
            active.pop()
        return 1.0, {"feedback": "ok"}

    report = sj.check(metric, tickets, outputs="label", run=always_billing, cases=4)
    assert type(report) is sj.CheckReport and report.kind == "check"
    assert max(most) > 1
    assert [case.index for case in report.cases] == [0, 1, 2, 3]  # in case order


def test_evaluate_passes_every_option_on(tickets, server):
    rows = [
        dict(row, note=f"n{i}", split="dev" if i % 2 else "test") for i, row in enumerate(tickets)
    ]
    seen_runs = []

    def run(artifact, case_input):
        seen_runs.append((artifact, dict(case_input)))
        ask_run(artifact, case_input)  # one model call: the run cache keeps its reply
        return "billing"

    events = []
    cache = RunCache()
    report = sj.evaluate(
        two_args,
        rows,
        outputs="label",
        inputs="text",
        split="test",
        run=run,
        artifact="the prompt",
        cases=2,
        lang="fr",
        sample="random",
        seed=5,
        on_event=events.append,
        run_cache=cache,
        concurrency=1,
        models=task_models(server),
    )
    test_rows = [r for r in rows if r["split"] == "test"]  # rows 0, 2, 4
    chosen = sorted(random.Random(5).sample(range(3), 2))
    assert type(report) is sj.EvalReport and report.lang == "fr"
    assert [c.index for c in report.cases] == chosen
    assert seen_runs == [("the prompt", {"text": test_rows[i]["text"]}) for i in chosen]
    assert len(cache) == 2
    assert report.step("metric_return_value").title == "Valeur de retour de la métrique"
    started = [e for e in events if isinstance(e, CaseStarted)]
    finished = [e for e in events if isinstance(e, CaseFinished)]
    assert [(e.index, e.total) for e in started] == [(i, 2) for i in chosen]
    assert [e.result for e in finished] == report.cases
    assert events[-1] == Finished(report)


def test_evaluate_on_an_executor_gives_the_sequential_results(tickets):
    from concurrent.futures import ThreadPoolExecutor

    alone = sj.evaluate(two_args, tickets, outputs="label", output_column="label")
    with ThreadPoolExecutor(2) as pool:
        report = sj.evaluate(
            two_args, tickets, outputs="label", output_column="label", executor=pool
        )
    assert [(c.index, c.score, c.feedback) for c in report.cases] == [
        (c.index, c.score, c.feedback) for c in alone.cases
    ]


def test_models_reach_the_run_through_check_and_run_case(tickets):
    from skynet import llm

    def run(artifact, case_input):
        return llm(artifact, case_input["text"])

    models = ModelSettings(task_model=lambda instructions, input: f"{instructions}!")
    report = sj.check(exact, tickets, outputs="label", run=run, artifact="billing", models=models)
    assert [c.output for c in report.cases] == ["billing!"] * 3
    (case, *_) = load_cases(tickets, outputs="label")
    result = sj.run_case(exact, case, run, artifact="other", models=models)
    assert (result.output, result.feedback) == ("other!", "Expected 'billing', got 'other!'.")


def test_run_case_speaks_english_by_default_and_the_language_it_is_given(tickets):
    (case, *_) = load_cases(tickets, outputs="label")
    source = "def score(input, output, expected=None):\n    raise ValueError('no')\n"
    assert (
        sj.run_case(source, case, always_billing).error
        == "score raised before returning: ValueError: no"
    )
    french = sj.run_case(source, case, always_billing, lang="fr")
    assert french.error == "score a levé une exception avant de renvoyer sa paire : ValueError: no"


def test_exclusive_and_missing_outputs_say_exactly_what_to_do(tickets):
    with pytest.raises(sj.DataError) as caught:
        sj.check(exact, tickets, outputs="label", run=always_billing, output_column="text")
    assert str(caught.value) == "Give run= or output_column=, not both."
    with pytest.raises(sj.DataError) as caught:
        sj.evaluate(exact, tickets, outputs="label")
    assert str(caught.value) == (
        "No outputs: give run= (outputs come from run(artifact, input)) "
        "or output_column= (outputs already in the data)."
    )


def test_a_metric_that_does_not_load_reports_every_step_and_its_name(tickets):
    def bad(x):
        return 1.0, {"feedback": "ok"}

    bad.name = "judge"
    events = []
    report = sj.check(
        bad, tickets, outputs="label", output_column="label", lang="fr", on_event=events.append
    )
    assert type(report) is sj.CheckReport
    assert (report.metric_name, report.lang, report.total_cases, report.cases) == (
        "judge",
        "fr",
        3,
        [],
    )
    assert [(s.id, s.status) for s in report.steps] == [
        ("metric_loads", "passed"),
        ("metric_signature", "failed"),
        ("reward_spec", "skipped"),
        ("run_function", "skipped"),
        ("metric_return_value", "skipped"),
        ("metric_time_limit", "skipped"),
    ]
    assert events == [Finished(report)]
    report = sj.evaluate("def score(:\n", tickets, outputs="label", output_column="label")
    assert type(report) is sj.EvalReport and report.metric_name == "default"
    assert report.total_cases == 5 and report.lang == "en"


def test_the_run_and_reward_steps_say_where_outputs_came_from(tickets):
    plain = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'Correct.'}\n"
    column = sj.check(plain, tickets, outputs="label", output_column="label")
    assert (column.step("run_function").status, column.step("run_function").message) == (
        "skipped",
        "No run function: outputs come from the column 'label'.",
    )
    assert column.step("reward_spec").message == "No REWARD_SPEC: the score is used as it is."
    ran = sj.check(plain, tickets, outputs="label", run=always_billing)
    assert ran.step("run_function").status == "passed"
    assert "No run function" not in ran.step("run_function").message
    spec = (
        "from skynet import reward\n"
        "REWARD_SPEC = {'weights': {'accuracy': 1, 'speed': 0, 'cost': 0},\n"
        "               'speed': {'reference': 1}, 'cost': {'reference': 1}}\n"
        "def score(input, output, expected=None):\n"
        "    return reward(REWARD_SPEC, 1.0, 'Correct.')\n"
    )
    rewarded = sj.check(spec, tickets, outputs="label", run=always_billing)
    assert rewarded.step("reward_spec").status == "passed"
    assert rewarded.step("reward_spec").message != column.step("reward_spec").message


# --- the run cache's key: the request, not the code (issue 23) --------------------------------


def notebook_function(source: str):
    """A function as a notebook cell defines it: each run of the cell, a new object."""
    namespace: dict = {}
    exec(compile(source, "<cell>", "exec"), namespace)
    return namespace["run"]


def test_the_run_cache_key_follows_the_request_not_the_object(tickets, server):
    store: dict = {}
    cache = RunCache(store)  # the replies live in the store it is given
    calls = []
    source = "def run(artifact, input):\n    calls.append(1)\n    return llm({!r}, input['text'])\n"

    def defined(label):
        namespace = {"calls": calls, "llm": llm}
        exec(compile(source.format(label), "<cell>", "exec"), namespace)
        return namespace["run"]

    models = task_models(server)
    first = sj.check(
        exact, tickets, outputs="label", run=defined("billing"), run_cache=cache, models=models
    )
    again = sj.check(
        exact, tickets, outputs="label", run=defined("billing"), run_cache=cache, models=models
    )
    assert len(calls) == 6 and all(c.cached for c in again.cases)  # the cell ran again
    assert asks(server) == 3  # ... and asked nothing new
    assert [c.index for c in again.cases] == [0, 1, 2]
    assert [c.output for c in again.cases] == [c.output for c in first.cases]
    sj.check(exact, tickets, outputs="label", run=defined("other"), run_cache=cache, models=models)
    assert (
        asks(server) == 6
        and [r.messages[0]["content"] for r in server.requests[3:]] == ["other"] * 3
    )
    assert len(store) == 6 and cache.store is store


def test_the_run_cache_key_of_callables_without_code(tickets, server):
    class Program:
        def __init__(self, label):
            self.label, self.calls = label, 0

        def __call__(self, artifact, case_input):
            self.calls += 1
            return llm(self.label, case_input["text"])

    cache = RunCache()
    one, two = Program("billing"), Program("other")
    for program in (one, one, two):
        sj.check(
            exact,
            tickets,
            outputs="label",
            run=program,
            run_cache=cache,
            models=task_models(server),
        )
    assert (one.calls, two.calls) == (6, 3)  # run runs every time
    assert [r.messages[0]["content"] for r in server.requests] == ["billing"] * 3 + ["other"] * 3


class Opaque:
    """Unhashable, and equal to nothing else: only the object itself is the same input."""

    __hash__ = None

    def __init__(self, name):
        self.name = name

    def __deepcopy__(self, memo):
        return self


def test_the_run_cache_tells_apart_requests_that_differ_only_deep_inside(server):
    rows = [
        {"tags": ["a", "b"], "meta": {"k": [1]}, "set": {1}, "obj": Opaque("x")},
        {"tags": ["a", "c"], "meta": {"k": [1]}, "set": {1}, "obj": Opaque("x")},
        {"tags": ["a", "b"], "meta": {"k": [2]}, "set": {1}, "obj": Opaque("x")},
        {"tags": ["a", "b"], "meta": {"k": [1]}, "set": {2}, "obj": Opaque("x")},
    ]
    opaque = rows[0]["obj"]
    for row in rows[1:3]:
        row["obj"] = opaque  # the same object: only "tags" or "meta" differ
    rows[3]["obj"] = opaque

    def run(artifact, case_input):
        sent = repr(sorted(case_input["set"])) + repr(case_input["tags"]) + repr(case_input["meta"])
        return llm("Echo.", sent)

    cache = RunCache()
    models = task_models(server)
    first = sj.evaluate(ALWAYS_FINE, rows, run=run, run_cache=cache, concurrency=1, models=models)
    again = sj.evaluate(ALWAYS_FINE, rows, run=run, run_cache=cache, concurrency=1, models=models)
    assert len(cache) == 4 and asks(server) == 4
    assert [c.output for c in again.cases] == [c.output for c in first.cases]
    assert all(c.cached for c in again.cases)
    # An equal-looking but other object the run does not send: the same request, a hit
    # (only what is sent is keyed, so an object with no stable form never matters).
    fresh = [dict(rows[0], obj=Opaque("x"))]
    (case,) = sj.evaluate(ALWAYS_FINE, fresh, run=run, run_cache=cache, models=models).cases
    assert case.cached and len(cache) == 4 and asks(server) == 4


ALWAYS_FINE = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'Fine.'}\n"


def test_the_run_cache_keeps_new_calls_after_cached_ones_and_never_failed_calls(tickets, server):
    calls = []

    def run(artifact, case_input):
        calls.append(case_input["text"])
        refused = " [[status=400]]" if "Lisbon" in case_input["text"] else ""
        return llm("Label.", case_input["text"] + refused)  # the server refuses Lisbon's

    cache = RunCache()
    options = dict(outputs="label", run=run, run_cache=cache, models=task_models(server))
    sj.check(exact, tickets, cases=2, **options)
    report = sj.check(exact, tickets, cases=5, **options)
    assert [c.cached for c in report.cases] == [True, True, False, False, False]
    assert report.cases[2].failed_step == "run_function"
    assert len(cache) == 4  # the failed call is not kept
    sj.check(exact, tickets, cases=5, **options)
    assert asks(server) == 2 + 3 + 1  # only the failed call is asked again
    assert len(calls) == 2 + 5 + 5  # and run ran every time


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no text")


def test_odd_failures_still_give_one_readable_sentence(tickets):
    def run(artifact, case_input):
        raise Unprintable()

    (case,) = sj.check(exact, tickets, outputs="label", run=run, cases=1).cases
    assert case.error == "run(artifact, input) raised Unprintable: <exception str() failed>"
    source = "def score(input, output, expected=None):\n    raise ValueError()\n"
    report = sj.check(source, tickets, outputs="label", output_column="label", cases=1)
    assert report.cases[0].error == "score raised before returning: ValueError"  # no dangling colon
    rows = [dict(tickets[0], lock=threading.Lock())]
    (case,) = sj.check(exact, rows, outputs="label", run=always_billing).cases
    assert case.failed_step == "run_function"
    assert "input could not be copied (TypeError: cannot pickle '_thread.lock' object)" in (
        case.error
    )
