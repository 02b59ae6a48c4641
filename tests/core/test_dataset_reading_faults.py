"""Reading cases, fault by fault: each refusal is the exact sentence naming the file,
the line, the column or the value, and each accepted shape gives exactly these rows.

Fast, in-process unit tests of ``skynet_jupyter.core.dataset`` (part of the mutation
testing selection in pyproject.toml): they assert the words, the numbers and
the rows, so a changed line number, a lost field or a dropped row fails here.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path
from types import MappingProxyType

import pandas as pd
import pytest

from skynet_jupyter.core import dataset
from skynet_jupyter.core.dataset import (
    NO_OUTPUT,
    Case,
    Cases,
    DataError,
    inputs_note,
    load_cases,
    load_example,
    pick_cases,
    read_rows,
)
from skynet_jupyter.i18n import t


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def refusal(data, **options) -> str:
    """The English sentence of the DataError ``load_cases(data, **options)`` raises."""
    with pytest.raises(DataError) as caught:
        load_cases(data, **options)
    return str(caught.value)


# --- DataError ----------------------------------------------------------------------


def test_a_data_error_with_an_id_speaks_every_language_and_pickles_with_its_fields():
    error = DataError("data.no_file", path="cases.csv")
    assert error.message_id == "data.no_file"
    assert error.fields == {"path": "cases.csv"}
    assert str(error) == "No data file at 'cases.csv': check the path."
    assert error.message() == str(error)
    assert error.message("en") == str(error)
    assert error.message("fr") != str(error)
    assert "'cases.csv'" in error.message("fr")
    again = pickle.loads(pickle.dumps(error))
    assert (again.message_id, again.fields, str(again)) == (
        error.message_id,
        error.fields,
        str(error),
    )
    assert again.message("fr") == error.message("fr")


def test_a_data_error_with_a_finished_sentence_is_that_sentence_in_every_language():
    error = DataError("Something precise went wrong.")
    assert error.message_id is None
    assert str(error) == "Something precise went wrong."
    assert error.message("fr") == "Something precise went wrong."
    assert error.message() == "Something precise went wrong."
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == "Something precise went wrong." and again.message_id is None


# --- what the data is ---------------------------------------------------------------


def test_a_dict_of_splits_picks_the_split_and_keeps_its_rows_whole():
    data = {
        "train": [{"q": "a", "split": "other"}],
        "test": [{"q": "b", "split": "other"}, {"q": "c"}],
    }
    # The split named a key of the dict: every row of that table, whatever its split column.
    assert read_rows(data, "test") == [{"q": "b", "split": "other"}, {"q": "c"}]
    cases = load_cases(data, split="test")
    # (the split column is not an input when a split is asked for)
    assert [case.input for case in cases] == [{"q": "b"}, {"q": "c"}]


def test_a_dict_of_splits_without_a_known_split_names_the_splits():
    data = {"train": [{"q": "a"}], "test": [{"q": "b"}]}
    assert refusal(data) == (
        "The data is a dict of train, test; pass split=NAME to pick one of them."
    )
    assert refusal(data, split="dev") == "No split 'dev' in the data: it has train, test."


def test_a_dict_that_is_one_row_is_not_a_table():
    assert refusal({"q": 1, "label": 2}) == (
        "Cannot read cases from a dict: give a pandas DataFrame, a list of dicts, or the path "
        "of a .csv, .jsonl, .json or .parquet file."
    )


@pytest.mark.parametrize(
    "data, kind", [(b"q,label\n", "bytes"), (42, "int"), (None, "NoneType"), ({1, 2}, "set")]
)
def test_what_is_not_a_table_is_named_by_its_type(data, kind):
    assert refusal(data) == (
        f"Cannot read cases from a {kind}: give a pandas DataFrame, a list of dicts, or the "
        "path of a .csv, .jsonl, .json or .parquet file."
    )


def test_a_row_that_is_not_a_dict_is_named_by_its_place_and_type():
    assert refusal([{"q": 1}, {"q": 2}, ["q", 3]]) == (
        "Row 2 of the data is a list, not a dict: give a list of dicts (one per case) or a "
        "DataFrame."
    )
    assert refusal(({"q": 1}, "q=2")) == (
        "Row 1 of the data is a str, not a dict: give a list of dicts (one per case) or a "
        "DataFrame."
    )


def test_rows_may_be_any_mapping_in_any_sequence_and_are_copied():
    row = {"q": "a", "label": "x"}
    cases = load_cases((MappingProxyType(row), row), outputs="label")
    assert [(c.index, c.input, c.expected) for c in cases] == [
        (0, {"q": "a"}, {"label": "x"}),
        (1, {"q": "a"}, {"label": "x"}),
    ]
    cases[1].input["q"] = "changed"
    assert row == {"q": "a", "label": "x"}


def test_a_dataframe_with_a_repeated_column_names_it_once():
    frame = pd.DataFrame([[1, 2, 3, 4]], columns=["q", "a", "q", "a"])
    assert refusal(frame) == (
        "The data names the columns 'q', 'a' more than once: only the last would be kept. "
        "Give every column its own name."
    )
    # Names are compared as text, in the order they first appear.
    frame = pd.DataFrame([[1, 2, 3]], columns=["b", 1, "1"])
    assert refusal(frame) == (
        "The data names the column '1' more than once: only the last would be kept. "
        "Give every column its own name."
    )


# --- files ----------------------------------------------------------------------------


def test_missing_files_directories_and_pipes_are_named(tmp_path):
    missing = tmp_path / "nope.csv"
    assert refusal(missing) == f"No data file at {str(missing)!r}: check the path."
    assert refusal(str(tmp_path)) == (
        f"{tmp_path} is a directory, not a data file: give the path of the file."
    )
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    assert refusal(pipe) == (
        f"{pipe} is not a regular file (a pipe or a device?): give a data file."
    )


def _refusal_without_read_permission(path: Path) -> str:
    """``refusal(path)`` by a user who may not read ``path`` (root reads any file).

    As root, a forked child drops to the ``nobody`` uid to read it and sends back the
    sentence; it always ends with ``os._exit``, so the test run itself never forks on.
    """
    if os.geteuid() != 0:
        return refusal(path)
    # Root reads it: the file is good data, only its permission stops anyone else.
    assert [case.input for case in load_cases(path)] == [{"q": "1", "a": "2"}]
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(read_end)
            os.setgid(65534)
            os.setuid(65534)
            try:
                load_cases(path)
                said = "read without an error"
            except DataError as error:
                said = str(error)
            os.write(write_end, said.encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        said = pipe.read().decode()
    os.waitpid(child, 0)
    return said


def test_a_file_we_may_not_read_names_the_file_and_the_reason():
    # Not tmp_path: its parents are private to the user running the tests.
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        path = write(Path(folder) / "secret.csv", "q,a\n1,2\n")
        path.chmod(0)
        assert _refusal_without_read_permission(path) == (
            f"Cannot read the data file {path}: Permission denied."
        )


@pytest.mark.parametrize("name, suffix", [("cases.txt", ".txt"), ("cases", "(none)")])
def test_a_file_type_we_do_not_read_is_named(tmp_path, name, suffix):
    path = write(tmp_path / name, "q,label\na,b\n")
    assert refusal(path) == (
        f"Cannot read {path}: the file type {suffix} is not one of .csv, .tsv, .jsonl, .json, "
        ".parquet."
    )


@pytest.mark.parametrize("name", ["cases.csv", "cases.tsv", "cases.json", "cases.jsonl"])
def test_an_empty_file_is_named(tmp_path, name):
    path = write(tmp_path / name, "")
    assert refusal(path) == (
        f"The data file {path} is empty: it needs a header and at least one case."
    )


@pytest.mark.parametrize(
    "name, text",
    [("cases.csv", "\n\n\n"), ("cases.json", " \n\t\n"), ("cases.jsonl", "\n   \n\n")],
)
def test_a_file_of_blank_lines_is_empty(tmp_path, name, text):
    path = write(tmp_path / name, text)
    assert refusal(path) == (
        f"The data file {path} is empty: it needs a header and at least one case."
    )


def test_a_header_without_rows_names_the_file(tmp_path):
    path = write(tmp_path / "cases.csv", "q,label\n")
    assert refusal(path) == (f"The data file {path} has no rows: a check needs at least one case.")
    assert refusal(str(path)) == (
        f"The data file {path} has no rows: a check needs at least one case."
    )
    assert refusal([]) == "The data has no rows: a check needs at least one case."


@pytest.mark.parametrize("name", ["cases.csv", "cases.jsonl", "cases.json"])
def test_text_that_is_not_utf8_names_the_line_and_the_byte(tmp_path, name):
    rows = {
        "cases.csv": b"q,label\nfine,a\ncaf\xe9,b\n",
        "cases.jsonl": b'{"q": "fine"}\n{"q": "ok"}\n{"q": "caf\xe9"}\n',
        "cases.json": b'[{"q": "fine"},\n{"q": "ok"},\n{"q": "caf\xe9"}]\n',
    }[name]
    path = tmp_path / name
    path.write_bytes(rows)
    assert refusal(path) == (
        f"The data file {path} is not UTF-8 text (byte 0xe9 on line 3): save it as UTF-8."
    )


def test_upper_case_suffixes_are_read_as_their_type(tmp_path):
    path = write(tmp_path / "CASES.CSV", 'q,tags\na,"[1, 2]"\n')
    cases = load_cases(path)
    assert cases[0].input == {"q": "a", "tags": "[1, 2]"}
    assert cases.json_like == ("tags",)
    tsv = write(tmp_path / "CASES.TSV", "q\tlabel\na,b\tc\n")
    assert read_rows(tsv) == [{"q": "a,b", "label": "c"}]


# --- JSON and JSON Lines -------------------------------------------------------------


def test_json_with_a_byte_order_mark_and_a_cases_key(tmp_path):
    path = tmp_path / "cases.json"
    path.write_text('{"cases": [{"q": 1}, {"q": [2]}], "about": "x"}', encoding="utf-8-sig")
    assert read_rows(path) == [{"q": 1}, {"q": [2]}]
    listed = tmp_path / "list.json"
    listed.write_text('[{"q": 1}]', encoding="utf-8-sig")
    assert read_rows(listed) == [{"q": 1}]


@pytest.mark.parametrize(
    "text",
    ['{"cases": "none"}', '{"q": 1}', '[{"q": 1}, 2]', '"text"', '{"cases": {"q": 1}}'],
)
def test_json_that_is_not_a_list_of_objects_is_refused(tmp_path, text):
    path = write(tmp_path / "cases.json", text)
    assert refusal(path) == f"{path} must hold a JSON list of objects, one per case."


def test_invalid_json_names_the_line_and_column(tmp_path):
    path = write(tmp_path / "cases.json", '[\n  {"q": 1},\n  {"q": }\n]')
    assert refusal(path) == (f"{path} is not valid JSON (line 3, column 9): Expecting value.")


def test_a_json_object_repeating_keys_names_them_in_order(tmp_path):
    path = write(tmp_path / "cases.json", '[{"b": 1, "a": 2, "b": 3, "a": 4, "c": 5}]')
    assert refusal(path) == (
        f"{path} has an object that repeats the keys 'b', 'a': JSON keeps only the last "
        "value, so the others would be lost. Rename them."
    )


def test_jsonl_lines_are_numbered_in_the_file_blank_lines_included(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text('{"q": 1}\n\n{"q": 2}\n', encoding="utf-8-sig")
    assert read_rows(path) == [{"q": 1}, {"q": 2}]
    bad = write(tmp_path / "bad.jsonl", '{"q": 1}\n\n{"q": 2,}\n')
    assert refusal(bad) == (
        f"{bad}, line 3: not valid JSON "
        "(Expecting property name enclosed in double quotes, column 9)."
    )
    not_object = write(tmp_path / "list.jsonl", '{"q": 1}\n\n\n[1, 2]\n')
    assert refusal(not_object) == f"{not_object}, line 4: each line must be a JSON object."


def test_a_jsonl_line_repeating_keys_names_the_line_and_keys(tmp_path):
    path = write(tmp_path / "cases.jsonl", '{"q": 1}\n{"x": 1, "q": 2, "x": 3, "q": 4}\n')
    assert refusal(path) == (
        f"{path}, line 2: the object repeats the keys 'x', 'q': JSON keeps only the last "
        "value, so the others would be lost. Rename them."
    )


def test_nested_objects_repeating_a_key_are_refused_too(tmp_path):
    path = write(tmp_path / "cases.jsonl", '{"q": {"k": 1, "k": 2}}\n')
    assert refusal(path) == (
        f"{path}, line 1: the object repeats the key 'k': JSON keeps only the last "
        "value, so the others would be lost. Rename them."
    )


# --- CSV and TSV -------------------------------------------------------------------------


def test_every_csv_cell_is_text_as_written(tmp_path):
    path = write(tmp_path / "cases.csv", "q,answer,note\n007,1.50,\nNA,null,N/A\n")
    assert read_rows(path) == [
        {"q": "007", "answer": "1.50", "note": ""},
        {"q": "NA", "answer": "null", "note": "N/A"},
    ]


def test_leading_blank_lines_before_the_header_are_skipped(tmp_path):
    path = write(tmp_path / "cases.csv", "\n\nq,label\na,b\n")
    assert read_rows(path) == [{"q": "a", "label": "b"}]


def test_a_repeated_header_name_is_refused_naming_the_file(tmp_path):
    path = write(tmp_path / "cases.csv", "label,q,label,q,x\n1,2,3,4,5\n")
    assert refusal(path) == (
        f"{path} names the columns 'label', 'q' more than once: only one would be kept (or "
        "the copy renamed). Give every column its own name."
    )


def test_a_row_with_more_fields_than_the_header_names_its_line(tmp_path):
    path = write(tmp_path / "cases.csv", 'q,label\na,b\n"two\nlines",c\nd,e,f,g\n')
    assert refusal(path) == (
        f"{path}, line 5: 4 fields, but the header names 2 columns. The values would shift "
        "into the wrong columns: quote the fields that contain the separator, or add the "
        "missing column names to the header."
    )


def test_every_row_longer_than_the_header_names_the_first(tmp_path):
    # pandas reads this without error, taking the first field as the index.
    path = write(tmp_path / "cases.tsv", "q\tlabel\n1\t2\t3\n4\t5\t6\n")
    assert refusal(path) == (
        f"{path}, line 2: 3 fields, but the header names 2 columns. The values would shift "
        "into the wrong columns: quote the fields that contain the separator, or add the "
        "missing column names to the header."
    )


def test_a_shorter_row_is_padded_with_empty_text(tmp_path):
    path = write(tmp_path / "cases.csv", "q,label,note\na,b\n")
    assert read_rows(path) == [{"q": "a", "label": "b", "note": ""}]


def test_an_unclosed_quote_is_said_as_pandas_says_it(tmp_path):
    path = write(tmp_path / "cases.csv", 'q,label\n"a,b\n')
    said = refusal(path)
    assert said.startswith(f"Cannot read {path} as CSV: ")
    assert "EOF inside string" in said
    assert not said.endswith("\n")


def test_dtype_for_named_columns_keeps_the_others_as_text(tmp_path):
    path = write(tmp_path / "cases.csv", "q,answer,id\n007,42,0012\n")
    assert read_rows(path, dtype={"answer": int}) == [{"q": "007", "answer": 42, "id": "0012"}]
    assert read_rows(path, dtype=int) == [{"q": 7, "answer": 42, "id": 12}]
    assert read_rows(path, dtype=None) == [{"q": "007", "answer": "42", "id": "0012"}]


def test_dtype_naming_an_unknown_column_lists_the_header(tmp_path):
    path = write(tmp_path / "cases.csv", "q,answer\na,1\n")
    assert refusal(path, dtype={"answer": int, "score": float, "x": int}) == (
        "dtype: no column 'score'. The data has: q, answer."
    )


def test_cells_that_do_not_fit_the_dtype_name_the_file(tmp_path):
    path = write(tmp_path / "cases.csv", "q,answer\na,forty\n")
    said = refusal(path, dtype={"answer": int})
    assert said.startswith(f"{path}: the cells do not fit the dtype given (")
    assert "forty" in said
    assert said.endswith(
        "). Give a type every cell of the column fits, or leave the column as text (the default)."
    )


# --- Parquet ----------------------------------------------------------------------------


def test_parquet_keeps_its_types(tmp_path):
    path = tmp_path / "cases.parquet"
    pd.DataFrame({"q": ["a", "b"], "n": [1, 2]}).to_parquet(path)
    assert read_rows(path) == [{"q": "a", "n": 1}, {"q": "b", "n": 2}]


def test_a_file_that_is_not_parquet_says_so(tmp_path):
    path = write(tmp_path / "cases.parquet", "q,label\na,b\n")
    said = refusal(path)
    assert said.startswith(f"Cannot read {path} as Parquet: ")
    assert len(said) > len(f"Cannot read {path} as Parquet: ") + 5  # the reader's own reason


# --- JSON columns and JSON-looking text ----------------------------------------------------


def test_json_columns_parse_text_cells_and_leave_values_alone():
    rows = [{"q": "a", "tags": '["x", "y"]', "n": "4"}, {"q": "b", "tags": [1], "n": "5"}]
    cases = load_cases(rows, json_columns="tags, n")
    # A value already parsed (the list) does not stop the next column's cell being parsed.
    assert [case.input for case in cases] == [
        {"q": "a", "tags": ["x", "y"], "n": 4},
        {"q": "b", "tags": [1], "n": 5},
    ]
    assert rows[0] == {"q": "a", "tags": '["x", "y"]', "n": "4"}


def test_json_columns_must_name_columns_of_the_data():
    rows = [{"q": "a"}, {"tags": "[]"}]
    assert refusal(rows, json_columns=["tags", "labels"]) == (
        "json_columns: no column 'labels'. The data has: q, tags."
    )


def test_a_bad_json_cell_names_the_column_row_and_cut_cell():
    rows = [{"q": "a", "tags": "[1]"}, {"q": "b", "tags": "[1]"}, {"q": "c", "tags": "x" * 70}]
    assert refusal(rows, json_columns=["tags"]) == (
        f"Column 'tags', row 3: the cell '{'x' * 60}…' is not valid JSON (Expecting value). "
        'Write it as JSON (a list is ["a", "b"], text is "quoted", null for none), or leave '
        "the column out of json_columns."
    )


def test_a_bad_json_cell_of_sixty_characters_is_shown_whole():
    rows = [{"tags": "y" * 60}]
    assert f"the cell '{'y' * 60}' is not" in refusal(rows, json_columns="tags")


def test_a_bad_json_cell_in_a_csv_names_the_file_and_its_row_before_the_split(tmp_path):
    path = write(tmp_path / "cases.csv", 'q,tags,split\na,[1],train\nb,"[2,",test\n')
    assert refusal(path, json_columns="tags", split="train") == (
        f"{path}, column 'tags', row 2: the cell '[2,' is not valid JSON (Expecting value). "
        'Write it as JSON (a list is ["a", "b"], text is "quoted", null for none), or leave '
        "the column out of json_columns (--json-columns)."
    )


def test_csv_columns_that_look_like_json_are_noted_but_stay_text(tmp_path):
    path = write(
        tmp_path / "cases.csv",
        "q,tags,meta,words,split,empty,parsed\n"
        'a,"[1, 2]"," {""k"": 1} ",[not json],"[""s""]",,"[3]"\n'
        'b,,"{}",plain,"[""t""]",,"""[4]"""\n',
    )
    cases = load_cases(path, json_columns="parsed")
    # Not the split column, nor a JSON column (even when a cell is JSON text reading "[4]").
    assert cases.json_like == ("tags", "meta")
    assert cases[0].input["tags"] == "[1, 2]"
    assert cases[0].input["parsed"] == [3]
    assert read_rows(path, json_columns=["parsed"])[1]["parsed"] == "[4]"
    tsv = write(tmp_path / "cases.tsv", "q\ttags\na\t[1, 2]\n")
    assert load_cases(tsv).json_like == ("tags",)


def test_lists_from_a_json_file_are_values_not_json_looking_text(tmp_path):
    path = write(tmp_path / "cases.jsonl", '{"q": "[1]", "tags": [1]}\n')
    assert load_cases(path).json_like == ()
    assert load_cases([{"q": "[1]"}]).json_like == ()


@pytest.mark.parametrize(
    "cell, looks",
    [
        ("[1, 2]", True),
        ('{"a": 1}', True),
        ("[]", True),
        ("{}", True),
        ("[1} ", False),
        ("{1]", False),
        ("[1] [2]", False),
        ("[oops]", False),
        ('"[1]"', False),
        ("42", False),
        ("[", False),
    ],
)
def test_which_cells_look_like_json_containers(tmp_path, cell, looks):
    path = tmp_path / "cases.csv"
    pd.DataFrame({"q": ["a"], "c": [cell]}).to_csv(path, index=False)
    assert load_cases(path).json_like == (("c",) if looks else ())


def test_only_the_first_fifty_cells_of_a_column_are_looked_at(tmp_path):
    cells = ["[1]"] * 50 + ["plain"]
    path = tmp_path / "cases.csv"
    pd.DataFrame({"c": cells, "d": ["plain"] * 50 + ["[1]"]}).to_csv(path, index=False)
    assert load_cases(path).json_like == ("c",)
    path_49 = tmp_path / "fewer.csv"
    pd.DataFrame({"c": ["[1]"] * 49 + ["plain"]}).to_csv(path_49, index=False)
    assert load_cases(path_49).json_like == ()


def test_only_the_first_thousand_rows_are_looked_at(tmp_path):
    cells = [""] * 999 + ["[1]"] + ["plain"]
    path = tmp_path / "cases.csv"
    pd.DataFrame({"q": ["x"] * 1001, "c": cells}).to_csv(path, index=False)
    assert load_cases(path).json_like == ("c",)
    late = tmp_path / "late.csv"
    pd.DataFrame({"q": ["x"] * 1001, "c": [""] * 1000 + ["[1]"]}).to_csv(late, index=False)
    assert load_cases(late).json_like == ()


# --- splits ---------------------------------------------------------------------------------


def test_a_split_keeps_its_rows_and_lists_the_others_when_empty():
    rows = [
        {"q": "a", "split": "train"},
        {"q": "b", "split": "test"},
        {"q": "c", "split": None},
        {"q": "d", "split": "test"},
    ]
    assert read_rows(rows, "test") == [{"q": "b", "split": "test"}, {"q": "d", "split": "test"}]
    assert refusal(rows, split="dev") == (
        "No rows in split 'dev'; the splits present are: None, test, train."
    )


def test_a_split_without_a_split_column_says_to_add_one():
    assert refusal([{"q": "a"}], split="test") == (
        "split='test' was given but the data has no 'split' column: add one, or leave out the "
        "split."
    )


def test_a_split_column_in_any_row_is_enough():
    rows = [{"q": "a"}, {"q": "b", "split": "test"}]
    assert read_rows(rows, "test") == [{"q": "b", "split": "test"}]


# --- load_cases --------------------------------------------------------------------------


def test_default_inputs_skip_outputs_the_output_column_and_the_split_column_of_a_split():
    rows = [{"q": "a", "label": "x", "out": "y", "split": "t", "extra": 1}]
    cases = load_cases(rows, outputs="label", output_column="out", split="t")
    assert cases[0].input == {"q": "a", "extra": 1}
    assert cases[0].expected == {"label": "x"}
    assert cases[0].output == "y"
    assert cases.default_inputs == ("q", "extra")
    whole = load_cases(rows, outputs="label")
    assert whole[0].input == {"q": "a", "out": "y", "split": "t", "extra": 1}
    assert whole[0].output is NO_OUTPUT
    assert whole.default_inputs == ("q", "out", "split", "extra")


def test_named_inputs_and_outputs_and_columns_missing_from_some_rows():
    rows = [{"q": "a", "c": 1, "label": "x"}, {"q": "b", "extra": 2}]
    cases = load_cases(rows, outputs=["label"], inputs="q, c")
    assert [(c.index, c.input, c.expected) for c in cases] == [
        (0, {"q": "a", "c": 1}, {"label": "x"}),
        (1, {"q": "b", "c": None}, {"label": None}),
    ]
    assert cases.default_inputs is None
    one = load_cases(rows, inputs=["q"])
    assert [c.input for c in one] == [{"q": "a"}, {"q": "b"}]
    assert [c.expected for c in one] == [None, None]
    assert [c.output for c in one] == [NO_OUTPUT, NO_OUTPUT]


@pytest.mark.parametrize(
    "options, said",
    [
        ({"outputs": "answer"}, "outputs: no column 'answer'."),
        ({"inputs": ["q", "text"]}, "inputs: no column 'text'."),
        ({"output_column": "output"}, "output_column: no column 'output'."),
        (
            {"outputs": "label", "inputs": "q", "output_column": "out"},
            "output_column: no column 'out'.",
        ),
        ({"outputs": "lable"}, "outputs: no column 'lable'. Did you mean 'label'?"),
    ],
)
def test_every_column_asked_for_must_exist(options, said):
    rows = [{"q": "a", "label": "x"}, {"q": "b", "c": 1}]
    assert refusal(rows, **options) == f"{said} The data has: q, label, c."


def test_an_output_column_gives_each_case_its_output():
    rows = [{"q": "a", "out": "A"}, {"q": "b"}]
    cases = load_cases(rows, output_column="out")
    assert [(c.input, c.output) for c in cases] == [({"q": "a"}, "A"), ({"q": "b"}, None)]


# --- inputs_note, pick_cases, load_example --------------------------------------------


def test_the_inputs_note_names_the_default_inputs_in_the_language_asked():
    cases = load_cases([{"q": "a", "ctx": "b", "label": "c"}], outputs="label")
    assert inputs_note(cases) == (
        "Inputs (every column but the Output ones): q, ctx. Name them with --inputs (inputs=) "
        "to choose."
    )
    assert inputs_note(cases, "en") == inputs_note(cases)
    french = inputs_note(cases, "fr")
    assert french != inputs_note(cases) and "q, ctx" in french
    assert inputs_note(load_cases([{"q": "a", "label": "c"}], inputs="q")) is None
    assert inputs_note([Case(0, {"q": "a"})]) is None


def test_the_inputs_note_says_none_when_no_column_is_left():
    cases = load_cases([{"label": "c"}], outputs="label")
    assert cases.default_inputs == ()
    assert inputs_note(cases) == (
        "Inputs (every column but the Output ones): none. Name them with --inputs (inputs=) "
        "to choose."
    )


def test_pick_cases_keeps_the_notes_and_checks_its_arguments():
    cases = load_cases([{"q": str(n)} for n in range(6)])
    cases.json_like = ("q",)
    first = pick_cases(cases, 2)
    assert [c.index for c in first] == [0, 1]
    assert isinstance(first, Cases)
    assert (first.default_inputs, first.json_like) == (("q",), ("q",))
    assert [c.index for c in pick_cases(cases, 6)] == list(range(6))
    assert [c.index for c in pick_cases(cases, 5)] == list(range(5))
    assert [c.index for c in pick_cases(cases, None)] == list(range(6))
    assert pick_cases(cases, None).json_like == ("q",)
    chosen = pick_cases(cases, 3, "random", seed=7)
    assert [c.index for c in chosen] == sorted(c.index for c in chosen)
    assert len({c.index for c in chosen}) == 3
    assert chosen.json_like == ("q",)
    assert [c.index for c in pick_cases(cases, 3, "random", seed=7)] == [c.index for c in chosen]
    plain = pick_cases(list(cases), 1)
    assert type(plain) is list and [c.index for c in plain] == [0]
    with pytest.raises(ValueError) as zero:
        pick_cases(cases, 0)
    assert str(zero.value) == "cases must be 1 or more, got 0."
    with pytest.raises(ValueError) as sample:
        pick_cases(cases, 2, "last")
    assert str(sample.value) == "sample must be 'first' or 'random', got 'last'."


def test_a_random_sample_depends_on_its_seed():
    cases = load_cases([{"q": str(n)} for n in range(40)])
    picks = {tuple(c.index for c in pick_cases(cases, 5, "random", seed=s)) for s in range(5)}
    assert len(picks) > 1
    assert (
        pick_cases(cases, 1, "random", seed=3)[0].index
        == __import__("random").Random(3).sample(range(40), 1)[0]
    )


def test_load_example_by_name_by_file_name_and_unknown(examples_dir):
    assert load_example() == examples_dir / "tickets.csv"
    assert load_example("tickets") == examples_dir / "tickets.csv"
    assert load_example("tickets.csv") == examples_dir / "tickets.csv"
    assert load_example("metric") == examples_dir / "metric.py"
    with pytest.raises(DataError) as caught:
        load_example("nope")
    assert str(caught.value) == (
        "No example named 'nope'; the examples are: classify, metric, tickets."
    )


# --- CSV edge cases: a byte order mark, fields past the csv module's size limit ---------


def test_a_byte_order_mark_is_not_part_of_the_first_column_name(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text("q,answer\nabc,42\n", encoding="utf-8-sig")
    assert read_rows(path, dtype={"q": str, "answer": int}) == [{"q": "abc", "answer": 42}]
    bad = tmp_path / "repeat.csv"
    bad.write_text("q,q\n1,2\n", encoding="utf-8-sig")
    assert refusal(bad).startswith(f"{bad} names the column 'q' more than once")
    long_row = tmp_path / "long.csv"
    long_row.write_text("q,label\na,b\nc,d,e\n", encoding="utf-8-sig")
    assert refusal(long_row).startswith(f"{long_row}, line 3: 3 fields, but the header names 2")


def test_rows_longer_than_the_header_past_the_csv_field_limit_are_still_refused(tmp_path):
    # The csv module cannot read a field this long to name the line: pandas' words are given.
    huge = "x" * 200_000
    every = write(tmp_path / "every.csv", f"q,label\n1,{huge},3\n")
    assert refusal(every) == (f"Cannot read {every} as CSV: rows have more fields than the header")
    one = write(tmp_path / "one.csv", f"q,label\n{huge},a\nb,c,d\n")
    said = refusal(one)
    assert said.startswith(f"Cannot read {one} as CSV: ")
    assert "Expected 2 fields in line 3, saw 3" in said


def test_a_pandas_series_is_not_a_table():
    assert refusal(pd.Series([1, 2])) == (
        "Cannot read cases from a Series: give a pandas DataFrame, a list of dicts, or the path "
        "of a .csv, .jsonl, .json or .parquet file."
    )


def test_a_one_byte_json_file_is_read_not_called_empty(tmp_path):
    path = write(tmp_path / "cases.json", "7")
    assert refusal(path) == f"{path} must hold a JSON list of objects, one per case."


def test_a_split_or_json_column_first_in_the_row_does_not_hide_the_next_columns(tmp_path):
    path = write(tmp_path / "cases.csv", 'split,parsed,tags\ntrain,"[1]","[2]"\n')
    assert load_cases(path).json_like == ("parsed", "tags")
    assert load_cases(path, json_columns="parsed").json_like == ("tags",)


def test_one_dtype_for_every_column_is_handed_to_pandas(tmp_path):
    path = write(tmp_path / "cases.csv", "q,answer\n007,1.50\n")
    assert read_rows(path, dtype=str) == [{"q": "007", "answer": "1.50"}]
    assert read_rows(path, dtype=float) == [{"q": 7.0, "answer": 1.5}]


def test_the_none_of_the_inputs_note_is_in_the_language_asked():
    cases = load_cases([{"label": "c"}], outputs="label")
    none = t("data.no_input_columns", "fr")
    assert none != t("data.no_input_columns", "en")
    assert inputs_note(cases, "fr") == t("data.inputs_chosen", "fr", columns=none)


def test_the_examples_listed_are_the_data_and_python_files(tmp_path, monkeypatch):
    for name in ("b.jsonl", "a.csv", "c.py", "d.txt", "e.json"):
        write(tmp_path / name, "x")
    monkeypatch.setattr(dataset, "EXAMPLES", tmp_path)
    assert load_example("d") == tmp_path / "d.txt"
    with pytest.raises(DataError) as caught:
        load_example("zzz")
    assert str(caught.value) == "No example named 'zzz'; the examples are: a, b, c."


# --- whole tables: every row holds every column ---------------------------------------


def test_inputs_keep_the_order_asked_and_the_tables_order_by_default(tmp_path):
    path = write(tmp_path / "cases.csv", "a,b,label,out\n1,2,x,y\n3,4,z,w\n")
    named = load_cases(path, outputs="label", inputs="b, a", output_column="out")
    assert [list(case.input.items()) for case in named] == [
        [("b", "2"), ("a", "1")],
        [("b", "4"), ("a", "3")],
    ]
    assert [(c.index, c.expected, c.output) for c in named] == [
        (0, {"label": "x"}, "y"),
        (1, {"label": "z"}, "w"),
    ]
    default = load_cases(path, outputs=["out", "label"])
    assert [list(case.input.items()) for case in default] == [
        [("a", "1"), ("b", "2")],
        [("a", "3"), ("b", "4")],
    ]
    assert [list(case.expected.items()) for case in default] == [
        [("out", "y"), ("label", "x")],
        [("out", "w"), ("label", "z")],
    ]
    none = load_cases(path, inputs=[], outputs="label")
    assert [c.input for c in none] == [{}, {}]


def test_the_callers_rows_and_dataframe_are_left_whole():
    rows = [{"q": "a", "label": "x", "out": "y"}, {"q": "b", "label": "z", "out": "w"}]
    frame = pd.DataFrame(rows)
    for data in (rows, frame):
        cases = load_cases(data, outputs="label", output_column="out")
        assert [(c.input, c.expected, c.output) for c in cases] == [
            ({"q": "a"}, {"label": "x"}, "y"),
            ({"q": "b"}, {"label": "z"}, "w"),
        ]
        cases[0].input["q"] = "changed"
    assert rows == [{"q": "a", "label": "x", "out": "y"}, {"q": "b", "label": "z", "out": "w"}]
    assert frame.to_dict("records") == rows


def test_a_bad_byte_after_a_leading_blank_line_counts_that_line(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_bytes(b"\nq,label\ncaf\xe9,b\n")
    assert refusal(path) == (
        f"The data file {path} is not UTF-8 text (byte 0xe9 on line 3): save it as UTF-8."
    )
