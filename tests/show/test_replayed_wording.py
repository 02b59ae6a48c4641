"""A replayed check of a run that calls no model says what happened (issue 44, item 5).

Registering an edited metric replays its last check: the edited metric scores the outputs
that check got, and ``run`` is not called.  For a plain keyword classifier there is no
model at all, so "every case from the run cache: no model asked now" and "(cached: the
original run's time and cost)" were both untrue: nothing came from the run cache.  Each view
(the text, the static HTML, the live view updated in place) now says the outputs were
replayed from the last check, with its run time, and that no model was called.  A case
whose run's model calls came from the run cache is still said to be cached.
"""

from __future__ import annotations

import re
import textwrap
from html import unescape

import pytest
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from skynet_jupyter.core.report import CaseResult
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.show.render import report_html

CLASSIFY = """
def classify(artifact, input):
    text = input["text"].lower()
    for line in artifact.splitlines():
        label, _, words = line.partition(":")
        if any(word.strip() in text for word in words.split(",")):
            return label.strip()
    return "other"

tickets = [
    {"text": "I was charged twice.", "label": "billing"},
    {"text": "The app crashes.", "label": "technical"},
    {"text": "Do you have an office in Lisbon?", "label": "other"},
]
prompt = "billing: charged, refund\\ntechnical: crash"
"""
METRIC = """
def score(input, output, expected=None):
    right = output == expected["label"]
    return float(right), {"feedback": "Right." if right else f"Expected {expected['label']!r}."}
"""
EDITED = METRIC.replace('"Right."', '"Right: the label matches."')
CHECK = "%skynet_check --data tickets --outputs label --run classify --artifact prompt"

HEADER = "every case replayed from the last check: run was not called, and no model was asked"
ROW = "replayed: the last check's output and run time; no model was called"
UNTRUE = ("from the run cache", "no model asked now", "cached: the original run's")


def run(shell, source: str):
    with capture_output() as captured:
        result = shell.run_cell(source)
    result.raise_error()
    return captured


@pytest.fixture
def replayed(shell):
    """The edited metric's replayed check, and the live view the replay updated in place."""
    run(shell, CLASSIFY)
    run(shell, f"%%skynet_metric\n{textwrap.dedent(METRIC)}")
    run(shell, CHECK)
    printed = run(shell, f"%%skynet_metric\n{textwrap.dedent(EDITED)}").stdout
    assert "Re-ran the last check of 'default'" in printed
    magics = shell.magics_manager.registry["SkynetMagics"]
    view = magics.last_checks["default"].view
    return view.report, view


def test_the_text_says_the_outputs_were_replayed_and_no_model_was_asked(replayed):
    report, _ = replayed
    assert all(case.cached and case.model_calls == 0 for case in report.cases)
    text = str(report)
    assert HEADER in text.splitlines()[0]
    first = next(line for line in text.splitlines() if " case 0 " in line)
    assert f"({ROW})" in first
    later = [line for line in text.splitlines() if re.search(r" case [12] ", line)]
    assert later and all("(replayed)" in line for line in later)  # said in full once
    assert not any(words in text for words in UNTRUE)


def test_the_static_html_says_the_same(replayed):
    report, _ = replayed
    html = unescape(report_html(report))
    assert HEADER in html and ROW in html
    assert not any(words in html for words in UNTRUE)
    assert "<script" not in report_html(report)


def test_the_live_view_updated_in_place_says_the_same(replayed):
    _, view = replayed
    shown = unescape(view.head.value + view.cases.value)
    assert HEADER in shown and ROW in shown
    assert not any(words in shown for words in UNTRUE)


def _case(index: int, **fields) -> CaseResult:
    values = {"output": "billing", "score": 1.0, "feedback": "fine", "run_ms": 12.0} | fields
    case = CaseResult(index, {"text": "t"}, {"label": "billing"}, **values)
    case.cached = True
    return case


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_a_run_whose_model_calls_came_from_the_cache_is_still_cached(lang):
    report = sj.CheckReport(
        steps=[], cases=[_case(0, model_calls=2, cost_usd=0.001)], lang=lang, total_cases=1
    )
    from skynet_jupyter.i18n import t

    for shown in (str(report), unescape(report_html(report))):
        assert t("report.all_cached", lang) in shown
        assert t("value.cached", lang) in shown
        assert t("value.replayed", lang) not in shown


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_every_view_says_replayed_in_each_language(lang):
    from skynet_jupyter.i18n import t

    report = sj.CheckReport(steps=[], cases=[_case(0), _case(1)], lang=lang, total_cases=2)
    view = LiveView(kind="check", lang=lang)
    view.finish(report)
    for shown in (str(report), unescape(report_html(report)), unescape(view.head.value)):
        assert t("report.all_replayed", lang) in shown
    for shown in (str(report), unescape(report_html(report)), unescape(view.cases.value)):
        assert t("value.replayed", lang) in shown
        assert t("value.cached", lang) not in shown


def test_a_mixed_report_claims_nothing_for_every_case():
    report = sj.CheckReport(
        steps=[], cases=[_case(0), CaseResult(1, {"text": "u"}, None, "x", 1.0, "ok")]
    )
    header = str(report).splitlines()[0]
    assert "replayed" not in header and "run cache" not in header
