"""The per-case fast path gives the same results as the general path, case for case.

``CaseRunner.score_case`` builds a scored case that measured nothing (no run,
no judge) with ``report.scored_result`` instead of ``CaseResult(...)``, and
``CaseResult`` keeps its rarely set fields in one shared slot.  Here the same
cases run through the fast path (concurrency 1, as is) and through the general
path: the generic ``CaseResult(...)`` constructor forced in (``general``), two
workers, or worker processes; whole results are compared, failures and time
limits included.  No assertion is timed.
"""

from __future__ import annotations

import copy
import math
import pickle
import time
from typing import Any

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.report import RARE_FIELDS as _RARE_FIELDS
from skynet_jupyter.core.report import CaseResult, scored_result
from skynet_jupyter.run import one_case as _runner

# --- the cases: every kind of outcome, in one data set ---------------------------------

ROWS = [
    {"text": "right", "label": "a", "out": "a"},
    {"text": "wrong", "label": "a", "out": "b"},
    {"text": "named", "label": "a", "out": "a"},
    {"text": "raises", "label": "a", "out": "a"},
    {"text": "not a pair", "label": "a", "out": "a"},
    {"text": "three", "label": "a", "out": "a"},
    {"text": "info not a dict", "label": "a", "out": "a"},
    {"text": "no feedback", "label": "a", "out": "a"},
    {"text": "feedback not text", "label": "a", "out": "a"},
    {"text": "nan", "label": "a", "out": "a"},
    {"text": "inf", "label": "a", "out": "a"},
    {"text": "named nan", "label": "a", "out": "a"},
    {"text": "scores not a dict", "label": "a", "out": "a"},
    {"text": "an int score", "label": "a", "out": "a"},
    {"text": "a list pair", "label": "a", "out": "a"},
    {"text": "mutates", "label": "a", "out": "a"},
]


def many_outcomes(input, output, expected=None):
    text = input["text"]
    if text == "raises":
        raise KeyError("no such thing")
    if text == "not a pair":
        return 1.0
    if text == "three":
        return 1.0, {"feedback": "x"}, "extra"
    if text == "info not a dict":
        return 1.0, "feedback"
    if text == "no feedback":
        return 1.0, {"note": "x"}
    if text == "feedback not text":
        return 1.0, {"feedback": 3}
    if text == "nan":
        return math.nan, {"feedback": "x"}
    if text == "inf":
        return math.inf, {"feedback": "x"}
    if text == "named nan":
        return 1.0, {"feedback": "x", "scores": {"a": math.nan}}
    if text == "scores not a dict":
        return 1.0, {"feedback": "x", "scores": [1.0]}
    if text == "an int score":
        return 1, {"feedback": "an int"}
    if text == "a list pair":
        return [0.5, {"feedback": "a list"}]
    if text == "named":
        return 0.75, {"feedback": "named", "scores": {"accuracy": 1, "style": 0.5}}
    if text == "mutates":
        input["text"] = "changed"
        expected["label"] = "changed"
        return 0.0, {"feedback": "mutated its copies"}
    return float(output == expected["label"]), {"feedback": f"{output} vs {expected['label']}"}


OPTIONS: dict[str, Any] = {"outputs": "label", "output_column": "out"}


# --- the general path, forced in ----------------------------------------------------


def _through_init(index, input, expected, output, score, feedback, scores, info, metric_ms):
    """What the fast builder stands for: the generic constructor, by keyword."""
    return CaseResult(
        index=index,
        input=input,
        expected=expected,
        output=output,
        score=score,
        feedback=feedback,
        scores=scores,
        info=info,
        metric_ms=metric_ms,
    )


@pytest.fixture
def general(monkeypatch):
    """Run ``fn`` with the fast builder replaced by ``CaseResult(...)`` (the general path)."""

    def run(fn, *args, **kwargs):
        with monkeypatch.context() as patch:
            patch.setattr(_runner, "scored_result", _through_init)
            return fn(*args, **kwargs)

    return run


def whole(case: CaseResult) -> tuple[Any, ...]:
    """Everything a case says, but the measured times (which differ run to run)."""
    return (
        case.index,
        case.input,
        case.expected,
        case.output,
        case.score,
        case.scores,
        case.feedback,
        case.info,
        case.passed,
        case.failed_step,
        case.error,
        case.traceback,
        case.hint_id,
        case.cached,
        case.model_calls,
        case.retries,
        case.stand_in_calls,
        case.cost_usd,
        case.judge_cost_usd,
        case.measured is None,
        case.metric_ms is None,
        case.run_ms is None,
    )


def steps(report) -> list[tuple[Any, ...]]:
    return [(s.id, s.status, s.message, s.hint, s.cases) for s in report.steps]


def same_reports(fast, slow) -> None:
    assert [whole(c) for c in fast.cases] == [whole(c) for c in slow.cases]
    assert steps(fast) == steps(slow)
    assert (fast.passed, fast.mean_score, fast.mean_scores) == (
        slow.passed,
        slow.mean_score,
        slow.mean_scores,
    )


# --- the builder itself -------------------------------------------------------------


def test_the_fast_builder_sets_every_field_as_the_constructor_does():
    info = {"feedback": "ok", "scores": {"a": 1.0}}
    fast = scored_result(3, {"q": 1}, {"a": 2}, "out", 0.5, "ok", {"a": 1.0}, info, 1.5)
    slow = CaseResult(3, {"q": 1}, {"a": 2}, "out", 0.5, "ok", {"a": 1.0}, info, metric_ms=1.5)
    for name in CaseResult.__slots__:  # an unset slot would raise here
        getattr(fast, name)
    assert fast == slow and repr(fast) == repr(slow)
    assert [getattr(fast, name) for name in CaseResult.__match_args__] == [
        getattr(slow, name) for name in CaseResult.__match_args__
    ]


def test_a_case_result_keeps_the_dataclass_behaviour_it_had():
    result = CaseResult(1, {"q": 1}, None)
    assert CaseResult.__match_args__[:3] == ("index", "input", "expected")
    assert len(CaseResult.__match_args__) == 23  # with run_paid_usd, judge_paid_usd (issue 35)
    assert (result.scores, result.model_calls, result.cached, result.retries) == ({}, 0, False, 0)
    assert result.passed and result.traceback is None and result.hint_id is None
    # Fresh defaults per case, never shared.
    assert CaseResult(2, {}, None).scores is not result.scores
    # A rare field set after the fact reads back, compares and travels.
    result.run_ms, result.retries, result.failed_step = 12.5, 2, "run_function"
    assert (result.run_ms, result.retries, result.passed) == (12.5, 2, False)
    assert result != CaseResult(1, {"q": 1}, None)
    for again in (pickle.loads(pickle.dumps(result)), copy.deepcopy(result), copy.copy(result)):
        assert again == result and again.run_ms == 12.5 and again.retries == 2
    # Keyword construction of every field, in the order the dataclass had them.
    values = {name: f"v{n}" for n, name in enumerate(CaseResult.__match_args__)}
    built = CaseResult(**values)
    assert [getattr(built, name) for name in CaseResult.__match_args__] == list(values.values())
    assert set(_RARE_FIELDS) < set(CaseResult.__match_args__)
    assert f"run_ms={values['run_ms']!r}" in repr(built)
    with pytest.raises(TypeError):
        hash(result)
    # A default passed explicitly but not identical (0.0 for 0) is kept as given.
    assert CaseResult(1, {}, None, model_calls=0.0).model_calls.__class__ is float


# --- the same cases, fast and general ----------------------------------------------


def test_every_outcome_is_the_same_on_the_fast_and_the_general_path(general):
    fast = sj.evaluate(many_outcomes, ROWS, concurrency=1, **OPTIONS)
    slow = general(sj.evaluate, many_outcomes, ROWS, concurrency=1, **OPTIONS)
    two = general(sj.evaluate, many_outcomes, ROWS, concurrency=2, **OPTIONS)
    same_reports(fast, slow)
    same_reports(fast, two)
    by_text = {case.input["text"]: case for case in fast.cases}
    # The cases really cover what they name (not all passing by accident).
    assert by_text["right"].score == 1.0 and by_text["wrong"].score == 0.0
    assert by_text["named"].scores == {"accuracy": 1.0, "style": 0.5}
    assert type(by_text["an int score"].score) is float
    assert by_text["a list pair"].score == 0.5
    assert "KeyError" in by_text["raises"].error and by_text["raises"].traceback
    failing = [
        "raises",
        "not a pair",
        "three",
        "info not a dict",
        "no feedback",
        "feedback not text",
        "nan",
        "inf",
        "named nan",
        "scores not a dict",
    ]
    assert all(by_text[text].failed_step == "metric_return_value" for text in failing)
    assert len({by_text[text].error for text in failing}) == len(failing)  # each says its own
    assert all(by_text[text].passed for text in by_text if text not in failing)


def test_the_check_is_the_same_on_both_paths(general):
    fast = sj.check(many_outcomes, ROWS, cases=len(ROWS), **OPTIONS)
    slow = general(sj.check, many_outcomes, ROWS, cases=len(ROWS), **OPTIONS)
    same_reports(fast, slow)
    assert not fast.passed


def test_a_metric_that_changes_its_copies_changes_nothing(general):
    nested = [
        {"text": "mutates", "label": "a", "out": "a"},
        {"text": "right", "label": "a", "out": "a"},
    ]

    def mutates_nested(input, output, expected=None):
        input.setdefault("tags", []).append("added")
        return many_outcomes(input, output, expected)

    deep = [{**row, "tags": ["kept"]} for row in nested]
    for data, metric in ((nested, many_outcomes), (deep, mutates_nested)):
        before = copy.deepcopy(data)
        fast = sj.evaluate(metric, data, concurrency=1, **OPTIONS)
        slow = general(sj.evaluate, metric, data, concurrency=1, **OPTIONS)
        same_reports(fast, slow)
        assert data == before  # the caller's rows
        assert fast.cases[0].input["text"] == "mutates"  # the report's copy of the case
        assert fast.cases[0].expected == {"label": "a"}
        assert fast.cases[1].score == 1.0  # the next case saw its own data


def run_raises(artifact, case_input):
    if case_input["text"] == "raises":
        raise RuntimeError("the run broke")
    return "a"


def test_a_run_that_raises_is_the_same_on_both_paths(general):
    rows = [{"text": "raises", "label": "a"}, {"text": "fine", "label": "a"}]
    fast = sj.evaluate(many_outcomes, rows, outputs="label", run=run_raises, concurrency=1)
    slow = general(sj.evaluate, many_outcomes, rows, outputs="label", run=run_raises, concurrency=2)
    same_reports(fast, slow)
    first, second = fast.cases
    assert first.failed_step == "run_function" and "the run broke" in first.error
    assert second.passed and second.run_ms is not None and second.measured is not None


def spins_on_slow(input, output, expected=None):
    if input["text"] == "slow":
        end = time.monotonic() + 30
        while time.monotonic() < end:  # Python code: the watcher can stop it
            pass
    return 1.0, {"feedback": "done"}


def test_a_metric_past_its_time_limit_is_the_same_on_both_paths(general):
    rows = [
        {"text": "quick", "label": "a", "out": "a"},
        {"text": "slow", "label": "a", "out": "a"},
        {"text": "after", "label": "a", "out": "a"},
    ]
    fast = sj.evaluate(spins_on_slow, rows, timeout=1, concurrency=1, **OPTIONS)
    slow = general(sj.evaluate, spins_on_slow, rows, timeout=1, concurrency=2, **OPTIONS)
    same_reports(fast, slow)
    quick, late, after = fast.cases
    assert quick.passed and after.passed
    assert late.failed_step == "metric_time_limit"
    assert late.error == "score took longer than the 1 s metric time limit."


def run_spins_on_slow(artifact, case_input):
    if case_input["text"] == "slow":
        end = time.monotonic() + 30
        while time.monotonic() < end:
            pass
    return "a"


def test_a_run_past_its_time_limit_is_the_same_on_both_paths(general):
    rows = [{"text": "slow", "label": "a"}, {"text": "quick", "label": "a"}]
    options = {"outputs": "label", "run": run_spins_on_slow, "run_timeout": 1}
    fast = sj.evaluate(many_outcomes, rows, concurrency=1, **options)
    slow = general(sj.evaluate, many_outcomes, rows, concurrency=2, **options)
    same_reports(fast, slow)
    late, quick = fast.cases
    assert late.failed_step == "run_function" and "1 s" in late.error
    assert quick.passed


def test_worker_processes_give_the_same_results_as_the_fast_path():
    rows = [row for row in ROWS if row["text"] != "raises"]  # a traceback names the process
    fast = sj.evaluate(many_outcomes, rows, concurrency=1, **OPTIONS)
    isolated = sj.evaluate(many_outcomes, rows, concurrency=2, isolation="process", **OPTIONS)
    same_reports(fast, isolated)


# --- events --------------------------------------------------------------------------


def listen(events: list[Any]):
    def on_event(event):
        events.append(event)

    return on_event


def event_facts(events: list[Any], report) -> list[tuple[Any, ...]]:
    """What the events said, checked for order within each case; in case order."""
    assert isinstance(events[-1], sj.Finished) and events[-1].report is report
    started = [e.index for e in events if isinstance(e, sj.CaseStarted)]
    finished = [e for e in events if isinstance(e, sj.CaseFinished)]
    assert [e.done for e in finished] == list(range(1, len(finished) + 1))
    assert sum(isinstance(e, sj.Finished) for e in events) == 1
    position = {id(e): n for n, e in enumerate(events)}
    first_start = {}
    for n, event in enumerate(events):
        if isinstance(event, sj.CaseStarted):
            first_start.setdefault(event.index, n)
    for event in finished:  # a case starts before it finishes
        assert first_start[event.result.index] < position[id(event)]
        # the event carries the very result the report holds
        assert any(event.result is case for case in report.cases)
    return sorted(
        [("started", index, None) for index in started]
        + [("finished", e.result.index, whole(e.result)) for e in finished],
        key=lambda fact: (fact[1], fact[0]),
    )


def test_events_are_the_same_in_number_order_and_content_on_both_paths(general):
    rows = [row for row in ROWS if row["text"] != "raises"] + [
        {"text": "slow", "label": "a", "out": "a"}
    ]

    def metric(input, output, expected=None):
        if input["text"] == "slow":
            return spins_on_slow(input, output, expected)
        return many_outcomes(input, output, expected)

    fast_events: list[Any] = []
    slow_events: list[Any] = []
    fast = sj.evaluate(
        metric, rows, timeout=1, concurrency=1, on_event=listen(fast_events), **OPTIONS
    )
    slow = general(
        sj.evaluate,
        metric,
        rows,
        timeout=1,
        concurrency=2,
        on_event=listen(slow_events),
        **OPTIONS,
    )
    same_reports(fast, slow)
    assert len(fast_events) == len(slow_events) == 2 * len(rows) + 1
    assert event_facts(fast_events, fast) == event_facts(slow_events, slow)
    timed_out = [e for e in fast_events if isinstance(e, sj.CaseFinished) and e.result.error]
    assert any(e.result.failed_step == "metric_time_limit" for e in timed_out)
