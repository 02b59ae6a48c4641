"""``cli/each_metric.py``: what is said for a metric that gave no report.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET

from skynet_jupyter.cli import (
    each_metric,
)
from tests.cli.in_process_support import (
    COLUMN,
    cli,
    ctrl_c_once_there,
)

# --- each_metric: what is said for a metric that gave no report --------------------------


def namespace(**given: object) -> argparse.Namespace:
    return argparse.Namespace(**{"junit_xml": None, "format": "text", "json": False, **given})


def test_an_interrupted_metric_without_report_says_interrupted_in_both_outputs(capsys):
    suites: list[str] = []
    args = namespace(junit_xml="r.xml", format="github")
    each_metric._no_report_outputs(args, "m.py", {}, 130, suites, "fr")
    assert capsys.readouterr().out == (
        "::error file=m.py,title=skynet-check::Interrompu : pas de verdict.\n"
    )
    (suite,) = suites
    failure = ET.fromstring(suite).find("testcase/failure")
    assert failure.get("message") == "Interrompu : pas de verdict."


def test_a_metric_without_report_or_message_points_at_the_lines_above(capsys):
    suites: list[str] = []
    each_metric._no_report_outputs(namespace(junit_xml="r.xml"), "m.py", {}, 3, suites, "en")
    assert capsys.readouterr().out == ""  # text format: no annotation
    (suite,) = suites
    assert ET.fromstring(suite).find("testcase/failure").get("message") == (
        "No report for m.py (exit code 3): the lines above say why."
    )


def test_a_usage_message_is_annotated_at_its_file_and_line(capsys):
    last = {"message": "Bad line.", "file": "other.py", "line": 7}
    suites: list[str] = []
    each_metric._no_report_outputs(namespace(format="github"), "m.py", last, 2, suites, "en")
    assert capsys.readouterr().out == "::error file=other.py,line=7,title=skynet-check::Bad line.\n"
    assert suites == []  # no --junit-xml


def test_a_report_carries_its_own_annotations_and_suite(capsys):
    suites: list[str] = []
    last = {"event": "done", "junit": "<testsuite/>", "message": "never said"}
    args = namespace(junit_xml="r.xml", format="github")
    each_metric._no_report_outputs(args, "m.py", last, 1, suites, "en")
    assert suites == ["<testsuite/>"] and capsys.readouterr().out == ""


def test_a_usage_error_stops_the_metrics_after_it(project, capfd):
    code = cli("missing.py", "good.py", *COLUMN)
    assert code == 2
    out, err = capfd.readouterr()
    assert out == "==> missing.py <==\n"
    assert err == "skynet-check: No metric file at missing.py: check the path.\n"


# --- the edges: each found by asking what a changed line would still let through ---------


def test_ctrl_c_stops_the_metric_files_after_it(project, capfd, ctrl_c):
    (project / "slow.py").write_text(
        "import pathlib, time\n\n\ndef score(input, output, expected=None):\n"
        "    pathlib.Path('scoring').touch()\n    time.sleep(20)\n    return 1.0\n"
    )
    ctrl_c_once_there(project / "scoring")
    assert cli("slow.py", "good.py", *COLUMN) == 130
    out = capfd.readouterr().out
    assert out.startswith("==> slow.py <==\n")
    assert "==> good.py <==" not in out


# --- the edges, in another language: each part must use the language it is given ---------


def test_no_report_is_said_in_the_language_given(capsys):
    suites: list[str] = []
    each_metric._no_report_outputs(
        namespace(junit_xml="r", format="github"), "m.py", {}, 3, suites, "pt"
    )
    said = "Sem relatório para m.py (código de saída 3): as linhas acima dizem por quê."
    assert capsys.readouterr().out == f"::error file=m.py,title=skynet-check::{said}\n"
    case = ET.fromstring(suites[0]).find("testcase")
    assert case.get("name") == "metric_loads: Carregamento da métrica"
    assert case.find("failure").get("message") == said
    assert case.find("failure").text is None  # the message only: no body


# --- no verdict (issue 43, C1): the sentence itself, never "the lines above" --------------

NO_VERDICT = (
    "No verdict: the process running the check ended before it wrote its report (it exited "
    "with code 0). A metric or run function that calls os._exit() or kills its process ends "
    "the check; the check did not pass."
)


def test_no_verdict_says_its_sentence_in_both_outputs(capsys):
    suites: list[str] = []
    last = {"event": "no_verdict", "message": NO_VERDICT}
    args = namespace(junit_xml="r.xml", format="github")
    each_metric._no_report_outputs(args, "m.py", last, 3, suites, "en")
    assert capsys.readouterr().out == f"::error file=m.py,title=skynet-check::{NO_VERDICT}\n"
    case = ET.fromstring(suites[0]).find("testcase")
    assert case.get("name") == "no_verdict: The check wrote its report"  # it did load
    assert case.find("failure").get("type") == "no_verdict"
    assert case.find("failure").get("message") == NO_VERDICT


def test_a_metric_calling_os_exit_is_no_verdict_in_the_junit_file_and_annotation(project, capfd):
    from tests.cli.in_process_support import EXITS, assert_valid_junit

    (project / "exits.py").write_text(EXITS)
    code = cli("exits.py", *COLUMN, "--junit-xml", "r.xml", "--format", "github")
    assert code == 3
    out, err = capfd.readouterr()
    assert out == f"::error file=exits.py,title=skynet-check::{NO_VERDICT}\n"
    assert f"skynet-check: {NO_VERDICT}\n" in err
    root = assert_valid_junit((project / "r.xml").read_text())
    (case,) = root.find("testsuite")
    assert case.get("name") == "no_verdict: The check wrote its report"
    assert case.find("failure").get("message") == NO_VERDICT
    assert "lines above" not in (project / "r.xml").read_text()


def test_a_load_past_its_time_limit_says_so_in_the_junit_file_and_annotation(project, capfd):
    (project / "slow.py").write_text("import time\ntime.sleep(30)\n")
    code = cli(
        "slow.py", *COLUMN, "--load-timeout", "1", "--junit-xml", "r.xml", "--format", "github"
    )
    assert code == 2
    out, err = capfd.readouterr()
    said = err.removeprefix("skynet-check: ").strip()
    assert said.startswith("slow.py ") and " 1 s (--load-timeout)" in said
    assert out == f"::error file=slow.py,title=skynet-check::{said}\n"
    failure = ET.parse(project / "r.xml").getroot().find("testsuite/testcase/failure")
    assert failure.get("message") == said and failure.get("type") == "metric_loads"
