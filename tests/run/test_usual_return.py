"""The per-case path's own reading of the usual return value and copies (issue 26).

``CaseRunner.score_case`` reads the usual return, ``(float, {"feedback": str})``
without named scores, without calling ``validate_return``, copies a case's dicts
inline, and skips ``CaseContext.start`` when the last case left nothing to
forget.  Each shortcut must give what the general path gives: here every kind of
return value goes through ``evaluate`` and its case is compared, field by field,
with what ``validate_return`` itself says of that value; the shortcut is shown to
be taken (``validate_return`` not called) exactly for the usual shape.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE, ContractError, validate_return
from skynet_jupyter.core.dataset import Case
from skynet_jupyter.core.observation import NOT_MEASURED, Observation
from skynet_jupyter.core.options import RunOptions
from skynet_jupyter.helper.skynet import llm, observation
from skynet_jupyter.run import one_case
from skynet_jupyter.run.engine import execute_cases


class Pair(NamedTuple):
    score: Any
    info: Any


class Text(str):
    pass


class Number(float):
    pass


class Info(dict):
    pass


def _usual(value: Any) -> bool:
    """The shape the shortcut is for: anything else must reach validate_return."""
    return (
        type(value) is tuple
        and len(value) == 2
        and type(value[0]) is float
        and math.isfinite(value[0])
        and type(value[1]) is dict
        and type(value[1].get("feedback")) is str
        and "scores" not in value[1]
    )


RETURNS: list[Any] = [
    (1.0, {"feedback": "Correct."}),
    (0.0, {"feedback": ""}),
    (-0.0, {"feedback": "negative zero"}),
    (1e308, {"feedback": "huge", "extra": [1, 2]}),
    (5e-324, {"feedback": "tiny", "note": {"a": 1}}),
    (0.5, {"feedback": "with scores", "scores": {"a": 1, "b": 0.25}}),
    (0.5, {"feedback": "empty scores", "scores": {}}),
    (0.5, {"feedback": "scores None", "scores": None}),
    (0.5, {"feedback": "bad scores", "scores": {"a": math.nan}}),
    (0.5, {"feedback": "named not text", "scores": {1: 0.5}}),
    (1, {"feedback": "an int"}),
    (True, {"feedback": "a bool"}),
    (10**400, {"feedback": "an int too large for a float"}),
    (Number(0.25), {"feedback": "a float subclass"}),
    (math.nan, {"feedback": "nan"}),
    (math.inf, {"feedback": "inf"}),
    (-math.inf, {"feedback": "-inf"}),
    ("0.5", {"feedback": "text score"}),
    (None, {"feedback": "no score"}),
    (0.5, {"feedback": Text("a str subclass")}),
    (0.5, {"feedback": 3}),
    (0.5, {"feedback": None}),
    (0.5, {"note": "no feedback"}),
    (0.5, Info(feedback="a dict subclass")),
    (0.5, "feedback as text"),
    (0.5, None),
    Pair(0.5, {"feedback": "a named tuple"}),
    [0.5, {"feedback": "a list"}],
    (0.5, {"feedback": "three"}, "extra"),
    (0.5,),
    (),
    0.5,
    None,
]


def _expected_of(value: Any) -> tuple[Any, ...]:
    """What the general path makes of ``value``: (failed_step, error, score, info, scores)."""
    try:
        score, info = validate_return(value)
    except ContractError as broken:
        return METRIC_RETURN_VALUE, broken.message("en"), None, None, {}
    except OverflowError:
        return METRIC_RETURN_VALUE, "overflow", None, None, {}
    scores = info.get("scores")
    named = {name: float(v) for name, v in scores.items()} if scores else {}
    return None, None, score, info, named


def _case_facts(case: Any) -> tuple[Any, ...]:
    error = case.error
    if error is not None and "OverflowError" in error:
        error = "overflow"
    return case.failed_step, error, case.score, case.info, case.scores


def test_every_return_value_reads_as_validate_return_reads_it(monkeypatch):
    calls: list[Any] = []

    def counted(value: Any) -> Any:
        calls.append(value)
        return validate_return(value)

    monkeypatch.setattr(one_case, "validate_return", counted)
    rows = [{"n": n, "label": "a", "out": "a"} for n in range(len(RETURNS))]

    def metric(input, output, expected=None):
        return RETURNS[input["n"]]

    report = sj.evaluate(metric, rows, outputs="label", output_column="out", concurrency=1)
    assert len(report.cases) == len(RETURNS)
    for case, value in zip(report.cases, RETURNS, strict=True):
        assert _case_facts(case) == _expected_of(value), value
        if case.passed:
            assert type(case.score) is float
            assert case.info is value[1] or case.info == value[1]  # the metric's own dict
            assert case.feedback == value[1]["feedback"]
    # The shortcut is taken exactly for the usual shape; everything else is checked in full.
    assert [id(v) for v in calls] == [id(v) for v in RETURNS if not _usual(v)]
    assert sum(map(_usual, RETURNS)) == 5


@pytest.mark.parametrize(
    "value",
    [
        {"text": "flat", "n": 1, "f": 0.5, "b": True, "none": None, "bytes": b"x"},
        {"nested": {"a": [1]}},
        {"list": [1, 2]},
        {"tuple": (1, [2])},
        {"set": {1, 2}},
        {},
    ],
    ids=["flat", "nested dict", "list", "tuple holding a list", "set", "empty"],
)
def test_the_inline_copies_are_copy_values_copies(value):
    """A dict is copied shallowly only when every value is an immutable scalar."""
    seen: list[Any] = []

    def metric(input, output, expected=None):
        seen.append((input, expected))
        return 1.0, {"feedback": "ok"}

    case = Case(0, value, value, "out")
    runner = one_case.CaseRunner(sj.Metric(metric))
    result = runner.run_one(case)
    assert result.passed
    ((given_input, given_expected),) = seen
    reference = one_case.copy_value(value)
    for given in (given_input, given_expected):
        assert given == reference and given is not value
        for key, item in value.items():  # shared exactly where copy_value shares
            assert (given[key] is item) == (reference[key] is item), key
    assert result.input is value and result.expected is value  # the case's own, untouched


def _observed(input, output, expected=None):
    seen = observation()
    return 1.0, {"feedback": "measured" if seen is not NOT_MEASURED else "not measured"}


def test_a_case_after_a_measured_one_starts_with_nothing_measured():
    """The context is reset when the last case left an observation (and only then skipped)."""
    measured = Observation(run_ms=12.0, cost_usd=0.0)
    cases = [
        Case(0, {"q": "a"}, None, "out"),
        Case(1, {"q": "b"}, None, "out", measured),
        Case(2, {"q": "c"}, None, "out"),
        Case(3, {"q": "d"}, None, "out", measured),
        Case(4, {"q": "e"}, None, "out"),
    ]
    options = RunOptions.given(concurrency=1, output_column="out")
    report = execute_cases("eval", _observed, cases, options, on_event=None, run_cache=None)
    assert [c.feedback for c in report.cases] == [
        "not measured",
        "measured",
        "not measured",
        "measured",
        "not measured",
    ]
    assert [c.run_ms for c in report.cases] == [None, 12.0, None, 12.0, None]


def test_a_case_after_a_judged_one_counts_only_its_own_calls():
    """Usage from one case's model calls never reaches the next case's result."""
    judge = sj.StandInModel("PASS")

    def judged(input, output, expected=None):
        if input["q"] in ("a", "c"):
            llm("judge", input)
        return 1.0, {"feedback": "ok"}

    cases = [Case(n, {"q": q}, None, "out") for n, q in enumerate("abcd")]
    options = RunOptions.given(
        concurrency=1, output_column="out", models=sj.ModelSettings(metric_model=judge)
    )
    report = execute_cases("eval", judged, cases, options, on_event=None, run_cache=None)
    assert [c.model_calls for c in report.cases] == [1, 0, 1, 0]
    assert [c.stand_in_calls for c in report.cases] == [1, 0, 1, 0]
