"""sj.diff: two runs case by case; regressions first; the references a user types."""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.runlog.api import UnknownRun, resolve_run
from skynet_jupyter.runlog.location import LogLocation
from skynet_jupyter.runlog.record import draft
from skynet_jupyter.runlog.recorder import write_draft
from skynet_jupyter.runlog.run_diff import DifferentData, compare_runs

from .support import SOURCE_A, SOURCE_B, Source, case, record_of, report

FAILED = "metric_return_value"


def runs():
    before = [
        case(0, "a", score=1.0),
        case(1, "b", score=1.0, feedback="Good job."),
        case(2, "c", score=0.5),
        case(3, "d", score=0.0, failed=FAILED),
        case(4, "e", score=0.2, feedback="Close: says billing."),
    ]
    after = [
        case(0, "e", score=0.2, feedback="Close: it says billing."),  # reordered; feedback changed
        case(1, "a", score=1.0),
        case(2, "b", score=0.0, failed=FAILED, feedback="Broke."),  # pass -> fail
        case(3, "c", score=0.25),  # lower score
        case(4, "d", score=1.0),  # fail -> pass
    ]
    return record_of(before, SOURCE_A), record_of(after, SOURCE_B)


def test_cases_are_matched_by_identity_and_regressions_come_first():
    a, b = runs()
    found = compare_runs(a, b)
    assert [c.input["text"] for c in found.regressions] == ["b", "c"]  # pass -> fail first
    assert found.regressions[0].pass_changed and found.regressions[1].delta == -0.25
    assert [c.input["text"] for c in found.improvements] == ["d"]
    assert sorted(c.input["text"] for c in found.unchanged) == ["a", "e"]
    assert not found.added and not found.removed and found.shared == 5
    (feedback,) = found.changed_feedback
    assert feedback.input["text"] == "e"
    assert ("+", "it ") in feedback.feedback_diff or any(
        op == "+" and "it" in text for op, text in feedback.feedback_diff
    )
    assert found.deltas.pass_rate == pytest.approx(0.0)
    assert found.deltas.mean == pytest.approx((2.45 - 2.7) / 5)
    assert "-    return 1.0" in found.source_diff and "+    return 0.5" in found.source_diff
    assert found and not found.empty


def test_different_data_is_refused_unless_allowed_then_only_the_shared_cases():
    a = record_of([case(0, "a"), case(1, "b")])
    b = record_of([case(0, "b", score=0.0), case(1, "z")])
    with pytest.raises(DifferentData, match="allow_different_data=True"):
        compare_runs(a, b)
    found = compare_runs(a, b, allow_different_data=True)
    assert found.shared == 1 and "only the 1 case they share" in found.note
    assert [c.input["text"] for c in found.added] == ["z"]
    assert [c.input["text"] for c in found.removed] == ["a"]
    assert [c.input["text"] for c in found.regressions] == ["b"]


def test_a_change_past_the_cut_still_shows(tmp_path):
    from skynet_jupyter.runlog.schema import MAX_TEXT

    long = "x" * (MAX_TEXT + 10)
    a = record_of([case(0, "a", output=long + "1")])
    b = record_of([case(0, "a", output=long + "2")])
    (same,) = compare_runs(a, b).unchanged
    assert same.a["output"] == same.b["output"] and same.output_changed


def _write(log, cases, source=SOURCE_A, name="default"):
    made = draft(report(cases, name=name), Source(source, name), None, None, surface="python")
    return write_draft(made, LogLocation(path=log))


def test_references_ids_prefixes_last(tmp_path):
    first = _write(tmp_path, [case(0, "a")])
    second = _write(tmp_path, [case(0, "a", score=0.5)], SOURCE_B)
    other = _write(tmp_path, [case(0, "q")], name="other")
    assert resolve_run("last", log=tmp_path).id == other
    assert resolve_run("last", log=tmp_path, metric="default").id == second
    assert resolve_run("last~1", log=tmp_path, metric="default").id == first
    assert resolve_run(first, log=tmp_path).id == first
    assert resolve_run(first[-8:], log=tmp_path).id == first  # its random tail
    with pytest.raises(UnknownRun, match=r"no last~2 run of 'default'.*only 2 runs"):
        resolve_run("last~2", log=tmp_path, metric="default")
    with pytest.raises(UnknownRun, match="No run 'nope'"):
        resolve_run("nope", log=tmp_path)
    common = first[:9]  # the date: every run here starts with it
    with pytest.raises(UnknownRun, match="give more of the id"):
        resolve_run(common, log=tmp_path)
    found = sj.diff("last~1", "last", metric="default", log=tmp_path)
    assert (found.a.id, found.b.id) == (first, second)
    assert [c.delta for c in found.regressions] == [-0.5]
    # "last" of the other run's metric when no metric is named.
    assert sj.diff(first, "last", log=tmp_path).b.id == second
    with pytest.raises(TypeError, match="a run id"):
        sj.diff(3, "last", log=tmp_path)


def test_a_report_is_compared_as_it_is():
    a, _ = runs()
    live = report([case(0, "a", score=0.0)])
    found = sj.diff(a, live, allow_different_data=True)
    assert [c.input["text"] for c in found.regressions] == ["a"]
    frame = found.to_frame()
    assert list(frame["kind"][:1]) == ["regression"] and len(frame) == 5
    document = found.to_dict()
    assert document["counts"]["regressions"] == 1 and document["shared"] == 1
