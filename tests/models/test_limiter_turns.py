"""The limiter's own bookkeeping, driven in process: what each answer, 429 and abandoned
call changes (the pace, the window, the refusal streak, the places in flight).

The end-to-end behaviour is in test_rate_limit.py against a real server; these pin the
steps one by one, with only the clock's real time (a few hundred milliseconds)."""

from __future__ import annotations

import threading
import time

import pytest

import skynet_jupyter as sj
from skynet_jupyter.models import rate_limit as _rate_limit


def paced_without_headers() -> _rate_limit.EndpointLimiter:
    """A limiter that found its pace from a burst of answers and a first 429, then answered."""
    limiter = _rate_limit.EndpointLimiter("openai/paced", "http://127.0.0.1:9")
    for _ in range(_rate_limit.MIN_LOAD + 4):
        limiter.succeeded(limiter.acquire(), None)
    limiter.rate_limited_by(limiter.acquire(), {"retry-after-ms": "50"})
    time.sleep(0.06)
    limiter.succeeded(limiter.acquire(), None)
    return limiter


def test_429s_after_an_answer_are_lone_until_four_in_a_row():
    limiter = paced_without_headers()
    for _ in range(_rate_limit.IN_A_ROW - 1):  # an answer reset the count: these are lone
        pace = limiter.rate
        limiter.rate_limited_by(limiter.acquire(), {"retry-after-ms": "5000"})
        assert limiter.paused_for() == 0
        assert limiter.rate == pytest.approx(pace * _rate_limit.LONE_DECREASE)
    pace = limiter.rate
    limiter.rate_limited_by(limiter.acquire(), {"retry-after-ms": "5000"})
    assert limiter.paused_for() > 4  # in a row: every request waits, at a real step down
    assert limiter.rate == pytest.approx(pace * _rate_limit.RATE_DECREASE)


@pytest.mark.alone  # the pace is measured over one second
def test_the_first_pace_is_what_succeeded_over_the_last_second():
    limiter = _rate_limit.EndpointLimiter("openai/spread", "http://127.0.0.1:9")
    limiter.succeeded(limiter.acquire(), None)
    first = time.monotonic()
    for _ in range(7):  # eight answers over ~0.6 s: the span counts from the first
        time.sleep(0.085)
        limiter.succeeded(limiter.acquire(), None)
    limiter.rate_limited_by(limiter.acquire(), None)
    span = time.monotonic() - first
    assert limiter.rate == pytest.approx(8 / span * _rate_limit.FIRST_DECREASE, rel=0.04)


def test_a_429_with_rate_headers_sets_the_pace_from_them():
    limiter = _rate_limit.EndpointLimiter("openai/headers", "http://127.0.0.1:9")
    said = {
        "x-ratelimit-limit-requests": "600",
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": "6s",
    }
    limiter.rate_limited_by(limiter.acquire(), said)
    expected = _rate_limit.request_limit(said)
    assert expected is not None and expected.rate is not None
    assert limiter.learnt_rate == pytest.approx(expected.rate)


def test_the_window_grows_when_it_was_full_and_not_otherwise():
    limiter = _rate_limit.EndpointLimiter("openai/window", "http://127.0.0.1:9")
    start = limiter.window
    limiter.succeeded(limiter.acquire(), None)  # one request of four at most: not limited
    assert limiter.window == start
    permits = [limiter.acquire() for _ in range(int(start))]  # the window full
    limiter.succeeded(permits.pop(), None)  # 3 in flight + this one: it was full
    assert limiter.window == start + 1  # slow start: one more per answer
    for permit in permits:
        limiter.succeeded(permit, None)


def test_a_refusal_long_after_the_last_starts_a_new_streak():
    sj.configure(refusal_timeout=0.2)
    try:
        limiter = _rate_limit.EndpointLimiter("openai/streak", "http://127.0.0.1:9")
        limiter.rate_limited_by(limiter.acquire(), None)  # no Retry-After: 0.5 s implied
        # Longer than the limit and the pause the 429 implied: idle, not refusing.
        time.sleep(0.2 + _rate_limit.BACKOFF + 0.25)
        limiter.rate_limited_by(limiter.acquire(), None)
        assert not limiter.refusing()
        began = time.monotonic()
        # The next request waits for the pause the last 429 implied (cut to when the
        # refusals reach the limit), then gets a 429 too: the limit of nothing but 429s.
        limiter.rate_limited_by(limiter.acquire(), None)
        assert time.monotonic() - began >= 0.2 - 0.05
        assert limiter.refusing()
    finally:
        sj.configure(refusal_timeout=_rate_limit.REFUSAL_TIMEOUT)


def test_a_call_abandoned_while_waiting_for_its_turn_frees_its_place():
    limiter = _rate_limit.EndpointLimiter("openai/turn", "http://127.0.0.1:9")
    limiter._set_rate(1.0)  # one request a second: the second waits for its turn
    held = [limiter.acquire(), limiter.acquire()]  # the first now, the second a second later
    waiting = _rate_limit._Call(limiter)
    outcome: list[BaseException] = []

    def wait_for_turn() -> None:
        try:
            limiter.acquire(waiting)
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=wait_for_turn)
    thread.start()
    deadline = time.monotonic() + 5
    while limiter.in_flight < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    limiter.give_back(waiting)
    thread.join(5)
    assert [type(exc) for exc in outcome] == [_rate_limit.Abandoned]
    assert limiter.in_flight == len(held) and limiter.waiting == 0
    for permit in held:
        limiter.succeeded(permit, None)
    assert limiter.in_flight == 0


def test_a_finished_call_leaves_nothing_for_abandon_to_find():
    # One entry per thread while a call is out; none after, or each pool thread keeps one.
    call = {"model": "openai/finished", "api_base": "http://127.0.0.1:9"}
    sent = _rate_limit.send(call, lambda: "answer")
    assert sent.response == "answer" and sent.retries == 0
    assert threading.get_ident() not in _rate_limit._calls


def test_a_low_bucket_slows_the_pace_the_headers_give():
    limiter = _rate_limit.EndpointLimiter("openai/bucket", "http://127.0.0.1:9")
    said = {
        "x-ratelimit-limit-requests": "100",
        "x-ratelimit-remaining-requests": "10",  # a tenth left: 0.75 + 0.5 x 0.1 of the pace
        "x-ratelimit-reset-requests": "6s",
    }
    limiter.failed(limiter.acquire(), said)  # learns from the headers, and nothing else
    learnt = _rate_limit.request_limit(said)
    assert learnt is not None and learnt.rate is not None
    expected = learnt.rate * _rate_limit.START_HEADROOM * 0.8
    assert limiter.rate == pytest.approx(expected)


def test_a_request_waiting_for_its_turn_when_a_pause_begins_goes_when_the_pause_ends():
    limiter = _rate_limit.EndpointLimiter("openai/pause", "http://127.0.0.1:9")
    said = {
        "x-ratelimit-limit-requests": "100",
        "x-ratelimit-remaining-requests": "90",  # 10 spent over 5 s: 2 requests/s
        "x-ratelimit-reset-requests": "5s",
    }
    limiter.failed(limiter.acquire(), said)  # the pace is known: a 429 pauses everyone
    first = limiter.acquire()  # goes now; the next one's turn is about half a second away
    sent: list[float] = []
    thread = threading.Thread(target=lambda: sent.append(limiter.acquire().sent), daemon=True)
    thread.start()
    time.sleep(0.1)
    limiter.rate_limited_by(first, {"retry-after-ms": "1200"})
    paused_until = limiter.paused_until
    thread.join(5)
    try:
        assert sent and sent[0] >= paused_until  # it waited out the pause, then went
    finally:
        with limiter._cond:  # a thread still asleep (a broken wait) is let go
            limiter._cond.notify_all()
