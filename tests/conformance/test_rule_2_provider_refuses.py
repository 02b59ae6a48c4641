"""Rule 2: a provider that refuses everything (HTTP 429 for the refusal limit) stops the
run, on every path: no further case starts, the cases not run say the provider's
sentence, the run's ``stop`` says it, and the tool stops with it.
"""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.report import PROVIDER_REFUSED, CheckReport
from skynet_jupyter.models.rate_limit import RATE_LIMIT_RETRIES
from tests.conformance.paths import Command, not_applicable, use

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
