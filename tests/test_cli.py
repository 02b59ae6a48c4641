"""skynet-check, run as a real command in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .conftest import EXAMPLES


def skynet_check(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "skynet_jupyter.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


EXAMPLE_ARGS = [
    str(EXAMPLES / "metric.py"),
    "--data",
    str(EXAMPLES / "tickets.csv"),
    "--outputs",
    "label",
    "--run",
    f"{EXAMPLES / 'classify.py'}:run",
    "--artifact",
    str(EXAMPLES / "prompt.txt"),
]


def test_the_example_passes():
    done = skynet_check(*EXAMPLE_ARGS)
    assert done.returncode == 0, done.stderr
    assert "Contract check passed" in done.stdout
    assert "Metric return value" in done.stdout
    assert "case 2" in done.stdout


def test_json_output_is_one_document():
    done = skynet_check(*EXAMPLE_ARGS, "--json")
    assert done.returncode == 0
    document = json.loads(done.stdout)
    assert document["passed"] is True
    assert [s["id"] for s in document["steps"]][:6] == [
        "metric_loads",
        "metric_signature",
        "reward_spec",
        "run_function",
        "metric_return_value",
        "metric_time_limit",
    ]
    assert len(document["cases"]) == 3


def test_a_broken_metric_exits_1_with_the_reason(tmp_path):
    metric = tmp_path / "metric.py"
    metric.write_text("def score(input, output, expected=None):\n    return 0.8\n")
    args = [str(metric), *EXAMPLE_ARGS[1:]]
    done = skynet_check(*args, "--lang", "fr")
    assert done.returncode == 1
    assert "Valeur de retour de la métrique" in done.stdout
    assert "0.8" in done.stdout


def test_all_evaluates_every_case():
    done = skynet_check(*EXAMPLE_ARGS, "--all", "--json")
    document = json.loads(done.stdout)
    assert document["kind"] == "eval" and len(document["cases"]) == 30


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"--outputs": "labl"}, "Unknown column 'labl'"),
        ({"--data": "missing.csv"}, "No data file"),
        ({"--artifact": "missing.txt"}, "No artifact file"),
        ({"--run": "missing.py:run"}, "No run file"),
        ({"--timeout": "0"}, "timeout must be between 1 and 600"),
    ],
)
def test_usage_errors_exit_2_naming_the_problem(change, says):
    args = list(EXAMPLE_ARGS)
    for option, value in change.items():
        if option in args:
            args[args.index(option) + 1] = value
        else:
            args += [option, value]
    done = skynet_check(*args)
    assert done.returncode == 2
    assert says in done.stderr
    assert "Traceback" not in done.stderr


def test_missing_metric_file_exits_2():
    done = skynet_check("nope.py", *EXAMPLE_ARGS[1:])
    assert done.returncode == 2 and "No metric file" in done.stderr


def test_output_column_and_run_are_exclusive():
    done = skynet_check(*EXAMPLE_ARGS, "--output-column", "label")
    assert done.returncode == 2
    assert "not allowed with argument" in done.stderr


def test_installed_console_script():
    done = subprocess.run(["skynet-check", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--output-column" in done.stdout
