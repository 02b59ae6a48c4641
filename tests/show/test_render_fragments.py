"""Each fragment of a report is written once: the live view says what the static report says.

The static report (``render``), the live view (``widgets``), the terminal and
the magics share the summary line, the "interrupted" line, the steps and the
way a report shows itself; these tests hold them to saying the same thing.
"""

from __future__ import annotations

from html import escape

import ipywidgets
import pytest
from IPython.lib.pretty import pretty

import skynet_jupyter as sj
from skynet_jupyter.core.report import CaseResult, CheckReport, EvalReport
from skynet_jupyter.core.shows_itself import ShowsItself
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.notebook.widgets._state import LiveState
from skynet_jupyter.optimizers.report import OptimizeReport
from skynet_jupyter.show.render import interrupted_line, summary_line


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    ipywidgets.Widget.close_all()


def nan_everywhere(input, output, expected=None):
    return float("nan"), {"feedback": "x"}


def keyword_run(artifact, case_input):
    return "billing" if "charged" in case_input["text"] else "other"


def measured_cases() -> list[CaseResult]:
    """Cases with named scores, rate-limit retries and stand-in answers."""
    return [
        CaseResult(
            i,
            {"t": i},
            None,
            output="o",
            score=i / 4,
            feedback="f",
            scores={"format": 1.0, "tone": i / 8},
            retries=i % 2,
            stand_in_calls=1,
        )
        for i in range(4)
    ]


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_the_live_summary_line_is_the_reports(lang):
    report = EvalReport(steps=[], cases=measured_cases(), lang=lang, metric_name="judge")
    state = LiveState(kind="eval", lang=lang, metric_name="judge")
    state.add_many(report.cases)
    assert state.summary() == summary_line(report)
    # Retries and stand-in answers are said live too, not only in the static report.
    assert str(report.retries) in state.summary() and report.retries == 2
    view = LiveView(kind="eval", lang=lang, metric_name="judge")
    view.finish(report)
    assert escape(summary_line(report)) in view.head.value


def test_the_live_view_and_the_magics_say_the_reports_interrupted_line(tickets):
    full = sj.check(nan_everywhere, tickets, outputs="label", run=keyword_run)
    report = CheckReport(steps=full.steps, cases=full.cases[:2], interrupted=True, total_cases=3)
    line = interrupted_line(report)
    assert "2 of 3" in line
    assert line in str(report)
    view = LiveView(kind="check")
    view.finish(report)
    assert escape(line) in view.head.value


def test_running_steps_are_worded_as_the_finished_reports(tickets):
    report = sj.check(nan_everywhere, tickets, outputs="label", run=keyword_run)
    failed = report.step("metric_return_value")
    assert failed.status == "failed" and failed.message.startswith("Cases 0–2 (3): ")
    state = LiveState(kind="check")
    state.add_many(report.cases)  # every case seen, the report not yet there
    running = {step.id: step for step in state.steps()}
    assert running["metric_return_value"] == failed  # message, fix and case numbers alike
    view = LiveView(kind="check")
    for done, case in enumerate(report.cases, 1):
        view.on_event(sj.CaseFinished(case, done, 3))
    view.flush()
    assert escape(failed.message) in view.head.value


def test_every_report_shows_itself_through_one_mixin():
    for cls in (CheckReport, EvalReport, OptimizeReport):
        assert issubclass(cls, ShowsItself)
        for name in ("__str__", "_repr_html_"):  # inherited, not written again
            assert name not in cls.__dict__, (cls, name)
    report = EvalReport(steps=[], cases=measured_cases())
    # IPython's plain display is the report's text (not the dataclass repr), as for a check.
    assert pretty(report) == str(report) and str(report).startswith("Evaluation finished")
    assert pretty(CheckReport(steps=[], cases=[])) == str(CheckReport(steps=[], cases=[]))
