"""Huge values and objects whose ``__repr__`` raises: every report still shows, bounded.

The static HTML and the text cut each value (with a note saying how long it
was); the data (``report.cases``, ``to_frame``, ``to_dict``) keeps it whole.
A value that cannot be shown becomes a placeholder naming its type, in every
view, and the live view keeps drawing.
"""

from __future__ import annotations

import json
import threading
import time
from html import unescape

import ipywidgets
import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import ContractError, short_repr, validate_return
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.notebook.widgets._throttle import Throttle

BIG = 10_000_000  # characters: 10 MB of feedback made a 30 MB page before
PLACEHOLDER = "<unrepresentable Opaque: __repr__ raised ValueError>"


class Opaque:
    """A user object that cannot be shown (its __repr__ raises); it copies and compares."""

    def __init__(self, name: str = "x") -> None:
        self.name = name

    def __repr__(self) -> str:
        raise ValueError("no repr for you")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.name == self.name

    __hash__ = None  # type: ignore[assignment]


@pytest.fixture(autouse=True)
def close_widgets():
    yield
    ipywidgets.Widget.close_all()


def every_output(report, view: LiveView | None = None) -> dict[str, str]:
    outputs = {
        "str": str(report),
        "html": report._repr_html_(),
        "json": json.dumps(report.to_dict(), allow_nan=False),
    }
    if view is not None:
        outputs["widget head"] = view.head.value
        outputs["widget cases"] = view.cases.value
        outputs["widget static"] = view.static_html()
    return outputs


# --- size ----------------------------------------------------------------------------

HUGE_FEEDBACK = f"""
def score(input, output, expected=None):
    return 0.5, {{"feedback": "why " + "x" * {BIG}}}
"""


def test_a_10_mb_feedback_is_cut_in_the_page_and_whole_in_the_data(tickets):
    view = LiveView(kind="check")
    report = sj.check(
        HUGE_FEEDBACK, tickets, outputs="label", output_column="label", on_event=view.on_event
    )
    view.finish(report)
    assert len(report.cases) == 3
    html, text = report._repr_html_(), str(report)
    assert len(html) < 60_000, len(html)  # three cases of 10 MB each: 30 MB before
    assert len(text) < 30_000, len(text)
    note = f"[cut: 4000 of {BIG + 4} characters shown; the whole text is in the report's data"
    assert unescape(html).count(note) == 3 and text.count(note) == 3
    assert len(view.cases.value) < 120_000 and len(view.static_html()) < 60_000
    # the data keeps every character
    assert all(len(case.feedback) == BIG + 4 for case in report.cases)
    assert len(report.to_frame()["feedback"].iloc[0]) == BIG + 4
    assert len(report.to_dict()["cases"][0]["feedback"]) == BIG + 4


def test_the_note_speaks_the_report_language(tickets):
    report = sj.check(HUGE_FEEDBACK, tickets, outputs="label", output_column="label", lang="fr")
    assert f"[coupé : 4000 caractères affichés sur {BIG + 4}" in str(report)
    report = sj.check(HUGE_FEEDBACK, tickets, outputs="label", output_column="label", lang="pt")
    assert f"[cortado: 4000 de {BIG + 4} caracteres mostrados" in unescape(report._repr_html_())


def test_a_huge_error_and_output_stay_bounded(tickets):
    metric = f"""
def score(input, output, expected=None):
    raise ValueError("y" * {BIG})
"""
    rows = [dict(row, answer="z" * BIG) for row in tickets]
    report = sj.check(metric, rows, outputs="label", output_column="answer")
    case = report.cases[0]
    assert len(case.error) > BIG and len(case.traceback) > BIG  # whole in the data
    html, text = report._repr_html_(), str(report)
    assert len(html) < 120_000, len(html)
    assert len(text) < 120_000, len(text)
    assert "[cut: 8000 of" in text  # the traceback's own, larger bound
    assert "[cut: 4000 of" in html  # the error line, and the step's message
    view = LiveView(kind="check")
    view.finish(report)
    assert len(view.cases.value) < 250_000 and len(view.head.value) < 30_000


# --- objects whose __repr__ raises -----------------------------------------------------


def test_short_repr_and_messages_use_a_placeholder():
    assert short_repr(Opaque()) == PLACEHOLDER
    assert PLACEHOLDER in short_repr([Opaque(), 1])
    with pytest.raises(ContractError) as caught:
        validate_return(Opaque())
    assert PLACEHOLDER in str(caught.value) and "(a Opaque)" in str(caught.value)
    with pytest.raises(ContractError) as caught:
        validate_return((Opaque(), {"feedback": "ok"}))
    assert PLACEHOLDER in str(caught.value)


def test_inputs_outputs_and_expected_that_cannot_be_shown_degrade_everywhere():
    rows = [
        {"text": Opaque("a"), "label": Opaque("a"), "answer": Opaque("a")},
        {"text": [Opaque("b"), "nested"], "label": "billing", "answer": {"deep": Opaque("b")}},
        {"text": "plain", "label": "other", "answer": "other"},
    ]
    metric = """
def score(input, output, expected=None):
    ok = output == expected["label"]
    return float(ok), {"feedback": "Same." if ok else "Different."}
"""
    view = LiveView(kind="check")
    report = sj.check(metric, rows, outputs="label", output_column="answer", on_event=view.on_event)
    view.finish(report)
    assert [case.score for case in report.cases] == [1.0, 0.0, 1.0]
    outputs = every_output(report, view)
    for name in ("str", "html", "json", "widget cases"):
        assert "unrepresentable Opaque: __repr__ raised ValueError" in outputs[name], name
    document = json.loads(outputs["json"])
    assert document["cases"][0]["input"]["text"] == PLACEHOLDER
    assert document["cases"][1]["output"] == {"deep": PLACEHOLDER}
    assert view.errors.outputs == ()


def test_the_live_view_keeps_refreshing_through_odd_values():
    # The refresh thread draws cases while the evaluation runs: an odd value used to
    # kill it (and the final draw raised out of the engine's listener).
    rows = [{"text": Opaque(str(i)), "label": "x", "answer": Opaque(str(i))} for i in range(40)]
    metric = """
import time

def score(input, output, expected=None):
    time.sleep(0.05)  # 40 cases, 2 at a time: about a second of refreshes
    return 0.5, {"feedback": "Half right."}
"""
    view = LiveView(kind="eval", gap=0.01)
    threads_before = threading.active_count()
    report = sj.evaluate(
        metric,
        rows,
        outputs="label",
        output_column="answer",
        concurrency=2,
        on_event=view.on_event,
    )
    assert len(report.cases) == 40
    assert view._throttle.flushes >= 3  # timer flushes during the run, then the last one
    assert view.errors.outputs == ()
    assert PLACEHOLDER in unescape(view.cases.value)
    assert "40" in view.head.value
    time.sleep(0.1)
    assert threading.active_count() <= threads_before + 1


def test_a_failing_draw_is_shown_and_the_next_one_still_runs():
    lock = threading.RLock()
    reported: list[BaseException] = []
    draws: list[str] = []

    def flush() -> int:
        if not draws:
            draws.append("failed")
            raise RuntimeError("first draw breaks")
        draws.append("drawn")
        return 1

    throttle = Throttle(flush, lock, gap=0.01, on_error=reported.append)
    throttle.poke()
    deadline = time.monotonic() + 10
    while not reported and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [str(e) for e in reported] == ["first draw breaks"]
    throttle.poke()  # the timer thread died before: now the next event draws again
    while len(draws) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert draws == ["failed", "drawn"]
    assert throttle.now() == 1  # the final flush, too
