"""``--save``'s rule over generated histories (issue 36, item 1; issue 44, item 1): a metric's
save replaces the file only when it still holds what ``%%skynet_metric`` last saved there for
that metric, whichever kernel or notebook saved it (or with ``--force``); any other content
(an editor, git, another metric's save, a file no save is on record for) is never lost, and
the refusal is an error naming what it found, never a note that looks like success.

A kernel restart and a second notebook are steps of the history: nothing of the rule lives in
a kernel, so they change nothing but the notebook's name the record keeps.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from IPython.core.error import UsageError

from skynet_jupyter.core import saving as core_saving
from skynet_jupyter.notebook import save as saving

# Texts of several lines, any characters a file can hold (a lone surrogate cannot be UTF-8),
# "\r" and "\r\n" included: a file read back in text mode gives "\n".
line = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
texts = st.lists(line, min_size=1, max_size=4).map(lambda lines: "\n".join(lines) + "\n")
steps = st.one_of(
    st.tuples(st.just("save"), st.sampled_from(["a", "b"]), texts, st.booleans()),
    st.tuples(st.just("edit"), texts),
    st.tuples(st.just("notebook"), st.sampled_from(["", "first.ipynb", "second.ipynb"])),
    st.tuples(st.just("lose_record")),
)


def lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


@settings(max_examples=200, deadline=None)
# Found by this property: the file holds what metric a saved, with its \r\n written as \n;
# the refusal of b's save said "only its line endings differ" instead of naming a.
@example(history=[("save", "a", "0\r\n", False), ("save", "b", "\n", False)])
@given(history=st.lists(steps, max_size=12))
def test_a_save_replaces_only_its_own_earlier_save(history):
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.delenv("JPY_SESSION_NAME", raising=False)
        path = Path(folder) / "metric.py"
        record: tuple[str, str] | None = None  # (metric, text) of the last save on record
        for step in history:
            before = path.read_text(encoding="utf-8") if path.exists() else None
            if step[0] == "edit":
                path.write_text(step[1], encoding="utf-8")
                continue
            if step[0] == "notebook":  # a restart, or the same cell in another notebook
                patch.setenv("JPY_SESSION_NAME", step[1])
                continue
            if step[0] == "lose_record":
                shutil.rmtree(Path(folder) / ".skynet_cache", ignore_errors=True)
                record = None
                continue
            _, metric, text, force = step
            ours = record is not None and record[0] == metric and lines(record[1]) == before
            unchanged = before is not None and before == lines(text)
            allowed = before is None or unchanged or force or ours
            try:
                saving.save_source(path, text, force, metric)
            except UsageError as refused:
                said = str(refused)
                assert not allowed, f"a save the rule allows was refused: {said}"
                assert "--force" in said and said.startswith("Not saved: ")
                if record is None:
                    assert "no %%skynet_metric cell saved there" in said
                elif record[0] != metric and lines(record[1]) == before:
                    assert f"holds the metric {record[0]!r}" in said
                else:
                    assert f"changed since %%skynet_metric {record[0]} saved it" in said
                assert path.read_text(encoding="utf-8") == before  # nothing lost
                continue
            assert allowed, f"{before!r} was overwritten without --force"
            assert path.read_text(encoding="utf-8") == lines(text)
            record = (metric, text)
            kept = core_saving.recall(path)
            assert kept is not None and (kept.metric, kept.text) == record
            assert kept.notebook == Path(os.environ.get("JPY_SESSION_NAME", "")).name


@settings(max_examples=300, deadline=None)
@given(saved=texts, held=texts)
def test_the_change_said_is_one_short_line_naming_a_line_of_the_file(saved, held):
    said = core_saving.change_said(saved, held, "en")
    assert "\n" not in said and "\r" not in said
    assert len(said) < 300
    if lines(saved).splitlines() == lines(held).splitlines():
        assert said == "only its line endings differ"
    else:
        number = int(re.search(r"\bline (\d+)", said)[1])
        assert 1 <= number <= len(lines(held).splitlines()) + 1
