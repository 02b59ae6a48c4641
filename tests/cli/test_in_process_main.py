"""``main()``: exit codes and what is printed, the check running in its child.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import json
import sys
import time
import xml.etree.ElementTree as ET

from skynet_jupyter.cli import (
    main,
)
from tests.cli.in_process_support import (
    COLUMN,
    EXITS,
    KILLED,
    SLOW_IMPORT,
    assert_valid_junit,
    cli,
    ctrl_c_once_there,
)

# --- main(): exit codes and what is printed (the check runs in a child) ------------------


def test_a_passing_check_exits_0_with_the_report_on_stdout_only(project, capfd):
    assert cli("good.py", *COLUMN) == 0
    out, err = capfd.readouterr()
    assert out.startswith("Contract check passed — metric 'good.py' · 3 cases · mean score 0.667\n")
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
    assert out.startswith("Contract check failed — metric 'failing.py' · 3 cases")
    assert (
        "  ✗ Metric return value: Case 1: score raised before returning: KeyError: 'missing'\n"
        in out
    )


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
        "Case 1: score raised before returning: KeyError: 'missing'%0AHow to fix: "
    )
    assert lines[1].startswith("::warning file=failing.py,title=Feedback advice::")
    assert lines[2].startswith("::stop-commands::")  # the report after them runs no command
    assert lines[3].startswith("Contract check failed")
    assert lines[-1] == f"::{lines[2].removeprefix('::stop-commands::')}::"


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
    # No message from the child: JUnit and the annotation say the no-verdict sentence
    # (issue 43, C1: neither has "lines above"), and the metric loaded: no "Metric loads".
    killed = said.replace("it exited with code 0", "it was killed by the signal SIGKILL")
    assert out == f"::error file=killed.py,title=skynet-check::{killed}\n"
    case = ET.parse(project / "k.xml").getroot().find("testsuite/testcase")
    assert case.get("name") == "no_verdict: The check wrote its report"
    failure = case.find("failure")
    assert failure.get("message") == killed and failure.get("type") == "no_verdict"


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


# --- the edges, in another language: each part must use the language it is given ---------


def test_main_reads_the_command_line_when_given_no_arguments(project, monkeypatch, capfd):
    monkeypatch.setattr(sys, "argv", ["skynet-check", "nope.py", *COLUMN, "--lang", "fr"])
    assert main() == 2
    assert capfd.readouterr().err == (
        "skynet-check: Aucun fichier de métrique à nope.py : vérifiez le chemin.\n"
    )


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
