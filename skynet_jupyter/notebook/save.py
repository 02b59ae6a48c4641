"""Saving a metric cell to a file (``%%skynet_metric --save``), never losing one.

The rules are ``core/saving.py``'s (a new path or a regular file, a different
file replaced only with ``--force``, written atomically); here a file this kernel
saved itself is replaced without ``--force``, and a refused or failed write ends
the magic as a usage error.  Code that wants the rules themselves imports
``core/saving.py``.
"""

from __future__ import annotations

import threading
from pathlib import Path

from IPython.core.error import UsageError

from ..core import saving
from ..i18n import current_lang

__all__ = ["WRITTEN_HERE", "save_source"]


class _WrittenHere:
    """What this kernel last wrote to each path (by its resolved name), and for which
    metric: a file that still holds it is that metric's own earlier save, which the
    metric's next ``--save`` replaces (another metric's save does not)."""

    def __init__(self) -> None:
        self._texts: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def get(self, path: Path, metric: str) -> str | None:
        with self._lock:
            written = self._texts.get(_key(path))
        return written[1] if written is not None and written[0] == metric else None

    def remember(self, path: Path, metric: str, text: str) -> None:
        with self._lock:
            self._texts[_key(path)] = (metric, text)


def _key(path: Path) -> str:
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):  # a loop of links: it is refused before it is written
        return str(path.absolute())


WRITTEN_HERE = _WrittenHere()


def save_source(path: Path, source: str, force: bool, metric: str) -> tuple[Path, str]:
    """Write ``source`` (of the metric named ``metric``) to ``path`` atomically; (the
    path, a note), or a usage error.

    A file that holds what this kernel saved there last for the same metric is
    replaced (the edit → save loop); one that someone else changed (an editor,
    git, another metric's save) is kept, and the
    refusal ends the cell with an error naming ``--force``, so "Run All" stops
    rather than go on checking a metric the file no longer holds.  The note is in
    the run's language (``language()``, set where the magic started).
    """
    lang, ours = current_lang(), WRITTEN_HERE.get(path, metric)
    try:
        saved, note = saving.save_source(path, source, force, lang, ours=ours)
    except saving.SaveFailed as problem:
        raise UsageError(str(problem)) from None
    if saved is None:
        raise UsageError(note)
    WRITTEN_HERE.remember(saved, metric, source)
    return saved, note
