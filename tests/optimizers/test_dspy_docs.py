"""What DSPy does not give a Skynet metric is said where users read, and is true (issue 44, 14).

Through ``to_dspy_metric`` a metric with a ``REWARD_SPEC`` scores lower than in
``sj.evaluate`` (DSPy measures no run time, no cost: those parts are 0, and every
feedback says so), and every predictor reads the same feedback (the metric is not told
which predictor GEPA asks about).  Both were said only in a module docstring; the
README's DSPy section and tutorial 05 say them now.  The tutorial itself runs in
tests/docs/test_notebooks.py.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tests.conftest import require_module

dspy = require_module("dspy")

import skynet_jupyter as sj  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SPEED_NOTE = "Speed was not measured for this case, so its part of the reward is 0."
WITH_SPEED = """
from skynet import reward

REWARD_SPEC = {
    "weights": {"accuracy": 0.8, "speed": 0.2, "cost": 0},
    "speed": {"reference": 1000},
    "cost": {"reference": 0.01},
}

def score(input, output, expected=None):
    right = output == expected["label"]
    return reward(REWARD_SPEC, 1.0 if right else 0.0, "Correct." if right else "Wrong label.")
"""
TICKETS = [
    {"text": "I was charged twice.", "label": "billing"},
    {"text": "Do you have an office in Lisbon?", "label": "other"},
]


def readme_dspy_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n## DSPy\n" in text, "the README has a DSPy section"
    return " ".join(text.split("\n## DSPy\n", 1)[1].split("\n## ", 1)[0].split())


def tutorial_text() -> str:
    notebook = nbformat.read(ROOT / "notebooks" / "05-dspy.ipynb", as_version=4)
    words = " ".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    return " ".join(words.split())


def examples() -> list:
    return [dspy.Example(**row).with_inputs("text") for row in TICKETS]


def test_a_reward_spec_scores_lower_through_dspy_and_every_feedback_says_why():
    def run(artifact, input):
        return "billing"

    in_skynet = sj.evaluate(WITH_SPEED, TICKETS, outputs="label", run=run)
    metric = sj.to_dspy_metric(WITH_SPEED)
    through_dspy = [metric(example, dspy.Prediction(label="billing")) for example in examples()]
    assert [float(score) for score in through_dspy] == [0.8, 0.0]
    assert in_skynet.cases[0].score > 0.8  # its speed part, measured
    assert all(SPEED_NOTE in score.feedback for score in through_dspy)
    assert not any(SPEED_NOTE in case.feedback for case in in_skynet.cases)


def test_every_predictor_reads_the_same_feedback():
    metric = sj.to_dspy_metric(WITH_SPEED)
    example, prediction = examples()[1], dspy.Prediction(label="billing")
    read = {
        name: metric(example, prediction, None, name, None).feedback
        for name in ("classify.predict", "explain.predict", None)
    }
    assert len(set(read.values())) == 1


@pytest.mark.parametrize("where", ["README's DSPy section", "tutorial 05"])
def test_both_are_said_where_users_read(where):
    text = readme_dspy_section() if where == "README's DSPy section" else tutorial_text()
    lowered = text.lower()
    assert "reward_spec" in lowered
    assert "scores lower through dspy" in lowered or "lower than in `sj.evaluate`" in lowered
    assert "speed and cost parts are 0" in lowered
    assert "every predictor reads the same feedback" in lowered
    assert "pred_name" in text and "from_dspy_metric" in text


def test_the_tutorial_shows_it_with_to_dspy_metric_and_from_dspy_metric():
    notebook = nbformat.read(ROOT / "notebooks" / "05-dspy.ipynb", as_version=4)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    assert "REWARD_SPEC" in code and "sj.to_dspy_metric(with_speed)" in code
    assert "score = from_dspy_metric(metric)" in code
