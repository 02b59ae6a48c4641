"""The word diff every optimizer, alignment and race report shows (issue 36, item 13):
over generated texts it rebuilds the new text exactly, keeps every visible character of
the old one, and never marks a change a reader cannot see (spacing alone)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.optimizers.render import diff_text, word_diff

words = st.text(alphabet=st.sampled_from(list("ab c\n\t.,-")), max_size=40)
SPACE = re.compile(r"\s+")


@settings(max_examples=500, deadline=None)
@given(old=words, new=words)
def test_the_diff_rebuilds_the_new_text_and_marks_only_visible_changes(old, new):
    pieces = word_diff(old, new)
    assert "".join(text for op, text in pieces if op != "-") == new
    kept_old = "".join(text for op, text in pieces if op != "+")
    assert SPACE.sub("", kept_old) == SPACE.sub("", old)
    assert all(text.strip() for op, text in pieces if op != "=")
    assert all(text for _, text in pieces)


# Past the word limit (3,000 tokens, a pair: runlog/words.py) the texts are two blocks.
long_words = st.builds(
    lambda head, repeats, tail: head + "a b " * repeats + tail,
    words,
    st.integers(760, 900),
    words,
)
blank = st.text(alphabet=st.sampled_from(list(" \n\t")), max_size=3)


@settings(max_examples=60, deadline=None)
@given(
    old=st.one_of(words, blank, long_words), new=st.one_of(long_words, blank)
)  # blank: the other side alone past it
def test_past_the_word_limit_the_blocks_keep_the_same_guarantees(old, new):
    pieces = word_diff(old, new)
    assert "".join(text for op, text in pieces if op != "-") == new
    kept_old = "".join(text for op, text in pieces if op != "+")
    assert SPACE.sub("", kept_old) == SPACE.sub("", old)
    assert all(text.strip() for op, text in pieces if op != "=")
    assert all(text for _, text in pieces)


def test_a_dropped_trailing_newline_is_no_marked_change():
    assert diff_text("rule.\n", "rule.") == "rule."
    assert diff_text('"read the faq".\n    ', '"read the faq".') == '"read the faq".'
