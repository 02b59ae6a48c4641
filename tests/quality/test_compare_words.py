"""Issue 25, item 17: numbers and plurals read right, through the API and the magics.

"mean change (b − a) +0." read as a number cut short; "All 2 cases have the score 1" and
"on all 2 cases" are not English.  Each message is read in English, French and Portuguese.
"""

from __future__ import annotations

import re

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import LANGUAGES, catalog, t
from skynet_jupyter.show.formats import fmt_mean_delta
from tests.quality_support import TICKETS, cell, quality_shell, register

LANGS = pytest.mark.parametrize("lang", LANGUAGES)

RIGHT = """
def score(input, output, expected=None):
    return 1.0, {"feedback": "Right label."}
"""
SAYS_MORE = """
def score(input, output, expected=None):
    return 1.0, {"feedback": "Right label: " + expected["label"] + "."}
"""


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        yield shell


def test_a_mean_change_is_said_with_the_precision_of_a_mean():
    assert [fmt_mean_delta(v) for v in (0.0, -0.0, 0.0001, 0.2, -0.05)] == [
        "0.000",
        "0.000",
        "0.000",
        "+0.200",
        "-0.050",
    ]
    assert fmt_mean_delta(None) == "—"


@LANGS
def test_an_unchanged_mean_does_not_end_its_sentence_with_plus_zero(lang):
    report = sj.compare(
        RIGHT, SAYS_MORE, TICKETS[:4], outputs="label", output_column="label", lang=lang
    )
    assert report.mean_delta == 0.0 and report.feedback_changed
    said = str(report)
    assert "+0." not in said and "(b − a) 0.000." in said
    assert "+0." not in report._repr_html_()


@LANGS
def test_the_compare_magic_says_the_same(shell, lang):
    shell.user_ns["tickets"] = TICKETS[:4]
    register(shell, RIGHT, "a")
    register(shell, SAYS_MORE, "b")
    shell.run_line_magic("config", f"SkynetMagics.lang = {lang!r}")
    result, captured = cell(
        shell, "%skynet_compare a b --data tickets --outputs label --output-column label"
    )
    result.raise_error()
    shown = " ".join(str(output.data) for output in captured.outputs)
    assert "(b − a) 0.000." in str(result.result) and "(b − a) 0.000." in shown
    assert "+0." not in shown


@LANGS
def test_two_cases_with_one_score_are_not_all_2_cases(lang):
    report = sj.check(RIGHT, TICKETS[:2], outputs="label", output_column="label", lang=lang)
    (advice,) = [step for step in report.steps if step.id == "feedback_advice"]
    assert t("advice.constant_score", lang, count=2, score="1") in advice.message
    assert not re.search(r"\b(All|all) 2\b", str(report))


def test_no_english_sentence_says_all_and_a_count():
    """ "All 2 cases", "all 1 cases": English says "both", or "the N cases all"."""
    for key, message in catalog("en").items():
        for text in [message] if isinstance(message, str) else message.values():
            assert not re.search(r"\b[Aa]ll (the )?\{(count|n|total|val)\}", text), (key, text)


# Plain sentences (no plural forms) with a count before a plural noun: each is only ever
# said of two or more, and says why here.
TWO_OR_MORE = {
    "advice.constant_score": "only said of 2 or more cases (a score that never varies)",
    "advice.constant_accuracy": "as advice.constant_score",
    "case.not_run_blocked": "said once MAX_BLOCKED_THREADS (16) threads are blocked",
    "align.assigned_twice": "an assignment made twice or more",
    "align.running_so_far": "the held-out cases: at least 2 of 10 or more labelled cases",
    "align.improved": "as align.running_so_far",
    "align.not_improved": "as align.running_so_far",
    "align.why_budget": "the training cases: at least 2",
    "quality.scorings_max": "more than the maximum number of calls",
    "quality.stability.title": "repeats are 2 to 1000",
    "quality.stability.stable": "repeats are 2 to 1000",
    "race.held_out_share_too_small": "a race has 7 cases or more here (race.too_few_cases first)",
    "race.held_out_grouped": "as race.held_out_share_too_small",
}


def test_a_plain_english_sentence_counts_only_what_is_two_or_more():
    for key, message in catalog("en").items():
        if not isinstance(message, str) or key in TWO_OR_MORE:
            continue
            # "{agreed} of {n} cases" is a part of a whole: the noun goes with the whole.
        said = re.sub(r"\{\w+\} of \{\w+\} ", "", message)
        assert not re.search(r"\{(count|n|total|repeats|train)\} [a-z-]+s\b", said), key
