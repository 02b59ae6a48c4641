"""The run's own model calls are not the judge's: with a run that asks a model (the loopback
server, no known price) and a metric that asks none, no case "called a judge with no known
price" and the judge cost stays unknown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import skynet_jupyter as sj
from tests.openai_server import OpenAIServer
from tests.quality_support import EXACT, TICKETS
from tests.served_models import ask_run, asks, task_models


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as running:
        yield running


def test_a_run_that_asks_a_model_is_not_an_unpriced_judge(server):
    options = dict(outputs="label", run=ask_run, artifact="Label.", models=task_models(server))
    report = sj.compare(EXACT, EXACT, TICKETS[:2], **options)
    assert asks(server) == 2  # the run's calls, once per case
    assert [report.a[case].model_calls for case in report.cases] == [1, 1]
    assert (report.judge_unpriced, report.judge_cost_usd) == (0, None)
    stability = sj.stability(EXACT, TICKETS[:2], repeats=2, **options)
    assert (stability.judge_unpriced, stability.judge_cost_usd) == (0, None)
    assert "no known price" not in str(report) + str(stability)
