"""``cli/job.py``: every option checked into one Job.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import os
import sys

import pytest

from skynet_jupyter.cli import (
    exits,
    job,
    parse,
)
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.core.options import (
    CHECK_CASES,
    CHECK_CONCURRENCY,
    EVAL_CONCURRENCY,
    RunOptions,
)
from tests.cli.in_process_support import (
    COLUMN,
    read_refused,
)

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
        concurrency=CHECK_CONCURRENCY,  # the check's cases side by side (issue 45, item 2)
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
    assert (some.options.cases, some.options.concurrency) == (2, CHECK_CONCURRENCY)
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


# --- the edges: each found by asking what a changed line would still let through ---------


def test_api_base_with_several_at_signs_shows_only_the_host(project):
    assert refused("good.py", *COLUMN, "--api-base", "ftp://u@p@host") == (
        "--api-base must be an http:// or https:// address (such as http://localhost:8000/v1), "
        "got '…@host'."
    )
    assert refused("good.py", *COLUMN, "--api-base", " ftp://h ").endswith("got 'ftp://h'.")


# --- the child, in another language, and against a real model server ---------------------


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
