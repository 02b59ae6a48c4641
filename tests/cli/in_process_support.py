"""The project the in-process CLI tests work in, and the helpers several of their files use.

Shared by ``tests/cli/test_in_process_*.py`` (split by the module of ``skynet_jupyter/cli``
each tests); the ``project`` fixture that writes these files is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import re
import signal
import threading
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from skynet_jupyter.cli import (
    exits,
    main,
    parse,
    sources,
)

GOOD = """\
def score(input, output, expected=None):
    right = output == expected["label"]
    feedback = "Right." if right else f"Wrong: the label is {expected['label']}, not {output}."
    return float(right), {"feedback": feedback}
"""

# Case 1 ("bye") raises on line 4; the others score 1 with the same feedback.
FAILING = """\
def score(input, output, expected=None):
    text = input["text"]
    if text == "bye":
        raise KeyError("missing")
    return 1.0, {"feedback": "ok"}
"""

# score takes one argument: the signature step fails, no case runs.
ONE_ARGUMENT = """\
import os


def score(input):
    return 1.0
"""

# The process running the check ends in the middle of it.
EXITS = "import os\n\n\ndef score(input, output, expected=None):\n    os._exit(0)\n"

KILLED = "import os\n\n\ndef score(input, output, expected=None):\n    os.kill(os.getpid(), 9)\n"

SLOW_IMPORT = (
    "import time\n\ntime.sleep(30)\n\n\ndef score(input, output, expected=None):\n    return 1.0\n"
)

CASES = "text,label,prediction\nhello,greeting,greeting\nbye,farewell,other\nyo,greeting,greeting\n"

RUN = """\
def helper():
    return "greeting"


def run(artifact, case_input):
    return artifact.strip() if case_input["text"] == "bye" else helper()
"""

# The column mode: no run function, the outputs are in the data.
COLUMN = ("--data", "cases.csv", "--outputs", "label", "--output-column", "prediction")


def cli(*args: object) -> int:
    return main([str(arg) for arg in args])


def words(text: str) -> str:
    """``text`` with its runs of white space as one space (argparse wraps its help)."""
    return " ".join(text.split())


def ctrl_c_once_there(marker: Path, times: int = 1) -> None:
    """Once ``marker`` exists (the child reached the point to interrupt), Ctrl-C ``times``
    times: SIGINT to the main thread, as a terminal's Ctrl-C lands (it wakes a blocked wait)."""

    def press() -> None:
        for _ in range(600):
            if marker.exists():
                break
            threading.Event().wait(0.05)
        for _ in range(times):
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            threading.Event().wait(0.5)

    threading.Thread(target=press, daemon=True).start()


def read(*args: object, lang: str = "en") -> str | None:
    parsed = parse.parse([str(arg) for arg in args])
    return sources.read_sources(parsed, parsed.metric[0], lang)


def read_refused(*args: object, lang: str = "en") -> exits.UsageProblem:
    with pytest.raises(exits.UsageProblem) as problem:
        read(*args, lang=lang)
    return problem.value


def report_of(metric: str, lang: str = "en", **given: object):
    """The report of a check run in this process (no child): what the child would send."""
    from skynet_jupyter.run.engine import check

    options = {"outputs": "label", "output_column": "prediction", **given}
    return check(metric, "cases.csv", lang=lang, **options)


# --- JUnit XML, valid against the schema it cites ------------------------------------------

JUNIT_XSD = Path(__file__).with_name("junit-10.xsd")  # Jenkins' junit-10.xsd, as pytest uses
_XS = "{http://www.w3.org/2001/XMLSchema}"


@cache
def _junit_rules() -> dict[str, tuple[set[str], set[str], set[str]]]:
    """junit-10.xsd read as: element -> (its attributes, those required, its children)."""
    schema = ET.parse(JUNIT_XSD).getroot()
    rules: dict[str, tuple[set[str], set[str], set[str]]] = {}
    types = {kind.get("name"): kind for kind in schema.findall(f"{_XS}complexType")}
    for element in schema.findall(f"{_XS}element"):
        kind = element.find(f"{_XS}complexType")
        if kind is None:
            kind = types.get(element.get("type"))  # rerunType; xs:string: text only
        attributes = [] if kind is None else kind.findall(f"{_XS}attribute")
        children = [] if kind is None else kind.iter(f"{_XS}element")
        rules[element.get("name", "")] = (
            {attribute.get("name", "") for attribute in attributes},
            {a.get("name", "") for a in attributes if a.get("use") == "required"},
            {child.get("ref") or child.get("name") or "" for child in children},
        )
    return rules


@cache
def _xml_schema() -> Any:
    """junit-10.xsd as ``xmlschema`` reads it; None where ``xmlschema`` is not installed."""
    try:
        import xmlschema
    except ImportError:  # the rules of assert_schema_valid still read the schema itself
        return None
    return xmlschema.XMLSchema(str(JUNIT_XSD))


@cache
def _surefire_time() -> re.Pattern[str]:
    schema = ET.parse(JUNIT_XSD).getroot()
    (pattern,) = schema.iter(f"{_XS}pattern")
    return re.compile(pattern.get("value", ""))


def assert_schema_valid(text: str) -> None:
    """``text`` is valid against junit-10.xsd: by ``xmlschema`` where it is installed, and
    always by the schema's own rules read here (elements, attributes, children, times)."""
    schema = _xml_schema()
    if schema is not None:
        schema.validate(text)
    rules, time = _junit_rules(), _surefire_time()
    for element in ET.fromstring(text.encode("utf-8")).iter():
        assert element.tag in rules, element.tag
        allowed, required, children = rules[element.tag]
        assert required <= set(element.attrib) <= allowed, (element.tag, element.attrib)
        assert {child.tag for child in element} <= children, element.tag
        if element.tag in ("testsuite", "testsuites") and "time" in element.attrib:
            assert time.fullmatch(element.get("time", "")), element.get("time")


def assert_valid_junit(text: str) -> ET.Element:
    """The document parses, is valid against junit-10.xsd, and its counts add up (each
    suite's tests, failures, errors and skipped; the document's, which has no skipped)."""
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>')
    assert_schema_valid(text)
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for suite in root:
        cases = suite.findall("testcase")
        counted = {
            "tests": len(cases),
            "failures": sum(case.find("failure") is not None for case in cases),
            "errors": 0,
            "skipped": sum(case.find("skipped") is not None for case in cases),
        }
        assert {name: int(suite.get(name, "0")) for name in counted} == counted
        for name in totals:
            totals[name] += counted[name]
    assert {name: int(root.get(name, "0")) for name in totals} == totals
    return root
