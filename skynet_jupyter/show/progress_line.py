"""A one-line progress note for terminals, erased before the report is printed.

In a terminal a check shows "Running the contract check… 3 of 10 cases" on
one line that is rewritten in place, and erased (carriage return, clear to the
end of the line) before anything else is printed, so the report starts where
the note was.  Only on a terminal: written to a pipe or a file, the note would
stay in the output forever (a CI log, a ``--json`` document), so there it is
never written at all.

The words of progress live here, once, for every view: ``running_title``
("Running the contract check…") and ``progress_text`` ("3 of 10 cases") are
this note's, the live view's header and progress bar's, and the magics'.  They
are here, not in ``render``, so that ``skynet-check`` starts without importing
the report machinery.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, TextIO

from ..i18n import t
from .terminal_text import terminal_width

ERASE = "\r\x1b[K"  # back to column 0, clear to the end of the line
_EVERY_S = 0.1  # at most ten rewrites a second: a 10,000-case run does not flood the terminal


def running_title(kind: str, lang: str) -> str:
    """The title while a check (``kind`` "check") or an evaluation runs."""
    return t("view.running_check" if kind == "check" else "view.running_eval", lang)


def progress_text(done: int, total: int, lang: str) -> str:
    """How far the run is: "3 of 10 cases"."""
    return t("view.progress", lang, done=done, total=total)


class ProgressLine:
    """``show()``, ``on_event(event)`` (an engine listener), ``clear()``; silent off a terminal."""

    def __init__(self, title: str, lang: str, stream: TextIO | None = None) -> None:
        self.title = title
        self.lang = lang
        self.stream = sys.stdout if stream is None else stream
        self.width = terminal_width(self.stream)  # None: not a terminal, nothing is written
        self.showing = False
        self._last = 0.0
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        return self.width is not None

    def show(self, text: str | None = None) -> None:
        """Write (or rewrite) the line: the title, then ``text`` if given."""
        if self.width is None:
            return
        line = self.title if text is None else f"{self.title} {text}"
        if len(line) >= self.width:  # one row only: a wrapped note could not be erased
            line = line[: max(1, self.width - 2)] + "…"
        with self._lock:
            self._write(ERASE + line)
            self.showing = True
            self._last = time.monotonic()

    def on_event(self, event: Any) -> None:
        """An engine listener: the count of finished cases, a few times a second."""
        done, total = getattr(event, "done", None), getattr(event, "total", None)
        if done is None or total is None:
            return
        if done < total and time.monotonic() - self._last < _EVERY_S:
            return
        self.show(progress_text(done, total, self.lang))

    def clear(self) -> None:
        """Erase the line, if it is shown: what is printed next starts at column 0."""
        with self._lock:
            if self.showing:
                self._write(ERASE)
                self.showing = False

    @contextlib.contextmanager
    def erasing(self) -> Iterator[None]:
        """While it lasts, anything printed (a metric's ``print``) first erases the line.

        Without it, a print would land after the note, on the same line, and the
        note would stay above the report.
        """
        if self.width is None:
            yield
            return
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = _Erasing(saved[0], self), _Erasing(saved[1], self)
        try:
            yield
        finally:
            sys.stdout, sys.stderr = saved

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a terminal closed under us: the note is not needed
            self.width = None


class _Erasing:
    """A stream that erases the progress line before each write; the rest is the stream's."""

    def __init__(self, stream: TextIO, line: ProgressLine) -> None:
        self._stream = stream
        self._line = line

    def write(self, text: str) -> int:
        if text:
            self._line.clear()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
