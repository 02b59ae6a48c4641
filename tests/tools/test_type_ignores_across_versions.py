"""No ``# type: ignore`` depends on the version of a dependency (issue 45).

mypy runs with ``warn_unused_ignores``: an ignore that silences an error in a
third-party package's annotations turns into an error of its own the day that package
annotates the call (IPython 9 did, for ``no_var_expand`` and ``Magics.__init__``, and
every fresh machine failed). Such an ignore also names ``unused-ignore``, so mypy passes
with the locked toolchain and with the newest one (``.ci/run --latest``).

Which ignores those are is read off the code: an untyped call (the package's own
functions are typed, so the callee is someone else's), a class built on an untyped base,
and an import from a third-party module.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "skynet_jupyter"
IGNORE = re.compile(r"#\s*type:\s*ignore\[([^\]]*)\]")
FROM_IMPORT = re.compile(r"^\s*from\s+([A-Za-z_][\w.]*)\s+import\b")


def ignores() -> list[tuple[str, str, set[str]]]:
    """``(file:line, code line, error codes)`` of every ``type: ignore`` in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if match := IGNORE.search(line):
                codes = {code.strip() for code in match[1].split(",")}
                found.append((f"{path.relative_to(PACKAGE.parent)}:{number}", line, codes))
    return found


def from_a_dependency(line: str, codes: set[str]) -> bool:
    """Whether the error an ignore silences comes from a third-party package's types."""
    if "no-untyped-call" in codes:
        return True
    if re.match(r"^\s*class\s+\w+\(", line) and "misc" in codes:  # an untyped base class
        return True
    module = FROM_IMPORT.match(line)
    if module is None or module[1].startswith("."):
        return False
    top = module[1].split(".")[0]
    return top not in sys.stdlib_module_names and top != PACKAGE.name


def test_the_package_has_ignores_to_look_at():
    """The reading below finds the ignores it is about (IPython's unannotated calls)."""
    found = [where for where, line, codes in ignores() if from_a_dependency(line, codes)]
    assert any("notebook/magic_args.py" in where for where in found)
    assert any("core/dataset.py" in where for where in found)  # pandas-stubs' gap


@pytest.mark.parametrize(
    ("where", "line", "codes"),
    [case for case in ignores() if from_a_dependency(case[1], case[2])],
    ids=lambda value: value if isinstance(value, str) and ".py:" in value else "",
)
def test_an_ignore_of_a_dependencys_types_survives_its_next_release(
    where: str, line: str, codes: set[str]
):
    assert "unused-ignore" in codes, (
        f"{where}: this `type: ignore[{', '.join(sorted(codes))}]` silences an error in a "
        "dependency's annotations; the day the dependency fixes them, mypy's "
        "warn_unused_ignores fails the build. Add `unused-ignore` to its codes."
    )
