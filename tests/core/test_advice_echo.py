"""The feedback adviser is not fooled by echoed output (issue 44, item 15).

A metric whose feedback is just the model's completion says nothing about what a correct
output looks like, even when the completion happens to hold the expected value ("… 540
meters per week …") or a word such as "should".  Echoing the output is not stating the
expected one: the adviser reads only what the feedback says around the echo.
"""

from __future__ import annotations

from html import unescape

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.advice import _plain, names_target
from skynet_jupyter.core.contract import FEEDBACK_ADVICE
from skynet_jupyter.core.report import ADVICE, CaseResult
from skynet_jupyter.show.render import report_html

COMPLETION = (
    "James runs 3 sprints 3 times a week, 60 meters each: 3 * 60 = 180 meters a session, "
    "so 540 meters per week. But he skips one session, so the answer should be 360."
)


def case(output, expected, feedback="", score=0.0) -> CaseResult:
    result = CaseResult(0, {"question": "How far does James run?"}, expected, output=output)
    result.score, result.feedback = score, feedback
    return result


def test_a_completion_echoed_as_feedback_names_no_target():
    echoed = case(COMPLETION, {"answer": "540"}, feedback=COMPLETION)
    assert names_target(COMPLETION, echoed) is False
    # The same words from the metric itself, beside the echo, do name one.
    said = f"You answered: {COMPLETION} The answer is 540."
    assert names_target(said, case(COMPLETION, {"answer": "540"})) is True
    assert names_target(f"{COMPLETION} Expected 540.", case(COMPLETION, {"answer": "540"}))


def test_a_structured_output_echoed_as_feedback_names_no_target():
    output = {"reasoning": COMPLETION, "answer": "360"}
    echoed = case(output, {"answer": "540"})
    assert names_target(f"Reasoning: {COMPLETION} Answer: 360", echoed) is False
    assert names_target(f"Reasoning: {COMPLETION} Answer: 360. Want 540.", echoed) is True


def test_an_output_that_is_the_target_echoed_is_no_target_either():
    # A right answer scored low, "Got 'billing'.": it repeats the output, it teaches nothing.
    assert names_target("Got 'billing'.", case("billing", {"label": "billing"})) is False
    assert names_target("Got 'billing', want 'billing'.", case("billing", {"label": "x"}))


def echo_metric(input, output, expected=None):
    parsed = output.rsplit(" ", 1)[-1].rstrip(".")
    return float(parsed == expected["answer"]), {"feedback": output}


ROWS = [
    {"question": "How far does James run?", "answer": "540", "prediction": COMPLETION},
    {
        "question": "How many apples?",
        "answer": "12",
        "prediction": "Six and six make 12 apples: 10.",
    },
]


def test_the_check_flags_echoed_feedback_in_the_text_and_the_html():
    report = sj.check(echo_metric, ROWS, outputs="answer", output_column="prediction")
    step = report.step(FEEDBACK_ADVICE)
    assert step.status == ADVICE and step.cases == (0, 1)
    assert (
        "The feedback on cases 0, 1 comes with a low score but does not say what a correct "
        "output looks like"
    ) in step.message
    assert step.message in " ".join(str(report).split("\n"))
    assert step.message in unescape(report_html(report))
    assert "No advice" not in str(report)


# --- the property: an echo alone never names a target ---------------------------------------

TEXT = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(output=TEXT, expected=TEXT)
def test_the_output_alone_never_names_a_target(output, expected):
    assert names_target(output, case(output, {"answer": expected})) is False
    assert names_target(f"Output: {output}", case(output, {"answer": expected})) is False


@settings(max_examples=300, deadline=None)
@given(output=TEXT, expected=st.from_regex(r"[A-Za-z0-9]{1,12}", fullmatch=True))
def test_the_expected_value_said_beside_the_echo_names_it(output, expected):
    said = f"{output}\nThe answer is {expected}."
    # An output that is the expected value itself (or holds "the answer is 5") cannot be
    # told from its echo there: a right answer scored low, which the feedback only repeats.
    assume(_plain(output) not in _plain(said.split("\n", 1)[1]))
    assert names_target(said, case(output, {"answer": expected})) is True


@pytest.mark.parametrize("lang", ["fr", "pt"])
def test_target_words_inside_the_echo_do_not_count_in_any_language(lang):
    words = {"fr": "il faut 360, attendu", "pt": "deve ser 360, esperado"}[lang]
    output = f"Résultat : {words}"
    assert names_target(output, case(output, {"answer": "540"})) is False
    assert names_target(f"{output} — attendu : 540", case(output, {"answer": "540"})) is True


LONG_COMPLETION = "He runs 3 sprints of 60 meters 3 times, so 540 meters per week. Final: 180"


@pytest.mark.parametrize(
    "feedback",
    [
        LONG_COMPLETION[:60],  # cut mid-word
        LONG_COMPLETION.split(". ")[0] + ".",  # the first sentence
        "Model said: " + LONG_COMPLETION[:70],
        "Model said: '" + LONG_COMPLETION[:45] + "'",  # quoted: still the output's words
        "… " + LONG_COMPLETION[10:58] + " …",  # from its middle
    ],
)
def test_a_partial_echo_of_the_output_names_no_target(feedback):
    """Found by the attack on issue 44: a prefix of the output, its first sentence, or
    "Model said: " and a prefix, was taken as saying what a correct output looks like,
    because the expected value ("540") is in the echoed words.  Any long enough piece of
    the output said again is an echo, not a target; what the metric says around it still
    counts."""
    echoed = case(LONG_COMPLETION, {"answer": "540"})
    assert names_target(feedback, echoed) is False
    assert names_target(feedback + " Expected 540.", echoed) is True
    assert names_target(feedback + " The answer is 540.", echoed) is True

    def score(input, output, expected=None):
        ok = output.strip().endswith(expected["answer"])
        return (1.0 if ok else 0.0), {"feedback": feedback}

    rows = [{"q": f"how far {i}", "answer": "540"} for i in range(3)]
    report = sj.check(score, rows, outputs="answer", run=lambda a, i: LONG_COMPLETION)
    step = report.step(FEEDBACK_ADVICE)
    assert "does not say what a correct output looks like" in step.message
