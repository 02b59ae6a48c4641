"""Every fenced code block of README.md and docs/*.md runs as written (issue 25, item 20).

A block runs in the context its text gives, which is its section (the ``##`` heading it
is under): each section gets an empty temporary folder, never the repository, so a block
that only works from the repository's root fails here.

- ``python`` blocks of a section run in order, as one program in a fresh process; when
  one of them uses a ``%`` magic, they run instead as the cells of one notebook in a real
  ``python3`` kernel (nbclient, as tests/docs/test_notebooks.py runs the tutorials).
- ``bash`` blocks run when each command is one of this project's (``skynet-check``,
  ``pytest``, ``python -c`` / ``python -m skynet_jupyter...``, ``export``, ``mkdir``),
  in the section's folder, with a copy of the shipped ``examples/`` in it (a checkout's
  root, as a CI job sees it).
- ``yaml`` blocks are a file's contents: they must parse.

A block that cannot run here says so in the doc, and this test reports why it skips it:
``python fragment`` (a piece of a metric: it must still parse), or an HTML comment on the
line just above the fence, ``<!-- doc-block: not run: REASON -->``, or
``<!-- doc-block: file NAME -->`` (the block is the file NAME of the section's folder,
written before the section runs; ``with the example metric.py`` puts that shipped file
beside it).
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import skynet_jupyter as sj
from tests.notebook_client import WAIT_FOR_OUTPUTS

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<info>[^`]*)$")
LABEL = re.compile(r"<!--\s*doc-block:\s*(?P<label>.*?)\s*-->")
OURS = {"skynet-check", "pytest", "export", "mkdir"}
TIMEOUT = 300


@dataclass
class Block:
    doc: str
    line: int  # of the opening fence, 1-based
    lang: str
    info: list[str]
    label: str
    code: str

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def magic(self) -> bool:
        return any(line.lstrip().startswith("%") for line in self.code.splitlines())

    @property
    def not_run(self) -> str | None:
        """Why the doc says this block does not run here (None: it runs)."""
        if "fragment" in self.info:
            return f"a {self.lang} fragment (the doc says so): it is parsed, not run"
        if self.label.startswith("not run:"):
            return self.label.removeprefix("not run:").strip()
        return None

    @property
    def file(self) -> str | None:
        found = re.match(r"file ([\w./-]+)", self.label)
        return found.group(1) if found else None


@dataclass
class Section:
    doc: str
    title: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.doc}: {self.title}"


def blocks_of(path: Path) -> list[tuple[str, Block]]:
    """(the section's title, the block) for every fenced block of ``path``, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[tuple[str, Block]] = []
    title = "(top)"
    number = 0
    while number < len(lines):
        line = lines[number]
        if line.startswith("## "):
            title = line[3:].strip()
        opening = FENCE.match(line)
        if not opening:
            number += 1
            continue
        indent, info = opening.group("indent"), opening.group("info").split()
        body: list[str] = []
        end = number + 1
        while end < len(lines) and lines[end].strip() != "```":
            body.append(lines[end][len(indent) :] if lines[end].startswith(indent) else lines[end])
            end += 1
        above = lines[number - 1] if number else ""
        label = LABEL.search(above)
        block = Block(
            doc=path.relative_to(ROOT).as_posix(),
            line=number + 1,
            lang=info[0] if info else "",
            info=info[1:],
            label=label.group("label") if label else "",
            code="\n".join(body) + "\n",
        )
        found.append((title, block))
        number = end + 1
    return found


def sections() -> list[Section]:
    result: list[Section] = []
    for path in DOCS:
        for title, block in blocks_of(path):
            if not result or (result[-1].doc, result[-1].title) != (block.doc, title):
                result.append(Section(block.doc, title))
            result[-1].blocks.append(block)
    return result


def every_block() -> list[Block]:
    return [block for section in sections() for block in section.blocks]


def environment() -> dict[str, str]:
    """This checkout, English messages, no configured model, no network needed.

    ``import skynet`` works, as README.md's "Unit-test your metric" tells a script to
    arrange (``python -m skynet_jupyter.importable`` on PYTHONPATH).
    """
    env = dict(os.environ, SKYNET_LANG="en")
    paths = [str(ROOT), str(ROOT / "skynet_jupyter" / "importable"), os.environ.get("PYTHONPATH")]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, paths))
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        env.pop(variable, None)
    return env


def bash_commands(code: str) -> list[list[str]]:
    """The commands of a bash block, continuation lines joined, comments dropped."""
    joined = code.replace("\\\n", " ")
    return [words for line in joined.splitlines() if (words := shlex.split(line, comments=True))]


def ours(words: list[str]) -> bool:
    """Whether a command is one of this project's, safe to run in a temporary folder."""
    program = words[0]
    if program in OURS:
        return True
    if program == "python" and len(words) > 2:
        return words[1] == "-c" or (words[1] == "-m" and words[2].startswith("skynet_jupyter"))
    return False


# --- every block is run, or says why not ------------------------------------------------


def test_the_docs_have_blocks_and_each_is_one_this_test_knows():
    blocks = every_block()
    assert len(blocks) > 10
    unknown = [b.where for b in blocks if b.lang not in ("python", "bash", "yaml")]
    assert unknown == [], "give each block its language (python, bash, yaml)"
    for block in blocks:
        if block.lang != "bash" or block.not_run or block.file:
            continue
        foreign = [" ".join(words) for words in bash_commands(block.code) if not ours(words)]
        assert foreign == [], (
            f"{block.where}: {foreign} is not a command of this project: label the block "
            "<!-- doc-block: not run: REASON --> on the line above it"
        )


@pytest.mark.parametrize("block", [b for b in every_block() if b.not_run], ids=lambda b: b.where)
def test_a_block_that_does_not_run_says_why(block):
    if block.lang == "python":
        source = "\n".join(
            "pass" if line.lstrip().startswith("%") else line for line in block.code.splitlines()
        )
        ast.parse(source, filename=block.where)  # a fragment still parses
    pytest.skip(f"{block.where}: {block.not_run}")


@pytest.mark.parametrize(
    "block", [b for b in every_block() if b.lang == "yaml"], ids=lambda b: b.where
)
def test_a_yaml_block_parses(block):
    import yaml

    assert yaml.safe_load(block.code) is not None, block.where


# --- each section runs -----------------------------------------------------------------


def runnable(section: Section) -> bool:
    return any(not b.not_run and b.lang in ("python", "bash") for b in section.blocks)


@pytest.mark.parametrize("section", [s for s in sections() if runnable(s)], ids=lambda s: s.id)
def test_the_sections_blocks_run_as_written(section, tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    for block in section.blocks:
        if block.file and not block.not_run:
            (folder / block.file).write_text(block.code, encoding="utf-8")
            for example in re.findall(r"with the example (\S+)", block.label):
                shutil.copy(sj.load_example(Path(example).stem), folder / example)
    code = [b for b in section.blocks if b.lang == "python" and not b.not_run and not b.file]
    if any(block.magic for block in code):
        run_in_a_kernel(code, folder)
    elif code:
        run_in_a_process(code, folder)
    bash = [b for b in section.blocks if b.lang == "bash" and not b.not_run and not b.file]
    if bash:
        shutil.copytree(Path(sj.load_example("tickets")).parent, folder / "examples")
    for block in bash:
        foreign = [" ".join(words) for words in bash_commands(block.code) if not ours(words)]
        assert foreign == [], f"{block.where}: not run, and not labelled so: {foreign}"
        done = subprocess.run(
            ["bash", "-e", "-c", block.code],
            cwd=folder,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert done.returncode == 0, f"{block.where}:\n{done.stdout}\n{done.stderr}"


def run_in_a_process(blocks: list[Block], folder: Path) -> None:
    program = "".join(f"# {b.where}\n{b.code}" for b in blocks)
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=folder,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    where = ", ".join(b.where for b in blocks)
    assert done.returncode == 0, f"{where}:\n{done.stdout}\n{done.stderr}"


def run_in_a_kernel(blocks: list[Block], folder: Path) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(b.code) for b in blocks]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(environment())
    try:
        NotebookClient(
            notebook,
            **WAIT_FOR_OUTPUTS,
            timeout=TIMEOUT,
            kernel_name="python3",
            resources={"metadata": {"path": str(folder)}},
        ).execute()
    finally:
        os.environ.clear()
        os.environ.update(saved)
