"""``cli/json_out.py``: the one strict JSON document.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from skynet_jupyter.cli import (
    json_out,
)

# --- exits and json_out ------------------------------------------------------------------


def test_strict_json_refuses_nan_and_keeps_text_as_it_is(capsys):
    assert json_out.strict_json({"a": "é", "b": [1]}) == '{\n  "a": "é",\n  "b": [\n    1\n  ]\n}'
    with pytest.raises(ValueError):
        json_out.strict_json({"a": math.nan})
    json_out.print_json({"x": 1})
    assert capsys.readouterr().out == '{\n  "x": 1\n}\n'


def deep(levels: int, value: object) -> object:
    for _ in range(levels):
        value = [value]
    return value


def test_strict_document_nulls_each_non_finite_number_and_says_where():
    case = SimpleNamespace(
        input={"a/b": math.nan, "t~": [math.inf, -math.inf]},
        expected=None,
        output=(1.0, math.nan),
        scores={"x": 0.5},
        score=math.inf,
    )
    deepest = SimpleNamespace(input=deep(100, math.nan), expected=deep(101, math.nan))
    report = SimpleNamespace(
        cases=[case, deepest],
        # as to_dict gives them: non-finite numbers in cases already null, others not.
        to_dict=lambda: {"mean_score": math.nan, "steps": [{"n": -math.inf}], "cases": [{}, {}]},
    )
    document = json_out.strict_document(report)
    assert document == {
        "mean_score": None,
        "steps": [{"n": None}],
        "cases": [{}, {}],
        "non_finite": {
            "/cases/0/input/a~1b": "NaN",
            "/cases/0/input/t~0/0": "Infinity",
            "/cases/0/input/t~0/1": "-Infinity",
            "/cases/0/output/1": "NaN",
            "/cases/0/score": "Infinity",
            "/cases/1/input" + "/0" * 100: "NaN",  # 100 levels down: still found
            "/mean_score": "NaN",
            "/steps/0/n": "-Infinity",
        },
    }
    assert list(document["non_finite"]) == sorted(document["non_finite"])


# --- the edges: each found by asking what a changed line would still let through ---------


def test_scores_and_tuples_are_searched_for_non_finite_numbers():
    case = SimpleNamespace(
        input=None, expected=None, output=None, scores={"x": math.nan}, score=1.0
    )
    report = SimpleNamespace(cases=[case], to_dict=lambda: {"pair": (1, math.inf), "cases": [{}]})
    document = json_out.strict_document(report)
    assert document == {
        "pair": [1, None],
        "cases": [{}],
        "non_finite": {"/cases/0/scores/x": "NaN", "/pair/1": "Infinity"},
    }


# --- the edges, in another language: each part must use the language it is given ---------


def test_strict_document_searches_expected_and_dicts_100_levels_down():
    def nested(levels: int) -> object:
        value: object = math.nan
        for _ in range(levels):
            value = {"k": value}
        return value

    case = SimpleNamespace(input=nested(100), expected={"e": math.nan}, output=nested(101))
    report = SimpleNamespace(cases=[case], to_dict=lambda: {"cases": [{}]})
    assert json_out.strict_document(report)["non_finite"] == {
        "/cases/0/expected/e": "NaN",
        "/cases/0/input" + "/k" * 100: "NaN",
    }
