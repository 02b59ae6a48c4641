"""A message that shows a count says it in the form that count takes, in each language.

English and Portuguese use the singular for 1 only ("1 case", "0 cases"); French for
0 and 1 ("0 cas, 1 cas", "le cas lu", "les 2 cas lus"), or a form of its own for 0
("aucun cas") where the sentence needs it.
"""

from __future__ import annotations

import re

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.advice import advise
from skynet_jupyter.core.report import CaseResult, CheckReport
from skynet_jupyter.i18n import LANGUAGES, catalog, plural_category, t

COUNTS = (0, 1, 2, 5, 21)


def test_the_plural_rule_of_each_language():
    assert [plural_category("en", n) for n in (0, 1, 2, 11)] == ["other", "one", "other", "other"]
    assert [plural_category("pt", n) for n in (0, 1, 2, 11)] == ["other", "one", "other", "other"]
    assert [plural_category("fr", n) for n in (0, 1, 2, 11)] == ["one", "one", "other", "other"]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["0 cases", "1 case", "2 cases"]),
        ("fr", ["0 cas", "1 cas", "2 cas"]),
        ("pt", ["0 casos", "1 caso", "2 casos"]),
    ],
)
def test_a_count_of_cases(lang, expected):
    for key in ("report.cases", "quality.cases", "view.over_cases"):
        assert [t(key, lang, count=n) for n in (0, 1, 2)] == expected, key


def test_english_counts_read_right():
    assert t("advice.constant_score", "en", count=2, score="1").startswith(
        "The 2 cases all have the score 1."
    )
    assert t("step.more_cases", "en", count=1) == "(1 more case failed here.)"
    assert t("step.more_cases", "en", count=3) == "(3 more cases failed here.)"
    assert t("view.retries", "en", count=1) == "1 rate-limit retry"
    assert t("magic.cache_cleared", "en", count=1) == "Run cache cleared: 1 reply forgotten."
    assert t("magic.cache_cleared", "en", count=2) == "Run cache cleared: 2 replies forgotten."
    assert t("optimize.calls", "en", calls=1, budget=1) == "1 of 1 metric call"
    assert t("optimize.calls", "en", calls=1, budget=40) == "1 of 40 metric calls"
    assert t("quality.probe.found", "en", count=1).startswith("1 probe found a weakness")
    assert t("quality.agree.numeric", "en", n=1, spearman="-", pearson="-").startswith("1 case:")


def test_french_agreement():
    assert t("advice.none", "fr", count=1).startswith("Aucun conseil : dans le cas lu, ")
    assert t("advice.none", "fr", count=2).startswith("Aucun conseil : dans les 2 cas lus, ")
    assert t("report.more_cases", "fr", count=1).startswith("… et 1 autre cas :")
    assert t("report.more_cases", "fr", count=4).startswith("… et 4 autres cas :")
    # (quality.unscored_some took the place of quality.failed_cases: issue 24.)
    unscored = {"total": 5, "case": 2, "error": "?"}
    assert t("quality.unscored_some", "fr", count=1, **unscored).startswith(
        "1 cas sur 5 n'a pas été noté (cas 2 : ?) : il est laissé de côté"
    )
    assert t("quality.unscored_some", "fr", count=0, **unscored).startswith("0 cas sur 5 n'a pas")
    assert t("quality.unscored_some", "fr", count=3, **unscored).startswith(
        "3 cas sur 5 n'ont pas été notés (cas 2 : ?) : ils sont laissés de côté"
    )
    # The sentence agrees with the cases shown, not with the total.
    assert t("view.showing", "fr", shown=1, total=100) == "1 cas affiché sur 100."
    assert t("view.showing", "fr", shown=20, total=100) == "20 cas affichés sur 100."
    # Where 0 needs words of its own: "aucun".
    assert (
        t("report.interrupted", "fr", done=0, total=3) == "Interruption : aucun cas terminé sur 3."
    )
    assert (
        t("report.interrupted", "fr", done=1, total=3)
        == "Interruption : voici 1 cas terminé sur 3."
    )
    assert t("report.interrupted", "fr", done=2, total=3) == (
        "Interruption : voici les 2 cas terminés sur 3."
    )
    assert t("advice.more", "fr", count=1) == "(+1 autre)"
    assert t("advice.more", "fr", count=2) == "(+2 autres)"


def test_portuguese_counts_read_right():
    assert t("advice.none", "pt", count=1).startswith("Nenhum conselho: no caso lido, ")
    assert t("advice.none", "pt", count=3).startswith("Nenhum conselho: nos 3 casos lidos, ")
    assert t("quality.skipped", "pt", count=1) == "1 caso sem saída (o run falhou) ficou de fora."
    assert t("quality.skipped", "pt", count=0).startswith("0 casos sem saída")
    assert t("optimize.calls", "pt", calls=0, budget=1) == "0 de 1 chamada da métrica"
    assert t("advice.more", "pt", count=1) == "(+1 outro)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_says_s_in_brackets(lang):
    """No "case(s)", "autre(s)", "avaliação(ões)", "la ou les clés": each form is written."""
    hedged = re.compile(r"[^\W\d_]\((?:s|x|es|ões)\)|\bla ou les\b|\ble\(s\)|\ba\(s\)|\bo\(s\)")
    for key, message in catalog(lang).items():
        for text in [message] if isinstance(message, str) else message.values():
            assert not hedged.search(text.replace("float(x)", "")), (lang, key, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_message_takes_each_form(lang):
    english = catalog("en")
    for key, message in catalog(lang).items():
        if isinstance(message, str):
            continue
        by = message.get("by", "count")
        names = {
            name
            for form in ([english[key]] if isinstance(english[key], str) else english[key].values())
            for name in re.findall(r"\{(\w+)", form)
        }
        for n in COUNTS:
            fields = {**dict.fromkeys(names, "X"), by: n}
            said = t(key, lang, **fields)
            form = "zero" if n == 0 and "zero" in message else plural_category(lang, n)
            assert said == message[form].format(**fields), (lang, key, n)


def test_a_numpy_count_chooses_a_form_too():
    import numpy as np

    assert t("report.cases", "en", count=np.int64(1)) == "1 case"
    assert t("report.cases", "pt", count=np.int64(3)) == "3 casos"


def test_a_plural_message_needs_its_count():
    with pytest.raises(TypeError, match=r"report\.cases needs a number count="):
        t("report.cases", "en")
    with pytest.raises(TypeError, match=r"view\.showing needs a number total="):
        t("view.showing", "en", shown=1, count=3)


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "· 1 case ·", "· 2 cases ·"),
        ("fr", "· 1 cas ·", "· 2 cas ·"),
        ("pt", "· 1 caso ·", "· 2 casos ·"),
    ],
)
def test_a_report_counts_its_cases(lang, one, two):
    def score(input, output, expected=None):
        return 1.0, {"feedback": "Right."}

    rows = [{"q": "a", "label": "x"}, {"q": "b", "label": "y"}]
    alone = sj.check(score, rows[:1], outputs="label", output_column="label", lang=lang)
    both = sj.check(score, rows, outputs="label", output_column="label", lang=lang)
    assert one in str(alone) and two in str(both)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "No advice: in the 1 case read, "),
        ("fr", "Aucun conseil : dans le cas lu, "),
        ("pt", "Nenhum conselho: no caso lido, "),
    ],
)
def test_the_advice_on_one_case(lang, expected):
    case = CaseResult(0, {"text": "..."}, {"label": "billing"}, output="billing")
    case.score, case.feedback = 1.0, "Expected 'billing', got 'billing'. Right."
    step = advise(CheckReport(steps=[], cases=[case], lang=lang))
    assert step.message.startswith(expected)
    assert "dans les 1 cas" not in step.message and "1 case(s)" not in step.message
