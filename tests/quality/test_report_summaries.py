"""What each quality report says of itself in one line (its repr), its title's colour, its
tables cell by cell, and what ``sj.compare`` passes on (names, run cache, listener)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t
from skynet_jupyter.quality import AgreementReport, ProbeReport
from skynet_jupyter.quality._scoring import Phase, QualityFinished
from skynet_jupyter.show.render import esc
from tests.openai_server import OpenAIServer
from tests.quality.test_agreement import FROM_OUTPUT, ROWS
from tests.quality_support import CONTAINS, EXACT, JUDGED, TICKETS, Classify, Flipping, judge
from tests.served_models import ask_run, asks, task_models


def status(report) -> str:
    """The colour class of the report's title in its HTML."""
    return re.search(r'<div class="skq-title skq-(\w+)">', report.html()).group(1)


def agreement(rows, **options):
    options.setdefault("lang", "en")
    return sj.agreement(FROM_OUTPUT, rows, human="human", output_column="answer", **options)


def numeric_rows(pairs):
    return [{"q": n, "answer": score, "human": label} for n, (label, score) in enumerate(pairs)]


# --- agreement -----------------------------------------------------------------------------


def test_agreement_repr_names_the_measures_of_its_kind():
    assert repr(agreement(ROWS)) == (
        "<AgreementReport metric='default' vs 'human': n=10, accuracy 0.8, kappa 0.6>"
    )
    numeric = agreement(numeric_rows([(1, 0.1), (2, 0.3), (3, 0.2), (4, 0.8), (5, 0.9)]))
    assert repr(numeric) == (
        "<AgreementReport metric='default' vs 'human': n=5, spearman 0.9, pearson 0.91>"
    )


def test_two_numeric_labels_are_enough_for_a_correlation():
    report = agreement(numeric_rows([(1, 0.1), (5, 0.9)]))
    assert report.n == 2
    assert report.spearman == 1.0 and report.pearson == 1.0
    one = agreement(numeric_rows([(1, 0.1)]))
    assert one.spearman is None and one.pearson is None


def test_agreement_title_colour():
    assert status(agreement(ROWS)) == "good"  # kappa .6: not weak, every case scored
    # Same labels, a metric that fails on case 2 only: the others agree, the title is red.
    failing = [dict(row) for row in ROWS]
    failing[2]["answer"] = "not a number"
    report = agreement(failing)
    assert report.failed == (2,) and not report.weak and not report.interrupted
    assert status(report) == "bad"
    # Weak agreement alone (nothing failed, nothing interrupted) is red too.
    inverted = [dict(row, answer=1.0 - row["answer"]) for row in ROWS]
    weak = agreement(inverted)
    assert weak.weak and not weak.failed and not weak.interrupted
    assert status(weak) == "bad"
    # Every label the same: agreement cannot be measured, a warning.
    same = agreement([dict(row, human="yes") for row in ROWS])
    assert same.single_label == "yes" and status(same) == "warn"


# The score is the output; the feedback is the case's note (it may be empty).
NOTED = """
def score(input, output):
    note = input["note"]
    return float(output), {"feedback": note}
"""


def test_the_disagreement_table_cell_by_cell_in_french():
    long_yes = "1." + "0" * 45  # a pass label of 47 characters, cut to 40 in its cell
    rows = [
        {"note": "Too short.", "answer": 0.2, "human": long_yes},
        {"note": "x" * 170, "answer": 0.9, "human": "no"},  # cut to 160 in its cell
        {"note": "", "answer": 0.7, "human": "no"},
        {"note": "Right.", "answer": 0.0, "human": "no"},
    ]
    report = sj.agreement(NOTED, rows, human="human", output_column="answer", lang="fr")
    assert [d.case for d in report.disagreements] == [1, 0, 2]
    table = re.search(r'<table class="skq-disagreements">.*?</table>', report.html()).group(0)
    # What was judged, input and output, cut as the check view cuts them and breakable where
    # a long value has no space (issue 36); the earlier columns as they were.
    long_input = "<wbr>".join(["x" * 14, "x" * 15, "x" * 15, "x" * 15, "x" * 13]) + "…"
    assert table == (
        '<table class="skq-disagreements"><thead><tr><th>cas</th><th>entrée</th>'
        "<th>sortie</th><th>étiquette humaine</th><th>score</th><th>retour</th></tr></thead>"
        f'<tbody><tr><td class="skq-num">1</td><td>note: &quot;{long_input}</td><td>0.9</td>'
        f'<td>&quot;no&quot;</td><td class="skq-num">0.9</td><td>{"x" * 159}…</td></tr>'
        '<tr><td class="skq-num">0</td><td>note: &quot;Too short.&quot;</td><td>0.2</td>'
        f'<td>&quot;1.{"0" * 36}…</td><td class="skq-num">0.2</td><td>Too short.</td></tr>'
        '<tr><td class="skq-num">2</td><td>note: &quot;&quot;</td><td>0.7</td>'
        '<td>&quot;no&quot;</td><td class="skq-num">0.7</td><td>—</td></tr></tbody></table>'
    )


def test_an_agreement_report_in_french_word_for_word():
    report = agreement(ROWS, lang="fr")
    assert report.text() == "\n".join(
        [
            "Accord de la métrique 'default' avec les étiquettes humaines de 'human'",
            "10 cas : exactitude 0.8, kappa de Cohen 0.6 (un score de 0.5 ou plus est une "
            "réussite) · coût du juge $0",
            "humain ↓ · métrique →  réussi  échoué",
            "réussi                 4       1",
            "échoué                 1       4",
            "2 désaccords, les pires d'abord :",
            "cas  étiquette humaine  score  retour",
            '2    "yes"              0.2    Scored 0.2.',
            '      entrée : question: "q2"',  # what was judged (issue 36)
            "      sortie : 0.2",
            '5    "no"               0.6    Scored 0.6.',
            '      entrée : question: "q5"',
            "      sortie : 0.6",
        ]
    )
    confusion = re.search(r'<table class="skq-confusion">.*?</table>', report.html()).group(0)
    assert confusion == (
        '<table class="skq-confusion"><thead><tr><th>humain ↓ · métrique →</th><th>réussi</th>'
        "<th>échoué</th></tr></thead><tbody><tr><td>réussi</td>"
        '<td class="skq-num">4</td><td class="skq-num skq-flag">1</td></tr>'
        '<tr><td>échoué</td><td class="skq-num skq-flag">1</td><td class="skq-num">4</td>'
        "</tr></tbody></table>"
    )


def test_numeric_measures_and_a_long_single_label_in_french():
    numeric = agreement(numeric_rows([(1, 0.1), (2, 0.3), (3, 0.2), (4, 0.8), (5, 0.9)]), lang="fr")
    assert numeric.text().splitlines()[1] == "5 cas : Spearman 0.9, Pearson 0.91 · coût du juge $0"
    label = "0.75" + "0" * 43  # 47 characters, cut to 40 in the sentence
    same = agreement(numeric_rows([(label, 0.1), (label, 0.3)]), lang="fr")
    assert same.text().splitlines()[2] == (
        "  ! Les corrélations de Spearman et de Pearson sont indéfinies ici : toutes les "
        f"étiquettes humaines valent {'0.75' + '0' * 35}…, il n'y a donc aucun ordre avec lequel "
        "les scores pourraient s'accorder. Ajoutez des cas avec d'autres étiquettes pour mesurer "
        "l'accord."
    )


def test_numeric_labels_all_the_same_list_no_rank_disagreement():
    # With one label for all there is no order to rank against: the report says the measure is
    # undefined, and lists no case as a disagreement (before, every case far from the middle rank).
    same = agreement(numeric_rows([(0.5, 0.1), (0.5, 0.3), (0.5, 0.6), (0.5, 0.9)]))
    assert same.single_label == 0.5 and same.disagreements == [] and not same.passed
    assert t("quality.agree.disagreements", "en", count=0) in same.text()
    spread = agreement(numeric_rows([(0.1, 0.9), (0.5, 0.5), (0.9, 0.1)]))
    assert [d.case for d in spread.disagreements] == [0, 2]  # ranks still compared otherwise


def test_a_score_at_the_threshold_is_a_pass():
    rows = [{"q": "a", "answer": 0.5, "human": "yes"}, {"q": "b", "answer": 0.2, "human": "no"}]
    report = agreement(rows, threshold=0.5)
    assert report.predicted(0) == 1 and report.accuracy == 1.0 and report.disagreements == []


def test_the_agreement_frame_row_by_row():
    frame = agreement(ROWS).to_frame()
    assert frame.index.name == "case"
    assert list(frame.columns) == ["human", "human_value", "score", "metric_pass", "feedback"]
    assert frame.to_dict("index")[2] == {
        "human": "yes",
        "human_value": 1.0,
        "score": 0.2,
        "metric_pass": 0,
        "feedback": "Scored 0.2.",
    }
    assert frame["metric_pass"].tolist() == [1, 1, 0, 1, 0, 1, 0, 0, 1, 0]
    numeric = agreement(numeric_rows([(1, 0.1), (5, 0.9)])).to_frame()
    assert numeric["metric_pass"].tolist() == [None, None]


def test_unlabeled_and_failed_cases_are_said_in_french():
    rows = [dict(row) for row in ROWS]
    rows[4]["human"] = ""  # no label: left out
    rows[2]["answer"] = "not a number"  # the metric fails here
    lines = agreement(rows, lang="fr").text().splitlines()
    assert lines[2:4] == [
        "  ! 1 cas sur 9 n'a pas été noté (cas 2 : score a levé une exception avant de renvoyer "
        "sa paire : ValueError: could not convert string to float: 'not a number') : il est "
        "laissé de côté, et "
        "une mesure avec un cas "
        "non noté ne peut pas réussir. %skynet_check montre pourquoi.",
        "  ! 1 cas sans étiquette humaine a été laissé de côté.",
    ]


def test_an_interrupted_agreement_says_so_in_its_language():
    report = AgreementReport(
        metric_name="m",
        lang="fr",
        human="h",
        threshold=0.5,
        kind="binary",
        labels={},
        values={},
        scores={},
        feedbacks={},
        interrupted=True,
    )
    assert report.text().splitlines()[2] == "  ! Interrompu : les résultats sont partiels."


def ranked(metric_ranks):
    """Numeric labels 1..n; the metric's scores ranked as given."""
    return numeric_rows([(n + 1, rank / 10) for n, rank in enumerate(metric_ranks)])


def test_numeric_disagreements_by_rank_gap_worst_first():
    # Rank gaps 1 1 2 1 1 over a span of 4: a quarter or more each, the gap of 2 first.
    assert [d.case for d in agreement(ranked([2, 1, 5, 3, 4])).disagreements] == [2, 0, 1, 3, 4]
    # A gap of 1 over a span of 5 is less than a quarter: no disagreement.
    assert agreement(ranked([1, 2, 3, 4, 6, 5])).disagreements == []
    # Two cases in the wrong order: each is a whole span away.
    assert [d.case for d in agreement(ranked([2, 1])).disagreements] == [0, 1]


def test_the_human_column_must_not_be_an_input_or_the_output():
    fr = "La colonne des étiquettes humaines {!r} est aussi donnée dans outputs=, inputs= ou "
    with pytest.raises(sj.DataError) as raised:
        sj.agreement(FROM_OUTPUT, ROWS, human="answer", output_column="answer", lang="fr")
    assert str(raised.value).startswith(fr.format("answer"))
    with pytest.raises(sj.DataError) as raised:
        agreement(ROWS, inputs=["question", "human"], lang="fr")
    assert str(raised.value).startswith(fr.format("human"))
    assert agreement(ROWS, inputs="question").n == 10  # inputs= as text, without the labels


def test_one_labeled_case_is_measured():
    report = agreement([{"q": "a", "answer": 0.2, "human": "yes"}])
    assert report.n == 1 and report.accuracy == 0.0


def test_label_values_and_missing_labels():
    import numpy as np

    from skynet_jupyter.quality.agreement import _names, label_value, missing_label

    values = [True, False, np.int64(1), np.float64(0.25), " Pass ", "no", "0.5", "inf", "nan"]
    assert [label_value(v) for v in values] == [1.0, 0.0, 1.0, 0.25, 1.0, 0.0, 0.5, None, None]
    assert label_value(float("inf")) is None and label_value(object()) is None
    assert [missing_label(v) for v in (None, float("nan"), "  ", "0", 0)] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert _names(" a, b,,c ") == ["a", "b", "c"] and _names(("x", "y")) == ["x", "y"]
    assert _names(None) == []


# --- probe ---------------------------------------------------------------------------------


def test_probe_repr_lists_what_it_flagged():
    contains = sj.probe(CONTAINS, TICKETS, outputs="label", run=Classify())
    assert repr(contains) == (
        "<ProbeReport metric='default': 5 cases, 7 probes, flagged all_expected, injection, long>"
    )
    exact = sj.probe(EXACT, TICKETS, outputs="label", run=Classify())
    assert repr(exact) == "<ProbeReport metric='default': 5 cases, 7 probes, flagged nothing>"


def test_each_finding_is_a_box_the_view_picks_by_probe():
    report = sj.probe(CONTAINS, TICKETS, outputs="label", run=Classify(), lang="en")
    box = r'<div data-probe="[^"]*"><div class="skq-box">.*?</div></div>'
    assert re.findall(box, report.html()) == [
        f'<div data-probe="{finding.probe}"><div class="skq-box"><b>{finding.probe}:</b> '
        f"{esc(finding.message)}</div></div>"
        for finding in report.findings
    ]
    assert [finding.probe for finding in report.findings] == ["all_expected", "long", "injection"]
    assert report.findings[1].message.startswith("The output repeated 20 times scores as high")


def test_without_expected_values_another_case_output_is_flagged():
    says_something = """
def score(input, output):
    return (1.0 if output else 0.0), {"feedback": "Says something."}
"""
    rows = [{"text": row["text"]} for row in TICKETS]
    report = sj.probe(says_something, rows, run=Classify())
    finding = report.finding("other_case")
    assert finding is not None and finding.cases == (0, 1, 2, 3, 4)


def test_a_probe_frame_without_cases_keeps_its_columns():
    probes = ("expected", "empty")
    report = ProbeReport(
        metric_name="m",
        lang="en",
        probes=probes,
        cases=[],
        real={},
        results={probe: {} for probe in probes},
        interrupted=True,
    )
    frame = report.to_frame()
    assert list(frame.columns) == ["output", "expected", "empty"] and len(frame) == 0
    assert frame.index.name == "case"


def test_judge_calls_leave_the_run_own_calls_out():
    from types import SimpleNamespace

    from skynet_jupyter.quality.probe import judge_calls

    ran_once = SimpleNamespace(model_calls=1)
    assert judge_calls(SimpleNamespace(model_calls=3, measured=ran_once)) == 2
    assert judge_calls(SimpleNamespace(model_calls=2, measured=None)) == 2


# --- stability -----------------------------------------------------------------------------


def test_stability_repr_gives_the_flip_rate_and_the_mean_std():
    models = judge(Flipping())
    report = sj.stability(JUDGED, TICKETS, outputs="label", run=Classify(), models=models)
    assert repr(report) == (
        "<StabilityReport metric='default': 5 cases x 5 repeats, flip rate 0.2, mean std 0.098>"
    )


# --- compare -------------------------------------------------------------------------------


def exact(input, output, expected=None):
    return (1.0 if output == expected["label"] else 0.0), {"feedback": "exact"}


def lenient(input, output, expected=None):
    return (1.0 if output in ("billing", "other") else 0.0), {"feedback": "lenient"}


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as running:
        yield running


def test_plain_functions_are_named_by_their_own_names():
    report = sj.compare(exact, lenient, TICKETS, outputs="label", run=Classify())
    assert (report.name_a, report.name_b) == ("exact", "lenient")
    assert repr(report) == (
        "<CompareReport 'exact' -> 'lenient': 5 cases, 2 changed, mean delta -0.400>"
    )
    # Source text has no function name: its registered name, told apart when both are the same.
    both = sj.compare(EXACT, CONTAINS, TICKETS, outputs="label", run=Classify())
    assert (both.name_a, both.name_b) == ("default (a)", "default (b)")


class Scorer:
    """A metric that is a callable object: it has no ``__name__`` of its own."""

    def __call__(self, input, output, expected=None):
        return exact(input, output, expected)


def test_callable_objects_are_named_by_their_registered_name():
    report = sj.compare(Scorer(), Scorer(), TICKETS, outputs="label", run=Classify())
    assert (report.name_a, report.name_b) == ("default (a)", "default (b)")


def test_compare_passes_its_names_run_cache_and_listener_on(server):
    events = []
    cache = sj.RunCache()
    options = dict(outputs="label", run=ask_run, artifact="Label.", models=task_models(server))
    names = ("old", "new")
    report = sj.compare(
        exact, lenient, TICKETS, names=names, run_cache=cache, on_event=events.append, **options
    )
    assert (report.name_a, report.name_b) == ("old", "new")
    assert asks(server) == 5 and len(cache) == 5
    phases = [event.name for event in events if isinstance(event, Phase)]
    assert phases == ["outputs", "metric_b"]
    assert isinstance(events[-1], QualityFinished) and events[-1].report is report
    sj.compare(exact, lenient, TICKETS, run_cache=cache, **options)
    assert asks(server) == 5  # the same run, the same cache: no model asked again


def test_agreement_passes_its_run_cache_and_listener_on_and_reads_human_by_default(server):
    events = []
    cache = sj.RunCache()
    rows = [{"text": row["text"], "human": "yes"} for row in TICKETS]
    options = dict(run=ask_run, artifact="Label.", models=task_models(server), run_cache=cache)
    report = sj.agreement(lenient, rows, on_event=events.append, **options)
    assert report.human == "human" and report.n == 5
    assert asks(server) == 5 and len(cache) == 5
    assert [event.name for event in events if isinstance(event, Phase)] == ["outputs"]
    assert isinstance(events[-1], QualityFinished) and events[-1].report is report
    sj.agreement(lenient, rows, **options)
    assert asks(server) == 5  # the same run, the same cache: no model asked again
