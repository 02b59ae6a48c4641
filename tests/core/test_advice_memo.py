"""The adviser remembers its answers per feedback text, never across what else it reads.

``is_generic`` depends on the feedback only; ``names_target`` on the feedback,
the case's expected values and its output.  Both are memoized (a metric says
the same few sentences case after case), so the same feedback on cases with
other expected values or outputs must still get each case's own answer, in any
order.  ``advise`` reads the first ``ADVICE_CASES`` cases that returned a pair,
however many cases the report holds.
"""

from __future__ import annotations

from skynet_jupyter.core import advice
from skynet_jupyter.core.advice import ADVICE_CASES, advise, is_generic, names_target
from skynet_jupyter.core.report import ADVICE, PASSED, CaseResult, CheckReport


def case(index, score, feedback, expected=None, output="other") -> CaseResult:
    result = CaseResult(index, {"text": "..."}, expected, output=output)
    result.score = score
    result.feedback = feedback
    return result


def test_the_same_feedback_names_a_target_for_one_case_and_not_another():
    feedback = "Got 'cat'."
    names_cat = case(0, 0.0, feedback, {"label": "cat"}, output="dog")  # names the expected
    quotes_output = case(1, 0.0, feedback, {"label": "dog"}, output="cat")  # only the output
    quotes_other = case(2, 0.0, feedback, {"label": "dog"}, output="bird")  # another value
    nested = case(3, 0.0, feedback, {"labels": ["cow", {"k": "cat"}]}, output="bird")
    # "cat" is among the expected values, and it is the output: an echo (issue 44, item 15).
    echoed = case(4, 0.0, feedback, {"labels": ["cow", {"k": "cat"}]}, output="cat")
    for _ in range(2):  # the second time from memory: the same answers
        assert names_target(feedback, names_cat) is True
        assert names_target(feedback, quotes_output) is False
        assert names_target(feedback, quotes_other) is True
        assert names_target(feedback, nested) is True  # names "cat" among the expected values
        assert names_target(feedback, echoed) is False
    not_text = case(4, 0.0, "Got '3'.", {"label": 4}, output=3)  # 3 is not a str output
    assert names_target("Got '3'.", not_text) is True


def test_generic_feedback_answers_are_the_same_from_memory():
    for _ in range(2):
        assert is_generic("Wrong.") is True
        assert is_generic("WRONG!!") is True
        assert is_generic("Expected 'billing'.") is False
        assert is_generic("") is True


def test_memory_answers_as_the_uncached_reading_does():
    texts = ["Wrong.", "Expected 'billing', got 'other'.", "The label is off.", "Got 'other'."]
    for text in texts:
        for expected in ({"label": "billing"}, {"label": "other"}, None):
            one = case(0, 0.0, text, expected)
            leaves = tuple(advice._leaves(expected))
            assert names_target(text, one) is advice._names_target.__wrapped__(
                text, leaves, ("other",)
            )
        assert is_generic(text) is is_generic.__wrapped__(text)


def test_advice_reads_the_first_cases_with_a_pair_only():
    # The first ADVICE_CASES cases are all specific; the ones after say "Wrong.":
    # they are not read, and the cases without a pair before them do not count.
    failed = [CaseResult(i, {"text": "..."}, None, error="boom") for i in range(3)]
    good = [
        case(3 + i, float(i % 2), f"Expected 'x{i % 2}', got 'y{i}'.", {"label": f"x{i % 2}"})
        for i in range(ADVICE_CASES)
    ]
    late = [case(3 + ADVICE_CASES + i, 0.0, "Wrong.") for i in range(50)]
    step = advise(CheckReport(steps=[], cases=[*failed, *good, *late], lang="en"))
    assert step.status == PASSED
    assert f"{ADVICE_CASES} cases" in step.message
    # One more specific case fewer, and the first "Wrong." is read: flagged.
    step = advise(CheckReport(steps=[], cases=[*failed, *good[:-1], *late], lang="en"))
    assert step.status == ADVICE
    assert step.cases == (3 + ADVICE_CASES,)
