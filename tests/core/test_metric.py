"""load_metric: callables, source text and files; call forms; load failures."""

from __future__ import annotations

import pickle

import pytest

import skynet_jupyter as sj
from skynet_jupyter import ContractError, load_metric


def test_three_parameter_form():
    metric = load_metric(lambda input, output, expected=None: (1.0, {"feedback": ""}))
    assert metric.arity == 3 and metric.call_form == "score(input, output, expected)"


def test_two_parameter_form():
    def score(input, output):
        return 1.0, {"feedback": ""}

    metric = load_metric(score)
    assert metric.arity == 2 and metric.call_form == "score(input, output)"
    assert metric({"a": 1}, "x", {"never": "passed"}) == (1.0, {"feedback": ""})


@pytest.mark.parametrize(
    "source",
    [
        "def score(input):\n    return 1.0, {'feedback': ''}\n",
        "def score():\n    return 1.0, {'feedback': ''}\n",
        "def score(a, b, c, d):\n    return 1.0, {'feedback': ''}\n",
        "def score(*, input, output):\n    return 1.0, {'feedback': ''}\n",
    ],
)
def test_other_signatures_are_refused_naming_what_was_found(source):
    with pytest.raises(ContractError) as caught:
        load_metric(source)
    assert caught.value.step == "metric_signature"
    assert "score(" in str(caught.value)


def test_extra_optional_parameters_are_fine():
    metric = load_metric("def score(input, output, expected=None, trace=None):\n  return 1\n")
    assert metric.arity == 3


def test_missing_score():
    with pytest.raises(ContractError, match="no function named score") as caught:
        load_metric("def scor(input, output):\n    pass\n")
    assert caught.value.step == "metric_signature"


def test_score_that_is_not_a_function():
    with pytest.raises(ContractError, match="not a function"):
        load_metric("score = 3\n")


def test_syntax_error_names_the_line():
    with pytest.raises(ContractError) as caught:
        load_metric("x = 1\ndef score(input, output:\n    pass\n")
    assert caught.value.step == "metric_loads"
    assert "line 2" in str(caught.value)


def test_load_failure_shows_only_the_users_frames():
    source = "import json\n\ndef helper():\n    raise RuntimeError('boom')\n\nhelper()\n"
    with pytest.raises(ContractError) as caught:
        load_metric(source, name="mine")
    problem = caught.value
    assert problem.step == "metric_loads"
    assert "RuntimeError: boom" in str(problem)
    assert "<skynet_metric mine>" in problem.detail
    assert "raise RuntimeError('boom')" in problem.detail  # the user's line is shown
    assert "skynet_jupyter" not in problem.detail.replace("<skynet_metric mine>", "")


def test_source_runs_as_its_own_module():
    notebook_name = 42  # noqa: F841 - a name the metric must not see
    with pytest.raises(ContractError, match="runs as its own module") as caught:
        load_metric("LIMIT = notebook_name\ndef score(input, output):\n    return 1.0, {}\n")
    assert caught.value.step == "metric_loads"
    assert "'notebook_name'" in str(caught.value)


def test_reward_spec_is_read_and_validated():
    good = (
        "REWARD_SPEC = {'weights': {'accuracy': 1, 'speed': 1, 'cost': 0}, 'accuracy': {},"
        " 'speed': {'reference': 100}, 'cost': {'reference': 0.01}}\n"
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': ''}\n"
    )
    metric = load_metric(good)
    assert metric.reward_spec.weights["accuracy"] == 0.5
    with pytest.raises(ContractError) as caught:
        load_metric(good.replace("'speed': 1", "'speed': -1"))
    assert caught.value.step == "reward_spec"


def test_from_a_file(tmp_path):
    path = tmp_path / "metric.py"
    path.write_text("def score(input, output, expected=None):\n    return 0.5, {'feedback': 'x'}\n")
    metric = load_metric(path)
    assert metric.path == str(path.resolve())
    assert metric.score({}, None, None) == (0.5, {"feedback": "x"})
    assert load_metric(str(path)).arity == 3


def test_missing_file():
    with pytest.raises(ContractError, match="No metric file") as caught:
        load_metric("nowhere/metric.py")
    assert caught.value.step == "metric_loads"


def test_metric_from_source_pickles_as_its_source():
    metric = load_metric("def score(input, output):\n    return 2.0, {'feedback': 'y'}\n", name="m")
    again = pickle.loads(pickle.dumps(metric))
    assert again.name == "m" and again.source == metric.source
    assert again.score({}, None) == (2.0, {"feedback": "y"})


def test_skynet_helpers_import_inside_a_metric():
    metric = load_metric(
        "from skynet import llm, reward, observation, service_cost\n"
        "def score(input, output):\n    return 1.0, {'feedback': str(observation().run_ms)}\n"
    )
    assert metric.score({}, None) == (1.0, {"feedback": "None"})


def test_check_reports_a_load_failure_as_a_failed_step(tickets):
    report = sj.check("def score(:\n", tickets, outputs="label", output_column="text")
    assert not report.passed
    assert [s.status for s in report.steps][:2] == ["failed", "skipped"]
    assert report.steps[0].id == "metric_loads"
    assert report.cases == []


# --- a DSPy metric at the signature step (issue 44) -------------------------------------


@pytest.mark.parametrize(
    "parameters",
    [
        "example, prediction, trace=None, pred_name=None, pred_trace=None",  # DSPy's GEPA docs
        "gold, pred, trace=None, pred_name=None, pred_trace=None",
        "gold, pred, trace, pred_name, pred_trace",  # no defaults: binds neither form
        "example, pred, trace=None",  # dspy.Evaluate and BootstrapFewShot
        "example, pred",
        "gold, prediction",
        "x, y, trace=None",  # trace where the contract passes expected
        "input, output, expected=None, pred_name=None",  # GEPA's names anywhere
    ],
)
@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_dspy_parameters_are_refused_naming_from_dspy_metric(parameters, lang):
    source = f"def metric({parameters}):\n    return 1.0\n\nscore = metric\n"
    with pytest.raises(ContractError) as caught:
        load_metric(source)
    problem = caught.value
    assert problem.step == "metric_signature"
    assert problem.message_id == "signature.dspy"
    sentence = problem.message(lang)
    assert sentence.count("\n") == 0 and sentence.endswith(".")
    assert f"metric({parameters})" in sentence
    assert "score = from_dspy_metric(metric)" in sentence
    assert "DSPy" in sentence


@pytest.mark.parametrize(
    "parameters",
    [
        "input, output, expected=None, trace=None",  # an extra optional parameter of its own
        "example, output, expected=None",  # one DSPy word alone is the metric's own name
        "inp, pred, expected=None",
        "question, answer",
    ],
)
def test_skynet_metrics_with_dspy_like_words_still_load(parameters):
    metric = load_metric(f"def score({parameters}):\n    return 1.0, {{'feedback': ''}}\n")
    assert metric.arity in (2, 3)


def test_a_dspy_callable_is_refused_by_its_own_name():
    def validate_answer(example, pred, trace=None):
        return example.answer == pred.answer

    with pytest.raises(ContractError, match=r"score = from_dspy_metric\(validate_answer\)"):
        load_metric(validate_answer)
    with pytest.raises(ContractError, match=r"score = from_dspy_metric\(metric\)"):
        load_metric(lambda example, pred, trace=None: 1.0)
