"""Saving a metric's source to a file, never losing one (``%%skynet_metric --save``,
``AlignReport.save``).

:func:`save_source` writes only a new path or a regular file, and replaces a
different file only with ``force``; :func:`write_atomically` writes a
temporary file beside the target and moves it into place in one step.  A
failed write is :class:`SaveFailed`, one sentence naming the path.
"""

from __future__ import annotations

import os
import stat
import uuid
from pathlib import Path

from ..i18n import t

__all__ = ["SaveFailed", "save_source", "write_atomically"]


class SaveFailed(OSError):
    """The file could not be written; the message says where and why."""


def save_source(
    path: Path,
    source: str,
    force: bool,
    lang: str,
    *,
    refused: str = "magic.save_refused",
    ours: str | None = None,
    encoding: str = "utf-8",
) -> tuple[Path | None, str]:
    """Write ``source`` to ``path`` atomically; (the path if it holds the source, a note).

    ``refused`` is the message id of the note when a different file is kept (it says
    how to force it: ``--force`` in a magic, ``force=True`` in Python).  ``ours`` is
    what this caller last wrote there: a file that still holds exactly that is the
    caller's own earlier save, replaced without ``force`` (the edit → save loop); a
    file anyone else changed since is kept.

    Only a new path or a regular file is written: a symbolic link, a named pipe, a
    device or a directory is refused even with ``force`` (replacing one would swap a
    special file, or a link's target, for a plain file); ``force`` only lets a
    regular file with different content be replaced.
    """
    shown = str(path)
    try:
        kind = _special_kind(path)
        if kind is not None:
            return None, _refusal(path, kind, lang)
        if path.exists():  # a regular file (_special_kind said so, not following links)
            held = path.read_text(encoding=encoding, errors="replace")
            if held == source:
                return path.resolve(), t("magic.save_unchanged", lang, path=shown)
            if not force and held != ours:
                return None, t(refused, lang, path=shown)
            write_atomically(path, source, replace=True, encoding=encoding)
            if not force:
                return path.resolve(), t("magic.saved_over_ours", lang, path=shown)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                write_atomically(path, source, replace=False, encoding=encoding)
            except FileExistsError:  # created meanwhile by someone else: look again
                return save_source(
                    path, source, force, lang, refused=refused, ours=ours, encoding=encoding
                )
    except (OSError, UnicodeEncodeError) as problem:  # not in the file's own encoding
        raise SaveFailed(t("magic.save_failed", lang, path=shown, error=problem)) from None
    return path.resolve(), t("magic.saved", lang, path=shown)


def _special_kind(path: Path) -> str | None:
    """What ``path`` is when it is neither absent nor a regular file (links not followed)."""
    try:
        mode = path.lstat().st_mode
    except (FileNotFoundError, NotADirectoryError):  # absent (a folder above it is a file)
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "other"


# What a path that is not a regular file is, by the kind _special_kind names.
_FILE_KINDS = {
    "directory": "magic.file_kind_directory",
    "fifo": "magic.file_kind_fifo",
    "device": "magic.file_kind_device",
    "socket": "magic.file_kind_socket",
    "other": "magic.file_kind_other",
}


def _refusal(path: Path, kind: str, lang: str) -> str:
    if kind == "symlink":
        return t("magic.save_symlink", lang, path=str(path), target=os.readlink(path))
    what = t(_FILE_KINDS[kind], lang)
    return t("magic.save_not_regular", lang, path=str(path), kind=what)


def write_atomically(
    path: Path, text: str, *, replace: bool = True, encoding: str = "utf-8"
) -> None:
    """Write a temporary file beside ``path``, then move it into place in one step.

    ``replace=False`` never clobbers: the move is a hard link, which fails with
    FileExistsError if ``path`` appeared since it was checked.  ``encoding`` is the
    file's own (``utf-8-sig`` keeps a BOM; a PEP 263 coding line's).
    """
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    mode = path.stat().st_mode & 0o777 if replace and path.exists() else 0o666  # umask applies
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        # newline="": the text's own line endings, as read (no \r\n doubling on Windows).
        with os.fdopen(descriptor, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            _link_new(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _link_new(temporary: Path, path: Path) -> None:
    """Move ``temporary`` to the new ``path``, never over something that appeared there."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then move
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.replace(temporary, path)
        return
    temporary.unlink()
