"""Issue 35, item 2, measured directly: in ``HeldOutAgreement`` a held-out case the judge
failed on is a disagreement (pass/fail labels) or the farthest rank from the human's
label (numeric labels), never a case left out of the measure."""

from __future__ import annotations

import math

import pytest

from tests.conftest import require_module

gepa = require_module("gepa")

from skynet_jupyter.alignment.judge_adapter import HeldOutAgreement  # noqa: E402
from skynet_jupyter.quality.agreement import (  # noqa: E402
    AgreementReport,
    cohen_kappa,
    pearson,
    spearman,
)
from tests.align_support import scripted_align, split_positions  # noqa: E402


def held_out(
    kind: str, values: dict[int, float], scores: dict[int, float], failed: tuple[int, ...] = ()
) -> HeldOutAgreement:
    return HeldOutAgreement(
        metric_name="judge",
        lang="en",
        human="human",
        threshold=0.5,
        kind=kind,
        labels=dict(values),
        values=dict(values),
        scores=scores,
        feedbacks=dict.fromkeys(scores),
        failed=failed,
    )


def test_a_failed_pass_fail_case_is_a_disagreement():
    report = held_out("binary", {0: 1, 1: 0, 2: 1, 3: 0}, {0: 1.0, 1: 0.0}, failed=(2, 3))
    assert report.accuracy == 0.5
    assert report.kappa == cohen_kappa([1, 0, 1, 0], [1, 0, 0, 1])
    assert report.confusion_counts == {(1, 1): 1, (1, 0): 1, (0, 1): 1, (0, 0): 1}
    whole = held_out("binary", {0: 1, 1: 0}, {0: 1.0, 1: 0.0})
    assert whole.accuracy == 1.0 and whole.spearman is None


def test_a_failed_numeric_case_ranks_farthest_from_its_label():
    values = {0: 1.0, 1: 2.0, 2: 4.0, 3: 5.0, 4: 1.0}
    scores = {0: 0.1, 1: 0.3, 2: 0.8}
    report = held_out("numeric", values, scores, failed=(3, 4))
    # 5 is in the upper half of 1..5: below every score (0.1 - 1); 1 above them (0.8 + 1).
    xs, ys = [1.0, 2.0, 4.0, 5.0, 1.0], [0.1, 0.3, 0.8, 0.1 - 1.0, 0.8 + 1.0]
    assert report.spearman == pytest.approx(spearman(xs, ys))
    assert report.pearson == pytest.approx(pearson(xs, ys))
    assert report.accuracy is None and report.kappa is None
    scored_only = held_out("numeric", {c: values[c] for c in scores}, scores)
    assert scored_only.spearman == pytest.approx(spearman([1, 2, 4], [0.1, 0.3, 0.8]))
    assert report.spearman < scored_only.spearman
    # Every case failed: below 0 for a high label, above 1 for a low one.
    # (A label at the middle of the range counts as upper.)
    none = held_out("numeric", {0: 1.0, 1: 5.0, 2: 3.0, 3: 2.0}, {}, failed=(0, 1, 2, 3))
    assert none.pearson == pytest.approx(pearson([1, 5, 3, 2], [2.0, -1.0, -1.0, 2.0]))
    one = held_out("numeric", {0: 1.0}, {}, failed=(0,))
    assert one.spearman is None


def test_without_failures_the_measures_are_sj_agreements():
    values, scores = {0: 1.0, 1: 3.0, 2: 5.0}, {0: 0.2, 1: 0.9, 2: 0.5}
    mine = held_out("numeric", values, scores)
    theirs = AgreementReport(
        metric_name="judge",
        lang="en",
        human="human",
        threshold=0.5,
        kind="numeric",
        labels=values,
        values=values,
        scores=scores,
        feedbacks=dict.fromkeys(scores),
    )
    assert mine.spearman == theirs.spearman and mine.pearson == theirs.pearson


def test_the_frame_has_one_row_per_held_out_case_failed_ones_included():
    humans = ["pass", "fail"] * 10
    train, held = split_positions(20, 6, 0)

    def behave(version: int, case: int) -> str:
        if case in train:
            return "right" if version >= 1 else "wrong"
        if case == held[0]:
            return "wrong" if version == 0 else "right"
        return "raising" if case == held[1] and version >= 1 else "right"

    report, _, _ = scripted_align(humans, behave, val=6)
    frame = report.to_frame()
    assert list(frame.index) == held
    assert list(frame.columns) == ["human", "before", "after"]
    assert frame.loc[held[0], "human"] == humans[held[0]]
    assert math.isnan(frame.loc[held[1], "after"])
    assert frame.loc[held[2], "before"] == frame.loc[held[2], "after"]
