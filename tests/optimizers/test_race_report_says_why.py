"""What the race's report says (issue 44, items 7-10), on the text and on the HTML.

Tutorial 10's two races, offline: ``quoting`` against ``terse`` (a tie: GEPA kept
quoting's proposals, yet every run's best artifact is the seed) and ``informative``
against ``terse`` (371 metric calls for a budget of 360).  Before: the tie said only
"both score 0.417"; ``print(report.verdict())`` printed a dataclass; "371 of 360
metric calls"; a chart with no legend, ticks at 0 and 1 only, and one solid line
per run whatever its seed.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest

import skynet_jupyter as sj
from skynet_jupyter.examples.classify import run as classify
from skynet_jupyter.optimizers.race_render import DASHES, PALETTE, chart_svg, race_calls_said
from tests.conftest import require_module
from tests.race_support import INFORMATIVE, QUOTING, TERSE, WEAK_PROMPT, FeedbackReader, tickets

require_module("gepa")

TUTORIAL = {"budget": 60, "held_out": 12, "repeats": 3, "seed": 2}


def race(metrics, **options):
    return sj.race(
        metrics,
        tickets(),
        outputs="label",
        run=classify,
        artifact=WEAK_PROMPT,
        reflection_model=sj.StandInModel(FeedbackReader(), tag=""),
        **{**TUTORIAL, **options},
    )


@pytest.fixture(scope="module")
def tie():
    return race({"quoting": QUOTING, "terse": TERSE})


@pytest.fixture(scope="module")
def won():
    return race({"informative": INFORMATIVE, "terse": TERSE})


def shown(page: str) -> str:
    """The HTML's text as a reader sees it (tags dropped, entities read)."""
    return html.unescape(
        re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", page, flags=re.S))
    )


def one_line(text: str) -> str:
    return " ".join(text.split())


# --- item 7: a tie says why ------------------------------------------------------------------


def test_a_tie_says_why_no_metric_beat_the_seed(tie):
    quoting, terse = tie.entries
    assert quoting.kept > 0 and all(
        run.optimization.best_artifact == WEAK_PROMPT for run in quoting.runs
    )
    head = (
        "A tie: neither 'quoting' nor 'terse' led GEPA to an artifact better than the seed on "
        "its validation cases, so both score the seed's 0.417 on the 12 held-out cases."
    )
    kept = (
        f"'quoting': GEPA kept {quoting.kept} of its proposals in 3 of its 3 runs (each beat its "
        "parent on a training minibatch), yet none scored above the seed on GEPA's 5 validation "
        "cases, so the best artifact of those runs is the seed artifact."
    )
    none = (
        f"'terse': none of its {terse.proposals} proposals beat its parent on a training "
        "minibatch, so GEPA kept none and its best artifact is the seed artifact."
    )
    seed_best = "Best artifact of 'quoting' (seed 2): the seed artifact, unchanged"
    for text in (str(tie), shown(tie._repr_html_())):
        text = one_line(text)
        assert text.startswith(head)
        assert kept in text and none in text and seed_best in text
        assert "against the seed artifact" not in text  # never a diff that shows no change


def test_a_winner_keeps_its_diff_and_the_loser_says_why(won):
    text = str(won)
    assert text.startswith("'informative' wins")
    assert "Best artifact of 'informative' (seed 4), against the seed artifact:" in text
    assert "'terse': none of its" in text
    assert "'informative': GEPA kept" not in text  # its runs did beat the seed


# --- item 8: print(report.verdict()) is the sentence ---------------------------------------


def test_printing_a_verdict_prints_the_sentence(tie, won, capsys):
    for report in (tie, won):
        verdict = report.verdict()
        print(verdict)
        printed = capsys.readouterr().out.strip()
        assert printed == str(report).splitlines()[0]
        assert "Verdict(" not in printed
        assert verdict._repr_html_().count(html.escape(printed, quote=True)) == 1
    assert won.verdict().winner == "informative"
    assert repr(won.verdict()).startswith("Verdict(winner='informative'")  # the fields, kept


def test_a_verdict_made_by_hand_prints_its_fields():
    from skynet_jupyter.optimizers.race_report import Verdict

    made = Verdict("a", "a", "b", 0.25)
    assert (
        str(made)
        == repr(made)
        == ("Verdict(winner='a', leader='a', runner_up='b', margin=0.25, why=None, needed=None)")
    )


# --- item 9: calls past the budget are said as such ----------------------------------------


def test_calls_past_the_budget_are_said_with_how_many_and_why(won):
    calls = sum(entry.calls for entry in won.entries)
    assert calls > won.total_budget == 360
    past = calls - 360
    said = (
        f"{calls} metric calls, {past} past the budget of 360: GEPA checks each run's budget of "
        "60 between iterations, so a run ends with the iteration that passed it"
    )
    assert race_calls_said(won) == said
    assert f"{calls} of 360" not in str(won)
    assert said in str(won) and said in one_line(shown(won._repr_html_()))


def test_calls_within_the_budget_are_counted_against_it():
    from skynet_jupyter.optimizers.race_report import RaceEntry, RaceReport, RaceRun
    from skynet_jupyter.optimizers.report import OptimizeReport

    stopped_early = OptimizeReport(seed_artifact="x", budget=60, calls=41)  # at its max_cost
    report = RaceReport("x", "a", budget=60, repeats=1, entries=[RaceEntry("a"), RaceEntry("b")])
    report.entries[0].runs.append(RaceRun(0, stopped_early))
    assert race_calls_said(report) == "41 of 120 metric calls"
    assert "past the budget" not in str(report)


# --- item 10: the chart has a legend, ticks, and lines told apart ---------------------------


def svg(report) -> ET.Element:
    return ET.fromstring(chart_svg(report))


NS = "{http://www.w3.org/2000/svg}"


def test_the_chart_draws_each_run_in_its_metrics_colour_and_its_seeds_dashes(won):
    root = svg(won)
    lines = root.findall("polyline")
    assert len(lines) == 6
    by_run = {(line.get("data-metric"), line.get("data-seed")): line for line in lines}
    assert set(by_run) == {(m, s) for m in ("informative", "terse") for s in ("2", "3", "4")}
    for (metric, seed), line in by_run.items():
        assert line.get("stroke") == PALETTE[0 if metric == "informative" else 1]
        dash = DASHES[int(seed) - 2]
        assert (line.get("stroke-dasharray") or "") == dash
        assert line.find("title").text.startswith(f"{metric}, seed {seed}: best ")
    # terse's three runs never left the seed: three lines, none drawn over another.
    flat = {by_run[("terse", s)].get("points").split()[0].split(",")[1] for s in "234"}
    assert len(flat) == 3


def test_the_chart_has_ticks_on_both_axes_and_a_legend(won):
    root = svg(won)
    ticks = [text.text for text in root.findall("text") if text.get("class") == "skr-tick"]
    assert {"0", "0.25", "0.5", "0.75", "1"} <= set(ticks)
    assert {"0", "20", "40", "60"} <= set(ticks)
    legend = root.find("g")
    assert legend is not None and legend.get("class") == "skr-legend"
    said = [text.text for text in legend.findall("text")]
    assert said == ["informative", "terse", "seed 2", "seed 3", "seed 4"]
    keys = legend.findall("line")
    assert [key.get("stroke") for key in keys[:2]] == list(PALETTE[:2])
    assert [key.get("stroke-dasharray") or "" for key in keys[2:]] == list(DASHES[:3])
    # Everything inside the picture's own box.
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    for text in root.iter("text"):
        assert 0 <= float(text.get("x")) <= width and 0 <= float(text.get("y")) <= height


def test_a_long_name_wraps_the_legend_inside_the_chart():
    report = race({"a" * 60: INFORMATIVE, "b" * 30: TERSE, "c": TERSE}, repeats=1, budget=30)
    root = svg(report)
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    legend = root.find("g")
    said = [text.text for text in legend.findall("text")]
    assert said[0] == "a" * 39 + "…"  # shortened in the legend; whole in its tooltip
    rows = {float(text.get("y")) for text in legend.findall("text")}
    assert len(rows) >= 3  # the metrics wrapped, then the seeds
    assert all(float(line.get("x2")) <= width for line in legend.findall("line"))
    assert max(rows) < height


def test_the_chart_speaks_french(won):
    won.lang = "fr"
    try:
        said = [text.text for text in svg(won).find("g").findall("text")]
    finally:
        won.lang = "en"
    assert said[-3:] == ["graine 2", "graine 3", "graine 4"]
