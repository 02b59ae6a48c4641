"""The quality reports' shared page: one description, shown as text and as HTML.

Each report lists its title, subtitle and body blocks once (``quality/_show.py``);
its ``text()`` and ``html()`` are both made from that list, so they say the same
sentences in the same order.  The pieces themselves escape what they show, and a
pass after an interrupted first pass scores nothing (``quality/_scoring.py``).
"""

from __future__ import annotations

import dataclasses
import re
from html import unescape

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.keywords import EVALUATE
from skynet_jupyter.core.report import CaseResult, Step
from skynet_jupyter.i18n import t
from skynet_jupyter.quality import Phase, _scoring
from skynet_jupyter.quality._show import Line, Note, Table

ROWS = [
    {"text": "I was charged twice.", "label": "billing", "said": "billing", "human": "pass"},
    {"text": "The app crashes.", "label": "technical", "said": "billing", "human": "pass"},
    {"text": "Lisbon office?", "label": "other", "said": "other", "human": "fail"},
]
OPTIONS = {"outputs": "label", "output_column": "said"}


def exact(input, output, expected=None):
    right = output == expected["label"]
    return (1.0 if right else 0.0), {"feedback": "Right <b>&</b>." if right else "Wrong."}


def lenient(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}


@pytest.fixture(scope="module")
def reports() -> dict[str, object]:
    made = {
        "probe": sj.probe(exact, ROWS, **OPTIONS),
        "stability": sj.stability(exact, ROWS, repeats=2, **OPTIONS),
        "agreement": sj.agreement(exact, ROWS, human="human", **OPTIONS),
        "compare": sj.compare(exact, lenient, ROWS, **OPTIONS),
    }
    # Interrupted: a note in every report; an unpriced judge call: in every subtitle.
    return {
        kind: dataclasses.replace(report, interrupted=True, judge_unpriced=1)
        for kind, report in made.items()
    }


def _boxes(html: str) -> list[str]:
    """The texts of the HTML's note boxes, in order."""
    found = re.findall(r'<div class="skq-box skq-note">(.*?)</div>', html, flags=re.S)
    return [unescape(text) for text in found]


@pytest.mark.parametrize("kind", ["probe", "stability", "agreement", "compare"])
def test_the_text_and_the_html_say_the_same_notes_in_the_same_order(reports, kind):
    report = reports[kind]
    text, html = report.text(), report.html()  # type: ignore[attr-defined]
    lines = text.splitlines()
    notes = [line[len("  ! ") :] for line in lines if line.startswith("  ! ")]
    assert t("quality.interrupted", "en") in notes
    boxes = _boxes(html)
    # Every "!" line is a note box, in the same order; any other note box (compare's
    # summary) is a line of the text as it is.
    assert [box for box in boxes if box in notes] == notes
    assert all(box in notes or box in lines for box in boxes)
    title, subtitle = text.splitlines()[:2]
    assert unescape(re.findall(r'<div class="skq-title[^"]*">(.*?)</div>', html)[0]) == title
    assert unescape(re.findall(r'<div class="skq-sub">(.*?)</div>', html)[0]) == subtitle
    assert subtitle.endswith(t("quality.judge_unpriced", "en", count=1))


def test_the_blocks_escape_what_they_show():
    note = Note("<b> & co", "ok", mark="")
    assert note.lines() == ["<b> & co"]
    assert note.html() == '<div class="skq-box skq-ok">&lt;b&gt; &amp; co</div>'
    assert Note("careful").lines() == ["  ! careful"]
    assert Line("1 < 2", "skq-small").html() == '<div class="skq-small">1 &lt; 2</div>'
    assert Line("plain").html() == "<div>plain</div>"
    assert Line("text only", css=None).html() == ""
    assert Line("text only", css=None).lines() == ["text only"]
    table = Table(["case", "say <it>"], [[("0", "skq-num"), ("a & b", "")]], "skq-x")
    assert table.lines() == ["case  say <it>", "0     a & b"]
    assert table.html() == (
        '<table class="skq-x"><thead><tr><th>case</th><th>say &lt;it&gt;</th></tr></thead>'
        '<tbody><tr><td class="skq-num">0</td><td>a &amp; b</td></tr></tbody></table>'
    )


def test_after_an_interrupted_first_pass_nothing_more_is_scored():
    case = CaseResult(0, {"text": "hi"}, {"label": "x"}, output="x", score=1.0)
    stopped = sj.EvalReport(
        steps=[Step("metric_loads", "Metric loads", "passed")], cases=[case], interrupted=True
    )
    metric = _scoring.load(exact, "en")
    options = EVALUATE.options("agreement", {"output_column": "said"})
    seen = {}
    for base in (stopped, dataclasses.replace(stopped, interrupted=False)):
        events: list[object] = []
        items = _scoring.known_items(base, "en")
        results, interrupted = _scoring.score_items(
            metric, base, items, options, phase="probes", on_event=events.append
        )
        seen[base.interrupted] = ([r.score for r in results if r is not None], interrupted, events)
    assert seen[True] == ([], True, [])
    # Not interrupted, the same item is scored, after the pass's Phase event.
    scores, interrupted, events = seen[False]
    assert (scores, interrupted, events[0]) == ([1.0], False, Phase("probes", 1))


def test_a_first_pass_without_outputs_is_not_usable_unless_interrupted():
    failed = CaseResult(0, {"text": "hi"}, None, failed_step="run_function", error="boom")
    base = sj.EvalReport(steps=[], cases=[failed])
    with pytest.raises(_scoring.MetricNotUsable):
        _scoring.with_output(base, "en")
    stopped = dataclasses.replace(base, interrupted=True)
    assert _scoring.with_output(stopped, "en") == []
    assert _scoring.without_output(stopped) == (0,)


def test_the_judges_cost_and_its_unpriced_calls_are_said_in_the_language_asked():
    from skynet_jupyter.quality._show import judge_cost_text
    from skynet_jupyter.show.formats import fmt_usd

    cost = t("quality.judge_cost", "fr", cost=fmt_usd(0.25, "fr"))
    assert judge_cost_text("fr", 0.25, 0) == cost
    assert judge_cost_text("fr", 0.25, 2) == cost + " " + t("quality.judge_unpriced", "fr", count=2)


def test_cases_that_did_not_score_are_a_problem_box_not_a_note():
    from skynet_jupyter.quality._show import unscored_note

    note = unscored_note("en", [1, 2], 3, "RuntimeError: no judge")
    assert note is not None and note.kind == ""  # the red box: the report cannot be trusted
    error = "RuntimeError: no judge"
    assert note.text == t("quality.unscored_some", "en", count=2, total=3, case=1, error=error)
    assert '<div class="skq-box">' in note.html()


def test_a_judge_with_a_known_price_and_a_case_not_scored_are_not_unpriced_calls():
    priced = CaseResult(0, {}, None)
    priced.model_calls, priced.judge_cost_usd = 1, 0.002  # the judge called, at a known price
    unpriced = CaseResult(1, {}, None)
    unpriced.model_calls = 1  # the judge called, its price unknown
    assert _scoring.unpriced_judging([priced, None, unpriced]) == 1
