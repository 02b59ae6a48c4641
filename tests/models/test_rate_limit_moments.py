"""Reset moments and ``Retry-After`` dates as providers send them: seconds from now.

A date without a zone is UTC (HTTP's rule), whatever the machine's zone is: the
tests run in a zone far from UTC so a local reading would be hours off.
"""

from __future__ import annotations

import linecache
import time
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from skynet_jupyter.models import rate_limit as _rate_limit

NOW = datetime(2026, 1, 1, tzinfo=UTC).timestamp()


@pytest.fixture(autouse=True)
def far_from_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    "moment",
    [
        "2026-01-01T00:00:10Z",
        "2026-01-01T00:00:10+00:00",
        "2026-01-01T02:00:10+02:00",  # another zone: its own offset, not UTC's
        " 2026-01-01T00:00:10 ",  # no zone: UTC
        "Thu, 01 Jan 2026 00:00:10 GMT",  # an HTTP date
        "Thu, 01 Jan 2026 09:00:10 +0900",
        "Thu, 01 Jan 2026 00:00:10 -0000",  # an HTTP date with no zone: UTC
    ],
)
def test_a_moment_is_the_seconds_from_now_to_it(moment: str):
    assert _rate_limit._until(moment, NOW) == 10.0


@pytest.mark.parametrize("moment", [None, "", "soon", "Thu, 99 Foo"])
def test_what_is_no_moment_is_none(moment: str | None):
    assert _rate_limit._until(moment, NOW) is None


def test_retry_after_and_anthropic_reset_read_http_dates_and_iso_moments():
    later = time.time() + 30
    http_date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(later))
    assert 25 < (_rate_limit.retry_after({"Retry-After": http_date}) or 0) <= 30
    iso = datetime.fromtimestamp(later, UTC).replace(tzinfo=None).isoformat()  # no zone: UTC
    limit = _rate_limit.request_limit(
        {
            "anthropic-ratelimit-requests-limit": "50",
            "anthropic-ratelimit-requests-remaining": "20",
            "anthropic-ratelimit-requests-reset": iso,
        }
    )
    assert limit is not None and 25 < (limit.reset or 0) <= 30


def test_a_limiter_says_its_endpoint_pace_and_queue():
    limiter = _rate_limit.EndpointLimiter("openai/m")
    window = f"window {_rate_limit.INITIAL_WINDOW:.1f}"
    said = f"EndpointLimiter(openai/m: not paced, {window}, 0 in flight, 0 waiting)"
    assert repr(limiter) == said
    limiter = _rate_limit.EndpointLimiter("openai/m", "http://127.0.0.1:9/v1")
    limiter.rate, limiter.in_flight, limiter.waiting = 2.25, 3, 1
    assert repr(limiter) == (
        f"EndpointLimiter(openai/m at http://127.0.0.1:9/v1: 2.2 req/s, {window}, "
        "3 in flight, 1 waiting)"
    )


def test_an_odd_header_is_one_warning_quoting_it_short_and_without_secrets():
    said = "skynet_jupyter: the provider's Retry-After header said {}, which is not a usable "
    said += "number; it is ignored (the rate limiter goes on without it)."
    values = {
        "soon": "'soon'",
        "x" * 41: repr("x" * 40 + "…"),
        "x" * 40: repr("x" * 40),
        "Bearer sk-abcdefghijklmnopqrstuv": "'Bearer [redacted]'",
        "-5": "'-5'",  # no pause: read as 0, each 429 was retried at once (a flood)
    }
    for value, shown in values.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert _rate_limit.retry_after({"Retry-After": value}) is None
        assert [(w.category, str(w.message)) for w in caught] == [
            (RuntimeWarning, said.format(shown))
        ]


def test_an_odd_header_warning_points_at_the_reader_that_found_it():
    # stacklevel=2: the line shown with the warning is where the header was read (or,
    # under mutmut, its trampoline), never the warnings.warn call inside ignored().
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _rate_limit.retry_after({"Retry-After": "soon"}) is None
    (warning,) = caught
    shown = linecache.getline(warning.filename, warning.lineno).strip()
    assert shown and not shown.startswith("warnings.warn(")
    assert shown == 'ignored("Retry-After", value)' or "mutmut" in warning.filename
