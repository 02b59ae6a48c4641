"""Data never shifts silently: what pandas or json would quietly move, rename or drop
is a DataError naming the file, the line and the columns, in the report's language.

Each fault is shown through ``load_cases`` and through ``skynet-check`` in a real
subprocess (exit 2, one sentence, and one JSON document with --json).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest

from skynet_jupyter import DataError, load_cases
from tests import cli_support

METRIC = """\
def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def refused(data, **options) -> DataError:
    with pytest.raises(DataError) as caught:
        load_cases(data, **options)
    return caught.value


def skynet_check(tmp_path: Path, data: Path, *extra: str) -> subprocess.CompletedProcess:
    """The installed console script on ``data``, through the one runner (tests/cli_support.py)."""
    metric = write(tmp_path / "metric.py", METRIC)
    args = (metric, "--data", data, "--output-column", "label", *extra)
    return cli_support.skynet_check(*args, how="script")


def assert_cli_refuses(tmp_path: Path, data: Path, says: str, lang: str = "en") -> None:
    done = skynet_check(tmp_path, data, "--json", "--lang", lang)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert says in done.stderr, done.stderr
    document = json.loads(done.stdout)
    assert document["error"] == "usage" and says in document["message"]


# --- rows longer than the header -------------------------------------------------


def test_every_row_one_field_too_many_is_refused_not_shifted(tmp_path):
    data = write(
        tmp_path / "cases.csv", "q,label\nWhat is 2+2?,4,math\nCapital of France?,Paris,geo\n"
    )
    # What pandas alone does: the first field becomes the index, q holds the label.
    shifted = pd.read_csv(data, keep_default_na=False).to_dict("records")
    assert shifted[0] == {"q": "4", "label": "math"}
    problem = refused(data, outputs="label")
    assert str(problem) == (
        f"{data}, line 2: 3 fields, but the header names 2 columns. The values would shift "
        "into the wrong columns: quote the fields that contain the separator, or add the "
        "missing column names to the header."
    )
    assert_cli_refuses(tmp_path, data, f"{data}, line 2: 3 fields")


def test_one_long_row_is_named_by_its_line_even_after_a_multiline_field(tmp_path):
    data = write(
        tmp_path / "cases.csv",
        'q,label\n"a question\nover two lines",yes\nplain,no\n"x, quoted",yes\nlast,no,extra\n',
    )
    problem = refused(data, outputs="label")
    assert problem.message_id == "data.extra_fields"
    assert problem.fields["line"] == 6  # the physical line, not pandas' record number
    assert str(problem).startswith(f"{data}, line 6: 3 fields")


def test_a_tsv_row_with_an_extra_tab(tmp_path):
    data = write(tmp_path / "cases.tsv", "q\tlabel\na\tb\tc\n")
    assert str(refused(data)).startswith(f"{data}, line 2: 3 fields")


def test_a_well_formed_csv_still_loads_with_quoted_commas(tmp_path):
    data = write(tmp_path / "cases.csv", 'q,label,label.1\n"a, b",x,y\n')
    cases = load_cases(data, outputs="label")
    assert cases[0].input == {"q": "a, b", "label.1": "y"}  # label.1 named so: not a copy
    assert cases[0].expected == {"label": "x"}


# --- repeated column names --------------------------------------------------------


def test_a_csv_header_repeating_a_name_is_refused_naming_it(tmp_path):
    data = write(tmp_path / "cases.csv", "q,label,label,q,other\na,x,y,b,c\n")
    problem = refused(data, outputs="label")
    assert str(problem).startswith(f"{data} names the columns 'q', 'label' more than once")
    assert_cli_refuses(tmp_path, data, "names the columns 'q', 'label' more than once")


def test_a_dataframe_with_duplicate_columns_is_refused_naming_them():
    frame = pd.DataFrame([["a", "x", "y"]], columns=["q", "label", "label"])
    problem = refused(frame, outputs="label")
    assert str(problem).startswith("The data names the column 'label' more than once")


def test_json_objects_repeating_a_key_are_refused(tmp_path):
    lines = write(
        tmp_path / "cases.jsonl",
        '{"q": "a", "label": "x"}\n{"q": "b", "label": "y", "label": "z"}\n',
    )
    problem = refused(lines, outputs="label")
    assert str(problem).startswith(f"{lines}, line 2: the object repeats the key 'label'")
    assert_cli_refuses(tmp_path, lines, "line 2: the object repeats the key 'label'")
    document = write(tmp_path / "cases.json", '[{"q": "a", "q": "b", "label": "x"}]')
    assert "repeats the key 'q'" in str(refused(document, outputs="label"))


# --- empty, odd and unreadable files ------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("cases.csv", "", "The data file {path} is empty"),
        ("cases.tsv", "\n\n", "The data file {path} is empty"),
        ("cases.jsonl", "\n  \n", "The data file {path} is empty"),
        ("cases.json", "   \n", "The data file {path} is empty"),
        ("cases.csv", "q,label\n", "The data file {path} has no rows"),
        ("cases.json", "[]", "The data file {path} has no rows"),
    ],
)
def test_an_empty_file_is_named(tmp_path, name, content, says):
    data = write(tmp_path / name, content)
    assert says.format(path=data) in str(refused(data))
    assert_cli_refuses(tmp_path, data, says.format(path=data))


def test_a_directory_or_a_pipe_is_not_read(tmp_path):
    folder = tmp_path / "cases.csv"
    folder.mkdir()
    assert (
        str(refused(folder))
        == f"{folder} is a directory, not a data file: give the path of the file."
    )
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    started = time.monotonic()
    assert "is not a regular file" in str(refused(pipe))
    assert time.monotonic() - started < 5  # never opened: a pipe with no writer blocks


@pytest.mark.parametrize("name", ["cases.csv", "cases.jsonl", "cases.json"])
def test_text_that_is_not_utf8_names_the_file_and_line(tmp_path, name):
    data = tmp_path / name
    body = {
        "cases.csv": b"q,label\nok,x\ncaf\xe9,y\n",
        "cases.jsonl": b'{"q": "ok", "label": "x"}\n{"q": "caf\xe9", "label": "y"}\n',
        "cases.json": b'[{"q": "ok", "label": "x"},\n {"q": "caf\xe9", "label": "y"}]',
    }[name]
    data.write_bytes(body)
    says = f"The data file {data} is not UTF-8 text (byte 0xe9 on line "
    assert says in str(refused(data))
    assert_cli_refuses(tmp_path, data, says)


# --- the messages speak the report's language ---------------------------------------


def test_data_errors_are_translated_and_english_by_default(tmp_path):
    data = write(tmp_path / "cases.csv", "q,label\na,x,extra\n")
    problem = refused(data)
    assert str(problem).startswith(f"{data}, line 2: 3 fields, but the header")
    assert problem.message("fr").startswith(f"{data}, ligne 2 : 3 champs, mais l'en-tête")
    assert problem.message("pt").startswith(f"{data}, linha 2: 3 campos, mas o cabeçalho")
    again = pickle.loads(pickle.dumps(problem))  # crosses to worker processes intact
    assert again.message("fr") == problem.message("fr") and str(again) == str(problem)
    unknown = refused([{"q": "a"}], outputs="labl")
    assert unknown.message("fr") == "outputs : aucune colonne 'labl'. Les données ont : q."
    assert str(DataError("Any finished sentence.")) == "Any finished sentence."
    assert_cli_refuses(tmp_path, data, f"{data}, ligne 2 : 3 champs", lang="fr")
    assert_cli_refuses(tmp_path, data, f"{data}, linha 2: 3 campos", lang="pt")


def test_the_magic_says_it_in_the_notebook_language(tmp_path, monkeypatch):
    from IPython.core.error import UsageError

    from tests.shell_support import loaded_shell

    data = write(tmp_path / "cases.csv", "q,label\na,x,extra\n")
    with loaded_shell(tmp_path, monkeypatch) as shell:
        shell.run_cell(f"%%skynet_metric\n{METRIC}").raise_error()
        with pytest.raises(UsageError) as caught:
            shell.run_line_magic(
                "skynet_check",
                f"--data {data} --outputs label --output-column label --lang fr --no-raise",
            )
        assert str(caught.value).startswith(f"{data}, ligne 2 : 3 champs")
