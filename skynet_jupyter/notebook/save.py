"""Saving a metric cell to a file (``%%skynet_metric --save``), never losing one.

The rules are ``core/saving.py``'s (a new path or a regular file, a different
file replaced only with ``--force``, written atomically); here a failed write
ends the magic as a usage error.
"""

from __future__ import annotations

from pathlib import Path

from IPython.core.error import UsageError

from ..core.saving import SaveFailed, write_atomically
from ..core.saving import save_source as _save_source

__all__ = ["save_source", "write_atomically"]


def save_source(path: Path, source: str, force: bool, lang: str) -> tuple[Path | None, str]:
    """Write ``source`` to ``path`` atomically; (the path if it holds the source, a note)."""
    try:
        return _save_source(path, source, force, lang)
    except SaveFailed as problem:
        raise UsageError(str(problem)) from None
