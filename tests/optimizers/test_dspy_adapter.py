"""The DSPy adapter: one Skynet metric serving dspy.Evaluate and dspy.GEPA, offline.

Every DSPy program here runs for real on ``dspy.utils.DummyLM``.
"""

from __future__ import annotations

import inspect
import json
import pickle

import pytest

from tests.conftest import require_module

dspy = require_module("dspy")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from skynet_jupyter.models import settings as model_settings  # noqa: E402
from skynet_jupyter.optimizers.dspy_adapter import DSPyContractError, DSPyProgramRun  # noqa: E402

TICKETS = [
    ("I was charged twice.", "billing"),
    ("The app crashes on start.", "technical"),
    ("Do you have an office in Lisbon?", "other"),
]
LISBON_FEEDBACK = "Expected 'other', got 'billing'. Text: Do you have an office in Lisbon?"


class Ticket(dspy.Signature):
    """Classify the support ticket."""

    text: str = dspy.InputField()
    label: str = dspy.OutputField()


def task_lm() -> dspy.utils.DummyLM:
    # Answers by a word of the ticket: deterministic under any thread order.
    return dspy.utils.DummyLM(
        {
            "charged": {"label": "billing"},
            "crashes": {"label": "technical"},
            "Lisbon": {"label": "billing"},
        }
    )


def devset() -> list:
    return [dspy.Example(text=text, label=label).with_inputs("text") for text, label in TICKETS]


def rows() -> list[dict]:
    return [{"text": text, "label": label} for text, label in TICKETS]


def exact(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}. Text: {input['text']}"}


# --- the metric, called as DSPy calls it -----------------------------------------


def test_evaluate_call_form_gives_score_and_feedback():
    metric = sj.to_dspy_metric(exact)
    example = devset()[2]
    result = metric(example, dspy.Prediction(label="billing"))
    assert isinstance(result, dspy.Prediction)
    assert result.score == 0.0
    assert result.feedback == LISBON_FEEDBACK
    assert float(metric(devset()[0], dspy.Prediction(label="billing"))) == 1.0


def test_evaluate_call_form_with_trace():
    metric = sj.to_dspy_metric(exact)
    result = metric(devset()[0], dspy.Prediction(label="billing"), None)
    assert (result.score, result.feedback) == (1.0, "Correct.")
    traced = metric(devset()[0], dspy.Prediction(label="other"), [("predictor", {}, {})])
    assert traced.score == 0.0


def test_gepa_call_form_and_signature():
    metric = sj.to_dspy_metric(exact)
    inspect.signature(metric).bind(None, None, None, None, None)  # what dspy.GEPA checks
    pred = dspy.Prediction(label="technical")
    result = metric(devset()[1], pred, [], "self", [("predictor", {"text": "x"}, pred)])
    assert (result.score, result.feedback) == (1.0, "Correct.")


def test_truth_is_the_score_for_bootstrap_demos():
    metric = sj.to_dspy_metric(exact)
    assert metric(devset()[0], dspy.Prediction(label="billing"), trace=[])
    assert not metric(devset()[0], dspy.Prediction(label="other"), trace=[])


def test_input_expected_output_shapes():
    seen = []

    def record(input, output, expected=None):
        seen.append((input, output, expected))
        return 1.0, {"feedback": "ok"}

    metric = sj.to_dspy_metric(record)
    two_labels = dspy.Example(q="2+2?", answer="4", unit="none").with_inputs("q")
    metric(two_labels, dspy.Prediction(answer="4"))
    metric(two_labels, dspy.Prediction(reasoning="add", answer="4"))
    no_labels = dspy.Example(q="hi").with_inputs("q")
    metric(no_labels, dspy.Prediction(answer="4"))
    assert seen[0] == ({"q": "2+2?"}, "4", {"answer": "4", "unit": "none"})
    assert seen[1][1] == {"reasoning": "add", "answer": "4"}
    assert seen[2][2] is None


def test_two_parameter_metric():
    metric = sj.to_dspy_metric(lambda input, output: (float(output == "4"), {"feedback": "f"}))
    assert metric(dspy.Example(q="2+2?").with_inputs("q"), dspy.Prediction(a="4")).score == 1.0


def test_metric_from_source_and_named_scores():
    source = (
        "def score(input, output, expected=None):\n"
        "    ok = output == expected['label']\n"
        "    return float(ok), {'feedback': 'ok' if ok else 'no', 'scores': {'exact': ok * 1}}\n"
    )
    result = sj.to_dspy_metric(source)(devset()[0], dspy.Prediction(label="billing"))
    assert result.score == 1.0
    assert result.objective_scores == {"exact": 1.0}


def test_metric_cannot_change_the_example():
    def rude(input, output, expected=None):
        input["text"] = "changed"
        expected["label"] = "changed"
        return 1.0, {"feedback": "ok"}

    example = devset()[0]
    sj.to_dspy_metric(rude)(example, dspy.Prediction(label="billing"))
    assert (example.text, example.label) == ("I was charged twice.", "billing")


@pytest.mark.parametrize(
    ("lang", "title"),
    [("en", "Metric return value"), ("fr", "Valeur de retour de la métrique")],
)
def test_contract_violation_names_the_step(lang, title):
    metric = sj.to_dspy_metric(lambda input, output, expected=None: 0.8, lang=lang)
    with pytest.raises(sj.ContractError) as caught:
        metric(devset()[0], dspy.Prediction(label="billing"))
    assert isinstance(caught.value, DSPyContractError)
    assert caught.value.step == "metric_return_value"
    assert str(caught.value).startswith(t("labelled", lang, label=title, text=""))  # "Titre : "
    # One sentence for the mistake, whatever the number (issue 36): it says what to return.
    assert str(caught.value).endswith(t("return.only_number", lang))


def test_metric_exception_reaches_dspy_unchanged():
    def broken(input, output, expected=None):
        raise KeyError("label")

    with pytest.raises(KeyError):
        sj.to_dspy_metric(broken)(devset()[0], dspy.Prediction(label="billing"))


def test_reward_and_judge_work_inside_the_adapter():
    source = (
        "from skynet import llm, reward\n"
        "REWARD_SPEC = {'weights': {'accuracy': 1, 'speed': 0, 'cost': 1},\n"
        "               'speed': {'reference': 1000}, 'cost': {'reference': 0.01}}\n"
        "def score(input, output, expected=None):\n"
        "    verdict = llm('PASS or FAIL?', input=output)\n"
        "    return reward(REWARD_SPEC, 1.0 if verdict == 'PASS' else 0.0, verdict)\n"
    )
    before = model_settings._Configured.settings
    try:
        sj.configure(metric_model=lambda instructions, input: "PASS", task_model=None)
        result = sj.to_dspy_metric(source)(devset()[0], dspy.Prediction(label="billing"))
    finally:
        model_settings._Configured.settings = before
    assert result.score == pytest.approx(0.5)  # accuracy 1, cost not measured under DSPy: 0
    assert result.feedback.startswith("PASS\n\n")  # as written; the note, its own paragraph
    assert "Cost was not measured" in result.feedback
    assert result.objective_scores["accuracy"] == 1.0


def test_scores_are_floats_so_dspy_can_add_and_save_them(tmp_path):
    metric = sj.to_dspy_metric(exact)
    scores = [metric(example, dspy.Prediction(label="billing")) for example in devset()]
    assert all(isinstance(score, float) for score in scores)
    assert sum(scores) == 1.0 and json.dumps(scores) == "[1.0, 0.0, 0.0]"
    saved = tmp_path / "results.json"
    evaluator = dspy.Evaluate(devset=devset(), metric=metric, save_as_json=str(saved))
    with dspy.context(lm=task_lm()):
        evaluator(dspy.Predict(Ticket))
    assert [row["exact"] for row in json.loads(saved.read_text())] == [1.0, 1.0, 0.0]


def test_scores_pickle():
    result = sj.to_dspy_metric(exact)(devset()[0], dspy.Prediction(label="billing"))
    again = pickle.loads(pickle.dumps(result))
    assert (again.score, again.feedback, bool(again)) == (1.0, "Correct.", True)


# --- through dspy.Evaluate and dspy.GEPA, for real --------------------------------


@pytest.mark.parametrize("threads", [1, 4])
def test_dspy_evaluate_runs_the_adapted_metric(threads):
    evaluator = dspy.Evaluate(devset=devset(), metric=sj.to_dspy_metric(exact), num_threads=threads)
    with dspy.context(lm=task_lm()):
        outcome = evaluator(dspy.Predict(Ticket))
    assert outcome.score == pytest.approx(66.67)
    scores = [(float(score), score.feedback) for _, _, score in outcome.results]
    assert scores == [
        (1.0, "Correct."),
        (1.0, "Correct."),
        (0.0, LISBON_FEEDBACK),
    ]


def test_dspy_evaluate_reports_a_contract_violation_with_its_step(capfd):
    evaluator = dspy.Evaluate(
        devset=devset(),
        metric=sj.to_dspy_metric(lambda input, output, expected=None: (1.0, "fine")),
        num_threads=1,
        max_errors=100,
    )
    with dspy.context(lm=task_lm()):
        outcome = evaluator(dspy.Predict(Ticket))
    assert outcome.score == 0.0
    logged = capfd.readouterr().err  # dspy logs to its own stderr handler
    assert "Metric return value: The side information 'fine' is a str" in logged


def test_dspy_gepa_reads_the_feedback():
    arities = []
    metric = sj.to_dspy_metric(exact)

    def counted(gold, pred, trace=None, pred_name=None, pred_trace=None):
        arities.append(pred_name is not None)
        return metric(gold, pred, trace, pred_name, pred_trace)

    reflection = dspy.utils.DummyLM(
        [{"new_instruction": "Label each ticket billing, technical or other."}] * 10,
        adapter=dspy.JSONAdapter(),
    )
    optimizer = dspy.GEPA(
        metric=counted,
        max_metric_calls=9,
        reflection_lm=reflection,
        reflection_minibatch_size=3,
        num_threads=1,
    )
    with dspy.context(lm=task_lm()):
        optimizer.compile(dspy.Predict(Ticket), trainset=devset(), valset=devset())
    assert True in arities  # GEPA asked for the predictor-level feedback (5-argument form)
    prompts = " ".join(
        message["content"] for entry in reflection.history for message in entry["messages"]
    )
    # Our feedback text, exactly as the reflection model reads it.
    assert f'"Feedback": "{LISBON_FEEDBACK}"' in prompts


# --- a DSPy program as the run function --------------------------------------------


def test_check_runs_a_dspy_program():
    with dspy.context(lm=task_lm()):
        run = sj.from_dspy_program(dspy.Predict(Ticket))
    report = sj.check(exact, rows(), outputs="label", run=run)
    assert report.passed
    assert [case.output for case in report.cases] == ["billing", "technical", "billing"]
    assert [case.score for case in report.cases] == [1.0, 1.0, 0.0]
    assert all(case.run_ms is not None and case.run_ms > 0 for case in report.cases)


def test_same_metric_same_scores_both_ways():
    program = dspy.Predict(Ticket)
    with dspy.context(lm=task_lm()):
        run = sj.from_dspy_program(program)
        outcome = dspy.Evaluate(devset=devset(), metric=sj.to_dspy_metric(exact))(program)
    report = sj.evaluate(exact, rows(), outputs="label", run=run, concurrency=3)
    ours = [(case.score, case.feedback) for case in report.cases]
    theirs = [(float(score), score.feedback) for _, _, score in outcome.results]
    assert ours == theirs


def test_artifact_instructions_reach_the_model():
    lm = task_lm()
    program = dspy.Predict(Ticket)
    run = sj.from_dspy_program(program, lm=lm)
    assert run("Sort tickets into three queues.", {"text": "I was charged twice."}) == "billing"
    assert "Sort tickets into three queues." in str(lm.history[-1]["messages"])
    assert program.signature.instructions == "Classify the support ticket."
    run({"self": "Route each ticket."}, {"text": "I was charged twice."})
    assert "Route each ticket." in str(lm.history[-1]["messages"])
    other = dspy.Predict(Ticket.with_instructions("Another program."))
    run(other, {"text": "I was charged twice."})
    assert "Another program." in str(lm.history[-1]["messages"])


def test_bad_artifact_fails_the_run_step():
    run = sj.from_dspy_program(dspy.Predict(Ticket), lm=task_lm())
    report = sj.check(exact, rows(), outputs="label", run=run, artifact={"nope": "x"})
    assert not report.passed
    assert report.cases[0].failed_step == "run_function"
    assert "nope" in report.cases[0].error and "self" in report.cases[0].error


def test_several_output_fields_give_a_dict():
    class Reasoned(dspy.Signature):
        """Classify."""

        text: str = dspy.InputField()
        reasoning: str = dspy.OutputField()
        label: str = dspy.OutputField()

    lm = dspy.utils.DummyLM({"charged": {"reasoning": "money", "label": "billing"}})
    output = sj.from_dspy_program(dspy.Predict(Reasoned), lm=lm)(None, {"text": "charged"})
    assert output == {"reasoning": "money", "label": "billing"}


def test_program_run_pickles_and_refuses_non_programs():
    run = sj.from_dspy_program(dspy.Predict(Ticket), lm=task_lm())
    again = pickle.loads(pickle.dumps(run))
    assert isinstance(again, DSPyProgramRun)
    assert again(None, {"text": "The app crashes on start."}) == "technical"
    with pytest.raises(TypeError, match=r"dspy\.Module"):
        sj.from_dspy_program(lambda text: text)
