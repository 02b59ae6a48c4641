"""The race's held-out split over generated cases (issue 38): held-out and GEPA's cases
never share a case by content (duplicated rows included), every case is on one side, the
split depends only on the seed, and a split that cannot leave 5 held-out and 2 for GEPA
is a sentence, never a smaller race."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.core.dataset import Case
from skynet_jupyter.core.errors import DataError
from skynet_jupyter.optimizers.race import MIN_HELD_OUT, _held_out

texts = st.sampled_from([f"ticket {n}" for n in range(12)])


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(texts, min_size=1, max_size=40),
    held_out=st.one_of(st.none(), st.integers(1, 45), st.floats(0.05, 0.95)),
    seed=st.integers(0, 5),
)
def test_the_held_out_cases_never_share_a_case_with_gepas(rows, held_out, seed):
    cases = [Case(i, {"text": text}, {"label": "x"}) for i, text in enumerate(rows)]
    try:
        held, rest = _held_out(cases, held_out, seed, "en")
    except DataError as refused:
        assert "held-out" in str(refused) or "held_out" in str(refused)
        return
    assert len(held) >= MIN_HELD_OUT and len(rest) >= 2
    assert {case.index for case in held} | {case.index for case in rest} == set(range(len(rows)))
    assert {c.input["text"] for c in held}.isdisjoint(c.input["text"] for c in rest)
    again = _held_out(cases, held_out, seed, "en")
    assert [c.index for c in again[0]] == [c.index for c in held]
