"""The tutorials read as a learner reads them: each leads to the next, and shows what it says.

test_notebooks.py checks that every tutorial runs; this file reads them:

- each ends with a markdown "Next" section linking the following notebook (the
  last links back to the first, or to the README), and every relative link in
  the tutorials points at a file that exists (and, for ``README.md#anchor``, at
  a heading the README has);
- no output shows a bare object repr that nothing explains (``ModelSettings(...)``
  from a cell ending in ``configure()``, ``<... object at 0x...>``);
- where the text promises the feedback "exactly" as the optimizer reads it, the
  output under it is not cut short.

The executed notebooks come from test_notebooks.py when it ran first in the
same session (no second kernel for the same notebook); otherwise they run here,
in the same conditions: a temporary copy of notebooks/, English, offline.
"""

from __future__ import annotations

import os
import re

import nbformat
import pytest
from nbclient import NotebookClient

from skynet_jupyter.i18n import t
from tests.docs.test_notebooks import (
    CELL_TIMEOUT,
    EXECUTED,
    NOTEBOOKS,
    ROOT,
    SLOW,
    TRANSLATIONS,
    TUTORIALS,
    copy_to_run,
)
from tests.notebook_client import WAIT_FOR_OUTPUTS

# An object shown as its repr, not as something the tutorial explains.
BARE_REPRS = (
    re.compile(r"ModelSettings\("),
    re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>"),
)
# Where the text says the reader sees the feedback exactly as the optimizer reads it.
EXACTLY = re.compile(
    r"exactly what the optimizer|exactement ce que l'optimiseur|exatamente o que o otimizador",
    re.IGNORECASE,
)
# The "Next" heading, in each language a tutorial is written in (its folder: fr/, pt/).
NEXT = {"": "Next", "fr": "Et ensuite", "pt": "A seguir"}
EVERY = (*TUTORIALS, *TRANSLATIONS)  # the tutorials, and their translations
CUT = ("...", "…")
LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")


def stored(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def executed(name: str, tmp_path_factory: pytest.TempPathFactory) -> nbformat.NotebookNode:
    """The notebook with its outputs: from test_notebooks' run, or run here the same way."""
    if name in EXECUTED:
        return EXECUTED[name]
    workdir = tmp_path_factory.mktemp(name.replace("/", "-")) / "notebooks"
    copy_to_run(workdir)  # without checkpoints nor the files a user's own run left
    env = dict(os.environ, SKYNET_LANG="en")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    for variable in (
        "SKYNET_TASK_MODEL",
        "SKYNET_METRIC_MODEL",
        "SKYNET_REFLECTION_MODEL",
        "SKYNET_RUN_LOG",
    ):
        env.pop(variable, None)
    notebook = nbformat.read(workdir / f"{name}.ipynb", as_version=4)
    client = NotebookClient(
        notebook,
        **WAIT_FOR_OUTPUTS,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str((workdir / name).parent)}},
    )
    client.execute(env=env)
    EXECUTED[name] = notebook
    return notebook


def output_text(cell: nbformat.NotebookNode) -> str:
    """What a reader sees under a code cell, as text (plain text and HTML)."""
    parts = []
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        parts += [output.get("text", ""), data.get("text/plain", ""), data.get("text/html", "")]
    return "\n".join(parts)


def links(notebook: nbformat.NotebookNode) -> list[str]:
    return [
        target
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for target in LINK.findall(cell.source)
    ]


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a markdown heading (lower case, no punctuation, dashes)."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def readme_anchors() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return {github_anchor(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


@pytest.mark.parametrize("name", EVERY)
def test_ends_with_a_next_section_linking_the_next_tutorial(name):
    last = stored(name).cells[-1]
    folder = name.rpartition("/")[0]  # "" for a tutorial, "fr" for a French translation
    heading = NEXT[folder]
    assert last.cell_type == "markdown", f"{name} ends on a code cell: add a Next section"
    assert re.search(rf"^## {heading}\b", last.source, re.MULTILINE), (
        f"{name}: no '## {heading}' heading"
    )
    targets = LINK.findall(last.source)
    # A translation leads on to the tutorial after its original (in English: ../NAME).
    position = TUTORIALS.index(TRANSLATIONS.get(name, name))
    up = "../" if folder else ""
    if position + 1 < len(TUTORIALS):
        wanted = f"{up}{TUTORIALS[position + 1]}.ipynb"
        assert wanted in targets, f"{name}'s Next section does not link {wanted}"
    else:
        back = f"{up}{TUTORIALS[0]}.ipynb"
        assert back in targets or any(t.startswith("../README.md") for t in targets), (
            f"{name}, the last tutorial, should link back to {back} or to the README"
        )


@pytest.mark.parametrize("name", EVERY)
def test_links_point_at_files_and_headings_that_exist(name):
    anchors = readme_anchors()
    here = (NOTEBOOKS / name).parent  # a link is relative to the notebook's own folder
    for target in links(stored(name)):
        if re.match(r"[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        assert (here / path).resolve().exists(), f"{name} links {target}: no such file"
        if anchor and path.endswith("README.md"):
            assert anchor in anchors, f"{name} links {target}: the README has no such heading"


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_a_translation_is_translated_and_set_to_its_language(name):
    lang = name.partition("/")[0]
    mine, original = stored(name), stored(TRANSLATIONS[name])
    code = "\n".join(cell.source for cell in mine.cells if cell.cell_type == "code")
    assert f'%config SkynetMagics.lang = "{lang}"' in code
    assert f'lang="{lang}"' in code and f"--lang {lang}" in code  # sj.check and skynet-check
    # The same lesson, cell for cell, and no paragraph left in English.
    assert [c.cell_type for c in mine.cells] == [c.cell_type for c in original.cells]
    for number, (cell, english) in enumerate(zip(mine.cells, original.cells, strict=True)):
        if cell.cell_type == "markdown":
            assert cell.source != english.source, f"{name}, cell {number} is not translated"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"(notebooks/{name}.ipynb)" in readme, f"the README does not link {name}"


def test_anchors_follow_github():
    assert github_anchor(" The `skynet` helper module") == "the-skynet-helper-module"
    assert github_anchor("From Python") == "from-python"
    assert "feedback-advice" in readme_anchors()


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name for name in EVERY],
)
def test_outputs_show_what_the_text_says(name, tmp_path_factory):
    notebook = executed(name, tmp_path_factory)
    cells = notebook.cells
    for number, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        shown = output_text(cell)
        for pattern in BARE_REPRS:
            found = pattern.search(shown)
            assert found is None, (
                f"{name}, cell {number} shows a bare {found.group()!r}: end the cell with ';', "
                "assign the value, or show what it means"
            )
        # A progress line ("Running the contract check…", from `!skynet-check` through
        # IPython's pseudo-terminal) is gone once the output is read as JupyterLab and
        # nbconvert read it: a carriage return overwrites its line.
        streams = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        seen = re.sub(r".*\r(?=[^\n])", "", re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", streams))
        for lang in ("en", "fr", "pt"):
            for running in ("view.running_check", "view.running_eval"):
                assert t(running, lang) not in seen, f"{name}, cell {number} keeps {running}"
    for number, cell in enumerate(cells[:-1]):
        if cell.cell_type == "markdown" and EXACTLY.search(cell.source):
            after = next(c for c in cells[number + 1 :] if c.cell_type == "code")
            shown = "\n".join(o.get("text", "") for o in after.outputs)
            shown += "\n".join(o.get("data", {}).get("text/plain", "") for o in after.outputs)
            assert shown.strip(), f"{name}, cell {number} promises an exact text that isn't shown"
            assert not any(mark in shown for mark in CUT), (
                f"{name}, cell {number} says 'exactly', but the output under it is cut short"
            )


def test_the_check_catches_a_bare_repr():
    # The patterns above must match what an unexplained repr looks like.
    shown = "ModelSettings(task_model=None, metric_model=StandInModel('x', offline))"
    assert any(p.search(shown) for p in BARE_REPRS)
    assert any(p.search("<foo.Bar object at 0x7f3a2c1d9e50>") for p in BARE_REPRS)
    assert not any(p.search("Prediction(\n    label='billing'\n)") for p in BARE_REPRS)
