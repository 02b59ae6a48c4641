"""Issue 25, item 18: a step has one name, in the reports and in the prose that names it.

The French quickstart called the step "Valeur renvoyée par la métrique" where the report
says "Valeur de retour de la métrique".  Every emphasized phrase (``*...*``, ``**...**``)
of a notebook's markdown, README.md and docs/*.md that reads like a step's name must be
that step's name in the catalog: the notebook's own language, or any language in the docs
(the README names the French and Portuguese titles).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from skynet_jupyter.core.contract import STEP_IDS
from skynet_jupyter.i18n import LANGUAGES, t

ROOT = Path(__file__).resolve().parents[2]
EMPHASIS = re.compile(r"(\*\*|\*)(?=[^\s*])(.+?)(?<=[^\s*])\1", re.S)
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def titles(lang: str) -> dict[str, str]:
    return {t(f"step.{step}", lang): step for step in STEP_IDS}


def words(text: str) -> list[str]:
    return [word.lower() for word in WORD.findall(text)]


def named_like(phrase: str, title: str) -> bool:
    """``phrase`` opens as ``title`` does and shares half its words (two at least).

    "*metric*" or "*metric model*" is not a step's name; "Valeur renvoyée par la
    métrique" is one, spelled otherwise.
    """
    said, named = words(phrase), words(title)
    if not said or said[0] != named[0]:
        return False
    shared = len(set(said) & set(named))
    return shared >= 2 and shared * 2 >= len(set(named))


def emphasized(markdown: str) -> list[str]:
    return [" ".join(match.group(2).split()) for match in EMPHASIS.finditer(markdown)]


def prose() -> list[tuple[str, tuple[str, ...], str]]:
    """(where, the languages its step names may be in, its markdown)."""
    found = []
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        folder = path.parent.name
        langs = (folder,) if folder in LANGUAGES else ("en",)
        notebook = nbformat.read(path, as_version=4)
        for number, cell in enumerate(notebook.cells):
            if cell.cell_type == "markdown":
                where = f"{path.relative_to(ROOT)}, cell {number}"
                found.append((where, langs, cell.source))
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        found.append((str(path.relative_to(ROOT)), LANGUAGES, path.read_text(encoding="utf-8")))
    return found


def misnamed(markdown: str, langs: tuple[str, ...]) -> list[tuple[str, str]]:
    """(the phrase, the step name it should be) for each step named otherwise."""
    names = {title: lang for lang in langs for title in titles(lang)}
    wrong = []
    for phrase in emphasized(markdown):
        if phrase in names:
            continue
        for lang in langs:
            wrong += [(phrase, title) for title in titles(lang) if named_like(phrase, title)]
    return wrong


def test_the_rule_catches_the_french_quickstart_of_before():
    before = "La vérification échoue à l'étape **Valeur\nrenvoyée par la métrique** et dit"
    assert misnamed(before, ("fr",)) == [
        ("Valeur renvoyée par la métrique", t("step.metric_return_value", "fr"))
    ]
    assert misnamed("fails at **Metric return value** and *Output column*", ("en",)) == []


@pytest.mark.parametrize(("where", "langs", "markdown"), prose(), ids=lambda v: str(v)[:60])
def test_prose_names_each_step_as_the_report_does(where, langs, markdown):
    assert misnamed(markdown, langs) == [], where


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_quickstart_names_the_return_value_step_as_its_report(lang):
    name = {"en": "01-quickstart", "fr": "fr/01-demarrage-rapide", "pt": "pt/01-inicio-rapido"}
    notebook = nbformat.read(ROOT / "notebooks" / f"{name[lang]}.ipynb", as_version=4)
    markdown = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    assert t("step.metric_return_value", lang) in emphasized(markdown)
