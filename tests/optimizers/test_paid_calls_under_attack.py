"""Property: what the optimizer counts as spent is what was paid in this run (issue 35).

Generated batches of cases whose run and judge calls are each paid now or answered
from the run cache (warmed at other prices first), scored by the optimizer's own
adapter (``SkynetGEPAAdapter``: the engine, real ``llm()`` and litellm against the
loopback server).  A case is cached exactly when every call it made was a hit; its
costs and ``max_cost`` (``_CostStop``) read what the server was paid, never less.
Exact whenever each case's run calls are all paid or all hits, and so are its judge
calls, and not a paid run with a judge from the cache: ``CaseResult`` cannot tell
that last one apart (see ``test_costs_under_attack``'s xfail).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import require_module

require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.helper.skynet import llm  # noqa: E402
from skynet_jupyter.models.llm import complete  # noqa: E402
from skynet_jupyter.optimizers.gepa_adapter import ReflectionModel, SkynetGEPAAdapter  # noqa: E402
from skynet_jupyter.optimizers.optimize import _costs, _CostStop  # noqa: E402
from skynet_jupyter.run.engine import CaseFinished, RunCache  # noqa: E402
from tests.openai_server import OpenAIServer  # noqa: E402
from tests.served_models import served  # noqa: E402

TASK, JUDGE = "gpt-4o-mini", "gpt-4o"
PAID, HIT = "paid", "hit"

calls = st.lists(st.sampled_from([PAID, HIT]), max_size=2)
cases = st.lists(st.tuples(calls, calls), min_size=1, max_size=4)  # (run's calls, judge's)
prices = st.integers(1, 5000).map(lambda n: n * 1e-7)  # dollars per token
examples = itertools.count()


def run(prompt: Any, input: Any) -> str:
    for text in input["run"]:
        llm(prompt, text)
    return "x"


def metric(input: Any, output: Any, expected: Any = None) -> tuple[float, dict[str, Any]]:
    for text in input["judge"]:
        llm("Judge it.", text)
    return 1.0, {"feedback": "Judged."}


def priced(server: OpenAIServer, name: str, price: float) -> dict[str, Any]:
    return served(server, name, input_cost_per_token=price, output_cost_per_token=price)


Plan = list[tuple[list[str], list[str]]]


def uniform(part: str) -> st.SearchStrategy[list[str]]:
    return st.integers(0, 2).map(lambda count: [part] * count)


# Cases a result can account for exactly: each part all paid or all hits, and not a
# paid run with a judge from the cache.
exact_case = st.one_of(
    st.tuples(uniform(PAID), uniform(PAID)),
    st.tuples(uniform(HIT), uniform(PAID)),
    st.tuples(uniform(HIT), uniform(HIT)),
)
exact_plans = st.lists(exact_case, min_size=1, max_size=4)


@pytest.fixture(scope="module")
def server():
    with OpenAIServer() as running:
        yield running


def score(
    server: OpenAIServer, plan: Plan, now: tuple[float, float], then: tuple[float, float]
) -> tuple[dict[int, Any], Any, dict[str, float], float]:
    """Warm the hits at the ``then`` prices, score the batch through the optimizer's adapter
    at the ``now`` prices: (results by case, the spend, what the server was paid by model,
    what the hits cost when they were made)."""
    example = next(examples)
    cache = RunCache()
    rows = [
        {
            "run": [f"e{example} c{n} run {k}" for k in range(len(runs))],
            "judge": [f"e{example} c{n} judge {k}" for k in range(len(judges))],
            "label": "x",
        }
        for n, (runs, judges) in enumerate(plan)
    ]
    # The hits: asked first at the old prices, outside any case (kept with their cost).
    replayed = 0.0
    for row, (runs, judges) in zip(rows, plan, strict=True):
        for part, model, instructions, marks in (
            ("run", priced(server, TASK, then[0]), "Do it.", runs),
            ("judge", priced(server, JUDGE, then[1]), "Judge it.", judges),
        ):
            for text, mark in zip(row[part], marks, strict=True):
                if mark == HIT:
                    reply = complete(model, instructions, text, call_cache=cache)
                    replayed += reply.cost_usd or 0.0
    price = {TASK: now[0], JUDGE: now[1]}
    models = sj.ModelSettings(priced(server, TASK, now[0]), priced(server, JUDGE, now[1]))
    finished: list[Any] = []
    adapter = SkynetGEPAAdapter(
        metric, run, outputs="label", models=models, run_cache=cache, concurrency=2
    )
    adapter.on_event = lambda event: type(event) is CaseFinished and finished.append(event.result)
    since = len(server.calls())
    adapter.evaluate(rows, {"prompt": "Do it."})
    asked = server.calls()[since:]
    assert len(asked) == sum(marks.count(PAID) for pair in plan for marks in pair)
    paid = {
        name: sum(r.usage["total_tokens"] * price[name] for r in asked if r.model == name)
        for name in price
    }
    spent = _costs(adapter.spend, ReflectionModel(sj.StandInModel("no")))
    return {result.index: result for result in finished}, spent, paid, replayed


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=exact_plans, now=st.tuples(prices, prices), then=st.tuples(prices, prices))
def test_spent_is_exactly_what_was_paid_and_max_cost_stops_on_it(server, plan, now, then):
    _, spent, paid, replayed = score(server, plan, now, then)
    assert spent.known
    assert spent.task == pytest.approx(paid[TASK], abs=1e-15)
    assert spent.judge == pytest.approx(paid[JUDGE], abs=1e-15)
    total = paid[TASK] + paid[JUDGE]
    if total > 0:
        at_the_sum = _CostStop(total * (1 - 1e-9), lambda: spent.total)
        assert at_the_sum(None)  # max_cost stops on what was paid ...
    if replayed > 0:
        short_of_replays = _CostStop(total + replayed / 2, lambda: spent.total)
        assert not short_of_replays(None)  # ... and never on what the cache answered


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=cases, now=st.tuples(prices, prices), then=st.tuples(prices, prices))
def test_cached_is_all_hits_and_spent_is_never_less_than_paid(server, plan, now, then):
    results, spent, paid, _ = score(server, plan, now, then)
    for n, (runs, judges) in enumerate(plan):
        made = runs + judges
        assert results[n].cached == (bool(made) and PAID not in made), (n, runs, judges)
    assert spent.total >= (paid[TASK] + paid[JUDGE]) * (1 - 1e-9)
