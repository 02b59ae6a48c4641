"""The module maps (README's "Layout", the package docstring) list exactly the files there are.

A module added, renamed or deleted without its line in both maps fails here, so
the maps stay a true guide to where each job lives.
"""

from __future__ import annotations

import re
from pathlib import Path

import skynet_jupyter

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "skynet_jupyter"
NAME = re.compile(r"[A-Za-z_]\w*(?:\.py|/)")


def _files() -> set[str]:
    """Every module of the package (but ``__init__.py``) and every folder, as ``name/``."""
    modules = {path.name for path in PACKAGE.glob("*.py") if path.name != "__init__.py"}
    folders = {
        f"{path.name}/"
        for path in PACKAGE.iterdir()
        if path.is_dir() and not path.name.startswith((".", "__"))
    }
    return modules | folders


def _named(lines: list[str]) -> list[str]:
    return [word for line in lines for word in line.split() if NAME.fullmatch(word)]


def _readme_map() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    lines = section.splitlines()
    start = lines.index("    skynet_jupyter/") + 1
    block = []
    for line in lines[start:]:
        if not line.startswith("      ") and line.strip():
            break  # back to the project's top level (notebooks/, tests/, ...)
        block.append(line)
    return _named(block)


def _docstring_map() -> list[str]:
    doc = skynet_jupyter.__doc__ or ""
    assert "Modules" in doc, "the package docstring has no module map"
    return _named(doc.split("Modules", 1)[1].splitlines())


def test_the_readme_layout_lists_exactly_the_packages_files() -> None:
    named = _readme_map()
    assert len(named) == len(set(named)), "a file is listed twice"
    files = _files()
    assert sorted(files - set(named)) == [], "files missing from README's Layout"
    assert sorted(set(named) - files) == [], "README's Layout names files that do not exist"


def test_the_package_docstring_lists_exactly_the_packages_files() -> None:
    named = _docstring_map()
    assert len(named) == len(set(named)), "a file is listed twice"
    files = _files()
    assert sorted(files - set(named)) == [], "files missing from the package docstring"
    assert sorted(set(named) - files) == [], "the package docstring names files that do not exist"
