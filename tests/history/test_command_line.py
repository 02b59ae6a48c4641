"""skynet-check and the run log: --against last fails on a regression (exit 1), with the diff
in the report, the JUnit file and the GitHub annotations; diff and history subcommands."""

from __future__ import annotations

import json

import pytest

from tests.cli_support import assert_valid_junit, skynet_check

METRIC = """def score(input, output, expected=None):
    if output == expected["label"]:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {expected['label']!r}, got {output!r}."}
"""
STRICTER = METRIC.replace(
    'if output == expected["label"]:', 'if output == expected["label"] != "c":'
)
ARGS = (
    "metric.py",
    "--data",
    "cases.csv",
    "--outputs",
    "label",
    "--output-column",
    "guess",
    "--all",
)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "metric.py").write_text(METRIC)
    (tmp_path / "cases.csv").write_text("text,label,guess\none,a,a\ntwo,b,x\nthree,c,c\nfour,a,a\n")
    return tmp_path


def run(project, *args, **env):
    return skynet_check(*args, cwd=project, env={"SKYNET_RUN_LOG": "", **env})


def test_against_last_passes_then_fails_on_a_regression_everywhere_ci_reads(project):
    first = run(project, *ARGS, "--against", "last")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "nothing to compare with yet" in first.stdout
    same = run(project, *ARGS, "--against", "last")
    assert same.returncode == 0 and "No change" in same.stdout
    (project / "metric.py").write_text(STRICTER)
    worse = run(
        project, *ARGS, "--against", "last", "--junit-xml", "report.xml", "--format", "github"
    )
    assert worse.returncode == 1, worse.stdout + worse.stderr
    assert "1 case regressed against run" in worse.stdout
    assert "[-Correct.-]{+Expected 'c', got 'c'.+}" in worse.stdout
    assert '-    if output == expected["label"]:' in worse.stdout  # the source diff
    annotations = [line for line in worse.stdout.splitlines() if line.startswith("::error ")]
    assert any("title=Regression against" in line and "case 2" in line for line in annotations)
    root = assert_valid_junit((project / "report.xml").read_text())
    failures = [c for c in root.iter("testcase") if c.find("failure") is not None]
    assert any(f.find("failure").get("type") == "regression" for f in failures)
    assert any("against" in c.get("classname") for c in root.iter("testcase"))


def test_against_in_json_and_the_diff_and_history_commands(project):
    run(project, *ARGS)
    (project / "metric.py").write_text(STRICTER)
    done = run(project, *ARGS, "--against", "last", "--json")
    assert done.returncode == 1
    document = json.loads(done.stdout)
    assert document["against"]["diff"]["counts"]["regressions"] == 1
    compared = run(project, "diff", "last~1", "last", "--json")
    assert compared.returncode == 1
    assert json.loads(compared.stdout)["counts"] == document["against"]["diff"]["counts"]
    reverse = run(project, "diff", "last", "last~1")
    assert reverse.returncode == 0 and "No case regressed" in reverse.stdout
    listed = run(project, "history", "metric.py", "--json")
    assert [r["origin"] for r in json.loads(listed.stdout)["runs"]] == ["cli", "cli"]
    pruned = run(project, "history", "--prune", "1")
    assert pruned.returncode == 0 and "Removed 1 run" in pruned.stdout
    assert len(json.loads(run(project, "history", "--json").stdout)["runs"]) == 1


def test_usage_errors_are_exit_2_with_one_sentence(project):
    unknown = run(project, "diff", "nope", "last")
    assert unknown.returncode == 2 and "No run 'nope'" in unknown.stderr + unknown.stdout
    off = run(project, *ARGS, "--against", "last", SKYNET_RUN_LOG="0")
    assert off.returncode == 2 and "--against reads the run log" in off.stdout + off.stderr
    missing = run(project, *ARGS, "--against", "20990101-000000-00000000")
    assert missing.returncode == 2
    bad = run(project, "history", "--prune", "x")
    assert bad.returncode == 2


def test_no_log_and_log_dir(project):
    run(project, *ARGS, "--no-log")
    assert not (project / ".skynet_runs").exists()
    run(project, *ARGS, "--log-dir", "elsewhere")
    assert len(list((project / "elsewhere" / "runs").iterdir())) == 1
    fr = run(project, "history", "--log-dir", "elsewhere", "--lang", "fr")
    assert fr.stdout.startswith("Historique des exécutions : 1 exécution")
