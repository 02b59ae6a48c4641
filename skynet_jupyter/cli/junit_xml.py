"""``--junit-xml PATH``: the report as JUnit XML, as ``pytest --junitxml`` writes it.

GitLab, Jenkins, Azure DevOps, CircleCI and GitHub's test-report actions read
this shape (the xunit2 schema pytest validates against)::

    <testsuites name=... tests= failures= errors= time=>
      <testsuite name=METRIC tests= failures= errors= skipped= time= timestamp= hostname=>
        <properties><property name= value=/></properties>
        <testcase classname=METRIC.contract name="STEP: Title" time=>   one per step
        <testcase classname=METRIC.cases name="case N: input" time=>    one per case
          <failure type=STEP message="failed at STEP: why">traceback</failure>
          <skipped message=.../>   <system-out>the case: input, output, feedback</system-out>

The child builds its metric's ``<testsuite>`` (:func:`report_suite`: it has
the report); the parent puts the suites of every metric it checked in one
document (:func:`junit_document`) and writes it atomically, never over
anything but a regular file (:func:`write_junit`, with ``--save``'s rules).
Every text is redacted, and its control characters shown as ``#x1B``: a
hostile feedback (``]]>``, ``<``, a terminal escape) stays valid XML.
"""

from __future__ import annotations

import datetime
import platform
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import t
from ..show.terminal_text import visible_controls

if TYPE_CHECKING:
    from ..core.report import CaseResult, CheckReport, Step
    from ..show.render import Clean

__all__ = [
    "junit_document",
    "junit_path_problem",
    "no_report_suite",
    "report_suite",
    "write_junit",
]

INPUT_CHARS = 60  # of a case's input in its test case's name


def report_suite(report: CheckReport, metric: str) -> str:
    """The ``<testsuite>`` of one check or evaluation of the metric file ``metric``."""
    from ..core.secrets import Redactor
    from ..show.render import cases_missing_unsaid, interrupted_line

    clean = Redactor()  # the secrets gathered once for every text of the suite
    suite = _suite(metric, report.elapsed_s)
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("kind", report.kind),
        ("metric_name", report.metric_name),
        ("mean_score", "" if report.mean_score is None else f"{report.mean_score:g}"),
        ("lang", report.lang),
    ):
        ET.SubElement(properties, "property", name=name, value=visible_controls(clean(value)))
    steps_class, cases_class = _class_name(metric, "contract"), _class_name(metric, "cases")
    for step in report.steps:
        suite.append(_step_case(step, steps_class, report.lang, clean))
    if cases_missing_unsaid(report):
        missing = _case(steps_class, t("junit.all_cases_ran", report.lang), 0.0)
        _add(missing, "failure", interrupted_line(report), type="interrupted")
        suite.append(missing)
    for case in report.cases:
        suite.append(_result_case(case, cases_class, report.lang, clean))
    return _counted(suite)


NO_VERDICT = "no_verdict"  # the test case of a check whose process ended without its report
RUN_CONFIGURATION = "run_configuration"  # a run stopped by its models' setup (a key, no model)


def no_report_suite(
    metric: str,
    message: str,
    lang: str | None = None,
    *,
    no_verdict: bool = False,
    found_by_the_run: bool = False,
) -> str:
    """The ``<testsuite>`` of a metric that gave no report, saying why (in ``lang``, by
    default the command's): its first step failed (a usage error, a file that does not
    load), or with ``no_verdict`` the check's process ended before it wrote its report
    (the metric loaded: "Metric loads" did not fail), said by the no-verdict sentence;
    with ``found_by_the_run`` the run stopped on a configuration problem (a model's key, no
    model): the metric loaded, so the failure is the run's."""
    from ..core.contract import METRIC_LOADS, step_title
    from ..core.secrets import redact

    suite = _suite(metric, 0.0)
    if no_verdict:
        step, title = NO_VERDICT, t("junit.report_written", lang)
    elif found_by_the_run:
        step, title = RUN_CONFIGURATION, t("junit.run_configured", lang)
    else:
        step, title = METRIC_LOADS, step_title(METRIC_LOADS, lang)
    case = _case(_class_name(metric, "contract"), f"{step}: {title}", 0.0)
    _add(case, "failure", redact(message), type=step)
    suite.append(case)
    return _counted(suite)


def junit_document(suites: list[str]) -> str:
    """One JUnit document holding ``suites`` (each a ``<testsuite>``), with their totals."""
    root = ET.Element("testsuites", name="skynet-check")
    # No "skipped" here: junit-10.xsd allows it on <testsuite> only (each suite has its own).
    totals = dict.fromkeys(("tests", "failures", "errors"), 0)
    seconds = 0.0
    for text in suites:
        suite = ET.fromstring(text)
        for name in totals:
            totals[name] += int(suite.get(name, "0"))
        seconds += float(suite.get("time", "0"))
        root.append(suite)
    for name, count in totals.items():
        root.set(name, str(count))
    root.set("time", f"{seconds:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def junit_path_problem(given: str, lang: str | None = None) -> str | None:
    """Why ``--junit-xml`` cannot write ``given`` (one sentence), or None: a new or regular file.

    Checked before the check runs (its model calls cost money), with ``--save``'s
    rule: never over a link, a directory, a pipe or a device.
    """
    from ..core.saving import _FILE_KINDS, _special_kind  # --save's rule, said for this option

    path = Path(given)
    kind = _special_kind(path)
    if kind == "symlink":
        return t("cli.junit_symlink", lang, path=given)
    if kind is not None:
        return t("cli.junit_not_regular", lang, path=given, kind=t(_FILE_KINDS[kind], lang))
    return None


def write_junit(given: str, text: str, lang: str | None = None) -> str | None:
    """Write the JUnit document to ``given`` atomically: None, or why it could not be."""
    from ..core.saving import write_atomically

    path = Path(given)
    problem = junit_path_problem(given, lang)  # again: something may have appeared there since
    if problem is not None:
        return problem
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            write_atomically(path, text, replace=path.exists())
        except FileExistsError:  # created meanwhile: a regular file is replaced, else refused
            return (
                write_junit(given, text, lang)
                if path.is_file()
                else junit_path_problem(given, lang)
            )
    except OSError as error:
        return t("cli.junit_failed", lang, path=given, error=error.strerror or error)
    return None


# --- the elements ------------------------------------------------------------------------


def _suite(metric: str, seconds: float) -> ET.Element:
    return ET.Element(
        "testsuite",
        name=visible_controls(metric),
        time=_seconds(seconds),
        timestamp=datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        hostname=visible_controls(platform.node()),
    )


def _counted(suite: ET.Element) -> str:
    """The suite with its counts (as pytest: every test case, and those failed or skipped)."""
    cases = suite.findall("testcase")
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(sum(case.find("failure") is not None for case in cases)))
    suite.set("errors", "0")  # a metric's problem is a failed step, never the tool's error
    suite.set("skipped", str(sum(case.find("skipped") is not None for case in cases)))
    return ET.tostring(suite, "unicode")


def _class_name(metric: str, group: str) -> str:
    """``proj/metric.py``, "cases" -> ``proj.metric.cases``: as Jenkins splits it (on dots)."""
    parts = Path(metric).with_suffix("").parts
    dotted = ".".join(part for part in parts if part not in ("/", "\\", ".", ".."))
    return visible_controls(".".join((dotted.replace(" ", "_") or "metric", group)))


def _seconds(seconds: float) -> str:
    return f"{max(seconds, 0.0):.3f}"  # the schema's time: digits, a point, three decimals


def _case(classname: str, name: str, seconds: float) -> ET.Element:
    return ET.Element(
        "testcase", classname=classname, name=visible_controls(name), time=_seconds(seconds)
    )


def _add(case: ET.Element, tag: str, message: str, body: str = "", **attributes: str) -> None:
    element = ET.SubElement(case, tag, {"message": visible_controls(message), **attributes})
    if body:
        element.text = visible_controls(body)


def _out(case: ET.Element, text: str) -> None:
    if text:
        ET.SubElement(case, "system-out").text = visible_controls(text)


def _step_case(step: Step, classname: str, lang: str, clean: Clean) -> ET.Element:
    from ..core.report import ADVICE, FAILED, SKIPPED
    from ..show.render import bounded, step_hint

    case = _case(classname, f"{step.id}: {step.title}", 0.0)
    message = bounded(step.message, lang, clean) if step.message else ""
    hint = step_hint(step, lang, clean)
    hint_line = t("labelled", lang, label=hint[0], text=hint[1]) if hint else ""
    said = t("labelled", lang, label=step.title, text=message) if message else step.title
    if step.status == FAILED:
        _add(case, "failure", said, "\n".join(filter(None, (message, hint_line))), type=step.id)
    elif step.status == SKIPPED:
        _add(case, "skipped", message or step.title)
    else:  # passed, or advice: the feedback's advice is read in the output, not a failure
        lines = [message, hint_line] if step.status == ADVICE else [message]
        _out(case, "\n".join(filter(None, lines)))
    return case


def _result_case(case: CaseResult, classname: str, lang: str, clean: Clean) -> ET.Element:
    from ..show.render import case_text, cell, error_text, failed_at_text, traceback_text

    seconds = ((case.metric_ms or 0.0) + (case.run_ms or 0.0)) / 1000
    shown_input = cell(case.input, clean, INPUT_CHARS, quote=True)
    element = _case(classname, f"{t('col.case', lang)} {case.index}: {shown_input}", seconds)
    if case.failed_step is not None:
        said = t(
            "labelled",
            lang,
            label=failed_at_text(case, lang),
            text=error_text(case, lang, clean),
        )
        _add(
            element,
            "failure",
            said,
            traceback_text(case, lang, clean),
            type=case.failed_step,
        )
    # The case as the text report shows it (input, output, expected, feedback), unwrapped.
    _out(element, textwrap.dedent("\n".join(case_text(case, lang, clean, None))))
    return element
