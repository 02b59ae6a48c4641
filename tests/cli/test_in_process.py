"""skynet-check in the test process: ``main([...])``, its parser, the Job, the files read
before the child starts, the verdicts the parent prints, what the child does with a Job,
and the CI outputs (JSON, JUnit XML, GitHub annotations).

Each test pins exact values (exit codes, sentences, JSON fields, XML attributes,
workflow commands), so that a changed comparison, argument, string or default in
``skynet_jupyter/cli`` fails one.  The subprocess tests beside this file prove the
command as users run it; mutmut sees only what runs in the test process, and these
tests are what it measures the command with.  The check itself still runs in the
child ``main()`` starts (about 0.3 s each): most tests call the pure functions.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import math
import os
import pickle
import platform
import queue
import re
import select
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from skynet_jupyter.cli import (
    child,
    each_metric,
    exits,
    job,
    json_out,
    main,
    parse,
    sources,
    supervise,
)
from skynet_jupyter.cli import github_annotations as gh
from skynet_jupyter.cli import junit_xml as junit
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.core.options import (
    CHECK_CASES,
    EVAL_CONCURRENCY,
    MAX_RUN_TIMEOUT,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    RUN_TIMEOUT,
    RunOptions,
)
from tests.cli_support import assert_valid_junit

# --- the project every test works in ----------------------------------------------------

GOOD = """\
def score(input, output, expected=None):
    right = output == expected["label"]
    feedback = "Right." if right else f"Wrong: the label is {expected['label']}, not {output}."
    return float(right), {"feedback": feedback}
"""
# Case 1 ("bye") raises on line 4; the others score 1 with the same feedback.
FAILING = """\
def score(input, output, expected=None):
    text = input["text"]
    if text == "bye":
        raise KeyError("missing")
    return 1.0, {"feedback": "ok"}
"""
# score takes one argument: the signature step fails, no case runs.
ONE_ARGUMENT = """\
import os


def score(input):
    return 1.0
"""
# The process running the check ends in the middle of it.
EXITS = "import os\n\n\ndef score(input, output, expected=None):\n    os._exit(0)\n"
KILLED = "import os\n\n\ndef score(input, output, expected=None):\n    os.kill(os.getpid(), 9)\n"
SLOW_IMPORT = (
    "import time\n\ntime.sleep(30)\n\n\ndef score(input, output, expected=None):\n    return 1.0\n"
)
CASES = "text,label,prediction\nhello,greeting,greeting\nbye,farewell,other\nyo,greeting,greeting\n"
RUN = """\
def helper():
    return "greeting"


def run(artifact, case_input):
    return artifact.strip() if case_input["text"] == "bye" else helper()
"""

# The column mode: no run function, the outputs are in the data.
COLUMN = ("--data", "cases.csv", "--outputs", "label", "--output-column", "prediction")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with metrics, cases, a run file and an artifact; the current directory."""
    for name, source in (
        ("good.py", GOOD),
        ("failing.py", FAILING),
        ("one_argument.py", ONE_ARGUMENT),
        ("run.py", RUN),
    ):
        (tmp_path / name).write_text(source)
    (tmp_path / "cases.csv").write_text(CASES)
    (tmp_path / "prompt.txt").write_text("farewell\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKYNET_LANG", "en")
    for role in ("TASK", "METRIC", "REFLECTION"):
        monkeypatch.delenv(f"SKYNET_{role}_MODEL", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the child's _check prepends folders
    return tmp_path


def cli(*args: object) -> int:
    return main([str(arg) for arg in args])


def words(text: str) -> str:
    """``text`` with its runs of white space as one space (argparse wraps its help)."""
    return " ".join(text.split())


# --- main(): exit codes and what is printed (the check runs in a child) -----------------


def test_a_passing_check_exits_0_with_the_report_on_stdout_only(project, capfd):
    assert cli("good.py", *COLUMN) == 0
    out, err = capfd.readouterr()
    assert out.startswith("Contract check passed — metric 'default' · 3 cases · mean score 0.667\n")
    assert "  ✓ Metric return value\n" in out
    assert (
        "      feedback (what the optimizer reads): Wrong: the label is farewell, not other.\n"
        in out
    )
    assert "==>" not in out  # one metric file: no header
    assert err == ""


def test_a_failing_check_exits_1_naming_the_step_and_the_case(project, capfd):
    assert cli("failing.py", *COLUMN) == 1
    out = capfd.readouterr().out
    assert out.startswith("Contract check failed — metric 'default' · 3 cases")
    assert "  ✗ Metric return value: Case 1: score raised KeyError: 'missing'\n" in out


def test_json_is_the_one_document_on_stdout_with_every_case(project, capfd):
    assert cli("failing.py", *COLUMN, "--json") == 1
    document = json.loads(capfd.readouterr().out)
    assert document["passed"] is False and document["kind"] == "check"
    assert document["non_finite"] == {}
    statuses = {step["id"]: step["status"] for step in document["steps"]}
    assert statuses["metric_return_value"] == "failed"
    assert statuses["run_function"] == "skipped"
    assert [case["score"] for case in document["cases"]] == [1.0, None, 1.0]
    assert document["cases"][1]["failed_step"] == "metric_return_value"


def test_all_evaluates_the_cases_asked_and_the_run_gets_the_artifact(project, capfd):
    args = ("--data", "cases.csv", "--outputs", "label", "--run", "run.py:run")
    assert cli("good.py", *args, "--artifact", "prompt.txt", "--all", "--cases", "2", "--json") == 0
    document = json.loads(capfd.readouterr().out)
    assert document["kind"] == "eval"
    assert [case["output"] for case in document["cases"]] == ["greeting", "farewell"]
    assert cli("good.py", *args, "--artifact-text", "bye bye", "--json") == 0
    document = json.loads(capfd.readouterr().out)
    assert document["kind"] == "check"
    assert [case["output"] for case in document["cases"]] == ["greeting", "bye bye", "greeting"]
    assert [case["score"] for case in document["cases"]] == [1.0, 0.0, 1.0]


def test_format_github_puts_the_annotations_before_the_report(project, capfd):
    assert cli("failing.py", *COLUMN, "--format", "github") == 1
    lines = capfd.readouterr().out.splitlines()
    assert lines[0].startswith(
        "::error file=failing.py,line=4,title=Metric return value::"
        "Case 1: score raised KeyError: 'missing'%0AHow to fix: "
    )
    assert lines[1].startswith("::warning file=failing.py,title=Feedback advice::")
    assert lines[2].startswith("Contract check failed")


def test_junit_xml_holds_each_step_and_case_of_the_check(project, capfd):
    assert cli("failing.py", *COLUMN, "--junit-xml", "out/report.xml", "--lang", "fr") == 1
    root = assert_valid_junit((project / "out" / "report.xml").read_text())
    assert root.get("name") == "skynet-check"
    (suite,) = root
    assert suite.get("name") == "failing.py"
    names = [case.get("name") for case in suite.iter("testcase")]
    assert names[0] == "metric_loads: Chargement de la métrique"
    assert names[-3:] == ['cas 0: text: "hello"', 'cas 1: text: "bye"', 'cas 2: text: "yo"']
    failed = [case for case in suite.iter("testcase") if case.find("failure") is not None]
    assert [case.get("classname") for case in failed] == ["failing.contract", "failing.cases"]
    assert [case.find("failure").get("type") for case in failed] == ["metric_return_value"] * 2
    assert "Échec de la vérification du contrat" in capfd.readouterr().out


def test_several_metric_files_each_get_a_header_and_the_first_failure_is_the_code(project, capfd):
    report = "several.xml"
    code = cli(
        "failing.py", "good.py", "missing.py", "one_argument.py", *COLUMN,
        "--junit-xml", report, "--format", "github",
    )  # fmt: skip
    assert code == 1  # failing's 1, kept; the missing file's usage error stops the rest
    out, err = capfd.readouterr()
    headers = [line for line in out.splitlines() if line.startswith("==> ")]
    assert headers == ["==> failing.py <==", "==> good.py <==", "==> missing.py <=="]
    assert (
        "::error file=missing.py,title=skynet-check::"
        "No metric file at missing.py: check the path.\n" in out
    )
    assert "skynet-check: No metric file at missing.py: check the path.\n" in err
    root = assert_valid_junit((project / report).read_text())
    assert [suite.get("name") for suite in root] == ["failing.py", "good.py", "missing.py"]
    missing = root[2].find("testcase")
    assert missing.get("name") == "metric_loads: Metric loads"
    assert missing.find("failure").get("message") == "No metric file at missing.py: check the path."
    assert int(root.get("failures")) == 2 + 1  # failing's step and case, the missing file


def test_a_metric_that_ends_its_process_is_no_verdict_exit_3(project, capfd):
    (project / "exits.py").write_text(EXITS)
    (project / "killed.py").write_text(KILLED)
    assert cli("exits.py", *COLUMN, "--json") == 3
    out, err = capfd.readouterr()
    said = (
        "No verdict: the process running the check ended before it wrote its report "
        "(it exited with code 0). A metric or run function that calls os._exit() or kills "
        "its process ends the check; the check did not pass."
    )
    assert json.loads(out) == {
        "passed": False,
        "error": "no_verdict",
        "message": said,
        "exit_code": 3,
    }
    assert f"skynet-check: {said}\n" in err
    assert cli("killed.py", *COLUMN, "--junit-xml", "k.xml", "--format", "github") == 3
    out, err = capfd.readouterr()
    assert "(it was killed by the signal SIGKILL)" in err
    # No message from the child: JUnit and the annotation say there is no report, and why.
    no_report = "No report for killed.py (exit code 3): the lines above say why."
    assert out == f"::error file=killed.py,title=skynet-check::{no_report}\n"
    failure = ET.parse(project / "k.xml").getroot().find("testsuite/testcase/failure")
    assert failure.get("message") == no_report and failure.get("type") == "metric_loads"


def test_a_metric_still_importing_past_load_timeout_is_stopped_exit_2(project, capfd):
    (project / "slow.py").write_text(SLOW_IMPORT)
    assert cli("slow.py", *COLUMN, "--load-timeout", "1", "--lang", "pt", "--json") == 2
    document = json.loads(capfd.readouterr().out)
    assert document["error"] == "usage" and document["exit_code"] == 2
    assert document["message"].startswith("slow.py ")
    assert " 1 s (--load-timeout)" in document["message"]


def test_a_usage_error_exits_2_before_any_child_with_the_sentence(project, capfd):
    assert cli("good.py", *COLUMN, "--timeout", "0") == 2
    out, err = capfd.readouterr()
    assert out == ""
    assert err == "skynet-check: --timeout must be between 1 and 600 seconds, got 0.\n"
    assert cli("good.py", *COLUMN, "--timeout", "0", "--json") == 2
    document = json.loads(capfd.readouterr().out)
    assert document == {
        "passed": False,
        "error": "usage",
        "message": "--timeout must be between 1 and 600 seconds, got 0.",
        "exit_code": 2,
    }


def test_a_syntax_error_is_annotated_at_its_line(project, capfd):
    (project / "broken.py").write_text("def score(input, output):\n    return (\n")
    assert cli("broken.py", *COLUMN, "--format", "github", "--junit-xml", "b.xml") == 2
    out, err = capfd.readouterr()
    said = "broken.py, line 2: syntax error ('(' was never closed); fix it and run again."
    assert out == f"::error file=broken.py,line=2,title=skynet-check::{said}\n"
    assert err == f"skynet-check: {said}\n"
    assert ET.parse("b.xml").getroot().find(".//failure").get("message") == said


def test_a_junit_file_that_cannot_be_written_fails_a_passing_check(project, capfd):
    (project / "a_file").write_text("")
    assert cli("good.py", *COLUMN, "--junit-xml", "a_file/report.xml") == 2
    err = capfd.readouterr().err
    assert (
        err == "skynet-check: Could not write the JUnit report to a_file/report.xml: File exists\n"
    )
    assert cli("failing.py", *COLUMN, "--junit-xml", "a_file/report.xml") == 1  # stays failed


def ctrl_c_once_there(marker: Path, times: int = 1) -> None:
    """Once ``marker`` exists (the child reached the point to interrupt), Ctrl-C ``times``
    times: SIGINT to the main thread, as a terminal's Ctrl-C lands (it wakes a blocked wait)."""

    def press() -> None:
        for _ in range(600):
            if marker.exists():
                break
            threading.Event().wait(0.05)
        for _ in range(times):
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            threading.Event().wait(0.5)

    threading.Thread(target=press, daemon=True).start()


def test_ctrl_c_stops_the_check_with_what_it_has_exit_130(project, capfd, ctrl_c):
    (project / "slow.py").write_text(
        "import pathlib, time\n\n\ndef score(input, output, expected=None):\n"
        "    pathlib.Path('scoring').touch()\n    time.sleep(20)\n    return 1.0\n"
    )
    # The first Ctrl-C: the child stops, and reports the cases it has (none).
    ctrl_c_once_there(project / "scoring")
    assert cli("slow.py", *COLUMN, "--json") == 130
    document = json.loads(capfd.readouterr().out)
    assert document["interrupted"] is True and document["passed"] is False
    assert document["cases"] == []


def test_a_second_ctrl_c_ends_a_child_that_does_not_stop(project, capfd, ctrl_c):
    # Deaf to Ctrl-C while it is imported (the engine's own handler is not installed yet).
    (project / "deaf.py").write_text(
        "import pathlib, signal, time\n\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "pathlib.Path('deaf').touch()\ntime.sleep(20)\n"
    )
    ctrl_c_once_there(project / "deaf", times=2)
    started_at = time.monotonic()
    assert cli("deaf.py", *COLUMN, "--json", "--lang", "fr") == 130
    # Ended at once with its process group, not after its 20 s import.
    assert time.monotonic() - started_at < 15
    out, err = capfd.readouterr()
    assert json.loads(out) == {
        "passed": False,
        "error": "interrupted",
        "message": "Interrompu : pas de verdict.",
        "exit_code": 130,
    }
    assert err.endswith("skynet-check: Interrompu : pas de verdict.\n")


# --- parse: every option, its default, the help, the refusals in the user's language -----

MINIMAL = ["m.py", "--data", "d.csv", "--run", "r.py"]


def test_every_option_has_its_default():
    args = parse.parse(MINIMAL)
    assert vars(args) == {
        "metric": ["m.py"],
        "data": "d.csv",
        "outputs": None,
        "inputs": None,
        "json_columns": None,
        "split": None,
        "run": "r.py",
        "output_column": None,
        "artifact": None,
        "artifact_text": None,
        "task_model": None,
        "metric_model": None,
        "reflection_model": None,
        "api_base": None,
        "cases": None,
        "all": False,
        "timeout": 60.0,
        "run_timeout": RUN_TIMEOUT,
        "load_timeout": job.LOAD_TIMEOUT,
        "isolation": "thread",
        "cache_dir": None,
        "lang": None,
        "json": False,
        "format": "text",
        "junit_xml": None,
    }
    assert (job.LOAD_TIMEOUT, job.MAX_LOAD_TIMEOUT) == (60.0, 600.0)


def test_every_option_is_read_into_its_field():
    args = parse.parse(
        ["a.py", "b.py", "--data", "d.csv", "--outputs", "label,kind", "--inputs", "text",
         "--json-columns", "meta", "--split", "test", "--output-column", "pred",
         "--artifact-text", "Label it.", "--task-model", "t/m", "--metric-model", "j/m",
         "--reflection-model", "r/m", "--api-base", "http://h:1/v1", "--cases", "5", "--all",
         "--timeout", "2.5", "--run-timeout", "7", "--load-timeout", "9", "--isolation",
         "process", "--cache-dir", "c", "--lang", "pt", "--format", "github",
         "--junit-xml", "r.xml"]
    )  # fmt: skip
    assert vars(args) == {
        "metric": ["a.py", "b.py"],
        "data": "d.csv",
        "outputs": "label,kind",
        "inputs": "text",
        "json_columns": "meta",
        "split": "test",
        "run": None,
        "output_column": "pred",
        "artifact": None,
        "artifact_text": "Label it.",
        "task_model": "t/m",
        "metric_model": "j/m",
        "reflection_model": "r/m",
        "api_base": "http://h:1/v1",
        "cases": 5,
        "all": True,
        "timeout": 2.5,
        "run_timeout": 7.0,
        "load_timeout": 9.0,
        "isolation": "process",
        "cache_dir": "c",
        "lang": "pt",
        "json": False,
        "format": "github",
        "junit_xml": "r.xml",
    }
    assert parse.parse([*MINIMAL, "--artifact", "p.txt", "--json"]).artifact == "p.txt"
    assert parse.parse([*MINIMAL, "--json"]).json is True


# What --help says of each option, word for word (the reference users read).
HELP = [
    "usage: skynet-check [-h] --data DATA",
    "Run the Skynet metric contract check on a metric.py file.",
    "metric the metric file (metric.py) defining score(); several are checked one by one, "
    "and the command fails if any fails",
    "--data DATA cases: .csv, .tsv, .jsonl, .json, .parquet",
    "--outputs OUTPUTS Output column(s), comma-separated: they form expected",
    "--inputs INPUTS input column(s), comma-separated (default: the rest)",
    "--json-columns COLS column(s) whose cells are JSON, comma-separated (other CSV/TSV cells "
    "are text)",
    "--split SPLIT use only the rows whose 'split' column is this",
    "--run FILE.py:FUNC outputs from run(artifact, input)",
    "--output-column COL outputs already in the data",
    "--artifact FILE the artifact passed to run: a file",
    "--artifact-text TEXT the artifact passed to run, given inline",
    "--cases CASES how many cases, 1 or more (default: 3; with --all: every case)",
    "--all evaluate every case, not just 3",
    f"--timeout SECONDS the metric's time limit per call, {MIN_TIMEOUT:g}..{MAX_TIMEOUT:g} "
    "(default 60)",
    f"--run-timeout SECONDS run(artifact, input)'s time limit per case, "
    f"{MIN_TIMEOUT:g}..{MAX_RUN_TIMEOUT:g} (default {RUN_TIMEOUT:g})",
    "--load-timeout SECONDS the time limit to import the metric file, and the run file, "
    f"{MIN_TIMEOUT:g}..600 (default 60)",
    "--isolation {thread,process} where cases run: 'thread' (default, fast) or 'process' (a "
    "case blocked in C code, such as a hung socket read, can really be stopped at its time "
    "limit)",
    "--cache-dir DIR keep the replies of model calls made through llm() in DIR/runs.sqlite and "
    "answer the same requests from there in later runs (default: no cache, every call is made)",
    "--lang {en,fr,pt} language of the report",
    "--json print one JSON document",
    "--format {text,github} 'text' (default): the report; 'github': GitHub Actions annotations "
    "(::error, ::warning) before it",
    "--junit-xml PATH also write the report as JUnit XML (as pytest --junitxml) to PATH",
    "models: litellm model strings; keys come from the environment, as litellm reads them",
    "--task-model MODEL llm() inside run(artifact, input), e.g. openai/gpt-4o-mini (default: "
    "SKYNET_TASK_MODEL)",
    "--metric-model MODEL llm() inside the metric (the judge; default: the reflection model), "
    "e.g. openai/gpt-4o-mini (default: SKYNET_METRIC_MODEL)",
    "--reflection-model MODEL the optimizer's reflection model, and the judge's fallback, e.g. "
    "openai/gpt-4o-mini (default: SKYNET_REFLECTION_MODEL)",
    "--api-base URL the OpenAI-compatible server those models are asked at (e.g. a local "
    "http://localhost:8000/v1); default: the provider's",
    "example: skynet-check metric.py --data cases.csv --outputs label --run run.py:run "
    "--artifact prompt.txt skynet-check metric.py --data cases.csv --outputs label --run "
    "run.py:run \\ --artifact-text 'Label the ticket.' --task-model openai/gpt-4o-mini \\ "
    "--metric-model openai/gpt-4o --api-base http://localhost:8000/v1",
    "data: CSV/TSV cells are text, as written; --json-columns parses the named columns' cells "
    "as JSON (lists, objects, numbers).",
    "models: litellm model strings; API keys are read from the environment as litellm reads "
    "them (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...), never from an option, and are never "
    "printed. Without the options: SKYNET_TASK_MODEL, SKYNET_METRIC_MODEL, "
    "SKYNET_REFLECTION_MODEL.",
    "exit codes: 0 passed, 1 the contract check failed, 2 usage error (a file that is missing, "
    "unreadable or does not load, a bad option, an unknown column, no model configured), 3 no "
    "verdict (the process running the check ended before writing its report, e.g. the metric "
    "called os._exit() or was killed), 130 interrupted (Ctrl-C). The check runs in a child "
    "process: prints from the metric or run go to stderr.",
    "CI: --junit-xml PATH writes the report as JUnit XML too; --format github adds GitHub "
    "Actions annotations. Several metric files are checked one by one (a pre-commit hook "
    "passes the changed ones last); the exit code is the first that is not 0.",
]


def test_help_says_what_each_option_does(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as ended:
        parse.parse(["--help"])
    assert ended.value.code == 0
    said = f" {words(capsys.readouterr().out)} "
    for sentence in HELP:
        assert f" {sentence} " in said, sentence
    # The usage line is one piece: its first line ends where argparse wraps it.
    assert said.startswith(" usage: skynet-check ")


# Each refusal argparse makes, as said in en (argparse's words), fr and pt.
REFUSALS = [
    (
        [],
        {
            "en": "error: the following arguments are required: metric, --data",
            "fr": "erreur : ces arguments sont obligatoires : metric, --data",
            "pt": "erro: estes argumentos são obrigatórios: metric, --data",
        },
    ),
    (
        ["m.py", "--data", "d.csv"],
        {
            "en": "error: one of the arguments --run --output-column is required",
            "fr": "erreur : l'un des arguments --run --output-column est obligatoire",
            "pt": "erro: um dos argumentos --run --output-column é obrigatório",
        },
    ),
    (
        [*MINIMAL, "--bogus"],
        {
            "en": "error: unrecognized arguments: --bogus",
            "fr": "erreur : arguments inconnus : --bogus (skynet-check --help les liste tous)",
            "pt": "erro: argumentos desconhecidos: --bogus (skynet-check --help lista-os todos)",
        },
    ),
    (
        ["m.py", "--run", "r.py", "--data"],
        {
            "en": "error: argument --data: expected one argument",
            "fr": "erreur : l'argument --data attend une valeur",
            "pt": "erro: o argumento --data precisa de um valor",
        },
    ),
    (
        [*MINIMAL, "--isolation", "fork"],
        {
            "en": "error: argument --isolation: invalid choice: 'fork' (choose from 'thread', "
            "'process')",
            "fr": "erreur : argument --isolation : choix invalide 'fork' (au choix : 'thread', "
            "'process')",
            "pt": "erro: argumento --isolation: escolha inválida 'fork' (escolha entre "
            "'thread', 'process')",
        },
    ),
    (
        [*MINIMAL, "--cases", "x"],
        {
            "en": "error: argument --cases: invalid int value: 'x'",
            "fr": "erreur : argument --cases : 'x' n'est pas une valeur valide de type int",
            "pt": "erro: argumento --cases: 'x' não é um valor válido do tipo int",
        },
    ),
    (
        [*MINIMAL, "--output-column", "x"],
        {
            "en": "error: argument --output-column: not allowed with argument --run",
            "fr": "erreur : l'argument --output-column ne peut pas être donné avec "
            "l'argument --run",
            "pt": "erro: o argumento --output-column não pode ser dado com o argumento --run",
        },
    ),
    (
        ["m.py", "--data", "d", "--ru", "r.py"],
        {
            "en": "error: ambiguous option: --ru could match --run, --run-timeout",
            "fr": "erreur : option ambiguë : --ru peut désigner --run, --run-timeout",
            "pt": "erro: opção ambígua: --ru pode corresponder a --run, --run-timeout",
        },
    ),
]


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
@pytest.mark.parametrize(("raw", "said"), REFUSALS, ids=[f"refusal{n}" for n in range(8)])
def test_each_refusal_is_said_in_the_language_asked_with_exit_2(raw, said, lang, capsys):
    with pytest.raises(SystemExit) as ended:
        parse.parse([*raw, "--lang", lang])
    assert ended.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: skynet-check [-h] --data DATA")
    assert err.endswith(f"\nskynet-check: {said[lang]}\n")


def test_a_refusal_with_json_is_the_json_document(capsys):
    with pytest.raises(SystemExit) as ended:
        parse.parse([*MINIMAL, "--json", "--format", "github", "--lang=fr"])
    assert ended.value.code == 2
    out, err = capsys.readouterr()
    message = "l'argument --format ne peut pas être donné avec l'argument --json"
    assert json.loads(out) == {
        "passed": False,
        "error": "usage",
        "message": message,
        "exit_code": 2,
    }
    assert err.endswith(f"\nskynet-check: {message}\n")


def test_the_language_of_a_refusal_is_found_before_parsing(monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "pt")
    assert parse._asked_lang(["--lang", "fr"]) == "fr"
    assert parse._asked_lang(["--lang=fr"]) == "fr"
    assert parse._asked_lang(["--lang", "fr", "--lang=en"]) == "en"  # the last one counts
    assert parse._asked_lang(["--lang=en", "--lang", "fr"]) == "fr"
    assert parse._asked_lang(["x", "--lang"]) == "pt"  # no value: the environment's
    assert parse._asked_lang(["--lang", "xx"]) == "pt"  # an unknown one: the environment's
    assert parse._asked_lang([]) == "pt"
    assert parse._asked_lang(["--language", "fr"]) == "pt"


def test_an_argparse_sentence_not_known_is_shown_as_it_is():
    assert parse._argparse_message("something new", "fr") == "something new"
    english = "argument --cases: invalid int value: 'x'"
    assert parse._argparse_message(english, "en") == english
    assert parse._argparse_message(english, "fr") == (
        "argument --cases : 'x' n'est pas une valeur valide de type int"
    )
    # The whole sentence must match: a known start followed by more is not that refusal.
    assert parse._argparse_message("prefix " + english, "fr") == "prefix " + english


# --- job: every option checked into one Job ----------------------------------------------


def made(*args: object, lang: str = "en") -> job.Job:
    return job.job_from(parse.parse([str(arg) for arg in args]), lang)


def refused(*args: object, lang: str = "en") -> str:
    with pytest.raises(exits.UsageProblem) as problem:
        made(*args, lang=lang)
    return str(problem.value)


def test_a_check_job_carries_every_option(project):
    checked = made(
        "good.py", "--data", "cases.csv", "--outputs", "label", "--inputs", "text",
        "--json-columns", "meta", "--split", "test", "--run", "run.py:run",
        "--artifact", "prompt.txt", "--timeout", "5", "--run-timeout", "7",
        "--isolation", "process", "--format", "github", "--metric-model", "j/m",
    )  # fmt: skip
    assert checked.kind == "check" and checked.metric == "good.py" and checked.data == "cases.csv"
    assert checked.options == RunOptions.given(
        outputs="label",
        inputs="text",
        json_columns="meta",
        split="test",
        run="run.py:run",
        cases=CHECK_CASES,
        concurrency=1,
        timeout=5.0,
        run_timeout=7.0,
        isolation="process",
        lang="en",
        artifact="farewell\n",
        models=ModelSettings(metric_model="j/m"),
    )
    assert checked.output_format == "github"
    assert (checked.as_json, checked.junit, checked.cache_path, checked.api_base) == (
        False,
        False,
        None,
        None,
    )
    assert checked.width == 0  # stdout is not a terminal here
    assert checked.lang == "en"


def test_all_is_an_evaluation_and_cases_keep_their_number(project):
    every = made("good.py", *COLUMN, "--all", "--lang", "fr", lang="fr")
    assert every.kind == "eval" and every.lang == "fr"
    assert every.options.cases is None and every.options.concurrency == EVAL_CONCURRENCY
    assert made("good.py", *COLUMN, "--all", "--cases", "2").options.cases == 2
    some = made("good.py", *COLUMN, "--cases", "2")
    assert (some.options.cases, some.options.concurrency) == (2, 1)
    assert made("good.py", *COLUMN).options.cases == CHECK_CASES == 3
    assert refused("good.py", *COLUMN, "--cases", "0") == "--cases must be 1 or more, got 0."
    assert refused("good.py", *COLUMN, "--all", "--cases", "0", lang="fr") == (
        "--cases doit valoir 1 ou plus, reçu 0."
    )


def test_json_junit_and_cache_dir_are_in_the_job(project, monkeypatch):
    monkeypatch.setenv("HOME", str(project))
    asked = made("good.py", *COLUMN, "--json", "--junit-xml", "r.xml", "--cache-dir", "~/c")
    assert asked.as_json is True and asked.junit is True and asked.width == 0
    assert asked.cache_path == str(project.resolve() / "c" / "runs.sqlite")
    relative = made("good.py", *COLUMN, "--cache-dir", "sub/../d")
    assert relative.cache_path == str(project.resolve() / "d" / "runs.sqlite")
    assert job._cache_path(None) is None


def test_on_a_terminal_the_report_is_laid_out_to_its_width(project, monkeypatch):
    leader, follower = os.openpty()
    terminal = open(follower, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    try:
        monkeypatch.setattr(sys, "stdout", terminal)
        monkeypatch.setenv("COLUMNS", "77")
        assert made("good.py", *COLUMN).width == 77
        assert made("good.py", *COLUMN, "--json").width == 0  # a document is never wrapped
    finally:
        terminal.close()
        os.close(leader)


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("0.99", "--load-timeout must be between 1 and 600 seconds, got 0.99."),
        ("600.5", "--load-timeout must be between 1 and 600 seconds, got 600.5."),
        ("nan", "--load-timeout must be between 1 and 600 seconds, got nan."),
    ],
)
def test_load_timeout_is_refused_outside_its_range(project, given, said):
    assert refused("good.py", *COLUMN, "--load-timeout", given) == said


def test_load_timeout_at_its_bounds_is_accepted(project):
    for given in ("1", "600"):
        made("good.py", *COLUMN, "--load-timeout", given)


def test_the_run_options_rules_are_said_with_the_options_name(project):
    assert refused("good.py", *COLUMN, "--timeout", "601") == (
        "--timeout must be between 1 and 600 seconds, got 601."
    )
    assert refused("good.py", *COLUMN, "--run-timeout", "0", lang="pt").startswith(
        "--run-timeout deve estar entre 1 e "
    )


def test_json_is_one_document_of_one_metric(project):
    with pytest.raises(exits.UsageProblem) as problem:
        job.job_from(parse.parse(["good.py", "failing.py", *COLUMN, "--json"]), "en", "good.py")
    assert str(problem.value) == (
        "--json prints one report, of one metric file, and 2 were given: run skynet-check "
        "once per metric file, or leave out --json."
    )
    args = parse.parse(["good.py", "failing.py", *COLUMN])
    assert job.job_from(args, "en", "failing.py").metric == "failing.py"


def test_junit_xml_is_refused_over_a_link_a_folder_or_a_pipe(project):
    (project / "folder").mkdir()
    os.mkfifo(project / "pipe")
    (project / "link").symlink_to(project / "elsewhere.xml")
    assert refused("good.py", *COLUMN, "--junit-xml", "link") == (
        "--junit-xml link is a symbolic link: the report is not written through links; give "
        "the path of the file itself."
    )
    for name, kind in (("folder", "a directory"), ("pipe", "a named pipe (FIFO)")):
        assert refused("good.py", *COLUMN, "--junit-xml", name) == (
            f"--junit-xml {name} is {kind}, not a regular file: give the path of a new file "
            "or of a report to replace."
        )
    (project / "old.xml").write_text("old")
    assert made("good.py", *COLUMN, "--junit-xml", "old.xml").junit is True


@pytest.mark.parametrize("role", ["task", "metric", "reflection"])
def test_a_blank_model_is_refused_naming_its_option(project, role):
    assert refused("good.py", *COLUMN, f"--{role}-model", "  ") == (
        f"--{role}-model needs a litellm model name, such as openai/gpt-4o-mini."
    )


def test_the_models_given_are_in_the_options(project):
    given = made(
        "good.py", *COLUMN, "--task-model", "t/m", "--reflection-model", "r/m",
        "--api-base", "https://h.example/v1",
    )  # fmt: skip
    assert given.options.models == ModelSettings(task_model="t/m", reflection_model="r/m")
    assert given.api_base == "https://h.example/v1"


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("ftp://h/v1", "'ftp://h/v1'"),
        ("localhost:8000", "'localhost:8000'"),
        ("http://", "'http://'"),
        ("http://[::1", "'http://[::1'"),  # urlsplit refuses it
        ("https://me:s3cret@", "'…@'"),  # never the password
        ("ftp://me:s3cret@h", "'…@h'"),
    ],
)
def test_api_base_must_be_an_http_address_said_without_its_password(project, given, shown):
    assert refused("good.py", *COLUMN, "--api-base", given) == (
        "--api-base must be an http:// or https:// address (such as http://localhost:8000/v1), "
        f"got {shown}."
    )


def test_the_rules_come_before_the_files(project):
    assert refused("nope.py", *COLUMN, "--timeout", "0").startswith("--timeout must be")
    assert refused("nope.py", *COLUMN, "--task-model", " ") == (
        "--task-model needs a litellm model name, such as openai/gpt-4o-mini."
    )
    assert refused("nope.py", *COLUMN) == "No metric file at nope.py: check the path."


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


def read(*args: object, lang: str = "en") -> str | None:
    parsed = parse.parse([str(arg) for arg in args])
    return sources.read_sources(parsed, parsed.metric[0], lang)


def read_refused(*args: object, lang: str = "en") -> exits.UsageProblem:
    with pytest.raises(exits.UsageProblem) as problem:
        read(*args, lang=lang)
    return problem.value


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


# --- exits and json_out ------------------------------------------------------------------


def test_the_exit_codes():
    codes = (exits.EXIT_PASSED, exits.EXIT_FAILED, exits.EXIT_USAGE, exits.EXIT_NO_VERDICT)
    assert codes == (0, 1, 2, 3)
    assert exits.EXIT_INTERRUPTED == 130


def test_no_pass_says_why_on_stderr_and_as_the_document(capsys):
    assert exits.no_pass("crashed", "It broke.", 3, as_json=False) == 3
    assert capsys.readouterr() == ("", "skynet-check: It broke.\n")
    assert exits.usage("Bad «option».", as_json=True) == 2
    out, err = capsys.readouterr()
    assert err == "skynet-check: Bad «option».\n"
    assert out == (
        '{\n  "passed": false,\n  "error": "usage",\n  "message": "Bad «option».",\n'
        '  "exit_code": 2\n}\n'
    )
    problem = exits.UsageProblem("Said.", file="m.py", line=4)
    assert (str(problem), problem.file, problem.line) == ("Said.", "m.py", 4)


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


# --- each_metric: what is said for a metric that gave no report --------------------------


def namespace(**given: object) -> argparse.Namespace:
    return argparse.Namespace(**{"junit_xml": None, "format": "text", "json": False, **given})


def test_an_interrupted_metric_without_report_says_interrupted_in_both_outputs(capsys):
    suites: list[str] = []
    args = namespace(junit_xml="r.xml", format="github")
    each_metric._no_report_outputs(args, "m.py", {}, 130, suites, "fr")
    assert capsys.readouterr().out == (
        "::error file=m.py,title=skynet-check::Interrompu : pas de verdict.\n"
    )
    (suite,) = suites
    failure = ET.fromstring(suite).find("testcase/failure")
    assert failure.get("message") == "Interrompu : pas de verdict."


def test_a_metric_without_report_or_message_points_at_the_lines_above(capsys):
    suites: list[str] = []
    each_metric._no_report_outputs(namespace(junit_xml="r.xml"), "m.py", {}, 3, suites, "en")
    assert capsys.readouterr().out == ""  # text format: no annotation
    (suite,) = suites
    assert ET.fromstring(suite).find("testcase/failure").get("message") == (
        "No report for m.py (exit code 3): the lines above say why."
    )


def test_a_usage_message_is_annotated_at_its_file_and_line(capsys):
    last = {"message": "Bad line.", "file": "other.py", "line": 7}
    suites: list[str] = []
    each_metric._no_report_outputs(namespace(format="github"), "m.py", last, 2, suites, "en")
    assert capsys.readouterr().out == "::error file=other.py,line=7,title=skynet-check::Bad line.\n"
    assert suites == []  # no --junit-xml


def test_a_report_carries_its_own_annotations_and_suite(capsys):
    suites: list[str] = []
    last = {"event": "done", "junit": "<testsuite/>", "message": "never said"}
    args = namespace(junit_xml="r.xml", format="github")
    each_metric._no_report_outputs(args, "m.py", last, 1, suites, "en")
    assert suites == ["<testsuite/>"] and capsys.readouterr().out == ""


def test_a_usage_error_stops_the_metrics_after_it(project, capfd):
    code = cli("missing.py", "good.py", *COLUMN)
    assert code == 2
    out, err = capfd.readouterr()
    assert out == "==> missing.py <==\n"
    assert err == "skynet-check: No metric file at missing.py: check the path.\n"


# --- junit_xml: the report as JUnit XML --------------------------------------------------


def report_of(metric: str, lang: str = "en", **given: object):
    """The report of a check run in this process (no child): what the child would send."""
    from skynet_jupyter.run.engine import check

    options = {"outputs": "label", "output_column": "prediction", **given}
    return check(metric, "cases.csv", lang=lang, **options)


def suite_of(report, metric: str) -> ET.Element:
    text = junit.junit_document([junit.report_suite(report, metric)])
    return assert_valid_junit(text).find("testsuite")


def test_the_suite_has_a_test_case_per_step_and_per_case(project):
    suite = suite_of(report_of("failing.py"), "failing.py")
    assert suite.get("name") == "failing.py"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("10", "2", "0")
    assert suite.get("skipped") == "1"
    assert suite.get("hostname") == platform.node()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", suite.get("timestamp"))
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties == {
        "kind": "check",
        "metric_name": "default",
        "mean_score": "1",
        "lang": "en",
    }
    cases = suite.findall("testcase")
    assert [case.get("classname") for case in cases] == ["failing.contract"] * 7 + [
        "failing.cases"
    ] * 3
    assert [case.get("name") for case in cases] == [
        "metric_loads: Metric loads",
        "metric_signature: Metric signature",
        "reward_spec: Reward spec",
        "run_function: Run function",
        "metric_return_value: Metric return value",
        "metric_time_limit: Metric time limit",
        "feedback_advice: Feedback advice",
        'case 0: text: "hello"',
        'case 1: text: "bye"',
        'case 2: text: "yo"',
    ]
    steps = {case.get("name").split(":")[0]: case for case in cases[:7]}
    assert list(steps["metric_loads"]) == []
    assert steps["reward_spec"].findtext("system-out") == (
        "No REWARD_SPEC: the score is used as it is."
    )
    skipped = steps["run_function"].find("skipped")
    assert skipped.get("message") == "No run function: outputs come from the column 'prediction'."
    failure = steps["metric_return_value"].find("failure")
    assert failure.get("type") == "metric_return_value"
    assert failure.get("message") == "Metric return value: Case 1: score raised KeyError: 'missing'"
    assert failure.text.startswith(
        "Case 1: score raised KeyError: 'missing'\nHow to fix: score raised an exception at "
    )
    advice = steps["feedback_advice"].findtext("system-out")
    assert advice.startswith("The 2 cases all have the score 1.")
    assert "\nAdvice: The optimizer (GEPA, DSPy GEPA, Auto) reads only the feedback" in advice
    broken = cases[8].find("failure")
    assert broken.get("type") == "metric_return_value"
    assert (
        broken.get("message") == "failed at Metric return value: score raised KeyError: 'missing'"
    )
    assert broken.text.startswith("Traceback (most recent call last):\n")
    assert broken.text.endswith("KeyError: 'missing'")
    assert cases[7].find("failure") is None
    assert cases[7].findtext("system-out").splitlines() == [
        "○ case 0  score 1  run not measured  metric 0.0 ms",
        '    input: text: "hello"',
        '    output: "greeting"',
        '    expected: label: "greeting"',
        "    feedback (what the optimizer reads): ok",
    ]


def test_an_interrupted_check_fails_every_case_ran(project):
    report = dataclasses.replace(report_of("good.py", lang="pt"), interrupted=True)
    report.cases = report.cases[:1]
    suite = suite_of(report, "good.py")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["lang"] == "pt"
    (every,) = [c for c in suite.findall("testcase") if c.get("name") == "Todos os casos rodaram"]
    assert every.get("classname") == "good.contract"
    assert every.find("failure").get("type") == "interrupted"
    assert every.find("failure").get("message") == render_interrupted(report)
    assert render_interrupted(report) == "Interrupção: mostram-se os casos concluídos (1 de 3)."
    assert suite.get("tests") == str(len(suite.findall("testcase")))


def test_cases_missing_after_a_failed_step_are_not_called_interrupted(project):
    report = report_of("one_argument.py", lang="pt")
    assert not report.interrupted and len(report.cases) < report.total_cases
    suite = suite_of(report, "one_argument.py")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["mean_score"] == "" and properties["lang"] == "pt"
    names = [c.get("name") for c in suite.findall("testcase")]
    assert "Todos os casos rodaram" not in names
    assert not [f for f in suite.iter("failure") if f.get("type") == "interrupted"]
    (failed,) = [c for c in suite.findall("testcase") if c.find("failure") is not None]
    assert failed.get("name").startswith("metric_signature")
    assert suite.get("failures") == "1"
    commands = gh.report_annotations(report, "one_argument.py")
    assert len(commands) == 1 and "Todos os casos rodaram" not in commands[0]


def render_interrupted(report) -> str:
    from skynet_jupyter.show.render import interrupted_line

    return interrupted_line(report)


def test_a_case_input_is_cut_to_60_characters_in_its_name(project):
    (project / "long.csv").write_text("text,label\n" + "x" * 100 + ",a\n")
    from skynet_jupyter.run.engine import check

    report = check("good.py", "long.csv", outputs="label", output_column="label", lang="en")
    name = suite_of(report, "good.py").findall("testcase")[-1].get("name")
    assert name.startswith('case 0: text: "xxxx') and len(name) < 80
    assert junit.INPUT_CHARS == 60
    from skynet_jupyter.core.secrets import Redactor
    from skynet_jupyter.show.render import cell

    assert name == f"case 0: {cell(report.cases[0].input, Redactor(), 60, quote=True)}"
    assert name != f"case 0: {cell(report.cases[0].input, Redactor(), 61, quote=True)}"


def test_a_metric_without_a_report_is_a_failed_metric_loads_redacted(project):
    text = junit.no_report_suite("proj/m.py", "It broke with sk-abcdefghijklmnop.", "fr")
    suite = ET.fromstring(text)
    assert suite.get("name") == "proj/m.py"
    counts = [suite.get(name) for name in ("tests", "failures", "errors", "skipped", "time")]
    assert counts == ["1", "1", "0", "0", "0.000"]
    (case,) = suite
    assert case.get("classname") == "proj.m.contract"
    assert case.get("name") == "metric_loads: Chargement de la métrique"
    assert case.get("time") == "0.000"
    failure = case.find("failure")
    assert failure.get("type") == "metric_loads"
    assert failure.get("message") == "It broke with sk-[redacted]."


def test_the_document_totals_its_suites():
    one = junit.no_report_suite("a.py", "A.", "en")
    two = ET.fromstring(junit.no_report_suite("b.py", "B.", "en"))
    two.set("time", "1.2506")
    two.set("skipped", "2")
    text = junit.junit_document([one, ET.tostring(two, "unicode")])
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n<testsuites ')
    assert text.endswith("</testsuites>\n")
    root = ET.fromstring(text.encode())
    assert root.attrib == {
        "name": "skynet-check",
        "tests": "2",
        "failures": "2",
        "errors": "0",
        "skipped": "2",
        "time": "1.251",
    }
    assert "\n  <testsuite " in text  # indented
    empty = ET.fromstring(junit.junit_document([]).encode())
    assert empty.attrib == {
        "name": "skynet-check", "tests": "0", "failures": "0", "errors": "0", "skipped": "0",
        "time": "0.000",
    }  # fmt: skip


def test_class_names_are_dotted_as_jenkins_splits_them():
    assert junit._class_name("proj/metric.py", "cases") == "proj.metric.cases"
    assert junit._class_name("/abs/my metric.py", "contract") == "abs.my_metric.contract"
    assert junit._class_name("../up/./m.py", "cases") == "up.m.cases"
    assert junit._class_name("..", "cases") == "metric.cases"
    assert junit._class_name("a\x1bb.py", "cases") == "a#x1Bb.cases"
    assert junit._seconds(-0.5) == "0.000" and junit._seconds(1.23456) == "1.235"
    assert junit._seconds(0.0) == "0.000"


def test_write_junit_makes_its_folder_replaces_a_report_and_refuses_a_link(project):
    assert junit.write_junit("a/b/r.xml", "<x/>", "en") is None
    assert (project / "a/b/r.xml").read_text() == "<x/>"
    assert junit.write_junit("a/b/r.xml", "<y/>", "en") is None
    assert (project / "a/b/r.xml").read_text() == "<y/>"
    (project / "link.xml").symlink_to(project / "a/b/r.xml")
    assert junit.write_junit("link.xml", "<z/>", "fr") == (
        "--junit-xml link.xml est un lien symbolique : le rapport n'est pas écrit à travers "
        "les liens ; donnez le chemin du fichier lui-même."
    )
    assert (project / "a/b/r.xml").read_text() == "<y/>"
    (project / "file").write_text("")
    assert junit.write_junit("file/r.xml", "<z/>", "en") == (
        "Could not write the JUnit report to file/r.xml: File exists"
    )


def test_a_path_for_junit_is_checked_without_following_links(project):
    assert junit.junit_path_problem("new.xml", "en") is None
    (project / "old.xml").write_text("")
    assert junit.junit_path_problem("old.xml", "en") is None
    assert junit.junit_path_problem("old.xml/under.xml", "en") is None  # absent: written later
    (project / "dir").mkdir()
    assert junit.junit_path_problem("dir", "pt") == (
        "--junit-xml dir é uma pasta, não um arquivo comum: dê o caminho de um arquivo novo ou "
        "de um relatório a substituir."
    )


# --- github_annotations: workflow commands -----------------------------------------------


def test_messages_and_properties_are_escaped_as_githubs_toolkit_does():
    assert gh.escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"
    assert gh.escape_property("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb"
    assert gh.workflow_command("error", "Bad\nthing", file="m.py", line=None, title="T: x") == (
        "::error file=m.py,title=T%3A x::Bad%0Athing"
    )
    assert gh.workflow_command("warning", "only") == "::warning::only"
    assert gh.workflow_command("error", "\x1b[31mred", file="a\x1b.py", line=3) == (
        "::error file=a#x1B.py,line=3::#x1B[31mred"
    )


def test_a_failed_case_points_at_the_metrics_own_line(project):
    commands = gh.report_annotations(report_of("failing.py"), "failing.py")
    assert len(commands) == 2
    assert commands[0].startswith(
        "::error file=failing.py,line=4,title=Metric return value::Case 1: score raised "
        "KeyError: 'missing'%0AHow to fix: score raised an exception at "
    )
    assert commands[1].startswith(
        "::warning file=failing.py,title=Feedback advice::The 2 cases all have the score 1."
    )
    assert "%0AAdvice: The optimizer (GEPA, DSPy GEPA, Auto) reads only" in commands[1]
    # The same metric named by its absolute path is shown relative to the workspace.
    absolute = gh.report_annotations(report_of("failing.py"), str(project / "failing.py"))
    assert absolute[0].startswith("::error file=failing.py,line=4,")


def test_cases_failing_the_same_way_are_one_annotation(project):
    (project / "same.py").write_text(
        "def score(input, output, expected=None):\n    raise KeyError('missing')\n"
    )
    commands = gh.report_annotations(report_of("same.py"), "same.py")
    errors = [command for command in commands if command.startswith("::error")]
    assert len(errors) == 1
    assert errors[0].startswith("::error file=same.py,line=2,title=Metric return value::")


def test_a_signature_or_reward_spec_failure_points_at_its_definition(project):
    commands = gh.report_annotations(report_of("one_argument.py", lang="fr"), "one_argument.py")
    assert commands[0].startswith(
        "::error file=one_argument.py,line=4,title=Signature de la métrique::score(input) "
    )
    assert len(commands) == 1  # the failed step says why no case ran: no "interrupted" besides
    (project / "spec.py").write_text(
        '"""A spec."""\n\nREWARD_SPEC: dict = {"weights": {"nope": 1.0}}\n\n\n'
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n"
    )
    commands = gh.report_annotations(report_of("spec.py"), "spec.py")
    assert commands[0].startswith("::error file=spec.py,line=3,title=Reward spec::REWARD_SPEC[")


def test_a_failure_in_the_run_file_points_there(project):
    (project / "run_broken.py").write_text(
        "def run(artifact, case_input):\n    raise RuntimeError('run broke')\n"
    )
    report = report_of("good.py", output_column=None, run="run_broken.py:run")
    (command,) = [c for c in gh.report_annotations(report, "good.py") if "Run function" in c]
    assert command.startswith("::error file=run_broken.py,line=2,title=Run function::Cases 0–2 (3)")


def test_where_a_name_is_defined_at_the_top_of_the_metric(project):
    (project / "defs.py").write_text(
        "import os\nA = 1\nB: int = 2\nC = D = 3\n\n\nasync def score(input, output):\n"
        "    def inner():\n        pass\n\n\nclass K:\n    E = 1\n"
    )
    assert gh._defined_at("defs.py", "score") == 7
    assert gh._defined_at("defs.py", "A") == 2
    assert gh._defined_at("defs.py", "B") == 3
    assert gh._defined_at("defs.py", "D") == 4
    assert gh._defined_at("defs.py", "inner") is None  # not at the top level
    assert gh._defined_at("defs.py", "E") is None
    assert gh._defined_at("defs.py", "K") is None  # a class is not what is looked for
    assert gh._defined_at("gone.py", "score") is None
    (project / "broken.py").write_text("def score(:\n")
    assert gh._defined_at("broken.py", "score") is None
    (project / "nul.py").write_bytes(b"score = 1\x00\n")
    assert gh._defined_at("nul.py", "score") is None


def test_paths_are_shown_relative_to_the_workspace(project):
    assert gh._shown(str(project / "sub" / "m.py")) == "sub/m.py"
    assert gh._shown("/elsewhere/m.py") == "/elsewhere/m.py"
    assert gh._shown("./sub//m.py") == "sub/m.py"


def test_a_usage_annotation_is_redacted_with_its_line(project):
    assert gh.usage_annotation(str(project / "m.py"), "Key sk-abcdefghijklmnop: bad.", 5) == (
        "::error file=m.py,line=5,title=skynet-check::Key sk-[redacted]: bad."
    )
    assert gh.usage_annotation("m.py", "Bad.", None) == "::error file=m.py,title=skynet-check::Bad."


# --- supervise: the verdicts the parent prints -------------------------------------------


@pytest.mark.parametrize(
    ("message", "code", "said"),
    [
        ({"event": "interrupted"}, 130, "Interrupted: no verdict."),
        ({"event": "usage", "message": "Bad option."}, 2, "Bad option."),
        ({"event": "crashed", "message": "It crashed."}, 3, "It crashed."),
    ],
)
def test_a_verdict_without_report_is_its_code_and_sentence(message, code, said, capsys):
    assert supervise._verdict(message, as_json=False, lang="en") == code
    assert capsys.readouterr() == ("", f"skynet-check: {said}\n")
    assert supervise._verdict(message, as_json=True, lang="en") == code
    document = json.loads(capsys.readouterr().out)
    assert document == {
        "passed": False,
        "error": message["event"],
        "message": said,
        "exit_code": code,
    }


@pytest.mark.parametrize(
    ("passed", "interrupted", "code"), [(True, False, 0), (False, False, 1), (True, True, 130)]
)
def test_a_report_is_printed_and_its_verdict_is_the_code(passed, interrupted, code, capsys):
    done = {"event": "done", "passed": passed, "interrupted": interrupted, "output": "Report."}
    assert supervise._verdict(done, as_json=False, lang="en") == code
    assert capsys.readouterr() == ("Report.\n", "")
    assert supervise._verdict({**done, "output": "{}"}, as_json=True, lang="en") == code
    assert capsys.readouterr() == ("{}\n", "")


def started(code: str, **options: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, **options)


def test_no_verdict_says_how_the_child_ended(capsys):
    progress = supervise.ProgressLine("Running", "en", io.StringIO())
    ended = started("import sys; sys.exit(4)")
    assert supervise._no_verdict(ended, "en", False, progress) == 3
    assert "(it exited with code 4)" in capsys.readouterr().err
    for number, name in ((signal.SIGTERM, "SIGTERM"), (40, "40")):  # 40: a signal with no name
        killed = started(f"import os; os.kill(os.getpid(), {int(number)})")
        assert supervise._no_verdict(killed, "pt", True, progress) == 3
        document = json.loads(capsys.readouterr().out)
        assert document["error"] == "no_verdict" and document["exit_code"] == 3
        assert f"(foi terminado pelo sinal {name})" in document["message"]
        killed.stdout.close()
    ended.stdout.close()


def test_the_childs_messages_are_read_line_by_line_until_it_ends():
    child_process = started(
        'print(\'{"event": "loading", "path": "m.py"}\'); print(\'not ours\');'
        'print(\'{"event": "loaded"}\')'
    )
    into: queue.Queue = queue.Queue()
    supervise._read_messages(child_process, into)
    assert [into.get_nowait() for _ in range(3)] == [
        {"event": "loading", "path": "m.py"},
        {"event": "loaded"},
        None,
    ]
    child_process.wait()
    child_process.stdout.close()


def test_the_childs_stderr_is_passed_on_around_the_progress_line(capfd):
    child_process = started(
        "import sys; sys.stderr.write('first\\n'); sys.stderr.flush(); sys.stderr.write('last')",
        stderr=subprocess.PIPE,
    )
    progress = supervise.ProgressLine("Running", "en", io.StringIO())
    supervise._pass_on_stderr(child_process, progress)
    assert capfd.readouterr().err == "first\nlast"
    child_process.wait()
    child_process.stdout.close()
    child_process.stderr.close()


def test_sigterm_and_sighup_end_the_check_and_the_handlers_come_back():
    before = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGHUP)}
    previous = supervise._end_with_us()
    assert previous == before
    for number in (signal.SIGTERM, signal.SIGHUP):
        with pytest.raises(SystemExit) as stopped:
            signal.getsignal(number)(number, None)
        assert stopped.value.code == 128 + number
    supervise._restore(previous)
    assert {number: signal.getsignal(number) for number in before} == before
    elsewhere: list[dict] = []
    worker = threading.Thread(target=lambda: elsewhere.append(supervise._end_with_us()))
    worker.start()
    worker.join()
    assert elsewhere == [{}]  # only the main thread may set handlers


def test_ending_the_child_ends_what_it_started(tmp_path):
    pid_file = tmp_path / "grandchild"
    leader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time; "
            "p = subprocess.Popen(['sleep', '60']); "
            f"open({str(pid_file)!r}, 'w').write(str(p.pid)); time.sleep(60)",
        ],
        process_group=0,
    )
    for _ in range(200):
        if pid_file.exists() and pid_file.read_text():
            break
        threading.Event().wait(0.05)
    grandchild = int(pid_file.read_text())
    supervise._end(leader)
    assert leader.returncode == -signal.SIGKILL
    for _ in range(100):
        try:
            os.kill(grandchild, 0)
            state = Path(f"/proc/{grandchild}/stat").read_text().split(")")[-1].split()[0]
        except (ProcessLookupError, FileNotFoundError):
            break
        if state == "Z":
            break  # killed, not yet reaped by its new parent
        threading.Event().wait(0.05)
    else:
        pytest.fail("the child's own child still runs")
    supervise._end(leader)  # again: already gone, nothing raised


def test_supervise_gives_the_last_message_to_on_verdict(project, capfd):
    parsed = parse.parse(["good.py", *COLUMN, "--junit-xml", "r.xml"])
    checked = job.job_from(parsed, "en")
    seen: list[dict] = []
    assert supervise.supervise(checked, 60.0, seen.append) == 0
    (message,) = seen
    assert message["event"] == "done" and message["passed"] is True
    assert message["interrupted"] is False
    assert ET.fromstring(message["junit"]).get("name") == "good.py"
    assert capfd.readouterr().out == message["output"] + "\n"
    assert supervise.CHILD == "from skynet_jupyter.cli.child import main; main()"


def on_a_terminal(monkeypatch: pytest.MonkeyPatch, made_job: job.Job) -> tuple[int, str]:
    """``supervise(made_job)`` with stdout a terminal (a pty): its code, and what it showed."""
    leader, follower = os.openpty()
    terminal = open(follower, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    shown = b""
    try:
        with monkeypatch.context() as patched:
            patched.setattr(sys, "stdout", terminal)
            code = supervise.supervise(made_job, 60.0)
            terminal.flush()
        while select.select([leader], [], [], 0.2)[0]:
            shown += os.read(leader, 65536)
    finally:
        terminal.close()
        os.close(leader)
    return code, shown.decode()


def test_on_a_terminal_the_progress_line_is_shown_and_erased(project, monkeypatch, capfd):
    monkeypatch.setenv("COLUMNS", "120")
    (project / "talks.py").write_text(
        "import sys\nprint('loading talks')\n\n\ndef score(input, output, expected=None):\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )
    checked = job.job_from(parse.parse(["talks.py", *COLUMN]), "en")
    checked = job.Job(**{**{f: getattr(checked, f) for f in checked.__slots__}, "width": 120})
    code, shown = on_a_terminal(monkeypatch, checked)
    assert code == 0
    # Shown at the start, and again after the child's line was passed on under it.
    assert shown.count("Running the contract check…") >= 2
    assert "Contract check passed" in shown
    assert "loading talks\n" in capfd.readouterr().err  # the child's print, passed on


# --- child: what the child does with a Job (here, in this process) -----------------------


def checked_in_process(*args: object, lang: str = "en") -> tuple[list[dict], dict]:
    """The child's check of the Job these arguments make: the messages sent, the last one."""
    parsed = parse.parse([str(arg) for arg in args])
    sent: list[dict] = []
    last = child._check(job.job_from(parsed, lang), sent.append)
    json.dumps(last, allow_nan=False)  # the child sends it as strict JSON
    return sent, last


def test_the_child_loads_the_metric_then_sends_the_report(project):
    sent, last = checked_in_process("good.py", *COLUMN)
    assert sent == [{"event": "loading", "path": "good.py"}, {"event": "loaded"}]
    assert set(last) == {"event", "passed", "interrupted", "output"}
    assert (last["event"], last["passed"], last["interrupted"]) == ("done", True, False)
    assert last["output"].startswith("Contract check passed — metric 'default' · 3 cases")
    assert str(project.resolve()) == sys.path[0]  # the metric's folder is importable


def test_the_child_loads_the_run_file_first(project):
    sent, last = checked_in_process(
        "good.py", "--data", "cases.csv", "--outputs", "label", "--run", "run.py:run",
        "--artifact-text", "farewell", "--json",
    )  # fmt: skip
    assert sent == [
        {"event": "loading", "path": "run.py"},
        {"event": "loading", "path": "good.py"},
        {"event": "loaded"},
    ]
    document = json.loads(last["output"])
    assert [case["output"] for case in document["cases"]] == ["greeting", "farewell", "greeting"]
    assert document["passed"] is True and last["passed"] is True


def test_the_child_adds_annotations_and_its_junit_suite(project):
    _, last = checked_in_process("failing.py", *COLUMN, "--format", "github", "--junit-xml", "r")
    assert last["passed"] is False
    lines = last["output"].splitlines()
    assert lines[0].startswith("::error file=failing.py,line=4,title=Metric return value::")
    assert lines[2].startswith("Contract check failed")
    assert ET.fromstring(last["junit"]).get("failures") == "2"


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "def helper():\n    pass\n",
            "The run file run.py defines no function 'run'; it defines: helper. Name one after "
            "the colon: --run FILE.py:FUNC.",
        ),
        (
            "X = 1\n",
            "The run file run.py defines no function 'run'; it defines: nothing callable. Name "
            "one after the colon: --run FILE.py:FUNC.",
        ),
        ("import os\nos.nowhere\n", "module 'os' has no attribute 'nowhere'"),
        (
            "x = 1\nraise RuntimeError('no key sk-abcdefghijklmnop')\n",
            "The run file run.py failed while loading, on line 2: RuntimeError: no key "
            "sk-[redacted].",
        ),
        (
            "import sys\nsys.exit(3)\n",
            "The run file run.py failed while loading, on line 2: SystemExit: 3.",
        ),
        (
            "exec('x = (')\n",
            "run.py, line 1: syntax error ('(' was never closed); fix it and run again.",
        ),
    ],
)
def test_a_run_file_that_does_not_load_is_a_usage_error_naming_it(project, source, said):
    (project / "run.py").write_text(source)
    sent, last = checked_in_process("good.py", "--data", "cases.csv", "--run", "run.py")
    assert last == {"event": "usage", "message": said}
    assert sent == [{"event": "loading", "path": "run.py"}]


def test_a_run_file_failing_in_another_file_has_no_line_of_its_own(project):
    (project / "helpers.py").write_text("raise ValueError('in the helper')\n")
    (project / "run.py").write_text("import helpers\n")
    _, last = checked_in_process("good.py", "--data", "cases.csv", "--run", "run.py", lang="fr")
    assert last["message"] == (
        "Le fichier run run.py a échoué au chargement, ligne 1 : ValueError: in the helper."
    )
    assert child._load_failure("gone.py", ValueError("v"), "en") == (
        "The run file gone.py failed while loading, on line ?: ValueError: v."
    )


def test_a_run_file_gone_since_it_was_read_is_said(project):
    parsed = parse.parse(["good.py", "--data", "cases.csv", "--run", "run.py:run"])
    made_job = job.job_from(parsed, "en")
    (project / "run.py").unlink()
    last = child._check(made_job, lambda message: None)
    assert last == {"event": "usage", "message": "No run file at 'run.py' (from 'run.py:run')."}
    (project / "run.py").write_bytes(b"x = '\xff'\n")
    last = child._check(made_job, lambda message: None)
    assert last["event"] == "usage" and last["message"].startswith("run.py is not valid utf-8")


def test_a_metric_that_does_not_load_is_a_usage_error_with_its_line(project):
    (project / "raises.py").write_text("x = 1\nraise ValueError('at import')\n")
    sent, last = checked_in_process("raises.py", *COLUMN)
    assert sent == [{"event": "loading", "path": "raises.py"}]
    assert last["event"] == "usage" and last["line"] == 2
    assert last["message"].startswith("The metric file raises.py does not load: ")
    assert "ValueError: at import" in last["message"]


def test_a_metric_that_loads_but_breaks_the_contract_is_a_report(project):
    sent, last = checked_in_process("one_argument.py", *COLUMN)
    assert sent[-1] == {"event": "loaded"}
    assert last["event"] == "done" and last["passed"] is False
    assert "✗ Metric signature: score(input) cannot be called" in last["output"]


def test_data_problems_are_usage_errors(project):
    _, last = checked_in_process("good.py", *COLUMN[:3], "labl", *COLUMN[4:])
    assert last["event"] == "usage" and "Unknown column 'labl'" in last["message"]
    _, last = checked_in_process("good.py", "--data", "gone.csv", *COLUMN[2:])
    assert last["event"] == "usage" and last["message"].startswith("No data file")


def test_a_check_without_the_model_it_needs_names_the_option(project):
    (project / "judge.py").write_text(
        "from skynet import llm\n\n\ndef score(input, output, expected=None):\n"
        "    return float(llm('Judge it.', output) == 'yes'), {'feedback': 'judged'}\n"
    )
    _, last = checked_in_process("judge.py", *COLUMN)
    assert last == {
        "event": "usage",
        "message": "The check cannot run without a model: score calls llm(), which asks the "
        "metric model, and none is set: set the environment variable SKYNET_METRIC_MODEL, call "
        "skynet_jupyter.configure(metric_model=...), or run %config SkynetMagics.metric_model = "
        "... (the reflection model, SKYNET_REFLECTION_MODEL, is the fallback); offline, use "
        "skynet_jupyter.StandInModel(). On the command line: --metric-model MODEL (a litellm "
        "model string).",
    }
    (project / "task.py").write_text(
        "from skynet import llm\n\n\ndef run(artifact, case_input):\n    return llm(artifact)\n"
    )
    args = ("good.py", "--data", "cases.csv", "--outputs", "label", "--run", "task.py:run")
    _, last = checked_in_process(*args, "--artifact-text", "Label it.")
    assert last["event"] == "usage"
    assert last["message"].endswith(
        "On the command line: --task-model MODEL (a litellm model string)."
    )


def test_missing_model_reads_the_hint_or_the_traceback():
    case = SimpleNamespace(failed_step=None, hint_id=None, traceback=None, error=None)
    assert child._missing_model(SimpleNamespace(cases=[case])) is None
    hinted = SimpleNamespace(failed_step="run_function", hint_id="hint.no_task_model",
                             traceback=None, error=None)  # fmt: skip
    assert child._missing_model(SimpleNamespace(cases=[case, hinted])) == "task"
    unfailed = SimpleNamespace(**{**vars(hinted), "failed_step": None})
    assert child._missing_model(SimpleNamespace(cases=[unfailed])) is None
    said = "ModelNotConfigured: No metric model is set"
    in_error = SimpleNamespace(failed_step="x", hint_id=None, traceback=None, error=said)
    assert child._missing_model(SimpleNamespace(cases=[in_error])) == "metric"
    in_trace = SimpleNamespace(failed_step="x", hint_id=None, traceback=f"T\n{said}", error="E")
    assert child._missing_model(SimpleNamespace(cases=[in_trace])) == "metric"


def test_the_models_are_asked_at_api_base_with_the_key_from_the_environment(monkeypatch):
    given = ModelSettings(task_model="t/m", metric_model={"model": "j/m", "temperature": 0})
    at_base = child._models(given, "http://h:1/v1")
    assert at_base.task_model == {"model": "t/m", "api_base": "http://h:1/v1"}
    assert at_base.metric_model == {"model": "j/m", "temperature": 0}  # litellm's own arguments
    assert at_base.reflection_model is None
    assert child._models(given, None) == given
    monkeypatch.setenv("SKYNET_REFLECTION_MODEL", "r/m")
    assert child._models(ModelSettings(), None).reflection_model == "r/m"
    assert child._models(ModelSettings(), "http://h").reflection_model == {
        "model": "r/m",
        "api_base": "http://h",
    }


def test_the_run_cache_is_the_file_cache_dir_names(project):
    parsed = parse.parse(["good.py", *COLUMN, "--cache-dir", "cache"])
    cached = child._run_cache(job.job_from(parsed, "en"))
    assert cached.disk.path == project.resolve() / "cache" / "runs.sqlite"
    assert child._run_cache(job.job_from(parse.parse(["good.py", *COLUMN]), "en")) is None
    _, last = checked_in_process("good.py", *COLUMN, "--cache-dir", "cache")
    assert last["passed"] is True


def test_a_missing_function_named_by_the_files_own_code_is_shown_as_raised(project):
    other = AttributeError("module 'os' has no attribute 'x'", name="x", obj=os)
    assert child._no_function(other, "run.py", "en") == "module 'os' has no attribute 'x'"
    module = SimpleNamespace(__file__=str((project / "run.py").resolve()), go=print, _hid=print)
    mine = AttributeError("gone", name="run", obj=module)
    assert child._no_function(mine, "run.py", "pt") == (
        "O ficheiro run run.py não define nenhuma função 'run'; define: go. Indique uma depois "
        "dos dois pontos: --run FICHEIRO.py:FUNÇÃO."
    )


class _Exited(Exception):
    """os._exit, called by the child's main: here it ends the call, not the test process."""


@contextlib.contextmanager
def as_the_child(made_job: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Run ``child.main`` in this process as the child would run: its job on stdin, its
    stdout (fd 1) the channel; yields the list of the lines it sent and the parent it
    asked to end with.  ``end_with_parent`` is recorded, not run: in the test process it
    would tie pytest to its own parent (a SIGTERM handler, the kernel's death signal)."""
    channel_file = tmp_path / "channel"
    asked: list[int] = []
    monkeypatch.setattr(child, "end_with_parent", asked.append)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(pickle.dumps(made_job))))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))

    def exited(code: int) -> None:
        raise _Exited(code)

    monkeypatch.setattr(os, "_exit", exited)
    saved = os.dup(1)
    with open(channel_file, "wb") as channel:
        os.dup2(channel.fileno(), 1)
    sent: list[str] = []
    try:
        with pytest.raises(_Exited) as ended:
            yield sent, asked
        assert ended.value.args == (0,)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        sent.extend(channel_file.read_text(encoding="ascii").splitlines())


def test_the_childs_main_sends_each_message_as_one_ascii_json_line(
    project, monkeypatch, tmp_path, capfd
):
    made_job = job.job_from(parse.parse(["good.py", *COLUMN]), "en")
    with as_the_child(made_job, monkeypatch, tmp_path) as (sent, asked):
        child.main()
    assert asked == [os.getppid()]
    assert [json.loads(line)["event"] for line in sent] == ["loading", "loaded", "done"]
    done = sent[-1]
    assert "\\u2713 Metric loads" in done and "✓" not in done  # ASCII on the channel
    assert json.loads(done)["passed"] is True


def test_the_childs_own_failure_is_one_crashed_line(project, monkeypatch, tmp_path):
    made_job = job.job_from(parse.parse(["good.py", *COLUMN]), "fr")
    broken = job.Job(**{**{f: getattr(made_job, f) for f in made_job.__slots__}, "metric": 5})
    with as_the_child(broken, monkeypatch, tmp_path) as (sent, _):
        child.main()
    (line,) = sent
    assert json.loads(line) == {
        "event": "crashed",
        "message": "Pas de verdict : skynet-check lui-même a échoué (TypeError: expected str, "
        "bytes or os.PathLike object, not int) ; la vérification n'est pas réussie. Merci de "
        "le signaler.",
    }


# --- the edges: each found by asking what a changed line would still let through ---------


def test_a_refusal_naming_a_value_with_a_newline_is_still_translated(capsys):
    with pytest.raises(SystemExit):
        parse.parse([*MINIMAL, "--bogus=a\nb", "--lang", "fr"])
    assert capsys.readouterr().err.endswith(
        "skynet-check: erreur : arguments inconnus : --bogus=a\nb (skynet-check --help les "
        "liste tous)\n"
    )


def test_api_base_with_several_at_signs_shows_only_the_host(project):
    assert refused("good.py", *COLUMN, "--api-base", "ftp://u@p@host") == (
        "--api-base must be an http:// or https:// address (such as http://localhost:8000/v1), "
        "got '…@host'."
    )
    assert refused("good.py", *COLUMN, "--api-base", " ftp://h ").endswith("got 'ftp://h'.")


def test_a_nul_byte_is_said_at_line_0_as_python_reports_it(project):
    (project / "nul.py").write_bytes(b"x = 1\x00\n")
    problem = read_refused("nul.py", *COLUMN)
    assert str(problem) == (
        "nul.py, line 0: syntax error (source code string cannot contain null bytes); fix it "
        "and run again."
    )


def test_ctrl_c_stops_the_metric_files_after_it(project, capfd, ctrl_c):
    (project / "slow.py").write_text(
        "import pathlib, time\n\n\ndef score(input, output, expected=None):\n"
        "    pathlib.Path('scoring').touch()\n    time.sleep(20)\n    return 1.0\n"
    )
    ctrl_c_once_there(project / "scoring")
    assert cli("slow.py", "good.py", *COLUMN) == 130
    out = capfd.readouterr().out
    assert out.startswith("==> slow.py <==\n")
    assert "==> good.py <==" not in out


def test_a_slow_check_is_not_held_to_the_load_time_limit(project, capfd):
    (project / "steady.py").write_text(
        "import time\n\n\ndef score(input, output, expected=None):\n"
        "    time.sleep(0.5)\n    return 1.0, {'feedback': f'fine for {output}'}\n"
    )
    assert cli("steady.py", *COLUMN, "--load-timeout", "1", "--json") == 0  # 3 x 0.5 s > 1 s
    assert json.loads(capfd.readouterr().out)["passed"] is True


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


def test_a_suite_names_its_metric_with_control_characters_shown():
    suite = ET.fromstring(junit.no_report_suite("m\x1b.py", "Why\x07.", "en"))
    assert suite.get("name") == "m#x1B.py"
    assert suite.find("testcase").get("classname") == "m#x1B.contract"
    assert suite.find("testcase/failure").get("message") == "Why#x07."


def test_each_case_takes_the_time_of_its_run_and_its_metric(project):
    (project / "sleepy_run.py").write_text(
        "import time\n\n\ndef run(artifact, case_input):\n    time.sleep(0.3)\n    return 'x'\n"
    )
    report = report_of("good.py", output_column=None, run="sleepy_run.py:run", cases=1)
    (case,) = report.cases
    assert case.run_ms >= 300 and case.metric_ms is not None
    timed = suite_of(report, "good.py").findall("testcase")[-1]
    assert timed.get("time") == f"{(case.run_ms + case.metric_ms) / 1000:.3f}"
    (project / "sleepy.py").write_text(
        "import time\n\n\ndef score(input, output, expected=None):\n"
        "    time.sleep(0.05)\n    return 1.0, {'feedback': 'ok'}\n"
    )
    column = report_of("sleepy.py", cases=1)
    assert column.cases[0].run_ms is None and column.cases[0].metric_ms >= 50
    untimed = suite_of(column, "sleepy.py").findall("testcase")[-1]
    assert untimed.get("time") == f"{column.cases[0].metric_ms / 1000:.3f}"
    (project / "raising_run.py").write_text("def run(artifact, case_input):\n    raise OSError\n")
    failed = report_of("good.py", output_column=None, run="raising_run.py:run", cases=1)
    assert failed.cases[0].metric_ms is None  # never scored
    not_scored = suite_of(failed, "good.py").findall("testcase")[-1]
    run_ms = failed.cases[0].run_ms
    assert not_scored.get("time") == f"{(run_ms or 0.0) / 1000:.3f}"


def test_an_annotation_points_at_the_deepest_line_in_the_metric_or_run_file(project):
    (project / "nested.py").write_text(
        "def check(text):\n    raise KeyError(text)\n\n\n"
        "def score(input, output, expected=None):\n    return check(input['text'])\n"
    )
    commands = gh.report_annotations(report_of("nested.py"), "nested.py")
    assert commands[0].startswith("::error file=nested.py,line=2,title=Metric return value::")
    (project / "nested_run.py").write_text(
        "def broken():\n    raise RuntimeError('run broke')\n\n\n"
        "def run(artifact, case_input):\n    return broken()\n"
    )
    report = report_of("good.py", output_column=None, run="nested_run.py:run")
    (command,) = [c for c in gh.report_annotations(report, "good.py") if "Run function" in c]
    assert command.startswith("::error file=nested_run.py,line=2,title=Run function::")


def test_a_run_file_failing_in_a_function_it_calls_names_the_deepest_line(project):
    (project / "run.py").write_text("def setup():\n    raise OSError('no')\n\n\nsetup()\n")
    _, last = checked_in_process("good.py", "--data", "cases.csv", "--run", "run.py")
    assert last["message"] == "The run file run.py failed while loading, on line 2: OSError: no."


def test_a_metric_that_is_not_text_is_said_as_it_is(project):
    parsed = parse.parse(["good.py", *COLUMN])
    made_job = job.job_from(parsed, "en")
    (project / "good.py").write_bytes(b"x = '\xff'\n")
    last = child._check(made_job, lambda message: None)
    assert last["event"] == "usage"
    assert last["message"].startswith("good.py is not valid utf-8 text (byte 0xff on line 1)")


def test_a_users_own_skynet_module_is_named_when_the_metric_does_not_load(project, monkeypatch):
    import types

    theirs = types.ModuleType("skynet")
    theirs.__file__ = str(project / "skynet.py")
    monkeypatch.setitem(sys.modules, "skynet", theirs)
    (project / "helped.py").write_text(
        "from skynet import llm\n\n\ndef score(input, output, expected=None):\n    return 1.0\n"
    )
    _, last = checked_in_process("helped.py", *COLUMN)
    assert last["event"] == "usage" and last["line"] == 1
    assert last["message"].startswith("The metric file helped.py does not load: ")
    assert last["message"].endswith(
        f"`import skynet` gives your own module {project / 'skynet.py'}, not the Skynet helpers "
        "(llm, reward, observation, service_cost): rename it (or move it out of the folder and "
        "the path) so that metric code gets them."
    )


def test_the_childs_report_is_laid_out_to_the_parents_width(project):
    made_job = job.job_from(parse.parse(["good.py", *COLUMN]), "en")
    wide = child._check(made_job, lambda message: None)["output"]
    narrow_job = job.Job(**{**{f: getattr(made_job, f) for f in made_job.__slots__}, "width": 50})
    narrow = child._check(narrow_job, lambda message: None)["output"]
    assert max(map(len, wide.splitlines())) > 50
    assert max(map(len, narrow.splitlines())) <= 50


def test_ctrl_c_while_the_metric_loads_is_the_interrupted_line(project, monkeypatch, tmp_path):
    (project / "stopped.py").write_text("raise KeyboardInterrupt\n")
    made_job = job.job_from(parse.parse(["stopped.py", *COLUMN]), "en")
    with as_the_child(made_job, monkeypatch, tmp_path) as (sent, _):
        child.main()
    assert [json.loads(line) for line in sent] == [
        {"event": "loading", "path": "stopped.py"},
        {"event": "interrupted"},
    ]


def test_what_the_user_code_writes_to_stdout_goes_to_stderr(project, monkeypatch, tmp_path, capfd):
    (project / "writes.py").write_text(
        "import os\n\nos.write(1, b'from the metric\\n')\n\n\n"
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': output}\n"
    )
    made_job = job.job_from(parse.parse(["writes.py", *COLUMN]), "en")
    with as_the_child(made_job, monkeypatch, tmp_path) as (sent, _):
        child.main()
    assert [json.loads(line)["event"] for line in sent] == ["loading", "loaded", "done"]
    assert "from the metric\n" in capfd.readouterr().err


def test_a_child_gone_while_its_fork_holds_the_channel_is_no_verdict(project, capfd):
    # The fork keeps the channel open (no end of file comes): past the grace, no verdict,
    # and ending the child's process group ends the fork too.
    (project / "forks.py").write_text(
        "import os, time\n\n\ndef score(input, output, expected=None):\n"
        "    if os.fork() == 0:\n        time.sleep(30)\n    os._exit(0)\n"
    )
    assert cli("forks.py", *COLUMN) == 3
    assert "(it exited with code 0)" in capfd.readouterr().err
    assert supervise._GRACE_S == 5.0


# --- the edges, in another language: each part must use the language it is given --------


def test_main_reads_the_command_line_when_given_no_arguments(project, monkeypatch, capfd):
    monkeypatch.setattr(sys, "argv", ["skynet-check", "nope.py", *COLUMN, "--lang", "fr"])
    assert main() == 2
    assert capfd.readouterr().err == (
        "skynet-check: Aucun fichier de métrique à nope.py : vérifiez le chemin.\n"
    )


def test_a_language_given_as_an_odd_value_is_not_taken(monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "pt")
    assert parse._asked_lang(["--lang==fr"]) == "pt"  # its value is "=fr": no language


def test_a_syntax_error_in_the_run_file_is_annotated_there_in_french(project, capfd):
    (project / "broken_run.py").write_text("def run(artifact, case_input):\n    return (\n")
    args = ("good.py", "--data", "cases.csv", "--run", "broken_run.py:run", "--lang", "fr")
    assert cli(*args, "--format", "github", "--junit-xml", "b.xml") == 2
    out = capfd.readouterr().out
    assert out.startswith(
        "::error file=broken_run.py,line=2,title=skynet-check::broken_run.py, ligne 2 : erreur de "
        "syntaxe ('(' was never closed) ; corrigez-la et relancez."
    )
    case = ET.parse("b.xml").getroot().find(".//testcase")
    assert case.get("name") == "metric_loads: Chargement de la métrique"


def test_a_junit_file_that_cannot_be_written_is_said_in_french(project, capfd):
    (project / "a_file").write_text("")
    assert cli("nope.py", *COLUMN, "--junit-xml", "a_file/r.xml", "--lang", "fr") == 2
    assert capfd.readouterr().err.endswith(
        "skynet-check: Impossible d'écrire le rapport JUnit dans a_file/r.xml : File exists\n"
    )


def test_no_report_is_said_in_the_language_given(capsys):
    suites: list[str] = []
    each_metric._no_report_outputs(
        namespace(junit_xml="r", format="github"), "m.py", {}, 3, suites, "pt"
    )
    said = "Sem relatório para m.py (código de saída 3): as linhas acima dizem por quê."
    assert capsys.readouterr().out == f"::error file=m.py,title=skynet-check::{said}\n"
    case = ET.fromstring(suites[0]).find("testcase")
    assert case.get("name") == "metric_loads: Carregamento da métrica"
    assert case.find("failure").get("message") == said
    assert case.find("failure").text is None  # the message only: no body


def test_the_suite_and_the_annotations_are_in_the_reports_language(project):
    report = report_of("failing.py", lang="fr")
    suite = suite_of(report, "failing.py")
    cases = suite.findall("testcase")
    assert all(case.get("time") == "0.000" for case in cases[:7])  # a step takes no time
    failure = cases[4].find("failure")
    assert failure.get("message") == (
        "Valeur de retour de la métrique : Cas 1 : score a levé KeyError: 'missing'"
    )
    assert failure.text.startswith("Cas 1 : score a levé KeyError: 'missing'\nComment corriger : ")
    assert "\nConseils : L'optimiseur" in cases[6].findtext("system-out")
    assert cases[8].get("name") == 'cas 1: text: "bye"'
    assert cases[8].find("failure").get("message") == (
        "échec à Valeur de retour de la métrique : score a levé KeyError: 'missing'"
    )
    assert cases[8].findtext("system-out").splitlines()[1] == '    entrée : text: "bye"'
    skipped = cases[3].find("skipped")
    assert skipped.text is None and skipped.get("message").startswith("Pas de fonction run")
    commands = gh.report_annotations(report, "failing.py")
    assert commands[0].startswith(
        "::error file=failing.py,line=4,title=Valeur de retour de la métrique::Cas 1 : score a "
        "levé KeyError: 'missing'%0AComment corriger : score a levé une exception à "
    )
    every = suite_of(report_of("one_argument.py"), "one_argument.py").findall("testcase")[-1]
    assert every.get("time") == "0.000"


def test_a_metric_failing_in_a_module_it_imports_is_annotated_at_its_own_line(project, monkeypatch):
    (project / "checks.py").write_text("def check(text):\n    raise KeyError(text)\n")
    (project / "uses.py").write_text(
        "from checks import check\n\n\ndef score(input, output, expected=None):\n"
        "    return check(input['text'])\n"
    )
    monkeypatch.syspath_prepend(str(project))  # as the CLI's child has the metric's folder
    commands = gh.report_annotations(report_of("uses.py"), "uses.py")
    assert commands[0].startswith("::error file=uses.py,line=5,title=Metric return value::")


def test_a_run_file_failing_at_several_lines_is_annotated_at_the_first_cases(project):
    (project / "two_ways.py").write_text(
        "def run(artifact, case_input):\n    if case_input['text'] == 'hello':\n"
        "        raise RuntimeError('first')\n    raise KeyError('other')\n"
    )
    report = report_of("good.py", output_column=None, run="two_ways.py:run")
    (command,) = [c for c in gh.report_annotations(report, "good.py") if "Run function" in c]
    assert command.startswith("::error file=two_ways.py,line=3,title=Run function::")


def test_the_documents_time_is_the_sum_of_its_suites():
    first = ET.fromstring(junit.no_report_suite("a.py", "A.", "en"))
    first.set("time", "0.5")
    second = ET.fromstring(junit.no_report_suite("b.py", "B.", "en"))
    second.set("time", "1.25")
    root = ET.fromstring(junit.junit_document([ET.tostring(s, "unicode") for s in (first, second)]))
    assert root.get("time") == "1.750"


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


def test_verdicts_without_report_are_said_in_the_language_given(capsys):
    assert supervise._verdict({"event": "interrupted"}, as_json=False, lang="fr") == 130
    assert capsys.readouterr().err == "skynet-check: Interrompu : pas de verdict.\n"
    ended = started("import sys; sys.exit(4)")
    progress = supervise.ProgressLine("Running", "pt", io.StringIO())
    assert supervise._no_verdict(ended, "pt", False, progress) == 3
    assert capsys.readouterr().err == (
        "skynet-check: Sem veredicto: o processo que corria a verificação terminou antes de "
        "escrever o seu relatório (terminou com o código 4). Uma métrica ou função run que chama "
        "os._exit() ou mata o seu processo termina a verificação; a verificação não passou.\n"
    )
    ended.stdout.close()


class _GoneStderr:
    """A stderr that refuses every write (the terminal was closed)."""

    class buffer:  # as sys.stderr.buffer is named
        @staticmethod
        def write(data: bytes) -> int:
            raise OSError(5, "Input/output error")

        @staticmethod
        def flush() -> None:
            raise OSError(5, "Input/output error")


def test_the_childs_stderr_is_drained_even_when_ours_is_gone(monkeypatch):
    # 1 MB through a pipe that holds 64 KB: if we stopped reading, the child would block.
    child_process = started(
        "import sys\nfor _ in range(1024):\n    sys.stderr.write('x' * 1023 + '\\n')\n",
        stderr=subprocess.PIPE,
    )
    monkeypatch.setattr(sys, "stderr", _GoneStderr())
    supervise._pass_on_stderr(child_process, supervise.ProgressLine("R", "en", io.StringIO()))
    assert child_process.wait(timeout=30) == 0
    child_process.stdout.close()
    child_process.stderr.close()


def test_on_a_terminal_the_line_is_in_the_language_and_never_with_json(project, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    french = job.job_from(parse.parse(["good.py", *COLUMN, "--lang", "fr"]), "fr")
    french = job.Job(**{**{f: getattr(french, f) for f in french.__slots__}, "width": 120})
    code, shown = on_a_terminal(monkeypatch, french)
    assert code == 0 and "Vérification du contrat en cours…" in shown
    as_json = job.job_from(parse.parse(["good.py", *COLUMN, "--json"]), "en")
    code, shown = on_a_terminal(monkeypatch, as_json)
    assert code == 0 and "Running the contract check" not in shown and "\x1b" not in shown
    assert json.loads(shown)["passed"] is True


# --- the child, in another language, and against a real model server --------------------


def test_the_childs_usage_errors_are_said_in_the_jobs_language(project):
    (project / "run.py").write_text("def helper():\n    pass\n\n\ndef other():\n    pass\n")
    run = ("good.py", "--data", "cases.csv", "--run", "run.py")
    _, last = checked_in_process(*run, lang="fr")
    assert last["message"] == (
        "Le fichier run run.py ne définit pas de fonction 'run' ; il définit : helper, other. "
        "Nommez-en une après les deux-points : --run FICHIER.py:FONCTION."
    )
    (project / "run.py").write_text("X = 1\n")
    _, last = checked_in_process(*run, lang="fr")
    assert "rien d'appelable" in last["message"]
    (project / "run.py").write_text("raise SyntaxError('made up')\n")
    _, last = checked_in_process(*run, lang="fr")
    # A SyntaxError raised by the file's code has no line: said as line 0, as Python does.
    assert last["message"] == (
        "run.py, ligne 0 : erreur de syntaxe (made up) ; corrigez-la et relancez."
    )
    (project / "raises.py").write_text("raise ValueError('at import')\n")
    _, last = checked_in_process("raises.py", *COLUMN, lang="fr")
    assert last["message"].startswith("Le fichier de métrique raises.py ne se charge pas : ")
    _, last = checked_in_process("good.py", "--data", "gone.csv", *COLUMN[2:], lang="fr")
    assert last["event"] == "usage" and "gone.csv" in last["message"]
    assert not last["message"].startswith("No data file")


def test_the_no_model_sentence_is_in_the_jobs_language(project):
    (project / "judge.py").write_text(
        "from skynet import llm\n\n\ndef score(input, output, expected=None):\n"
        "    return float(llm('Judge it.', output) == 'yes'), {'feedback': 'judged'}\n"
    )
    _, last = checked_in_process("judge.py", *COLUMN, lang="fr")
    assert last["message"].startswith(
        "La vérification ne peut pas tourner sans modèle : score appelle llm(), qui interroge "
        "le modèle de la métrique, et aucun n'est défini : "
    )
    assert last["message"].endswith(
        "En ligne de commande : --metric-model MODÈLE (un nom de modèle litellm)."
    )


def test_missing_model_reads_cases_without_a_hint_id():
    said = "ModelNotConfigured: No task model is set"
    bare = SimpleNamespace(failed_step="run_function", traceback=None, error=said)
    assert child._missing_model(SimpleNamespace(cases=[bare])) == "task"


def test_a_missing_function_reported_by_an_object_without_a_file_is_shown_as_raised():
    problem = AttributeError("no run here", name="run", obj=SimpleNamespace())
    assert child._no_function(problem, "run.py", "en") == "no run here"


def test_the_child_adds_no_separator_between_annotations(project):
    _, last = checked_in_process("failing.py", *COLUMN, "--format", "github")
    lines = last["output"].splitlines()
    assert lines[0].startswith("::error ") and lines[1].startswith("::warning ")


def test_the_child_makes_the_run_files_folder_importable_and_loads_it_once(project):
    (project / "lib").mkdir()
    (project / "lib" / "neighbor.py").write_text("ANSWER = 'greeting'\n")
    (project / "lib" / "run.py").write_text(
        "import pathlib\nfrom neighbor import ANSWER\n\n"
        "with pathlib.Path('imports.log').open('a') as log:\n    log.write('imported\\n')\n\n\n"
        "def run(artifact, case_input):\n    return ANSWER\n"
    )
    before = list(sys.path)
    args = ("good.py", "--data", "cases.csv", "--outputs", "label", "--run", "lib/run.py:run")
    _, last = checked_in_process(*args, "--all", "--json")
    here = str(project.resolve())
    assert sys.path == [here, f"{here}/lib", *before]  # put before, nothing replaced
    document = json.loads(last["output"])
    assert document["kind"] == "eval"
    assert [case["output"] for case in document["cases"]] == ["greeting"] * 3
    assert (project / "imports.log").read_text() == "imported\n"  # loaded once, by the child


def test_each_case_gets_the_models_at_api_base_and_the_cache_dirs_cache(project):
    # What a case's llm() would use, read where llm() reads it (no model is called: the
    # real calls, through litellm to a loopback server, are tests/cli/test_models.py's).
    # A model given makes the engine import litellm: seconds, once per test process.
    (project / "peek.py").write_text(
        "from skynet_jupyter.models.case_context import current_case\n\n\n"
        "def run(artifact, case_input):\n    case = current_case.get()\n"
        "    disk = case.call_cache.disk if case.call_cache is not None else None\n"
        "    path = None if disk is None else str(disk.path)\n"
        "    return [case.models.task_model, case.models.metric_model, path]\n"
    )
    args = ("good.py", "--data", "cases.csv", "--outputs", "label", "--run", "peek.py:run")
    given = ("--task-model", "openai/task-x", "--api-base", "http://127.0.0.1:9/v1")
    _, last = checked_in_process(*args, *given, "--cache-dir", "cache", "--json", "--cases", "1")
    (case,) = json.loads(last["output"])["cases"]
    assert case["output"] == [
        {"model": "openai/task-x", "api_base": "http://127.0.0.1:9/v1"},
        None,
        str(project.resolve() / "cache" / "runs.sqlite"),
    ]
    _, last = checked_in_process(*args, "--task-model", "openai/t", "--json", "--cases", "1")
    assert json.loads(last["output"])["cases"][0]["output"] == ["openai/t", None, None]


def test_the_childs_inner_reasons_are_in_the_jobs_language_too(project, monkeypatch):
    import types

    (project / "raises.py").write_text("raise ValueError('at import')\n")
    _, last = checked_in_process("raises.py", *COLUMN, lang="fr")
    assert last["message"].startswith(
        "Le fichier de métrique raises.py ne se charge pas : La métrique a échoué au chargement"
    )
    parsed = parse.parse(["good.py", "--data", "cases.csv", "--run", "run.py"])
    made_job = job.job_from(parsed, "fr")
    (project / "run.py").write_bytes(b"x = 1\n# \xff\n")  # changed since it was read
    last = child._check(made_job, lambda message: None)
    assert last["message"].startswith("run.py n'est pas un texte utf-8 valide (octet 0xff ligne 2)")
    theirs = types.ModuleType("skynet")
    theirs.__file__ = str(project / "skynet.py")
    monkeypatch.setitem(sys.modules, "skynet", theirs)
    (project / "helped.py").write_text("from skynet import llm\n")
    _, last = checked_in_process("helped.py", *COLUMN, lang="fr")
    assert last["message"].endswith(
        f"`import skynet` donne votre propre module {project / 'skynet.py'}, et non les outils "
        "Skynet (llm, reward, observation, service_cost) : renommez-le (ou sortez-le du dossier "
        "et du chemin) pour que le code de la métrique les obtienne."
    )


def test_the_jobs_refusals_are_said_in_french(project):
    assert refused("good.py", *COLUMN, "--task-model", " ", lang="fr") == (
        "--task-model demande un nom de modèle litellm, comme openai/gpt-4o-mini."
    )
    assert refused("good.py", *COLUMN, "--api-base", "ftp://h", lang="fr") == (
        "--api-base doit être une adresse http:// ou https:// (comme http://localhost:8000/v1), "
        "reçu 'ftp://h'."
    )
    assert str(read_refused("good.py", "--data", "d", "--run", "gone.py", lang="fr")) == (
        "Aucun fichier run à gone.py : vérifiez le chemin donné à --run FICHIER.py:FONCTION."
    )
    (project / "folder").mkdir()
    assert str(read_refused("folder", *COLUMN, lang="fr")) == (
        "folder est un dossier, pas un fichier Python : donnez le chemin du fichier."
    )
    with pytest.raises(exits.UsageProblem) as problem:
        job.job_from(parse.parse(["good.py", "failing.py", *COLUMN, "--json"]), "fr", "good.py")
    assert str(problem.value) == (
        "--json affiche un seul rapport, d'un seul fichier de métrique, et 2 ont été donnés : "
        "lancez skynet-check une fois par fichier de métrique, ou retirez --json."
    )
    (project / "link").symlink_to(project / "elsewhere.xml")
    assert refused("good.py", *COLUMN, "--junit-xml", "link", lang="fr") == (
        "--junit-xml link est un lien symbolique : le rapport n'est pas écrit à travers les "
        "liens ; donnez le chemin du fichier lui-même."
    )
    assert refused("good.py", *COLUMN, "--load-timeout", "601", lang="fr") == (
        "--load-timeout doit être entre 1 et 600 secondes, reçu 601."
    )
