"""What CI reads from skynet-check: --junit-xml (as pytest --junitxml writes it) and
--format github (workflow commands), run as the real command; several metric files."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from skynet_jupyter.cli.github_annotations import (
    escape_data,
    escape_property,
    workflow_command,
)
from tests.cli.in_process_support import assert_valid_junit
from tests.cli_support import skynet_check_in

# A feedback no XML writer should trust: a CDATA end, markup, an entity, quotes,
# a terminal escape, a NUL and other controls, a lone surrogate's neighbour (U+FFFE).
HOSTILE = "]]> <b>&amp; \"'\x1b[31m\x00\x07\x0b\ufffe end"

MIXED = f"""
def score(input, output, expected=None):
    if input["text"] == "boom":
        raise ValueError("it broke")
    return 0.5, {{"feedback": {HOSTILE!r} + input["text"]}}
"""
# Fails every case the same way (one annotation), on line 3.
SAME_FAILURE = """
def score(input, output, expected=None):
    raise KeyError("missing")
"""
GOOD = """
def score(input, output, expected=None):
    right = output == expected["label"]
    feedback = "Right." if right else f"Wrong: the label is {expected['label']}, not {output}."
    return float(right), {"feedback": feedback}
"""
CASES = "text,label,prediction\nhello,greeting,greeting\nboom,other,greeting\nbye,farewell,other\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "cases.csv").write_text(CASES)
    for name, source in (("mixed", MIXED), ("same", SAME_FAILURE), ("good", GOOD)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "metric.py").write_text(source)
    return tmp_path


def check(project: Path, *args: object):
    return skynet_check_in(
        project, *args, "--data", "cases.csv", "--outputs", "label", "--output-column", "prediction"
    )


def test_junit_names_every_failed_case_and_keeps_hostile_feedback_valid(project):
    plain = check(project, "mixed/metric.py", "--cases", "3")
    done = check(project, "mixed/metric.py", "--cases", "3", "--junit-xml", "out/report.xml")
    assert done.returncode == plain.returncode == 1, done.stderr  # the exit code is unchanged
    text = (project / "out" / "report.xml").read_text(encoding="utf-8")
    root = assert_valid_junit(text)
    (suite,) = root
    assert suite.get("name") == "mixed/metric.py"
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    # The contract steps are test cases, then one per case: number and a short input.
    assert "metric_return_value: Metric return value" in cases
    assert list(cases)[-3:] == [
        'case 0: text: "hello"',
        'case 1: text: "boom"',
        'case 2: text: "bye"',
    ]
    failed = [name for name, case in cases.items() if case.find("failure") is not None]
    assert failed == ["metric_return_value: Metric return value", 'case 1: text: "boom"']
    failure = cases['case 1: text: "boom"'].find("failure")
    assert failure.get("type") == "metric_return_value"
    assert (
        failure.get("message")
        == "failed at Metric return value: score raised before returning: ValueError: it broke"
    )
    assert "line 4, in score" in failure.text  # the user's traceback
    assert float(cases['case 0: text: "hello"'].get("time")) >= 0
    # The feedback is in <system-out>, whole, its control characters shown, not written raw.
    out = cases['case 0: text: "hello"'].find("system-out").text
    assert "]]> <b>&amp; \"'#x1B[31m#x00#x07" in out and "#xFFFE endhello" in out
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", text)  # no control written raw
    assert suite.get("failures") == "2" and suite.get("tests") == str(len(cases))


def test_junit_holds_one_suite_per_metric_and_a_metric_that_does_not_load(project):
    (project / "broken").mkdir()
    (project / "broken" / "metric.py").write_text("import not_a_module_anywhere\n")
    done = check(project, "good/metric.py", "broken/metric.py", "--junit-xml", "r.xml")
    assert done.returncode == 2, done.stdout  # the broken file: a usage error, named
    assert "broken/metric.py" in done.stderr
    root = assert_valid_junit((project / "r.xml").read_text())
    good, broken = root
    assert good.get("name") == "good/metric.py" and good.get("failures") == "0"
    (loads,) = broken.iter("testcase")
    assert loads.get("name") == "metric_loads: Metric loads"
    assert "not_a_module_anywhere" in loads.find("failure").get("message")


def test_junit_replaces_a_report_but_never_writes_over_a_special_file(project):
    report = project / "report.xml"
    report.write_text("old")
    assert check(project, "good/metric.py", "--junit-xml", report).returncode == 0
    assert_valid_junit(report.read_text())
    (project / "folder.xml").mkdir()
    link = project / "link.xml"
    link.symlink_to(report)
    os.mkfifo(project / "pipe.xml")
    for path, says in (
        ("folder.xml", "is a directory"),
        ("link.xml", "is a symbolic link"),
        ("pipe.xml", "is a named pipe"),
    ):
        before = report.read_text()
        done = check(project, "good/metric.py", "--junit-xml", path)
        assert done.returncode == 2, (path, done.stdout)
        assert says in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert report.read_text() == before and link.is_symlink()
    assert not list(project.glob(".*.tmp"))  # no temporary file left behind


def test_github_annotations_point_at_the_metric_line_once_per_message(project):
    done = check(project, "same/metric.py", "--format", "github")
    assert done.returncode == 1
    commands = [line for line in done.stdout.splitlines() if line.startswith("::")]
    # Three cases failing the same way: one annotation, at the metric's own line.
    assert len([c for c in commands if c.startswith("::error ")]) == 1, commands
    (error,) = [c for c in commands if c.startswith("::error ")]
    assert error.startswith("::error file=same/metric.py,line=3,title=Metric return value::")
    assert "KeyError" in error and "\n" not in error
    assert "%0AHow to fix%3A" not in error and "%0AHow to fix: " in error  # data keeps ':'
    assert "Contract check failed" in done.stdout  # the report follows the commands


def test_feedback_advice_is_a_warning(project):
    (project / "same.py").write_text(
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n"
    )
    done = check(project, "same.py", "--format", "github")
    assert done.returncode == 0
    (warning,) = [line for line in done.stdout.splitlines() if line.startswith("::warning ")]
    assert warning.startswith("::warning file=same.py,title=Feedback advice::")


def test_a_syntax_error_is_an_error_annotation_at_its_line(project):
    (project / "bad.py").write_text("def score(input, output, expected=None):\n    return (\n")
    done = check(project, "bad.py", "--format", "github")
    assert done.returncode == 2
    (error,) = [line for line in done.stdout.splitlines() if line.startswith("::error")]
    assert error.startswith("::error file=bad.py,line=2,title=skynet-check::")


def test_workflow_commands_are_escaped_as_github_reads_them():
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    command = workflow_command("error", "50%\nsee: x", file="dir,1/m:1.py", line=3, title="T: a")
    assert command == "::error file=dir%2C1/m%3A1.py,line=3,title=T%3A a::50%25%0Asee: x"
    assert workflow_command("warning", "\x1b[31mred") == "::warning::#x1B[31mred"


def test_several_metrics_are_checked_one_by_one_and_fail_if_any_fails(project):
    done = check(project, "good/metric.py", "same/metric.py")
    assert done.returncode == 1
    good_at, same_at = (
        done.stdout.index("==> good/metric.py <=="),
        done.stdout.index("==> same/metric.py <=="),
    )
    assert good_at < done.stdout.index("Contract check passed") < same_at
    assert done.stdout.index("Contract check failed") > same_at
    assert check(project, "good/metric.py", "good/metric.py").returncode == 0
    # pre-commit passes the files after the options: the same command.
    after = skynet_check_in(
        project,
        "--data",
        "cases.csv",
        "--outputs",
        "label",
        "--output-column",
        "prediction",
        "good/metric.py",
        "same/metric.py",
    )
    assert after.returncode == 1 and after.stdout.count("==> ") == 2


def test_json_is_one_document_of_one_metric(project):
    done = check(project, "good/metric.py", "same/metric.py", "--json")
    assert done.returncode == 2
    assert "--json prints one report, of one metric file, and 2 were given" in done.stderr
