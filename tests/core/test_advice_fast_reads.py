"""The adviser's quicker reads say what its plain reads said (issue 26).

``advise`` reads an expected dict of text without walking it as a tree
(``_expected_texts``), groups cases by feedback looking each distinct text up
once (``_by_feedback``), and rounds each distinct score once.  Each is compared
here with the plain way, written out in the test, on the inputs where they could
part: whitespace, nesting, numbers, subclasses, feedback that differs only in
case or accents, and scores that round to the same value (-0.0 and 0.0 too).
"""

from __future__ import annotations

import pytest

from skynet_jupyter.core import advice
from skynet_jupyter.core.advice import advise
from skynet_jupyter.core.report import CaseResult, CheckReport


class Text(str):
    pass


@pytest.mark.parametrize(
    "expected",
    [
        {"label": "cat"},
        {"label": "  padded  ", "other": "x"},
        {"label": "", "blank": "   ", "kept": "y"},
        {"label": Text("a str subclass")},
        {"n": 3, "f": 0.5, "b": True, "none": None},
        {"nested": {"a": "b"}, "list": ["c", ["d"]], "tuple": ("e",), "set": {"f"}},
        {"first": "text", "then": 4},
        {},
        None,
        ["not", "a", "dict"],
        "just text",
    ],
)
def test_expected_texts_are_the_leaves(expected):
    assert advice._expected_texts(expected) == tuple(advice._leaves(expected))


def _by_feedback_plainly(cases):
    groups: dict[str, list[CaseResult]] = {}
    first: dict[str, str] = {}
    for case in cases:
        key = advice._plain(case.feedback or "")
        text = first.setdefault(key, case.feedback or "")
        groups.setdefault(text, []).append(case)
    return groups


def _case(index, score, feedback, expected=None, output="dog") -> CaseResult:
    result = CaseResult(index, {"text": "..."}, expected or {"label": "cat"}, output=output)
    result.score, result.feedback = score, feedback
    return result


def test_cases_are_grouped_by_feedback_as_before():
    texts = ["Wrong.", "wrong", "WRONG!", "Très bien", "tres bien", "", None, "Wrong.", "other"]
    cases = [_case(n, 0.0, text) for n, text in enumerate(texts * 3)]
    fast, plain = advice._by_feedback(cases), _by_feedback_plainly(cases)
    assert list(fast) == list(plain)  # the same groups, in the same order
    assert {k: [c.index for c in v] for k, v in fast.items()} == {
        k: [c.index for c in v] for k, v in plain.items()
    }


@pytest.mark.parametrize(
    "scores",
    [
        [-1e-12, 0.0, 0.0],
        [0.0, -1e-12, -0.0],
        [0.5, 0.5000000000001, 0.4999999999999],
        [1.2345e-10, 0.0],
        [0.25, 0.25, 0.75],
    ],
)
def test_scores_rounded_once_each_say_what_rounding_each_case_said(scores):
    cases = [_case(n, score, "Expected 'cat', got 'dog'.") for n, score in enumerate(scores)]
    report = CheckReport(steps=[], cases=cases, total_cases=len(cases))
    step = advise(report)
    distinct = {round(score, 9) for score in scores}  # the plain way: every case rounded
    if len(distinct) == 1:
        assert f"{next(iter(distinct)):.3g}" in step.message
        assert "same feedback" not in step.message.lower()
    else:
        assert step.status == "advice" and "same feedback" in step.message.lower()
