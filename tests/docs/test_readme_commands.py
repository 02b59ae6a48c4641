"""Every command README.md shows runs as written, in order, in a live IPython shell (issue 36,
item 11), or says which tutorial defines its names.

A reader copies commands from three places: fenced ``python`` blocks (run whole, as one
cell each: their ``sj.`` calls and magics), indented code blocks (each ``%`` line), and
inline code in a list item that is a magic with arguments (``%skynet_stability
--repeats 5``).  They run in the README's order in one shell (the ``shell`` fixture: a
temporary working folder, the extension loaded), so a command may use what an earlier
block defined (``tickets``, ``classify``, ``prompt``, the ``default`` metric) and nothing
else.

A command that needs a tutorial's names says so in the paragraph (or the list item) it is
in: "continues tutorial [NN-name](notebooks/NN-name.ipynb)".  It is skipped here with that
reason, and the tutorial must define every name the command's options use.

Inline ``sj.name(...)`` spans are the API's signatures, not commands: each names a public
function, and its keywords are that function's parameters.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import re
import shlex
from dataclasses import dataclass

import nbformat

import skynet_jupyter as sj
from tests.conftest import ROOT
from tests.docs.test_doc_blocks import blocks_of

README = ROOT / "README.md"
CONTINUES = re.compile(
    r"continues tutorial\s+\[(?P<name>\d\d-[\w-]+)\]\(notebooks/(?P=name)\.ipynb\)"
)
SPAN = re.compile(r"`([^`\n]+)`")
# The options whose value is a notebook name (a variable, a function, a metric).
NAMED = ("--metric", "--data", "--run", "--artifact", "--reflection-model", "--executor")


@dataclass
class Command:
    line: int
    code: str
    kind: str  # "block" (a fenced python block), "indented", "inline"
    context: str  # the paragraph or list item it is in

    @property
    def tutorial(self) -> str | None:
        found = CONTINUES.search(self.context)
        return found["name"] if found else None


def paragraphs(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) line numbers (0-based) of each paragraph: runs of non-blank lines."""
    found, start = [], None
    for number, line in enumerate([*lines, ""]):
        if line.strip() and start is None:
            start = number
        elif not line.strip() and start is not None:
            found.append((start, number - 1))
            start = None
    return found


def readme_commands() -> list[Command]:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    fenced: set[int] = set()  # lines inside fenced blocks
    commands: list[Command] = []
    for _title, block in blocks_of(README):
        end = block.line + block.code.count("\n")
        fenced.update(range(block.line - 1, end + 1))
        if block.lang == "python" and not block.not_run and not block.file:
            commands.append(Command(block.line, block.code, "block", ""))
    spans = paragraphs(lines)
    previous = ""
    for first, last in spans:
        if first in fenced:
            continue
        chunk = lines[first : last + 1]
        if all(line.startswith("    ") for line in chunk) and not chunk[0].lstrip().startswith("-"):
            commands += [
                Command(first + n + 1, line.strip(), "indented", previous)
                for n, line in enumerate(chunk)
                if line.strip().startswith("%")
            ]
            continue
        previous = "\n".join(chunk)
        starts = [n for n, line in enumerate(chunk) if re.match(r"\s*- ", line)]
        for start, end in itertools.pairwise([*starts, len(chunk)]):
            item = "\n".join(chunk[start:end])
            for n in range(start, end):
                if first + n in fenced:
                    continue
                for code in SPAN.findall(chunk[n]):
                    if re.match(r"%%?skynet_\w+\s+\S", code):
                        commands.append(Command(first + n + 1, code, "inline", item))
    return sorted(commands, key=lambda command: command.line)


def defined_by(tutorial: str) -> set[str]:
    """The names a tutorial's code cells define: variables, functions, imports, metrics."""
    notebook = nbformat.read(ROOT / "notebooks" / f"{tutorial}.ipynb", as_version=4)
    names: set[str] = set()
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        first = cell.source.split("\n", 1)[0]
        if first.startswith("%%skynet_metric"):
            words = [w for w in first.split()[1:] if not w.startswith("-")]
            names.add(words[0] if words and words[0] not in ("metric.py",) else "default")
            continue
        if first.startswith("%%"):
            continue
        source = []
        for line in cell.source.replace("\\\n", " ").splitlines():
            assigned = re.match(r"(\w+)\s*=\s*%", line)
            if assigned:
                names.add(assigned[1])
                line = ""
            source.append("" if line.lstrip().startswith(("%", "!")) else line)
        for node in ast.walk(ast.parse("\n".join(source))):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def named_values(command: str) -> set[str]:
    """The notebook names a magic line's options refer to (identifiers only)."""
    words = shlex.split(command)
    names = {
        value
        for option, value in itertools.pairwise(words)
        if option in NAMED and value.isidentifier()
    }
    return names


def top_level(arguments: str) -> str:
    """``arguments`` with what is inside nested brackets blanked out."""
    depth, kept = 0, []
    for char in arguments:
        depth -= char in ")]}"
        kept.append(char if depth == 0 else " ")
        depth += char in "([{"
    return "".join(kept)


def test_readme_shows_commands_of_each_kind():
    commands = readme_commands()
    kinds = {command.kind for command in commands}
    assert {"block", "indented"} <= kinds
    assert any(c.code.startswith("%skynet_stability") for c in commands)


def test_every_readme_command_runs_in_order_or_names_its_tutorial(shell):
    skipped, failed = [], []
    for command in readme_commands():
        where = f"README.md:{command.line}: {command.code.splitlines()[0]}"
        if command.tutorial:
            missing = named_values(command.code) - defined_by(command.tutorial)
            assert not missing, f"{where}: {command.tutorial} does not define {sorted(missing)}"
            skipped.append(f"{where} (continues tutorial {command.tutorial})")
            continue
        result = shell.run_cell(command.code, store_history=False)
        if not result.success:
            failed.append(f"{where}: {result.error_before_exec or result.error_in_exec!r}")
    assert failed == [], (
        "these README commands fail as written after the README's earlier blocks; make them "
        "run, or say 'continues tutorial [NN-name](notebooks/NN-name.ipynb)' beside them:\n"
        + "\n".join(failed)
    )
    print("skipped, each continuing a tutorial:", *skipped, sep="\n  ")


def test_each_sj_span_names_a_public_function_and_its_keywords():
    text = README.read_text(encoding="utf-8")
    wrong = []
    for span in SPAN.findall(text):
        found = re.match(r"sj\.(\w+)(\((.*)\))?$", span.strip())
        if not found:
            continue
        name, arguments = found[1], found[3] or ""
        if not hasattr(sj, name):
            wrong.append(f"`{span}`: sj has no {name}")
            continue
        target = getattr(sj, name)
        if not callable(target) or not arguments:
            continue
        try:
            parameters = inspect.signature(target).parameters
        except (TypeError, ValueError):
            continue
        if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
            continue
        for keyword in re.findall(r"(?<![\w.])(\w+)=", top_level(arguments)):
            if keyword not in parameters:
                wrong.append(f"`{span}`: {name}() has no parameter {keyword!r}")
    assert wrong == [], "\n".join(wrong)
