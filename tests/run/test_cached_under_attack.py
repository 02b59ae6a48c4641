"""A case is *cached* exactly when every model call it made, its run's and its
judge's, was answered from the run cache (issue 35, "Trust under attack").

Real litellm against the loopback OpenAI server: "asked" and "not asked" are
counted at the server.  A cached case's costs are shown as the original calls'
("cached: ..."), not as paid now.
"""

from __future__ import annotations

import json

import pytest

import skynet_jupyter as sj
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.i18n import t
from skynet_jupyter.run.engine import RunCache
from tests.openai_server import OpenAIServer
from tests.served_models import asks, served

ROWS = [{"text": f"ticket {n}", "label": "billing", "out": "billing"} for n in range(3)]


def judged(input, output, expected=None):
    verdict = llm("Answer PASS or FAIL.", f"{input['text']} -> {output}")
    return float(bool(verdict)), {"feedback": verdict}


def run(prompt, input):
    return llm(prompt, input["text"])


@pytest.fixture
def server():
    with OpenAIServer() as running:
        yield running


def judge_only(server: OpenAIServer, cache: RunCache) -> sj.EvalReport:
    models = sj.ModelSettings(metric_model=served(server))
    return sj.evaluate(
        judged, ROWS, outputs="label", output_column="out", models=models, run_cache=cache
    )


def test_a_judge_only_case_answered_from_the_cache_is_cached(server):
    cache = RunCache()
    first = judge_only(server, cache)
    asked = asks(server)
    assert asked == len(ROWS)
    assert not any(case.cached for case in first.cases)  # paid now
    again = judge_only(server, cache)
    assert asks(server) == asked  # nothing asked: every judge call came from the cache
    assert [case.cached for case in again.cases] == [True] * len(ROWS)
    # The cost shown is the original calls', and the view says so.
    assert [c.judge_cost_usd for c in again.cases] == [c.judge_cost_usd for c in first.cases]
    assert all(c.judge_cost_usd for c in again.cases)
    assert t("value.cached", "en") in str(again)
    assert t("value.cached", "en") not in str(first)
    assert "cached" in again._repr_html_()
    assert again.to_frame()["cached"].tolist() == [True] * len(ROWS)


def test_a_judge_call_made_now_leaves_the_case_uncached(server):
    cache = RunCache()
    models = sj.ModelSettings(task_model=served(server), metric_model=served(server))
    options = dict(outputs="label", run=run, artifact="Label it.", models=models, run_cache=cache)
    sj.evaluate(judged, ROWS, **options)
    asked = asks(server)
    # The run's calls come from the cache; the judge is asked something new.
    fresh_judge = sj.ModelSettings(task_model=served(server), metric_model=served(server, "gpt-4o"))
    again = sj.evaluate(judged, ROWS, **{**options, "models": fresh_judge})
    assert asks(server) == asked + len(ROWS)  # only the judge's calls were made
    assert all(case.measured.all_cached for case in again.cases)  # the run's were not
    assert not any(case.cached for case in again.cases)
    # ... and a third time, every call from the cache: cached.
    third = sj.evaluate(judged, ROWS, **{**options, "models": fresh_judge})
    assert asks(server) == asked + len(ROWS)
    assert all(case.cached for case in third.cases)


def test_a_stand_in_judge_is_never_a_cache_hit(server):
    cache = RunCache()
    stand_in = sj.StandInModel("PASS")
    models = sj.ModelSettings(task_model=served(server), metric_model=stand_in)
    options = dict(outputs="label", run=run, artifact="Label it.", models=models, run_cache=cache)
    sj.evaluate(judged, ROWS, **options)
    again = sj.evaluate(judged, ROWS, **options)
    assert all(case.measured.all_cached for case in again.cases)
    assert not any(case.cached for case in again.cases)  # the stand-in answered now


def test_a_metric_that_raises_after_cached_judge_calls_is_cached(server):
    def raising(input, output, expected=None):
        llm("Answer PASS or FAIL.", f"{input['text']} -> {output}")
        raise ValueError("no verdict")

    cache = RunCache()
    models = sj.ModelSettings(metric_model=served(server))
    options = dict(outputs="label", output_column="out", models=models, run_cache=cache)
    first = sj.evaluate(raising, ROWS, **options)
    again = sj.evaluate(raising, ROWS, **options)
    assert not any(case.passed for case in again.cases)
    assert not any(case.cached for case in first.cases)
    assert all(case.cached for case in again.cases)


@pytest.mark.slow  # two runs of the command, each importing litellm
def test_skynet_check_cache_dir_marks_judge_only_cases_cached(server, tmp_path):
    from tests.cli.test_models import JUDGE, JUDGED, answer, command

    server.reply = answer
    (tmp_path / "metric.py").write_text(JUDGED, encoding="utf-8")
    rows = [{"text": "I was charged twice.", "label": "billing", "out": "billing"}]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    args = [
        str(tmp_path / "metric.py"),
        "--data",
        str(tmp_path / "cases.jsonl"),
        "--outputs",
        "label",
        "--output-column",
        "out",
        "--metric-model",
        f"openai/{JUDGE}",
        "--api-base",
        server.base_url,
        "--json",
        "--cache-dir",
        str(tmp_path / "cache"),
    ]
    first = command(*args)
    assert first.returncode == 0, first.stderr
    asked = asks(server)
    again = command(*args)
    assert again.returncode == 0, again.stderr
    assert asks(server) == asked == 1
    assert [case["cached"] for case in json.loads(first.stdout)["cases"]] == [False]
    assert [case["cached"] for case in json.loads(again.stdout)["cases"]] == [True]


def test_a_run_that_raises_after_paid_calls_keeps_their_cost(server):
    from skynet_jupyter.optimizers.report import Costs

    def raising(prompt, input):
        llm(prompt, input["text"])
        raise RuntimeError("after a paid call")

    models = sj.ModelSettings(task_model=served(server))
    report = sj.evaluate(judged, ROWS, outputs="label", run=raising, models=models)
    assert asks(server) == len(ROWS)
    assert all(c.failed_step and c.cost_usd and c.model_calls == 1 for c in report.cases)
    assert not any(case.cached for case in report.cases)
    spent = Costs()
    for result in report.cases:
        spent.add_case(result, ran_now=True)
    assert spent.task > 0
    assert spent.task == pytest.approx(sum(c.cost_usd for c in report.cases))
