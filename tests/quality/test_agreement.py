"""Agreement with human labels: ``sj.agreement`` and ``%skynet_agree``, with kappa,
Spearman and Pearson checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

import skynet_jupyter as sj
from skynet_jupyter.quality import AgreementReport
from skynet_jupyter.quality.agreement import cohen_kappa, pearson, ranks, spearman
from tests.quality_support import cell, quality_shell, register, widget_outputs

# The metric reads its score from the output; the human labels sit in their own column.
FROM_OUTPUT = """
def score(input, output, expected=None):
    assert "human" not in input, "the human labels reached the metric"
    return float(output), {"feedback": f"Scored {output}."}
"""

HUMAN = ["yes", "yes", "yes", "yes", "no", "no", "no", "no", "yes", "no"]
SCORES = [0.9, 0.8, 0.2, 0.7, 0.1, 0.6, 0.3, 0.0, 1.0, 0.4]
ROWS = [
    {"question": f"q{n}", "answer": score, "human": label}
    for n, (label, score) in enumerate(zip(HUMAN, SCORES, strict=True))
]


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        yield shell


def test_pass_fail_labels_give_accuracy_kappa_and_the_confusion_table():
    report = sj.agreement(FROM_OUTPUT, ROWS, human="human", output_column="answer", lang="en")
    assert isinstance(report, AgreementReport)
    assert report.kind == "binary" and report.n == 10
    # Threshold 0.5 → metric passes: 1 1 0 1 0 1 0 0 1 0 against human 1 1 1 1 0 0 0 0 1 0.
    # Agreement 8/10; each side says pass 5 times in 10, so chance = .5*.5 + .5*.5 = .5;
    # kappa = (.8 - .5) / (1 - .5) = .6.
    assert report.accuracy == pytest.approx(0.8)
    assert report.kappa == pytest.approx(0.6)
    assert report.confusion_counts == {(1, 1): 4, (1, 0): 1, (0, 1): 1, (0, 0): 4}
    assert report.confusion.to_numpy().tolist() == [[4, 1], [1, 4]]
    # Worst first: case 2 (human yes, score .2: .8 away), then case 5 (human no, .6 away).
    assert [(d.case, d.human, d.score) for d in report.disagreements] == [
        (2, "yes", 0.2),
        (5, "no", 0.6),
    ]
    assert report.disagreements[0].feedback == "Scored 0.2."
    assert report.spearman is None and report.pearson is None
    assert report.advice is None  # kappa .6 is not weak
    text = str(report)
    assert "accuracy 0.8" in text and "kappa 0.6" in text


def test_the_threshold_moves_the_verdicts():
    report = sj.agreement(FROM_OUTPUT, ROWS, human="human", output_column="answer", threshold=0.75)
    # Passes now: .9 .8 1.0 (cases 0, 1, 8): agreement 8/10 again, but 3 vs 5 passes:
    # chance = .3*.5 + .7*.5 = .5, kappa = .6 — and case 3 (.7, human yes) now disagrees.
    assert report.accuracy == pytest.approx(0.8)
    assert report.kappa == pytest.approx(0.6)
    assert [d.case for d in report.disagreements] == [2, 3]


def test_numeric_labels_give_spearman_and_pearson():
    ratings = [1, 2, 3, 4, 5]
    scores = [0.1, 0.3, 0.2, 0.8, 0.9]
    pairs = enumerate(zip(ratings, scores, strict=True))
    rows = [{"q": n, "answer": s, "human": r} for n, (r, s) in pairs]
    report = sj.agreement(FROM_OUTPUT, rows, human="human", output_column="answer")
    assert report.kind == "numeric" and report.n == 5
    # Ranks of the scores: 1 3 2 4 5; d = 0 1 1 0 0, sum d² = 2:
    # rho = 1 - 6*2 / (5*(25-1)) = 0.9.
    assert report.spearman == pytest.approx(0.9)
    # Deviations: ratings -2 -1 0 1 2; scores (mean .46) -.36 -.16 -.26 .34 .44.
    # Sxy = .72+.16+0+.34+.88 = 2.10; Sxx = 10; Syy = .532; r = 2.1 / sqrt(5.32).
    assert report.pearson == pytest.approx(2.1 / math.sqrt(5.32))
    assert report.accuracy is None and report.kappa is None
    assert "Spearman 0.9" in str(report)


def test_statistics_against_hand_values_and_scipy():
    assert ranks([3, 1, 3, 2]) == [3.5, 1.0, 3.5, 2.0]
    assert cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0]) == pytest.approx((0.75 - 0.5) / 0.5)
    assert math.isnan(cohen_kappa([1, 1], [1, 1]))  # chance agreement is 1
    assert math.isnan(pearson([1, 2, 3], [5, 5, 5]))
    stats = pytest.importorskip("scipy.stats")
    xs = [1, 2, 2, 3, 5, 5, 5, 8]
    ys = [0.3, 0.1, 0.4, 0.4, 0.9, 0.2, 0.7, 1.0]
    assert spearman(xs, ys) == pytest.approx(stats.spearmanr(xs, ys).statistic)
    assert pearson(xs, ys) == pytest.approx(stats.pearsonr(xs, ys).statistic)


def test_the_human_column_never_reaches_the_metric():
    seen = []

    def metric(input, output, expected=None):
        seen.append(set(input) | set(expected or {}))
        return 1.0, {"feedback": "Fine."}

    rows = [{"text": "a", "label": "x", "human": 1}, {"text": "b", "label": "y", "human": 0}]
    sj.agreement(metric, rows, human="human", outputs="label", output_column="label")
    assert seen == [{"text", "label"}, {"text", "label"}]


def test_unlabelled_cases_are_left_out_and_said():
    rows = [dict(row) for row in ROWS]
    rows[0]["human"] = ""
    rows[1]["human"] = None
    report = sj.agreement(FROM_OUTPUT, rows, human="human", output_column="answer")
    assert report.n == 8 and report.unlabeled == (0, 1)
    assert "2 cases have no human label" in str(report)


def test_clear_errors_for_a_wrong_human_column():
    with pytest.raises(sj.DataError, match=r"No column 'verdict'.*question, answer, human"):
        sj.agreement(FROM_OUTPUT, ROWS, human="verdict", output_column="answer")
    with pytest.raises(sj.DataError, match="must never reach the metric"):
        sj.agreement(FROM_OUTPUT, ROWS, human="human", outputs="human", output_column="answer")
    rows = [dict(row, human="maybe") for row in ROWS]
    with pytest.raises(sj.DataError, match=r"pass/fail words.*'maybe'"):
        sj.agreement(FROM_OUTPUT, rows, human="human", output_column="answer")


def test_weak_agreement_is_advised_and_everything_is_escaped():
    rows = [
        {"q": "<b>x</b>", "answer": 0.9, "human": "fail"},
        {"q": "y", "answer": 0.1, "human": "pass"},
        {"q": "z", "answer": 0.8, "human": "pass"},
    ]
    hostile = """
def score(input, output, expected=None):
    return float(output), {"feedback": "<img src=x onerror=alert(1)>"}
"""
    report = sj.agreement(hostile, rows, human="human", output_column="answer")
    assert report.kappa < 0.6 and report.advice is not None
    html = report._repr_html_()
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_magic_agree(shell):
    register(shell, FROM_OUTPUT)
    shell.user_ns["labelled"] = ROWS
    result, captured = cell(
        shell, "r = %skynet_agree --data labelled --output-column answer --human human"
    )
    result.raise_error()
    report = shell.user_ns["r"]
    assert report.kappa == pytest.approx(0.6) and report.n == 10
    assert "Agreement of metric" in widget_outputs(captured)[-1]["text/html"]
    result, _ = cell(shell, "%skynet_agree --data labelled --output-column answer --human nope")
    assert "No column 'nope'" in str(result.error_in_exec)
    result, _ = cell(shell, "%skynet_agree --data labelled --output-column answer")
    assert result.error_in_exec is not None  # --human is required


@pytest.mark.parametrize(
    ("lang", "none", "one", "two"),
    [
        ("en", "No disagreement.", "1 disagreement:", "2 disagreements, worst first:"),
        ("fr", "Aucun désaccord.", "1 désaccord :", "2 désaccords, les pires d'abord :"),
        ("pt", "Nenhuma discordância.", "1 discordância:", "2 discordâncias, as piores primeiro:"),
    ],
)
def test_the_disagreement_line_counts_in_words_before_the_table(lang, none, one, two):
    # It read "Disagreements, worst first: 1", a count a reader took for a case number.
    def report(labels: list[str]) -> str:
        rows = [dict(row, human=label) for row, label in zip(ROWS, labels, strict=True)]
        found = sj.agreement(FROM_OUTPUT, rows, human="human", output_column="answer", lang=lang)
        return str(found)

    agreeing = ["yes" if s >= 0.5 else "no" for s in SCORES]
    one_off = ["no", *agreeing[1:]]  # case 0 (score .9) failed by the person
    assert none in report(agreeing)
    assert one in report(one_off) and "worst first" not in report(one_off)
    assert two in report(HUMAN)
