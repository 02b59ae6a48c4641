"""load_cases: every source, the Output columns, splits, and clear errors."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from skynet_jupyter import DataError, load_cases, load_example
from skynet_jupyter.core.dataset import pick_cases


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
    said = r"^outputs: no column 'labl'\. Did you mean 'label'\? The data has: text, label"
    with pytest.raises(DataError, match=said):
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


# --- every reader and every message, exactly ----------------------------------------------


def test_json_files_a_cases_key_and_their_errors(tmp_path):
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"cases": [{"q": "é", "a": 1}], "version": 2}))
    (case,) = load_cases(wrapped, outputs="a")
    assert (case.input, case.expected) == ({"q": "é"}, {"a": 1})

    broken = tmp_path / "broken.json"
    broken.write_text('[{"a": 1},')
    with pytest.raises(DataError) as caught:
        load_cases(broken)
    assert str(caught.value) == f"{broken} is not valid JSON (line 1, column 11): Expecting value."
    for body in ('{"a": 1}', "[1, 2]", '[{"a": 1}, 2]', '{"cases": "no"}'):
        shaped = tmp_path / "shaped.json"
        shaped.write_text(body)
        with pytest.raises(DataError) as caught:
            load_cases(shaped)
        assert str(caught.value) == f"{shaped} must hold a JSON list of objects, one per case."


def test_jsonl_skips_blank_lines_and_names_a_line_that_is_not_an_object(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text('{"a": 1}\n\n   \n{"a": "é"}\n')
    assert [c.input for c in load_cases(path)] == [{"a": 1}, {"a": "é"}]
    path.write_text('{"a": 1}\n[1]\n')
    with pytest.raises(DataError) as caught:
        load_cases(path)
    assert str(caught.value) == f"{path}, line 2: each line must be a JSON object."


def test_csv_keeps_text_as_written_and_tsv_splits_on_tabs(tmp_path):
    csv = tmp_path / "cases.csv"
    csv.write_text("text,label\nNA,None\n,null\n", encoding="utf-8")
    assert [(c.input, c.expected) for c in load_cases(csv, outputs="label")] == [
        ({"text": "NA"}, {"label": "None"}),  # not NaN: text stays text
        ({"text": ""}, {"label": "null"}),
    ]
    tsv = tmp_path / "cases.tsv"
    tsv.write_text("text\tlabel\na, b\tbilling\n", encoding="utf-8")
    (case,) = load_cases(tsv, outputs="label")
    assert (case.input, case.expected) == ({"text": "a, b"}, {"label": "billing"})
    upper = tmp_path / "CASES.CSV"
    upper.write_text("text,label\nx,y\n")
    assert load_cases(upper, outputs="label")[0].expected == {"label": "y"}


def test_unreadable_csv_and_parquet_say_so(tmp_path):
    csv = tmp_path / "bad.csv"
    csv.write_bytes(b'a,b\n"x,1\n')
    with pytest.raises(DataError, match=rf"^Cannot read {re.escape(str(csv))} as CSV: "):
        load_cases(csv)
    parquet = tmp_path / "bad.parquet"
    parquet.write_bytes(b"not parquet")
    with pytest.raises(DataError, match=rf"^Cannot read {re.escape(str(parquet))} as Parquet: "):
        load_cases(parquet)


def test_unknown_and_missing_files_are_named(tmp_path):
    path = tmp_path / "cases"
    path.write_text("x")
    with pytest.raises(DataError) as caught:
        load_cases(path)
    assert str(caught.value) == (
        f"Cannot read {path}: the file type (none) is not one of "
        ".csv, .tsv, .jsonl, .json, .parquet."
    )
    missing = tmp_path / "nope.csv"
    with pytest.raises(DataError) as caught:
        load_cases(missing)
    assert str(caught.value) == f"No data file at {str(missing)!r}: check the path."


def test_a_dict_of_dataframes_is_a_dict_of_splits(tickets):
    splits = {"train": pd.DataFrame(tickets[:2]), "test": pd.DataFrame(tickets[2:])}
    assert [c.input["text"] for c in load_cases(splits, split="train")] == [
        tickets[0]["text"],
        tickets[1]["text"],
    ]
    with pytest.raises(DataError) as caught:
        load_cases(splits)
    assert str(caught.value) == (
        "The data is a dict of train, test; pass split=NAME to pick one of them."
    )
    with pytest.raises(DataError) as caught:
        load_cases(splits, split="dev")
    assert str(caught.value) == "No split 'dev' in the data: it has train, test."


def test_pick_cases_counts(tickets):
    cases = load_cases(tickets)
    assert pick_cases(cases, None) == cases and pick_cases(cases, 9) == cases
    assert pick_cases(cases, 5, "random", seed=3) == cases
    with pytest.raises(ValueError) as caught:
        pick_cases(cases, 0)
    assert str(caught.value) == "cases must be 1 or more, got 0."
    with pytest.raises(ValueError) as caught:
        pick_cases(cases, 2, "middle")
    assert str(caught.value) == "sample must be 'first' or 'random', got 'middle'."


def test_the_default_example_and_the_list_of_examples():
    assert load_example() == load_example("tickets") == load_example("tickets.csv")
    assert load_example().name == "tickets.csv"
    assert load_example("prompt").name == "prompt.txt"
    with pytest.raises(DataError) as caught:
        load_example("nope")
    assert (
        str(caught.value) == "No example named 'nope'; the examples are: classify, metric, tickets."
    )
