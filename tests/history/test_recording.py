"""Every check and evaluation is recorded: from Python, from the magics, from skynet-check;
the record says where it ran, which version of the metric, on which data; the log can be
turned off; the engine records only when asked."""

from __future__ import annotations

import subprocess

import skynet_jupyter as sj
from skynet_jupyter.core.options import RunOptions
from skynet_jupyter.run.engine import execute
from tests.cli_support import skynet_check_command

METRIC_V1 = """
def score(input, output, expected=None):
    if output == expected["label"]:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {expected['label']!r}, got {output!r}."}
"""
METRIC_V2 = METRIC_V1.replace('"Correct."', '"Right."')
ROWS = [
    {"text": "charged twice", "label": "billing", "guess": "billing"},
    {"text": "app crashes", "label": "technical", "guess": "billing"},
    {"text": "office hours", "label": "other", "guess": "other"},
    {"text": "refund", "label": "billing", "guess": "billing"},
]


def checked(log, source=METRIC_V1, rows=ROWS, **options):
    try:
        sj.configure(run_log=log)
        return sj.check(
            sj.load_metric(source), rows, outputs="label", output_column="guess", **options
        )
    finally:
        sj.configure(reset=True)


def test_a_check_and_an_evaluation_are_recorded_from_python(tmp_path):
    checked(tmp_path)
    try:
        sj.configure(run_log=tmp_path)
        sj.evaluate(sj.load_metric(METRIC_V2), ROWS, outputs="label", output_column="guess")
    finally:
        sj.configure(reset=True)
    last, first = sj.history(log=tmp_path)
    assert (first.kind, last.kind) == ("check", "eval")
    assert first.origin == last.origin == "python"
    assert first.version != last.version and first.version and last.version
    assert first.data_size == 3 and last.data_size == 4
    assert first.data_fingerprint != last.data_fingerprint
    assert last.mean == 0.75 and last.passed and last.elapsed_s > 0
    assert first.started <= last.started and last.ended >= last.started
    assert last.options["output_column"] == "guess" and last.options["outputs"] == "label"
    assert last.head["origin"]["package"].startswith("skynet-jupyter ")


def test_the_engine_records_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("SKYNET_RUN_LOG", str(tmp_path))
    options = RunOptions(outputs="label", output_column="guess", cases=2)
    execute("check", sj.load_metric(METRIC_V1), ROWS, options, on_event=None, run_cache=None)
    assert len(sj.history(log=tmp_path)) == 0
    execute(
        "check",
        sj.load_metric(METRIC_V1),
        ROWS,
        options,
        on_event=None,
        run_cache=None,
        record=True,
    )
    assert len(sj.history(log=tmp_path)) == 1


def test_the_log_off_records_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for off in (False, 0):
        checked(off)
    monkeypatch.setenv("SKYNET_RUN_LOG", "0")
    checked(None)
    assert not list(tmp_path.rglob("*.jsonl"))
    assert len(sj.history()) == 0 and "off" in str(sj.history())


def test_reordered_data_is_the_same_data(tmp_path):
    checked(tmp_path, cases=4)
    checked(tmp_path, rows=list(reversed(ROWS)), cases=4)
    new, old = sj.history(log=tmp_path)
    assert new.data_fingerprint == old.data_fingerprint
    same = sj.diff(old, new)
    assert same.empty and len(same.unchanged) == 4


def test_a_record_written_by_the_command_line_reads_the_same_in_python_and_back(tmp_path):
    (tmp_path / "metric.py").write_text(METRIC_V1)
    (tmp_path / "cases.csv").write_text(
        "text,label,guess\n" + "".join(f"{r['text']},{r['label']},{r['guess']}\n" for r in ROWS)
    )
    command = [
        *skynet_check_command(),
        "metric.py",
        "--data",
        "cases.csv",
        "--outputs",
        "label",
        "--output-column",
        "guess",
        "--all",
        "--log-dir",
        "runs",
    ]
    from tests.cli_support import cli_env

    done = subprocess.run(
        command, cwd=tmp_path, env=cli_env(), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    (cli_run,) = sj.history(log=tmp_path / "runs")
    assert cli_run.origin == "cli" and cli_run.metric == "metric.py"
    # The same metric from Python, registered under the file's name: the same version.
    try:
        sj.configure(run_log=tmp_path / "runs")
        metric = sj.load_metric((tmp_path / "metric.py").read_text(), name="metric.py")
        sj.evaluate(metric, str(tmp_path / "cases.csv"), outputs="label", output_column="guess")
    finally:
        sj.configure(reset=True)
    python_run, again = sj.history(log=tmp_path / "runs")
    assert again == cli_run and python_run.version == cli_run.version
    assert python_run.data_fingerprint == cli_run.data_fingerprint
    assert sj.diff(cli_run, python_run).empty
    assert sj.diff(cli_run.report(), python_run.report()).empty
    # ...and back: the command line lists and compares the run Python recorded.
    listed = subprocess.run(
        [
            *skynet_check_command(),
            "diff",
            cli_run.id,
            python_run.id[:20],
            "--json",
            "--log-dir",
            "runs",
        ],
        cwd=tmp_path,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    import json

    document = json.loads(listed.stdout)
    assert document["b"]["id"] == python_run.id and document["b"]["origin"] == "python"
    assert document["counts"]["unchanged"] == 4 and document["regressions"] == []
