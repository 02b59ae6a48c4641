"""The conformance matrix as a table: rule x path, what each test of the rule found there.

    python -m tests.conformance.matrix            # runs tests/conformance, prints Markdown
    python -m tests.conformance.matrix -k dask    # pytest's own options pass through

A cell is "holds" when every test of the rule passed on the path, "n.a." with the
reason the test's parameter list gives, or the tests that failed.  The table is made
from a run, never written by hand.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.paths import PATHS

HERE = Path(__file__).parent
_RULE_FILE = re.compile(r"test_rule_(\d+)_(\w+)\.py$")
_PATH_ID = re.compile(r"\[([^\]]+)\]$")


class _Outcomes:
    """A pytest plugin: each conformance test's outcome, by rule and path."""

    def __init__(self) -> None:
        self.cells: dict[tuple[str, str], list[tuple[str, str, str]]] = defaultdict(list)

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when != "call" and not (report.when == "setup" and report.outcome != "passed"):
            return
        rule, path = _rule_and_path(report.nodeid)
        if rule is None or path is None:
            return
        reason = ""
        if report.outcome == "skipped" and isinstance(report.longrepr, tuple):
            reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        name = report.nodeid.split("::")[-1].split("[")[0].removeprefix("test_")
        self.cells[rule, path].append((report.outcome, name, reason))


def _rule_and_path(nodeid: str) -> tuple[str | None, str | None]:
    file = _RULE_FILE.search(nodeid.split("::")[0])
    ids = _PATH_ID.search(nodeid)
    if file is None or ids is None:
        return None, None
    given = ids.group(1)  # "dask", "thread-pool-403": the path first, then other params
    named = [p for p in PATHS if given == p or given.startswith(p + "-")]
    path = max(named, key=len) if named else None  # "process-pool" before "process"
    return f"{file.group(1)} {file.group(2).replace('_', ' ')}", path


def _cell(found: list[tuple[str, str, str]]) -> str:
    failed = [name for outcome, name, _ in found if outcome == "failed"]
    if failed:
        return "FAILS: " + ", ".join(sorted(set(failed)))
    ran = [name for outcome, name, _ in found if outcome == "passed"]
    skipped = sorted(
        {reason.split(" does not apply: ")[-1] for o, _, reason in found if o == "skipped"}
    )
    if ran and skipped:
        return f"holds ({len(ran)}); n.a. for {len(found) - len(ran)}: " + "; ".join(skipped)
    if ran:
        return f"holds ({len(ran)})"
    return "n.a.: " + "; ".join(skipped) if skipped else "not run"


def table(cells: dict[tuple[str, str], list[tuple[str, str, str]]]) -> str:
    rules = sorted({rule for rule, _ in cells}, key=lambda r: int(r.split()[0]))
    lines = ["| rule | " + " | ".join(PATHS) + " |", "|---" * (len(PATHS) + 1) + "|"]
    for rule in rules:
        row = [_cell(cells.get((rule, path), [])) for path in PATHS]
        lines.append(f"| {rule} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    outcomes = _Outcomes()
    code = pytest.main([str(HERE), "-q", "-p", "no:randomly", "-n", "0", *argv], [outcomes])
    print()
    print(table(outcomes.cells))
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
