"""What ``sj.compare`` says of itself, line by line, in the language asked for: the title, the
summary (changed or the same), the note on cases left out; and its title's colour."""

from __future__ import annotations

import re

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t
from skynet_jupyter.show.formats import fmt_mean, fmt_mean_delta
from tests.quality.test_compare import SPEC, wrong_on_some
from tests.quality_support import TICKETS, Classify

LATE = "score a levé une exception avant de renvoyer sa paire : "  # it raised, never returned


def exact(input, output, expected=None):
    return (1.0 if output == expected["label"] else 0.0), {"feedback": "exact"}


def lenient(input, output, expected=None):
    return (1.0 if output in ("billing", "other") else 0.0), {"feedback": "lenient"}


def never(input, output, expected=None):
    raise ValueError("no score here")


def no_office(artifact, input):
    """Classify, except that the Lisbon ticket (case 2) has no output: its run fails."""
    if "Lisbon" in input["text"]:
        raise RuntimeError("no office")
    return Classify()(artifact, input)


def lines(report) -> list[str]:
    return [line.strip() for line in str(report).splitlines()]


def status(report) -> str:
    """The colour class of the report's title in its HTML."""
    return re.search(r'<div class="skq-title skq-(\w+)">', report.html()).group(1)


def test_a_changed_comparison_in_french_word_for_word():
    report = sj.compare(exact, lenient, TICKETS, outputs="label", run=no_office, lang="fr")
    assert report.skipped == (2,) and report.changed == [1, 4]
    assert lines(report)[:4] == [
        "exact → lenient : les mêmes sorties, deux métriques",
        "4 cas · coût du juge $0",
        "2 cas sur 4 ont changé de score et 4 de retour ; changement moyen (b − a) -0.500.",
        "! 1 cas sans sortie (son run a échoué) a été laissé de côté.",
    ]


@pytest.mark.parametrize("lang", ["fr", "pt"])
def test_each_line_of_a_comparison_is_in_its_language(lang):
    report = sj.compare(exact, lenient, TICKETS, outputs="label", run=no_office, lang=lang)
    said = lines(report)
    assert said[0] == t("quality.compare.title", lang, a="exact", b="lenient")
    summary = t("quality.compare.summary", lang, changed=2, count=4, feedback=4, delta="-0.500")
    assert said[2] == summary
    assert said[3] == "! " + t("quality.skipped", lang, count=1)
    assert said[0] != t("quality.compare.title", "en", a="exact", b="lenient")
    assert said[3] != "! " + t("quality.skipped", "en", count=1)


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("fr", "Les deux donnent le même score et le même retour sur les 5 cas."),
        ("pt", "As duas deram a mesma pontuação e o mesmo feedback nos 5 casos."),
    ],
)
def test_two_metrics_that_agree_say_so_in_their_language(lang, sentence):
    report = sj.compare(exact, exact, TICKETS, outputs="label", run=Classify(), lang=lang)
    assert lines(report)[2] == sentence


def test_two_runs_left_out_are_counted_in_the_plural():
    def two_fail(artifact, input):
        if "Lisbon" in input["text"] or "500" in input["text"]:
            raise RuntimeError("down")
        return Classify()(artifact, input)

    report = sj.compare(exact, lenient, TICKETS, outputs="label", run=two_fail, lang="fr")
    assert report.skipped == (2, 4)
    assert "! 2 cas sans sortie (leur run a échoué) ont été laissés de côté." in lines(report)


def test_the_title_colour_says_whether_anything_changed():
    changed = sj.compare(exact, lenient, TICKETS, outputs="label", run=Classify())
    assert status(changed) == "warn"
    summary = "2 of 5 cases changed score and 5 changed feedback; mean change (b − a) -0.400."
    assert f'<div class="skq-box skq-note">{summary}</div>' in changed.html()
    same = sj.compare(exact, exact, TICKETS, outputs="label", run=Classify())
    assert status(same) == "good"
    agreed = "Both gave the same score and feedback on each of the 5 cases."
    assert f'<div class="skq-box skq-ok">{agreed}</div>' in same.html()
    unscored = sj.compare(never, never, TICKETS, outputs="label", run=Classify())
    assert status(unscored) == "bad"


def side_a(input, output, expected=None):
    if "Lisbon" in input["text"]:
        raise ValueError("no office")
    return 1.0, {"feedback": "a" * 170}  # cut to 160 in its cell


def side_b(input, output, expected=None):
    return (1.0 if output == expected["label"] else 0.0), {"feedback": "b" * 170}


def test_the_compare_table_cell_by_cell_in_french():
    rows = [
        {"text": "I was charged twice.", "label": "billing", "out": "billing"},
        {"text": "The app crashes on start.", "label": "technical", "out": "billing"},
        {"text": "Do you have an office in Lisbon?", "label": "other", "out": "other"},
    ]
    report = sj.compare(side_a, side_b, rows, outputs="label", output_column="out", lang="fr")
    table = re.search(r'<table class="skq-compare">.*?</table>', report.html()).group(0)
    a, b = "a" * 159 + "…", "b" * 159 + "…"

    def row(case, output, score_a, score_b, delta, feedback_a, changed):
        moved = "skq-num skq-flag" if changed else "skq-num"
        return (
            f'<tr><td class="skq-num">{case}</td><td>&quot;{output}&quot;</td>'
            f'<td class="skq-num">{score_a}</td><td class="{moved}">{score_b}</td>'
            f'<td class="{moved}">{delta}</td><td>{feedback_a}</td><td>{b}</td></tr>'
        )

    assert table == (
        '<table class="skq-compare"><thead><tr><th>cas</th><th>sortie</th>'
        "<th>score side_a</th><th>score side_b</th><th>Δ</th>"
        "<th>retour side_a</th><th>retour side_b</th></tr></thead><tbody>"
        + row(1, "billing", "1", "0", "-1", a, changed=True)  # changed cases first
        + row(2, "other", "error", "1", "—", f"{LATE}ValueError: no office", changed=True)
        + row(0, "billing", "1", "1", "+0", a, changed=False)
        + "</tbody></table>"
    )
    a, b = "a" * 39 + "…", "b" * 39 + "…"  # the text table cuts each cell to 40
    error = "score a levé une exception avant de ren…"  # cut at 40
    assert lines(report)[3:] == [
        "cas  sortie     score side_a  score side_b  Δ   retour side_a                             "
        "retour side_b",
        f'1    "billing"  1             0             -1  {a}  {b}',
        f'2    "other"    error         1             —   {error:<40}  {b}',
        f'0    "billing"  1             1             +0  {a}  {b}',
    ]


def test_feedback_over_two_lines_is_one_line_of_the_text_table():
    def two_lines(input, output, expected=None):
        return 1.0, {"feedback": "Right.\nWell said."}

    report = sj.compare(exact, two_lines, TICKETS[:1], outputs="label", run=Classify())
    cells = ["0", '"billing"', "1", "1", "+0", "exact", "Right. Well said."]
    assert re.split(r"\s{2,}", lines(report)[-1]) == cells


def test_the_reward_parts_side_by_side_in_portuguese():
    heavy = SPEC.format(acc=7, speed=2)  # weights 0.7, 0.2, 0.1
    other = SPEC.format(acc=5, speed=4)  # weights 0.5, 0.4, 0.1: the cost weight is the same
    report = sj.compare(heavy, other, TICKETS, outputs="label", run=wrong_on_some, lang="pt")
    table = re.search(r'<table class="skq-reward-parts">.*?</table>', report.html()).group(0)
    parts = report.reward_parts
    assert parts is not None and parts["a"]["accuracy"][1] == parts["b"]["accuracy"][1] == 0.6

    def row(part, weight_a, weight_b, flagged):
        mean_a, mean_b = (fmt_mean(parts[side][part][1]) for side in ("a", "b"))
        weight = "skq-num skq-flag" if flagged else "skq-num"
        return (
            f'<tr><td>{part}</td><td class="skq-num">{weight_a}</td>'
            f'<td class="skq-num">{mean_a}</td><td class="{weight}">{weight_b}</td>'
            f'<td class="skq-num">{mean_b}</td></tr>'
        )

    assert table == (
        '<table class="skq-reward-parts"><thead><tr><th>parte</th><th>peso default (a)</th>'
        "<th>média default (a)</th><th>peso default (b)</th><th>média default (b)</th></tr>"
        "</thead><tbody>"
        + row("accuracy", "0.70", "0.50", flagged=True)
        + row("speed", "0.20", "0.40", flagged=True)
        + row("cost", "0.10", "0.10", flagged=False)
        + "</tbody></table>"
    )
    delta = fmt_mean_delta(report.mean_delta)
    said = lines(report)
    summary = t("quality.compare.summary", "pt", changed=5, count=5, feedback=0, delta=delta)
    assert said[2] == summary and said[3].startswith("caso  saída")  # then the case table
    assert said[9:11] == [
        "Partes da recompensa, lado a lado (peso e componente média)",
        "parte     peso default (a)  média default (a)  peso default (b)  média default (b)",
    ]


def picky(input, output, expected=None):
    if "Lisbon" in input["text"] or "500" in input["text"]:
        raise ValueError(f"cannot score {input['text']!r}")
    return 1.0, {"feedback": "ok"}


def test_cases_neither_metric_scored_are_said_first_with_the_first_error():
    report = sj.compare(picky, picky, TICKETS, outputs="label", run=Classify(), lang="fr")
    assert report.unscored == [2, 4] and status(report) == "bad"
    assert lines(report)[2:4] == [
        "! 2 cas sur 5 n'ont pas été notés (cas 2 : score a levé une exception avant de "
        "renvoyer sa paire : ValueError: cannot score 'Do you have an office in Lisbon?') : ils "
        "sont laissés de "
        "côté, et une mesure avec des "
        "cas non notés ne peut pas réussir. %skynet_check montre pourquoi.",
        "Les deux donnent le même score et le même retour sur les 5 cas.",
    ]
    agreed = "Les deux donnent le même score et le même retour sur les 5 cas."
    assert f'<div class="skq-box skq-note">{agreed}</div>' in report.html()
