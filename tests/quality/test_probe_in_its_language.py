"""What ``sj.probe`` says of itself, word for word, in the language asked for: the findings, the
probes the metric failed on, the cases left out, the probes not run, the table, and an unknown
probe's name."""

from __future__ import annotations

import re

import pytest

import skynet_jupyter as sj
from tests.quality_support import EXACT, TICKETS, Classify

# Fails on its input echoed back, and takes any answer that holds the label.
QUIET = """
def score(input, output, expected=None):
    if output == input["text"]:
        raise ValueError("an echo")
    return (1.0 if expected["label"] in output else 0.0), {"feedback": ""}
"""


def no_office(artifact, input):
    """Classify, except that the Lisbon ticket (case 2) has no output: its run fails."""
    if "Lisbon" in input["text"]:
        raise RuntimeError("no office")
    return Classify()(artifact, input)


# The cases with an output (case 2's run failed), and their labels as the text view quotes them.
SCORED = [(0, '"billing"'), (1, '"technical"'), (3, '"billing"'), (4, '"technical"')]


SCORES = "0      error       ✗ 1"  # empty, echo_input, long


def quiet_report():
    options = {"outputs": "label", "run": no_office, "lang": "fr"}
    return sj.probe(QUIET, TICKETS, probes="empty,long,echo_input", **options)


def test_findings_failures_and_cases_left_out_in_french_word_for_word():
    report = quiet_report()
    assert report.text() == "\n".join(
        [
            "Sondes de triche de la métrique 'default'",
            "4 cas · 4 sondes · coût du juge $0",
            "1 sonde a trouvé une faiblesse qu'un optimiseur pourrait exploiter.",
            "  ✗ long: La sortie répétée 20 fois obtient autant que la valeur attendue dans 4 cas "
            "(0, 1, 3, 4) : un optimiseur peut apprendre à allonger ses réponses. Comparez "
            "exactement, ou pénalisez la longueur au-delà du nécessaire.",
            "  ! La métrique a échoué sur la sonde echo_input dans 4 cas (cas 0 : score a levé "
            "une exception avant de renvoyer sa paire : ValueError: an echo). Un optimiseur qui "
            "produit une telle "
            "sortie rencontre cette "
            "erreur : faites-la gérer par score, avec un score bas et un retour.",
            "  ! 1 cas sans sortie (son run a échoué) a été laissé de côté.",
            "cas  attendu             sortie       score  attendu comme sortie  empty  echo_input  "
            "long",
            *(
                f"{case}    label: {label:<11}  {label:<11}  1      1{' ' * 21}{SCORES}"
                for case, label in SCORED
            ),
        ]
    )


def test_the_probe_table_in_french_cell_by_cell():
    table = re.search(r'<table class="skq-probes">.*?</table>', quiet_report().html()).group(0)
    assert table.startswith(
        '<table class="skq-probes"><thead><tr><th>cas</th><th>attendu</th><th>sortie</th>'
        "<th>score</th><th>attendu comme sortie</th><th>empty</th><th>echo_input</th>"
        "<th>long</th></tr></thead><tbody>"
        '<tr><td class="skq-num">0</td><td>label: &quot;billing&quot;</td>'
        '<td>&quot;billing&quot;</td><td class="skq-num">1</td><td class="skq-num">1</td>'
        '<td class="skq-num">0</td><td class="skq-err">error</td>'
        '<td class="skq-num skq-flag">✗ 1</td></tr>'
    )


def test_probes_without_expected_values_are_said_not_run_in_french():
    says = """
def score(input, output):
    return (1.0 if output else 0.0), {"feedback": "Says something."}
"""
    rows = [{"text": row["text"]} for row in TICKETS]
    report = sj.probe(says, rows, run=Classify(), lang="fr", probes="empty")
    assert report.text().splitlines()[2:5] == [
        "Aucune sonde n'a trouvé de faiblesse qu'un optimiseur pourrait exploiter.",
        "  ! Non lancées : expected (elles ont besoin des valeurs attendues : donnez outputs=, "
        "les colonnes Output).",
        "cas  attendu  sortie       score  empty",
    ]


def test_an_unknown_probe_is_named_in_french():
    with pytest.raises(ValueError) as refused:
        sj.probe(QUIET, TICKETS, outputs="label", run=Classify(), lang="fr", probes="empty,nope")
    assert str(refused.value) == (
        "Sonde inconnue 'nope' : les sondes sont expected, empty, echo_input, other_case, "
        "all_expected, long, injection."
    )


def test_cases_past_the_fiftieth_are_counted_under_the_table_in_french():
    rows = [dict(TICKETS[n % 5]) for n in range(52)]
    report = sj.probe(EXACT, rows, outputs="label", run=Classify(), lang="fr", probes="empty")
    more = "(2 cas de plus non affichés ; .to_frame() les contient tous.)"
    assert report.text().splitlines()[-1] == more
    assert f'</table><div class="skq-small">{more}</div>' in report.html()
    assert len(report.to_frame()) == 52
