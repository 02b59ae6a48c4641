"""What the magics need besides the magics: the report a live view already shows,
the replay of a check for the edit loop, and writing a metric file safely."""

from __future__ import annotations

import dataclasses
import os
import stat
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from IPython.core.error import UsageError

from .engine import RunCache
from .i18n import t
from .report import CheckReport, EvalReport

# --- display: the live view is the display ------------------------------------------


class CellMark:
    """Open while the cell that produced a report runs."""

    __slots__ = ("open",)

    def __init__(self) -> None:
        self.open = True


class ShownLive:
    """A report the live view already shows: the cell's Out does not show it twice.

    After that cell it displays as any report (``r`` in a later cell shows it).
    """

    _cell: CellMark

    def _ipython_display_(self) -> None:
        cell = getattr(self, "_cell", None)  # absent on a dataclasses.replace() copy
        if cell is not None and cell.open:
            return
        from IPython.display import display

        display(plain_report(self))  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return repr(plain_report(self))  # type: ignore[arg-type]


class ShownCheckReport(ShownLive, CheckReport):
    pass


class ShownEvalReport(ShownLive, EvalReport):
    pass


def plain_report(report: CheckReport) -> CheckReport:
    kind = EvalReport if isinstance(report, EvalReport) else CheckReport
    return kind(**{f.name: getattr(report, f.name) for f in dataclasses.fields(kind) if f.init})


def shown_live(report: CheckReport, cell: CellMark) -> CheckReport:
    kind = ShownEvalReport if isinstance(report, EvalReport) else ShownCheckReport
    shown = kind(**{f.name: getattr(report, f.name) for f in dataclasses.fields(report) if f.init})
    shown._cell = cell
    return shown


def lazy_show(view: Any) -> Callable[[Any], None]:
    """Feed engine events to ``view``, showing it at the first one.

    Shown late so that a data error (raised before any event) leaves no empty view.
    """
    shown = False

    def on_event(event: Any) -> None:
        nonlocal shown
        if not shown:
            view.show()
            shown = True
        view.on_event(event)

    return on_event


# --- the edit loop --------------------------------------------------------------


@dataclasses.dataclass(slots=True)
class LastCheck:
    data: Any
    options: dict[str, Any]
    view: Any  # the LiveView to update in place, or None when the check was silenced


class NotRunAgain(Exception):
    pass


class ReplayCache(RunCache):
    """The kernel's run cache, looked up as for the original run function."""

    def __init__(self, cache: RunCache, run: Any) -> None:
        super().__init__(cache.store)
        self.disk = cache.disk
        self._original = run

    def key(  # type: ignore[override]
        self, run: Any, artifact: Any, case_input: Any, task_model: Any = None
    ) -> Any:
        return RunCache.key(self._original, artifact, case_input, task_model)

    def disk_key(self, run: Any, artifact: Any, case_input: Any, task_model: Any) -> str | None:
        return RunCache.disk_key(self, self._original, artifact, case_input, task_model)


def no_new_run(message: str) -> Callable[[Any, Any], Any]:
    def run(artifact: Any, input: Any) -> Any:
        raise NotRunAgain(message)

    return run


def save_source(path: Path, source: str, force: bool, lang: str) -> tuple[Path | None, str]:
    """Write ``source`` to ``path`` atomically; (the path if it holds the source, a note).

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
            if path.read_text(encoding="utf-8", errors="replace") == source:
                return path.resolve(), t("magic.save_unchanged", lang, path=shown)
            if not force:
                return None, t("magic.save_refused", lang, path=shown)
            write_atomically(path, source, replace=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                write_atomically(path, source, replace=False)
            except FileExistsError:  # created meanwhile by someone else: look again
                return save_source(path, source, force, lang)
    except OSError as problem:
        raise UsageError(t("magic.save_failed", lang, path=shown, error=problem)) from None
    return path.resolve(), t("magic.saved", lang, path=shown)


def _special_kind(path: Path) -> str | None:
    """What ``path`` is when it is neither absent nor a regular file (links not followed)."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
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


def _refusal(path: Path, kind: str, lang: str) -> str:
    if kind == "symlink":
        return t("magic.save_symlink", lang, path=str(path), target=os.readlink(path))
    what = t(f"magic.file_kind_{kind}", lang)
    return t("magic.save_not_regular", lang, path=str(path), kind=what)


def write_atomically(path: Path, text: str, *, replace: bool = True) -> None:
    """Write a temporary file beside ``path``, then move it into place in one step.

    ``replace=False`` never clobbers: the move is a hard link, which fails with
    FileExistsError if ``path`` appeared since it was checked.
    """
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    mode = path.stat().st_mode & 0o777 if replace and path.exists() else 0o666  # umask applies
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
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


def listed_options(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Apply magic_arguments decorators so that ``%magic?`` lists them in the order given."""

    def apply(func: Any) -> Any:
        for decorate in reversed(decorators):
            func = decorate(func)
        return func

    return apply
