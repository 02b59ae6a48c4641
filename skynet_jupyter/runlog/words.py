"""Word diffs of feedback and line diffs of a metric's source, as plain data.

``word_diff(old, new)`` gives ``("=", text)``, ``("-", text)``, ``("+", text)``
pieces, the same notation as the optimizer's proposals (``[-old-]{+new+}`` as
text): spacing alone is no change.  The views draw them (``<del>``/``<ins>``).
"""

from __future__ import annotations

import difflib
import re

from ..core.inert_text import one_line

__all__ = ["diff_text", "source_diff", "word_diff"]

_TOKENS = re.compile(r"\w+|\s+|[^\w\s]+")  # words, spaces, punctuation
# Longer texts are compared as two blocks: SequenceMatcher is quadratic, and at 20,000
# tokens (a feedback at the 10,000-character cut) one pair took 4 s here; at 3,000, 0.09 s.
_MAX_TOKENS = 3_000


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """``new`` against ``old`` word by word: ``("=", text)``, ``("-", text)``, ``("+", text)``."""
    before, after = _TOKENS.findall(old), _TOKENS.findall(new)
    if len(before) + len(after) > _MAX_TOKENS:
        return _as_blocks(old, new)
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    pieces: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        old_part, new_part = "".join(before[i1:i2]), "".join(after[j1:j2])
        if op == "equal" or not (old_part.strip() or new_part.strip()):
            if new_part:
                pieces.append(("=", new_part))
            continue
        if old_part.strip():
            pieces.append(("-", old_part))
        if new_part:
            pieces.append(("+" if new_part.strip() else "=", new_part))
    return pieces


def _as_blocks(old: str, new: str) -> list[tuple[str, str]]:
    """Texts too long to compare word by word: the old one out, the new one in, with the
    guarantees of the word diff (no empty piece, no change marked on spacing alone)."""
    if old == new or not (old.strip() or new.strip()):
        return [("=", new)] if new else []
    pieces = [("-", old)] if old.strip() else []
    if new:
        pieces.append(("+" if new.strip() else "=", new))
    return pieces


def diff_text(pieces: list[tuple[str, str]]) -> str:
    """Pieces as text: ``[-removed-]``, ``{+added+}``."""
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "".join(marks[op].format(text) for op, text in pieces)


def source_diff(old: str | None, new: str | None, old_name: str, new_name: str) -> str:
    """A unified diff of two versions of a metric's source ("" when equal or unknown)."""
    if old is None or new is None or old == new:
        return ""
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            # A name is a header line of the diff: a line break in it would end that line.
            fromfile=one_line(old_name),
            tofile=one_line(new_name),
        )
    )
