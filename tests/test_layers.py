"""The package's layers: each subpackage imports only the layers below it.

Read from the source (every import, at module level or inside a function; only
``if TYPE_CHECKING:`` blocks are left out, since they never run), and checked
again at run time in a fresh interpreter, where importing a layer must not load
a module of a layer above it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "skynet_jupyter"

# Lowest first. A layer may import its own modules and those of lower layers; two
# layers of the same rank never import each other.
RANKS = {
    "i18n": 0,
    "core": 1,
    "models": 2,
    "helper": 3,
    "run": 4,
    "show": 5,
    "quality": 6,
    "optimizers": 6,
    "alignment": 7,  # judge alignment: quality's agreement driving optimizers' GEPA
    "notebook": 8,
    "cli": 8,
    # the root: the public API and what entry points find there (pytest's plugin,
    # `import skynet` from a path, the example files)
    "": 9,
}
ROOT_LAYER = ("pytest_plugin", "importable", "examples")

# The two imports that point up, each inside one function, and why they must.
UPWARD = {
    # A report shows itself (STYLE: results render themselves): at display time only.
    ("core.report", "show.render"),
    # The `import skynet` hook's job is to load the helper module, by its name, on demand.
    ("core.skynet_import", "helper"),
    ("core.skynet_import", "helper.skynet"),
}

# Only the notebook layer talks to IPython and the browser.
FRONT_END = ("IPython", "ipywidgets", "traitlets", "comm", "ipykernel")

# Limits on the package's own root: the public API and the entry points.
ROOT_FILES = 8


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> str:
    first = module.split(".")[0]
    return "" if first in ROOT_LAYER else first


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(path: Path, *, top_level_only: bool = False) -> list[tuple[str, int]]:
    """(imported module relative to the package, or 'ext:NAME'; line) for every import."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                continue
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".") if package else []
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join([*base, *([child.module] if child.module else [])])
                    if child.module:
                        found.append((target, child.lineno))
                    else:  # from . import x, y: each is a module of that package
                        for alias in child.names:
                            found.append((f"{target}.{alias.name}".strip("."), child.lineno))
                elif child.module and child.module.split(".")[0] == "skynet_jupyter":
                    found.append((child.module.partition(".")[2], child.lineno))
                elif child.module:
                    found.append(("ext:" + child.module.split(".")[0], child.lineno))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == "skynet_jupyter":
                        found.append((alias.name.partition(".")[2], child.lineno))
                    else:
                        found.append(("ext:" + alias.name.split(".")[0], child.lineno))
            if top_level_only and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_layer_has_a_rank() -> None:
    layers = {_layer(_module_name(path)) for path in _sources()}
    assert layers <= set(RANKS), f"a new layer needs a rank here: {layers - set(RANKS)}"


def test_imports_point_down() -> None:
    upward = []
    for path in _sources():
        module = _module_name(path)
        here = _layer(module)
        for target, line in _imports(path):
            if target.startswith("ext:"):
                continue
            there = _layer(target)
            if there == here or (module, target) in UPWARD:
                continue
            if RANKS[there] >= RANKS[here]:
                upward.append(f"{path.relative_to(PACKAGE)}:{line} imports {target}")
    assert not upward, "imports that do not point down:\n" + "\n".join(upward)


def test_the_upward_imports_are_inside_functions() -> None:
    # The two allowed upward imports must stay lazy: importing the core loads no view.
    for module, target in UPWARD:
        path = PACKAGE / (module.replace(".", "/") + ".py")
        top_level = [name for name, _ in _imports(path, top_level_only=True)]
        assert target not in top_level, f"{module} imports {target} at module level"


def test_only_the_notebook_layer_imports_the_front_end() -> None:
    offenders = []
    for path in _sources():
        if _layer(_module_name(path)) == "notebook":
            continue
        for target, line in _imports(path):
            if target.startswith("ext:") and target[4:] in FRONT_END:
                offenders.append(f"{path.relative_to(PACKAGE)}:{line} imports {target[4:]}")
    assert not offenders, "\n".join(offenders)


def test_no_import_circles() -> None:
    graph: dict[str, set[str]] = {}
    modules = {_module_name(path) for path in _sources()}
    for path in _sources():
        module = _module_name(path)
        edges = graph.setdefault(module, set())
        for target, _ in _imports(path):
            if target.startswith("ext:") or (module, target) in UPWARD:
                continue  # the upward imports are lazy by design (the test above)
            # `from .pkg import name` may name a module of pkg, or an attribute of it
            edges.add(target if target in modules else target.rpartition(".")[0])
    # A package's __init__ importing its own modules is how packages work, not a circle.
    circles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt == node or node.startswith(nxt + ".") or not nxt:
                continue
            if state.get(nxt) == 1:
                circles.append(" -> ".join([*trail[trail.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_the_package_root_holds_only_the_entry_points() -> None:
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= ROOT_FILES, root
    assert root == ["__init__.py", "pytest_plugin.py"]


_LOADED = """
import importlib, json, sys
importlib.import_module({module!r})
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("skynet_jupyter", "IPython")))))
"""


@pytest.mark.parametrize("layer", ["i18n", "core", "models", "helper", "run", "show"])
def test_importing_a_layer_loads_nothing_above_it(layer: str) -> None:
    modules = sorted(
        _module_name(path)
        for path in _sources()
        if _layer(_module_name(path)) == layer and path.name != "__main__.py"
    )

    def loaded_by(module: str) -> set[str]:
        done = subprocess.run(
            [sys.executable, "-c", _LOADED.format(module=module)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return set(json.loads(done.stdout))

    # What `import skynet_jupyter` itself loads (the `import skynet` finder, from the core).
    package = loaded_by("skynet_jupyter")
    for module in modules:
        loaded = loaded_by(f"skynet_jupyter.{module}") - package
        assert not [name for name in loaded if name.startswith("IPython")], module
        above = [
            name
            for name in loaded
            if name.startswith("skynet_jupyter.")
            and RANKS[_layer(name.partition(".")[2])] > RANKS[layer]
        ]
        assert not above, f"importing skynet_jupyter.{module} loads {above}"
