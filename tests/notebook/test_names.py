"""What a magic's option names (``names``), tested without IPython: a dict is the notebook.

The magics hand ``names`` the shell's ``user_ns`` / ``user_global_ns``; here a
plain dict stands for them, with real files in a temporary folder.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from skynet_jupyter.notebook import names
from skynet_jupyter.notebook.names import MISSING, UnusableName, UserCodeError

ROOT = Path(__file__).resolve().parents[2]


def test_the_module_needs_no_ipython() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, skynet_jupyter.notebook.names; print('IPython' in sys.modules)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_variable_of_the_namespace_wins_quoted_or_not(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tickets").write_text("a file with the same name\n")
    rows = [{"text": "hi", "label": "billing"}]
    user_ns = {"tickets": rows, "nothing": None}
    assert names.resolve("--data", "tickets", names.data_file, user_ns) is rows
    assert names.resolve("--data", " 'tickets' ", names.data_file, user_ns) is rows
    assert names.resolve("--data", "nothing", names.data_file, user_ns) is None  # a None value


def test_an_expression_reads_the_globals_and_the_locals() -> None:
    user_ns = {"rows": [1, 2, 3]}
    global_ns = {"limit": 2}
    assert names.resolve("--data", "rows[:limit]", names.data_file, user_ns, global_ns) == [1, 2]
    assert names.resolve("--data", "len(rows) * 2", names.data_file, user_ns) == 6


def test_a_file_path_plain_or_quoted_with_spaces(tmp_path: Path) -> None:
    data = tmp_path / "my cases.csv"
    data.write_text("text,label\nhi,billing\n")
    assert names.resolve("--data", f"'{data}'", names.data_file, {}) == str(data)
    plain = tmp_path / "cases.csv"
    plain.write_text("text,label\n")
    assert names.resolve("--data", str(plain), names.data_file, {}) == str(plain)
    artifact = tmp_path / "prompt.txt"
    artifact.write_text("Label the ticket.\n")
    assert names.resolve("--artifact", str(artifact), names.artifact_file, {}) == (
        "Label the ticket.\n"
    )


def test_a_missing_name_ends_in_one_sentence_in_the_language_asked() -> None:
    with pytest.raises(UnusableName) as caught:
        names.resolve("--data", "nowhere", names.data_file, {}, lang="en")
    assert str(caught.value) == "--data nowhere: no notebook variable or file by that name."
    with pytest.raises(UnusableName) as caught:
        names.resolve("--data", "'nowhere'", names.data_file, {}, lang="fr")
    assert str(caught.value) == (
        "--data nowhere : aucune variable du notebook ni aucun fichier de ce nom."
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "--run extrct: no notebook variable or file by that name. Did you mean 'extract'?"),
        ("fr", "fichier de ce nom. Vouliez-vous dire 'extract' ?"),
        ("pt", "ficheiro com esse nome. Queria dizer 'extract'?"),
    ],
)
def test_a_typo_of_a_notebook_name_says_the_closest_one(lang: str, said: str) -> None:
    # A typo that hits a builtin already said "Did you mean 'formats'?"; a plain typo did not.
    def extract(artifact, input):
        return ""

    found = {"extract": extract, "formats": "Answer with a date."}
    with pytest.raises(UnusableName) as caught:
        names.resolve("--run", "extrct", names.no_file, found, lang=lang)
    assert str(caught.value).endswith(said)


def test_an_expression_that_fails_gives_its_own_error() -> None:
    with pytest.raises(UnusableName) as caught:
        names.resolve("--data", "rows[10]", names.data_file, {"rows": []}, lang="en")
    message = str(caught.value)
    assert message.startswith("--data rows[10]: no file by that name, and as an expression")
    assert message.endswith("raised IndexError: list index out of range")
    # A name missing *inside* the expression is that expression's error, not "not found".
    with pytest.raises(UnusableName, match="raised NameError: name 'missing' is not defined"):
        names.resolve("--data", "rows + missing", names.data_file, {"rows": []}, lang="en")


def test_quoted_and_unquote() -> None:
    assert names.quoted("'Solve the problem.'") == "Solve the problem."
    assert names.quoted(' "x" ') == "x"
    assert names.quoted("prompt") is None
    assert names.quoted("'unbalanced\"") is None
    assert names.unquote("  'a b'  ") == "a b"
    assert names.unquote("'") == "'"


def test_a_run_file_with_or_without_a_function_name(tmp_path: Path) -> None:
    run = tmp_path / "run.py"
    run.write_text(
        "def run(artifact, input):\n    return 'r'\n\ndef other(a, i):\n    return 'o'\n"
    )
    assert names.run_file(str(run))("a", "i") == "r"
    assert names.run_file(f"{run}:other")("a", "i") == "o"
    assert names.run_file("classify") is MISSING  # not a .py file: a notebook name, maybe
    assert names.run_file(str(tmp_path / "absent.py")) is MISSING
    with pytest.raises(UnusableName, match="defines no function 'nope'; it defines: run, other"):
        names.run_file(f"{run}:nope")
    # Through resolve: a notebook function of that name comes first.
    mine = lambda artifact, input: "mine"  # noqa: E731
    assert names.resolve("--run", "run", names.run_file, {"run": mine}) is mine
    assert names.resolve("--run", f"{run}:other", names.run_file, {})("a", "i") == "o"


def test_a_run_file_that_raises_shows_the_users_frames(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import json\n\nSETTINGS = json.loads('{not json')\n")
    with pytest.raises(UserCodeError) as caught:
        names.run_file(str(broken), lang="en")
    assert str(caught.value).startswith(f"The run file {broken} failed while loading: JSON")
    assert "broken.py" in caught.value.detail and "SETTINGS = json.loads" in caught.value.detail
    shown = caught.value._render_traceback_()
    assert shown[0].startswith("UserCodeError: The run file")


def test_an_executor_or_a_sentence_saying_what_it_is() -> None:
    with ThreadPoolExecutor(1) as pool:
        assert names.executor("pool", {"pool": pool}) is pool
    with pytest.raises(UnusableName) as caught:
        names.executor("client", {"client": 42}, lang="en")
    assert str(caught.value) == (
        "--executor client is a int, not a concurrent.futures.Executor "
        "(for Dask: client.get_executor())."
    )
    with pytest.raises(UnusableName, match="--executor nowhere: no notebook variable or file"):
        names.executor("nowhere", {}, lang="en")  # never read as a file
