"""load_cases: every source, the Output columns, splits, and clear errors."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from skynet_jupyter import DataError, load_cases, load_example
from skynet_jupyter.dataset import pick_cases


def test_outputs_form_expected_and_the_rest_are_inputs(tickets):
    cases = load_cases(tickets, outputs="label")
    assert cases[0].input == {"text": "I was charged twice."}
    assert cases[0].expected == {"label": "billing"}


def test_no_outputs_gives_expected_none(tickets):
    assert load_cases(tickets)[0].expected is None


def test_several_outputs_and_explicit_inputs():
    rows = [{"q": "a", "ctx": "c", "answer": "x", "source": "s", "noise": 1}]
    (case,) = load_cases(rows, outputs=["answer", "source"], inputs="q,ctx")
    assert case.input == {"q": "a", "ctx": "c"}
    assert case.expected == {"answer": "x", "source": "s"}


def test_dataframe_is_read_and_left_alone(tickets):
    frame = pd.DataFrame(tickets)
    before = frame.copy()
    cases = load_cases(frame, outputs="label")
    cases[0].input["text"] = "changed"
    pd.testing.assert_frame_equal(frame, before)
    assert cases[1].input == {"text": "The app crashes on start."}


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".json", ".parquet"])
def test_files(tmp_path, tickets, suffix):
    path = tmp_path / f"cases{suffix}"
    frame = pd.DataFrame(tickets)
    if suffix == ".csv":
        frame.to_csv(path, index=False)
    elif suffix == ".jsonl":
        path.write_text("\n".join(json.dumps(row) for row in tickets) + "\n")
    elif suffix == ".json":
        path.write_text(json.dumps(tickets))
    else:
        frame.to_parquet(path)
    cases = load_cases(path, outputs="label")
    assert len(cases) == 5
    assert cases[2].expected == {"label": "other"}


def test_unknown_column_is_named_with_the_columns_present(tickets):
    with pytest.raises(DataError, match=r"Unknown column 'labl'; the data has: text, label"):
        load_cases(tickets, outputs="labl")


def test_empty_data():
    with pytest.raises(DataError, match="no rows"):
        load_cases([])


def test_bad_jsonl_line_names_the_path_and_line(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text('{"a": 1}\n{"a": 2,}\n')
    with pytest.raises(DataError, match=r"cases.jsonl, line 2"):
        load_cases(path)


def test_missing_file(tmp_path):
    with pytest.raises(DataError, match="No data file"):
        load_cases(tmp_path / "nope.csv")


def test_unknown_file_type(tmp_path):
    path = tmp_path / "cases.xlsx"
    path.write_bytes(b"x")
    with pytest.raises(DataError, match=r"\.xlsx is not one of"):
        load_cases(path)


def test_split_column(tickets):
    rows = [dict(row, split="train" if i < 3 else "test") for i, row in enumerate(tickets)]
    cases = load_cases(rows, outputs="label", split="test")
    assert [c.input["text"] for c in cases] == [tickets[3]["text"], tickets[4]["text"]]
    assert "split" not in cases[0].input


def test_split_with_no_rows_lists_the_splits(tickets):
    rows = [dict(row, split="train") for row in tickets]
    with pytest.raises(DataError, match=r"No rows in split 'dev'; the splits present are: train"):
        load_cases(rows, split="dev")


def test_split_without_a_split_column(tickets):
    with pytest.raises(DataError, match="no 'split' column"):
        load_cases(tickets, split="test")


def test_dict_of_splits(tickets):
    data = {"train": tickets[:2], "test": tickets[2:]}
    assert len(load_cases(data, split="test")) == 3
    with pytest.raises(DataError, match="pass split=NAME"):
        load_cases(data)


def test_not_a_table():
    with pytest.raises(DataError, match="Cannot read cases from a int"):
        load_cases(42)
    with pytest.raises(DataError, match="Row 1 of the data is a str"):
        load_cases([{"a": 1}, "b"])


def test_pick_first_and_random(tickets):
    cases = load_cases(tickets)
    assert [c.index for c in pick_cases(cases, 3)] == [0, 1, 2]
    chosen = [c.index for c in pick_cases(cases, 3, "random", seed=7)]
    assert chosen == [c.index for c in pick_cases(cases, 3, "random", seed=7)]
    assert len(set(chosen)) == 3
    with pytest.raises(ValueError, match="sample must be"):
        pick_cases(cases, 2, "middle")


def test_example_ships_with_the_package():
    cases = load_cases(load_example("tickets"), outputs="label")
    assert len(cases) == 30
    assert {c.expected["label"] for c in cases} == {"billing", "technical", "other"}
    with pytest.raises(DataError, match="No example named"):
        load_example("nope")
