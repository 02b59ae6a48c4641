"""``cli/sources.py``: the user's files read, never run.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import os

from skynet_jupyter.cli import (
    sources,
)
from tests.cli.in_process_support import (
    COLUMN,
    read,
    read_refused,
)

# --- sources: the user's files read, never run -------------------------------------------


def test_run_file_is_the_part_before_the_last_colon():
    assert sources.run_file("proj/run.py:go") == "proj/run.py"
    assert sources.run_file("run.py") == "run.py"
    assert sources.run_file("C:/x/run.py:go") == "C:/x/run.py"


def test_import_folders_are_the_metrics_then_the_run_files(project):
    (project / "a").mkdir()
    (project / "b").mkdir()
    here = str(project.resolve())
    assert sources.import_folders("a/m.py", "b/r.py:run") == [f"{here}/a", f"{here}/b"]
    assert sources.import_folders("a/m.py", "a/r.py") == [f"{here}/a"]
    assert sources.import_folders("m.py", None) == [here]
    assert sources.import_folders("m.py", print) == [here]  # a function: no file


def test_the_artifact_is_read_as_utf8_text_or_given_inline(project):
    (project / "accent.txt").write_bytes("Étiquette\n".encode())
    run = ("--data", "cases.csv", "--run", "run.py:run")
    assert read("good.py", *run, "--artifact", "accent.txt") == "Étiquette\n"
    assert read("good.py", *run, "--artifact-text", "Inline") == "Inline"
    assert read("good.py", *run) is None
    assert read("good.py", *COLUMN) is None


def test_a_missing_metric_or_run_file_is_named(project):
    problem = read_refused("nope.py", *COLUMN, lang="fr")
    assert str(problem) == "Aucun fichier de métrique à nope.py : vérifiez le chemin."
    assert (problem.file, problem.line) == (None, None)
    assert str(read_refused("good.py", "--data", "d", "--run", "gone.py:run")) == (
        "No run file at gone.py: check the path given to --run FILE.py:FUNC."
    )
    (project / "folder").mkdir()
    assert str(read_refused("folder", *COLUMN)) == (
        "folder is a directory, not a Python file: give the path of the file."
    )


def test_a_syntax_error_names_the_file_and_its_line(project):
    (project / "broken.py").write_text("x = 1\n\ndef score(:\n")
    problem = read_refused("good.py", "--data", "d", "--run", "broken.py:run")
    assert str(problem) == "broken.py, line 3: syntax error (invalid syntax); fix it and run again."
    assert (problem.file, problem.line) == ("broken.py", 3)


def test_a_file_with_a_nul_byte_is_not_source(project):
    (project / "nul.py").write_bytes(b"x = 1\x00\n")
    said = str(read_refused("nul.py", *COLUMN))
    # Python 3.11.4+ raises SyntaxError (line 0) for it, earlier ones ValueError.
    assert said.startswith("nul.py")
    assert "(source code string cannot contain null bytes)" in said


def artifact_problems(project, latin: bytes) -> tuple[str, ...]:
    """A folder, a pipe and a Latin-1 file ``latin`` as artifacts; the command before the path."""
    (project / "folder").mkdir()
    os.mkfifo(project / "pipe")
    (project / "latin.txt").write_bytes(latin)
    return ("good.py", "--data", "d", "--run", "run.py:run", "--artifact")


def test_each_artifact_problem_is_one_sentence_naming_the_file(project):
    run = artifact_problems(project, b"one\ntwo \xe9t\xe9\n")
    expected = {
        "gone.txt": "No artifact file at gone.txt: check the path given to --artifact.",
        "folder": "folder is a directory: give --artifact the file that holds the artifact's text.",
        "pipe": "pipe is not a regular file (a pipe or a device?): give a file.",
        "latin.txt": "The artifact file latin.txt is not UTF-8 text (byte 0xe9 on line 2): "
        "save it as UTF-8.",
        "/proc/self/mem": "Cannot read /proc/self/mem: Input/output error.",
    }
    for given, said in expected.items():
        assert str(read_refused(*run, given)) == said


# --- the edges: each found by asking what a changed line would still let through ---------


def test_a_nul_byte_is_said_at_line_0_as_python_reports_it(project):
    (project / "nul.py").write_bytes(b"x = 1\x00\n")
    problem = read_refused("nul.py", *COLUMN)
    assert str(problem) == (
        "nul.py, line 0: syntax error (source code string cannot contain null bytes); fix it "
        "and run again."
    )


# --- the edges, in another language: each part must use the language it is given ---------


def test_each_artifact_problem_is_said_in_french(project):
    # A first line that is empty, and lines after the bad byte: its line is counted from the start.
    run = artifact_problems(project, b"\none\ntwo \xe9\nfour\nfive\n")
    expected = {
        "gone.txt": "Aucun fichier d'artefact à gone.txt : vérifiez le chemin de --artifact.",
        "folder": "folder est un dossier : donnez à --artifact le fichier qui contient le texte "
        "de l'artefact.",
        "pipe": "pipe n'est pas un fichier ordinaire (un tube ou un périphérique ?) : donnez un "
        "fichier.",
        "latin.txt": "Le fichier d'artefact latin.txt n'est pas un texte UTF-8 (octet 0xe9 ligne "
        "3) : enregistrez-le en UTF-8.",
        "/proc/self/mem": "Impossible de lire /proc/self/mem : Input/output error.",
    }
    for given, said in expected.items():
        assert str(read_refused(*run, given, lang="fr")) == said
