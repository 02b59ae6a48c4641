"""The test toolchain's lock: every package ``pip install -e '.[test]'`` installs, at one version.

``.ci/run`` installs with it, so a fresh machine gets the set this file names and not
whatever is newest the day CI runs (issue 45: a new IPython made mypy fail on every
fresh machine, while machines that had installed before stayed green). One command
updates it, on the CI's kind of machine (CPython 3.11, Linux x86_64)::

    python tools/lock_test_toolchain.py            # resolve .[test] afresh, write .ci/test-lock.txt
    python tools/lock_test_toolchain.py check      # the installed set against the lock (.ci/run)
    python tools/lock_test_toolchain.py check --newer   # what differs from it (.ci/run --latest)

The lock is pip's own resolution (``pip install --dry-run --ignore-installed --report``):
what a fresh machine would install, under this machine's pip settings, so the cap in
``/etc/xdg/pip/constraints.txt`` holds for it too. It is a constraints file, one
``name==version`` a line with the packages that asked for it below (as pip-compile writes
them): ``pip install -c .ci/test-lock.txt -e '.[test]'``.

``check`` walks the requirements of ``skynet-jupyter[test]`` through the installed
distributions' metadata and compares each package reached with the lock: a package the
lock lacks means ``pyproject.toml`` changed since the lock was made.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.markers import Marker
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / ".ci" / "test-lock.txt"
PROJECT = "skynet-jupyter"
TOP = f"{PROJECT}[test]"
COMMAND = "python tools/lock_test_toolchain.py"
# The CI machine: the lock holds what pip resolves there, markers included.
TARGET = ("CPython", "3.11", "Linux", "x86_64")


def canonical(name: str) -> str:
    """A distribution's name as pip compares names (PEP 503): ``Jinja2`` is ``jinja2``."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Pin:
    """One locked package: its name (as pip reports it), version and who asked for it."""

    name: str
    version: str
    via: tuple[str, ...] = field(default=())


def _marker_holds(
    marker: Marker | None, environment: Mapping[str, str], extras: Iterable[str]
) -> bool:
    """Whether a requirement applies: in ``environment``, for the package or one of its extras."""
    if marker is None:
        return True
    return any(marker.evaluate({**environment, "extra": extra}) for extra in ("", *extras))


def pins_from_report(report: Mapping[str, Any]) -> list[Pin]:
    """The packages of a ``pip install --report`` answer, the project itself left out.

    Sorted by canonical name; ``via`` names (canonically, sorted) the installed packages
    whose requirements, under the report's own marker environment and the extras asked
    of them, name this one.
    """
    environment: Mapping[str, str] = report.get("environment", {})
    items = report["install"]
    wanted_by: dict[str, set[str]] = {}
    for item in items:
        parent = canonical(item["metadata"]["name"])
        extras = item.get("requested_extras") or ()
        for line in item["metadata"].get("requires_dist") or ():
            requirement = Requirement(line)
            if _marker_holds(requirement.marker, environment, extras):
                wanted_by.setdefault(canonical(requirement.name), set()).add(parent)
    pins = [
        Pin(
            item["metadata"]["name"],
            item["metadata"]["version"],
            tuple(sorted(wanted_by.get(canonical(item["metadata"]["name"]), set()))),
        )
        for item in items
        if canonical(item["metadata"]["name"]) != PROJECT
    ]
    return sorted(pins, key=lambda pin: canonical(pin.name))


def lock_text(pins: Iterable[Pin], made_with: str) -> str:
    """The lock file: a header saying how it was made and is used, then one pin a line."""
    made_with = " ".join(made_with.split())  # one comment line, whatever pip reported
    lines = [
        "# The test toolchain, locked: every package `pip install -e '.[test]'` installs.",
        f"# Made by `{COMMAND}`: {made_with}.",
        "# Do not edit it by hand: run the command again.",
        "# Used by .ci/run: pip install -c .ci/test-lock.txt -e '.[test]' (CONTRIBUTING.md).",
    ]
    for pin in pins:
        lines.append(f"{pin.name}=={pin.version}")
        if pin.via:
            lines.append(f"    # via {', '.join(pin.via)}")
    return "\n".join(lines) + "\n"


def read_lock(text: str) -> dict[str, str]:
    """``{canonical name: version}`` of a lock file; comments and blank lines skipped.

    A line that is not ``name==version``, or a name locked twice, is an error that says
    which line: a lock is written by the command, so either means it was edited by hand.
    """
    pins: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s=;]+)", line)
        if match is None:
            raise ValueError(
                f"Line {number} of the lock is {raw!r}, not 'name==version': "
                f"the lock is written by `{COMMAND}`; run it again rather than edit the file."
            )
        name = canonical(match[1])
        if name in pins:
            raise ValueError(
                f"Line {number} of the lock pins {match[1]} a second time: "
                f"run `{COMMAND}` again rather than edit the file."
            )
        pins[name] = match[2]
    return pins


def installed_closure(top: str = TOP) -> dict[str, str | None]:
    """``{canonical name: installed version or None}`` of everything ``top`` requires.

    Walks the installed distributions' own metadata from ``top`` (extras followed, markers
    evaluated for this interpreter), so it is the set a ``pip install`` of ``top`` needs
    here, whatever else the environment holds. ``None``: required but not installed.
    """
    found: dict[str, str | None] = {}
    walked: set[tuple[str, str]] = set()  # (name, extra): "" for its own requirements
    todo = [Requirement(top)]
    while todo:
        requirement = todo.pop()
        name = canonical(requirement.name)
        extras = {"", *requirement.extras} - {extra for known, extra in walked if known == name}
        if not extras:
            continue
        walked.update((name, extra) for extra in extras)
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            found[name] = None
            continue
        found[name] = distribution.version
        for line in distribution.requires or ():
            child = Requirement(line)
            if child.marker is None or any(
                child.marker.evaluate({"extra": extra}) for extra in extras
            ):
                todo.append(child)
    found.pop(PROJECT, None)
    return found


def differences(lock: Mapping[str, str], installed: Mapping[str, str | None]) -> list[str]:
    """What the installed set does not share with the lock, one sentence each, sorted.

    ``installed`` is :func:`installed_closure`'s answer. Empty: the tests run on exactly
    the locked toolchain.
    """
    lines = []
    for name in sorted(set(lock) | set(installed)):
        have, pinned = installed.get(name), lock.get(name)
        if name not in installed:
            lines.append(f"{name} {pinned} is locked but nothing installed requires it now.")
        elif have is None:
            lines.append(f"{name} is required but not installed (the lock says {pinned}).")
        elif pinned is None:
            lines.append(f"{name} {have} is installed but not in the lock.")
        elif have != pinned:
            lines.append(f"{name} is installed at {have}; the lock says {pinned}.")
    return lines


def resolve(root: Path = ROOT) -> dict[str, Any]:
    """What pip would install for ``.[test]`` on a fresh machine: its JSON report."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed"]
        command += ["--quiet", "--report", str(report), "-e", ".[test]"]
        done = subprocess.run(command, cwd=root, capture_output=True, text=True)
        if done.returncode != 0:  # pip's own words; its warnings only then
            sys.stderr.write(done.stdout + done.stderr)
            raise SystemExit(f"pip could not resolve .[test] (exit {done.returncode}): above.")
        return dict(json.loads(report.read_text(encoding="utf-8")))


def on_target() -> str | None:
    """Why this machine cannot make the lock (markers resolve for the CI machine), or None."""
    here = (
        platform.python_implementation(),
        ".".join(platform.python_version_tuple()[:2]),
        platform.system(),
        platform.machine(),
    )
    if here == TARGET:
        return None
    return (
        f"This is {' '.join(here)}, and the lock is made on the CI's kind of machine, "
        f"{' '.join(TARGET)}: pip resolves environment markers for the machine it runs on. "
        "Run the command there."
    )


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def write(lock: Path = LOCK) -> int:
    """Resolve ``.[test]`` afresh and write the lock; 2 off the CI's kind of machine."""
    if problem := on_target():
        print(problem, file=sys.stderr)
        return 2
    report = resolve()
    environment = report.get("environment", {})
    made_with = (
        f"pip {report.get('pip_version', '?')} resolving afresh on "
        f"{environment.get('platform_python_implementation', '?')} "
        f"{environment.get('python_full_version', '?')}, "
        f"{environment.get('platform_system', '?')} {environment.get('platform_machine', '?')}"
    )
    pins = pins_from_report(report)
    lock.write_text(lock_text(pins, made_with), encoding="utf-8")
    print(f"Wrote {len(pins)} pins to {_shown(lock)}.")
    return 0


def check(lock: Path = LOCK, *, newer: bool = False) -> int:
    """Compare the installed toolchain with the lock; 1 if they differ (0 with ``newer``)."""
    found = differences(read_lock(lock.read_text(encoding="utf-8")), installed_closure())
    if newer:
        print(f"The newest toolchain against {_shown(lock)}:")
        print("\n".join(f"  {line}" for line in found) or "  the same versions.")
        return 0
    if not found:
        print(f"The installed toolchain is {_shown(lock)}'s, package for package.")
        return 0
    print(f"The installed toolchain is not {_shown(lock)}'s:", file=sys.stderr)
    print("\n".join(f"  {line}" for line in found), file=sys.stderr)
    print(
        f"If pyproject.toml's dependencies changed, run `{COMMAND}` and commit the lock.",
        file=sys.stderr,
    )
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("write", help="resolve .[test] afresh and write the lock (the default)")
    checking = commands.add_parser("check", help="compare the installed toolchain with the lock")
    checking.add_argument(
        "--newer", action="store_true", help="only say what differs (.ci/run --latest)"
    )
    arguments = parser.parse_args(argv)
    if arguments.command == "check":
        return check(newer=arguments.newer)
    return write()


if __name__ == "__main__":
    sys.exit(main())
