"""A dspy.Prediction returned by a Skynet score is told in one line, with the fix (issue 44).

Its repr spans several lines, and it was shown as the value in "score returned ...
(a Prediction), not a pair", breaking the message over several lines.
"""

from __future__ import annotations

import pytest

from tests.conftest import require_module

dspy = require_module("dspy")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.i18n import LANGUAGES, t  # noqa: E402
from skynet_jupyter.optimizers.dspy_adapter import SkynetScore  # noqa: E402

FIX = 'return pred.score, {"feedback": pred.feedback}'


@pytest.mark.parametrize(
    "returned",
    [
        dspy.Prediction(score=0.5, feedback="Close.\nMissing the date."),
        dspy.Prediction(label="billing"),
        SkynetScore(score=1.0, feedback="to_dspy_metric's: a float too"),
    ],
    ids=["feedback", "fields", "to_dspy_metric"],
)
def test_validate_return_names_the_fix_in_one_line(returned):
    with pytest.raises(sj.ContractError) as caught:
        sj.validate_return(returned)
    assert caught.value.step == "metric_return_value"
    assert caught.value.message_id == "return.dspy_prediction"
    for lang in LANGUAGES:
        sentence = caught.value.message(lang)
        assert "\n" not in sentence
        assert "pred.score" in sentence and '{"feedback": pred.feedback}' in sentence
    assert FIX in str(caught.value)


def test_the_check_report_says_it_in_one_line_in_text_and_html():
    def score(input, output, expected=None):
        return dspy.Prediction(score=1.0, feedback="Correct.")

    report = sj.check(score, [{"text": "a", "label": "b"}], outputs="label", output_column="label")
    assert not report.passed
    assert report.cases[0].error == t("return.dspy_prediction", "en")
    step = next(step for step in report.steps if step.id == "metric_return_value")
    assert "\n" not in step.message and FIX in step.message
    assert FIX.replace('"', "&quot;") in report._repr_html_()
