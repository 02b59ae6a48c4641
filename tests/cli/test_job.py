"""skynet-check's parts in process: the arguments become one checked Job (its RunOptions),
which crosses to the child intact; parsing keeps no state from one call to the next."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from skynet_jupyter.cli.exits import UsageProblem
from skynet_jupyter.cli.job import Job, job_from
from skynet_jupyter.cli.parse import parse
from skynet_jupyter.core.keywords import CHECK_CONCURRENCY
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.core.options import (
    CHECK_CASES,
    EVAL_CONCURRENCY,
    Isolation,
    RunOptions,
)

METRIC = """
def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}
"""


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    metric = tmp_path / "metric.py"
    metric.write_text(METRIC)
    data = tmp_path / "cases.csv"
    data.write_text("q,label\n1,x\n")
    run = tmp_path / "run.py"
    run.write_text("def run(artifact, case_input):\n    return 'x'\n")
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Label it.")
    return {"metric": metric, "data": data, "run": run, "prompt": prompt}


def job(files: dict[str, Path], *args: str, lang: str = "en") -> Job:
    raw = [str(files["metric"]), "--data", str(files["data"]), "--outputs", "label", *args]
    return job_from(parse(raw), lang)


def test_a_check_carries_the_options_check_would_use(files):
    made = job(files, "--output-column", "label", "--timeout", "5", "--isolation", "process")
    assert made.kind == "check"
    assert made.options == RunOptions.given(
        outputs="label",
        output_column="label",
        cases=CHECK_CASES,
        timeout=5.0,
        isolation="process",
        lang="en",
        models=ModelSettings(),
        concurrency=CHECK_CONCURRENCY,
    )
    # The check's cases side by side (issue 45, item 2), as sj.check runs them.
    assert made.options.isolation is Isolation.PROCESS
    assert made.options.concurrency == CHECK_CONCURRENCY


def test_all_is_an_evaluation_of_every_case_with_evaluates_concurrency(files):
    made = job(files, "--output-column", "label", "--all", "--lang", "fr", lang="fr")
    assert made.kind == "eval"
    assert made.options.cases is None and made.options.concurrency == EVAL_CONCURRENCY
    assert made.lang == "fr" and made.options.lang == "fr"
    limited = job(files, "--output-column", "label", "--all", "--cases", "7")
    assert limited.options.cases == 7


def test_run_artifact_and_models_are_in_the_options(files):
    made = job(
        files,
        "--run",
        f"{files['run']}:run",
        "--artifact",
        str(files["prompt"]),
        "--task-model",
        "openai/gpt-4o-mini",
        "--api-base",
        "http://localhost:8000/v1",
        "--json",
    )
    # The run function stays "FILE.py:FUNC": only the child imports the user's code.
    assert made.options.run == f"{files['run']}:run"
    assert made.options.artifact == "Label it."
    assert made.options.models == ModelSettings(task_model="openai/gpt-4o-mini")
    assert made.api_base == "http://localhost:8000/v1"
    assert made.as_json is True and made.width == 0  # --json is never wrapped
    inline = job(files, "--run", f"{files['run']}:run", "--artifact-text", "Inline.")
    assert inline.options.artifact == "Inline."


def test_the_job_crosses_to_the_child_intact(files):
    made = job(files, "--run", f"{files['run']}:run", "--artifact", str(files["prompt"]))
    again = pickle.loads(pickle.dumps(made))
    assert again == made
    assert again.options.isolation is Isolation.THREAD and again.options.language == "en"


def test_cases_zero_is_refused_for_a_check_too(files):
    # The check's default of 3 applies only when --cases is not given.
    with pytest.raises(UsageProblem, match=r"^--cases must be 1 or more, got 0\.$"):
        job(files, "--output-column", "label", "--cases", "0")


def test_the_rules_come_before_the_files(files, tmp_path):
    # A bad number is said before the missing artifact file, as before the split.
    with pytest.raises(UsageProblem, match=r"^--timeout must be between 1 and 600"):
        job(files, "--run", f"{files['run']}:run", "--artifact", "missing.txt", "--timeout", "0")
    with pytest.raises(UsageProblem, match=r"^No artifact file at missing\.txt"):
        job(files, "--run", f"{files['run']}:run", "--artifact", "missing.txt")


def test_each_refusal_is_said_in_its_own_calls_language(capsys):
    # Nothing is kept from one parse to the next: the second says English again.
    for lang, said in (
        ("fr", "erreur : l'argument --output-column ne peut pas être donné avec l'argument --run"),
        ("en", "error: argument --output-column: not allowed with argument --run"),
    ):
        raw = ["m.py", "--data", "d.csv", "--run", "r.py", "--output-column", "x", "--lang", lang]
        with pytest.raises(SystemExit) as ended:
            parse(raw)
        assert ended.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("usage: skynet-check")
        assert f"skynet-check: {said}\n" in err
    with pytest.raises(SystemExit):
        parse(["m.py", "--json"])
    captured = capsys.readouterr()
    assert '"error": "usage"' in captured.out
    assert "the following arguments are required: --data" in captured.err


def test_importing_the_package_imports_none_of_its_jobs():
    code = (
        "import sys, skynet_jupyter.cli as cli; assert callable(cli.main); "
        "print(sorted(m for m in sys.modules if m.startswith('skynet_jupyter.cli.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
