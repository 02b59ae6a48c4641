"""Rule 5: money is counted once, on every path.

Every dollar the provider was paid is counted once in what the path reports: the
cost of the requests the loopback provider received (its usage counts, at litellm's
price of the model) is what the report says was spent, neither more (a call counted
twice) nor less (a call left out).  What was replayed from the run cache is never
counted as paid.  Each tool with a ``max_cost`` stays within it, or says by how much
and why.
"""

from __future__ import annotations

import math

import pytest

from skynet_jupyter.core.report import CheckReport
from tests.conformance.paths import (
    BACKENDS,
    JUDGED,
    OPTIMIZERS,
    PATHS,
    QUALITY,
    Command,
    not_applicable,
    served,
    use,
)

NO_MAX_COST = "it takes no max_cost: it runs a fixed number of cases, each paid once (above)"


def provider_bill(server, judge_only: bool = False) -> float:
    """What the requests the provider answered cost, at litellm's own price (``judge_only``:
    the judge's requests, those with its instructions)."""
    import litellm

    total = 0.0
    for request in server.calls():
        if request.status != 200 or (judge_only and "PASS or FAIL" not in request.text):
            continue
        prompt, completion = request.usage["prompt_tokens"], request.usage["completion_tokens"]
        cost_in, cost_out = litellm.cost_per_token(
            model="gpt-4o-mini", prompt_tokens=prompt, completion_tokens=completion
        )
        total += cost_in + cost_out
    return total


def paid(path: str, outcome) -> float:
    """What ``path`` reports it paid the provider now."""
    if isinstance(outcome, Command):
        cases = outcome.report["cases"]
        return sum((c.get("run_paid_usd") or 0.0) + (c.get("judge_paid_usd") or 0.0) for c in cases)
    if isinstance(outcome, CheckReport):
        return sum((c.run_paid_usd or 0.0) + (c.judge_paid_usd or 0.0) for c in outcome.cases)
    if path in QUALITY:
        return outcome.judge_cost_usd or 0.0
    return outcome.cost_usd.total  # optimize, race, align: task, judge and reflection


def judged(scenario):
    """Quality paths measure the judge: its calls are what is paid (the outputs are the
    column's, so the task model is not asked)."""
    judge = served(scenario.server)
    return scenario.but(metric=JUDGED, metric_model=judge)


@pytest.mark.parametrize("path", not_applicable("money counted once", {}))
def test_every_dollar_paid_is_counted_once(path, scenario):
    if path in QUALITY:
        scenario = judged(scenario)
    outcome = use(path, scenario)
    bill = provider_bill(scenario.server, judge_only=path in QUALITY)  # they count the judge
    assert bill > 0
    assert math.isclose(paid(path, outcome), bill, rel_tol=1e-9, abs_tol=1e-12), path


@pytest.mark.parametrize(
    "path",
    not_applicable(
        "replayed replies are not paid",
        {
            path: "its report's spend is the optimizer's own (rule 5's first test); the run "
            "cache's replays are the engine's, proven on the backend paths"
            for path in (*QUALITY, *OPTIMIZERS)
        },
    ),
)
def test_replies_replayed_from_the_run_cache_are_never_paid(path, scenario):
    cached = scenario.but(cache_dir=scenario.cwd / "cache")
    first = use(path, cached)
    asked = len(scenario.server.calls())
    again = use(path, cached)
    assert len(scenario.server.calls()) == asked  # every reply came from the cache
    assert paid(path, first) > 0 and paid(path, again) == 0.0
    if isinstance(again, CheckReport):
        assert all(case.cached for case in again.cases)
        costs = [(case.cost_usd, case.run_ms is not None) for case in again.cases]
        assert costs == [(case.cost_usd, True) for case in first.cases]  # the original's


@pytest.mark.parametrize(
    "path",
    not_applicable(
        "max_cost",
        {path: NO_MAX_COST for path in (*BACKENDS, "check", "evaluate", *QUALITY, "skynet-check")},
    ),
)
def test_a_tool_stays_within_its_max_cost_or_says_by_how_much(path, scenario):
    limit = 0.00002  # a few of the loopback's priced calls
    outcome = use(path, scenario.but(max_cost=limit))
    spent = outcome.cost_usd.total
    if spent > limit:  # one GEPA iteration may pass it: said, by how much, and why
        text = str(outcome)
        assert ("max_cost" in text and f"{spent - limit:.6f}"[:6] in text) or "past" in text, text
    assert math.isclose(spent, provider_bill(scenario.server), rel_tol=1e-9, abs_tol=1e-12)


NO_SPLIT = "it spends one budget on one thing: there is no share to keep equal"


@pytest.mark.parametrize(
    "path", not_applicable("shares", {path: NO_SPLIT for path in PATHS if path != "race"})
)
def test_identical_metrics_get_identical_shares_of_the_budget(path, scenario):
    """The race splits ``max_cost`` per metric and seed: two copies of one metric get the
    same runs, call for call and cent for cent."""
    import skynet_jupyter as sj
    from tests.race_support import FeedbackReader

    report = sj.race(
        {"first": scenario.metric, "copy": scenario.metric},
        scenario.rows,
        outputs="label",
        run=scenario.run,
        artifact=scenario.artifact,
        budget=12,
        held_out=5,
        reflection_model=FeedbackReader(),
        models=scenario.models(),
        max_cost=0.0001,
    )
    first, copy = (entry.runs[0].optimization for entry in report.entries)
    assert (first.calls, first.stopped, len(first.proposals)) == (
        copy.calls,
        copy.stopped,
        len(copy.proposals),
    )
    assert first.cost_usd.total > 0 and first.calls > 0
    assert math.isclose(first.cost_usd.total, copy.cost_usd.total, rel_tol=1e-9)
    assert math.isclose(report.cost_usd.total, provider_bill(scenario.server), rel_tol=1e-9)
