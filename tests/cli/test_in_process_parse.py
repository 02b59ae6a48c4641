"""``cli/parse.py``: every option, its default, the help, the refusals in the user's language.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import json

import pytest

from skynet_jupyter.cli import (
    job,
    parse,
)
from skynet_jupyter.core.options import (
    MAX_RUN_TIMEOUT,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    RUN_TIMEOUT,
)
from tests.cli.in_process_support import (
    words,
)

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
        "log_dir": None,
        "no_log": False,
        "against": None,
        "allow_different_data": False,
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
         "--junit-xml", "r.xml", "--log-dir", "s3://b/runs", "--no-log", "--against", "last~1",
         "--allow-different-data"]
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
        "log_dir": "s3://b/runs",
        "no_log": True,
        "against": "last~1",
        "allow_different_data": True,
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
    "called os._exit() or was killed), 130 interrupted (Ctrl-C), 141 the reader of stdout "
    "went away (| head). The check runs in a child process: prints from the metric or run go "
    "to stderr.",
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


# --- the edges: each found by asking what a changed line would still let through ---------


def test_a_refusal_naming_a_value_with_a_newline_is_still_translated(capsys):
    with pytest.raises(SystemExit):
        parse.parse([*MINIMAL, "--bogus=a\nb", "--lang", "fr"])
    assert capsys.readouterr().err.endswith(
        "skynet-check: erreur : arguments inconnus : --bogus=a\nb (skynet-check --help les "
        "liste tous)\n"
    )


# --- the edges, in another language: each part must use the language it is given ---------


def test_a_language_given_as_an_odd_value_is_not_taken(monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "pt")
    assert parse._asked_lang(["--lang==fr"]) == "pt"  # its value is "=fr": no language
