"""validate_return: the contract's return-value table, row by row, and beyond."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skynet_jupyter import ContractError, validate_return
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE

# The table of shared/spec/CONTRACT.md, "The return value".
CONTRACT_TABLE = [
    ((0.8, {"feedback": "Close. Missing the date."}), None),
    ([1.0, {"feedback": "OK", "scores": {"format": 1.0}}], None),
    (0.8, "return.only_number"),
    ((0.8, "Close."), "return.info_not_dict"),
    ((0.8, {}), "return.no_feedback"),
    (("0.8", {"feedback": "OK"}), "return.score_type"),
    ((0.8, {"feedback": "OK", "scores": {"a": "high"}}), "return.named_score_type"),
]


@pytest.mark.parametrize(("value", "rule"), CONTRACT_TABLE)
def test_contract_table(value, rule):
    if rule is None:
        score, info = validate_return(value)
        assert score == value[0]
        assert info is value[1]
        return
    with pytest.raises(ContractError) as caught:
        validate_return(value)
    assert caught.value.step == METRIC_RETURN_VALUE
    assert caught.value.message_id == rule


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ((True, {"feedback": "x"}), "return.score_bool"),
        ((np.bool_(False), {"feedback": "x"}), "return.score_bool"),
        ((math.nan, {"feedback": "x"}), "return.score_nan"),
        ((math.inf, {"feedback": "x"}), "return.score_inf"),
        ((-math.inf, {"feedback": "x"}), "return.score_inf"),
        ((np.float64("nan"), {"feedback": "x"}), "return.score_nan"),
        ((1.0, {"feedback": None}), "return.feedback_not_str"),
        ((1.0, {"feedback": b"bytes"}), "return.feedback_not_str"),
        ((1.0, {"feedback": "x"}, "extra"), "return.wrong_length"),
        ((1.0,), "return.wrong_length"),
        ((), "return.wrong_length"),
        ((1.0, {"feedback": "x", "scores": [1.0]}), "return.scores_not_dict"),
        ((1.0, {"feedback": "x", "scores": {"a": True}}), "return.named_score_bool"),
        ((1.0, {"feedback": "x", "scores": {"a": math.nan}}), "return.named_score_nan"),
        ((1.0, {"feedback": "x", "scores": {"a": math.inf}}), "return.named_score_inf"),
        ((1.0, {"feedback": "x", "scores": {1: 1.0}}), "return.score_name_not_str"),
        (None, "return.none"),
        ({"score": 1.0, "feedback": "x"}, "return.not_pair"),
        ((None, {"feedback": "x"}), "return.score_type"),
    ],
)
def test_other_rejections_have_their_own_reason(value, rule):
    with pytest.raises(ContractError) as caught:
        validate_return(value)
    assert caught.value.message_id == rule
    assert caught.value.step == METRIC_RETURN_VALUE


@pytest.mark.parametrize(
    "score", [1, 0, -3, 0.5, np.float64(0.25), np.float32(0.5), np.int64(2), np.int8(1)]
)
def test_numbers_are_ints_floats_and_numpy_reals(score):
    value, _ = validate_return((score, {"feedback": "fine"}))
    assert value == float(score)
    assert type(value) is float


def test_extra_keys_in_side_information_are_kept():
    info = {"feedback": "x", "scores": {"a": np.float64(0.5)}, "trace": [1, 2]}
    _, kept = validate_return((1.0, info))
    assert kept is info and kept["trace"] == [1, 2]


def test_message_names_the_rule_shows_the_value_and_says_how_to_fix():
    with pytest.raises(ContractError) as caught:
        validate_return((0.8, "Close."))
    text = str(caught.value)
    assert "'Close.'" in text  # the offending value
    assert "not a dict" in text  # the rule
    assert '{"feedback": "..."}' in text  # the fix


def test_long_values_are_cut_in_messages():
    with pytest.raises(ContractError) as caught:
        validate_return("x" * 10_000)
    assert len(str(caught.value)) < 400


def test_messages_exist_in_french_and_portuguese():
    with pytest.raises(ContractError) as caught:
        validate_return((0.8, {}))
    assert caught.value.message("fr") != caught.value.message("en")
    assert caught.value.message("pt") != caught.value.message("en")
    assert '"feedback"' in caught.value.message("fr")


def test_error_renders_as_one_line_in_ipython():
    with pytest.raises(ContractError) as caught:
        validate_return(0.8)
    lines = caught.value._render_traceback_()
    assert len(lines) == 1 and lines[0].startswith("ContractError: ")


def test_contract_error_pickles():
    import pickle

    with pytest.raises(ContractError) as caught:
        validate_return((0.8, {}))
    again = pickle.loads(pickle.dumps(caught.value))
    assert again.step == caught.value.step and str(again) == str(caught.value)
    # Everything crosses a process boundary (Dask workers): the case and the detail too.
    error = ContractError(
        METRIC_RETURN_VALUE, "return.no_feedback", case=2, detail="  File x\n", value="{}"
    )
    again = pickle.loads(pickle.dumps(error))
    assert (again.step, again.message_id, again.case, again.detail, again.fields) == (
        METRIC_RETURN_VALUE,
        "return.no_feedback",
        2,
        "  File x\n",
        {"value": "{}"},
    )
    assert str(again) == str(error)


def test_a_detail_is_shown_under_the_sentence_without_trailing_space():
    error = ContractError(
        METRIC_RETURN_VALUE, "return.no_feedback", case=1, detail="  File x, line 1\n\n", value="{}"
    )
    assert error.case == 1
    assert error._render_traceback_() == [f"ContractError: {error}", "  File x, line 1"]


@pytest.mark.parametrize(
    ("score", "rule"),
    [
        (np.float32("inf"), "return.score_inf"),
        (np.float32("-inf"), "return.score_inf"),
        (np.float32("nan"), "return.score_nan"),
        (np.float64("inf"), "return.score_inf"),
    ],
)
def test_numpy_infinities_and_nans_are_named(score, rule):
    with pytest.raises(ContractError) as caught:
        validate_return((score, {"feedback": "x"}))
    assert caught.value.message_id == rule
    with pytest.raises(ContractError) as caught:
        validate_return((1.0, {"feedback": "x", "scores": {"a": score}}))
    assert caught.value.message_id == rule.replace("return.score_", "return.named_score_")


# --- properties ---------------------------------------------------------------

finite = st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(10**9), 10**9)
json_like = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(finite, st.text(), st.dictionaries(st.text(), finite, max_size=4))
def test_every_valid_pair_is_accepted(score, feedback, scores):
    value, info = validate_return((score, {"feedback": feedback, "scores": scores}))
    assert value == float(score) and info["feedback"] == feedback


@given(json_like)
def test_anything_is_accepted_or_rejected_with_a_contract_error(value):
    try:
        score, info = validate_return(value)
    except ContractError as problem:
        assert problem.step == METRIC_RETURN_VALUE
        assert str(problem)
    else:
        assert isinstance(value, tuple | list) and len(value) == 2
        assert math.isfinite(score) and isinstance(info["feedback"], str)


@given(st.sampled_from([True, False, math.nan, math.inf, -math.inf, "1", None, [1.0]]))
def test_unclimbable_scores_are_always_rejected(score):
    with pytest.raises(ContractError):
        validate_return((score, {"feedback": "x"}))


@pytest.mark.parametrize(
    ("scores", "rule", "fields"),
    [
        ([1.0], "return.scores_not_dict", {"value": "[1.0]", "type": "list"}),
        ({1: 1.0}, "return.score_name_not_str", {"value": "1", "type": "int"}),
        (
            {"a": "high"},
            "return.named_score_type",
            {"value": "'high'", "name": "a", "type": "str"},
        ),
    ],
)
def test_named_score_messages_name_the_score_and_its_value(scores, rule, fields):
    with pytest.raises(ContractError) as caught:
        validate_return((1.0, {"feedback": "x", "scores": scores}))
    assert (caught.value.message_id, caught.value.fields) == (rule, fields)
