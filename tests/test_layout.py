"""The maps of the package list exactly the files there are.

README's "Layout" names the package's own files and its layers (one folder
each); each layer's ``__init__`` docstring names that layer's modules.  A module
added, renamed or deleted without its line in its layer's map fails here, so the
maps stay a true guide to where each job lives.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "skynet_jupyter"
NAME = re.compile(r"[A-Za-z_]\w*(?:\.py|/)")
# Folders that are data or entry points rather than layers of code.
NOT_LAYERS = ("examples", "importable")


def _entries(folder: Path) -> set[str]:
    """A folder's modules (but ``__init__.py``) and its subfolders, as ``name/``."""
    modules = {path.name for path in folder.glob("*.py") if path.name != "__init__.py"}
    folders = {
        f"{path.name}/"
        for path in folder.iterdir()
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


def _layers() -> list[Path]:
    found = []
    for init in sorted(PACKAGE.rglob("__init__.py")):
        folder = init.parent
        if folder != PACKAGE and not set(folder.relative_to(PACKAGE).parts) & set(NOT_LAYERS):
            found.append(folder)
    return found


def test_the_readme_layout_lists_exactly_the_packages_own_files_and_layers() -> None:
    named = _readme_map()
    assert len(named) == len(set(named)), "a file is listed twice"
    files = _entries(PACKAGE) | {"__init__.py"}
    assert sorted(files - set(named)) == [], "missing from README's Layout"
    assert sorted(set(named) - files) == [], "README's Layout names what does not exist"


@pytest.mark.parametrize("folder", _layers(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_each_layer_docstring_lists_exactly_its_modules(folder: Path) -> None:
    dotted = ".".join(("skynet_jupyter", *folder.relative_to(PACKAGE).parts))
    doc = importlib.import_module(dotted).__doc__ or ""
    assert "Modules::" in doc, f"{dotted} has no module map in its docstring"
    named = _named(doc.split("Modules::", 1)[1].splitlines())
    assert len(named) == len(set(named)), "a file is listed twice"
    files = _entries(folder)
    assert sorted(files - set(named)) == [], f"missing from {dotted}'s map"
    assert sorted(set(named) - files) == [], f"{dotted}'s map names files that do not exist"
