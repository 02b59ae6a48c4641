"""skynet-check run as a real command from any folder (shared by the CLI tests)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.conftest import ROOT


def checkout_env(**extra: str) -> dict[str, str]:
    """The environment with this checkout importable from any folder (installed or not)."""
    env = {**os.environ, "SKYNET_LANG": "en", **extra}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env


def skynet_check_in(folder: Path, *args: object, **env: str) -> subprocess.CompletedProcess:
    """``skynet-check ARGS`` run in ``folder``."""
    return subprocess.run(
        [sys.executable, "-m", "skynet_jupyter.cli", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=folder,
        env=checkout_env(**env),
        timeout=120,
    )


# --- the JUnit rules CI tools read (the xunit2 schema pytest validates against) -----------

SUITE_REQUIRED = {"name", "tests", "failures", "errors"}
SUITE_ALLOWED = SUITE_REQUIRED | {"time", "skipped", "timestamp", "hostname", "id", "package"}
CASE_ALLOWED = {"name", "classname", "time"}
CASE_CHILDREN = {"failure", "skipped", "system-out", "system-err"}
TIME = re.compile(r"\d+(\.\d{1,3})?")  # the schema's SUREFIRE_TIME, as written here


def assert_valid_junit(text: str) -> ET.Element:
    """The document parses, and holds only what the JUnit schema allows, counted right."""
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>')
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    assert set(root.attrib) <= {"name", "time", "tests", "failures", "errors", "skipped"}
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root:
        assert suite.tag == "testsuite"
        assert SUITE_REQUIRED <= set(suite.attrib) <= SUITE_ALLOWED, suite.attrib
        assert TIME.fullmatch(suite.get("time", "0")), suite.get("time")
        cases = suite.findall("testcase")
        assert {child.tag for child in suite} <= {"testcase", "properties"}
        for prop in suite.iter("property"):
            assert set(prop.attrib) == {"name", "value"}
        for case in cases:
            assert "name" in case.attrib and set(case.attrib) <= CASE_ALLOWED, case.attrib
            assert TIME.fullmatch(case.get("time", "0"))
            assert {child.tag for child in case} <= CASE_CHILDREN
            for verdict in case:
                assert set(verdict.attrib) <= {"message", "type"}
                assert not list(verdict)  # text only
        failed = sum(case.find("failure") is not None for case in cases)
        skipped = sum(case.find("skipped") is not None for case in cases)
        counted = {"tests": len(cases), "failures": failed, "errors": 0, "skipped": skipped}
        assert {name: int(suite.get(name, "0")) for name in counted} == counted
        for name in totals:
            totals[name] += counted[name]
    assert {name: int(root.get(name, "0")) for name in totals} == totals
    return root
