"""README's ``load_example`` line: its comment and its value agree (issue 44, item 12).

``sj.load_example("tickets")`` is the path of the shipped CSV file; the README once wrote it
as ``tickets = sj.load_example("tickets")  # text, label``, which reads like a table while
the quickstart notebook reads the file with pandas.  The line is read from README.md as
written and run: what its comment promises is what the value holds.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pandas as pd

import skynet_jupyter as sj
from tests.conftest import ROOT

README = ROOT / "README.md"


def the_line() -> tuple[str, str]:
    """(code, comment) of the README's first line assigning ``tickets`` from load_example."""
    for line in README.read_text(encoding="utf-8").splitlines():
        found = re.fullmatch(r"(tickets = .*load_example\(\"tickets\"\).*?)\s+#\s*(.*)", line)
        if found:
            return found[1], found[2]
    raise AssertionError('README has no `tickets = ...load_example("tickets")...` line')


def test_the_value_is_what_the_comment_says():
    code, comment = the_line()
    names: dict[str, object] = {"sj": sj, "pd": pd}
    exec(code, names)
    tickets = names["tickets"]
    assert isinstance(tickets, pd.DataFrame), type(tickets)
    columns = ", ".join(tickets.columns)
    assert columns == "text, label" and columns in comment
    assert f"{len(tickets)} rows" in comment


def test_the_comment_says_load_example_gives_a_path():
    _, comment = the_line()
    assert isinstance(sj.load_example("tickets"), Path)
    assert comment.startswith("a path")


def test_the_readme_reads_the_tickets_as_the_quickstart_does():
    code, _ = the_line()
    notebook = nbformat.read(ROOT / "notebooks" / "01-quickstart.ipynb", as_version=4)
    assert any(code in cell.source for cell in notebook.cells if cell.cell_type == "code")
