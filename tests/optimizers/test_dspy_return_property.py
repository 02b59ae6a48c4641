"""Property: whatever a DSPy metric returns, from_dspy_metric gives a Skynet pair or one sentence.

Numbers (floats with NaN and infinities, ints past a float's range, NumPy scalars),
bools, None, text, tuples, dicts and ``dspy.Prediction``s holding any of those as their
``score``, ``feedback`` and ``objective_scores``: the reading is a pair that the
contract accepts, with the score and feedback the metric gave, or a
:class:`DSPyMetricError` whose sentence is one line in every language.  Never another
exception.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import require_module

dspy = require_module("dspy")
np = require_module("numpy")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.i18n import LANGUAGES  # noqa: E402
from skynet_jupyter.optimizers.dspy_adapter import SkynetScore  # noqa: E402
from skynet_jupyter.optimizers.dspy_metric import DSPyMetricError, read_dspy_return  # noqa: E402

numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),  # past a float's range
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True).map(np.float64),
    st.integers(-(2**31), 2**31 - 1).map(np.int32),
    st.booleans().map(np.bool_),
)
anything = st.one_of(numbers, st.none(), st.text(max_size=20), st.lists(numbers, max_size=2))
feedback = st.one_of(st.none(), st.text(max_size=40), numbers, st.lists(st.text(), max_size=2))
objectives = st.one_of(
    st.none(),
    st.dictionaries(st.one_of(st.text(max_size=5), st.integers()), anything, max_size=3),
    anything,
)


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    """A return's fields: any of score, feedback, objective_scores (and one the reader ignores)."""
    fields: dict[str, Any] = {}
    for name, values in (
        ("score", anything),
        ("feedback", feedback),
        ("objective_scores", objectives),
        ("reasoning", st.text(max_size=10)),
    ):
        if draw(st.booleans()):
            fields[name] = draw(values)
    return fields


returns = st.one_of(
    anything,
    st.tuples(anything, st.dictionaries(st.just("feedback"), feedback)),
    records(),
    records().map(dspy.Prediction),
    st.tuples(st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20)).map(
        lambda pair: SkynetScore(score=pair[0], feedback=pair[1])  # to_dspy_metric's own
    ),
)


def one_sentence(problem: DSPyMetricError) -> None:
    for lang in LANGUAGES:
        text = problem.message(lang)
        assert "\n" not in text and text.endswith("."), text


def expected_score(value: Any) -> float:
    if isinstance(value, bool | np.bool_):
        return 1.0 if value else 0.0
    return float(value)


@given(returns)
@settings(max_examples=400, deadline=None)
def test_a_pair_the_contract_accepts_or_one_sentence(value):
    try:
        score, info = read_dspy_return(value, "my_metric")
    except DSPyMetricError as problem:
        one_sentence(problem)
        assert "my_metric" in str(problem)
        return
    assert sj.validate_return((score, info)) == (score, info)
    assert type(score) is float and math.isfinite(score)
    fields = value.toDict() if isinstance(value, dspy.Prediction) else value
    if isinstance(fields, dict):  # a record: its own score and feedback
        assert score == expected_score(fields["score"])
        assert info["feedback"] == (fields.get("feedback") or "")
    else:  # a bare number or bool: the score, and no feedback
        assert score == expected_score(value) and info == {"feedback": ""}


outputs = st.one_of(
    st.text(max_size=10),
    st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=5), max_size=3),
    st.builds(lambda label: dspy.Prediction(label=label), st.text(max_size=5)),
)
expecteds = st.one_of(
    st.none(),
    st.text(max_size=5),
    st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=5), min_size=1, max_size=2),
)


@given(returns, outputs, expecteds)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_adapted_metric_never_crashes(value, output, expected):
    adapted = sj.from_dspy_metric(lambda example, prediction: value)
    try:
        pair = adapted({"text": "a ticket"}, output, expected)
    except DSPyMetricError as problem:
        one_sentence(problem)
        return
    assert sj.validate_return(pair) == pair
