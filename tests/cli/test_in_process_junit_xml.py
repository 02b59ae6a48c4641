"""``cli/junit_xml.py``: the report as JUnit XML.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import dataclasses
import platform
import re
import xml.etree.ElementTree as ET

from skynet_jupyter.cli import github_annotations as gh
from skynet_jupyter.cli import junit_xml as junit
from tests.cli.in_process_support import (
    assert_valid_junit,
    report_of,
)

# --- junit_xml: the report as JUnit XML --------------------------------------------------


def suite_of(report, metric: str) -> ET.Element:
    text = junit.junit_document([junit.report_suite(report, metric)])
    return assert_valid_junit(text).find("testsuite")


def test_the_suite_has_a_test_case_per_step_and_per_case(project):
    suite = suite_of(report_of("failing.py"), "failing.py")
    assert suite.get("name") == "failing.py"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("10", "2", "0")
    assert suite.get("skipped") == "1"
    assert suite.get("hostname") == platform.node()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", suite.get("timestamp"))
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties == {
        "kind": "check",
        "metric_name": "default",
        "mean_score": "1",
        "lang": "en",
    }
    cases = suite.findall("testcase")
    assert [case.get("classname") for case in cases] == ["failing.contract"] * 7 + [
        "failing.cases"
    ] * 3
    assert [case.get("name") for case in cases] == [
        "metric_loads: Metric loads",
        "metric_signature: Metric signature",
        "reward_spec: Reward spec",
        "run_function: Run function",
        "metric_return_value: Metric return value",
        "metric_time_limit: Metric time limit",
        "feedback_advice: Feedback advice",
        'case 0: text: "hello"',
        'case 1: text: "bye"',
        'case 2: text: "yo"',
    ]
    steps = {case.get("name").split(":")[0]: case for case in cases[:7]}
    assert list(steps["metric_loads"]) == []
    assert steps["reward_spec"].findtext("system-out") == (
        "No REWARD_SPEC: the score is used as it is."
    )
    skipped = steps["run_function"].find("skipped")
    assert skipped.get("message") == "No run function: outputs come from the column 'prediction'."
    failure = steps["metric_return_value"].find("failure")
    assert failure.get("type") == "metric_return_value"
    assert (
        failure.get("message")
        == "Metric return value: Case 1: score raised before returning: KeyError: 'missing'"
    )
    assert failure.text.startswith(
        "Case 1: score raised before returning: KeyError: 'missing'\nHow to fix: score raised an "
        "exception at "
    )
    advice = steps["feedback_advice"].findtext("system-out")
    assert advice.startswith("The 2 cases all have the score 1.")
    assert "\nAdvice: The optimizer (GEPA, DSPy GEPA, Auto) reads only the feedback" in advice
    broken = cases[8].find("failure")
    assert broken.get("type") == "metric_return_value"
    assert (
        broken.get("message")
        == "failed at Metric return value: score raised before returning: KeyError: 'missing'"
    )
    assert broken.text.startswith("Traceback (most recent call last):\n")
    assert broken.text.endswith("KeyError: 'missing'")
    assert cases[7].find("failure") is None
    assert cases[7].findtext("system-out").splitlines() == [
        "○ case 0  score 1  run not measured  metric 0.0 ms",
        '    input: text: "hello"',
        '    output: "greeting"',
        '    expected: label: "greeting"',
        "    feedback (what the optimizer reads): ok",
    ]


def test_an_interrupted_check_fails_every_case_ran(project):
    report = dataclasses.replace(report_of("good.py", lang="pt"), interrupted=True)
    report.cases = report.cases[:1]
    suite = suite_of(report, "good.py")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["lang"] == "pt"
    (every,) = [c for c in suite.findall("testcase") if c.get("name") == "Todos os casos rodaram"]
    assert every.get("classname") == "good.contract"
    assert every.find("failure").get("type") == "interrupted"
    assert every.find("failure").get("message") == render_interrupted(report)
    assert render_interrupted(report) == "Interrupção: mostram-se os casos concluídos (1 de 3)."
    assert suite.get("tests") == str(len(suite.findall("testcase")))


def test_cases_missing_after_a_failed_step_are_not_called_interrupted(project):
    report = report_of("one_argument.py", lang="pt")
    assert not report.interrupted and len(report.cases) < report.total_cases
    suite = suite_of(report, "one_argument.py")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["mean_score"] == "" and properties["lang"] == "pt"
    names = [c.get("name") for c in suite.findall("testcase")]
    assert "Todos os casos rodaram" not in names
    assert not [f for f in suite.iter("failure") if f.get("type") == "interrupted"]
    (failed,) = [c for c in suite.findall("testcase") if c.find("failure") is not None]
    assert failed.get("name").startswith("metric_signature")
    assert suite.get("failures") == "1"
    commands = gh.report_annotations(report, "one_argument.py")
    assert len(commands) == 1 and "Todos os casos rodaram" not in commands[0]


def render_interrupted(report) -> str:
    from skynet_jupyter.show.render import interrupted_line

    return interrupted_line(report)


def test_a_case_input_is_cut_to_60_characters_in_its_name(project):
    (project / "long.csv").write_text("text,label\n" + "x" * 100 + ",a\n")
    from skynet_jupyter.run.engine import check

    report = check("good.py", "long.csv", outputs="label", output_column="label", lang="en")
    name = suite_of(report, "good.py").findall("testcase")[-1].get("name")
    assert name.startswith('case 0: text: "xxxx') and len(name) < 80
    assert junit.INPUT_CHARS == 60
    from skynet_jupyter.core.secrets import Redactor
    from skynet_jupyter.show.render import cell

    assert name == f"case 0: {cell(report.cases[0].input, Redactor(), 60, quote=True)}"
    assert name != f"case 0: {cell(report.cases[0].input, Redactor(), 61, quote=True)}"


def test_a_metric_without_a_report_is_a_failed_metric_loads_redacted(project):
    text = junit.no_report_suite("proj/m.py", "It broke with sk-abcdefghijklmnop.", "fr")
    suite = ET.fromstring(text)
    assert suite.get("name") == "proj/m.py"
    counts = [suite.get(name) for name in ("tests", "failures", "errors", "skipped", "time")]
    assert counts == ["1", "1", "0", "0", "0.000"]
    (case,) = suite
    assert case.get("classname") == "proj.m.contract"
    assert case.get("name") == "metric_loads: Chargement de la métrique"
    assert case.get("time") == "0.000"
    failure = case.find("failure")
    assert failure.get("type") == "metric_loads"
    assert failure.get("message") == "It broke with sk-[redacted]."


def test_the_document_totals_its_suites():
    one = junit.no_report_suite("a.py", "A.", "en")
    two = ET.fromstring(junit.no_report_suite("b.py", "B.", "en"))
    two.set("time", "1.2506")
    two.set("skipped", "2")
    text = junit.junit_document([one, ET.tostring(two, "unicode")])
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n<testsuites ')
    assert text.endswith("</testsuites>\n")
    root = ET.fromstring(text.encode())
    assert root.attrib == {
        "name": "skynet-check",
        "tests": "2",
        "failures": "2",
        "errors": "0",
        "time": "1.251",
    }  # no "skipped": junit-10.xsd allows it on each <testsuite>, not on <testsuites>
    assert "\n  <testsuite " in text  # indented
    empty = ET.fromstring(junit.junit_document([]).encode())
    assert empty.attrib == {
        "name": "skynet-check", "tests": "0", "failures": "0", "errors": "0", "time": "0.000",
    }  # fmt: skip


def test_class_names_are_dotted_as_jenkins_splits_them():
    assert junit._class_name("proj/metric.py", "cases") == "proj.metric.cases"
    assert junit._class_name("/abs/my metric.py", "contract") == "abs.my_metric.contract"
    assert junit._class_name("../up/./m.py", "cases") == "up.m.cases"
    assert junit._class_name("..", "cases") == "metric.cases"
    assert junit._class_name("a\x1bb.py", "cases") == "a#x1Bb.cases"
    assert junit._seconds(-0.5) == "0.000" and junit._seconds(1.23456) == "1.235"
    assert junit._seconds(0.0) == "0.000"


def test_write_junit_makes_its_folder_replaces_a_report_and_refuses_a_link(project):
    assert junit.write_junit("a/b/r.xml", "<x/>", "en") is None
    assert (project / "a/b/r.xml").read_text() == "<x/>"
    assert junit.write_junit("a/b/r.xml", "<y/>", "en") is None
    assert (project / "a/b/r.xml").read_text() == "<y/>"
    (project / "link.xml").symlink_to(project / "a/b/r.xml")
    assert junit.write_junit("link.xml", "<z/>", "fr") == (
        "--junit-xml link.xml est un lien symbolique : le rapport n'est pas écrit à travers "
        "les liens ; donnez le chemin du fichier lui-même."
    )
    assert (project / "a/b/r.xml").read_text() == "<y/>"
    (project / "file").write_text("")
    assert junit.write_junit("file/r.xml", "<z/>", "en") == (
        "Could not write the JUnit report to file/r.xml: File exists"
    )


def test_a_path_for_junit_is_checked_without_following_links(project):
    assert junit.junit_path_problem("new.xml", "en") is None
    (project / "old.xml").write_text("")
    assert junit.junit_path_problem("old.xml", "en") is None
    assert junit.junit_path_problem("old.xml/under.xml", "en") is None  # absent: written later
    (project / "dir").mkdir()
    assert junit.junit_path_problem("dir", "pt") == (
        "--junit-xml dir é uma pasta, não um arquivo comum: dê o caminho de um arquivo novo ou "
        "de um relatório a substituir."
    )


# --- the edges: each found by asking what a changed line would still let through ---------


def test_a_suite_names_its_metric_with_control_characters_shown():
    suite = ET.fromstring(junit.no_report_suite("m\x1b.py", "Why\x07.", "en"))
    assert suite.get("name") == "m#x1B.py"
    assert suite.find("testcase").get("classname") == "m#x1B.contract"
    assert suite.find("testcase/failure").get("message") == "Why#x07."


def test_each_case_takes_the_time_of_its_run_and_its_metric(project):
    (project / "sleepy_run.py").write_text(
        "import time\n\n\ndef run(artifact, case_input):\n    time.sleep(0.3)\n    return 'x'\n"
    )
    report = report_of("good.py", output_column=None, run="sleepy_run.py:run", cases=1)
    (case,) = report.cases
    assert case.run_ms >= 300 and case.metric_ms is not None
    timed = suite_of(report, "good.py").findall("testcase")[-1]
    assert timed.get("time") == f"{(case.run_ms + case.metric_ms) / 1000:.3f}"
    (project / "sleepy.py").write_text(
        "import time\n\n\ndef score(input, output, expected=None):\n"
        "    time.sleep(0.05)\n    return 1.0, {'feedback': 'ok'}\n"
    )
    column = report_of("sleepy.py", cases=1)
    assert column.cases[0].run_ms is None and column.cases[0].metric_ms >= 50
    untimed = suite_of(column, "sleepy.py").findall("testcase")[-1]
    assert untimed.get("time") == f"{column.cases[0].metric_ms / 1000:.3f}"
    (project / "raising_run.py").write_text("def run(artifact, case_input):\n    raise OSError\n")
    failed = report_of("good.py", output_column=None, run="raising_run.py:run", cases=1)
    assert failed.cases[0].metric_ms is None  # never scored
    not_scored = suite_of(failed, "good.py").findall("testcase")[-1]
    run_ms = failed.cases[0].run_ms
    assert not_scored.get("time") == f"{(run_ms or 0.0) / 1000:.3f}"


# --- the edges, in another language: each part must use the language it is given ---------


def test_the_suite_and_the_annotations_are_in_the_reports_language(project):
    report = report_of("failing.py", lang="fr")
    suite = suite_of(report, "failing.py")
    cases = suite.findall("testcase")
    assert all(case.get("time") == "0.000" for case in cases[:7])  # a step takes no time
    failure = cases[4].find("failure")
    assert failure.get("message") == (
        "Valeur de retour de la métrique : Cas 1 : score a levé une exception avant de "
        "renvoyer sa paire : KeyError: 'missing'"
    )
    assert failure.text.startswith(
        "Cas 1 : score a levé une exception avant de renvoyer sa paire : KeyError: 'missing'\n"
        "Comment corriger : "
    )
    assert "\nConseils : L'optimiseur" in cases[6].findtext("system-out")
    assert cases[8].get("name") == 'cas 1: text: "bye"'
    assert cases[8].find("failure").get("message") == (
        "échec à Valeur de retour de la métrique : score a levé une exception avant de "
        "renvoyer sa paire : KeyError: 'missing'"
    )
    assert cases[8].findtext("system-out").splitlines()[1] == '    entrée : text: "bye"'
    skipped = cases[3].find("skipped")
    assert skipped.text is None and skipped.get("message").startswith("Pas de fonction run")
    commands = gh.report_annotations(report, "failing.py")
    assert commands[0].startswith(
        "::error file=failing.py,line=4,title=Valeur de retour de la métrique::Cas 1 : score a "
        "levé une exception avant de renvoyer sa paire : KeyError: 'missing'%0AComment "
        "corriger : score a levé "
        "une exception à "
    )
    every = suite_of(report_of("one_argument.py"), "one_argument.py").findall("testcase")[-1]
    assert every.get("time") == "0.000"


def test_the_documents_time_is_the_sum_of_its_suites():
    first = ET.fromstring(junit.no_report_suite("a.py", "A.", "en"))
    first.set("time", "0.5")
    second = ET.fromstring(junit.no_report_suite("b.py", "B.", "en"))
    second.set("time", "1.25")
    root = ET.fromstring(junit.junit_document([ET.tostring(s, "unicode") for s in (first, second)]))
    assert root.get("time") == "1.750"


def test_a_check_without_a_verdict_is_its_own_test_case_not_metric_loads():
    # Issue 43, C1: the metric loaded; the check's process ended before its report.
    said = "Pas de verdict : le processus s'est terminé (sk-abcdefghijklmnop)."
    suite = ET.fromstring(junit.no_report_suite("proj/m.py", said, "fr", no_verdict=True))
    (case,) = suite
    assert case.get("name") == "no_verdict: La vérification a écrit son rapport"
    failure = case.find("failure")
    assert failure.get("type") == "no_verdict"
    assert failure.get("message") == "Pas de verdict : le processus s'est terminé (sk-[redacted])."
    assert [suite.get(name) for name in ("tests", "failures", "errors")] == ["1", "1", "0"]
