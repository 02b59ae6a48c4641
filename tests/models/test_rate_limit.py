"""The shared rate limiter: every case finishes against a provider that rate-limits.

Everything goes through litellm to the loopback server (``openai_server.py``)
with its token bucket on: 40 requests/s per model, a burst of 5, then 429 with
``Retry-After: 1``.  No assertion depends on how fast this machine is: only on
what the server received, in what order, and what the limiter counted.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import defaultdict

import pytest

import skynet_jupyter as sj
from skynet_jupyter import ModelCallError, ModelSettings
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.models import case_context
from skynet_jupyter.models import llm as _llm
from skynet_jupyter.models import rate_limit as _rate_limit
from tests.openai_server import OpenAIServer, Recorded

TASK, JUDGE = "gpt-4o-mini", "gpt-4o"
KEY = "sk-ratelimit-0123456789abcdef"
CASES = 160


@pytest.fixture
def server():
    """A fresh server per test: a new port, so new endpoints and new limiters."""
    with OpenAIServer() as fresh:
        yield fresh


def model(server: OpenAIServer, name: str) -> dict:
    return {"model": f"openai/{name}", "api_base": server.base_url, "api_key": KEY}


def rows(count: int = CASES) -> list[dict]:
    return [{"text": f"ticket {i}", "label": "billing"} for i in range(count)]


def ask_task(artifact, case):
    return llm("Label the support ticket.", case["text"])


class Retries:
    """What each case's context counted: the metric reads it (run and judge retries)."""

    def __init__(self, judge: bool) -> None:
        self.judge = judge
        self.run: dict[str, int] = {}
        self.judged: dict[str, int] = {}
        self.lock = threading.Lock()

    def __call__(self, input, output, expected=None):
        if self.judge:  # the case's text again: the server's records say which case asked
            llm("Answer PASS or FAIL.", input["text"])
        ctx = case_context.current_case.get()
        with self.lock:
            self.run[input["text"]] = ctx.run_usage.retries
            if self.judge:
                self.judged[input["text"]] = ctx.judge_usage.retries
        return 1.0, {"feedback": "Answered."}


def limiter_of(server: OpenAIServer, name: str) -> _rate_limit.EndpointLimiter:
    (found,) = [
        limiter
        for limiter in _rate_limit.limiters()
        if limiter.api_base == server.base_url.rstrip("/") and limiter.model == f"openai/{name}"
    ]
    return found


def assert_retry_after_honoured(requests: list[Recorded]) -> None:
    """Each 429's request came again only once the pause it asked for was over."""
    by_text: dict[str, list[Recorded]] = defaultdict(list)
    for request in sorted(requests, key=lambda r: r.arrived):
        by_text[request.text].append(request)
    for attempts in by_text.values():
        for refused, again in itertools.pairwise(attempts):
            assert refused.status == 429 and refused.retry_after is not None
            assert again.arrived >= refused.answered + refused.retry_after


def assert_every_case_answered(server: OpenAIServer, name: str, counted: dict[str, int]) -> None:
    calls = server.calls(name)
    answered = [r for r in calls if r.status == 200]
    refused = [r for r in calls if r.status == 429]
    assert len(answered) == CASES and len(calls) == CASES + len(refused)
    assert {r.status for r in calls} <= {200, 429}
    # the retries each case counted are the 429s its requests got, case by case
    refused_per_case: dict[str, int] = defaultdict(int)
    for request in refused:
        refused_per_case[request.messages[-1]["content"]] += 1
    assert len(counted) == CASES
    assert {text: n for text, n in counted.items() if n} == dict(refused_per_case)
    assert_retry_after_honoured(calls)
    # one limiter for the endpoint, shared by every worker: it let every request through
    limiter = limiter_of(server, name)
    assert limiter.requests == len(calls) and limiter.rate_limited == len(refused)
    assert limiter.retries == len(refused) and limiter.waiting == 0 and limiter.in_flight == 0


# --- every case finishes ---------------------------------------------------------------


@pytest.mark.parametrize("concurrency", [16, 64])
def test_every_case_finishes_against_a_rate_limited_task_model(server, concurrency):
    server.rate_limit = 40
    counted = Retries(judge=False)

    report = sj.evaluate(
        counted,
        rows(),
        outputs="label",
        run=ask_task,
        concurrency=concurrency,
        models=ModelSettings(task_model=model(server, TASK)),
    )

    assert [case for case in report.cases if not case.passed] == []
    assert len(report.cases) == CASES
    assert_every_case_answered(server, TASK, counted.run)
    limiter = limiter_of(server, TASK)
    # the provider's headers gave the rate: the limiter paces just under it
    assert limiter.learnt_rate == pytest.approx(40, rel=0.05)
    assert limiter.rate is not None and limiter.rate < 40


def test_every_case_finishes_with_a_rate_limited_judge_too(server):
    server.rate_limit = 40
    counted = Retries(judge=True)

    report = sj.evaluate(
        counted,
        rows(),
        outputs="label",
        run=ask_task,
        concurrency=64,
        models=ModelSettings(task_model=model(server, TASK), metric_model=model(server, JUDGE)),
    )

    assert [case for case in report.cases if not case.passed] == []
    assert_every_case_answered(server, TASK, counted.run)
    assert_every_case_answered(server, JUDGE, counted.judged)
    assert limiter_of(server, TASK) is not limiter_of(server, JUDGE)  # limited apart


def test_without_rate_limit_headers_aimd_finds_the_pace(server):
    server.rate_limit = 40
    server.rate_headers = False
    counted = Retries(judge=False)

    report = sj.evaluate(
        counted,
        rows(),
        outputs="label",
        run=ask_task,
        concurrency=16,
        models=ModelSettings(task_model=model(server, TASK)),
    )

    assert [case for case in report.cases if not case.passed] == []
    assert_every_case_answered(server, TASK, counted.run)
    limiter = limiter_of(server, TASK)
    assert limiter.learnt_rate is None  # nothing learnt from headers: AIMD alone
    assert limiter.rate_limited > 0  # the slow start found the limit, and
    assert limiter.decreases >= 1 and limiter.rate is not None  # the limiter paces since


# --- Retry-After, waiting count, bounds ----------------------------------------------------


def test_retry_after_holds_back_every_thread_until_the_pause_ends(server):
    server.retry_after_ms = 2000
    server.fail_next(429)
    task = model(server, TASK)
    replies: dict[str, _llm.ModelReply] = {}

    def ask(text: str) -> None:
        replies[text] = _llm.complete(task, "Label the support ticket.", text)

    first = threading.Thread(target=ask, args=("I was charged twice.",))
    first.start()
    limiter = _wait_for(lambda: _find(server, TASK), "the first request's limiter")
    _wait_for(lambda: limiter.paused_for() > 0, "the 429's pause")
    second = threading.Thread(target=ask, args=("The app crashes.",))
    second.start()
    seen = _wait_for(
        lambda: "both held" if _rate_limit.waiting() >= 2 else limiter.paused_for() == 0,
        "two threads held back",
    )
    first.join(30)
    second.join(30)

    assert _rate_limit.waiting() == 0
    assert seen == "both held" and limiter.paused_for() == 0
    refused, *later = sorted(server.requests, key=lambda r: r.arrived)
    assert refused.status == 429 and refused.retry_after == 2.0
    assert [r.status for r in later] == [200, 200]
    # no request at all left before the pause was over: neither the retry nor the newcomer
    assert all(r.arrived >= refused.answered + 2.0 for r in later)
    assert replies["I was charged twice."].retries == 1
    assert replies["The app crashes."].retries == 0


def test_rate_limit_retries_are_bounded_and_end_in_a_clear_error(server):
    task = model(server, TASK)

    with pytest.raises(ModelCallError) as caught:
        _llm.complete(task, "Label.", "[[status=429]] always refused")

    error = caught.value
    assert error.status_code == 429 and error.kind == "RateLimitError"
    assert error.retries == _rate_limit.RATE_LIMIT_RETRIES
    assert len(server.requests) == _rate_limit.RATE_LIMIT_RETRIES + 1
    assert f"after {_rate_limit.RATE_LIMIT_RETRIES} retries" in str(error)
    assert "lower the concurrency, or ask the provider for a higher limit" in str(error)
    assert KEY not in str(error)


def test_a_pause_longer_than_a_call_waits_fails_at_once(server):
    server.retry_after_ms = int((_rate_limit.MAX_WAIT_SECONDS + 60) * 1000)
    server.fail_next(429)

    with pytest.raises(ModelCallError, match=r"asked to wait 360 s more") as caught:
        _llm.complete(model(server, TASK), "Label.", "hello")

    assert caught.value.retries == 0 and len(server.requests) == 1


def test_retries_count_in_the_case_usage_also_when_the_call_fails(server, tickets):
    server.fail_next(429, 400)  # one 429 retried, then a client error that is not
    seen: list[int] = []

    def run(artifact, case):
        try:
            return llm("Label the support ticket.", case["text"])
        finally:
            seen.append(case_context.current_case.get().run_usage.retries)

    report = sj.evaluate(
        lambda input, output, expected=None: (1.0, {"feedback": "ok"}),
        tickets[:1],
        outputs="label",
        run=run,
        concurrency=1,
        models=ModelSettings(task_model=model(server, TASK)),
    )

    assert [r.status for r in server.requests] == [429, 400]
    assert seen == [1]
    assert "ModelCallError" in report.cases[0].error and "after 1 retry" in report.cases[0].error


# --- headers and keys ------------------------------------------------------------------------


def test_provider_headers_are_read_as_openai_and_anthropic_send_them():
    openai = _rate_limit.request_limit(
        {
            "llm_provider-x-ratelimit-limit-requests": "500",
            "llm_provider-x-ratelimit-remaining-requests": "499",
            "llm_provider-x-ratelimit-reset-requests": "120ms",
        }
    )
    assert openai == _rate_limit.RequestLimit(500, 499, 0.12)
    assert openai.rate == pytest.approx(1 / 0.12)
    in_a_second = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 10))
    anthropic = _rate_limit.request_limit(
        {
            "anthropic-ratelimit-requests-limit": "50",
            "anthropic-ratelimit-requests-remaining": "40",
            "anthropic-ratelimit-requests-reset": in_a_second,
        }
    )
    assert anthropic is not None and (anthropic.limit, anthropic.remaining) == (50, 40)
    assert 8 < anthropic.reset <= 10 and 1.0 <= anthropic.rate < 1.3
    assert _rate_limit.parse_duration("6m0s") == 360
    assert _rate_limit.parse_duration("1.5s") == 1.5
    assert _rate_limit.parse_duration("soon") is None
    assert _rate_limit.retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert _rate_limit.retry_after({"Retry-After": "2"}) == 2.0
    assert _rate_limit.retry_after({}) is None


def test_the_endpoint_key_holds_no_secret():
    key = _rate_limit.endpoint_key(
        {
            "model": "openai/gpt-4o-mini",
            "api_base": "https://user:hunter2-password@llm.example.com/v1/?key=AIzaSECRET#x",
            "api_key": KEY,
        }
    )
    assert key == ("openai/gpt-4o-mini", "https://llm.example.com/v1")
    assert _rate_limit.endpoint_key({"model": "m"}) == ("m", "")


# --- helpers -------------------------------------------------------------------------------


def _find(server: OpenAIServer, name: str) -> _rate_limit.EndpointLimiter | None:
    found = [
        limiter
        for limiter in _rate_limit.limiters()
        if limiter.api_base == server.base_url.rstrip("/") and limiter.model == f"openai/{name}"
    ]
    return found[0] if found else None


def _wait_for(condition, what: str, limit: float = 30.0):
    """Poll ``condition`` until it holds (its value), or fail naming ``what``."""
    give_up = time.monotonic() + limit
    while time.monotonic() < give_up:
        value = condition()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError(f"waited {limit:.0f} s for {what}")


def test_the_report_counts_retries_per_case_and_the_view_shows_the_wait(server):
    from skynet_jupyter.notebook.widgets import LiveView
    from skynet_jupyter.show.render import report_text

    server.retry_after_ms = 1500
    server.fail_next(429)
    view = LiveView(kind="eval", lang="en")
    seen: list[str] = []
    stop = threading.Event()

    def watch() -> None:  # what the browser would be sent, read while the run waits
        while not stop.is_set():
            if "held back by the provider" in view.head.value:
                seen.append(view.head.value)
                return
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        report = sj.evaluate(
            lambda input, output, expected=None: (1.0, {"feedback": "Answered."}),
            rows(4),
            outputs="label",
            run=ask_task,
            concurrency=2,
            models=ModelSettings(task_model=model(server, TASK)),
            on_event=view.on_event,
        )
    finally:
        stop.set()
        watcher.join(10)
    assert report.passed
    assert sum(case.retries for case in report.cases) == 1 == report.retries
    assert sorted(case.retries for case in report.cases) == [0, 0, 0, 1]
    assert report.to_frame()["retries"].sum() == 1
    assert "1 rate-limit retry" in report_text(report, width=0)
    assert seen, "the live view never said the run was held back"
    assert "held back by the provider" not in view.head.value  # over now
