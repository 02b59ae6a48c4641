"""``sj.race``: metrics raced through the real GEPA, judged on held-out cases by one referee
(issue 38).  Offline: the reflection model is a stand-in that can only use what the
feedback says; the cases are the shipped tickets."""

from __future__ import annotations

import _thread
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.errors import DataError
from skynet_jupyter.examples.classify import run as classify
from skynet_jupyter.optimizers.race import MIN_HELD_OUT
from skynet_jupyter.optimizers.race_report import RaceEntry, RaceReport, RaceRun
from skynet_jupyter.optimizers.report import Candidate, OptimizeReport
from tests.race_support import INFORMATIVE, TERSE, WEAK_PROMPT, FeedbackReader, tickets

pytest.importorskip("gepa")

# Where the informative feedback wins every seed (see tutorial 10).
WINNING = {"budget": 60, "held_out": 12, "repeats": 3, "seed": 2}


def racing(metrics=None, **options):
    reader = options.pop("reflection_model", None) or sj.StandInModel(FeedbackReader(), tag="")
    settings_ = {"outputs": "label", "run": classify, "artifact": WEAK_PROMPT, **WINNING}
    settings_.update(options)
    metrics = metrics or {"informative": INFORMATIVE, "terse": TERSE}
    return sj.race(metrics, tickets(), reflection_model=reader, **settings_)


def test_informative_feedback_beats_wrong_on_held_out_cases():
    report = racing()
    assert report.finished and report.stopped is None
    assert report.winner == "informative"
    informative, terse = (entry for entry in report.entries)
    assert [entry.name for entry in report.standings] == ["informative", "terse"]
    assert len(informative.scores) == len(terse.scores) == 3  # one per seed
    assert min(informative.scores) > max(terse.scores)  # every seed, not on average
    assert terse.scores == [report.seed_score] * 3  # "Wrong." taught GEPA nothing
    verdict = report.verdict()
    assert verdict.margin == pytest.approx(informative.mean - terse.mean)
    assert len(report.held_out_cases) == 12
    text = str(report)
    assert text.startswith("'informative' wins: held-out score")
    assert "budget 60 metric calls per run (GEPA stops at its first check past it)" in text
    assert "GEPA seeds per metric: 3; about 360 in all" in text
    assert informative.kept > 0 and terse.kept == 0
    frame = report.to_frame()
    assert list(frame.index.get_level_values("metric")) == ["informative"] * 3 + ["terse"] * 3


def test_every_metric_gets_the_same_start_cases_budget_and_seeds():
    report = racing()
    runs = [entry.runs for entry in report.entries]
    for first, second in zip(*runs, strict=True):
        a, b = first.optimization, second.optimization
        assert first.seed == second.seed
        assert a.seed_artifact == b.seed_artifact == WEAK_PROMPT
        assert a.val_cases == b.val_cases and a.train_size == b.train_size
        assert a.budget == b.budget == 60
    assert [run.seed for run in runs[0]] == [2, 3, 4]


def test_the_held_out_cases_never_reach_gepa_nor_the_reflection_model():
    seen: dict[str, list[str]] = {"informative": [], "terse": [], "referee": []}

    def recording(name, source):
        namespace: dict = {}
        exec(compile(source, name, "exec"), namespace)

        def score(input, output, expected=None):
            seen[name].append(input["text"])
            return namespace["score"](input, output, expected)

        return score

    reader = FeedbackReader()
    report = racing(
        {"informative": recording("informative", INFORMATIVE), "terse": recording("terse", TERSE)},
        referee=recording("referee", TERSE),
        reflection_model=sj.StandInModel(reader, tag=""),
    )
    texts = tickets()["text"].tolist()
    held = {texts[index] for index in report.held_out_cases}
    assert set(seen["referee"]) == held  # the referee scores the held-out cases, only them
    assert held.isdisjoint(seen["informative"]) and held.isdisjoint(seen["terse"])
    assert reader.prompts and not any(text in prompt for prompt in reader.prompts for text in held)
    for entry in report.entries:
        for run in entry.runs:
            assert held.isdisjoint(texts[i] for i in run.optimization.val_cases)


def test_the_referee_scores_every_standing():
    """A referee that is neither racing metric: every held-out score is its score of that
    run's best artifact, recomputed here with sj.evaluate."""

    def referee(input, output, expected=None):
        return (1.0 if output == "billing" else 0.0), {"feedback": "billing or not"}

    report = racing(referee=referee)
    assert report.referee == "referee"
    cases = tickets().iloc[report.held_out_cases]
    for entry in report.entries:
        for run in entry.runs:
            again = sj.evaluate(
                referee,
                cases,
                outputs="label",
                run=classify,
                artifact=run.optimization.best_artifact,
            )
            assert run.held_score == pytest.approx(again.mean_score)
    seed = sj.evaluate(referee, cases, outputs="label", run=classify, artifact=WEAK_PROMPT)
    assert report.seed_score == pytest.approx(seed.mean_score)


def test_the_same_feedback_twice_is_a_tie_said_as_such():
    report = racing({"terse": TERSE, "also terse": TERSE}, repeats=1)
    verdict = report.verdict()
    assert report.winner is None and verdict.tie and verdict.why == "equal"
    # Why it is a tie (issue 44, item 7): "Wrong." taught GEPA nothing, twice.
    assert str(report).startswith(
        "A tie: neither 'terse' nor 'also terse' led GEPA to an artifact better than the seed"
    )


def test_too_few_held_out_cases_to_tell_names_the_size_needed():
    report = racing(held_out=9, budget=60, repeats=3, seed=2)
    verdict = report.verdict()
    assert report.winner is None and verdict.why == "too_few" and verdict.needed
    assert verdict.needed > len(report.held_out_cases)
    assert f"would need about {verdict.needed} held-out cases" in str(report)


def test_too_few_held_out_cases_are_refused_before_anything_runs():
    calls = []

    def counting(artifact, input):
        calls.append(input)
        return "other"

    with pytest.raises(DataError, match=r"at least 5 held-out cases"):
        racing(run=counting, held_out=4)
    with pytest.raises(DataError, match=r"at least 5 held-out cases"):
        sj.race(
            {"a": TERSE, "b": INFORMATIVE},
            tickets().head(6),
            outputs="label",
            run=counting,
            artifact=WEAK_PROMPT,
            reflection_model=sj.StandInModel(FeedbackReader(), tag=""),
        )
    assert calls == []


def test_budget_and_repeats_are_bounded_in_all_before_anything_runs():
    with pytest.raises(ValueError, match=r"would make 120000 metric calls in all.*at most 100000"):
        racing(budget=20_000, repeats=3)
    with pytest.raises(ValueError, match="budget"):
        racing(budget=0)
    with pytest.raises(ValueError, match="at least two metrics"):
        racing({"only": TERSE})


def test_max_cost_holds_for_the_whole_race():
    priced = sj.StandInModel(FeedbackReader(), tag="", output_cost_per_token=0.001)
    report = racing(reflection_model=priced, max_cost=0.05, repeats=3)
    assert report.stopped == "max_cost"
    spent = report.cost_usd.total
    ran = sum(len(entry.runs) for entry in report.entries)
    assert ran < 6  # not every run was started
    # GEPA checks its stop between iterations: at most one proposal past it.
    most = max(
        len(p.text or "") for e in report.entries for r in e.runs for p in r.optimization.proposals
    )
    assert spent <= 0.05 + 0.001 * (most + 50)
    assert "Stopped at max_cost" in str(report)


def test_ctrl_c_returns_the_partial_report_marked_interrupted(ctrl_c):
    asked = []
    reader = FeedbackReader()

    def answer(instructions, _input):
        asked.append(1)
        if len(asked) == 2:
            _thread.interrupt_main()  # Ctrl-C, as the kernel sends it
        return reader(instructions, _input)

    report = racing(reflection_model=sj.StandInModel(answer, tag=""))
    assert report.interrupted and report.finished
    assert "Interrupted (Ctrl-C)" in str(report)
    assert len(report.entries[0].runs) >= 1


def test_the_report_escapes_every_name_it_shows():
    report = racing({"<b>x</b>": TERSE, "y\x1b[31m": INFORMATIVE}, repeats=1)
    html = report._repr_html_()
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "\x1b" not in html


def test_the_report_speaks_french():
    report = racing(lang="fr", repeats=1)
    assert "arbitre 'informative'" in str(report)


# --- the standings' rule, over generated scores ---------------------------------------


def _entry(name: str, runs: list[dict[int, float]]) -> RaceEntry:
    entry = RaceEntry(name)
    for seed, scores in enumerate(runs):
        optimization = OptimizeReport(seed_artifact="x", budget=1)
        optimization.candidates.append(Candidate(0, "x", None, 0.5))
        entry.runs.append(RaceRun(seed, optimization, scores))
    return entry


scores = st.sampled_from([0.0, 0.5, 1.0])


@settings(max_examples=300, deadline=None)
@given(
    cases=st.integers(min_value=MIN_HELD_OUT, max_value=30),
    repeats=st.integers(min_value=1, max_value=4),
    data=st.data(),
)
def test_a_winner_is_ahead_beyond_the_noise_or_it_is_a_tie(cases, repeats, data):
    runs = {
        name: [{case: data.draw(scores) for case in range(cases)} for _ in range(repeats)]
        for name in ("a", "b")
    }
    report = RaceReport(seed_artifact="x", referee="a", budget=1, repeats=repeats)
    report.entries = [_entry(name, run) for name, run in runs.items()]
    report.held_out_cases = list(range(cases))
    verdict = report.verdict()
    leader, second = report.standings
    assert verdict.leader == leader.name and leader.mean >= second.mean
    if verdict.winner is None:
        assert verdict.why in ("equal", "ranges", "too_few")
        if verdict.needed is not None:
            assert verdict.needed > cases  # more cases than now would be needed
        return
    assert verdict.winner == leader.name and verdict.margin > 0
    if repeats > 1:
        assert leader.low > second.high  # the ranges do not overlap
    a, b = leader.case_means, second.case_means
    differences = [a[c] - b[c] for c in range(cases)]
    mean = sum(differences) / cases
    spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (cases - 1))
    assert mean > 2 * spread / math.sqrt(cases)  # two standard errors at least
