"""Saving a metric's source to a file, never losing one (``%%skynet_metric --save``,
``AlignReport.save``).

:func:`save_source` writes only a new path or a regular file, and replaces a
different file only with ``force``; :func:`write_atomically` writes a
temporary file beside the target and moves it into place in one step.  A
failed write is :class:`SaveFailed`, one sentence naming the path.

What a save wrote is kept on disk beside the file (:func:`remember`, :func:`recall`:
``.skynet_cache/saved/NAME.json`` in the file's own folder, the folder the run cache
already uses), so the next save of the same metric recognises the file as its own
after a kernel restart and from a second notebook, and a refusal can say what
changed since.  Nothing about it lives in the kernel.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import stat
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ..i18n import t

__all__ = [
    "SaveFailed",
    "SaveRecord",
    "as_written",
    "change_said",
    "recall",
    "record_path",
    "remember",
    "save_source",
    "write_atomically",
]

RECORD_FOLDER = (".skynet_cache", "saved")  # in the saved file's folder
# What git and other tools read there: nothing of it is the user's to commit.
_RECORD_IGNORE = "# Written by skynet_jupyter (%%skynet_metric --save): never commit it.\n*\n"
_LINE_CHARS = 60  # of a changed line, quoted in a refusal


@dataclass(frozen=True, slots=True)
class SaveRecord:
    """What a save wrote to a file: for which metric, the text, when, from which notebook."""

    metric: str
    text: str
    saved_at: str = ""  # local time, "2025-06-01 14:03"
    notebook: str = ""  # the notebook's name, when the kernel knows it ("" otherwise)


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
    explain: Callable[[str], str] | None = None,
) -> tuple[Path | None, str]:
    """Write ``source`` to ``path`` atomically; (the path if it holds the source, a note).

    ``refused`` is the message id of the note when a different file is kept (it says
    how to force it: ``--force`` in a magic, ``force=True`` in Python); ``explain``,
    when given, makes that note instead from the text the file holds (what changed).
    ``ours`` is what this caller last wrote there: a file that still holds exactly
    that is the caller's own earlier save, replaced without ``force`` (the edit →
    save loop); a file anyone else changed since is kept.

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
            held = path.read_text(encoding=encoding, errors="replace")  # "\r\n" read as "\n"
            if held == _lines(source):
                return path.resolve(), t("magic.save_unchanged", lang, path=shown)
            if not force and (ours is None or held != _lines(ours)):
                return None, explain(held) if explain else t(refused, lang, path=shown)
            write_atomically(path, source, replace=True, encoding=encoding)
            if not force:
                return path.resolve(), t("magic.saved_over_ours", lang, path=shown)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                write_atomically(path, source, replace=False, encoding=encoding)
            except FileExistsError:  # created meanwhile by someone else: look again
                return save_source(
                    path,
                    source,
                    force,
                    lang,
                    refused=refused,
                    ours=ours,
                    encoding=encoding,
                    explain=explain,
                )
    except (OSError, UnicodeEncodeError) as problem:  # not in the file's own encoding
        raise SaveFailed(t("magic.save_failed", lang, path=shown, error=problem)) from None
    return path.resolve(), t("magic.saved", lang, path=shown)


def as_written(source: str) -> str:
    """``source`` as a save writes it and a read gives it back (its line endings ``\n``)."""
    return _lines(source)


def _lines(text: str) -> str:
    """``text`` as a file read in text mode gives it back: every line ending a "\\n"."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


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


# --- what each save wrote, kept beside the file ------------------------------------------


def record_path(path: Path) -> Path:
    """Where the record of ``path``'s last save is: ``.skynet_cache/saved/NAME.json`` beside it."""
    target = _resolved(path)
    return target.parent.joinpath(*RECORD_FOLDER, f"{target.name}.json")


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of links: refused before anything is written
        return path.absolute()


def recall(path: Path) -> SaveRecord | None:
    """The record of the last save to ``path``, or None (never saved, or unreadable)."""
    try:
        found = json.loads(record_path(path).read_text(encoding="utf-8"))
        return SaveRecord(
            metric=str(found["metric"]),
            text=str(found["text"]),
            saved_at=str(found.get("saved_at", "")),
            notebook=str(found.get("notebook", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):  # absent, damaged or not ours
        return None


def remember(path: Path, record: SaveRecord) -> bool:
    """Keep ``record`` as the last save to ``path``; False when it could not be written
    (a read-only folder: the save itself is done, the next one is refused as unknown)."""
    where = record_path(path)
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        ignore = where.parent / ".gitignore"
        if not ignore.exists():
            with contextlib.suppress(FileExistsError):
                write_atomically(ignore, _RECORD_IGNORE, replace=False)
        text = json.dumps(asdict(record), ensure_ascii=True, indent=1)
        write_atomically(where, text)  # the last save wins, never half written
    except OSError:
        return False
    return True


def change_said(saved: str, held: str, lang: str) -> str:
    """What changed from ``saved`` to ``held``, in a few words: the first changed line (its
    number in ``held``, quoted before and after) and how many lines differ in all.

    Lines are counted as Python counts them (``\\n``, ``\\r\\n`` and ``\\r`` end one; a
    U+2028 or a form feed in a comment does not), so the number is the one an editor and a
    traceback show.  A line whose spaces alone changed is quoted with them, and said so.
    """
    before, after = _source_lines(saved), _source_lines(held)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not changes:  # the same lines: only the line endings or the last line break differ
        return t("magic.change_line_ends", lang)
    kind, old_at, _, new_at, _ = changes[0]
    line = new_at + 1
    if kind == "insert":
        first = t("magic.change_added", lang, line=line, new=_quoted(after[new_at]))
    elif kind == "delete":
        first = t("magic.change_removed", lang, line=line, old=_quoted(before[old_at]))
    else:
        first = _replaced(line, before[old_at], after[new_at], lang)
    differ = sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in changes)
    if differ <= 1:
        return first
    return t("magic.change_more", lang, first=first, count=differ)


def _source_lines(text: str) -> list[str]:
    """``text``'s lines as Python reads a source file: only a line ending ends a line
    (``str.splitlines`` also breaks at U+2028, U+0085, a form feed...)."""
    lines = _lines(text).split("\n")
    if lines[-1] == "":  # the break that ends the last line starts no line of its own
        lines.pop()
    return lines


def _replaced(line: int, old: str, new: str, lang: str) -> str:
    """ "line N is now ... (it was ...)": both quoted from where they first differ on, with
    their indentation and spaces when the spacing is all that changed."""
    spaces_only = old.split() == new.split()  # the same words: indentation, spaces, tabs
    if not spaces_only:
        old, new = old.strip(), new.strip()
    start = _window_start(old, new)
    quoted_old, quoted_new = _quoted(old, start, strip=False), _quoted(new, start, strip=False)
    message_id = "magic.change_spaces" if spaces_only else "magic.change_replaced"
    return t(message_id, lang, line=line, old=quoted_old, new=quoted_new)


def _window_start(old: str, new: str) -> int:
    """Where to start quoting two long lines so that where they first differ is shown."""
    if max(len(old), len(new)) <= _LINE_CHARS:
        return 0
    same = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        same += 1
    # A few characters before the difference, for context; the rest of the room after it.
    return max(0, same - _LINE_CHARS // 3) if same >= _LINE_CHARS - 10 else 0


def _quoted(line: str, start: int = 0, *, strip: bool = True) -> str:
    shown = line.strip() if strip else line
    if start:
        shown = "…" + shown[start:]
    if len(shown) > _LINE_CHARS:
        shown = shown[: _LINE_CHARS - 1] + "…"
    return repr(shown)
