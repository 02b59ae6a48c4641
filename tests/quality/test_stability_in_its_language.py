"""What ``sj.stability`` says of itself, word for word, in the language asked for: the title,
the flip rate and mean standard deviation, the verdict (flips, steady, steady on the cases that
scored), the notes and the table."""

from __future__ import annotations

import re

import pytest

import skynet_jupyter as sj
from tests.quality_support import EXACT, JUDGED, TICKETS, Classify, Flipping, judge

ADVICE = (
    "Rendez le juge plus stable, puis mesurez à nouveau : appelez llm(..., temperature=0) ; "
    "donnez-lui une grille avec des critères concrets et un exemple de chaque verdict ; "
    "demandez un score sur une échelle (par ex. de 1 à 5) plutôt que PASS/FAIL, ou faites la "
    "moyenne de plusieurs appels."
)
TITLE = "Stabilité de la métrique 'default' sur {repeats} répétitions"


def test_a_flipping_judge_in_french_word_for_word():
    models = judge(Flipping())
    report = sj.stability(
        JUDGED, TICKETS, outputs="label", run=Classify(), models=models, lang="fr", repeats=3
    )
    steady = "1 1 1   1.000    0           1"
    assert report.text() == "\n".join(
        [
            TITLE.format(repeats=3),
            "5 cas · taux de bascule 20% · écart type moyen 0.0943 · coût du juge $0",
            "1 cas sur 5 n'a pas obtenu le même score à chaque répétition (taux de bascule 20%) "
            ": l'optimiseur voit du bruit là où rien n'a changé.",
            "  ! " + ADVICE,
            "cas  scores  moyenne  écart type  retours distincts",
            "2    1 0 1   0.667    0.471       2",
            *(f"{case}    {steady}" for case in (0, 1, 3, 4)),
        ]
    )
    html = report.html()
    assert (
        '<div class="skq-title skq-bad">Stabilité de la métrique &#x27;default&#x27; sur 3 '
        'répétitions</div><div class="skq-sub">5 cas · taux de bascule 20% · écart type moyen '
        '0.0943 · coût du juge $0</div><div class="skq-box">1 cas sur 5 n&#x27;a pas obtenu'
    ) in html
    assert (
        '<table class="skq-stability"><thead><tr><th>cas</th><th>scores</th><th>moyenne</th>'
        "<th>écart type</th><th>retours distincts</th></tr></thead><tbody>"
        '<tr><td class="skq-num">2</td><td class="skq-num skq-flag">1 0 1</td>'
        '<td class="skq-num">0.667</td><td class="skq-num">0.471</td><td class="skq-num">2</td>'
        '</tr><tr><td class="skq-num">0</td><td class="skq-num">1 1 1</td>'
    ) in html


def picky(input, output, expected=None):
    if "Lisbon" in input["text"]:
        raise ValueError("cannot score")
    return 1.0, {"feedback": "ok"}


def down_on_500(artifact, input):
    if "500" in input["text"]:
        raise RuntimeError("down")
    return Classify()(artifact, input)


def test_steady_on_the_cases_that_scored_in_french():
    report = sj.stability(picky, TICKETS, outputs="label", run=down_on_500, lang="fr", repeats=2)
    assert report.text() == "\n".join(
        [
            TITLE.format(repeats=2),
            "4 cas · taux de bascule 0% · écart type moyen 0 · coût du juge $0",
            "  ! 1 cas sur 4 n'a pas été noté (cas 2 : score a levé une exception avant de "
            "renvoyer sa paire : ValueError: cannot score) : "
            "il est laissé de côté, et une mesure avec un cas non noté ne peut pas réussir. "
            "%skynet_check montre pourquoi.",
            "Les 3 cas notés ont obtenu le même score dans les 2 répétitions.",
            "  ! 1 cas sans sortie (son run a échoué) a été laissé de côté.",
            "cas  scores       moyenne  écart type  retours distincts",
            "0    1 1          1.000    0           1",
            "1    1 1          1.000    0           1",
            "2    error error  —        —           1",
            "3    1 1          1.000    0           1",
        ]
    )
    assert re.search(r'<div class="skq-title skq-(\w+)">', report.html()).group(1) == "bad"


def test_a_steady_metric_in_french():
    report = sj.stability(EXACT, TICKETS, outputs="label", run=Classify(), lang="fr", repeats=2)
    said = report.text().splitlines()
    assert said[:3] == [
        TITLE.format(repeats=2),
        "5 cas · taux de bascule 0% · écart type moyen 0 · coût du juge $0",
        "Chaque cas a obtenu le même score dans les 2 répétitions.",
    ]
    html = report.html()
    assert '<div class="skq-title skq-good">' in html
    assert (
        '<div class="skq-box skq-ok">Chaque cas a obtenu le même score dans les 2 répétitions.'
        "</div>"
    ) in html


def test_repeats_out_of_bounds_are_refused_in_french():
    options = {"outputs": "label", "output_column": "label", "lang": "fr"}
    with pytest.raises(ValueError) as too_few:
        sj.stability(EXACT, TICKETS[:2], repeats=1, **options)
    assert str(too_few.value) == "repeats doit être un nombre entier de 2 ou plus, reçu 1."
    with pytest.raises(ValueError) as too_many:
        sj.stability(EXACT, TICKETS[:2], repeats=1001, **options)
    assert str(too_many.value) == "repeats doit être un nombre entier de 2 à 1000, reçu 1001."
