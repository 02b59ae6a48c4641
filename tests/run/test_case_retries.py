"""A case's retries: the rate-limit (429) answers its run and its judge got, counted once.

Against the loopback OpenAI server through litellm: the server answers chosen
requests with a 429 (a 1 ms Retry-After), and the report's ``retries`` per case
must be exactly the 429s that case's calls met now (a reply from the run
cache has none: its retries were paid by the call that made it).
"""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter import ModelSettings
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.run.engine import RunCache
from tests.openai_server import OpenAIServer

KEY = "sk-retries-0123456789abcdef"
ROWS = [{"text": "I was charged twice.", "label": "billing"}]


@pytest.fixture
def server():
    with OpenAIServer() as fresh:
        yield fresh


def models(server: OpenAIServer) -> ModelSettings:
    def model(name: str) -> dict:
        return {"model": f"openai/{name}", "api_base": server.base_url, "api_key": KEY}

    return ModelSettings(task_model=model("gpt-4o-mini"), metric_model=model("gpt-4o"))


def ask_task(artifact, case):
    return llm("Label the support ticket.", case["text"])


def judge_refused_once(server: OpenAIServer, then_raise: bool = False):
    def score(input, output, expected=None):
        server.fail_next(429)  # the judge's first request is refused, its retry answered
        verdict = llm("Answer PASS or FAIL.", input["text"])
        if then_raise:
            raise ValueError("after the judge")
        return 1.0, {"feedback": verdict}

    return score


def test_a_fresh_case_counts_its_runs_and_its_judges_retries(server):
    server.fail_next(429)  # the run's first request
    report = sj.check(
        judge_refused_once(server), ROWS, outputs="label", run=ask_task, models=models(server)
    )
    (case,) = report.cases
    assert case.error is None and case.score == 1.0
    assert case.measured.retries == 1  # the run's
    assert case.retries == 2  # the run's and the judge's
    assert case.model_calls == 2 and case.cached is False


def test_a_cached_call_counts_no_retry_and_a_judge_asked_again_counts_its_own(server):
    cache = RunCache()
    server.fail_next(429)
    first = sj.check(
        judge_refused_once(server),
        ROWS,
        outputs="label",
        run=ask_task,
        models=models(server),
        run_cache=cache,
    )
    assert first.cases[0].retries == 2
    asked = len(server.requests)
    again = sj.check(
        judge_refused_once(server),
        ROWS,
        outputs="label",
        run=ask_task,
        models=models(server),
        run_cache=cache.fresh_judge(),  # the run's call from the cache, the judge asked again
    )
    (case,) = again.cases
    # The run's reply came from the cache: its 429 was paid by the call that made it. The
    # judge was asked now, so the case is not cached (issue 35: every call from the cache).
    assert case.cached is False and case.measured.retries == 0
    assert case.retries == 1  # only the judge's, now
    assert [r.model for r in server.requests[asked:]] == ["gpt-4o", "gpt-4o"]  # 429, then 200


def test_a_metric_failing_after_its_judge_still_counts_every_retry(server):
    server.fail_next(429)
    report = sj.check(
        judge_refused_once(server, then_raise=True),
        ROWS,
        outputs="label",
        run=ask_task,
        models=models(server),
    )
    (case,) = report.cases
    assert case.error == "score raised before returning: ValueError: after the judge"
    assert case.retries == 2 and case.model_calls == 2
