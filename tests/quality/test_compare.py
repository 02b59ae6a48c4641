"""Two metrics on the same outputs: ``sj.compare`` and ``%skynet_compare`` (including the
edit loop's previous version of a registered metric)."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError

import skynet_jupyter as sj
from skynet_jupyter.quality import CompareReport
from tests.quality_support import (
    CONTAINS,
    EXACT,
    TICKETS,
    Classify,
    cell,
    quality_shell,
    register,
    widget_outputs,
)

# Half a point for a near miss: the feedback changes on every case, the score on some.
PARTIAL = """
def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Right label."}
    if output in ("billing", "technical") and want in ("billing", "technical"):
        return 0.5, {"feedback": f"Close: {output!r} is a support queue, but {want!r} is right."}
    return 0.0, {"feedback": f"Expected {want!r}."}
"""

SPEC = """
from skynet import reward

REWARD_SPEC = {{
    "weights": {{"accuracy": {acc}, "speed": {speed}, "cost": 1}},
    "speed": {{"reference": 2000}},
    "cost": {{"reference": 0.01}},
}}

def score(input, output, expected=None):
    ok = output == expected["label"]
    return reward(REWARD_SPEC, 1.0 if ok else 0.0, "Right." if ok else "Wrong.")
"""


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        yield shell


def wrong_on_some(artifact, input):
    """Right on cases 0, 2, 3; 'billing' for the two technical tickets (cases 1, 4)."""
    return Classify()(artifact, input).replace("technical", "billing")


def test_two_metrics_on_the_same_outputs():
    calls = []

    def run(artifact, input):
        calls.append(input["text"])
        return wrong_on_some(artifact, input)

    report = sj.compare(
        EXACT, PARTIAL, TICKETS, outputs="label", run=run, names=("exact", "partial")
    )
    assert isinstance(report, CompareReport)
    assert len(calls) == 5  # the run once per case, for both metrics
    frame = report.per_case
    assert list(frame.columns) == ["score_a", "score_b", "delta", "feedback_a", "feedback_b"]
    assert frame["score_a"].tolist() == [1.0, 0.0, 1.0, 1.0, 0.0]
    assert frame["score_b"].tolist() == [1.0, 0.5, 1.0, 1.0, 0.5]
    assert frame["delta"].tolist() == [0.0, 0.5, 0.0, 0.0, 0.5]
    assert report.changed == [1, 4]
    assert report.feedback_changed == [0, 1, 2, 3, 4]
    assert report.mean_delta == pytest.approx((0.5 + 0.5) / 5)
    assert report.reward_parts is None
    text = str(report)
    assert "2 of 5 cases changed score and 5 changed feedback" in text
    assert "mean change (b − a) +0.200" in text
    assert "Close: &#x27;billing&#x27;" in report._repr_html_()  # feedback, escaped


def test_identical_metrics_change_nothing():
    report = sj.compare(EXACT, EXACT, TICKETS, outputs="label", output_column="label")
    assert report.changed == [] and report.feedback_changed == [] and report.mean_delta == 0.0
    assert "same score and feedback on each of the 5" in str(report)
    assert (report.name_a, report.name_b) == ("default (a)", "default (b)")


def test_reward_decompositions_side_by_side():
    heavy = SPEC.format(acc=7, speed=2)
    even = SPEC.format(acc=1, speed=1)
    report = sj.compare(heavy, even, TICKETS, outputs="label", run=wrong_on_some)
    parts = report.reward_parts
    assert parts is not None
    assert parts["a"]["accuracy"][0] == pytest.approx(0.7)
    assert parts["b"]["accuracy"][0] == pytest.approx(1 / 3)
    assert parts["a"]["accuracy"][1] == pytest.approx(0.6) == parts["b"]["accuracy"][1]
    frame = report.per_case
    # Metric b scores the outputs with the real run's measurements: the same speed part.
    assert frame["speed_a"].tolist() == frame["speed_b"].tolist()
    assert all(0 < value <= 1 for value in frame["speed_a"])
    assert report.changed == [0, 1, 2, 3, 4]  # other weights: another reward on every case
    assert "Reward parts, side by side" in report._repr_html_()
    assert "Reward parts, side by side" in str(report)


def test_compare_with_a_metric_that_does_not_load_is_a_clear_error():
    with pytest.raises(sj.quality.MetricNotUsable, match="Metric signature"):
        sj.compare(EXACT, "def score():\n    return 1\n", TICKETS, output_column="label")


def test_magic_compare_two_registered_metrics(shell):
    register(shell, EXACT, "exact")
    register(shell, CONTAINS, "contains")
    line = "--data tickets --outputs label --run classify --artifact prompt"
    result, captured = cell(shell, f"r = %skynet_compare exact contains {line}")
    result.raise_error()
    report = shell.user_ns["r"]
    assert (report.name_a, report.name_b) == ("exact", "contains")
    assert report.changed == [] and report.feedback_changed == [0, 1, 2, 3, 4]
    assert shell.user_ns["classify"].calls == 5
    assert "exact → contains" in widget_outputs(captured)[-1]["text/html"]


def test_magic_compare_the_previous_version_of_an_edited_metric(shell):
    line = "--data tickets --outputs label --output-column label"
    register(shell, EXACT)
    result, _ = cell(shell, f"%skynet_compare default {line}")
    assert isinstance(result.error_in_exec, UsageError)
    assert "no previous version" in str(result.error_in_exec)
    register(shell, EXACT)  # the same source again: not a new version
    assert "default" not in shell.magics_manager.registry["SkynetMagics"].previous_metrics
    register(shell, PARTIAL)  # the edit
    result, _ = cell(shell, f"r = %skynet_compare {line}")
    result.raise_error()
    report = shell.user_ns["r"]
    assert (report.name_a, report.name_b) == ("default (previous)", "default")
    assert report.feedback_changed == [0, 1, 2, 3, 4]  # "Correct." became "Right label."
    assert report.changed == []  # the labels are the outputs: every score stays 1
    result, _ = cell(shell, f"%skynet_compare a b c {line}")
    assert "one or two metric names" in str(result.error_in_exec)
