"""Every magic's report is shown once in its cell, and is a report of its public class.

The same path for check, eval, the four quality magics and the optimizer
(``notebook/cell_display.py``): the live view is the cell's display (its widget
and its static copy), the returned report does not show a second time as the
cell's Out, and ``r`` in a later cell shows it.  What the magic returns is an
instance of the public class, with that class's ``repr()``; it pickles and
copies as one; nothing is set on the report from outside.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

import skynet_jupyter as sj
from skynet_jupyter.quality import AgreementReport, CompareReport, ProbeReport, StabilityReport
from tests.conftest import require_module
from tests.quality_support import (
    cell,
    labelled_shell,
)

ROWS = "--outputs label --output-column label"
MAGICS = {
    "check": (f"%skynet_check --data tickets {ROWS}", sj.CheckReport, "CheckReport("),
    "eval": (f"%skynet_eval --data tickets {ROWS}", sj.EvalReport, "EvalReport("),
    "probe": (f"%skynet_probe --data tickets {ROWS}", ProbeReport, "<ProbeReport "),
    "stability": (
        f"%skynet_stability --data tickets {ROWS} --repeats 2",
        StabilityReport,
        "<StabilityReport ",
    ),
    "agree": (
        f"%skynet_agree --data labelled {ROWS} --human human",
        AgreementReport,
        "<AgreementReport ",
    ),
    "compare": (
        f"%skynet_compare default lenient --data tickets {ROWS}",
        CompareReport,
        "<CompareReport ",
    ),
    "optimize": (
        "%skynet_optimize --data tickets --outputs label --run classify --artifact prompt "
        "--budget 6 --val 2 --reflection-model reflection",
        sj.OptimizeReport,
        "OptimizeReport(",
    ),
}


def propose(instructions, _input=None):
    return "```\nbilling: charge, refund\n```"


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with labelled_shell(tmp_path, monkeypatch) as shell:
        shell.user_ns.update(reflection=sj.StandInModel(propose, tag=""))
        yield shell


def _display_ids(captured) -> list:
    return [(output.transient or {}).get("display_id") for output in captured.outputs]


@pytest.mark.parametrize("magic", list(MAGICS))
def test_the_report_is_shown_once_and_is_its_public_class(shell, magic):
    if magic == "optimize":
        require_module("gepa")
    line, public, head = MAGICS[magic]
    result, captured = cell(shell, f"r = {line}\nr")
    result.raise_error()
    # The cell shows the live view (its widget and its static copy, each with its display
    # id, updated in place) and no second copy of the report as its Out.
    ids = _display_ids(captured)
    assert ids and None not in ids and len(set(ids)) == 2, ids
    report = shell.user_ns["r"]
    assert isinstance(report, public)
    # repr() is the public class's, never a wrapper's.
    plain = public(
        **{f.name: getattr(report, f.name) for f in dataclasses.fields(public) if f.init}
    )
    assert repr(report) == repr(plain) and repr(report).startswith(head)
    assert report == plain and plain == report
    assert "Shown" not in repr(report)
    # Pickled or copied, it is a report of the public class.
    for again in (pickle.loads(pickle.dumps(report)), copy.copy(report)):
        assert type(again) is public and repr(again) == repr(report)
    # In a later cell the stored report shows itself, once, as any report does.
    _, later = cell(shell, "r")
    assert _display_ids(later) == [None]
    assert later.outputs[0].data["text/html"] == report._repr_html_()


def test_no_report_class_carries_a_cell_of_its_own():
    # The cell a report was shown in is the notebook's: no report class has a slot or
    # attribute for it, and none displays itself through IPython.
    for public in (sj.CheckReport, sj.EvalReport, sj.OptimizeReport, ProbeReport):
        for name in ("_cell", "_live_cell", "_ipython_display_"):
            assert not hasattr(public, name), (public, name)
    for public in (StabilityReport, AgreementReport, CompareReport):
        assert not hasattr(public, "_live_cell") and not hasattr(public, "_ipython_display_")


def test_a_copy_made_with_replace_shows_in_its_own_cell(shell):
    line = MAGICS["probe"][0]
    result, captured = cell(shell, f"r = {line}\nimport dataclasses\ndataclasses.replace(r)")
    result.raise_error()
    # A new report, not the one the view shows: the cell's Out shows it after the view.
    assert _display_ids(captured).count(None) == 1
