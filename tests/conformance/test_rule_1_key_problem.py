"""Rule 1: a key problem stops the run, on every path.

A missing key (no request sent) or a refused one (HTTP 401, asked once) ends the
run at its first case; the other cases are "Not run", naming that case.  The tool
stops too: no further pass, GEPA run, metric or seed; its report carries the stop
and says the key sentence, never "fix the metric".  The refused key is sent at most
once per tool call.
"""

from __future__ import annotations

import pytest

from skynet_jupyter.core.report import MODEL_KEY, CheckReport
from tests.conformance.paths import BACKENDS, MODEL, REFUSED, Command, not_applicable, served, use

NOT_RUN = "Not run: case {case} found the model's API key missing or refused."


def refused_requests(server) -> int:
    return sum(
        1 for request in server.calls() if REFUSED in request.headers.get("authorization", "")
    )


def holds_the_stop(path: str, outcome, sentence: str) -> None:
    """The run (or the tool) stopped at one case, saying ``sentence``; the rest not run."""
    if isinstance(outcome, Command):
        assert outcome.code == 2, outcome.stderr  # a configuration problem: usage, exit 2
        assert sentence in outcome.stderr
        assert "fix the metric" not in outcome.everything().lower()
        return
    stop = outcome.stop
    assert stop is not None and stop.kind == MODEL_KEY, path
    assert sentence in stop.sentence
    text = str(outcome)
    assert sentence in text and "fix the metric" not in text.lower()
    if isinstance(outcome, CheckReport):
        first = outcome.cases[stop.case]
        assert sentence in (first.error or "")
        others = [case for case in outcome.cases if case.index != stop.case]
        assert others and all(case.error == NOT_RUN.format(case=stop.case) for case in others)


@pytest.mark.parametrize("status", [401, 403])  # 403: a key without the permission
@pytest.mark.parametrize("path", not_applicable("a key problem", {}))
def test_a_refused_key_stops_the_run_at_its_first_case_and_is_sent_once(path, status, scenario):
    scenario.server.reject_keys = {REFUSED}
    scenario.server.reject_status = status
    outcome = use(path, scenario.but(task_model=served(scenario.server, REFUSED)))
    holds_the_stop(path, outcome, f"The provider refused the API key for {MODEL} (HTTP {status}")
    assert refused_requests(scenario.server) == 1


@pytest.mark.parametrize("path", not_applicable("a key problem", {}))
def test_a_missing_key_stops_the_run_at_its_first_case_and_asks_nothing(path, scenario):
    outcome = use(path, scenario.but(task_model=served(scenario.server, key=None)))
    holds_the_stop(path, outcome, f"{MODEL} needs an API key and none is set")
    assert scenario.server.calls() == []


@pytest.mark.parametrize("path", [p for p in BACKENDS])
def test_a_refused_judge_key_stops_the_run_on_every_backend(path, scenario):
    from tests.conformance.paths import JUDGED

    scenario.server.reject_keys = {REFUSED}
    judge = served(scenario.server, REFUSED)
    outcome = use(path, scenario.but(metric=JUDGED, metric_model=judge))
    holds_the_stop(path, outcome, f"The provider refused the API key for {MODEL} (HTTP 401")
    assert refused_requests(scenario.server) == 1
