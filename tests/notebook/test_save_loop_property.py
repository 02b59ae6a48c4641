"""``--save``'s rule over generated histories (issue 36, item 1): a metric's save replaces
the file only when it still holds what this kernel last saved there for that metric (or
with ``--force``); any other content (an editor, git, another metric's save) is never
lost, and the refusal is an error, never a note that looks like success."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from IPython.core.error import UsageError

from skynet_jupyter.notebook import save as saving

texts = st.text(max_size=40).map(lambda body: f"# {body!r}\n")
steps = st.one_of(
    st.tuples(st.just("save"), st.sampled_from(["a", "b"]), texts, st.booleans()),
    st.tuples(st.just("edit"), texts),
)


@settings(max_examples=200, deadline=None)
@given(history=st.lists(steps, max_size=12))
def test_a_save_replaces_only_its_own_earlier_save(history):
    written = saving._WrittenHere()
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(saving, "WRITTEN_HERE", written)
        path = Path(folder) / "metric.py"
        last: dict[str, str] = {}  # what each metric's save last put in the file
        for step in history:
            before = path.read_text(encoding="utf-8") if path.exists() else None
            if step[0] == "edit":
                path.write_text(step[1], encoding="utf-8")
                continue
            _, metric, text, force = step
            ours = before is not None and last.get(metric) == before
            allowed = before is None or before == text or force or ours
            try:
                saving.save_source(path, text, force, metric)
            except UsageError as refused:
                assert not allowed, "a save the rule allows was refused"
                assert "--force" in str(refused)
                assert path.read_text(encoding="utf-8") == before  # nothing lost
                continue
            assert allowed, f"{before!r} was overwritten without --force"
            assert path.read_text(encoding="utf-8") == text
            for other in last:
                if other != metric:
                    last[other] = ""  # its save is no longer what the file holds
            last[metric] = text
