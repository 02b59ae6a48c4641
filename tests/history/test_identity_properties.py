"""Property tests of the names that survive a reordering, and of the diff's symmetry.

- a case's identity comes from its input and expected value: the same rows in any
  order get the same identities, and the data the same fingerprint;
- a diff of a run with itself is empty;
- ``diff(a, b)`` mirrors ``diff(b, a)``: regressions and improvements, added and
  removed swap, unchanged stay, the deltas change sign.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.runlog.identity import case_identities, data_fingerprint, metric_version
from skynet_jupyter.runlog.run_diff import compare_runs

from .support import SOURCE_A, SOURCE_B, case, record_of

values = st.one_of(
    st.text(max_size=8),
    st.integers(-5, 5),
    st.none(),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(0, 3), max_size=2),
)
rows = st.lists(
    st.tuples(st.dictionaries(st.sampled_from("abc"), values, max_size=3), values),
    max_size=12,
)


@given(rows, st.randoms(use_true_random=False))
def test_identities_are_stable_under_reordering(pairs, random):
    shuffled = list(pairs)
    random.shuffle(shuffled)
    assert sorted(case_identities(pairs)) == sorted(case_identities(shuffled))
    assert data_fingerprint(case_identities(pairs)) == data_fingerprint(case_identities(shuffled))


@given(rows)
def test_every_case_has_its_own_identity_repeated_rows_too(pairs):
    names = case_identities(pairs)
    assert len(set(names)) == len(names)


def test_a_changed_row_changes_the_fingerprint_and_key_order_does_not():
    one = case_identities([({"a": 1, "b": 2}, {"label": "x"})])
    same = case_identities([({"b": 2, "a": 1}, {"label": "x"})])
    other = case_identities([({"a": 1, "b": 3}, {"label": "x"})])
    assert one == same != other
    assert data_fingerprint(one) != data_fingerprint(other)


def test_a_version_is_the_source_whatever_its_line_endings():
    assert metric_version(SOURCE_A) == metric_version(SOURCE_A.replace("\n", "\r\n"))
    assert metric_version(SOURCE_A) != metric_version(SOURCE_B)
    assert metric_version(None) is None


outcomes = st.lists(
    st.tuples(
        st.sampled_from(["p", "q", "r", "s", "t", "u"]),  # the input
        st.one_of(st.none(), st.sampled_from([0.0, 0.25, 0.5, 1.0])),  # the score
        st.booleans(),  # failed
        st.sampled_from(["Fine.", "Wrong label.", "Half right."]),
    ),
    max_size=8,
)


def _cases(rows):
    return [
        case(i, text, score=score, failed="metric_return_value" if failed else None, feedback=fb)
        for i, (text, score, failed, fb) in enumerate(rows)
    ]


@settings(max_examples=60, deadline=None)
@given(outcomes)
def test_a_run_against_itself_is_empty(rows):
    run = record_of(_cases(rows))
    same = compare_runs(run, run)
    assert same.empty and not same
    assert not (same.regressions or same.improvements or same.added or same.removed)
    assert len(same.unchanged) == len(rows) == same.shared
    assert same.deltas.pass_rate in (None, 0.0) and same.deltas.mean in (None, 0.0)


@settings(max_examples=80, deadline=None)
@given(outcomes, outcomes)
def test_a_diff_mirrors_its_reverse(first, second):
    a = record_of(_cases(first), SOURCE_A)
    b = record_of(_cases(second), SOURCE_B)
    forward = compare_runs(a, b, allow_different_data=True)
    back = compare_runs(b, a, allow_different_data=True)

    def ids(changes):
        return sorted(change.id for change in changes)

    assert ids(forward.regressions) == ids(back.improvements)
    assert ids(forward.improvements) == ids(back.regressions)
    assert ids(forward.added) == ids(back.removed)
    assert ids(forward.removed) == ids(back.added)
    assert ids(forward.unchanged) == ids(back.unchanged)
    assert forward.shared == back.shared
    for name in ("pass_rate", "mean", "elapsed_s"):
        there, here = getattr(forward.deltas, name), getattr(back.deltas, name)
        assert (there is None) == (here is None)
        if there is not None:
            assert abs(there + here) < 1e-9
    # Every case of either run is in exactly one group.
    grouped = [*forward.regressions, *forward.improvements, *forward.unchanged]
    assert len(grouped) + len(forward.added) == len(b.cases)
    assert len(grouped) + len(forward.removed) == len(a.cases)
