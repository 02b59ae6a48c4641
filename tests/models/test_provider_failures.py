"""Providers that hang, refuse everything or send odd headers (issue 24, items 4 and 8).

Real litellm against the loopback server (``openai_server.py``): a ``[[stall]]``
request hangs until the test releases it, ``[[status=429]]`` is always refused,
``extra_headers`` sends what a careless provider sends.  Limits are short and
set per test (``configure(refusal_timeout=...)``), so nothing waits a minute.
"""

from __future__ import annotations

import math
import time
import warnings

import httpx
import openai
import pytest

import skynet_jupyter as sj
from skynet_jupyter import ModelCallError, ModelSettings
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.i18n import t
from skynet_jupyter.models import llm as _llm
from skynet_jupyter.models import rate_limit as _rate_limit
from skynet_jupyter.run import workers
from tests.models.test_rate_limit import _wait_for
from tests.openai_server import OpenAIServer

TASK = "gpt-4o-mini"
KEY = "sk-provider-0123456789abcdef"


@pytest.fixture
def server():
    """A fresh server per test: a new port, so new endpoints and new limiters."""
    with OpenAIServer() as fresh:
        yield fresh


@pytest.fixture
def short_refusal():
    """A refusal limit of 0.6 s for this test (the default is 60 s)."""
    sj.configure(refusal_timeout=0.6)
    yield 0.6
    sj.configure(refusal_timeout=_rate_limit.REFUSAL_TIMEOUT)


def model(server: OpenAIServer) -> dict:
    return {"model": f"openai/{TASK}", "api_base": server.base_url, "api_key": KEY}


def limiter_of(server: OpenAIServer) -> _rate_limit.EndpointLimiter:
    return _rate_limit.limiter_for(*_rate_limit.endpoint_key(model(server)))


def answered(input, output, expected=None):
    return 1.0, {"feedback": "Answered."}


def ask(artifact, case):
    return llm("Label the support ticket.", case["text"])


# --- item 4: a stalled provider -----------------------------------------------------------


def test_requests_that_hang_past_the_run_limit_give_their_place_back(server):
    hung = [{"text": f"[[stall]] ticket {i}", "label": "billing"} for i in range(4)]
    models = ModelSettings(task_model=model(server))
    try:
        stalled = sj.evaluate(
            answered,
            hung,
            outputs="label",
            run=ask,
            concurrency=4,
            run_timeout=1,
            models=models,
        )
        assert not any(case.passed for case in stalled.cases)
        # The provider still holds what was sent: the threads are blocked.  The key's first
        # request went alone and hung, the others waited for its answer (issue 43) and were
        # abandoned at the same limit: one request at least, four at most.
        assert 1 <= server.stalled() <= 4
        limiter = limiter_of(server)
        # abandoned cases hold no place in the window, and nobody waits for one
        assert limiter.in_flight == 0 and limiter.waiting == 0

        healthy = [{"text": f"ticket {i}", "label": "billing"} for i in range(8)]
        report = sj.evaluate(
            answered,
            healthy,
            outputs="label",
            run=ask,
            concurrency=4,
            run_timeout=3,
            models=models,
        )

        assert [case.error for case in report.cases if not case.passed] == []
        assert len([r for r in server.calls() if "[[stall]]" not in r.text]) == 8
    finally:
        server.release_stalled()
        _wait_for(lambda: workers.blocked_threads() == 0, "the blocked threads to end")
    assert limiter_of(server).in_flight == 0  # the late answers did not count twice


def test_a_first_request_that_hangs_holds_the_others_back_two_seconds_at_most(server):
    """A key's first request goes alone (a refused key is sent once, issue 43), but a
    first request that hangs must not hold every other case until its time limit: past
    two seconds without an answer, the others go."""
    from skynet_jupyter.models.first_contact import _HOLD

    def stall_first(artifact, case):
        if "[[stall]]" not in case["text"]:
            time.sleep(0.3)  # the hung request asks first
        return llm("Label the support ticket.", case["text"])

    rows = [{"text": "[[stall]] ticket 0", "label": "billing"}]
    rows += [{"text": f"ticket {i}", "label": "billing"} for i in range(1, 4)]
    started = time.monotonic()
    finished: list[float] = []

    def told(event):
        if type(event).__name__ == "CaseFinished" and event.result.index > 0:
            finished.append(time.monotonic() - started)
            if len(finished) == 3:
                server.release_stalled()

    try:
        report = sj.evaluate(
            answered,
            rows,
            outputs="label",
            run=stall_first,
            concurrency=4,
            run_timeout=20,
            models=ModelSettings(task_model=model(server)),
            on_event=told,
        )
    finally:
        server.release_stalled()
    assert report is not None and len(finished) == 3
    assert max(finished) < _HOLD + 3, finished  # not the 20 s of the hung case's limit
    assert all(case.passed for case in report.cases[1:])


@pytest.mark.parametrize("status", [500, 503])
def test_a_server_error_on_a_keys_first_request_is_still_retried(server, status):
    """A key's first request in a run is sent without litellm's retries, so that a 403 is
    sent once (issue 43, rule 1); a server error there is sent again with its retries, as
    any call's is."""
    server.fail_next(status, status)
    report = sj.evaluate(
        answered,
        [{"text": "ticket 0", "label": "billing"}],
        outputs="label",
        run=ask,
        models=ModelSettings(task_model=model(server)),
    )
    assert [case.error for case in report.cases] == [None]
    assert [request.status for request in server.calls()] == [status, status, 200]


def test_a_403_is_sent_once_in_a_run(server):
    """litellm's retry policy cannot name an HTTP 403 (PermissionDeniedError): it retried
    it twice, three requests with a key the provider refused (issue 43, rule 1)."""
    server.reject_keys = {KEY}
    server.reject_status = 403
    rows = [{"text": f"ticket {i}", "label": "billing"} for i in range(6)]
    report = sj.evaluate(
        answered, rows, outputs="label", run=ask, concurrency=3,
        models=ModelSettings(task_model=model(server)),
    )  # fmt: skip
    assert report.stop is not None and "HTTP 403" in report.stop.sentence
    assert len(server.calls()) == 1


# --- item 8: a provider that refuses everything ------------------------------------------


@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_a_provider_that_refuses_everything_stops_the_run(server, short_refusal, isolation):
    # In processes, each worker learns the refusal limit set here and tells the run to stop.
    server.retry_after_ms = 150
    refused = [{"text": f"[[status=429]] ticket {i}", "label": "billing"} for i in range(8)]

    report = sj.evaluate(
        answered,
        refused,
        outputs="label",
        run=ask,
        concurrency=2,
        isolation=isolation,
        models=ModelSettings(task_model=model(server)),
    )

    assert len(report.cases) == 8 and not report.passed
    assert not any(case.passed for case in report.cases)
    # far fewer requests than 8 cases x 9 attempts: the run stopped
    sent = len(server.calls())
    assert sent < 2 * (_rate_limit.RATE_LIMIT_RETRIES + 1)
    said = [case.error or "" for case in report.cases]
    assert all("refused every request" in error for error in said)
    assert any("not run" in error.lower() for error in said)  # cases left are not started
    assert "configure(refusal_timeout=" in said[-1]
    assert KEY not in " ".join(said)


def test_a_success_resets_the_refusal_clock():
    """Refusals count from the first 429 after the last answer (times: sleeps of 0.6 s
    against a limit of 1 s, the limiter's own calls take microseconds)."""
    sj.configure(refusal_timeout=1.0)
    try:
        limiter = _rate_limit.EndpointLimiter("openai/refusing", "http://127.0.0.1:9")
        refusal = RuntimeError("HTTP 429")

        def refused() -> None:
            limiter.rate_limited_by(limiter.acquire(), {"retry-after-ms": "0"}, refusal)

        refused()
        time.sleep(0.6)
        limiter.succeeded(limiter.acquire(), None)  # an answer in between
        refused()
        time.sleep(0.6)
        refused()
        assert not limiter.refusing()  # 0.6 s of refusals since the answer, not 1.2 s
        time.sleep(0.6)
        refused()
        assert limiter.refusing()  # 1.2 s of nothing but refusals
        with pytest.raises(_rate_limit.Refused):  # no request, but for one probe at a time
            limiter.rate_limited_by(limiter.acquire(), {"retry-after-ms": "5000"}, refusal)
            limiter.acquire()
        assert limiter.in_flight == 0 and limiter.waiting == 0
    finally:
        sj.configure(refusal_timeout=_rate_limit.REFUSAL_TIMEOUT)


def test_the_refusal_limit_is_checked():
    with pytest.raises(ValueError, match="refusal_timeout"):
        sj.configure(refusal_timeout=math.nan)
    with pytest.raises(ValueError, match="refusal_timeout"):
        sj.configure(refusal_timeout=0)
    with pytest.raises(ValueError, match="refusal_timeout"):
        sj.configure(refusal_timeout="60")  # type: ignore[arg-type]
    assert _rate_limit.refusal_timeout() == _rate_limit.REFUSAL_TIMEOUT


def test_a_wrong_refusal_limit_is_said_in_the_users_language(monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "pt")
    for value, shown in ((-1, "-1"), ("x" * 50, repr("x" * 50)[:40])):
        with pytest.raises(ValueError) as caught:
            sj.configure(refusal_timeout=value)  # type: ignore[arg-type]
        assert str(caught.value) == t("rate.refusal_timeout_invalid", "pt", value=shown)
    assert _rate_limit.refusal_timeout() == _rate_limit.REFUSAL_TIMEOUT


def test_the_headers_of_an_error_come_from_litellm_else_its_http_response():
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    answer = httpx.Response(429, headers={"retry-after-ms": "1500"}, request=request)
    sdk_error = openai.RateLimitError("Slow down.", response=answer, body=None)  # no .headers
    assert _rate_limit.error_headers(sdk_error) is answer.headers
    assert _rate_limit.retry_after(_rate_limit.error_headers(sdk_error)) == 1.5
    sdk_error.litellm_response_headers = {"retry-after-ms": "250"}  # type: ignore[attr-defined]
    assert _rate_limit.error_headers(sdk_error) == {"retry-after-ms": "250"}
    assert _rate_limit.error_headers(RuntimeError("no answer")) is None
    own = RuntimeError("its own headers")
    own.headers = {"retry-after": "2"}  # type: ignore[attr-defined]
    assert _rate_limit.error_headers(own) == {"retry-after": "2"}


def test_a_quota_refusal_is_never_retried_and_says_why():
    quota = RuntimeError("Error code: 429 - You exceeded your current Quota.")
    assert _rate_limit.is_quota_error(quota)
    assert _rate_limit._why_not_retried(quota, 0, None, 0.0) == (
        "(Out of quota: retrying cannot help; add credit or raise the limit.)"
    )
    too_fast = RuntimeError("Error code: 429 - Rate limit reached, slow down.")
    assert not _rate_limit.is_quota_error(too_fast)
    assert _rate_limit._why_not_retried(too_fast, 0, None, 0.0) is None


# --- item 8: odd header values ------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"x-ratelimit-limit-requests": "inf", "x-ratelimit-remaining-requests": "nan"},
        {"x-ratelimit-limit-requests": "1e400", "x-ratelimit-reset-requests": "1e400s"},
        {"anthropic-ratelimit-requests-limit": "-inf"},
    ],
)
def test_non_finite_rate_headers_on_an_answer_are_ignored(server, headers):
    server.extra_headers = headers
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reply = _llm.complete(model(server), "Label.", "hello")
    assert reply.text == f"Answer from {TASK}."
    limiter = limiter_of(server)
    assert limiter.rate is None and limiter.learnt_rate is None  # nothing learnt from them
    assert any("ignored" in str(w.message) for w in caught)


def test_a_non_finite_retry_after_is_ignored(server):
    server.retry_after_ms = None
    server.extra_headers = {"Retry-After": "1e400"}
    server.fail_next(429)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reply = _llm.complete(model(server), "Label.", "hello")
    assert reply.retries == 1
    assert limiter_of(server).paused_for() == 0
    assert any("Retry-After" in str(w.message) for w in caught)


def test_a_reset_header_in_epoch_seconds_is_read_as_a_moment(server):
    in_ten = time.time() + 10
    server.extra_headers = {
        "x-ratelimit-limit-requests": "100",
        "x-ratelimit-remaining-requests": "50",
        "x-ratelimit-reset-requests": f"{in_ten:.0f}",
    }
    _llm.complete(model(server), "Label.", "hello")
    limiter = limiter_of(server)
    # 50 spent, full again in ~10 s: ~5 requests/s, not 50 / 1.7e9 (the 0.2 floor)
    assert limiter.learnt_rate is not None and 3.5 < limiter.learnt_rate < 7
    with pytest.warns(RuntimeWarning, match="x-ratelimit-reset-requests"):
        assert _rate_limit.parse_reset(f"{time.time() - 50:.0f}") is None  # a past moment


def test_odd_headers_never_stall_or_crash_a_call(server):
    server.retry_after_ms = None
    server.extra_headers = {
        "Retry-After": "nan",
        "retry-after-ms": "-inf",
        "x-ratelimit-limit-requests": "ten",
        "x-ratelimit-remaining-requests": "99999999999999999999999",
        "x-ratelimit-reset-requests": "-3s",
    }
    server.fail_next(429)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reply = _llm.complete(model(server), "Label.", "hello")
        assert reply.retries == 1 and limiter_of(server).paused_for() == 0
        with pytest.raises(ModelCallError):  # a client error: not retried, no crash
            _llm.complete(model(server), "Label.", "[[status=401]] hello")


# --- issue 26: a rate limit without rate headers ------------------------------------------


def test_a_late_429_of_the_same_burst_does_not_lengthen_the_pause():
    """Two requests in flight get 429s; this thread reads the second one late (a busy
    client): the endpoint's pause still ends a Retry-After after the first."""
    limiter = _rate_limit.EndpointLimiter("openai/bursty", "http://127.0.0.1:9")
    first, second = limiter.acquire(), limiter.acquire()
    limiter.rate_limited_by(first, {"retry-after-ms": "1000"})
    ends = limiter.paused_until
    time.sleep(0.1)
    limiter.rate_limited_by(second, {"retry-after-ms": "1000"})
    assert limiter.paused_until == ends
    assert limiter.in_flight == 0


def test_a_lone_429_at_a_known_pace_slows_down_without_pausing_everyone():
    limiter = _rate_limit.EndpointLimiter("openai/paced", "http://127.0.0.1:9")
    for _ in range(_rate_limit.MIN_LOAD + 4):  # answers under load, then the first 429
        limiter.succeeded(limiter.acquire(), None)
    limiter.rate_limited_by(limiter.acquire(), {"retry-after-ms": "50"})
    assert limiter.rate is not None and limiter.paused_for() > 0  # unknown pace: all wait
    time.sleep(0.06)
    limiter.succeeded(limiter.acquire(), None)
    pace, window = limiter.rate, limiter.window
    limiter.rate_limited_by(limiter.acquire(), {"retry-after-ms": "5000"})
    assert limiter.paused_for() == 0  # others go on, at a lower pace
    assert limiter.rate is not None and limiter.rate < pace
    assert limiter.rate == pytest.approx(pace * _rate_limit.LONE_DECREASE)  # a small step
    assert limiter.window == pytest.approx(max(1.0, window * _rate_limit.WINDOW_DECREASE))


def test_the_refused_request_itself_waits_its_retry_after(server):
    """A 429's own retry waits the pause it asked for (Retry-After: 0.3, at a known pace)."""
    server.rate_limit = 1000  # paced from the headers
    server.rate_burst = 50
    task = model(server)
    _llm.complete(task, "Label.", "hello")
    server.rate_retry_after = 0.3
    server.fail_next(429)
    reply = _llm.complete(task, "Label.", "again")
    refused, again = server.calls()[-2:]
    assert reply.retries == 1 and refused.status == 429
    assert again.arrived >= refused.answered + 0.3


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_why_a_429_is_not_retried_is_said_in_the_users_language(monkeypatch, lang):
    monkeypatch.setenv("SKYNET_LANG", lang)
    quota = RuntimeError("Error code: 429 - You exceeded your current Quota.")
    slow = RuntimeError("Error code: 429 - Rate limit reached, slow down.")
    most = f"{_rate_limit.MAX_WAIT_SECONDS:.0f}"
    retries = _rate_limit.RATE_LIMIT_RETRIES
    said = {
        (quota, 0, None, 0.0): t("rate.out_of_quota", lang),
        (slow, retries, None, 41.2): t("rate.still_limited", lang, retries=retries, seconds="41"),
        (slow, 1, 500.0, 3.0): t("rate.wait_too_long", lang, seconds=500, most=most),
        (slow, 1, None, 700.0): t("rate.limited_too_long", lang, seconds="700", most=most),
    }
    for arguments, sentence in said.items():
        assert _rate_limit._why_not_retried(*arguments) == sentence
    assert len(set(said.values())) == 4
    if lang != "en":  # the words differ from English, not only the numbers
        assert t("rate.out_of_quota", lang) != t("rate.out_of_quota", "en")
