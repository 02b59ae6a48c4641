"""User text shown to a terminal, never obeyed: its control characters escaped as ``repr``
shows them.

A model's output or feedback, a metric's name or an input may hold a terminal escape
(``\\x1b[31m`` recolours, ``\\x1b[2J`` clears the screen), a bell, a bidirectional
override (it reorders what a reader sees) or a lone surrogate (a UTF-8 ``print`` fails
on it).  Every report's text (``ShowsItself``: ``print(report)``, terminal IPython, a
notebook's plain-text output) and ``skynet-check``'s output show them as ``repr`` does:
``\\x1b``, ``\\u202e``, ``\\ud83d``.  The rule is written once, here, in the core, so
that every report follows it whichever layer draws its text.
"""

from __future__ import annotations

import functools
import re

__all__ = ["one_line", "shown", "shown_pattern"]

# Shown escaped: C0 controls but tab and LF, DEL and C1, the line and paragraph separators,
# the bidirectional embeddings, overrides and isolates, and lone surrogates.
_SHOWN = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


@functools.cache
def shown_pattern(keep_lf: bool) -> re.Pattern[str]:
    """What :func:`shown` escapes (``keep_lf=False``: ``\\n`` too, as :func:`one_line`)."""
    return re.compile(_SHOWN[:-1] + ("]" if keep_lf else "\n]"))


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    if code == 0x0D:
        return "\\r"
    if code == 0x0A:
        return "\\n"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown(text: str) -> str:
    """``text`` with what a terminal or a log must not get raw shown escaped, as ``repr``
    shows it (``\\x1b``, ``\\u202e``, ``\\ud83d``): a terminal escape from a model's
    feedback never recolours or clears a terminal, and a lone surrogate never fails a print.
    Tabs and ``\\n`` stay.  Shown text is shown again unchanged (it holds no such character).
    """
    return shown_pattern(True).sub(_escaped, text)


def one_line(text: str) -> str:
    """``text`` shown (as :func:`shown`) on one line: ``\\n`` too is shown as ``\\n``."""
    return shown_pattern(False).sub(_escaped, text)
