"""What an independent attack on align's save found (issue 35): the saved metric keeps its
file's own encoding (a UTF-8 BOM, a PEP 263 coding line) and line endings, byte for byte
but for the rewritten literal; a new text the encoding cannot hold is a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from skynet_jupyter.core.saving import SaveFailed, save_source
from tests.align_support import SCRIPTED_METRIC, scripted_align, split_positions

HUMANS = ["pass", "fail"] * 10
OLD, NEW = "Answer PASS or FAIL. Version 0.", "Answer PASS or FAIL. Version 1."


def learns(train, held):
    def behave(version, case):
        if case in train:
            return "right" if version >= 1 else "wrong"
        old, new = held.get(case, ("right", "right"))
        return old if version == 0 else new

    return behave


def aligned(raw: bytes, folder: Path):
    path = folder / "judge_metric.py"
    path.write_bytes(raw)
    train, held = split_positions(20, 6, 0)
    report, _, _ = scripted_align(
        HUMANS, learns(train, {held[0]: ("wrong", "right")}), metric=str(path), val=6
    )
    assert report.improved and report.best_prompt == NEW
    return report


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("a BOM and CRLF", ("\ufeff" + SCRIPTED_METRIC).replace("\n", "\r\n").encode("utf-8")),
        (
            "latin-1",
            ("# -*- coding: latin-1 -*-\n# caf\u00e9\n" + SCRIPTED_METRIC).encode("latin-1"),
        ),
    ],
)
def test_the_saved_metric_is_the_file_but_for_its_literal(tmp_path, name, raw):
    report = aligned(raw, tmp_path)
    saved = report.save(tmp_path / "saved.py")
    assert saved.read_bytes() == raw.replace(OLD.encode(), NEW.encode()), name


def test_a_text_the_files_encoding_cannot_hold_is_a_sentence(tmp_path):
    path = tmp_path / "metric.py"
    with pytest.raises(SaveFailed, match=r"metric\.py"):
        save_source(path, "JUDGE = '\u2603'\n", False, "en", encoding="latin-1")
    assert not path.exists()
