"""``--save``'s refusal names the line an editor and a traceback show, for any source
(issue 44's attack: a U+2028 in a comment moved the number by one).

Generated sources mix every line ending Python knows (``\\n``, ``\\r\\n``, ``\\r``) with the
characters ``str.splitlines`` also breaks at and Python does not (U+2028, U+2029, U+0085,
form feed, vertical tab, the file separators); one line is changed, and the refusal must
name it by the number Python gives it.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skynet_jupyter.core.saving import change_said

NOT_BREAKS = "\u2028\u2029\x85\x0c\x0b\x1c\x1d\x1e"  # splitlines breaks there; Python does not
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=20
).map(lambda text: text.replace("\x00", ""))
LINE = st.builds(lambda words, odd: words + odd, TEXT, st.sampled_from(["", *NOT_BREAKS]))


def python_line_of(source: str, offset: int) -> int:
    """The line number Python gives the character at ``offset`` of ``source``."""
    before = source[:offset].replace("\r\n", "\n").replace("\r", "\n")
    return before.count("\n") + 1


@given(
    st.lists(LINE, min_size=1, max_size=12),
    st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=12, max_size=12),
    st.data(),
)
def test_the_changed_line_is_named_by_the_number_python_gives_it(lines, endings, data):
    changed = data.draw(st.integers(0, len(lines) - 1))
    saved = "".join(line + end for line, end in zip(lines, endings, strict=False))
    edited = list(lines)
    edited[changed] = lines[changed] + " zq_edited"  # new words: never a spacing change
    held = "".join(line + end for line, end in zip(edited, endings, strict=False))
    at = sum(len(line) + len(end) for line, end in zip(lines[:changed], endings, strict=False))
    said = change_said(saved, held, "en")
    # "is now", or "was added" where the edit makes an empty line match another one
    line = python_line_of(held, at)
    assert said.startswith((f"line {line} is now", f"line {line} was added")), said
    assert "\n" not in said and "\r" not in said
