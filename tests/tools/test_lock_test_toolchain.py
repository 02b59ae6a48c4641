"""tools/lock_test_toolchain.py and the lock it writes: a fresh machine installs one known set.

Issue 45: a fresh ``pip install -e '.[test]'`` took the newest IPython and mypy failed,
while machines that had installed before stayed green. ``.ci/run`` now installs with
``.ci/test-lock.txt``; these tests hold the lock to pyproject.toml and to the machine's
own pip constraints, and the tool's reading and writing of it to their contracts.
"""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packaging.requirements import Requirement
from packaging.version import Version

from tools.lock_test_toolchain import (
    LOCK,
    PROJECT,
    ROOT,
    Pin,
    canonical,
    check,
    differences,
    installed_closure,
    lock_text,
    pins_from_report,
    read_lock,
)

MACHINE_CONSTRAINTS = Path("/etc/xdg/pip/constraints.txt")

names = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,6}([-_.][A-Za-z0-9]{1,4}){0,2}", fullmatch=True)
versions = st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3}){0,3}(\.post[0-9]|rc[0-9])?", fullmatch=True)


def the_lock() -> dict[str, str]:
    return read_lock(LOCK.read_text(encoding="utf-8"))


def declared_requirements() -> list[Requirement]:
    """pyproject.toml's dependencies and its [test] extra, its own extras followed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    found, todo, seen = [], [*project["dependencies"], *extras["test"]], set()
    while todo:
        requirement = Requirement(todo.pop())
        if canonical(requirement.name) != PROJECT:
            found.append(requirement)
            continue
        for extra in set(requirement.extras) - seen:
            seen.add(extra)
            todo.extend(extras[extra])
    return found


# --- the lock itself ---------------------------------------------------------------------


def test_the_lock_pins_every_declared_requirement_at_a_version_it_allows():
    lock = the_lock()
    assert PROJECT not in lock  # installed from the checkout, never from a registry
    for requirement in declared_requirements():
        name = canonical(requirement.name)
        assert name in lock, f"{requirement} is declared but not locked: run the tool"
        assert requirement.specifier.contains(Version(lock[name]), prereleases=True), (
            f"{requirement} is declared but the lock has {lock[name]}: run the tool"
        )


def test_the_lock_holds_to_the_machines_own_pip_constraints():
    """pip applies /etc/xdg/pip/constraints.txt (a torch cap) beside the lock: no conflict."""
    if not MACHINE_CONSTRAINTS.exists():
        pytest.skip(f"{MACHINE_CONSTRAINTS} is not on this machine")
    lock = the_lock()
    for line in MACHINE_CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        cap = Requirement(line)
        pinned = lock.get(canonical(cap.name))
        assert pinned is None or cap.specifier.contains(Version(pinned), prereleases=True)


def test_the_lock_is_what_the_tool_writes():
    """Sorted, one pin a line, each followed by who asked for it: never edited by hand."""
    text = LOCK.read_text(encoding="utf-8")
    pins = [line for line in text.splitlines() if line and not line.startswith(("#", " "))]
    assert pins == sorted(pins, key=lambda line: canonical(line.split("==")[0]))
    assert len(pins) == len(the_lock()) > 100  # the whole resolved set, not the direct deps
    assert "python tools/lock_test_toolchain.py" in text.splitlines()[1]


def test_ci_installs_with_the_lock_and_checks_the_installed_set_against_it():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -c .ci/test-lock.txt -e '.[test]'" in script
    assert "tools/lock_test_toolchain.py check" in script


def test_ci_refuses_an_argument_it_does_not_know_and_says_which_it_takes():
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run"), "--newest"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "'--newest'" in done.stderr and "--latest" in done.stderr
    assert done.stdout == ""  # nothing installed, nothing run


# --- writing and reading a lock -----------------------------------------------------------


@given(st.dictionaries(names, versions, max_size=12), st.text(max_size=30))
def test_a_written_lock_reads_back_as_its_pins(pins: dict[str, str], made_with: str):
    unique = {canonical(name): (name, version) for name, version in pins.items()}
    written = [Pin(name, version, ("someone",)) for name, version in unique.values()]
    assert read_lock(lock_text(written, made_with)) == {
        key: version for key, (_, version) in unique.items()
    }


@given(names, st.lists(st.sampled_from("-_."), min_size=1, max_size=3))
def test_canonical_names_ignore_case_and_separators(name: str, separators: list[str]):
    joined = separators[0].join([name.upper(), "x"])
    assert canonical(joined) == canonical(joined.lower().replace(separators[0], "-"))
    assert canonical(canonical(joined)) == canonical(joined)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("pytest>=8\n", "Line 1 of the lock is 'pytest>=8', not 'name==version'"),
        ("# head\n\nruff==1\nRuff==2\n", "Line 4 of the lock pins Ruff a second time"),
        ("-e .\n", "Line 1 of the lock is '-e .'"),
    ],
)
def test_a_lock_edited_by_hand_is_refused_naming_the_line(text: str, says: str):
    with pytest.raises(ValueError, match="rather than edit") as e:
        read_lock(text)
    assert says in str(e.value)


def report_item(name: str, version: str, requires: list[str], extras=None, direct=False):
    item = {"metadata": {"name": name, "version": version, "requires_dist": requires}}
    if extras:
        item["requested_extras"] = extras
    if direct:
        item["download_info"] = {"url": "file:///work", "dir_info": {"editable": True}}
    return item


def test_pins_from_a_report_follow_markers_and_extras_and_leave_the_project_out():
    report = {
        "environment": {"sys_platform": "linux", "python_version": "3.11"},
        "install": [
            report_item(
                "skynet_jupyter",
                "0.1.0",
                ["IPython>=8", "dask[distributed]; extra == 'test'", "gepa; extra == 'other'"],
                extras=["test"],
                direct=True,
            ),
            report_item("ipython", "9.19.1", ["colorama; sys_platform == 'win32'", "jedi"]),
            report_item(
                "dask", "2026.8.0", ["distributed; extra == 'distributed'"], ["distributed"]
            ),
            report_item("distributed", "2026.8.0", ["Jedi>=0.1"]),
            report_item("jedi", "0.20.1", []),
        ],
    }
    assert pins_from_report(report) == [
        Pin("dask", "2026.8.0", ("skynet-jupyter",)),
        Pin("distributed", "2026.8.0", ("dask",)),
        Pin("ipython", "9.19.1", ("skynet-jupyter",)),
        Pin("jedi", "0.20.1", ("distributed", "ipython")),
    ]


# --- the installed set against the lock ---------------------------------------------------


def dist_info(folder: Path, name: str, version: str, requires: list[str]) -> None:
    """A real installed distribution's metadata, as pip leaves it in site-packages."""
    where = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    where.mkdir()
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    lines += [f"Requires-Dist: {line}" for line in requires]
    (where / "METADATA").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_installed_closure_follows_extras_and_markers_through_real_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    dist_info(
        tmp_path,
        "skynet-probe-top",
        "1.0",
        [
            "skynet-probe-a; extra == 'x'",
            "skynet-probe-b",
            "skynet-probe-win; sys_platform == 'win32'",
            "skynet-probe-unasked; extra == 'z'",
        ],
    )
    dist_info(tmp_path, "skynet-probe-a", "2.0", ["skynet-probe-c[y]>=1"])
    dist_info(tmp_path, "skynet-probe-b", "3.0", ["skynet-probe-gone"])
    dist_info(tmp_path, "skynet-probe-c", "4.0", ["skynet-probe-d; extra == 'y'"])
    dist_info(tmp_path, "skynet-probe-d", "5.0", [])
    dist_info(tmp_path, "skynet-probe-unasked", "6.0", [])
    monkeypatch.syspath_prepend(str(tmp_path))
    assert installed_closure("skynet-probe-top[x]") == {
        "skynet-probe-top": "1.0",
        "skynet-probe-a": "2.0",
        "skynet-probe-b": "3.0",
        "skynet-probe-c": "4.0",
        "skynet-probe-d": "5.0",
        "skynet-probe-gone": None,  # required but not installed
    }


def test_differences_name_each_package_that_is_not_the_locked_one():
    lock = {"ipython": "9.19.1", "jedi": "0.20.1", "backcall": "0.2.0", "pytest": "9.2.0"}
    installed = {"ipython": "8.12.3", "jedi": "0.20.1", "pytest": None, "newdep": "1.0"}
    assert differences(lock, installed) == [
        "backcall 0.2.0 is locked but nothing installed requires it now.",
        "ipython is installed at 8.12.3; the lock says 9.19.1.",
        "newdep 1.0 is installed but not in the lock.",
        "pytest is required but not installed (the lock says 9.2.0).",
    ]


@given(st.dictionaries(names.map(canonical), versions, max_size=10))
def test_an_installed_set_that_is_the_lock_has_no_differences(lock: dict[str, str]):
    assert differences(lock, dict(lock)) == []
    for name in lock:
        changed = {**lock, name: lock[name] + ".1"}
        assert [line for line in differences(lock, changed) if line.startswith(f"{name} ")]


def test_check_fails_with_the_command_that_mends_a_stale_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    stale = tmp_path / "test-lock.txt"
    stale.write_text("# a lock made before the last change of pyproject.toml\n")
    assert check(stale) == 1
    said = capsys.readouterr().err
    assert f"The installed toolchain is not {stale}'s:" in said
    assert "is installed but not in the lock" in said
    assert "run `python tools/lock_test_toolchain.py` and commit the lock" in said
    assert check(stale, newer=True) == 0  # --latest: said, not failed
    assert "is installed but not in the lock" in capsys.readouterr().out
