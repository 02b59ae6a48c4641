"""skynet-check, run as a real command in a subprocess."""

from __future__ import annotations

import json

import pytest

from tests.cli_support import skynet_check
from tests.conftest import EXAMPLES

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
    assert "score a renvoyé seulement un nombre, pas une paire" in done.stdout


def test_all_evaluates_every_case():
    done = skynet_check(*EXAMPLE_ARGS, "--all", "--json")
    document = json.loads(done.stdout)
    assert document["kind"] == "eval" and len(document["cases"]) == 30


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"--outputs": "labl"}, "--outputs: no column 'labl'. Did you mean 'label'?"),
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
    # The script pip installed beside this Python: found without PATH (an unactivated venv).
    done = skynet_check(*EXAMPLE_ARGS, "--json", how="script", unset=["PATH"])
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["passed"] is True
    assert [c["output"] for c in document["cases"]] == ["billing", "technical", "billing"]
    assert [c["score"] for c in document["cases"]] == [1.0, 1.0, 1.0]


ROWS = [
    {
        "text": f"I was charged twice ({n}).",
        "note": f"n{n}",
        "label": "billing",
        "prediction": "billing" if n % 3 else "other",
        "split": "test" if n % 2 else "train",
    }
    for n in range(8)
]
STRICT_METRIC = """\
def score(input, output, expected=None):
    # Fails loudly if a column it must not see reaches it.
    assert set(input) == {"text"}, sorted(input)
    want = expected["label"]
    return (1.0 if output == want else 0.0), {"feedback": f"{output} for {input['text']}"}
"""


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_inputs_split_and_the_output_column(tmp_path, suffix):
    data = tmp_path / f"cases{suffix}"
    if suffix == ".csv":
        header = list(ROWS[0])
        lines = [",".join(header)] + [",".join(str(row[k]) for k in header) for row in ROWS]
        data.write_text("\n".join(lines) + "\n")
    else:
        data.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    metric = tmp_path / "metric.py"
    metric.write_text(STRICT_METRIC)
    base = [str(metric), "--data", str(data), "--outputs", "label"]
    column = ["--output-column", "prediction", "--split", "test", "--all", "--json"]

    done = skynet_check(*base, "--inputs", "text", *column)
    assert done.returncode == 0, done.stdout + done.stderr
    cases = json.loads(done.stdout)["cases"]
    test_rows = [row for row in ROWS if row["split"] == "test"]
    assert [c["input"] for c in cases] == [{"text": row["text"]} for row in test_rows]
    assert [c["output"] for c in cases] == [row["prediction"] for row in test_rows]
    assert [c["score"] for c in cases] == [1.0, 0.0, 1.0, 1.0]

    # Without --inputs every other column is an input (but never the output column nor
    # the split column), so this metric's own assertion fails on "note".
    done = skynet_check(*base, *column)
    assert done.returncode == 1
    assert "AssertionError: ['note', 'text']" in done.stdout

    run = tmp_path / "run.py"
    run.write_text(
        "def run(artifact, input):\n"
        "    assert set(input) == {'text'}, sorted(input)\n"
        "    return 'billing'\n"
    )
    done = skynet_check(
        *base, "--inputs", "text", "--split", "train", "--run", f"{run}:run", "--json"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    cases = json.loads(done.stdout)["cases"]
    assert [c["input"]["text"] for c in cases] == [row["text"] for row in ROWS[0:6:2]]

    done = skynet_check(*base, "--inputs", "text", "--split", "dev", "--output-column", "label")
    assert done.returncode == 2
    assert "No rows in split 'dev'; the splits present are: test, train." in done.stderr
