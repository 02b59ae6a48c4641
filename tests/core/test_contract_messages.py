"""The words of the contract: each broken rule's exact sentence, the value as shown
(cut to a readable length), what counts as a number, and the hint chosen for each
kind of case failure.

Fast, in-process unit tests of ``skynet_jupyter.core.contract`` (part of the mutation
testing selection in pyproject.toml).
"""

from __future__ import annotations

import enum
import math
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.core.contract import (
    METRIC_LOADS,
    METRIC_RETURN_VALUE,
    METRIC_TIME_LIMIT,
    RUN_FUNCTION,
    ContractError,
    case_hint,
    number_problem,
    raised_at,
    safe_value_repr,
    short_repr,
    validate_return,
)
from skynet_jupyter.i18n import t


def said(value) -> ContractError:
    with pytest.raises(ContractError) as caught:
        validate_return(value)
    assert caught.value.step == METRIC_RETURN_VALUE
    return caught.value


class BrokenRepr:
    def __repr__(self) -> str:
        raise ValueError("no repr")


class LongRepr:
    def __repr__(self) -> str:
        return "<" + "".join(chr(ord("a") + i % 26) for i in range(98)) + ">"


class _Walkless:
    def __len__(self) -> int:
        raise RuntimeError("no len")

    def __iter__(self):
        raise RuntimeError("no iter")


# reprlib picks its method by the type's name: this one is walked as a list.
BadLength = type("list", (_Walkless,), {})


class Level(enum.IntEnum):
    HIGH = 3


class OddFloat(float):
    pass


# --- number_problem ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, problem",
    [
        (0.5, None),
        (0.0, None),
        (-1e308, None),
        (math.nan, "nan"),
        (math.inf, "inf"),
        (-math.inf, "inf"),
        (3, None),
        (0, None),
        (10**400, None),
        (-(10**400), None),
        (True, "bool"),
        (False, "bool"),
        (np.bool_(True), "bool"),
        (Level.HIGH, None),
        (OddFloat(0.5), None),
        (OddFloat("nan"), "nan"),
        (OddFloat("-inf"), "inf"),
        (np.float64(0.5), None),
        (np.float32("nan"), "nan"),
        (np.float16("inf"), "inf"),
        (np.int64(7), None),
        (np.uint8(255), None),
        ("1.0", "type"),
        (None, "type"),
        (Decimal("1.5"), "type"),
        (Fraction(1, 2), "type"),
        (1j, "type"),
        (np.array([1.0]), "type"),
        (np.complex128(1), "type"),
    ],
)
def test_what_a_score_may_be(value, problem):
    assert number_problem(value) == problem


# --- the sentence for each broken rule ------------------------------------------------------


@pytest.mark.parametrize(
    "value, sentence",
    [
        (
            0.8,
            "score returned only a number, not a pair: return it with its feedback, (score, "
            '{"feedback": "what is wrong and what a correct output looks like"}).',
        ),
        (
            None,
            "score returned None (a return statement is missing, or returns nothing): return a "
            'pair, (score, {"feedback": "..."}).',
        ),
        (
            "0.8",
            "score returned '0.8' (a str), not a pair: return a tuple or list of two items, "
            '(score, {"feedback": "..."}).',
        ),
        (
            (1.0, {"feedback": "x"}, 3),
            "score returned 3 items ((1.0, {'feedback': 'x'}, 3)); a pair means exactly two: "
            '(score, {"feedback": "..."}).',
        ),
        (
            [1.0],
            "score returned 1 item ([1.0]); a pair means exactly two: "
            '(score, {"feedback": "..."}).',
        ),
        (
            ("0.8", {"feedback": "x"}),
            "The score '0.8' is a str, not a number: return an int or a float. A letter grade "
            "or a label needs a mapping of your own, such as GRADES = {'A': 1.0, 'B': 0.75, "
            "'C': 0.5, 'D': 0.25, 'F': 0.0}, then return GRADES[grade]; only text that holds a "
            "number converts with float().",
        ),
        (
            (True, {"feedback": "x"}),
            "The score True is a bool: return a number such as 1.0 or 0.0, which the optimizer "
            "can climb.",
        ),
        (
            (math.nan, {"feedback": "x"}),
            "The score is NaN: return a finite number (check for a division by zero).",
        ),
        ((-math.inf, {"feedback": "x"}), "The score -inf is infinite: return a finite number."),
        (
            (1.0, "fine"),
            'The side information \'fine\' is a str, not a dict: return {"feedback": "..."} as '
            "the second item.",
        ),
        (
            [1.0, {"note": "x"}],
            "The side information {'note': 'x'} has no \"feedback\" key: add \"feedback\" with a "
            "sentence saying what is wrong and what a correct output looks like.",
        ),
        (
            (1.0, {"feedback": 3}),
            'The "feedback" value 3 is a int, not a string: give the optimizer a sentence (str).',
        ),
        (
            (1.0, {"feedback": "x", "scores": [1]}),
            'The "scores" value [1] is a list, not a dict: map names to numbers, e.g. '
            '{"format": 1.0}.',
        ),
        (
            (1.0, {"feedback": "x", "scores": {"a": 1.0, 2: 1.0}}),
            'A key of "scores" is 2 (a int): name each score with a string.',
        ),
        (
            (1.0, {"feedback": "x", "scores": {"ok": 1, "fmt": "high"}}),
            "The named score \"fmt\" is 'high' (a str), not a number: give every entry of "
            '"scores" a number.',
        ),
        (
            (1.0, {"feedback": "x", "scores": {"fmt": False}}),
            'The named score "fmt" is a bool (False): use 1.0 or 0.0 instead.',
        ),
        (
            (1.0, {"feedback": "x", "scores": {"fmt": math.nan}}),
            'The named score "fmt" is NaN: give a finite number.',
        ),
        (
            (1.0, {"feedback": "x", "scores": {"fmt": np.float64("inf")}}),
            'The named score "fmt" is infinite (np.float64(inf)): give a finite number.',
        ),
    ],
)
def test_each_broken_rule_has_its_sentence(value, sentence):
    assert str(said(value)) == sentence


def test_the_fields_of_a_broken_rule_are_kept_for_other_languages():
    error = said((1.0, {"feedback": "x", "scores": {"fmt": "high"}}))
    assert error.message_id == "return.named_score_type"
    assert error.fields == {"value": "'high'", "name": "fmt", "type": "str"}
    assert error.message("fr") != str(error) and "fmt" in error.message("fr")


# --- what validate_return accepts --------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        (0.5, {"feedback": "x"}),
        [0.5, {"feedback": "x"}],
        (np.float64(0.5), {"feedback": "x"}),
        (OddFloat(0.5), {"feedback": "x"}),
        (0.5, {"feedback": "x", "scores": {}}),
        (0.5, {"feedback": "x", "scores": {"a": 1, "b": np.float32(0.5)}}),
    ],
)
def test_a_valid_pair_gives_a_float_and_the_same_side_information(value):
    score, info = validate_return(value)
    assert score == 0.5 and type(score) is float
    assert info is value[1]


@pytest.mark.parametrize(
    "value, rule",
    [
        ((math.nan, {"feedback": "x"}), "return.score_nan"),
        ((math.inf, {"feedback": "x"}), "return.score_inf"),
        ((0.5, {"feedback": 1}), "return.feedback_not_str"),
        ((0.5, {}), "return.no_feedback"),
        ((0.5, {"feedback": "x", "scores": {"a": "b"}}), "return.named_score_type"),
        ((0.5, {"feedback": "x", "scores": None}), "return.scores_not_dict"),
        ((0.5, ["feedback"]), "return.info_not_dict"),
    ],
)
def test_the_fast_path_refuses_what_looks_almost_valid(value, rule):
    assert said(value).message_id == rule


# --- how values are shown ------------------------------------------------------------------


def test_a_broken_repr_becomes_a_placeholder_naming_the_type():
    value = BrokenRepr()
    placeholder = "<unrepresentable BrokenRepr: __repr__ raised ValueError>"
    assert safe_value_repr(value) == placeholder
    assert short_repr(value) == placeholder
    assert short_repr([value]) == f"[{placeholder}]"
    assert safe_value_repr("x") == "'x'"


def test_a_container_that_cannot_be_walked_is_a_placeholder():
    assert short_repr(BadLength()) == ("<unrepresentable list: __repr__ raised RuntimeError>")


def test_a_long_object_repr_keeps_its_start_and_end():
    text = repr(LongRepr())
    assert len(text) == 100
    shown = short_repr(LongRepr())
    assert shown == text[:28] + "..." + text[-29:]
    assert len(shown) == 60


def test_an_object_repr_of_sixty_characters_is_whole():
    class Sixty:
        def __repr__(self) -> str:
            return "x" * 60

    class SixtyOne:
        def __repr__(self) -> str:
            return "y" * 61

    assert short_repr(Sixty()) == "x" * 60
    assert short_repr(SixtyOne()) == "y" * 28 + "..." + "y" * 29


def test_strings_numbers_and_containers_are_cut_to_readable_lengths():
    assert short_repr("a" * 58) == repr("a" * 58)
    long_text = short_repr("a" * 100)
    assert len(long_text) == 60 and "..." in long_text
    assert short_repr(10**50) == "1" + "0" * 17 + "..." + "0" * 19
    assert short_repr(10**38) == str(10**38)
    assert short_repr([1, 2, 3, 4]) == "[1, 2, 3, 4]"
    assert short_repr([1, 2, 3, 4, 5]) == "[1, 2, 3, 4, ...]"
    assert short_repr((1, 2, 3, 4, 5)) == "(1, 2, 3, 4, ...)"
    assert short_repr({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}) == (
        "{'a': 1, 'b': 2, 'c': 3, 'd': 4, ...}"
    )
    assert short_repr([[[1]]]) == "[[[1]]]"
    assert short_repr([[[[1]]]]) == "[[[[...]]]]"


# --- where the user's code raised ----------------------------------------------------------


def test_raised_at_names_the_last_frame_and_trims_its_name():
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/metric.py", line 12, in score   \n'
        "    return parse(output)\n"
        '  File "/home/me/helpers.py", line 345, in <lambda>\n'
        "    x = int(y)\n"
        "ValueError: boom"
    )
    assert raised_at(traceback) == "/home/me/helpers.py, line 345, in <lambda>"
    assert raised_at('File "a.py", line 1, in f') == "a.py, line 1, in f"
    assert raised_at("") is None
    assert raised_at(None) is None
    assert raised_at('File "a.py", line x, in f') is None


# --- the hint chosen for each kind of failure ----------------------------------------------

METRIC_TRACE = (
    "Traceback (most recent call last):\n"
    '  File "metric.py", line 7, in score\n'
    "    return 1 / 0\n"
    "ZeroDivisionError: division by zero"
)


def case(**fields) -> SimpleNamespace:
    return SimpleNamespace(**{"traceback": None, "error": None, **fields})


def test_a_case_with_its_own_hint_gets_it():
    own = case(hint_id="hint.not_copyable", traceback=METRIC_TRACE)
    assert case_hint(METRIC_RETURN_VALUE, own) == t("hint.not_copyable", "en")
    assert case_hint(METRIC_RETURN_VALUE, own, "fr") == t("hint.not_copyable", "fr")


def test_a_metric_that_raised_is_told_where():
    failed = case(traceback=METRIC_TRACE, error="ZeroDivisionError: division by zero")
    assert case_hint(METRIC_RETURN_VALUE, failed) == (
        "score raised an exception at metric.py, line 7, in score: fix the code there (the "
        'traceback shows the line), or catch the error and return (0.0, {"feedback": "why '
        'this output could not be scored"}).'
    )
    assert case_hint(METRIC_RETURN_VALUE, failed, "fr") == t(
        "hint.metric_raised_at", "fr", where="metric.py, line 7, in score"
    )


def test_a_run_that_raised_is_told_where():
    trace = METRIC_TRACE.replace("in score", "in run")
    assert case_hint(RUN_FUNCTION, case(traceback=trace)) == (
        "run(artifact, input) raised an exception at metric.py, line 7, in run: fix the code "
        "there (the traceback shows the line) so that it returns an output for every case."
    )


def test_a_traceback_without_frames_gets_the_general_raised_hint():
    assert case_hint(METRIC_RETURN_VALUE, case(traceback="ValueError: bad")) == (
        "score raised an exception (see the error above): fix it, or catch the error and "
        'return (0.0, {"feedback": "why this output could not be scored"}).'
    )
    assert case_hint(RUN_FUNCTION, case(traceback="ValueError: bad"), "pt") == t(
        "hint.run_raised", "pt"
    )
    assert case_hint(RUN_FUNCTION, case(traceback="ValueError: bad")) == (
        "run(artifact, input) raised an exception (see the error above): fix it so that it "
        "returns an output for every case."
    )


def test_a_bad_return_value_without_traceback_gets_the_step_hint():
    assert case_hint(METRIC_RETURN_VALUE, case(error="score returned 0.8")) == (
        'Return a pair: (number, {"feedback": "what is wrong and what a correct output looks '
        'like"}).'
    )
    assert case_hint(RUN_FUNCTION, case()) == (
        "Fix run(artifact, input) so it returns an output for every case."
    )
    assert case_hint(METRIC_RETURN_VALUE, object(), "fr") == t("hint.metric_return_value", "fr")


def test_other_steps_get_their_own_hint_even_with_a_traceback():
    failed = case(traceback=METRIC_TRACE, error="ModelNotConfigured: No metric model is set")
    assert case_hint(METRIC_TIME_LIMIT, failed) == t("hint.metric_time_limit", "en")
    assert case_hint(METRIC_LOADS, failed, "fr") == t("hint.metric_loads", "fr")


@pytest.mark.parametrize("role", ["task", "metric"])
@pytest.mark.parametrize("where", ["traceback", "error"])
@pytest.mark.parametrize("step", [RUN_FUNCTION, METRIC_RETURN_VALUE])
def test_a_missing_model_is_told_how_to_set_it(role, where, step):
    text = f"skynet.llm.ModelNotConfigured: No {role} model is set"
    failed = case(**{where: text if where == "error" else METRIC_TRACE + "\n" + text})
    assert case_hint(step, failed) == t(f"hint.no_{role}_model", "en")
    assert case_hint(step, failed, "fr") == t(f"hint.no_{role}_model", "fr")


def test_a_missing_model_must_be_the_exception_not_a_mention():
    failed = case(traceback=METRIC_TRACE, error="NotModelNotConfigured: No metric model")
    assert case_hint(METRIC_RETURN_VALUE, failed) == t(
        "hint.metric_raised_at", "en", where="metric.py, line 7, in score"
    )


@settings(max_examples=200, deadline=None)
@given(
    scores=st.lists(
        st.one_of(
            st.floats(allow_nan=False, allow_infinity=False),
            st.integers(min_value=-(10**6), max_value=10**6),
            st.none(),
        ),
        min_size=2,
        max_size=6,
    )
)
def test_one_mistake_on_every_case_is_one_sentence(scores):
    """A metric that returns a bare number (or None) on every case breaks one rule, once:
    the sentence does not change with the value, so the report says it once."""
    said = set()
    for value in scores:
        with pytest.raises(ContractError) as broken:
            validate_return(value)
        said.add((value is None, str(broken.value)))
    assert len(said) == len({value is None for value in scores})
