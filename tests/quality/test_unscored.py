"""A quality report over cases the metric did not score says so first and never passes.

A judge that was never configured, or that always raises, leaves every case without
a score: that is no steady judge, no ungameable metric, no agreement and no "same
scores" (issue 24, item 1).  Also: a single kind of human label is not weak agreement,
and a limit that is not a finite number is refused (item 5).
"""

from __future__ import annotations

import math

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t
from tests.quality_support import JUDGED, TICKETS, cell, judge, quality_shell, register

LABELS = {"outputs": "label", "output_column": "label", "lang": "en"}


def raising(instructions, input):
    raise RuntimeError("the judge is down")


def judge_down() -> sj.ModelSettings:
    return sj.ModelSettings(metric_model=raising)


def down_on_lisbon(instructions, input):
    """A strict judge (PASS for the expected label only), down on the Lisbon ticket (case 2)."""
    if "Expected: other" in input:
        raise RuntimeError("the judge is down")
    expected = input.split("Expected: ", 1)[1].split("\n", 1)[0]
    return "PASS" if input.split("Answer: ", 1)[1] == expected else "FAIL"


@pytest.fixture
def no_judge(monkeypatch):
    """No metric model anywhere: not given, not configured, not in the environment."""
    for name in ("SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(name, raising=False)
    sj.configure(reset=True)
    yield
    sj.configure(reset=True)


def body(report) -> list[str]:
    """The report's text after its title and subtitle."""
    return str(report).splitlines()[2:]


def nothing_measured(report, count: int) -> None:
    """The first thing the report says is that nothing was measured, in text and HTML.

    A metric model never configured stops the first pass at its first case (issue 43,
    rule 1): the report says that configuration sentence first, then nothing was measured.
    """
    if report.stop is not None:  # the sentence alone: no verdict over nothing measured
        assert report.stop.kind == "no_model" and report.stop.case == 0
        assert body(report) == ["  ! " + report.stop.sentence]
        assert report.stop.sentence.startswith("No metric model is configured")
        assert 'skq-title skq-bad"' in report._repr_html_()
        return
    first = body(report)[0]
    assert first.startswith("  ! Nothing was measured: the metric scored none of the ")
    assert f"none of the {count} cases (case 0: " in first
    html = report._repr_html_()
    assert 'skq-title skq-bad"' in html
    # The sentence is the body's first box, before any verdict or table.
    assert html.index("Nothing was measured") < html.index("<table")


@pytest.mark.parametrize("models", ["unconfigured", "raising"])
def test_stability_of_a_metric_that_never_scored_does_not_pass(no_judge, models):
    given = {} if models == "unconfigured" else {"models": judge_down()}
    report = sj.stability(JUDGED, TICKETS, repeats=3, **LABELS, **given)
    assert not report.passed
    assert report.unscored == [0, 1, 2, 3, 4] and report.scored == []
    assert math.isnan(report.flip_rate)
    nothing_measured(report, 5)
    text = str(report)
    assert "Every case got the same score" not in text
    assert "flip rate 0%" not in text and "flip rate —" in text
    if models == "raising":
        assert "RuntimeError: the judge is down" in body(report)[0]


def test_stability_says_which_cases_did_not_score_and_does_not_pass():
    models = judge(down_on_lisbon)
    report = sj.stability(JUDGED, TICKETS, repeats=3, models=models, **LABELS)
    assert report.unscored == [2] and report.flipped == []
    assert not report.passed
    lines = body(report)
    assert lines[0].startswith("  ! 1 of 5 cases did not score (case 2: ")
    assert "the judge is down" in lines[0]
    assert lines[1] == t("quality.stability.stable_scored", "en", count=4, repeats=3)
    assert report.flip_rate == 0.0  # over the four cases that scored


@pytest.mark.parametrize("models", ["unconfigured", "raising"])
def test_probe_of_a_metric_that_never_scored_does_not_pass(no_judge, models):
    given = {} if models == "unconfigured" else {"models": judge_down()}
    report = sj.probe(JUDGED, TICKETS, **LABELS, **given)
    assert report.findings == [] and not report.passed
    assert report.unscored == [0, 1, 2, 3, 4]
    nothing_measured(report, 5)
    text = str(report)
    assert t("quality.probe.passed", "en") not in text
    # Said once: not again for each of the seven probes.
    assert "The metric failed on the" not in text


def test_probe_with_a_case_that_did_not_score_does_not_pass():
    report = sj.probe(JUDGED, TICKETS, models=judge(down_on_lisbon), **LABELS)
    assert report.unscored == [2] and not report.passed
    lines = body(report)
    assert lines[0].startswith("  ! 1 of 5 cases did not score (case 2: ")
    assert lines[1] == t("quality.probe.passed_scored", "en", count=4)


@pytest.mark.parametrize("models", ["unconfigured", "raising"])
def test_agreement_of_a_metric_that_never_scored_does_not_pass(no_judge, models):
    given = {} if models == "unconfigured" else {"models": judge_down()}
    rows = [dict(row, human="pass") for row in TICKETS]
    report = sj.agreement(JUDGED, rows, human="human", **LABELS, **given)
    assert report.n == 0 and report.failed == (0, 1, 2, 3, 4)
    assert not report.passed and not report.weak
    nothing_measured(report, 5)


@pytest.mark.parametrize("models", ["unconfigured", "raising"])
def test_compare_of_metrics_that_never_scored_does_not_say_they_agree(no_judge, models):
    given = {} if models == "unconfigured" else {"models": judge_down()}
    report = sj.compare(JUDGED, JUDGED, TICKETS, **LABELS, **given)
    if models == "raising":  # (unconfigured: metric a stopped the first pass, b never ran)
        assert report.unscored == [0, 1, 2, 3, 4]
    nothing_measured(report, 5)
    assert "Both gave the same score" not in str(report)


def test_magic_stability_with_a_judge_that_always_raises(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        register(shell, JUDGED)
        shell.user_ns["_judge"] = raising
        shell.run_cell("%config SkynetMagics.metric_model = _judge")
        result, _ = cell(
            shell,
            "r = %skynet_stability --data tickets --outputs label --output-column label "
            "--repeats 2",
        )
        result.raise_error()
        report = shell.user_ns["r"]
        assert not report.passed and report.unscored == [0, 1, 2, 3, 4]
        result, later = cell(shell, "r")
        assert "Nothing was measured" in later.outputs[0].data["text/plain"]


# --- item 5: every label the same; limits that are not finite numbers ----------------------


FROM_OUTPUT = """
def score(input, output, expected=None):
    return float(output), {"feedback": f"Scored {output}."}
"""


def rows(labels, scores):
    return [
        {"question": f"q{n}", "answer": score, "human": label}
        for n, (label, score) in enumerate(zip(labels, scores, strict=True))
    ]


def test_a_perfect_metric_on_labels_that_are_all_pass_is_not_weak():
    data = rows(["pass"] * 6, [0.9, 1.0, 0.8, 0.7, 1.0, 0.6])
    report = sj.agreement(FROM_OUTPUT, data, human="human", output_column="answer", lang="en")
    assert report.accuracy == 1.0 and math.isnan(report.kappa)
    assert not report.weak and report.advice is None
    assert report.single_label == "pass" and not report.passed
    said = t("quality.agree.one_label", "en", label="pass", other="fail", agreed=6, n=6)
    assert said in str(report) and "kappa cannot measure agreement" in said
    assert t("quality.agree.advice", "en") not in str(report)
    assert 'skq-title skq-warn"' in report._repr_html_()


def test_labels_that_are_all_fail_say_what_kappa_cannot_tell():
    data = rows(["no"] * 4, [0.1, 0.0, 0.9, 0.2])  # the metric passes case 2
    report = sj.agreement(FROM_OUTPUT, data, human="human", output_column="answer", lang="fr")
    assert report.accuracy == 0.75 and report.kappa == 0.0
    assert not report.weak
    said = t("quality.agree.one_label", "fr", label="échoué", other="réussi", agreed=3, n=4)
    assert said in str(report)


def test_numeric_labels_that_are_all_the_same_are_not_weak():
    data = rows([0.7] * 5, [0.1, 0.5, 0.9, 0.3, 0.2])
    report = sj.agreement(FROM_OUTPUT, data, human="human", output_column="answer", lang="pt")
    assert report.kind == "numeric" and math.isnan(report.spearman)
    assert not report.weak and report.advice is None
    assert t("quality.agree.one_value", "pt", label="0.7") in str(report)


def test_labels_that_differ_still_find_weak_agreement():
    data = rows(["pass", "fail", "pass", "fail"], [0.1, 0.9, 0.2, 0.8])
    report = sj.agreement(FROM_OUTPUT, data, human="human", output_column="answer")
    assert report.single_label is None and report.weak and not report.passed


@pytest.mark.parametrize("threshold", [math.nan, math.inf, -math.inf])
def test_a_threshold_that_is_not_finite_is_refused(threshold):
    data = rows(["pass", "fail"], [0.9, 0.1])
    with pytest.raises(ValueError, match="threshold must be a finite number"):
        sj.agreement(FROM_OUTPUT, data, human="human", output_column="answer", threshold=threshold)


def test_magic_agree_refuses_a_nan_threshold(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        register(shell, FROM_OUTPUT)
        shell.user_ns["labelled"] = rows(["pass", "fail"], [0.9, 0.1])
        result, _ = cell(
            shell,
            "%skynet_agree --data labelled --output-column answer --human human --threshold nan",
        )
        assert "threshold must be a finite number" in str(result.error_in_exec)
        assert type(result.error_in_exec).__name__ == "UsageError"
