"""from_dspy_metric: a DSPy/GEPA metric as a Skynet metric, wherever a metric goes (issue 44).

What the DSPy metric is given (an Example, a Prediction), how what it returns is read
(a number, a bool, a Prediction or a dict), the sentences for what cannot be read, and the
paths a metric travels: check, evaluate on threads, processes and an executor, pickling,
gepa's adapter, and back to DSPy.  Metrics in the shape of DSPy's GEPA tutorials (written
here, not copied) are tests/optimizers/test_dspy_aime.py and test_dspy_facility_support.py.
"""

from __future__ import annotations

import math
import pickle
import re
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests.conftest import require_module

dspy = require_module("dspy")
gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.core.contract import short_repr  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from skynet_jupyter.optimizers.dspy_metric import (  # noqa: E402
    DSPyMetric,
    DSPyMetricError,
    read_dspy_return,
)

TICKETS = [
    {"text": "I was charged twice.", "label": "billing"},
    {"text": "The app crashes on start.", "label": "technical"},
    {"text": "Do you have an office in Lisbon?", "label": "other"},
]


def label_metric(gold, pred, trace=None, pred_name=None, pred_trace=None):
    """A GEPA feedback metric, as DSPy's docs write one."""
    if pred.label == gold.label:
        return dspy.Prediction(score=1.0, feedback="Correct.")
    return dspy.Prediction(score=0.0, feedback=f"Expected {gold.label!r}, got {pred.label!r}.")


def keyword(artifact, input):
    return "billing" if "charged" in input["text"] else "technical"


# --- what the DSPy metric is given ---------------------------------------------------------


def test_the_metric_gets_an_example_and_a_prediction():
    seen = []

    def record(example, prediction, trace=None):
        seen.append((example, prediction, trace))
        return 1.0

    adapted = sj.from_dspy_metric(record)
    adapted({"text": "hi", "lang": "en"}, "billing", {"label": "billing"})
    example, prediction, trace = seen[0]
    assert isinstance(example, dspy.Example) and isinstance(prediction, dspy.Prediction)
    assert example.toDict() == {"text": "hi", "lang": "en", "label": "billing"}
    assert example.inputs().toDict() == {"text": "hi", "lang": "en"}
    assert example.labels().toDict() == {"label": "billing"}
    assert prediction.toDict() == {"label": "billing"}  # the one expected field names it
    assert trace is None


def test_the_output_shapes():
    seen = []

    def record(example, pred):
        seen.append(pred)
        return 1.0

    given = dspy.Prediction(reasoning="r", answer="4")
    sj.from_dspy_metric(record)({"q": "2+2"}, given, {"answer": "4"})
    sj.from_dspy_metric(record)({"q": "2+2"}, {"reasoning": "r", "answer": "4"}, {"answer": "4"})
    sj.from_dspy_metric(record, output_field="answer")({"q": "2+2"}, "4", None)
    sj.from_dspy_metric(record, output_field="answer")({"q": "2+2"}, {"x": 1}, {"a": 1, "b": 2})
    assert seen[0] is given  # a program's Prediction, as it is
    assert seen[1].toDict() == {"reasoning": "r", "answer": "4"}
    assert seen[2].toDict() == {"answer": "4"}
    assert seen[3].toDict() == {"answer": {"x": 1}}  # output_field: the value is that field


@pytest.mark.parametrize(
    ("expected", "message_id", "fields"),
    [
        (
            {"solution": "s", "answer": "4"},
            "dspy.output_field_labels",
            {"labels": "solution, answer", "first": "solution"},
        ),
        (None, "dspy.output_field_none", {}),
    ],
)
def test_a_single_output_without_a_field_name_is_said(expected, message_id, fields):
    adapted = sj.from_dspy_metric(lambda example, pred: 1.0)
    with pytest.raises(DSPyMetricError) as caught:
        adapted({"q": "2+2"}, "4", expected)
    assert str(caught.value) == t(message_id, "en", function="<lambda>", value="'4'", **fields)


def test_inputs_that_are_not_dicts_and_number_keys():
    seen = []
    adapted = sj.from_dspy_metric(lambda example, pred: seen.append(example) or 1.0)
    adapted("just text", {"label": "x"}, "x")
    adapted({1: "one"}, {"label": "x"}, {"label": "x"})
    assert seen[0].toDict() == {"input": "just text", "expected": "x"}
    assert seen[1].inputs().toDict() == {"1": "one"}


# --- what it returns -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("returned", "pair"),
    [
        (0.75, (0.75, {"feedback": ""})),
        (1, (1.0, {"feedback": ""})),
        (True, (1.0, {"feedback": ""})),
        (False, (0.0, {"feedback": ""})),
        (dspy.Prediction(score=0.5, feedback="Half."), (0.5, {"feedback": "Half."})),
        (dspy.Prediction(score=True, feedback=None), (1.0, {"feedback": ""})),
        ({"score": 0, "feedback": "No."}, (0.0, {"feedback": "No."})),
        (
            dspy.Prediction(score=1, feedback="ok", objective_scores={"a": 1, "b": 0.5}),
            (1.0, {"feedback": "ok", "scores": {"a": 1.0, "b": 0.5}}),
        ),
    ],
)
def test_returns_are_read_as_gepa_reads_them(returned, pair):
    assert read_dspy_return(returned) == pair
    assert sj.validate_return(pair) == pair


@pytest.mark.parametrize(
    ("returned", "message_id", "fields"),
    [
        (None, "dspy.return_none", {}),
        ("0.5", "dspy.return_type", {"value": "'0.5'", "type": "str"}),
        ((0.5, "ok"), "dspy.return_type", {"value": "(0.5, 'ok')", "type": "tuple"}),
        (dspy.Prediction(feedback="x"), "dspy.no_score", {"value": "Prediction( feedback='x' )"}),
        ({"score": "high"}, "dspy.score_type", {"value": "'high'", "type": "str"}),
        (math.nan, "dspy.score_not_finite", {"value": "nan"}),
        ({"score": 10**400}, "dspy.score_not_finite", {"value": short_repr(10**400)}),
        ({"score": 1, "feedback": 3}, "dspy.feedback_type", {"value": "3", "type": "int"}),
        ({"score": 1, "objective_scores": [1]}, "dspy.objective_scores", {"value": "[1]"}),
    ],
)
def test_what_cannot_be_read_is_one_sentence(returned, message_id, fields):
    with pytest.raises(DSPyMetricError) as caught:
        read_dspy_return(returned, "m")
    assert caught.value.message_id == message_id
    assert str(caught.value) == t(message_id, "en", function="m", **fields)
    assert "\n" not in str(caught.value)


def test_a_bad_return_fails_the_case_at_the_return_step_naming_the_metric():
    def wordy(example, pred, trace=None):
        return "looks right"

    report = sj.check(sj.from_dspy_metric(wordy), TICKETS, outputs="label", run=keyword)
    assert not report.passed
    case = report.cases[0]
    assert case.failed_step == "metric_return_value"
    assert t("dspy.return_type", "en", function="wordy", value="'looks right'", type="str") in (
        case.error
    )


@pytest.mark.parametrize(
    ("returned", "message_id", "fields"),
    [
        (None, "dspy.return_none", {}),
        ("C", "dspy.return_type", {"value": "'C'", "type": "str"}),
        ((0.5, "ok"), "dspy.return_type", {"value": "(0.5, 'ok')", "type": "tuple"}),
        (math.nan, "dspy.score_not_finite", {"value": "nan"}),
        (math.inf, "dspy.score_not_finite", {"value": "inf"}),
        (dspy.Prediction(feedback="x"), "dspy.no_score", {"value": "Prediction( feedback='x' )"}),
    ],
)
@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_a_dspy_metric_that_returned_badly_is_told_what_it_returned_not_that_it_raised(
    returned, message_id, fields, isolation
):
    """Found by the attack on issue 44: a DSPy metric returning None, 'C', a tuple, NaN, inf
    or a Prediction without a score was reported as "score raised DSPyMetricError: … before
    returning", with advice to catch an exception.  It returned: the case fails at the
    return step with one sentence naming what came back, as a native metric's wrong return
    does, and the fix says what a DSPy metric returns."""

    def metric(example, prediction, trace=None, pred_name=None, pred_trace=None):
        return returned

    report = sj.check(
        sj.from_dspy_metric(metric),
        TICKETS[:1],
        outputs="label",
        run=keyword,
        isolation=isolation,
    )
    case = report.cases[0]
    said = t(message_id, "en", function="metric", **fields)
    assert (case.failed_step, case.error, case.traceback) == ("metric_return_value", said, None)
    step = report.step("metric_return_value")
    assert step.message == f"Case 0: {said}"
    assert "raised" not in step.message and "catch" not in step.hint
    assert step.hint == t("hint.dspy_return", "en")
    french = sj.check(
        sj.from_dspy_metric(metric), TICKETS[:1], outputs="label", run=keyword, lang="fr"
    )
    assert french.cases[0].error == t(message_id, "fr", function="metric", **fields)


# --- construction ------------------------------------------------------------------------


def test_refused_at_construction_in_one_sentence():
    def skynet_form(input, output, expected=None):
        return 1.0, {"feedback": "ok"}

    def one_argument(example):
        return 1.0

    cases = [
        (lambda: sj.from_dspy_metric(skynet_form), "already a Skynet metric"),
        (lambda: sj.from_dspy_metric(sj.load_metric(skynet_form)), "already a Skynet metric"),
        (lambda: sj.from_dspy_metric(one_argument), "cannot call one_argument(example)"),
        (lambda: sj.from_dspy_metric("metric.py"), "takes a DSPy metric"),
        (lambda: sj.from_dspy_metric(label_metric, predictors=3), "predictors= is a DSPy program"),
    ]
    for make, words in cases:
        with pytest.raises(DSPyMetricError, match=re.escape(words)) as caught:
            make()
        assert "\n" not in str(caught.value)


def test_round_trips():
    adapted = sj.from_dspy_metric(label_metric)
    assert sj.from_dspy_metric(adapted) is adapted
    registered = sj.load_metric(adapted)
    assert sj.from_dspy_metric(registered) is registered
    # A Skynet metric through DSPy and back is the Skynet metric.
    skynet = sj.load_metric(lambda input, output, expected=None: (1.0, {"feedback": "ok"}))
    assert sj.from_dspy_metric(sj.to_dspy_metric(skynet)) is skynet
    # A DSPy metric through Skynet and back is the DSPy metric: its own answers.
    back = sj.to_dspy_metric(adapted)
    example = dspy.Example(text="x", label="billing").with_inputs("text")
    ours = back(example, dspy.Prediction(label="other"))
    assert ours == label_metric(example, dspy.Prediction(label="other"))
    assert type(ours) is dspy.Prediction


# --- wherever a metric goes ------------------------------------------------------------------


def test_check_and_evaluate_on_threads_processes_and_an_executor():
    adapted = sj.from_dspy_metric(label_metric)
    expected = [
        (1.0, "Correct."),
        (1.0, "Correct."),
        (0.0, "Expected 'other', got 'technical'."),
    ]
    report = sj.check(adapted, TICKETS, outputs="label", run=keyword)
    assert report.passed
    assert [(case.score, case.feedback) for case in report.cases] == expected
    threads = sj.evaluate(adapted, TICKETS, outputs="label", run=keyword, concurrency=3)
    assert [(case.score, case.feedback) for case in threads.cases] == expected
    processes = sj.evaluate(adapted, TICKETS, outputs="label", run=keyword, isolation="process")
    assert [(case.score, case.feedback) for case in processes.cases] == expected
    with ProcessPoolExecutor(max_workers=1) as executor:
        sent = sj.evaluate(adapted, TICKETS, outputs="label", run=keyword, executor=executor)
    assert [(case.score, case.feedback) for case in sent.cases] == expected


def test_pickles_with_its_metric():
    adapted = sj.from_dspy_metric(label_metric, output_field="label", predictors=["self"])
    again = pickle.loads(pickle.dumps(adapted))
    assert isinstance(again, DSPyMetric)
    assert (again.metric, again.output_field, again.predictors) == (
        label_metric,
        "label",
        ("self",),
    )
    assert again({"text": "x"}, "billing", {"label": "billing"}) == (1.0, {"feedback": "Correct."})
    problem = pickle.loads(pickle.dumps(DSPyMetricError("dspy.return_none", function="m")))
    assert str(problem) == t("dspy.return_none", "en", function="m")


def test_gepa_adapter_reads_the_dspy_metrics_feedback():
    adapter = sj.to_gepa_adapter(sj.from_dspy_metric(label_metric), keyword, outputs="label")
    batch = adapter.evaluate(TICKETS, {"prompt": "Classify."}, capture_traces=True)
    assert batch.scores == [1.0, 1.0, 0.0]
    records = adapter.make_reflective_dataset({"prompt": "Classify."}, batch, ["prompt"])
    assert records["prompt"][2]["Feedback"] == "Expected 'other', got 'technical'."
