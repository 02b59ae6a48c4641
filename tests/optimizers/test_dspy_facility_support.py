"""Classification metrics in the shape of DSPy's GEPA Facility Support Analyzer tutorial (issue 44).

DSPy's GEPA tutorial on the Facility Support Analyzer brings a module of three
predictors (urgency, sentiment, a set of categories) and two metrics over a JSON answer:
a plain one that returns the mean of the three parts' scores, and a feedback one that,
given ``pred_name``, returns ``dspy.Prediction(score=..., feedback=...)`` with only that
predictor's feedback, and the bare total otherwise.  The program and the two metrics
below follow the shape of that tutorial (the signature ``metric(example, pred,
trace=None, pred_name=None, pred_trace=None)``, what they return, the predictor names)
and are written here, not copied.

Because the feedback metric writes feedback only for a predictor, through
``from_dspy_metric`` alone its cases have no feedback, and ``predictors=program`` asks
each predictor's.  Everything runs offline, on DSPy's own DummyLM.
"""

import json
from typing import Literal, get_args

import pytest

from tests.conftest import require_module

dspy = require_module("dspy")

import skynet_jupyter as sj  # noqa: E402

Urgency = Literal["low", "medium", "high"]
Sentiment = Literal["positive", "neutral", "negative"]
Category = Literal[
    "urgent_repair",
    "planned_maintenance",
    "health_and_safety",
    "deep_cleaning",
    "question",
    "environment",
    "staff_training",
    "scheduling",
    "praise_or_complaint",
    "building_management",
]
CATEGORIES = list(get_args(Category))


class RateUrgency(dspy.Signature):
    """Say how soon the facilities team has to act on this request."""

    message: str = dspy.InputField()
    urgency: Urgency = dspy.OutputField()


class ReadTheMood(dspy.Signature):
    """Say what mood the person who wrote this request is in."""

    message: str = dspy.InputField()
    sentiment: Sentiment = dspy.OutputField()


class TagTheRequest(dspy.Signature):
    """Tag this request with every category it belongs to, and only those."""

    message: str = dspy.InputField()
    categories: list[Category] = dspy.OutputField()


class TriageRequest(dspy.Module):
    """One predictor per part of the answer; their names are what GEPA gives as pred_name."""

    def __init__(self) -> None:
        super().__init__()
        self.urgency_module = dspy.ChainOfThought(RateUrgency)
        self.sentiment_module = dspy.ChainOfThought(ReadTheMood)
        self.categories_module = dspy.ChainOfThought(TagTheRequest)

    def forward(self, message: str) -> dspy.Prediction:
        return dspy.Prediction(
            urgency=self.urgency_module(message=message).urgency,
            sentiment=self.sentiment_module(message=message).sentiment,
            categories=self.categories_module(message=message).categories,
        )


program = TriageRequest()


def label_part(part: str, wanted: str, given: str) -> tuple[float, str]:
    """A single-label part (urgency, sentiment): 1 or 0, and a note that says which."""
    if given == wanted:
        return 1.0, f"{part.capitalize()} `{given}` is right."
    return 0.0, (
        f"{part.capitalize()} `{given}` is wrong: this request is `{wanted}`. "
        f"Look for the words in it that show its {part}."
    )


def categories_part(flags: dict[str, bool], given: list[str]) -> tuple[float, str]:
    """The categories: the share of the flags the tags agree with, and what to add or drop."""
    agreed = sum((name in given) == belongs for name, belongs in flags.items())
    extra = [name for name, belongs in flags.items() if name in given and not belongs]
    missed = [name for name, belongs in flags.items() if belongs and name not in given]
    if not extra and not missed:
        return 1.0, f"Categories `{sorted(given)}` are all right."
    notes = [f"Categories: {agreed} of {len(flags)} agree."]
    if extra:
        notes.append(f"Tagged but not in this request: `{extra}`.")
    if missed:
        notes.append(f"In this request but not tagged: `{missed}`.")
    return agreed / len(flags), " ".join(notes)


def judge(example, pred) -> dict[str, tuple[float, str]]:
    """Each predictor's (score, feedback), by the predictor's name."""
    gold = json.loads(example["answer"])
    return {
        "urgency_module.predict": label_part("urgency", gold["urgency"], pred.urgency),
        "sentiment_module.predict": label_part("sentiment", gold["sentiment"], pred.sentiment),
        "categories_module.predict": categories_part(gold["categories"], pred.categories),
    }


def triage_score(example, pred, trace=None, pred_name=None, pred_trace=None):
    """The mean of the three parts' scores: a plain DSPy metric."""
    parts = judge(example, pred).values()
    return sum(score for score, _ in parts) / len(parts)


def triage_feedback(example, pred, trace=None, pred_name=None, pred_trace=None):
    """The same total, with the feedback of the predictor GEPA names (the total alone without)."""
    parts = judge(example, pred)
    total = sum(score for score, _ in parts.values()) / len(parts)
    if pred_name is None:
        return total
    return dspy.Prediction(score=total, feedback=parts[pred_name][1])


PREDICTORS = ["urgency_module.predict", "sentiment_module.predict", "categories_module.predict"]


def gold(urgency: str, sentiment: str, *categories: str) -> str:
    """An answer as JSON text: the urgency, the sentiment, and every category true or false."""
    flags = {name: name in categories for name in CATEGORIES}
    return json.dumps({"categories": flags, "sentiment": sentiment, "urgency": urgency})


MESSAGES = [
    (
        "The boiler in building B broke: no heat since the morning.",
        gold("high", "negative", "urgent_repair"),
    ),
    (
        "Thank you for the spotless cleaning last week.",
        gold("low", "positive", "praise_or_complaint"),
    ),
    (
        "Can you tell me your recycling policy?",
        gold("low", "neutral", "question", "environment"),
    ),
]
# What the model answers (one reply serves the three predictors): all right; the
# sentiment and one category wrong; the urgency and one category wrong.
REPLIES = {
    "boiler": {
        "reasoning": "No heat.",
        "urgency": "high",
        "sentiment": "negative",
        "categories": ["urgent_repair"],
    },
    "spotless": {
        "reasoning": "Praise.",
        "urgency": "low",
        "sentiment": "neutral",
        "categories": ["praise_or_complaint", "scheduling"],
    },
    "recycling": {
        "reasoning": "A question.",
        "urgency": "medium",
        "sentiment": "neutral",
        "categories": ["question"],
    },
}
TOTALS = [1.0, (1.0 + 0.0 + 0.9) / 3, (0.0 + 1.0 + 0.9) / 3]  # urgency, sentiment, 9/10 categories


def task_lm() -> dspy.utils.DummyLM:
    return dspy.utils.DummyLM(REPLIES)


def rows() -> list[dict]:
    return [{"message": message, "answer": answer} for message, answer in MESSAGES]


def devset() -> list:
    # DSPy examples with the message as the only input, as a DSPy user builds them.
    return [
        dspy.Example({"message": message, "answer": answer}).with_inputs("message")
        for message, answer in MESSAGES
    ]


def check(metric_for_skynet):
    run = sj.from_dspy_program(program, lm=task_lm())
    return sj.check(metric_for_skynet, rows(), outputs="answer", run=run)


def predictions() -> list:
    with dspy.context(lm=task_lm()):
        return [program(**example.inputs()) for example in devset()]


def test_the_plain_metric_scores_as_dspy_evaluate_scores():
    report = check(sj.from_dspy_metric(triage_score))
    assert report.passed
    with dspy.context(lm=task_lm()):
        theirs = dspy.Evaluate(devset=devset(), metric=triage_score, num_threads=1)(program)
    assert [case.score for case in report.cases] == [value for _, _, value in theirs.results]
    assert [case.score for case in report.cases] == pytest.approx(TOTALS)
    assert [case.feedback for case in report.cases] == ["", "", ""]


def test_without_predictors_the_feedback_metric_gives_its_total_and_no_feedback():
    # pred_name is None outside GEPA's reflection: the feedback metric returns the total.
    report = check(sj.from_dspy_metric(triage_feedback))
    assert report.passed
    assert [case.score for case in report.cases] == pytest.approx(TOTALS)
    assert [case.feedback for case in report.cases] == ["", "", ""]
    advice = next(step for step in report.steps if step.id == "feedback_advice")
    assert "Empty feedback" in advice.message


@pytest.mark.parametrize("predictors", ["program", "names"])
def test_predictors_give_each_predictors_feedback_under_its_name(predictors):
    chosen = program if predictors == "program" else PREDICTORS
    report = check(sj.from_dspy_metric(triage_feedback, predictors=chosen))
    assert report.passed
    assert [case.score for case in report.cases] == pytest.approx(TOTALS)
    for case, example, prediction in zip(report.cases, devset(), predictions(), strict=True):
        # What GEPA's reflection gives each predictor, asked the way GEPA asks it.
        each = [
            f"{name}: {triage_feedback(example, prediction, None, name, None).feedback}"
            for name in PREDICTORS
        ]
        assert case.feedback == "\n\n".join(each)
    assert (
        "sentiment_module.predict: Sentiment `neutral` is wrong: this request is `positive`."
    ) in report.cases[1].feedback
    assert "In this request but not tagged: `['environment']`." in report.cases[2].feedback


def test_the_signature_step_names_from_dspy_metric():
    with pytest.raises(sj.ContractError) as caught:
        sj.load_metric(triage_feedback)
    assert caught.value.step == "metric_signature"
    assert "score = from_dspy_metric(triage_feedback)" in str(caught.value)


def test_predictors_need_a_metric_that_takes_pred_name():
    def two_arguments(example, pred):
        return 1.0

    with pytest.raises(ValueError, match="takes no pred_name") as caught:
        sj.from_dspy_metric(two_arguments, predictors=program)
    assert "\n" not in str(caught.value)


def test_back_in_dspy_gepa_each_predictor_reads_its_own_feedback():
    adapted = sj.to_dspy_metric(sj.from_dspy_metric(triage_feedback, predictors=program))
    example, prediction = devset()[1], predictions()[1]
    for name in PREDICTORS:
        assert adapted(example, prediction, None, name, None) == triage_feedback(
            example, prediction, None, name, None
        )
    reflection = dspy.utils.DummyLM(
        [{"new_instruction": "Read the message and name its urgency."}] * 10,
        adapter=dspy.JSONAdapter(),
    )
    optimizer = dspy.GEPA(
        metric=adapted,
        max_metric_calls=12,
        reflection_lm=reflection,
        reflection_minibatch_size=3,
        num_threads=1,
        use_merge=False,
    )
    with dspy.context(lm=task_lm()):
        optimizer.compile(TriageRequest(), trainset=devset(), valset=devset())
    prompts = [entry["messages"][-1]["content"] for entry in reflection.history]
    # Each predictor reads the feedback written for it, and only that one.
    urgency = next(text for text in prompts if "how soon the facilities team" in text)
    assert (
        '"Feedback": "Urgency `medium` is wrong: this request is `low`. Look for the words '
        'in it that show its urgency."'
    ) in urgency
    assert "Sentiment `" not in urgency and "Categories" not in urgency
    sentiment = next(text for text in prompts if "what mood the person" in text)
    assert "Sentiment `neutral` is wrong: this request is `positive`." in sentiment
    assert "Urgency `" not in sentiment and "Categories" not in sentiment
