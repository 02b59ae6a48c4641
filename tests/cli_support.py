"""skynet-check run as a real command, the one way every test starts it (shared by the CLI tests).

Every test that starts ``skynet-check`` in a child process goes through ``skynet_check``
(or, for a process it must hold while it runs, ``skynet_check_command`` with ``cli_env``):
one command line and one environment rule, so that a test's verdict never depends on the
developer's own set-up.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Literal

from tests.conftest import ROOT

# How the command is started.  "module" is the default: it imports this checkout from any
# folder.  "script" is the console script pip installed beside this Python, as users run
# it.  "main" calls ``main()`` as that script does, but from ``python -c``, so that the
# current folder is first on ``sys.path`` (the harshest case for a user's own modules).
How = Literal["module", "script", "main"]
SCRIPT = Path(sys.executable).parent / "skynet-check"
COMMANDS: dict[How, list[str]] = {
    "module": [sys.executable, "-m", "skynet_jupyter.cli"],
    "script": [str(SCRIPT)],
    "main": [
        sys.executable,
        "-c",
        "import sys; from skynet_jupyter.cli import main; sys.exit(main())",
    ],
}

# The developer's own settings that would change what the command says or which model it
# asks, and the provider keys and addresses a test must never send anywhere (or see
# printed back) unless it sets them itself.
REMOVED_PREFIXES = ("SKYNET_", "OPENAI_", "ANTHROPIC_", "AZURE_", "GEMINI_", "LITELLM_PROXY")
REMOVED_SUFFIXES = ("_API_KEY", "_API_BASE", "_API_TOKEN")


def _removed(name: str) -> bool:
    return name.startswith(REMOVED_PREFIXES) or name.endswith(REMOVED_SUFFIXES)


def cli_env(extra: Mapping[str, str] | None = None, unset: Collection[str] = ()) -> dict[str, str]:
    """The environment of every skynet-check a test starts: the one rule.

    - Kept: the rest of the test's environment, PATH, HOME, the locale,
      ``LITELLM_LOCAL_MODEL_COST_MAP`` (set by tests/conftest.py: no network at import),
      and coverage's variables (``COVERAGE_*``, ``COV_CORE_*``), so the child is measured.
    - Removed: every ``SKYNET_*`` variable (models, language, cache), and the provider
      keys and addresses (``OPENAI_*``, ``ANTHROPIC_*``, ``AZURE_*``, ``GEMINI_*``, any
      ``*_API_KEY`` / ``*_API_BASE`` / ``*_API_TOKEN``), plus the names in ``unset``.
    - Set: ``SKYNET_LANG=en`` (the sentences asserted are English unless a test asks
      otherwise), ``SKYNET_RUN_LOG=0`` (no run log written unless a test asks) and
      ``PYTHONPATH`` with this checkout first (this tree is imported from any folder,
      installed or not); then ``extra`` on top, which may set any of them.
    """
    env = {name: value for name, value in os.environ.items() if not _removed(name)}
    env["SKYNET_LANG"] = "en"
    env["SKYNET_RUN_LOG"] = "0"  # no run recorded (in the test's folder) unless a test asks
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env.update(extra or {})
    for name in unset:
        env.pop(name, None)
    return env


def checkout_env(**extra: str) -> dict[str, str]:
    """``cli_env`` with ``extra`` set (the keyword form)."""
    return cli_env(extra)


def skynet_check_command(how: How = "module") -> list[str]:
    """The command line that starts skynet-check, before its arguments."""
    if how == "script":
        assert SCRIPT.is_file(), f"{SCRIPT} is missing: pip install -e '.[test]' installs it"
    return list(COMMANDS[how])


def skynet_check(
    *args: object,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    unset: Collection[str] = (),
    how: How = "module",
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``skynet-check ARGS`` run to its end in ``cwd``, its output captured as text.

    Its environment is ``cli_env(env, unset)``: the one rule, said there.
    """
    return subprocess.run(
        [*skynet_check_command(how), *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=cli_env(env, unset),
        timeout=timeout,
    )


def skynet_check_in(folder: Path, *args: object, **env: str) -> subprocess.CompletedProcess[str]:
    """``skynet-check ARGS`` run in ``folder``, ``env`` on top of the rule."""
    return skynet_check(*args, cwd=folder, env=env)


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
    # junit-10.xsd allows no "skipped" on <testsuites> (each <testsuite> has its own).
    assert set(root.attrib) <= {"name", "time", "tests", "failures", "errors", "disabled"}
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
    assert {name: int(root.get(name, "0")) for name in totals if name != "skipped"} == {
        name: count for name, count in totals.items() if name != "skipped"
    }
    return root
