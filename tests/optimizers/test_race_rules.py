"""The race keeps issue 43's rules (R1-R5) and says what issue 44 asked (items 7-10).

Each test failed before its fix: the first run that reached its share of
``max_cost`` ended the race (R1); the referee's held-out scoring was paid from the
later runs' money, so an identical copy of a metric got fewer calls (R2); a refused
reflection key was sent once per run and reported as a tie (R3); ``held_out=0.04``
on 100 cases asked for 100 cases (R4); a listener that raised lost the race (R5).
Real GEPA; offline stand-ins, or real litellm against the loopback server.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.errors import DataError
from skynet_jupyter.examples.classify import run as classify
from skynet_jupyter.optimizers.race import MIN_HELD_OUT, _held_out_count, least_share
from skynet_jupyter.optimizers.race_report import RaceReport
from skynet_jupyter.optimizers.report import OptimizeReport
from skynet_jupyter.run.engine import RunCache
from tests.conftest import require_module
from tests.openai_server import OpenAIServer
from tests.race_support import INFORMATIVE, TERSE, WEAK_PROMPT, FeedbackReader, tickets
from tests.served_models import KEY, served

require_module("gepa")

PRICE = 0.0001  # dollars per word the stand-in reflection model writes


def race(metrics=None, data=None, **options):
    settings_ = {
        "outputs": "label",
        "run": classify,
        "artifact": WEAK_PROMPT,
        "reflection_model": sj.StandInModel(FeedbackReader(), tag=""),
        "budget": 60,
        "held_out": 12,
        "seed": 2,
        **options,
    }
    metrics = metrics or {"informative": INFORMATIVE, "terse": TERSE}
    return sj.race(metrics, tickets() if data is None else data, **settings_)


def priced_reader() -> sj.StandInModel:
    return sj.StandInModel(FeedbackReader(), tag="", output_cost_per_token=PRICE)


# --- R1: reaching a run's share ends that run only ----------------------------------------


def test_reaching_a_runs_share_ends_that_run_only():
    report = race(reflection_model=priced_reader(), repeats=2, max_cost=0.02)
    share = report.run_max_cost
    assert share == pytest.approx(0.005)
    # Every metric ran with every seed: the first run at its share did not end the race.
    assert [len(entry.runs) for entry in report.entries] == [2, 2]
    for entry in report.entries:
        for run in entry.runs:
            assert run.optimization.max_cost == pytest.approx(share)  # its share, no more
            assert run.optimization.stopped == "max_cost"
            assert run.held_scores is not None  # refereed
    assert report.stopped is None and report.winner == "informative"
    text = str(report)
    assert not text.startswith("Only 'informative' finished a run")
    # GEPA checks the share between iterations: what went past max_cost is said.
    spent = report.cost_usd.total
    assert spent > 0.02
    assert "past max_cost $0.02: each GEPA run stops at its first check past its share" in text


def test_a_round_of_seeds_starts_only_while_money_is_left():
    """Runs that cost far more than their share (one proposal is more than it): the race
    stops before a round, so every metric keeps as many runs as the others."""
    report = race(
        reflection_model=sj.StandInModel(FeedbackReader(), tag="", output_cost_per_token=0.001),
        repeats=3,
        max_cost=0.05,
    )
    assert report.stopped == "max_cost"
    runs = [len(entry.runs) for entry in report.entries]
    assert runs[0] == runs[1] < 3
    assert "Stopped at max_cost" in str(report)


# --- R2: the referee's scoring is kept apart; identical metrics, identical runs -----------

REFEREE = """
from skynet import llm


def score(input, output, expected=None):
    llm("Is the label right?", {"text": input["text"], "label": output})
    return float(output == expected["label"]), {"feedback": "Judged."}
"""


def test_identical_metrics_get_identical_runs_with_the_referee_kept_apart():
    judge = sj.StandInModel("PASS", input_cost_per_token=0.00002)
    report = race(
        {"a": INFORMATIVE, "b": INFORMATIVE},
        referee=REFEREE,
        reflection_model=priced_reader(),
        max_cost=0.02,
        models=sj.ModelSettings(metric_model=judge),
    )
    a, b = (entry.runs[0].optimization for entry in report.entries)
    assert (a.calls, a.stopped, len(a.proposals)) == (b.calls, b.stopped, len(b.proposals))
    assert a.cost_usd.total == pytest.approx(b.cost_usd.total)
    assert a.best_artifact == b.best_artifact
    # The seed's scoring, and one per run at its price, kept before the runs' shares.
    seed_scoring = report.referee_cost_usd.total / 3
    assert report.referee_kept_usd == pytest.approx(3 * seed_scoring)
    assert report.run_max_cost == pytest.approx((0.02 - report.referee_kept_usd) / 2)
    assert a.max_cost == b.max_cost == pytest.approx(report.run_max_cost)
    assert "kept for the referee's held-out scoring" in str(report)
    # Within max_cost but for the runs' last iteration past their share, and said.
    most = max(p.cost_usd.total - report.run_max_cost for p in (a, b))
    assert report.cost_usd.total <= 0.02 + 2 * most + 1e-9


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    max_cost=st.floats(0.003, 0.05),
    price=st.sampled_from([0.00005, 0.0001, 0.0003]),
    judge_price=st.sampled_from([0.0, 0.000005, 0.00002]),
)
def test_the_money_is_split_fairly_and_what_passed_max_cost_is_accounted_for(
    max_cost, price, judge_price
):
    """Identical metrics, any prices: identical runs, each allowed the same share; every
    dollar counted once (the runs' and the referee's add up to the race's); what went past
    max_cost is no more than the runs' last iterations past their share and the referee's
    scoring past what was kept for it."""
    judge = sj.StandInModel("PASS", input_cost_per_token=judge_price)
    report = race(
        {"a": INFORMATIVE, "b": INFORMATIVE},
        referee=REFEREE,
        reflection_model=sj.StandInModel(FeedbackReader(), tag="", output_cost_per_token=price),
        max_cost=max_cost,
        budget=40,
        models=sj.ModelSettings(metric_model=judge),
    )
    runs = [run.optimization for entry in report.entries for run in entry.runs]
    if report.stopped == "referee_cost":
        assert runs == [] and report.referee_kept_usd >= max_cost
        return
    share = report.run_max_cost
    a, b = runs
    assert a.max_cost == b.max_cost == pytest.approx(share)
    assert (a.calls, a.stopped, a.best_artifact) == (b.calls, b.stopped, b.best_artifact)
    assert a.cost_usd.total == pytest.approx(b.cost_usd.total)
    referee = report.referee_cost_usd.total
    spent = report.cost_usd.total
    assert spent == pytest.approx(a.cost_usd.total + b.cost_usd.total + referee)
    explained = sum(max(0.0, run.cost_usd.total - share) for run in runs)
    explained += max(0.0, referee - report.referee_kept_usd)
    assert spent <= max_cost + explained + 1e-9
    if spent > max_cost * (1 + 1e-9):
        assert f"past max_cost ${max_cost:.6f}".rstrip("0").rstrip(".") in str(report)


def test_a_referee_that_would_spend_max_cost_alone_stops_before_any_run():
    judge = sj.StandInModel("PASS", input_cost_per_token=0.001)
    report = race(referee=REFEREE, max_cost=0.02, models=sj.ModelSettings(metric_model=judge))
    assert report.stopped == "referee_cost"
    assert all(not entry.runs for entry in report.entries)
    text = str(report)
    assert text.startswith("No metric was raced: max_cost cannot pay")
    assert "Stopped before any run: the referee's held-out scoring" in text


@pytest.fixture(scope="module")
def server():
    with OpenAIServer() as running:
        yield running


def paid_run(prompt, input):
    """The shipped classifier, behind one priced task-model call per case (cached)."""
    from skynet import llm

    llm(prompt, input["text"])
    return classify(prompt, input)


def test_a_shared_run_cache_buys_no_metric_extra_work(server):
    """The second metric's task calls come from the cache the first one filled: it pays
    less, yet its share buys the same GEPA run (max_cost counts each call at its price)."""
    task = served(server, input_cost_per_token=2e-6, output_cost_per_token=2e-6)
    report = race(
        {"a": INFORMATIVE, "b": INFORMATIVE},
        run=paid_run,
        max_cost=0.004,
        run_cache=RunCache(),
        models=sj.ModelSettings(task_model=task),
    )
    a, b = (entry.runs[0].optimization for entry in report.entries)
    assert a.stopped == "max_cost"
    assert b.cost_usd.task < a.cost_usd.task  # the cache answered the second one's calls
    assert (a.calls, a.stopped, a.best_artifact) == (b.calls, b.stopped, b.best_artifact)


# --- R3 and K1: a key problem stops the race, with its sentence, and no verdict ------------


def test_a_refused_reflection_key_stops_the_race_after_one_request(server):
    server.reject_keys = {KEY}
    try:
        since = len(server.calls())
        report = race(reflection_model=served(server), repeats=2)
        sent = server.calls()[since:]
    finally:
        server.reject_keys = set()
    assert len(sent) == 1  # not once per run, nor GEPA's retry task by task
    assert report.stop is not None and report.stop.kind == "model_key"
    assert report.winner is None and report.verdict().why == "stopped"
    assert not report.verdict().tie
    text = str(report)
    assert text.startswith("The provider refused the API key for openai/gpt-4o-mini")
    assert "A tie" not in text and KEY not in text
    assert sum(len(entry.runs) for entry in report.entries) == 1  # no other metric or seed
    html = report._repr_html_()
    assert "The provider refused the API key" in html and KEY not in html


def test_a_missing_judge_key_stops_the_race_before_gepa(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    asked = []

    def counting(artifact, input):
        asked.append(input)
        return classify(artifact, input)

    report = race(
        {"judged": REFEREE, "terse": TERSE},
        run=counting,
        models=sj.ModelSettings(metric_model="openai/gpt-4o-mini"),
    )
    assert report.stop is not None and report.stop.kind == "model_key"
    assert all(not entry.runs for entry in report.entries)  # the referee's scoring found it
    assert len(asked) == 1  # its first held-out case; no GEPA run started
    text = str(report)
    assert text.startswith("openai/gpt-4o-mini needs an API key and none is set")
    assert "fix the metric" not in text and report.winner is None


def test_a_missing_judge_key_in_a_racing_metric_stops_at_its_first_run(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    report = race(
        {"terse": TERSE, "judged": REFEREE},
        repeats=2,
        models=sj.ModelSettings(metric_model="openai/gpt-4o-mini"),
    )
    terse, judged = report.entries
    assert len(terse.runs) == 1 and len(judged.runs) == 1  # no second seed
    stopped = judged.runs[0].optimization
    assert stopped.stop is not None and stopped.calls == 1
    assert report.stop == stopped.stop and report.verdict().why == "stopped"
    assert str(report).startswith("openai/gpt-4o-mini needs an API key")


# --- R4: the held-out refusal says the value that would do ---------------------------------

ROWS = [{"text": f"ticket number {n}", "label": "billing"} for n in range(100)]


def test_a_held_out_share_too_small_names_a_count_and_a_share_that_would_do():
    with pytest.raises(DataError) as refused:
        race(data=ROWS, held_out=0.04)
    said = str(refused.value)
    assert "held_out=0.04 holds out 4 of the 100 cases" in said
    assert "give held_out=5 (a number of cases) or a share of at least 0.05" in said
    assert "Give at least 100 cases" not in said


@pytest.mark.parametrize(
    ("rows", "held_out", "said"),
    [
        (
            ROWS,
            3,
            "held_out=3: a race needs at least 5 held-out cases to tell metrics apart: "
            "give held_out=5 or more",
        ),
        (ROWS[:6], None, "6 cases are too few. Give at least 7 cases."),
        (ROWS[:6], 0.9, "6 cases are too few. Give at least 7 cases."),
    ],
)
def test_too_few_held_out_cases_say_what_would_do(rows, held_out, said):
    with pytest.raises(DataError, match="at least 5 held-out cases") as refused:
        race(data=rows, held_out=held_out)
    assert said in str(refused.value)


@settings(max_examples=300, deadline=None)
@given(total=st.integers(min_value=MIN_HELD_OUT + 2, max_value=10**6))
def test_the_share_suggested_is_accepted_and_the_least_at_its_precision(total):
    share = least_share(total)
    assert 0 < share < 1
    assert _held_out_count(share, total, "en") >= MIN_HELD_OUT  # given back, it does
    assert share * total >= MIN_HELD_OUT - 1e-9  # as a person counts it: 5 cases or more
    digits = 1 - math.floor(math.log10(MIN_HELD_OUT / total))
    assert (share - 10**-digits) * total < MIN_HELD_OUT  # the least such, at its precision


# --- R5: a listener that raises keeps the race -----------------------------------------


class ListenerBroke(Exception):
    pass


@pytest.mark.parametrize("kind", ["started", "run", "scored", "finished"])
def test_a_listener_that_raises_carries_the_race_so_far(kind):
    seen: list[str] = []

    def listener(event):
        seen.append(event.kind)
        if event.kind == kind:
            raise ListenerBroke(kind)

    with pytest.raises(ListenerBroke) as raised:
        race(on_event=listener, repeats=2)
    report = raised.value.skynet_report
    assert type(report) is RaceReport  # the race's own, not a minibatch's EvalReport
    assert report.finished and report.stopped in ("error", None)
    runs = [run for entry in report.entries for run in entry.runs]
    if kind == "started":
        assert runs == []
    elif kind == "run":  # the run under way, as far as it got
        assert len(runs) == 1 and runs[0].optimization.calls >= 1
        assert isinstance(runs[0].optimization, OptimizeReport)
    elif kind == "scored":
        assert len(runs) == 1 and runs[0].held_scores is not None
    else:
        assert len(runs) == 4 and all(run.held_scores is not None for run in runs)
        assert report.stopped is None and report.winner == "informative"
    notes = getattr(raised.value, "__notes__", [])
    assert sum(".skynet_report" in note for note in notes) == 1  # the race's, not the engine's
    assert any("RaceReport" in note for note in notes)


@pytest.fixture(scope="module")
def whole_race():
    """A short race run to its end, and every event it sent (what a listener would see)."""
    kinds: list[str] = []
    report = race(on_event=lambda event: kinds.append(event.kind), **SHORT)
    return report, kinds


SHORT = {"budget": 30, "held_out": 10, "repeats": 2}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_whatever_event_the_listener_raises_at_every_finished_run_is_kept(whole_race, data):
    """Rule 3 over every moment of the race: the report on the exception holds the runs
    of the whole race up to that moment, each finished one with the same held-out scores."""
    whole, kinds = whole_race
    at = data.draw(st.integers(1, len(kinds)), label="event")
    heard = 0

    def listener(event):
        nonlocal heard
        heard += 1
        if heard == at:
            raise ListenerBroke(event.kind)

    with pytest.raises(ListenerBroke) as raised:
        race(on_event=listener, **SHORT)
    partial = raised.value.skynet_report
    assert type(partial) is RaceReport and partial.finished
    runs = [(e.name, r) for e in partial.entries for r in e.runs]
    wholes = {(e.name, r.seed): r for e in whole.entries for r in e.runs}
    for name, run in runs:
        same = wholes[(name, run.seed)]
        if run.held_scores is not None:  # finished: exactly as in the whole race
            assert run.held_scores == same.held_scores
            assert run.optimization.calls == same.optimization.calls
    finished = kinds[:at].count("scored")  # a run is scored, then "scored" is sent
    assert sum(run.held_scores is not None for _, run in runs) == finished


# --- planted bugs (issue 43): each fails a test here ----------------------------------------


def test_the_seeds_held_out_scoring_counts_among_the_scorings_made():
    """The run fails on the held-out cases for the seed artifact only: the seed's scorings
    and terse's (which kept the seed) fail, informative's best artifact does not."""
    held = set(race(repeats=1).held_out_cases)
    texts = {tickets().iloc[i]["text"] for i in held}

    def run(artifact, case_input):
        if artifact == WEAK_PROMPT and case_input["text"] in texts:
            raise RuntimeError("the seed prompt breaks the run here")
        return classify(artifact, case_input)

    report = race(run=run, repeats=1)
    cases = len(report.held_out_cases)
    assert report.held_scorings == 3 * cases  # the seed's, informative's and terse's
    assert report.held_failures == 2 * cases
    assert report.verdict().why != "failed"  # not "every scoring failed"
    assert f"{2 * cases} of the {3 * cases} held-out scorings failed" in str(report)


def test_each_run_is_allowed_its_share_not_the_money_left():
    report = race(reflection_model=priced_reader(), max_cost=0.04, repeats=1)
    share = report.run_max_cost
    first = report.entries[0].runs[0].optimization
    assert first.max_cost == pytest.approx(share) == pytest.approx(0.02)
    # One iteration past its share at most: never the race's whole money.
    most_per_iteration = max(len((p.text or "").split()) for p in first.proposals) * PRICE
    assert first.cost_usd.total <= share + most_per_iteration + 1e-9
