"""Saving a metric cell to a file (``%%skynet_metric --save``), never losing one.

The rules are ``core/saving.py``'s (a new path or a regular file, a different
file replaced only with ``--force``, written atomically); here a failed write
ends the magic as a usage error.  Code that wants the rules themselves imports
``core/saving.py``.
"""

from __future__ import annotations

from pathlib import Path

from IPython.core.error import UsageError

from ..core import saving
from ..i18n import current_lang

__all__ = ["save_source"]


def save_source(path: Path, source: str, force: bool) -> tuple[Path | None, str]:
    """Write ``source`` to ``path`` atomically; (the path if it holds the source, a note).

    The note is in the run's language (``language()``, set where the magic started).
    """
    try:
        return saving.save_source(path, source, force, current_lang())
    except saving.SaveFailed as problem:
        raise UsageError(str(problem)) from None
