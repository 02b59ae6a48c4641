"""What the magics need besides the magics: the report a live view already shows,
the replay of a check for the edit loop, and writing a metric file safely."""

from __future__ import annotations

import dataclasses
import os
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
        self._original = run

    def key(self, run: Any, artifact: Any, case_input: Any) -> Any:  # type: ignore[override]
        return RunCache.key(self._original, artifact, case_input)


def no_new_run(message: str) -> Callable[[Any, Any], Any]:
    def run(artifact: Any, input: Any) -> Any:
        raise NotRunAgain(message)

    return run


def save_source(path: Path, source: str, force: bool, lang: str) -> tuple[Path | None, str]:
    """Write ``source`` to ``path`` atomically; (the path if it holds the source, a note)."""
    shown = str(path)
    try:
        if path.is_file():
            if path.read_text(encoding="utf-8") == source:
                return path.resolve(), t("magic.save_unchanged", lang, path=shown)
            if not force:
                return None, t("magic.save_refused", lang, path=shown)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, source)
    except OSError as problem:
        raise UsageError(t("magic.save_failed", lang, path=shown, error=problem)) from None
    return path.resolve(), t("magic.saved", lang, path=shown)


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o666  # 0o666: the umask applies
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
