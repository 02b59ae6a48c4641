"""Judge stability: ``sj.stability`` and ``%skynet_stability`` with a stand-in judge that flips."""

from __future__ import annotations

import math
import sys

import pytest

import skynet_jupyter as sj
from skynet_jupyter.quality import StabilityReport
from tests.quality_support import (
    EXACT,
    JUDGED,
    TICKETS,
    Classify,
    Flipping,
    cell,
    gullible,
    judge,
    quality_shell,
    register,
    widget_outputs,
)


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        yield shell


def test_a_judge_that_flips_is_caught_and_advised():
    run = Classify()
    flipping = Flipping()
    models = judge(flipping)
    report = sj.stability(JUDGED, TICKETS, outputs="label", run=run, models=models, lang="en")
    assert isinstance(report, StabilityReport)
    assert report.repeats == 5
    assert report.flipped == [2] and report.flip_rate == pytest.approx(1 / 5)
    assert report.scores[2] == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert report.scores[0] == [1.0] * 5
    row = report.per_case.loc[2]
    assert row["mean"] == pytest.approx(0.6)
    assert row["std"] == pytest.approx(math.sqrt(0.24))  # population std of 1,0,1,0,1
    assert (row["min"], row["max"], row["distinct_feedbacks"]) == (0.0, 1.0, 2)
    assert report.per_case.loc[0, "std"] == 0.0
    assert report.mean_std == pytest.approx(math.sqrt(0.24) / 5)
    assert "temperature=0" in report.advice and "scale" in report.advice
    assert "temperature=0" in str(report) and "temperature=0" in report._repr_html_()
    # The run once per case; the judge once per case and repeat (no call was cached).
    assert run.calls == 5
    assert len(models.metric_model.calls) == 25
    assert not report.passed


def test_a_steady_metric_has_no_flips_and_no_advice():
    report = sj.stability(EXACT, TICKETS, outputs="label", output_column="label", repeats=3)
    assert report.flip_rate == 0.0 and report.flipped == [] and report.mean_std == 0.0
    assert report.advice is None and report.passed
    assert all(scores == [1.0, 1.0, 1.0] for scores in report.scores.values())
    assert "same score in all 3 repeats" in str(report)


def test_the_judge_cost_of_the_repeats_is_counted():
    prices = {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}
    once = sj.evaluate(
        JUDGED, TICKETS, outputs="label", output_column="label", models=judge(gullible, **prices)
    )
    single = sum(case.judge_cost_usd for case in once.cases)
    report = sj.stability(
        JUDGED,
        TICKETS,
        outputs="label",
        output_column="label",
        repeats=4,
        models=judge(gullible, **prices),
    )
    assert single > 0
    assert report.judge_cost_usd == pytest.approx(4 * single)


def test_repeats_must_be_two_or_more():
    for bad in (1, 0, 2.5, True, "3"):
        with pytest.raises(ValueError, match="repeats must be a whole number of 2 or more"):
            sj.stability(EXACT, TICKETS, outputs="label", output_column="label", repeats=bad)


def test_litellm_cache_is_set_aside_during_the_repeats_and_put_back():
    litellm = pytest.importorskip("litellm")
    sentinel = object()
    seen = []

    def metric(input, output, expected=None):
        seen.append(sys.modules["litellm"].cache)
        return 1.0, {"feedback": "Fine."}

    before = litellm.cache
    litellm.cache = sentinel
    try:
        report = sj.stability(metric, TICKETS, outputs="label", output_column="label", repeats=2)
        assert litellm.cache is sentinel
    finally:
        litellm.cache = before
    assert len(seen) == 10 and all(cache is None for cache in seen)
    assert report.model_cache_bypassed
    assert "cache" in str(report)


def test_magic_stability(shell):
    register(shell, JUDGED)
    shell.user_ns["_judge"] = sj.StandInModel(Flipping(), tag="")
    shell.run_cell("%config SkynetMagics.metric_model = _judge")
    result, captured = cell(
        shell,
        "r = %skynet_stability --data tickets --outputs label --run classify --artifact prompt "
        "--repeats 3",
    )
    result.raise_error()
    report = shell.user_ns["r"]
    assert report.repeats == 3 and report.flipped == [2]
    assert report.scores[2] == [1.0, 0.0, 1.0]
    assert shell.user_ns["classify"].calls == 5
    assert "Stability of metric" in widget_outputs(captured)[-1]["text/html"]
    # In a later cell the report shows itself.
    result, later = cell(shell, "r")
    assert "flip rate" in later.outputs[0].data["text/plain"]


def test_a_judge_without_a_price_is_said_not_silently_zero():
    def unpriced(instructions, input):
        return {"text": "PASS", "input_tokens": 10, "output_tokens": 1}  # tokens, no price

    models = sj.ModelSettings(metric_model=unpriced)
    report = sj.stability(
        JUDGED, TICKETS, outputs="label", output_column="label", repeats=2, models=models
    )
    assert report.judge_cost_usd is None and report.judge_unpriced == 10
    assert "10 cases called a judge with no known price" in str(report)


def test_stability_tells_its_listener_each_pass_and_the_report():
    from skynet_jupyter.quality._scoring import Phase, QualityFinished

    events: list = []
    report = sj.stability(
        EXACT, TICKETS[:2], outputs="label", run=Classify(), repeats=2, on_event=events.append
    )
    phases = [event for event in events if isinstance(event, Phase)]
    assert phases == [Phase("outputs", 0), Phase("repeats", 2)]  # outputs: 0, not yet known
    repeats = events[events.index(phases[1]) + 1 : -1]  # the engine's events of that pass
    assert [type(event).__name__ for event in repeats].count("CaseFinished") == 2
    assert type(repeats[-1]).__name__ == "Finished"
    assert isinstance(events[-1], QualityFinished) and events[-1].report is report
