"""load_cases' fast paths give exactly the cases of the row-by-row loop.

A table read here (a DataFrame, a CSV/TSV or Parquet file) is read a column at
a time (``dataset._records``, the same dicts as ``to_dict("records")``), and
its rows, being ours, become the cases' ``input`` dicts once the other columns
are taken out (``dataset._cases_keeping_rows``).  Either must give the cases
the row-by-row loop gives: the same indexes, inputs, expected values and
outputs, the same key order, the same notes, dicts that share nothing with the
caller's data or with each other.  Each test loads the same data twice, once as
it is and once with the rows not kept (``_keeps_rows`` says no, so the
row-by-row loop runs), and compares everything.
"""

from __future__ import annotations

import datetime
import decimal
import json
import math

import numpy as np
import pandas as pd
import pytest

from skynet_jupyter import load_cases
from skynet_jupyter.core import dataset
from skynet_jupyter.core.dataset import NO_OUTPUT, DataError

ROWS = [
    {"q": "What is 2+2?", "ctx": "math", "answer": "4", "source": "book", "pred": "4"},
    {"q": "Capital of France?", "ctx": "geo", "answer": "Paris", "source": "atlas", "pred": "Lyon"},
    {"q": "Colour of the sky?", "ctx": "", "answer": "blue", "source": "eyes", "pred": None},
]

# (outputs, inputs, output_column): every shape the options give.
SHAPES = [
    (None, None, None),
    ("answer", None, None),
    ("answer", None, "pred"),
    (["answer", "source"], None, "pred"),
    ("answer", "q", "pred"),
    ("answer", "ctx,q", None),  # inputs in another order than the table's
    ("answer", ["q", "q"], None),  # a name given twice
    ("answer", ["q", "answer"], None),  # a column both input and output
    (["answer", "source", "pred", "ctx", "q"], None, None),  # no input column left
]


def _row_by_row(monkeypatch: pytest.MonkeyPatch, *args, **kwargs) -> dataset.Cases:
    with monkeypatch.context() as patch:
        patch.setattr(dataset, "_keeps_rows", lambda *args: False)
        return load_cases(*args, **kwargs)


def _shape(cases: dataset.Cases) -> list[tuple]:
    """Everything a case holds, with the order of its keys and the types of its values."""
    return [
        (
            case.index,
            type(case.input),
            list(case.input.items()),
            None if case.expected is None else (type(case.expected), list(case.expected.items())),
            "NO_OUTPUT" if case.output is NO_OUTPUT else (type(case.output), case.output),
            case.measured,
        )
        for case in cases
    ]


def assert_same_cases(fast: dataset.Cases, slow: dataset.Cases) -> None:
    assert type(fast) is type(slow) is dataset.Cases
    assert fast == slow
    assert _shape(fast) == _shape(slow)
    assert (fast.default_inputs, fast.json_like) == (slow.default_inputs, slow.json_like)
    dicts = [d for case in fast for d in (case.input, case.expected) if d is not None]
    assert len({id(d) for d in dicts}) == len(dicts)  # no case shares a dict with another


def _sources(tmp_path) -> dict[str, object]:
    frame = pd.DataFrame(ROWS)
    csv_path, tsv_path = tmp_path / "cases.csv", tmp_path / "cases.tsv"
    frame.to_csv(csv_path, index=False)
    frame.to_csv(tsv_path, index=False, sep="\t")
    parquet_path = tmp_path / "cases.parquet"
    frame.to_parquet(parquet_path)
    jsonl_path = tmp_path / "cases.jsonl"
    jsonl_path.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    return {
        "list": [dict(row) for row in ROWS],
        "tuple": tuple(dict(row) for row in ROWS),
        "dataframe": frame,
        "csv": csv_path,
        "tsv": tsv_path,
        "parquet": parquet_path,
        "jsonl": jsonl_path,
    }


@pytest.mark.parametrize("outputs, inputs, output_column", SHAPES)
@pytest.mark.parametrize("source", ["list", "tuple", "dataframe", "csv", "tsv", "parquet", "jsonl"])
def test_fast_paths_give_the_row_by_row_cases(
    tmp_path, monkeypatch, source, outputs, inputs, output_column
):
    data = _sources(tmp_path)[source]
    options = dict(outputs=outputs, inputs=inputs, output_column=output_column)
    fast = load_cases(data, **options)
    assert_same_cases(fast, _row_by_row(monkeypatch, data, **options))
    assert len(fast) == len(ROWS)


@pytest.mark.parametrize("source", ["list", "tuple", "dataframe", "csv", "tsv", "parquet", "jsonl"])
def test_rows_are_kept_only_for_a_table_read_here_with_inputs_in_its_order(
    tmp_path, monkeypatch, source
):
    taken = []
    real = dataset._cases_keeping_rows

    def spy(*args, **kwargs):
        taken.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(dataset, "_cases_keeping_rows", spy)
    data = _sources(tmp_path)[source]
    table = source in ("dataframe", "csv", "tsv", "parquet")
    load_cases(data, outputs="answer")
    assert taken == [True] * table  # the caller's rows and JSON objects are never kept
    load_cases(data, outputs="answer", inputs="q,ctx")
    assert taken == [True, True] * table
    load_cases(data, outputs="answer", inputs="ctx,q")  # another order: new dicts
    load_cases(data, outputs="answer", inputs="q,q")
    assert len(taken) == 2 * table


def test_a_row_without_a_column_gives_none_for_it():
    cases = load_cases([*ROWS, {"q": "only a question", "answer": "x"}], outputs="answer")
    assert cases[-1].input == {"q": "only a question", "ctx": None, "source": None, "pred": None}


def test_rows_missing_columns_or_not_dicts_give_the_same_cases(monkeypatch):
    from types import MappingProxyType

    ragged = [{"q": "a", "answer": "x"}, {"answer": "y", "q": "b", "extra": 1}, {"q": "c"}]
    for data in (ragged, [MappingProxyType(row) for row in ROWS]):
        fast = load_cases(data, outputs="answer")
        assert_same_cases(fast, _row_by_row(monkeypatch, data, outputs="answer"))


def test_key_order_of_each_list_row_does_not_change_the_input_order(monkeypatch):
    rows = [{"a": 1, "b": 2, "label": "x"}, {"label": "y", "b": 4, "a": 3}]
    cases = load_cases(rows, outputs="label")
    assert [list(case.input) for case in cases] == [["a", "b"], ["a", "b"]]
    assert_same_cases(cases, _row_by_row(monkeypatch, rows, outputs="label"))


def test_jsonl_rows_keep_the_first_rows_column_order(tmp_path, monkeypatch):
    path = tmp_path / "cases.jsonl"
    path.write_text('{"a": 1, "b": 2, "label": "x"}\n{"label": "y", "b": 4, "a": 3}\n')
    cases = load_cases(path, outputs="label")
    assert [list(case.input) for case in cases] == [["a", "b"], ["a", "b"]]
    assert_same_cases(cases, _row_by_row(monkeypatch, path, outputs="label"))


def test_caller_rows_are_never_the_cases_dicts_nor_changed():
    rows = [dict(row) for row in ROWS]
    before = [dict(row) for row in rows]
    cases = load_cases(rows, outputs="answer", inputs="q,ctx,source,pred")
    assert all(case.input is not row for case, row in zip(cases, rows, strict=True))
    for case in cases:
        case.input["q"] = "changed"
        case.expected["answer"] = "changed"
    assert rows == before


def test_a_table_read_here_gives_each_case_its_own_input(tmp_path):
    frame = pd.DataFrame(ROWS)
    before = frame.copy()
    cases = load_cases(frame, outputs="answer", output_column="pred")
    cases[0].input["q"] = "changed"
    cases[0].expected["answer"] = "changed"
    pd.testing.assert_frame_equal(frame, before)
    again = load_cases(frame, outputs="answer", output_column="pred")
    assert again[0].input["q"] == "What is 2+2?"
    assert cases[1].input == {"q": "Capital of France?", "ctx": "geo", "source": "atlas"}
    assert cases[1].expected == {"answer": "Paris"}
    assert cases[1].output == "Lyon"


@pytest.mark.parametrize("source", ["csv", "dataframe"])
def test_splits_and_json_columns_give_the_same_cases(tmp_path, monkeypatch, source):
    rows = [
        {"q": '["a", "b"]', "label": "x", "split": "train"},
        {"q": '{"k": 1}', "label": "y", "split": "test"},
        {"q": "[1, 2]", "label": "z", "split": "test"},
    ]
    frame = pd.DataFrame(rows)
    if source == "csv":
        data: object = tmp_path / "split.csv"
        frame.to_csv(data, index=False)
    else:
        data = frame
    for options in (
        dict(outputs="label", split="test"),
        dict(outputs="label", split="test", json_columns="q"),
        dict(outputs="label", json_columns="q"),
        dict(outputs="label"),
    ):
        fast = load_cases(data, **options)
        assert_same_cases(fast, _row_by_row(monkeypatch, data, **options))
    notes = load_cases(data, outputs="label", split="test")
    assert notes.default_inputs == ("q",)
    if source == "csv":  # a CSV's text cells that look like JSON are noted
        assert notes.json_like == ("q",)
    assert [
        case.input for case in load_cases(data, outputs="label", split="test", json_columns="q")
    ] == [
        {"q": {"k": 1}},
        {"q": [1, 2]},
    ]


def test_a_row_that_is_not_a_dict_is_still_named():
    with pytest.raises(DataError, match="Row 2 of the data is a list"):
        load_cases([{"q": 1}, {"q": 2}, ["q", 3]])


def _same_cell(want, got) -> bool:
    if type(want) is not type(got):
        return False
    if isinstance(want, float) and math.isnan(want):
        return math.isnan(got)
    if want is pd.NA or got is pd.NA:
        return want is got
    return bool(want == got)


def test_a_dataframe_is_read_as_to_dict_records_reads_it_for_every_kind_of_column():
    count = 6
    frame = pd.DataFrame(
        {
            "int64": np.arange(count, dtype="int64"),
            "int8": np.arange(count, dtype="int8"),
            "float32": np.array([1.5, np.nan, 2, 3, 4, 5], dtype="float32"),
            "float64": [1.0, np.nan, np.inf, -0.0, 2.5, 3.0],
            "bool": [True, False] * 3,
            "datetime": pd.date_range("2024-01-01", periods=count),
            "datetime_tz": pd.date_range("2024-01-01", periods=count, tz="Europe/Lisbon"),
            "timedelta": pd.to_timedelta(range(count), unit="s"),
            "category": pd.Categorical(list("abcabc")),
            "Int64": pd.array([1, None, 3, 4, 5, 6], dtype="Int64"),
            "boolean": pd.array([True, None, False, True, None, False], dtype="boolean"),
            **{
                f"text_{storage}_{'nan' if na is np.nan else 'na'}": pd.array(
                    ["a", None, "c", "d", "e", "f"], dtype=pd.StringDtype(storage, na_value=na)
                )
                for storage in ("pyarrow", "python")
                for na in (np.nan, pd.NA)
            },
            "object_numpy": pd.Series(
                [np.int64(3), np.float32(1.5), np.bool_(True), [1, 2], {"k": 1}, None],
                dtype=object,
            ),
            "object_other": pd.Series(
                [
                    decimal.Decimal("1.1"),
                    datetime.date(2020, 1, 1),
                    pd.NA,
                    np.datetime64("2020-01-01"),
                    np.timedelta64(5, "s"),
                    b"x",
                ],
                dtype=object,
            ),
            "arrow_int": pd.array([1, None, 3, 4, 5, 6], dtype="int64[pyarrow]"),
            "arrow_timestamp": pd.array(
                pd.date_range("2024-01-01", periods=count), dtype="timestamp[ms][pyarrow]"
            ),
            "period": pd.period_range("2024-01", periods=count, freq="M"),
            "interval": pd.interval_range(0, count),
            "sparse": pd.arrays.SparseArray([0, 1, 0, 2, 0, 3]),
            7: range(count),  # a column named by a number
        },
        index=[3, 3, 1, 0, 9, 9],  # an index that repeats: columns are read by position
    )
    want, got = frame.to_dict("records"), dataset._records(frame)
    assert [list(row) for row in got] == [list(row) for row in want]
    wrong = [
        (name, want_row[name], got_row[name])
        for want_row, got_row in zip(want, got, strict=True)
        for name in want_row
        if not _same_cell(want_row[name], got_row[name])
    ]
    assert wrong == []
    for empty in (pd.DataFrame({"a": []}), pd.DataFrame(index=range(3))):
        assert dataset._records(empty) == empty.to_dict("records")
