"""Saving a metric cell to a file (``%%skynet_metric --save``), never losing one.

The rules are ``core/saving.py``'s (a new path or a regular file, a different
file replaced only with ``--force``, written atomically).  Here a file that still
holds what ``%%skynet_metric`` last saved there for the same metric is replaced
without ``--force``: the record of that save is kept beside the file
(``core/saving.py``'s ``remember``), so the edit → save loop goes on after a kernel
restart and from a second notebook.  Any other content is kept, and the refusal
ends the magic as a usage error naming what changed: the line an editor or git
changed, or the other metric whose save the file holds.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from IPython.core.error import UsageError

from ..core import saving
from ..i18n import current_lang, t

__all__ = ["save_source"]


def save_source(path: Path, source: str, force: bool, metric: str) -> tuple[Path, str]:
    """Write ``source`` (of the metric named ``metric``) to ``path`` atomically; (the
    path, a note), or a usage error.

    A file that holds what ``%%skynet_metric`` saved there last for the same metric
    (in this kernel, an earlier one, or another notebook's) is replaced; one that
    anyone changed since (an editor, git, another metric's save) is kept, and the
    refusal ends the cell with an error saying what changed and naming ``--force``,
    so "Run All" stops rather than go on checking a metric the file no longer holds.
    The note is in the run's language (``language()``, set where the magic started).
    """
    lang = current_lang()
    record = saving.recall(path)
    ours = record.text if record is not None and record.metric == metric else None

    def explain(held: str) -> str:
        return refusal(path, held, record, metric, lang)

    try:
        saved, note = saving.save_source(path, source, force, lang, ours=ours, explain=explain)
    except saving.SaveFailed as problem:
        raise UsageError(str(problem)) from None
    if saved is None:
        raise UsageError(note)
    saving.remember(saved, saving.SaveRecord(metric, source, _now(), notebook_name()))
    return saved, note


def refusal(path: Path, held: str, record: saving.SaveRecord | None, metric: str, lang: str) -> str:
    """Why ``path`` (holding ``held``) is kept: what changed since ``%%skynet_metric`` saved
    it, the other metric it holds, or that no save of it is on record."""
    shown = str(path)
    if record is None:
        folder = str(saving.record_path(path).parent)
        return t("magic.save_refused", lang, path=shown, folder=folder)
    where = _where(record, lang)
    if record.metric != metric and held == saving.as_written(record.text):
        return t(
            "magic.save_refused_other_metric",
            lang,
            path=shown,
            other=record.metric,
            name=metric,
            where=where,
        )
    change = saving.change_said(record.text, held, lang)
    return t(
        "magic.save_refused_changed",
        lang,
        path=shown,
        name=record.metric,
        where=where,
        change=change,
    )


def _where(record: saving.SaveRecord, lang: str) -> str:
    """ " from tutorial.ipynb on 2025-06-01 14:03": where and when the recorded save was made."""
    said = ""
    if record.notebook:
        said += t("magic.saved_from", lang, notebook=record.notebook)
    if record.saved_at:
        said += t("magic.saved_on", lang, time=record.saved_at)
    return said


def notebook_name() -> str:
    """The name of the notebook this kernel runs ("" when it is not known).

    Jupyter Server tells a kernel its notebook's path in ``JPY_SESSION_NAME``.
    """
    return os.path.basename(os.environ.get("JPY_SESSION_NAME", "").rstrip("/"))


def _now() -> str:
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
