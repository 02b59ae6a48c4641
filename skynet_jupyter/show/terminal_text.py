"""Laying out the text report for a terminal: wrapped at its width, with hanging indents.

A terminal wraps a long line at its edge, mid-word and back at column 0, so a
report's structure (which line belongs to which case) is lost.  Here each line
is wrapped at word boundaries to the width, and its continuation lines are
indented under it; a value with line breaks of its own (a multi-line feedback,
an input with paragraphs) keeps its breaks, each of its lines indented the same
way, so it never starts at column 0.

Without a width (``None``: the output is not a terminal, as in a notebook, a
pipe, a file or a CI log) nothing is hard-wrapped: whatever shows the text wraps
it at its own width, and a long value stays one searchable line.  The hanging
indent of multi-line values applies there too, so the layout holds everywhere.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import sys
from collections.abc import Iterable
from typing import TextIO

MIN_TEXT = 20  # a narrower column than this is unreadable: past it, lines overflow instead


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The width to wrap at: a terminal's columns when ``stream`` (stdout) is one, else None.

    For stdout, ``shutil.get_terminal_size``: ``COLUMNS`` when set (a user's
    choice, or a test's), else the terminal's own size.
    """
    stream = sys.stdout if stream is None else stream
    try:
        if not stream.isatty() or under_a_notebook():
            return None
        if stream is sys.stdout or stream is sys.__stdout__:
            return shutil.get_terminal_size().columns
        return os.get_terminal_size(stream.fileno()).columns  # another terminal: its own size
    except (AttributeError, OSError, ValueError):  # no isatty or fileno, or already closed
        return None


def under_a_notebook() -> bool:
    """Whether this process runs under a Jupyter kernel (a notebook's ``!skynet-check``).

    A notebook's ``!command`` runs in a pseudo-terminal (IPython drives it with
    pexpect) that nobody looks at: its output is saved into the notebook, where a
    progress line's escape codes would stay and an 80-column wrap would be wrong.
    A kernel started by Jupyter has ``JPY_PARENT_PID`` (``JPY_SESSION_NAME`` under
    Jupyter Server); any ipykernel sets ``TERM=xterm-color``, ``PAGER=cat`` and
    ``CLICOLOR_FORCE=1`` for its subprocesses, which catches one started otherwise.
    """
    env = os.environ
    if "JPY_PARENT_PID" in env or "JPY_SESSION_NAME" in env:
        return True
    kernel_set = {"TERM": "xterm-color", "PAGER": "cat", "CLICOLOR_FORCE": "1"}
    return all(env.get(name) == value for name, value in kernel_set.items())


# Characters XML 1.0 cannot hold (and C1 controls, DEL): shown, never written raw.
_CONTROLS = "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


@functools.cache  # compiled at first use: its ranges take ~10 ms to compile, at every start
def _controls() -> re.Pattern[str]:
    return re.compile(_CONTROLS)


def visible_controls(text: str) -> str:
    """``text`` with its control characters shown as ``#x1B`` (as ``pytest --junitxml``).

    A terminal escape in a feedback (``\\x1b[31m``) would make a JUnit file invalid
    XML, or recolour a CI log; tabs and line breaks stay.
    """
    return _controls().sub(lambda found: f"#x{ord(found.group()):02X}", text)


def wrap_block(text: str, indent: str, hang: str, width: int | None) -> list[str]:
    """``text`` as lines: the first after ``indent``, every other one after ``hang``.

    Lines are wrapped at spaces to ``width`` columns (never inside a word, unless
    the word alone is wider than the room left); the text's own line breaks stay.
    """
    lines: list[str] = []
    for number, part in enumerate(text.splitlines() or [""]):
        prefix = indent if number == 0 else hang
        if width is None or len(prefix) + len(part) <= width:
            lines.append((prefix + part).rstrip())
            continue
        import textwrap  # only for a line wider than the terminal

        room = max(width, len(hang) + MIN_TEXT, len(prefix) + MIN_TEXT)
        wrapped = textwrap.wrap(
            part,
            width=room,
            initial_indent=prefix,
            subsequent_indent=hang,
            break_on_hyphens=False,  # "case-insensitive" stays whole
            # tabs as spaces, not other whitespace: a value's own spacing is kept
            replace_whitespace=False,
        )
        lines.extend(wrapped or [prefix.rstrip()])
    return lines


def fill_parts(parts: Iterable[str], indent: str, hang: str, width: int | None) -> list[str]:
    """Short parts ("score 1", "run 0.1 ms") joined by two spaces, a part never split.

    A line that is full goes on after ``hang``; a part wider than a whole line
    is wrapped at its spaces.
    """
    lines: list[str] = []
    line = ""
    for part in parts:
        if not line:
            line = (indent if not lines else hang) + part
        elif width is None or len(line) + 2 + len(part) <= width:
            line += "  " + part
        else:
            lines.append(line)
            line = hang + part
    if line:
        lines.append(line)
    if width is None:
        return lines
    out: list[str] = []
    for number, line in enumerate(lines):
        if len(line) <= width:
            out.append(line)
            continue
        prefix = indent if number == 0 else hang
        out.extend(wrap_block(line[len(prefix) :], prefix, hang, width))
    return out
