"""The package's layers: each subpackage imports only the layers below it.

Read from the source, counting EVERY import: at module level, inside a function,
and under ``if TYPE_CHECKING:`` (a type a module names is a dependency of its
code, and a cycle through one is still a cycle).  There is no allow-list: an
import that points up, or a circle of imports, fails with its file:line, every
one of them at once.  Checked again at run time in a fresh interpreter, where
importing a layer must not load a module of a layer above it.

Two things are found *by name at run time*, not imported, so that no import
points up (each module's docstring says why): a report's views (the registry in
``core/shows_itself.py``) and the helper module behind ``import skynet``
(``core/skynet_import.py``).
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
    "runlog": 3.5,  # the run log: the record and its store need only the core (and settings)
    "run": 4,
    "show": 5,
    "runlog.views": 5.5,  # the run log's text, HTML and chart: drawn with show/
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

# Only the notebook layer talks to IPython and the browser.
FRONT_END = ("IPython", "ipywidgets", "traitlets", "comm", "ipykernel")

# Limits on the package's own root: the public API and the entry points.
ROOT_FILES = 8

Import = tuple[str, int]  # (module relative to the package, or "ext:NAME"; line)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> str:
    first = module.split(".")[0]
    if first in ROOT_LAYER:
        return ""
    inner = ".".join(module.split(".")[:2])  # a package's part ranked apart (runlog.views)
    return inner if inner in RANKS else first


def _relative_targets(node: ast.ImportFrom, package: str) -> list[str]:
    base = package.split(".") if package else []
    base = base[: len(base) - (node.level - 1)]
    target = ".".join([*base, *([node.module] if node.module else [])])
    if node.module:
        return [target]
    # from . import x, y: each is a module of that package
    return [f"{target}.{alias.name}".strip(".") for alias in node.names]


def _absolute_target(name: str) -> str:
    if name.split(".")[0] == "skynet_jupyter":
        return name.partition(".")[2]
    return "ext:" + name.split(".")[0]


def _targets(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        if node.level:
            return _relative_targets(node, package)
        return [_absolute_target(node.module)] if node.module else []
    if isinstance(node, ast.Import):
        return [_absolute_target(alias.name) for alias in node.names]
    return []


def _imports(path: Path) -> list[Import]:
    """Every import statement of the file, wherever it stands (functions, TYPE_CHECKING)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(target, node.lineno) for node in ast.walk(tree) for target in _targets(node, package)]


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _where(path: Path, line: int) -> str:
    return f"skynet_jupyter/{path.relative_to(PACKAGE)}:{line}"


def test_every_layer_has_a_rank() -> None:
    layers = {_layer(_module_name(path)) for path in _sources()}
    assert layers <= set(RANKS), f"a new layer needs a rank here: {layers - set(RANKS)}"


def _upward(path: Path) -> list[str]:
    here = _layer(_module_name(path))
    return [
        f"{_where(path, line)} imports {target}"
        for target, line in _imports(path)
        if not target.startswith("ext:")
        and _layer(target) != here
        and RANKS[_layer(target)] >= RANKS[here]
    ]


def test_imports_point_down() -> None:
    upward = [found for path in _sources() for found in _upward(path)]
    assert not upward, "imports that do not point down:\n" + "\n".join(upward)


def test_only_the_notebook_layer_imports_the_front_end() -> None:
    offenders = [
        f"{_where(path, line)} imports {target[4:]}"
        for path in _sources()
        if _layer(_module_name(path)) != "notebook"
        for target, line in _imports(path)
        if target.startswith("ext:") and target[4:] in FRONT_END
    ]
    assert not offenders, "\n".join(offenders)


Graph = dict[str, dict[str, str]]  # module -> {imported module: "file:line"}


def _import_graph() -> Graph:
    modules = {_module_name(path) for path in _sources()}
    graph: Graph = {}
    for path in _sources():
        module = _module_name(path)
        edges = graph.setdefault(module, {})
        for target, line in _imports(path):
            if target.startswith("ext:"):
                continue
            # `from .pkg import name` may name a module of pkg, or an attribute of it
            imported = target if target in modules else target.rpartition(".")[0]
            # A package's __init__ importing its own modules (or a module importing the
            # package it belongs to) is how packages work, not a circle.
            if imported and imported != module and not module.startswith(imported + "."):
                edges.setdefault(imported, _where(path, line))
    return graph


def _tangles(graph: Graph) -> list[set[str]]:
    """The strongly connected groups of two or more modules (Tarjan): each holds a circle.

    Every group is found, however the walk enters it, so one run lists them all."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in graph.get(node, {}):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            group: set[str] = set()
            while node not in group:
                group.add(stack.pop())
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return groups


def _circles(graph: Graph) -> list[str]:
    """Each tangle of modules, with every import inside it as file:line."""
    return [
        "\n".join(
            f"    {a} -> {b} ({graph[a][b]})"
            for a in sorted(group)
            for b in sorted(graph[a])
            if b in group
        )
        for group in _tangles(graph)
    ]


def test_no_import_circles() -> None:
    circles = _circles(_import_graph())
    assert not circles, "import circles (modules that import each other):\n" + "\n\n".join(circles)


def test_the_package_root_holds_only_the_entry_points() -> None:
    root = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(root) <= ROOT_FILES, root
    assert root == ["__init__.py", "pytest_plugin.py"]


_LOADED = """
import importlib, json, sys
importlib.import_module({module!r})
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("skynet_jupyter", "IPython")))))
"""


@pytest.mark.parametrize("layer", ["i18n", "core", "models", "helper", "runlog", "run", "show"])
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
