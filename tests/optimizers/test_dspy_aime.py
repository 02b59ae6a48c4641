"""Integer-answer metrics in the shape of DSPy's GEPA tutorial for AIME, through Skynet (issue 44).

DSPy's GEPA tutorial "GEPA for AIME (Math)" brings a ChainOfThought over a problem ->
answer signature, a plain metric that scores an integer answer 1 or 0, and a feedback
metric that returns ``dspy.Prediction(score=..., feedback=...)``.  The program and the
two metrics below follow the shape of that tutorial (the signature ``metric(example,
prediction, trace=None, pred_name=None, pred_trace=None)``, what they return, what the
feedback tells the model) and are written here, not copied, so that what is tested is
the kind of metric a DSPy user brings.

``integer_answer_with_feedback`` goes into a ``metric.py`` and a ``%%skynet_metric``
cell as its own source, so it uses nothing else this module defines.
Everything runs offline, on DSPy's own DummyLM.
"""

import inspect
import json
import pickle
import re
import textwrap

import pytest

from tests.conftest import require_module

dspy = require_module("dspy")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from tests.cli_support import skynet_check  # noqa: E402


class SolveForAnInteger(dspy.Signature):
    """Work the problem through, then give its final result as one integer."""

    problem: str = dspy.InputField()
    answer: str = dspy.OutputField(desc="the integer alone, with no words or units")


solver = dspy.ChainOfThought(SolveForAnInteger)


def integer_answer(example, prediction, trace=None, pred_name=None, pred_trace=None):
    """True when the reply is an integer and the expected one: a pass/fail DSPy metric."""
    reply = str(prediction.answer).strip()
    # Only digits with a sign at most count as an integer reply; "five" or "42 apples" do not.
    return re.fullmatch(r"[+-]?\d+", reply) is not None and int(reply) == int(example["answer"])


def integer_answer_with_feedback(example, prediction, trace=None, pred_name=None, pred_trace=None):
    """Score 1 or 0 as integer_answer does, with feedback for GEPA's reflection to read.

    The feedback says what was wrong with the reply, always gives the expected integer,
    and quotes the worked solution when the example has one.
    """
    expected = int(example["answer"])
    reply = str(prediction.answer).strip()
    if re.fullmatch(r"[+-]?\d+", reply) is None:
        score = 0
        verdict = (
            f"The reply {reply!r} is not an integer: the answer field takes one integer "
            "and nothing around it, no words, units or working."
        )
    elif int(reply) == expected:
        score, verdict = 1, "Right."
    else:
        score, verdict = 0, f"Wrong: the reply {reply} is not the answer; recheck each step."
    notes = [verdict, f"The expected answer is {expected}."]
    worked = example.get("solution", "")
    if worked:
        notes.append(f"Worked solution:\n{worked}")
    return dspy.Prediction(score=score, feedback=" ".join(notes))


# Three problems with integer answers (problem in; solution and answer the labels).
PROBLEMS = [
    ("What is 6 times 7?", "6 * 7 = 42.", "42"),
    ("What is 2 plus 3?", "2 + 3 = 5.", "5"),
    ("What is 10 minus 3?", "10 - 3 = 7.", "7"),
]
# What the model answers: right, not an integer, wrong.
REPLIES = {
    "6 times 7": {"reasoning": "Six sevens.", "answer": "42"},
    "2 plus 3": {"reasoning": "Add them.", "answer": "five"},
    "10 minus 3": {"reasoning": "Take away.", "answer": "8"},
}


def task_lm() -> dspy.utils.DummyLM:
    return dspy.utils.DummyLM(REPLIES)


def rows() -> list[dict]:
    return [
        {"problem": problem, "solution": solution, "answer": answer}
        for problem, solution, answer in PROBLEMS
    ]


def devset() -> list:
    # DSPy examples with the problem as the only input, as a DSPy user builds them.
    return [
        dspy.Example({"problem": p, "solution": s, "answer": a}).with_inputs("problem")
        for p, s, a in PROBLEMS
    ]


def dspy_results(dspy_metric) -> list[tuple[float, str]]:
    """What dspy.Evaluate itself gets from ``dspy_metric`` on the devset: (score, feedback)."""
    with dspy.context(lm=task_lm()):
        outcome = dspy.Evaluate(devset=devset(), metric=dspy_metric, num_threads=1)(solver)
    return [
        (float(getattr(value, "score", value)), getattr(value, "feedback", ""))
        for _, _, value in outcome.results
    ]


def check_through_skynet(metric_for_skynet, **options):
    run = sj.from_dspy_program(solver, lm=task_lm())
    return sj.check(metric_for_skynet, rows(), outputs=["solution", "answer"], run=run, **options)


# --- the signature step and to_dspy_metric name from_dspy_metric ---------------------------


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
@pytest.mark.parametrize(
    "dspy_metric", [integer_answer, integer_answer_with_feedback], ids=["metric", "feedback"]
)
def test_the_signature_step_says_dspy_and_names_from_dspy_metric(dspy_metric, lang):
    # Before: it loaded as score(input, output, expected), trace taking the expected value,
    # and failed on the first case with a KeyError ('answer' is not an input).
    with pytest.raises(sj.ContractError) as caught:
        sj.load_metric(dspy_metric)
    problem = caught.value
    assert problem.step == "metric_signature"
    assert problem.message_id == "signature.dspy"
    sentence = problem.message(lang)
    assert f"score = from_dspy_metric({dspy_metric.__name__})" in sentence
    assert "\n" not in sentence and sentence.endswith(".")
    assert "DSPy" in sentence


def test_the_check_report_shows_the_signature_step_failing_with_the_fix():
    report = sj.check(
        integer_answer_with_feedback, rows(), outputs=["solution", "answer"], output_column="answer"
    )
    assert not report.passed
    step = next(step for step in report.steps if step.id == "metric_signature")
    assert "from_dspy_metric(integer_answer_with_feedback)" in step.message
    assert "score = from_dspy_metric(metric)" in step.hint  # the fix agrees with the message
    assert "KeyError" not in str(report)


@pytest.mark.parametrize(
    "dspy_metric", [integer_answer, integer_answer_with_feedback], ids=["metric", "feedback"]
)
def test_to_dspy_metric_of_a_dspy_metric_says_so_in_one_sentence(dspy_metric):
    # Before: to_dspy_metric accepted it, and DSPy's first call raised a bare KeyError.
    with pytest.raises(sj.ContractError) as caught:
        adapted = sj.to_dspy_metric(dspy_metric)
        adapted(devset()[0], dspy.Prediction(answer="42"))
    sentence = str(caught.value)
    assert sentence == t(
        "dspy.already_dspy",
        "en",
        found=f"{dspy_metric.__name__}{inspect.signature(dspy_metric)}",
        function=dspy_metric.__name__,
    )
    assert "from_dspy_metric" in sentence and "\n" not in sentence


# --- from_dspy_metric: the same answers as DSPy's ------------------------------------------


def test_the_feedback_metric_through_check_gives_dspys_scores_and_feedback():
    report = check_through_skynet(sj.from_dspy_metric(integer_answer_with_feedback))
    assert report.passed
    ours = [(case.score, case.feedback) for case in report.cases]
    assert ours == dspy_results(integer_answer_with_feedback)
    assert [score for score, _ in ours] == [1.0, 0.0, 0.0]
    assert "The reply 'five' is not an integer" in ours[1][1]
    assert "The expected answer is 5. Worked solution:\n2 + 3 = 5." in ours[1][1]
    assert ours[2][1].startswith(
        "Wrong: the reply 8 is not the answer; recheck each step. The expected answer is 7."
    )


def test_the_plain_metric_gives_its_score_and_no_feedback():
    report = check_through_skynet(sj.from_dspy_metric(integer_answer))
    assert report.passed
    assert [(case.score, case.feedback) for case in report.cases] == [
        (1.0, ""),
        (0.0, ""),
        (0.0, ""),
    ]
    assert [score for score, _ in dspy_results(integer_answer)] == [1.0, 0.0, 0.0]
    advice = next(step for step in report.steps if step.id == "feedback_advice")
    assert "Empty feedback" in advice.message  # the adviser reads it as it is


def test_evaluate_gives_dspy_evaluates_mean():
    run = sj.from_dspy_program(solver, lm=task_lm())
    report = sj.evaluate(
        sj.from_dspy_metric(integer_answer_with_feedback),
        rows(),
        outputs=["solution", "answer"],
        run=run,
        concurrency=3,
    )
    with dspy.context(lm=task_lm()):
        theirs = dspy.Evaluate(devset=devset(), metric=integer_answer_with_feedback, num_threads=3)(
            solver
        )
    assert theirs.score == round(report.mean_score * 100, 2)  # DSPy shows a rounded percentage


def test_back_to_dspy_the_metric_gives_its_own_answers():
    adapted = sj.to_dspy_metric(sj.from_dspy_metric(integer_answer_with_feedback))
    assert inspect.signature(adapted) == inspect.signature(integer_answer_with_feedback)
    example, prediction = devset()[1], dspy.Prediction(reasoning="r", answer="five")
    theirs = integer_answer_with_feedback(example, prediction)
    ours = adapted(example, prediction, None, "predict", None)
    assert type(ours) is type(theirs) and ours.toDict() == theirs.toDict()
    assert dspy_results(adapted) == dspy_results(integer_answer_with_feedback)
    assert adapted(devset()[0], dspy.Prediction(answer="42")).score == 1
    from_source = sj.to_dspy_metric(METRIC_PY)  # metric.py's score = from_dspy_metric(...)
    assert from_source(example, prediction).toDict() == theirs.toDict()
    plain_again = sj.to_dspy_metric(sj.from_dspy_metric(integer_answer))
    assert plain_again(devset()[0], dspy.Prediction(answer="x")) == 0


# --- wherever a metric goes ------------------------------------------------------------------

METRIC_PY = (
    "import re\n\n"
    "import dspy\n"
    "from skynet_jupyter import from_dspy_metric\n\n\n"
    + textwrap.dedent(inspect.getsource(integer_answer_with_feedback))
    + "\n\nscore = from_dspy_metric(integer_answer_with_feedback)\n"
)


def test_metric_py_with_from_dspy_metric_passes_skynet_check(tmp_path):
    (tmp_path / "metric.py").write_text(METRIC_PY, encoding="utf-8")
    data = [
        {**row, "prediction": reply["answer"]}
        for row, reply in zip(rows(), REPLIES.values(), strict=True)
    ]
    lines = ["problem,solution,answer,prediction"] + [
        ",".join(f'"{row[column]}"' for column in ("problem", "solution", "answer", "prediction"))
        for row in data
    ]
    (tmp_path / "data.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = skynet_check(
        "metric.py",
        "--data",
        "data.csv",
        "--outputs",
        "answer",
        "--output-column",
        "prediction",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    cases = json.loads(done.stdout)["cases"]
    assert [case["score"] for case in cases] == [1.0, 0.0, 0.0]
    # The solution is an input column here, so the example has it: the feedback quotes it.
    assert "The expected answer is 5. Worked solution:\n2 + 3 = 5." in cases[1]["feedback"]


def test_a_cell_that_calls_from_dspy_metric_registers_and_checks(shell):
    shell.user_ns.update(problems=rows(), solve=sj.from_dspy_program(solver, lm=task_lm()))
    done = shell.run_cell(f"%%skynet_metric aime\n{METRIC_PY}")
    done.raise_error()
    done = shell.run_cell(
        "report = %skynet_check --metric aime --data problems --outputs solution,answer --run solve"
    )
    done.raise_error()
    report = shell.user_ns["report"]
    assert report.passed
    assert [case.score for case in report.cases] == [1.0, 0.0, 0.0]
    assert report.cases[1].feedback == dspy_results(integer_answer_with_feedback)[1][1]


def test_process_workers_and_pickles():
    adapted = sj.from_dspy_metric(integer_answer_with_feedback)
    again = pickle.loads(pickle.dumps(sj.load_metric(adapted)))
    assert again.score({"problem": "p"}, "42", {"answer": "42"})[0] == 1.0
    run = sj.from_dspy_program(solver, lm=task_lm())
    report = sj.check(adapted, rows(), outputs=["solution", "answer"], run=run, isolation="process")
    assert report.passed
    assert [case.score for case in report.cases] == [1.0, 0.0, 0.0]
