"""Issue 25, in every view: a failed check's mean says how many cases it covers.

The text, the static HTML and the live view's header are read side by side; the
same check through ``%skynet_check`` is in tests/notebook/test_said_once_magics.py.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import LANGUAGES, t
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.show.formats import fmt_mean
from skynet_jupyter.show.render import report_html

EMAILS = [
    {"email": "Meet on 14 March 2024", "date": "2024-03-14"},
    {"email": "See you 2 Jan 2023", "date": "2023-01-02"},
    {"email": "Due 5 May 2022", "date": "2022-05-05"},
    {"email": "Sent 1 Jun 2021", "date": "2021-06-01"},
]
ONE_GOOD_CASE = """
def score(input, output, expected=None):
    if "March" not in input["email"]:
        raise ValueError("cannot parse")
    return 1.0, {"feedback": "Right: the date is " + expected["date"] + "."}
"""


def _views(report: sj.CheckReport) -> dict[str, str]:
    view = LiveView(kind=report.kind)
    view.finish(report)
    return {
        "live": unescape(view.head.value),
        "static": unescape(report_html(report)),
        "text": str(report),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_mean_of_a_failed_check_says_over_how_many_cases(lang):
    report = sj.check(
        ONE_GOOD_CASE, EMAILS, outputs="date", output_column="date", cases=4, lang=lang
    )
    assert not report.passed
    mean = (
        f"{t('report.mean', lang)} {fmt_mean(1.0)} {t('report.mean_over', lang, scored=1, count=4)}"
    )
    for name, shown in _views(report).items():
        assert mean in shown, name


def test_a_check_where_every_case_scored_keeps_the_plain_mean():
    fine = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'Right.'}\n"
    report = sj.check(fine, EMAILS, outputs="date", output_column="date", cases=4)
    for name, shown in _views(report).items():
        assert f"{t('report.mean', 'en')} {fmt_mean(1.0)}" in shown, name
        assert "over" not in shown.split(t("report.mean", "en"), 1)[1][:20], name


# --- 11. a failure repeated across cases: said once, with the case numbers ----------------

MISSPELT_FEEDBACK = """
def score(input, output, expected=None):
    return 1.0, {"feedbak": "Right."}
"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_repeated_failure_is_said_once_in_every_view(lang):
    report = sj.check(
        MISSPELT_FEEDBACK, EMAILS, outputs="date", output_column="date", cases=4, lang=lang
    )
    paragraph = report.cases[0].error
    assert paragraph and all(case.error == paragraph for case in report.cases)
    view = LiveView(kind=report.kind)
    view.finish(report)
    shown = {  # what is read, not a chip's tooltip (its title repeats the chip's own line)
        "live": unescape(re.sub(r' title="[^"]*"', "", view.head.value + view.cases.value)),
        "static": unescape(report_html(report)),
        "text": str(report),
    }
    same = t("case.same_error", lang, case=0)
    for name, text in shown.items():
        # The step line names the cases; case 0's row says why; cases 1-3 point to it.
        assert text.count(paragraph) == 2, name
        assert t("step.cases_failed", lang, cases="0–3", count=4, error=paragraph) in text, name
        assert text.count(same) == 3, name


def test_a_repeated_traceback_is_shown_once():
    raising = "def score(input, output, expected=None):\n    raise ValueError('cannot parse')\n"
    report = sj.check(raising, EMAILS, outputs="date", output_column="date", cases=4)
    view = LiveView(kind=report.kind)
    view.finish(report)
    for name, text in {
        "live": view.cases.value,
        "static": report_html(report),
        "text": str(report),
    }.items():
        assert text.count("Traceback (most recent call last)") == 1, name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_cached_means_is_said_once_in_every_view(lang):
    fine = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'Right.'}\n"
    report = sj.check(fine, EMAILS, outputs="date", output_column="date", cases=4, lang=lang)
    for case in report.cases[1:]:  # as the call cache marks a run's model calls
        case.cached, case.model_calls = True, 1
    view = LiveView(kind=report.kind)
    view.finish(report)
    full, short = f"({t('value.cached', lang)})", f"({t('value.cached_again', lang)})"
    for name, text in {
        "live": unescape(view.cases.value),
        "static": unescape(report_html(report)),
        "text": str(report),
    }.items():
        # Case 0 was run now: no mark; case 1 says what "cached" means; cases 2-3 say the word.
        assert text.count(full) == 1, name
        assert text.count(short) == 2, name
