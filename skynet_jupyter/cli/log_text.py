"""User text as ``skynet-check`` writes it to a terminal or a CI log: shown, never obeyed.

A feedback, a data cell or an exception message is the user's (or a model's)
text, and the log that shows it reads some text as orders:

- a lone surrogate (``"\\ud83d"`` in ``cases.jsonl``) cannot be written as UTF-8
  at all: it is shown as ``\\ud83d``;
- a control character (``\\x1b[31m`` recolours a terminal, or clears it), DEL, a C1
  control or a bidirectional override (it reorders what a reader sees) is shown
  as ``\\x1b``, ``\\u202e``;
- a line break other than ``\\n`` (CR, VT, FF, FS, GS, RS, NEL, U+2028, U+2029)
  starts a line for some readers and not others, so what looks like the middle
  of a line may be a line of its own there: shown as ``\\r``, ``\\u2028``;
- a line that starts, after white space, with ``::`` or ``##[`` is a GitHub
  Actions workflow command (the runner trims the line first): its first
  character is shown as ``\\x3a`` / ``\\x23``, and with ``--format github`` the
  whole text report is also inside ``::stop-commands::TOKEN`` ... ``::TOKEN::``
  (a token drawn anew, never in the text).

Tabs and ``\\n`` stay: the report's own layout indents each line of a value.
"""

from __future__ import annotations

import re
import secrets

# The rule for what a terminal must not get raw is the text report's own (str(report) and
# IPython's plain display follow it too): written once, in core/inert_text.py.
from ..core.inert_text import one_line, shown, shown_pattern

__all__ = [
    "LINE_BREAKS",
    "commands_stopped",
    "inert_lines",
    "json_text",
    "log_text",
    "one_line",
    "shown",
]

# Every character str.splitlines() breaks a line at: a log reader may split at any.
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

# What a GitHub runner reads as a command once it has trimmed the line.
_COMMAND = re.compile(r"(\s*)(::|##\[)")


def inert_lines(text: str) -> str:
    """``text`` with no line a GitHub runner would read as a workflow command: the first
    character of ``::`` or ``##[`` at a line's start (after white space) shown escaped."""
    lines = re.split(f"([{LINE_BREAKS}])", text)  # the breaks kept, at the odd places
    for number in range(0, len(lines), 2):
        found = _COMMAND.match(lines[number])
        if found is not None:
            start = found.end(1)
            line = lines[number]
            lines[number] = f"{line[:start]}\\x{ord(line[start]):02x}{line[start + 1 :]}"
    return "".join(lines)


def log_text(text: str) -> str:
    """``text`` as written to a terminal or a log (stdout or stderr): shown, its lines inert."""
    return inert_lines(shown(text))


def commands_stopped(text: str) -> str:
    """``text`` between ``::stop-commands::TOKEN`` and ``::TOKEN::``: a GitHub runner runs no
    workflow command in it.  The token is drawn anew and never one found in the text."""
    token = secrets.token_hex(16)
    while token in text:  # pragma: no cover - 128 random bits found in the text
        token = secrets.token_hex(16)
    body = text if text.endswith("\n") or not text else text + "\n"
    return f"::stop-commands::{token}\n{body}::{token}::"


def json_text(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with the characters :func:`shown`
    escapes written as JSON escapes (``\\u2028``, ``\\ud83d``): the same values, parsed.

    They can only be inside strings, where a JSON escape means the same character.
    """
    return shown_pattern(True).sub(lambda found: f"\\u{ord(found.group()):04x}", text)
