"""A case counts the model calls of its run and of its judge, fresh or from the run cache.

``model_calls`` and ``stand_in_calls`` add the run's calls and the judge's; a
call answered from the run cache counts as if made now (its cost and tokens as
then), a stand-in's is never cached; a failed metric still counts the judge
calls it made.
"""

from __future__ import annotations

import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.run.engine import RunCache
from tests.openai_server import OpenAIServer
from tests.served_models import asks, task_models

ROWS = [{"q": n, "label": "x"} for n in range(2)]


def run_twice(artifact, input):
    first = llm("Say x.", input=str(input["q"]))
    second = llm("Say it again.", input=first)
    return second


def judged(input, output, expected=None):
    verdict = llm("PASS or FAIL?", input=str(output))
    return (1.0 if verdict.startswith("PASS") else 0.0), {"feedback": verdict}


def judged_then_raises(input, output, expected=None):
    llm("PASS or FAIL?", input=str(output))
    raise ValueError("after the judge")


STAND_INS = ModelSettings(task_model=sj.StandInModel("x"), metric_model=sj.StandInModel("PASS"))
REAL_LIKE = ModelSettings(
    task_model=lambda instructions, input: "x", metric_model=lambda instructions, input: "PASS"
)


def test_stand_in_calls_are_never_cached_and_add_up_every_time():
    cache = RunCache()
    before = len(STAND_INS.task_model.calls)
    fresh = sj.evaluate(
        judged, ROWS, outputs="label", run=run_twice, models=STAND_INS, run_cache=cache
    )
    assert [c.score for c in fresh.cases] == [1.0, 1.0]
    assert [c.model_calls for c in fresh.cases] == [3, 3]
    assert [c.stand_in_calls for c in fresh.cases] == [3, 3]
    assert [c.retries for c in fresh.cases] == [0, 0]
    assert [c.cached for c in fresh.cases] == [False, False]
    assert all(c.measured.model_calls == 2 for c in fresh.cases)
    again = sj.evaluate(
        judged, ROWS, outputs="label", run=run_twice, models=STAND_INS, run_cache=cache
    )
    # Issue 23: a stand-in is local and free: asked again, nothing kept, nothing "cached".
    assert [c.cached for c in again.cases] == [False, False] and len(cache) == 0
    assert [c.model_calls for c in again.cases] == [3, 3]
    assert [c.stand_in_calls for c in again.cases] == [3, 3]
    assert len(STAND_INS.task_model.calls) == before + 8  # 2 cases x 2 calls, twice


def test_run_and_judge_calls_add_up_fresh_and_cached():
    cache = RunCache()
    with OpenAIServer() as server:
        server.reply = lambda request: "PASS" if request.model == "gpt-4o" else "x"
        models = task_models(server, judge=True)
        options = dict(outputs="label", run=run_twice, models=models, run_cache=cache)
        fresh = sj.evaluate(judged, ROWS, **options)
        assert [c.score for c in fresh.cases] == [1.0, 1.0]
        assert [c.model_calls for c in fresh.cases] == [3, 3]
        assert [c.cached for c in fresh.cases] == [False, False]
        assert all(c.measured.model_calls == 2 for c in fresh.cases)
        asked = asks(server)
        cached = sj.evaluate(judged, ROWS, **options)
        assert asks(server) == asked  # run's calls and the judge's: all from the cache
    assert [c.cached for c in cached.cases] == [True, True]
    # Counted as if made now: the run's two calls and the judge's one, priced as then.
    assert [c.model_calls for c in cached.cases] == [3, 3]
    assert [c.measured.cached_calls for c in cached.cases] == [2, 2]
    assert [c.cost_usd for c in cached.cases] == [c.cost_usd for c in fresh.cases]
    assert [c.judge_cost_usd for c in cached.cases] == [c.judge_cost_usd for c in fresh.cases]
    assert [c.stand_in_calls for c in cached.cases] == [0, 0]


def test_calls_of_models_that_are_not_stand_ins_carry_no_stand_in_mark():
    report = sj.check(judged, ROWS, outputs="label", run=run_twice, models=REAL_LIKE)
    assert [c.model_calls for c in report.cases] == [3, 3]
    assert [c.stand_in_calls for c in report.cases] == [0, 0]
    assert [c.judge_cost_usd for c in report.cases] == [0.0, 0.0]


def test_only_the_judge_counts_when_the_output_is_given():
    rows = [{"q": n, "label": "x", "out": "x"} for n in range(2)]
    report = sj.check(judged, rows, outputs="label", output_column="out", models=STAND_INS)
    assert [c.model_calls for c in report.cases] == [1, 1]
    assert [c.stand_in_calls for c in report.cases] == [1, 1]
    assert [c.run_ms for c in report.cases] == [None, None]
    assert [c.cost_usd for c in report.cases] == [None, None]


def test_no_model_no_calls_counted():
    rows = [{"q": 0, "label": "x", "out": "x"}]
    (case,) = sj.check(
        lambda i, o, e=None: (1.0, {"feedback": "ok"}), rows, outputs="label", output_column="out"
    ).cases
    assert (case.model_calls, case.stand_in_calls, case.retries) == (0, 0, 0)
    assert case.judge_cost_usd is None and case.run_ms is None


def test_a_metric_that_fails_after_its_judge_call_still_counts_it():
    report = sj.check(judged_then_raises, ROWS, outputs="label", run=run_twice, models=STAND_INS)
    case = report.cases[0]
    assert case.failed_step == "metric_return_value"
    assert case.error == "score raised before returning: ValueError: after the judge"
    assert case.model_calls == 3 and case.stand_in_calls == 3
    assert case.run_ms is not None and case.measured.model_calls == 2


def test_a_run_without_a_judge_counts_only_the_runs_calls():
    rows = [{"q": 0, "label": "x"}]
    models = ModelSettings(task_model=sj.StandInModel("x"))
    (case,) = sj.check(
        lambda i, o, e=None: (1.0, {"feedback": o}),
        rows,
        outputs="label",
        run=run_twice,
        models=models,
    ).cases
    assert (case.model_calls, case.stand_in_calls, case.retries) == (2, 2, 0)
    assert case.judge_cost_usd is None and case.cost_usd == 0.0 and case.run_ms >= 0
