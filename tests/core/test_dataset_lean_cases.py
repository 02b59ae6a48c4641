"""Cases built lean are the cases ``Case(...)`` builds (issue 26).

``load_cases`` sets each case's slots itself (``dataset._made_cases``) instead of
calling the dataclass's constructor, and takes a list's columns from its first
row when every row has the same keys.  Here the cases it loads are compared,
field by field and type by type, with cases built the plain way from the same
rows: ``Case(...)`` on dicts picked with ``row.get``, the columns in the order
they first appear in any row.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import pandas as pd
import pytest

from skynet_jupyter.core.dataset import NO_OUTPUT, Case, load_cases


class Row(Mapping):
    """A row that is a Mapping, not a dict."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def _plain(rows: list[Any], outputs: list[str], output_column: str | None, inputs=None):
    """The cases the row-by-row constructor builds (the reference)."""
    columns = list(dict.fromkeys(itertools.chain.from_iterable(rows)))
    if inputs is None:
        inputs = [c for c in columns if c not in {*outputs, output_column}]
    return [
        Case(
            index,
            {name: row.get(name) for name in inputs},
            {name: row.get(name) for name in outputs} if outputs else None,
            row.get(output_column) if output_column is not None else NO_OUTPUT,
        )
        for index, row in enumerate(rows)
    ]


def _every_slot(case: Case) -> list[tuple[str, Any, type, list[str] | None]]:
    facts = []
    for name in Case.__slots__:  # an unset slot raises here
        value = getattr(case, name)
        keys = list(value) if isinstance(value, dict) else None  # key order too
        facts.append((name, value, type(value), keys))
    return facts


SAME_KEYS = [{"q": f"q{n}", "ctx": n, "answer": str(n), "out": f"o{n}"} for n in range(5)]
OTHER_ORDER = [
    {"q": "a", "answer": "1", "out": "x"},
    {"answer": "2", "q": "b", "out": "y", "extra": [1]},  # a key no earlier row has
    {"out": "z", "q": "c"},  # answer missing: None
]
NEW_KEY_LAST = [*SAME_KEYS[:2], {**SAME_KEYS[2], "late": {"k": 1}}]
FEWER_KEYS_FIRST = [
    {"q": "a", "answer": "1", "out": "x"},
    {"q": "b", "answer": "2", "ctx": "c", "out": "y"},
]


@pytest.mark.parametrize(
    "rows",
    [SAME_KEYS, OTHER_ORDER, NEW_KEY_LAST, FEWER_KEYS_FIRST, [Row(r) for r in SAME_KEYS]],
    ids=["same keys", "other orders", "a new key last", "fewer keys first", "mappings"],
)
@pytest.mark.parametrize(
    ("outputs", "output_column", "inputs"),
    [
        (["answer"], "out", None),
        (["answer"], None, None),
        ([], "out", None),
        (["answer", "q"], "out", None),
        (["answer"], "out", ["q"]),
        (["answer"], "out", ["answer", "q"]),
    ],
    ids=["one output", "no output column", "no outputs", "two outputs", "one input", "overlap"],
)
def test_loaded_cases_are_the_constructors_cases(rows, outputs, output_column, inputs):
    loaded = load_cases(rows, outputs or None, inputs, output_column=output_column)
    plain = _plain(rows, outputs, output_column, inputs)
    assert [_every_slot(c) for c in loaded] == [_every_slot(c) for c in plain]
    assert loaded == plain
    every_dict = [d for c in loaded for d in (c.input, c.expected) if d is not None]
    assert len({id(d) for d in every_dict}) == len(every_dict)  # no two cases share a dict
    assert not any(d is row for d in every_dict for row in rows)  # the caller's rows stay theirs


def test_a_tables_cases_are_the_constructors_cases():
    frame = pd.DataFrame(SAME_KEYS)
    loaded = load_cases(frame, "answer", output_column="out")
    plain = _plain(frame.to_dict("records"), ["answer"], "out")
    assert [_every_slot(c) for c in loaded] == [_every_slot(c) for c in plain]


def test_the_inputs_by_default_follow_the_order_keys_first_appear_in():
    cases = load_cases(OTHER_ORDER, "answer", output_column="out")
    assert cases.default_inputs == ("q", "extra")
    assert [list(c.input) for c in cases] == [["q", "extra"]] * 3
    assert [c.input["extra"] for c in cases] == [None, [1], None]
