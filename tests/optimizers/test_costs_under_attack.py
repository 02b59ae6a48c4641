"""What ``sj.optimize`` counts as spent: only the calls paid in this run (issue 35).

A call answered from the run cache costs nothing now, the judge's as the run's:
the report's ``cost_usd`` and ``max_cost`` read what was paid.  Real GEPA, real
litellm against the loopback OpenAI server (every "paid" is a request it got).
"""

from __future__ import annotations

import pytest

from tests.conftest import require_module

require_module("gepa")

import litellm  # noqa: E402

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.core.dataset import Case  # noqa: E402
from skynet_jupyter.core.options import RunOptions  # noqa: E402
from skynet_jupyter.helper.skynet import llm  # noqa: E402
from skynet_jupyter.optimizers.report import Candidate, Costs, OptimizeReport  # noqa: E402
from skynet_jupyter.run.engine import KnownOutputs, RunCache, execute_cases  # noqa: E402
from tests.openai_server import OpenAIServer  # noqa: E402
from tests.optimizers.test_optimize import SEED, TICKETS, classify, score, stand_in  # noqa: E402
from tests.served_models import served  # noqa: E402

JUDGE_ASKS = "Is this label right? Answer PASS or FAIL."


def run(prompt, input):
    llm(prompt, input["text"])  # paid once per text and case, then from the cache
    return classify(prompt, input)


def judged(input, output, expected=None):
    llm(JUDGE_ASKS, {"ticket": input["text"], "label": output})
    return score(input, output, expected)


def paid(server: OpenAIServer, judge: bool, since: int = 0) -> float:
    """What the server's answers cost at gpt-4o-mini's price (the judge's or the task's)."""
    price = litellm.model_cost["gpt-4o-mini"]
    return sum(
        r.usage["prompt_tokens"] * price["input_cost_per_token"]
        + r.usage["completion_tokens"] * price["output_cost_per_token"]
        for r in server.calls()[since:]
        if (JUDGE_ASKS in r.text) == judge
    )


def optimize(server: OpenAIServer, cache: RunCache, **options) -> sj.OptimizeReport:
    model = served(server)  # task and judge at the same loopback gpt-4o-mini
    return sj.optimize(
        judged,
        TICKETS,
        run=run,
        artifact=SEED,
        budget=80,
        outputs="label",
        reflection_model=stand_in(),
        models=sj.ModelSettings(task_model=model, metric_model=model),
        run_cache=cache,
        **options,
    )


@pytest.fixture(scope="module")
def server():
    with OpenAIServer() as running:
        yield running


def test_a_second_optimize_on_the_same_cache_pays_nothing_and_max_cost_never_stops_it(server):
    cache = RunCache()
    first = optimize(server, cache)
    asked = len(server.calls())
    assert first.cost_usd.judge > 0 and first.cost_usd.task > 0
    # The same texts again (GEPA and the stand-in are seeded): every call from the cache.
    again = optimize(server, cache, max_cost=1e-9)
    assert len(server.calls()) == asked
    assert again.calls == first.calls
    assert (again.cost_usd.task, again.cost_usd.judge, again.cost_usd.total) == (0, 0, 0)
    assert again.stopped == "budget"  # nothing was spent: the dollar limit is never reached
    assert again.best_artifact == first.best_artifact


def test_the_judge_cost_counts_what_was_paid_not_what_was_replayed(server):
    since = len(server.calls())
    report = optimize(server, RunCache())
    cost = report.cost_usd
    assert cost.task == pytest.approx(paid(server, judge=False, since=since))
    judge_requests = [r for r in server.calls()[since:] if JUDGE_ASKS in r.text]
    assert 3 * len(judge_requests) < report.calls  # most judge calls came from the cache
    judge_paid = paid(server, judge=True, since=since)
    assert judge_paid <= cost.judge * (1 + 1e-9)  # never less than was paid
    # Issue 35 counted every judge call at its price (6.3x here); only the cases whose
    # run was paid now and whose judge came from the cache are counted exactly (below).
    assert cost.judge < 1.5 * judge_paid


def test_the_judge_cost_is_exactly_what_was_paid(server):
    """Each case says what its run and its judge paid now (``run_paid_usd``,
    ``judge_paid_usd``): a run paid now with a judge from the cache counts no judge."""
    since = len(server.calls())
    report = optimize(server, RunCache())
    assert report.cost_usd.judge == pytest.approx(paid(server, judge=True, since=since))


# --- a cached output's run is not paid again ------------------------------------------------


ROWS = [{"text": f"ticket {n}", "label": "billing"} for n in range(3)]


def test_a_run_answered_from_the_cache_is_not_task_spend_even_when_the_judge_pays(server):
    cache = RunCache()
    task = served(server)
    options = dict(outputs="label", run=run, artifact=SEED, run_cache=cache)
    first = sj.evaluate(judged, ROWS, models=sj.ModelSettings(task, task), **options)
    spent = Costs()
    for result in first.cases:
        spent.add_case(result, ran_now=True)
    assert spent.task > 0 and spent.judge > 0
    # The same run (from the cache), a judge asked anew (another model: new requests).
    new_judge = sj.ModelSettings(task, served(server, "gpt-4o"))
    since = len(server.calls())
    again = sj.evaluate(judged, ROWS, models=new_judge, **options)
    assert len(server.calls()) - since == len(ROWS)  # the judge's calls only
    assert all(c.measured.all_cached and not c.cached for c in again.cases)
    spent = Costs()
    for result in again.cases:
        spent.add_case(result, ran_now=True)
    assert spent.task == 0
    assert spent.judge == pytest.approx(sum(c.judge_cost_usd for c in again.cases))


def test_a_replayed_output_is_not_task_spend(server):
    task = served(server)
    models = sj.ModelSettings(task, served(server, "gpt-4o"))
    first = sj.evaluate(judged, ROWS, outputs="label", run=run, artifact=SEED, models=models)
    known = KnownOutputs({c.index: (c.output, c.measured) for c in first.cases}, "none")
    cases = known.given_to([Case(c.index, c.input, c.expected) for c in first.cases])
    replayed = execute_cases(
        "eval",
        judged,
        cases,
        RunOptions.given(run=run, models=models),
        on_event=None,
        run_cache=None,
    )
    assert all(c.cached and c.cost_usd for c in replayed.cases)  # the original run's cost
    spent = Costs()
    for result in replayed.cases:
        spent.add_case(result)  # as sj.align adds its replays: it may not say ran_now
    assert spent.task == 0
    assert spent.judge > 0
    assert spent.judge == pytest.approx(sum(c.judge_cost_usd for c in replayed.cases))


# --- the best candidate -------------------------------------------------------------------


def candidates(*scores: float) -> list[Candidate]:
    return [
        Candidate(index=n, text=f"text {n}", parent=None if n == 0 else 0, score=s)
        for n, s in enumerate(scores)
    ]


@pytest.mark.parametrize(
    ("scores", "best"),
    [((0.5, 0.5, 0.5), 0), ((0.5, 0.75, 0.75), 1), ((0.5, 0.25, 0.5, 0.75, 0.75), 3)],
)
def test_on_a_tie_the_earliest_candidate_is_the_best(scores, best):
    report = OptimizeReport(seed_artifact="text 0", budget=10, candidates=candidates(*scores))
    assert report.best is not None and report.best.index == best
    assert report.best_artifact == f"text {best}"
    assert report.improved == (best != 0)
    assert report.to_frame()["best"].tolist() == [n == best for n in range(len(scores))]
