"""Rule 2: a provider that refuses everything (HTTP 429 for the refusal limit) stops the
run, on every path: no further case starts, the cases not run say the provider's
sentence, the run's ``stop`` says it, and the tool stops with it.
"""

from __future__ import annotations

import itertools
import re

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.report import PROVIDER_REFUSED, CheckReport
from skynet_jupyter.models.rate_limit import RATE_LIMIT_RETRIES
from tests.conformance.paths import BACKENDS, Command, not_applicable, use
from tests.openai_server import OpenAIServer

REFUSAL = 0.5  # seconds of nothing but 429s before the provider counts as refusing all
SAID = "refused every request to openai/gpt-4o-mini (HTTP 429)"


# With a pause asked for, and without (many OpenAI-compatible servers send no Retry-After:
# each 429 was retried back to back, 270 requests in 4.5 s, and the run never stopped).
@pytest.mark.parametrize("retry_after_ms", [100, None], ids=["retry-after", "no-retry-after"])
@pytest.mark.parametrize("path", not_applicable("a provider refusing everything", {}))
def test_a_provider_that_refuses_everything_stops_the_run(path, scenario, retry_after_ms):
    sj.configure(refusal_timeout=REFUSAL)  # the fixture puts it back
    scenario.server.retry_after_ms = retry_after_ms
    scenario.server.fail_next(*[429] * 10_000)  # every request, however many
    told = {"SKYNET_REFUSAL_TIMEOUT": str(REFUSAL)}  # how skynet-check is told
    outcome = use(path, scenario.but(env=told))
    if isinstance(outcome, Command):
        assert outcome.code == 1, outcome.stderr
        stop = outcome.report["stop"]
        assert stop["kind"] == PROVIDER_REFUSED and SAID in stop["sentence"]
        return
    assert outcome.stop is not None and outcome.stop.kind == PROVIDER_REFUSED, path
    assert SAID in outcome.stop.sentence and SAID in str(outcome)
    if isinstance(outcome, CheckReport):  # every case says it: those not run, those in flight
        assert outcome.cases and all(SAID in (case.error or "") for case in outcome.cases)
        assert any((case.error or "").startswith("Not run") for case in outcome.cases)
    # Far fewer requests than every case asking with all its retries: the run stopped.
    workers = 4
    assert len(scenario.server.calls()) < workers * (RATE_LIMIT_RETRIES + 1) * 2


PACED_REFUSAL = 3.0  # long enough for a few paused retries before the run stops


@pytest.mark.parametrize("path", BACKENDS)
def test_header_less_refusals_are_paced_across_the_runs_processes(path, scenario):
    """A provider answering every request with a 429 and no Retry-After gets one request
    at a time, each after the pause the 429s in a row imply, on every backend: a run's
    worker processes share the endpoint's pause (models/shared_refusals.py).  Each
    worker process paced its 429s alone: about 40 requests, in bursts as wide as the
    run's concurrency, where threads send 5."""
    sj.configure(refusal_timeout=PACED_REFUSAL)  # the fixture puts it back
    scenario.server.retry_after_ms = None
    scenario.server.fail_next(*[429] * 10_000)
    outcome = use(path, scenario.but(rows=scenario.rows * 2))
    assert outcome.stop is not None and outcome.stop.kind == PROVIDER_REFUSED, path
    # One process sends 4: at 0, 0.5, 1.5 and 3 s (the pause cut at the refusal timeout,
    # when the run stops).  Each worker alone sent 8 or 9, 5 of them before 3 s, and the
    # run stopped at 5 s.  (A case that reaches the provider only after the stop may
    # still probe it once: a loaded machine starts some late.)
    arrived = sorted(request.arrived for request in scenario.server.calls())
    together = [b - a for a, b in itertools.pairwise(arrived) if b - a < 0.05]
    before_the_stop = [t for t in arrived if t - arrived[0] < PACED_REFUSAL - 0.1]
    shown = (path, [round(t - arrived[0], 2) for t in arrived])
    assert len(before_the_stop) <= 3 and not together and len(arrived) <= 6, shown


@pytest.mark.parametrize("path", BACKENDS)
def test_a_pause_longer_than_any_call_waits_stops_the_run_at_once(path, scenario):
    """A 429 asking for an hour (a quota window) past the 300 s a call waits: no other
    request leaves, and the run stops with the pause said, on every backend.  Threads
    failed each call alone and every case asked again (20 requests, no stop)."""
    sj.configure(refusal_timeout=PACED_REFUSAL)  # the fixture puts it back
    # A server of its own: the endpoint stays closed for the hour in every worker process
    # of the session's pools, and the other tests use the module's server.
    with OpenAIServer() as closing:
        closing.retry_after_ms = 3_600_000
        closing.fail_next(*[429] * 10_000)
        outcome = use(path, scenario.but(server=closing))
        asked = len(closing.calls())
    assert outcome.stop is not None and outcome.stop.kind == PROVIDER_REFUSED, path
    assert re.search(r"asked to wait 3[5-6]\d\d s", outcome.stop.sentence), outcome.stop.sentence
    assert asked == 1, (path, asked)
