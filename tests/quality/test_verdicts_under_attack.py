"""The quality tools' verdicts at their edges (issue 35, "Trust under attack").

A kappa of exactly 0.6 is not weak; a repeat that failed is a flip; the flip
rate is over the cases that scored, never over every case.  Through the public
functions, with data whose figures are worked out by hand.
"""

from __future__ import annotations

import threading

import pytest

import skynet_jupyter as sj
from skynet_jupyter.quality.agreement import WEAK, cohen_kappa

FROM_OUTPUT = """
def score(input, output, expected=None):
    return float(output), {"feedback": f"Scored {output}."}
"""


def rows(human: list[int], metric: list[int]) -> list[dict]:
    """Pass/fail labels (1 pass) against a metric whose score is its verdict."""
    return [
        {"q": f"q{n}", "answer": float(m), "human": "pass" if h else "fail"}
        for n, (h, m) in enumerate(zip(human, metric, strict=True))
    ]


# Worked out by hand: 16 of 18 agree, chance (15*15 + 3*3) / 18**2, kappa 3/5 exactly.
# The float formula (po - pc) / (1 - pc) gave 0.5999999999999996 here: "weak".
ROUNDED_DOWN = (
    [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0],
)
# 7 of 8 agree, chance (7*6 + 1*2) / 8**2: 0.6 by either formula.
EXACT = ([1, 1, 1, 1, 1, 1, 0, 1], [1, 1, 1, 1, 0, 1, 0, 1])


@pytest.mark.parametrize("labels", [EXACT, ROUNDED_DOWN], ids=["exact", "rounded_down"])
def test_a_kappa_of_exactly_the_threshold_is_not_weak(labels):
    human, metric = labels
    assert cohen_kappa(human, metric) == WEAK == 0.6
    report = sj.agreement(
        FROM_OUTPUT, rows(human, metric), human="human", output_column="answer", lang="en"
    )
    assert report.kappa == 0.6
    assert not report.weak and report.advice is None and report.passed
    assert "kappa 0.6" in str(report)


def test_a_kappa_just_under_the_threshold_is_weak():
    # One more disagreement: 15 of 18, chance (15*14 + 3*4) / 18**2, kappa 48/102.
    human, metric = ROUNDED_DOWN
    metric = [1 - m if n == 0 else m for n, m in enumerate(metric)]
    report = sj.agreement(
        FROM_OUTPUT, rows(human, metric), human="human", output_column="answer", lang="en"
    )
    assert report.kappa == pytest.approx(48 / 102) and report.weak and report.advice is not None


class Repeats:
    """A metric that fails its ``fail_on``-th call on "flaky" and every call on "broken"."""

    def __init__(self, fail_on: int = 2) -> None:
        self.fail_on = fail_on
        self.calls: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, input, output, expected=None):
        name = input["name"]
        with self.lock:
            self.calls[name] = self.calls.get(name, 0) + 1
            number = self.calls[name]
        if name == "broken" or (name == "flaky" and number == self.fail_on):
            raise RuntimeError(f"no score for {name} on call {number}")
        return 1.0, {"feedback": "Same as ever."}


NAMES = ["steady", "flaky", "broken", "calm"]


def stability_of(metric: Repeats) -> sj.quality.StabilityReport:
    data = [{"name": name, "out": "x", "label": "x"} for name in NAMES]
    return sj.stability(
        metric, data, repeats=3, outputs="label", output_column="out", concurrency=1, lang="en"
    )


def test_a_failed_repeat_is_a_flip_and_the_rate_is_over_the_scored_cases():
    report = stability_of(Repeats())
    flaky, broken = NAMES.index("flaky"), NAMES.index("broken")
    assert None in report.scores[flaky] and 1.0 in report.scores[flaky]
    assert report.flipped == [flaky]  # 1.0, then a failure: not the same score every time
    assert report.unscored == [broken]  # never scored: not a flip, and not measured
    assert report.scored == [0, flaky, 3]
    assert report.flip_rate == pytest.approx(1 / 3)  # over the 3 scored cases, not the 4
    assert report.per_case.loc[flaky, "flipped"] and report.per_case.loc[flaky, "failed_repeats"]
    assert report.advice is not None and not report.passed


def test_a_case_that_failed_in_every_repeat_is_no_flip():
    report = stability_of(Repeats(fail_on=0))  # only "broken" fails
    assert report.flipped == [] and report.unscored == [NAMES.index("broken")]
    assert report.flip_rate == 0.0  # 0 flips over the 3 scored cases
