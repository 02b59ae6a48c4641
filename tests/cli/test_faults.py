"""skynet-check under faults, through the installed console script in a subprocess.

Every case asserts the exit code and, with --json, that stdout is exactly one
strict JSON document (no NaN, no Infinity) whatever the metric prints or does.
Usage problems exit 2 with one sentence naming the file or option, never a
traceback; a metric that ends its own process gives no verdict (exit 3), never
a pass.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests import cli_support
from tests.conftest import EXAMPLES

GOOD = """\
def score(input, output, expected=None):
    return (1.0 if output == expected["label"] else 0.0), {"feedback": "Compared."}
"""


def skynet_check(*args: object, timeout: float = 120, env: dict | None = None):
    """The installed command, as users run it (the one runner and its environment rule)."""
    return cli_support.skynet_check(*args, how="script", timeout=timeout, env=env)


def strict(text: str) -> dict:
    """The one JSON document in ``text``: strict (NaN and Infinity are refused)."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"not strict JSON: {constant}")

    return json.loads(text, parse_constant=refuse)  # json.loads fails on trailing text


@pytest.fixture
def cases(tmp_path) -> Path:
    data = tmp_path / "cases.csv"
    data.write_text("text,label\nI was charged twice.,billing\nThe app crashes.,technical\n")
    return data


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def column_args(metric: Path, data: Path) -> list:
    return [metric, "--data", data, "--outputs", "label", "--output-column", "label"]


def assert_usage(done, *says: str) -> dict:
    """Exit 2, one line on stderr naming the problem, no traceback; the JSON document."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    for words in says:
        assert words in done.stderr, (words, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.startswith("skynet-check:")]
    assert len(lines) == 1, done.stderr
    document = strict(done.stdout)
    assert document["passed"] is False and document["error"] == "usage"
    assert document["exit_code"] == 2
    return document


# --- --json: one strict document, whatever is printed ---------------------------------


def test_prints_from_metric_and_run_go_to_stderr_not_into_the_json(tmp_path, cases):
    metric = write(
        tmp_path / "metric.py",
        "import os, sys\n"
        "print('metric imported')\n"
        "def score(input, output, expected=None):\n"
        "    print('scoring', output)\n"
        '    sys.stdout.write(\'{"not": "the report"}\\n\')\n'
        "    os.write(1, b'written to fd 1 from C\\n')\n"
        "    return 1.0, {'feedback': 'Fine.'}\n",
    )
    run = write(
        tmp_path / "run.py",
        "print('run imported')\ndef run(artifact, input):\n    print('running')\n    return 'x'\n",
    )
    done = skynet_check(metric, "--data", cases, "--outputs", "label", "--run", run, "--json")
    assert done.returncode == 0, done.stderr
    document = strict(done.stdout)
    assert document["passed"] is True and len(document["cases"]) == 2
    for printed in ("metric imported", "scoring x", "not", "written to fd 1", "running"):
        assert printed in done.stderr
    # Text mode too: the report alone on stdout.
    done = skynet_check(metric, "--data", cases, "--outputs", "label", "--run", run)
    assert done.returncode == 0
    assert "written to fd 1" not in done.stdout and "Contract check passed" in done.stdout


def test_non_finite_values_are_null_with_a_field_saying_what_they_were(tmp_path):
    data = write(
        tmp_path / "cases.jsonl",
        '{"x": 1, "label": "a", "out": 1}\n{"x": 2, "label": "b", "out": 2}\n',
    )
    metric = write(
        tmp_path / "metric.py",
        "def score(input, output, expected=None):\n"
        "    return 1e308, {'feedback': 'Huge.', 'scores': {'big': 1e308}}\n",
    )
    run = write(
        tmp_path / "run.py",
        "def run(artifact, input):\n"
        "    return {'value': float('nan'), 'low': -float('inf'), 'ok': 1.5}\n",
    )
    done = skynet_check(
        metric, "--data", data, "--outputs", "label", "--run", run, "--json", "--all"
    )
    assert done.returncode == 0, done.stderr
    document = strict(done.stdout)
    json.dumps(document, allow_nan=False)  # and it writes back strictly
    assert document["mean_score"] is None  # 1e308 + 1e308 overflows: the mean is infinite
    assert document["cases"][0]["output"] == {"value": None, "low": None, "ok": 1.5}
    assert document["non_finite"] == {
        "/cases/0/output/low": "-Infinity",
        "/cases/0/output/value": "NaN",
        "/cases/1/output/low": "-Infinity",
        "/cases/1/output/value": "NaN",
        "/mean_score": "Infinity",
        "/mean_scores/big": "Infinity",
    }


# --- usage problems: exit 2, one sentence naming the file or option -------------------


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (["--cases", "0"], "--cases must be 1 or more, got 0"),
        (["--cases", "-3"], "--cases must be 1 or more, got -3"),
        (["--timeout", "0"], "--timeout must be between 1 and 600 seconds, got 0"),
        (["--timeout", "601"], "--timeout must be between 1 and 600 seconds, got 601"),
        (["--timeout", "nan"], "--timeout must be between 1 and 600 seconds, got nan"),
        (["--run-timeout", "0.5"], "--run-timeout must be between 1 and 86400 seconds"),
        (["--run-timeout", "inf"], "--run-timeout must be between 1 and 86400 seconds, got inf"),
        (["--load-timeout", "0"], "--load-timeout must be between 1 and 600 seconds"),
        (["--cases", "two"], "argument --cases: invalid int value: 'two'"),
        (["--isolation", "fork"], "argument --isolation: invalid choice: 'fork'"),
    ],
)
def test_bad_numbers_and_choices_exit_2_naming_the_option(tmp_path, cases, change, says):
    metric = write(tmp_path / "metric.py", GOOD)
    done = skynet_check(*column_args(metric, cases), *change, "--json")
    if change[0] in ("--cases", "--isolation") and not change[1].lstrip("-").isdigit():
        # argparse's own message, after its usage line
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
        assert strict(done.stdout)["error"] == "usage"
    else:
        assert_usage(done, says)


def test_a_directory_where_a_file_is_expected(tmp_path, cases):
    folder = tmp_path / "folder.py"
    folder.mkdir()
    metric = write(tmp_path / "metric.py", GOOD)
    assert_usage(skynet_check(*column_args(folder, cases), "--json"), f"{folder} is a directory")
    done = skynet_check(metric, "--data", cases, "--outputs", "label", "--run", f"{folder}:run")
    assert done.returncode == 2 and f"{folder} is a directory" in done.stderr
    done = skynet_check(
        metric, "--data", cases, "--outputs", "label", "--run", f"{metric}:score",
        "--artifact", folder, "--json",
    )  # fmt: skip
    assert_usage(done, f"{folder} is a directory")
    data_folder = tmp_path / "data.csv"
    data_folder.mkdir()
    assert_usage(
        skynet_check(*column_args(metric, data_folder), "--json"), f"{data_folder} is a directory"
    )


def test_a_named_pipe_as_the_metric_is_refused_without_blocking(tmp_path, cases):
    pipe = tmp_path / "metric.py"
    os.mkfifo(pipe)
    started = time.monotonic()
    done = skynet_check(*column_args(pipe, cases), "--json", timeout=60)
    assert_usage(done, f"{pipe} is not a regular file")
    assert time.monotonic() - started < 30


def test_an_unreadable_metric_file(tmp_path, cases):
    # /proc/self/mem exists and cannot be read from offset 0 (EIO), even by root.
    assert_usage(
        skynet_check(*column_args(Path("/proc/self/mem"), cases), "--json"),
        "Cannot read /proc/self/mem",
    )
    if os.geteuid() != 0:  # root reads through permissions
        locked = write(tmp_path / "metric.py", GOOD)
        locked.chmod(0)
        assert_usage(skynet_check(*column_args(locked, cases), "--json"), f"Cannot read {locked}")


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("def score(input, output:\n    return 1\n", "line 1: syntax error"),
        ("import os\n\nimport no_such_module_here\n", "on line 3: ModuleNotFoundError"),
        ("x = 1\nraise RuntimeError('broken at import')\n", "on line 2: RuntimeError"),
        ("import sys\nsys.exit(0)\n" + GOOD, "on line 2: SystemExit: 0"),
    ],
)
def test_a_metric_file_that_does_not_load_names_the_file_and_line(tmp_path, cases, source, says):
    metric = write(tmp_path / "metric.py", source)
    assert_usage(skynet_check(*column_args(metric, cases), "--json"), str(metric), says)


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("def run(artifact, input)\n    return 1\n", "line 1: syntax error"),
        ("import os\nimport no_such_module_here\n", "on line 2: ModuleNotFoundError"),
        ("def other():\n    pass\n", "defines no function 'run'"),
        ("import sys\nsys.exit(0)\n", "on line 2: SystemExit: 0"),
    ],
)
def test_a_run_file_that_does_not_load_names_the_file_and_line(tmp_path, cases, source, says):
    metric = write(tmp_path / "metric.py", GOOD)
    run = write(tmp_path / "run.py", source)
    done = skynet_check(metric, "--data", cases, "--outputs", "label", "--run", run, "--json")
    assert_usage(done, "run.py", says)


def test_source_that_is_not_utf8_names_the_file_and_a_coding_line_is_honoured(tmp_path, cases):
    latin = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'Bien reçu.'}\n"
    metric = tmp_path / "metric.py"
    metric.write_bytes(latin.encode("latin-1"))
    assert_usage(
        skynet_check(*column_args(metric, cases), "--json"),
        f"{metric} is not valid utf-8 text (byte 0xe7 on line 2)",
        "coding",
    )
    metric.write_bytes(b"# -*- coding: latin-1 -*-\n" + latin.encode("latin-1"))
    done = skynet_check(*column_args(metric, cases), "--json")
    assert done.returncode == 0, done.stderr
    assert strict(done.stdout)["cases"][0]["feedback"] == "Bien reçu."
    run = tmp_path / "run.py"
    run.write_bytes(b"def run(artifact, input):\n    return '\xe9'\n")
    done = skynet_check(metric, "--data", cases, "--outputs", "label", "--run", run, "--json")
    assert_usage(done, f"{run} is not valid utf-8 text")
    artifact = tmp_path / "prompt.txt"
    artifact.write_bytes(b"caf\xe9\n")
    run.write_text("def run(artifact, input):\n    return artifact\n")
    done = skynet_check(
        metric, "--data", cases, "--outputs", "label", "--run", run, "--artifact", artifact,
        "--json",
    )  # fmt: skip
    assert_usage(done, f"The artifact file {artifact} is not UTF-8 text (byte 0xe9 on line 1)")


def test_missing_files_name_the_path(tmp_path, cases):
    metric = write(tmp_path / "metric.py", GOOD)
    assert_usage(
        skynet_check(*column_args(tmp_path / "nope.py", cases), "--json"), "No metric file"
    )
    done = skynet_check(*column_args(metric, tmp_path / "nope.csv"), "--json")
    assert_usage(done, "No data file", "nope.csv")


# --- no verdict: the process running the check ended ---------------------------------


@pytest.mark.parametrize(
    ("body", "how"),
    [
        ("os._exit(0)", "it exited with code 0"),
        ("os.kill(os.getpid(), signal.SIGKILL)", "killed by the signal SIGKILL"),
    ],
)
@pytest.mark.parametrize("where", ["score", "import"])
def test_a_metric_that_ends_its_process_is_never_a_pass(tmp_path, cases, body, how, where):
    if where == "score":
        source = (
            "import os, signal\n"
            "def score(input, output, expected=None):\n"
            f"    {body}\n"
            "    return 1.0, {'feedback': 'Fine.'}\n"
        )
    else:
        source = f"import os, signal\n{body}\n" + GOOD
    metric = write(tmp_path / "metric.py", source)
    done = skynet_check(*column_args(metric, cases), "--json")
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert how in done.stderr and "the check did not pass" in done.stderr
    document = strict(done.stdout)
    assert document == {
        "passed": False,
        "error": "no_verdict",
        "message": document["message"],
        "exit_code": 3,
    }
    assert "os._exit()" in document["message"]
    done = skynet_check(*column_args(metric, cases))
    assert done.returncode == 3 and done.stdout == ""


def test_a_run_function_that_exits_is_never_a_pass(tmp_path, cases):
    metric = write(tmp_path / "metric.py", GOOD)
    run = write(tmp_path / "run.py", "import os\ndef run(artifact, input):\n    os._exit(0)\n")
    done = skynet_check(metric, "--data", cases, "--outputs", "label", "--run", run)
    assert done.returncode == 3 and "No verdict" in done.stderr


# --- time limits: importing, running -------------------------------------------------


def test_a_metric_that_hangs_while_imported_is_stopped_at_the_load_timeout(tmp_path, cases):
    metric = write(tmp_path / "metric.py", "import time\ntime.sleep(300)\n" + GOOD)
    started = time.monotonic()
    done = skynet_check(*column_args(metric, cases), "--load-timeout", "2", "--json")
    elapsed = time.monotonic() - started
    assert_usage(done, f"{metric} was still loading after 2 s (--load-timeout)")
    assert elapsed < 60, elapsed  # 2 s, plus two interpreters starting on a loaded machine


def test_the_run_timeout_is_settable(tmp_path, cases):
    metric = write(tmp_path / "metric.py", GOOD)
    run = write(tmp_path / "run.py", "import time\ndef run(artifact, input):\n    time.sleep(30)\n")
    started = time.monotonic()
    done = skynet_check(
        metric, "--data", cases, "--outputs", "label", "--run", run, "--run-timeout", "1",
        "--cases", "1", "--json",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    document = strict(done.stdout)
    assert document["cases"][0]["failed_step"] == "run_function"
    assert "longer than 1 s" in document["cases"][0]["error"]
    assert time.monotonic() - started < 25


def test_help_documents_the_limits_and_exit_codes():
    done = skynet_check("--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for words in (
        "--run-timeout SECONDS",
        "--load-timeout SECONDS",
        "--isolation {thread,process}",
        "default 600",
        "3 no verdict",
        "prints from the metric or run go to stderr",
    ):
        assert words in text, words


# --- no model: a usage error with the way to set one ---------------------------------


def test_no_metric_model_is_a_usage_error_naming_how_to_set_one(tmp_path, cases):
    metric = write(
        tmp_path / "metric.py",
        "from skynet import llm\n"
        "def score(input, output, expected=None):\n"
        "    verdict = llm('Is this right?', output)\n"
        "    return 1.0, {'feedback': verdict}\n",
    )
    document = assert_usage(
        skynet_check(*column_args(metric, cases), "--json"),
        "SKYNET_METRIC_MODEL",
        "configure(metric_model=...)",
        "%config SkynetMagics.metric_model",
    )
    assert document["message"].startswith("The check cannot run without a model")


def test_no_task_model_is_a_usage_error_too(tmp_path, cases):
    metric = write(tmp_path / "metric.py", GOOD)
    run = write(
        tmp_path / "run.py",
        "from skynet import llm\ndef run(artifact, input):\n    return llm('Label it.', input)\n",
    )
    done = skynet_check(metric, "--data", cases, "--outputs", "label", "--run", run)
    assert done.returncode == 2 and "SKYNET_TASK_MODEL" in done.stderr


def test_the_example_still_passes_in_every_isolation():
    example = [
        EXAMPLES / "metric.py",
        "--data", EXAMPLES / "tickets.csv", "--outputs", "label",
        "--run", f"{EXAMPLES / 'classify.py'}:run", "--artifact", EXAMPLES / "prompt.txt",
    ]  # fmt: skip
    for isolation in ("thread", "process"):
        done = skynet_check(*example, "--isolation", isolation, "--json")
        assert done.returncode == 0, (isolation, done.stderr)
        assert strict(done.stdout)["passed"] is True


SLOW = """\
import time
def score(input, output, expected=None):
    time.sleep(60)
    return 1.0, {"feedback": "Slow."}
"""


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent has not read its code yet


def start_scoring(tmp_path: Path, cases: Path) -> tuple[subprocess.Popen, int]:
    """skynet-check with a metric that sleeps; (the process, its child) once scoring."""
    metric = write(tmp_path / "metric.py", SLOW)
    process = subprocess.Popen(
        [
            *cli_support.skynet_check_command("script"),
            *map(str, column_args(metric, cases)),
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_support.cli_env(),
    )
    deadline = time.monotonic() + 60
    while not children_of(process.pid):
        assert time.monotonic() < deadline, "the check never started"
        time.sleep(0.1)
    (child,) = children_of(process.pid)
    time.sleep(4)  # past importing: the metric is sleeping
    return process, child


def test_ctrl_c_gives_no_pass_and_one_json_document(tmp_path, cases, ctrl_c):
    process, child = start_scoring(tmp_path, cases)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert strict(stdout)["passed"] is False
    assert "Traceback" not in stderr
    assert not alive(child)


def test_sigterm_ends_the_check_it_started(tmp_path, cases):
    process, child = start_scoring(tmp_path, cases)
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    assert not alive(child)  # its own process group: ended by skynet-check, not left running


def test_a_killed_skynet_check_leaves_no_orphan_working(tmp_path, cases):
    process, child = start_scoring(tmp_path, cases)
    process.kill()
    process.communicate(timeout=60)
    deadline = time.monotonic() + 30
    while alive(child):
        assert time.monotonic() < deadline, "the child outlived skynet-check"
        time.sleep(0.2)


def test_a_metric_that_loads_but_breaks_the_contract_is_a_failed_report_not_usage(tmp_path, cases):
    metric = write(tmp_path / "metric.py", "def grade(input, output):\n    return 1.0\n")
    done = skynet_check(*column_args(metric, cases), "--json")
    assert done.returncode == 1, done.stderr
    document = strict(done.stdout)
    failed = [step["id"] for step in document["steps"] if step["status"] == "failed"]
    assert failed == ["metric_signature"]


def test_no_verdict_even_when_a_leftover_process_holds_the_channel_open(tmp_path, cases):
    # A process forked at import keeps every descriptor of the check, its channel too:
    # no end of file ever comes, yet the check ended without a report.
    metric = write(
        tmp_path / "metric.py",
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    time.sleep(120)\n"
        "    os._exit(0)\n"
        "def score(input, output, expected=None):\n"
        "    os._exit(0)\n",
    )
    started = time.monotonic()
    done = skynet_check(*column_args(metric, cases), "--json", timeout=100)
    assert done.returncode == 3, done.stderr
    assert strict(done.stdout)["error"] == "no_verdict"
    assert time.monotonic() - started < 60  # not the leftover's 120 s
