"""CSV/TSV files read without pandas give exactly what pandas' reading gave: the same rows,
the same keys in the same order, the same text in every cell, or the same refusal.

``dataset._read_csv`` reads with the standard library (``core/plain_csv.py``) and
leaves to pandas (``dataset._read_csv_with_pandas``, the reading it had before)
only what pandas reads its own way; both are run here on the same files.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skynet_jupyter.core import dataset
from skynet_jupyter.core.dataset import DataError
from skynet_jupyter.core.plain_csv import plain_rows


def outcome(read, path: Path, sep: str):
    """The rows (each as its list of items, so the key order counts too) or the refusal."""
    try:
        rows = read(path, sep)
    except (DataError, UnicodeDecodeError) as problem:  # (the latter: _read_file words it)
        return ("refused", type(problem), str(problem))
    return ("rows", [[(key, type(value), value) for key, value in row.items()] for row in rows])


def assert_same_as_pandas(path: Path, sep: str) -> None:
    assert outcome(dataset._read_csv, path, sep) == outcome(
        dataset._read_csv_with_pandas, path, sep
    )


# Files the standard library reads itself (pandas not asked), each as pandas reads it.
PLAIN = {
    "plain": "q,label\na,b\nc,d\n",
    "quoted separators, quotes and line breaks": 'q,label\n"a, b","say ""hi"""\n"two\nlines",x\n',
    "a CRLF file keeps a CRLF inside quotes": 'q,label\r\n"x\r\ny",b\r\nc,d\r\n',
    "a byte order mark": "\ufeffq,label\na,b\n",
    "blank lines before, between and after": "\n\nq,label\n\na,b\n\n\nc,d\n\n",
    "a shorter row is padded with empty text": "q,label,note\na,b\nc\n",
    "empty cells and a quoted empty line": 'q,label\n,\n""\n',
    "numbers and NA words stay text": "q,answer,note\n007,1.50,\nNA,null,N/A\n",
    "spaces are kept": " q , label \n a , b \n",
    "a quote inside an unquoted field": 'q,label\na"b,c\n',
    "no line end at the end": "q,label\na,b",
    "a header without rows": "q,label\n",
    "one column, a quoted empty cell": 'q\n""\na\n',
}


@pytest.mark.parametrize("text", PLAIN.values(), ids=PLAIN.keys())
def test_usual_files_are_read_without_pandas_as_pandas_reads_them(tmp_path, text):
    path = tmp_path / "cases.csv"
    path.write_bytes(text.encode("utf-8"))
    assert plain_rows(path, ",") is not None  # read here, pandas not asked
    assert_same_as_pandas(path, ",")


def test_a_tsv_is_read_without_pandas_as_pandas_reads_it(tmp_path):
    path = tmp_path / "cases.tsv"
    path.write_text('q\tlabel\na, b\t"x\ty"\n \t\n', encoding="utf-8")
    assert plain_rows(path, "\t") is not None
    assert_same_as_pandas(path, "\t")
    assert dataset.read_rows(path) == [
        {"q": "a, b", "label": "x\ty"},
        {"q": " ", "label": ""},
    ]


# Files only pandas reads its own way: handed to it, so they read as they always did.
PANDAS_ONLY = {
    "a character after a closing quote (pandas joins it)": 'q,label\n"a"b,c\n',
    "a space after a closing quote": 'q,label\n"a" ,c\n',
    "an unclosed quote (pandas' error)": 'q,label\n"a,b\n',
    "a line of blanks (pandas skips it)": "q,label\n   \na,b\n",
    "a line of blanks before the header": "  \nq,label\na,b\n",
    "an empty header name (pandas: Unnamed)": "q,\na,b\n",
    "old Mac line ends (after a blank line, pandas drops a row)": "q,label\n\r,\n",
    "a row longer than the header (refused, naming the line)": "q,label\na,b\nc,d,e\n",
}


@pytest.mark.parametrize("text", PANDAS_ONLY.values(), ids=PANDAS_ONLY.keys())
def test_what_only_pandas_reads_its_way_is_left_to_pandas(tmp_path, text):
    path = tmp_path / "cases.csv"
    path.write_bytes(text.encode("utf-8"))
    assert plain_rows(path, ",") is None
    assert_same_as_pandas(path, ",")


def test_a_file_that_is_not_utf8_is_left_to_pandas_which_names_the_line(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_bytes(b"q,label\nok,a\ncaf\xe9,b\n")
    assert plain_rows(path, ",") is None
    assert_same_as_pandas(path, ",")
    with pytest.raises(DataError) as caught:
        dataset.read_rows(path)
    assert str(caught.value) == (
        f"The data file {path} is not UTF-8 text (byte 0xe9 on line 3): save it as UTF-8."
    )


PIECES = ["a", "b", "1", " ", "\t", ",", '"', '""', "\n", "\r", "\r\n", "\x00", "é", "#", "\\"]


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=40),
    bom=st.booleans(),
    sep=st.sampled_from([",", "\t"]),
)
def test_any_text_reads_as_pandas_reads_it(pieces, bom, sep):
    text = ("\ufeff" if bom else "") + "".join(pieces)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cases.csv"
        path.write_bytes(text.encode("utf-8"))
        assert_same_as_pandas(path, sep)
