"""One rate limiter per model endpoint, shared by every worker thread of the process.

A provider that allows N requests a second answers the N+1th with HTTP 429.
Retrying each 429 on its own thread (what a plain client does) keeps hitting
the limit: on a large evaluation, cases fail with rate-limit errors and the run
crawls.  Here every ``llm()`` call to a litellm model goes through the limiter
of its endpoint (the model string and ``api_base``; never the API key), which:

- paces requests with a token bucket (GCRA) whose rate is read from the
  provider's headers (OpenAI's ``x-ratelimit-{limit,remaining,reset}-requests``,
  Anthropic's ``anthropic-ratelimit-requests-{limit,remaining,reset}``): a
  bucket refilling continuously at ``rate`` answers ``remaining`` with the
  time ``reset`` until it is full again, so ``rate = (limit - remaining) /
  reset``; it paces at 90-95 % of that, less while the provider says its
  bucket is low, 15 % less after a burst of 429s (growing back by 0.5 % per
  answer).  Without those headers, the first 429 sets the pace just below the
  rate that succeeded before it (the provider was saturated), then the pace
  searches for the provider's rate: every half second of 429-free pacing it
  moves halfway to the pace the last 429 came at, and above that only after a
  second without any 429; a lone 429 takes off 4 %, 429s in a row 15 %;
- bounds the requests at the provider (a concurrency window) the way TCP
  does: it starts at 4, grows by one per answer until the first 429 (slow
  start), then by one per window of answers; a burst of 429s takes off 30 %;
- honours ``Retry-After`` / ``retry-after-ms``: the refused request is retried
  only once its pause is over, and no request leaves for that endpoint, from
  any thread, before the pause ends while the pace is unknown, when the headers
  give it, or when 429s come in a row.  A lone 429 at a pace found without
  headers slows the pace instead (pausing every thread would cost each the
  whole Retry-After); the first burst's pause, once it set the pace, lasts only
  until the provider's bucket refilled a few requests; and a 429 to a request sent
  before the current pause began (answered then, read late by a busy client)
  does not lengthen it.  A 429 without those headers while the pace is still
  unknown pauses the endpoint as if it had asked for 0.5 s, doubled for each 429
  in a row (8 s at most): never retried back to back.  A run's worker processes
  share that pause, and take turns while it lasts (``shared_refusals``);
- retries a 429 itself (litellm's own 429 retries are off), at most
  :data:`RATE_LIMIT_RETRIES` times and :data:`MAX_WAIT_SECONDS` in all, and never a
  quota error (retrying cannot fix it);
- stops sending to a provider that refused every request for
  :func:`refusal_timeout` seconds (``configure(refusal_timeout=...)``, 60 by
  default): calls fail at once (one probe at a time still goes once its pause
  is over, so a provider that recovers is used again), and the run stops
  (the case context's ``stop_run``: the run's threads, or a worker process,
  which tells its parent), its cases so far kept;
- gives back the place of a request whose case was abandoned past its time
  limit while the request hangs (:func:`abandon`, called by the workers): a
  stalled provider does not hold later checks back;
- ignores, with a warning, header values that are not finite numbers
  (``Retry-After: 1e400``, ``x-ratelimit-limit-requests: inf``) or a negative pause
  (``Retry-After: -5``: paced as a 429 without one, not retried at once), and reads a
  reset header in epoch seconds as the moment it is.

"A burst of 429s" is what one decision caused: every request records the
decrease count when it leaves, and only a 429 to a request sent after the last
decrease lowers the rate and the window again (TCP reacts once per window, not
once per lost packet).

:func:`waiting` is how many threads are held back right now (for the live
views); :func:`send` returns the number of 429 retries of the call.
"""

from __future__ import annotations

import email.utils
import math
import os
import re
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.secrets import redact
from ..i18n import resolve_lang, t
from .case_context import current_case

if TYPE_CHECKING:
    from .shared_refusals import SharedStreak

__all__ = [
    "MAX_WAIT_SECONDS",
    "RATE_LIMIT_RETRIES",
    "REFUSAL_TIMEOUT",
    "Abandoned",
    "CallFailed",
    "Closed",
    "EndpointLimiter",
    "Refused",
    "abandon",
    "endpoint_key",
    "limiter_for",
    "limiters",
    "parse_reset",
    "refusal_timeout",
    "reset_refusal_timeout",
    "send",
    "set_refusal_timeout",
    "waiting",
]

RATE_LIMIT_RETRIES = 8  # 429s one call may retry before it fails
MAX_WAIT_SECONDS = 300.0  # a call that got 429s gives up after this long in all
# An endpoint that refused every request for this long (seconds) gets no more requests
# (but one probe at a time), and the run stops: configure(refusal_timeout=...).
REFUSAL_TIMEOUT = 60.0

INITIAL_WINDOW = 4.0  # requests at the provider before anything is known
MAX_WINDOW = 1024.0
WINDOW_DECREASE = 0.7  # as CUBIC (TCP's 0.5 halves a window that pacing mostly bounds)
RATE_DECREASE = 0.85  # header-less, paced: 429s in a row, 15 % slower
LONE_DECREASE = 0.96  # header-less, paced: a lone 429 between answers, 4 % slower
# With the rate known from headers, a 429 says the jitter of this machine and network
# was too much for the provider's bucket at this pace, not that the rate is wrong:
# 15 % slower, and a ceiling 5 % lower for the rest of the process.
HEADROOM_DECREASE = 0.85
FIRST_DECREASE = 0.85  # header-less: the first pace, under the rate that succeeded
HEADROOM = 0.95  # pace at most at 95 % of the rate the headers allow (jitter, other clients)
START_HEADROOM = 0.9
MIN_RATE = 0.2  # requests/s: a limiter never stalls completely
# The header-less path paces only when the 429s came under load: at least this many
# answers succeeded in the last second (one stray 429 must not slow a quiet endpoint).
MIN_LOAD = 4
# Header-less and paced: every PROBE_EVERY seconds of 429-free pacing, the pace moves
# halfway to the pace the last 429s came at (a search, not a creep upward per answer); 20 %
# above it only after PROBE_ABOVE seconds without any 429 (the limit may have risen).
PROBE_EVERY = 0.5
PROBE_STEP = 1.2
PROBE_ABOVE = 1.0  # seconds without a 429 before the pace goes above where 429s came
# 429s answered in a row (no success between) that pause the whole endpoint once paced:
# fewer are a bunch of requests this machine's jitter sent at once.
IN_A_ROW = 4
REFILL = 4.0  # requests: the first burst's whole-endpoint pause lasts until this many refill
# A 429 without Retry-After while the pace is unknown (too few answers to set one): the
# endpoint pauses as if the provider had asked for BACKOFF seconds, doubled for each 429
# in a row, BACKOFF_MOST at most (retried back to back, 270 requests went in 4.5 s).
BACKOFF = 0.5
BACKOFF_MOST = 8.0
_SAMPLES = 32  # rate estimates kept (the smallest is the closest to the truth, see _learn)

T = TypeVar("T")

# --- provider headers -------------------------------------------------------------

_PREFIX = "llm_provider-"  # litellm's prefix for the provider's raw headers
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*(ns|us|µs|ms|h|m|s)?", re.IGNORECASE)
_NUMBER = re.compile(r"\s*[-+]?(\d|\.\d|inf|nan)", re.IGNORECASE)  # not an HTTP date
_UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
# OpenAI's out-of-credit 429 (its rate-limit 429s may link to the billing page: not a sign)
_QUOTA = ("insufficient_quota", "exceeded your current quota")
_EPOCH = 1e9  # a reset "duration" past this (31 years) is a moment, in epoch seconds
_LONGEST_RESET = 86400.0 * 31  # a bucket refilling in more than a month: not believed


def header(headers: Mapping[str, Any] | None, name: str) -> str | None:
    """The value of header ``name`` in ``headers`` (litellm's ``llm_provider-`` copies too)."""
    if not headers:
        return None
    for key in (name, _PREFIX + name):
        value = headers.get(key)
        if value is not None:
            return str(value)
    lowered = {str(k).lower(): v for k, v in headers.items()}
    for key in (name, _PREFIX + name):
        if key in lowered:
            return str(lowered[key])
    return None


def ignored(name: str, value: str) -> None:
    """Say once (a warning) that header ``name`` had a value we cannot use, and go on
    without it: a provider's odd header never crashes nor stalls a call."""
    shown = redact(value)
    shown = shown if len(shown) <= 40 else shown[:40] + "…"
    warnings.warn(
        t("rate.header_ignored", resolve_lang(), header=name, value=shown),
        RuntimeWarning,
        stacklevel=2,
    )


def _finite(text: str, name: str) -> float | None:
    """``text`` as a finite number, or None (said once when it is not a number we can use)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isfinite(value):
        return value
    ignored(name, text)
    return None


def parse_duration(text: str | None) -> float | None:
    """Seconds in a Go-style duration (``"1s"``, ``"6m0s"``, ``"20ms"``, ``"0.5"``), or None."""
    if not text:
        return None
    text = text.strip()
    total, end = 0.0, 0
    for match in _DURATION.finditer(text):
        if match.start() != end:
            return None
        total += float(match.group(1)) * _UNIT[(match.group(2) or "s").lower()]
        end = match.end()
    return total if end == len(text) and end and math.isfinite(total) else None


def parse_reset(text: str | None, now: float | None = None) -> float | None:
    """Seconds until a request bucket is full again: a duration (OpenAI's ``"1s"``,
    ``"6m0s"``), or a moment some providers send instead, in epoch seconds (or
    milliseconds); None when unknown.  A moment read as a duration would pace at
    the 0.2 requests/s floor: 1.7e9 seconds to refill."""
    seconds = parse_duration(text)
    if seconds is None or seconds < _EPOCH:
        if seconds is None and text and text.strip():
            ignored("x-ratelimit-reset-requests", text)
        return seconds
    moment = seconds / 1000.0 if seconds > _EPOCH * 1000 else seconds
    left = moment - (time.time() if now is None else now)
    if 0 < left <= _LONGEST_RESET:
        return left
    assert text is not None
    ignored("x-ratelimit-reset-requests", text)
    return None


def _until(timestamp: str | None, now: float) -> float | None:
    """Seconds from now to an RFC 3339 or HTTP date, or None."""
    if not timestamp:
        return None
    text = timestamp.strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            moment = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    if moment.tzinfo is None:  # a date without a zone is UTC in HTTP
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp() - now


def retry_after(headers: Mapping[str, Any] | None) -> float | None:
    """The pause a 429 asks for, in seconds: ``retry-after-ms``, else ``Retry-After``
    (seconds or an HTTP date), else None."""
    millis = header(headers, "retry-after-ms")
    if millis is not None:
        found = _finite(millis, "retry-after-ms")
        if found is not None and found < 0:
            ignored("retry-after-ms", millis)
        elif found is not None:
            return found / 1000.0
    value = header(headers, "retry-after")
    if value is None:
        return None
    if _NUMBER.match(value):
        seconds = _finite(value, "Retry-After")
        if seconds is not None and seconds < 0:  # not a pause: said, and paced without it
            ignored("Retry-After", value)
            return None
        return seconds
    waited = _until(value, time.time())
    if waited is None or not math.isfinite(waited):
        ignored("Retry-After", value)
        return None
    return max(0.0, waited)


@dataclass(frozen=True, slots=True)
class RequestLimit:
    """What a provider said of its request limit: the bucket's size, what is left, and
    the seconds until it is full again (each None when not said)."""

    limit: int | None
    remaining: int | None
    reset: float | None

    @property
    def rate(self) -> float | None:
        """Requests/s the bucket refills at, or None when the headers cannot tell."""
        if self.limit is None or self.remaining is None or not self.reset or self.reset <= 0:
            return None
        spent = self.limit - self.remaining
        rate = spent / self.reset if spent > 0 else math.nan
        return rate if math.isfinite(rate) else None


def _count(headers: Mapping[str, Any] | None, name: str) -> int | None:
    """Header ``name`` as a count of requests (0 or more), or None (said once when odd)."""
    text = header(headers, name)
    if text is None:
        return None
    value = _finite(text, name)
    if value is None:
        return None
    if value < 0:
        ignored(name, text)
        return None
    return int(value)


def request_limit(headers: Mapping[str, Any] | None) -> RequestLimit | None:
    """The request limit in OpenAI's or Anthropic's headers, or None."""
    if not headers:
        return None
    limit = _count(headers, "x-ratelimit-limit-requests")
    if limit is not None:
        remaining = _count(headers, "x-ratelimit-remaining-requests")
        reset = parse_reset(header(headers, "x-ratelimit-reset-requests"))
        return RequestLimit(limit, remaining, reset)
    limit = _count(headers, "anthropic-ratelimit-requests-limit")
    if limit is not None:
        remaining = _count(headers, "anthropic-ratelimit-requests-remaining")
        reset = _until(header(headers, "anthropic-ratelimit-requests-reset"), time.time())
        return RequestLimit(limit, remaining, reset)
    return None


def response_headers(response: Any) -> Mapping[str, Any] | None:
    """The provider's headers of a litellm answer (``_hidden_params["additional_headers"]``)."""
    hidden = getattr(response, "_hidden_params", None)
    if isinstance(hidden, Mapping):
        found = hidden.get("additional_headers")
        if isinstance(found, Mapping):
            return found
    return None


def error_headers(error: BaseException) -> Mapping[str, Any] | None:
    """The provider's headers of a litellm error: ``litellm_response_headers``, else those
    of the ``httpx`` response the error carries."""
    for found in (
        getattr(error, "litellm_response_headers", None),
        getattr(getattr(error, "response", None), "headers", None),
        getattr(error, "headers", None),
    ):
        if isinstance(found, Mapping):  # httpx.Headers is a Mapping
            return found
    return None


def is_rate_limited(error: BaseException) -> bool:
    """A 429 answer (litellm's ``RateLimitError``, or any error with status 429)."""
    if getattr(error, "status_code", None) == 429:
        return True
    return any(cls.__name__ == "RateLimitError" for cls in type(error).__mro__)


def is_quota_error(error: BaseException) -> bool:
    """A 429 that means "out of credit", not "too fast": retrying cannot fix it."""
    text = f"{getattr(error, 'message', '')} {error}".lower()
    return any(word in text for word in _QUOTA)


# --- the limiter --------------------------------------------------------------------


@dataclass(slots=True)
class Permit:
    """One request let through: when, and after how many decreases (see the module doc).

    ``released``: its place in the window was given back (answered, or its case
    abandoned: see :func:`abandon`); a late answer does not give it back twice.
    """

    decreases: int
    sent: float
    released: bool = False
    probe: bool = False  # the one request let through to a provider that refuses all


class Closed(Exception):
    """The provider asked for a pause longer than any call waits (``MAX_WAIT_SECONDS``):
    no request goes until it ends, and the run stops.  ``seconds``: what is left of it."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"closed for {seconds:.0f} s")
        self.seconds = seconds


class Refused(Exception):
    """The endpoint refused every request for its refusal timeout: no request is sent."""


class Abandoned(Exception):
    """The case of the thread waiting for its turn was abandoned (past its time limit)."""


@dataclass(slots=True)
class _Call:
    """One :func:`send` in progress on a thread: its permit, and whether its case was
    abandoned (then it gives its place back, and stops waiting for one)."""

    limiter: EndpointLimiter
    permit: Permit | None = None
    abandoned: bool = False
    not_before: float = 0.0  # its retry waits for the pause its 429 asked for (monotonic)


class EndpointLimiter:
    """Paces and bounds the requests to one model endpoint (see the module docstring).

    Thread-safe; get the shared one with :func:`limiter_for`.
    """

    def __init__(self, model: str, api_base: str = "") -> None:
        self.model = model
        self.api_base = api_base
        lock = threading.Lock()
        self._cond = threading.Condition(lock)  # a place in the window, the end of a pause
        self._turn = threading.Condition(lock)  # paced sleepers (woken when abandoned)
        self.window = INITIAL_WINDOW
        self.slow_start = True
        self.in_flight = 0  # let through and not answered yet (pacing sleeps included)
        self.waiting = 0  # threads held back right now
        self._window_waiters = 0
        self.rate: float | None = None  # requests/s paced at; None: not paced
        self.learnt_rate: float | None = None  # what the provider's headers say
        # Requests let through at once (GCRA's burst): one, evenly spaced, so the provider's
        # own burst is left to absorb this machine's jitter between us and its bucket.
        self.burst = 1
        # Pace at this share of the learnt rate: a little under it at first, 15 % lower
        # after a burst of 429s, then back up by 0.5 % per answer to a ceiling that each
        # burst lowers by 5 % (the machine's jitter decides how close is safe).
        self._headroom = START_HEADROOM
        self._ceiling = HEADROOM
        self._fill = 1.0  # 0.75 .. 1: how full the provider says its bucket is
        self._samples: deque[float] = deque(maxlen=_SAMPLES)
        self._tat = 0.0  # GCRA's theoretical arrival time of the next request
        # Header-less: the lowest pace a burst of 429s came at (the search's upper end),
        # when the pace last changed, and the 429s answered in a row (no success between).
        self._too_fast: float | None = None
        self._changed = 0.0
        self._refused_in_row = 0
        self._pause_began = 0.0  # when the current (or last) pause was set
        self.paused_until = 0.0
        # A pause asked for past MAX_WAIT_SECONDS (a quota window): until then no request
        # leaves and every call fails at once (held threads would only wait to fail).
        self.closed_until = 0.0
        self._pauses = 0  # counts pauses: a paced sleeper re-queues after one
        self.decreases = 0
        self._answers: deque[float] = deque()  # success times in the last second
        self.requests = 0
        self.rate_limited = 0  # 429s received
        self.retries = 0  # 429s retried
        # Refusals since the last success: the first and the latest (monotonic), the pause
        # the latest asked for, and its error (what calls that are not sent fail with).
        self._refused_since: float | None = None
        self._refused_last = 0.0
        self._refused_pause = 0.0
        self.last_refusal: BaseException | None = None
        self._probe_out = False  # the one request let through to a refusing provider

    def __repr__(self) -> str:
        where = f" at {self.api_base}" if self.api_base else ""
        rate = "not paced" if self.rate is None else f"{self.rate:.1f} req/s"
        return (
            f"EndpointLimiter({self.model}{where}: {rate}, window {self.window:.1f}, "
            f"{self.in_flight} in flight, {self.waiting} waiting)"
        )

    # --- letting requests through ----------------------------------------------------

    def acquire(self, call: _Call | None = None) -> Permit:
        """Wait for the end of any pause, a place in the window, and the request's turn.

        Raises :class:`Refused` when the provider has refused every request for
        :attr:`refusal_timeout` (one probe at a time still goes, once its pause is
        over), :class:`Abandoned` when ``call``'s case was abandoned meanwhile.
        """
        with self._cond:
            self.waiting += 1
            try:
                self._wait_for_window(call)
                self.in_flight += 1
            except BaseException:
                self.waiting -= 1
                raise
        try:
            return self._wait_for_turn(call)
        except BaseException:
            with self._cond:
                self.in_flight -= 1
                self._cond.notify()
            raise
        finally:
            with self._cond:
                self.waiting -= 1

    def _may_go(self, call: _Call | None, now: float) -> None:
        # Called with the lock held: raise when this request must not leave at all.
        if call is not None and call.abandoned:
            raise Abandoned
        if now < self.closed_until:
            raise Closed(self.closed_until - now)
        if self._refusing() and (self._probe_out or now < self.paused_until):
            raise Refused

    def _wait_for_window(self, call: _Call | None) -> None:
        # Called with the lock held.
        while True:
            now = time.monotonic()
            self._may_go(call, now)
            if call is not None and now < call.not_before:
                # (on the other condition: an answer's notify() is for the window's waiters)
                self._turn.wait(call.not_before - now)
            elif now < self.paused_until:
                self._cond.wait(self.paused_until - now)
            elif self.in_flight >= int(self.window):
                self._window_waiters += 1
                try:
                    self._cond.wait(1.0)  # notified on each answer; the timeout is a safety net
                finally:
                    self._window_waiters -= 1
            else:
                return

    def _wait_for_turn(self, call: _Call | None) -> Permit:
        """Reserve the next paced send time, sleep to it (the lock released), and go
        unless a pause began meanwhile (then queue again after it)."""
        with self._cond:
            while True:
                now = time.monotonic()
                self._may_go(call, now)
                if now < self.paused_until:
                    self._cond.wait(self.paused_until - now)
                    continue
                start = now
                if self.rate is not None:
                    interval = 1.0 / self.rate
                    start = max(now, self._tat - (self.burst - 1) * interval)
                    self._tat = max(self._tat, now) + interval
                pauses = self._pauses
                while now < start and not (call is not None and call.abandoned):
                    self._turn.wait(start - now)
                    now = time.monotonic()
                if self._pauses == pauses and now >= self.paused_until:
                    self._may_go(call, now)
                    return self._let_through(call, now)

    def _let_through(self, call: _Call | None, now: float) -> Permit:
        # Called with the lock held.
        self.requests += 1
        permit = Permit(self.decreases, now, probe=self._refusing())
        if permit.probe:
            self._probe_out = True
        if call is not None:
            call.permit = permit
        return permit

    def give_back(self, call: _Call) -> None:
        """``call``'s case was abandoned: its place in the window is free again (the
        provider may still answer: that answer is not counted twice), and, waiting for
        a place or its turn, it stops waiting (:class:`Abandoned`)."""
        with self._cond:
            call.abandoned = True
            if call.permit is not None:
                self._release(call.permit)
            self._cond.notify_all()
            self._turn.notify_all()

    # --- a provider that refuses everything ---------------------------------------------

    @property
    def refusal_timeout(self) -> float:
        """Seconds of nothing but 429s after which no request is sent (but one probe at
        a time): ``configure(refusal_timeout=...)``, 60 by default."""
        return refusal_timeout()

    def _refusing(self) -> bool:
        # Called with the lock held.
        since = self._refused_since
        return since is not None and self._refused_last - since >= refusal_timeout()

    def refusing(self) -> bool:
        """The provider refused every request for :attr:`refusal_timeout` seconds."""
        with self._cond:
            return self._refusing()

    def refusal_note(self) -> str:
        """The sentence a call that is not sent (or not retried) says."""
        return t(
            "rate.refused_everything",
            resolve_lang(),
            model=self.model,
            seconds=f"{refusal_timeout():g}",
        )

    def _refused(self, error: BaseException | None, now: float, pause: float | None) -> None:
        # Called with the lock held: a 429.  A refusal long after the last one (longer
        # than the limit and the pause it asked for) starts a new streak: the endpoint
        # was idle, not refusing.
        if self._refused_since is None or (
            now - self._refused_last > refusal_timeout() + self._refused_pause
        ):
            self._refused_since = now
        was = self._refusing()
        self._refused_last, self._refused_pause = now, pause or 0.0
        if error is not None:
            self.last_refusal = error
        if self._refusing() and not was:
            self._cond.notify_all()  # the threads held back fail now, instead of waiting

    # --- answers ------------------------------------------------------------------------

    def succeeded(self, permit: Permit, headers: Mapping[str, Any] | None) -> None:
        """An answer came back: learn from its headers, grow the window and the rate."""
        with self._cond:
            now = time.monotonic()
            self._release(permit)
            self._refused_since = None  # the provider answers: not refusing everything
            self._refused_in_row = 0
            self._answers.append(now)
            self._learn(request_limit(headers), now)
            window_limited = self._window_waiters > 0 or self.in_flight + 1 >= int(self.window)
            if window_limited and self.window < MAX_WINDOW:
                grown = self.window + (1.0 if self.slow_start else 1.0 / self.window)
                if int(grown) > int(self.window):
                    self._cond.notify()
                self.window = min(MAX_WINDOW, grown)
            if self.learnt_rate is not None:
                self._ceiling = min(HEADROOM, self._ceiling + 0.0005)
                if self._headroom < self._ceiling:
                    self._headroom = min(self._ceiling, self._headroom + 0.005)
                    self._set_rate(self.learnt_rate * self._headroom * self._fill)
            elif self.rate is not None:
                self._probe_up(now)

    def failed(self, permit: Permit, headers: Mapping[str, Any] | None) -> None:
        """Another error (not a 429): learn what the headers say, nothing else."""
        with self._cond:
            self._release(permit)
            self._learn(request_limit(headers), time.monotonic())

    def rate_limited_by(
        self,
        permit: Permit,
        headers: Mapping[str, Any] | None,
        error: BaseException | None = None,
    ) -> float | None:
        """A 429 (``error``): pause the endpoint as asked, and slow down once per burst
        of 429s.  Returns the pause asked for (seconds), or None."""
        pause = retry_after(headers)
        with self._cond:
            now = time.monotonic()
            self._release(permit)
            self._refused(error, now, pause)
            self.rate_limited += 1
            self._learn(request_limit(headers), now, rate_limited=True)
            self._refused_in_row += 1
            everyone = self._pauses_everyone(permit)
            unknown = self.rate is None
            if permit.decreases == self.decreases:  # the first 429 since the last decrease
                self._decrease(now)
            if (pause is None or pause <= 0) and self.rate is None:  # "now" is no pace
                pause = self._implied_pause(now)
                self._refused_pause = pause  # a refusal streak spans the pauses it implies
            # A pause longer than any call waits (a quota spent for the day) fails the
            # calls instead (see send): held threads would only wait to fail.
            if pause is not None and pause > MAX_WAIT_SECONDS and everyone:
                self.closed_until = max(self.closed_until, now + pause)
                self._cond.notify_all()
                self._turn.notify_all()
            if pause is not None and pause <= MAX_WAIT_SECONDS and everyone:
                hold = pause
                if unknown and self.rate is not None:
                    # The first burst under load set the pace: the refused requests wait
                    # their Retry-After each; the others only until the provider's bucket
                    # has a few requests again at that pace (a bucket refills at its rate,
                    # whatever the Retry-After of a request it refused).
                    hold = min(pause, REFILL / self.rate)
                if now + hold > self.paused_until:
                    self.paused_until = now + hold
                    self._pause_began = now
                    self._pauses += 1
                    self._tat = max(self._tat, self.paused_until)
        return pause

    def _implied_pause(self, now: float) -> float:
        """The pause a 429 without Retry-After implies (called with the lock held)."""
        since = now if self._refused_since is None else self._refused_since
        return implied_pause(self._refused_in_row, since, now, refusal_timeout())

    def _pauses_everyone(self, permit: Permit) -> bool:
        """Whether this 429's pause holds back every request to the endpoint (its own
        retry waits for it in any case, see :func:`send`).

        Yes while the pace is unknown, when the provider's headers give the rate (a 429
        is rare then, and the pause lets its bucket fill again), and when 429s come in
        a row (the provider refuses more than a pace a little too fast explains).  No
        for a lone 429 between answers at a pace found without headers: slowing down is
        the remedy, and a whole-endpoint pause would cost every thread the full
        Retry-After.  No for a request sent before the current pause began: its 429
        belongs to that burst (answered then, read late by a busy client), and
        extending the pause would hold everyone back twice.
        """
        if permit.sent < self._pause_began:
            return False
        if self.rate is None or self.learnt_rate is not None:
            return True
        return self._refused_in_row >= IN_A_ROW

    def _probe_up(self, now: float) -> None:
        # Header-less and paced, called on a success: search for the provider's rate
        # between this pace (it holds) and the lowest one that got 429s.  Only while the
        # pace binds (requests wait for their turn): a slow client proves nothing.
        assert self.rate is not None
        if now - self._changed < PROBE_EVERY or now - self._refused_last < PROBE_EVERY:
            return
        if self._tat < now:  # nobody waited for a turn lately
            return
        ceiling = self._too_fast
        if ceiling is not None and self.rate < ceiling * 0.97:
            self._set_rate((self.rate + ceiling) / 2)
        elif now - self._refused_last >= PROBE_ABOVE:  # the limit may have risen
            self._set_rate(self.rate * PROBE_STEP)
            self._too_fast = None
        else:
            return
        self._changed = now

    def _release(self, permit: Permit) -> None:
        if permit.probe:
            self._probe_out = False
        if permit.released:  # its case was abandoned: given back already
            return
        permit.released = True
        self.in_flight -= 1
        self._cond.notify()

    def _decrease(self, now: float) -> None:
        self.decreases += 1
        self.slow_start = False
        self.window = max(1.0, self.window * WINDOW_DECREASE)
        if self.learnt_rate is not None:
            self._ceiling = max(0.5, self._ceiling * 0.95)
            self._headroom = max(0.1, self._headroom * HEADROOM_DECREASE)
            self._set_rate(self.learnt_rate * self._headroom * self._fill)
            return
        if self.rate is not None:
            # A lone 429 at a known pace is this machine's jitter meeting an empty
            # bucket as often as a pace too fast: a small step down, one turn skipped
            # (a token to refill).  429s in a row: a real step down.
            self._too_fast = self.rate
            lone = self._refused_in_row < IN_A_ROW
            self._set_rate(self.rate * (LONE_DECREASE if lone else RATE_DECREASE))
            self._tat = max(self._tat, now) + 1.0 / self.rate
        else:
            # Header-less and not paced yet: start just below what succeeded in the last
            # second, if the endpoint was under load (else one stray 429 would throttle it).
            while self._answers and self._answers[0] < now - 1.0:
                self._answers.popleft()
            if len(self._answers) < MIN_LOAD:
                return
            span = max(0.25, min(1.0, now - self._answers[0]))
            # What succeeded before the first 429 is about the provider's rate (it was
            # saturated; the bucket's burst counts too, so it is an upper end).
            succeeded = len(self._answers) / span
            self._too_fast = succeeded
            self._set_rate(succeeded * FIRST_DECREASE)
        self._changed = now

    def _learn(self, said: RequestLimit | None, now: float, rate_limited: bool = False) -> None:
        """Pace at the rate the provider's headers give, never above what it says is left."""
        if said is None:
            return
        rate = said.rate
        if rate is not None:
            # remaining is rounded down, so (limit - remaining) / reset over-estimates the
            # rate, never under: the smallest recent estimate is the closest.
            self._samples.append(rate)
            self.learnt_rate = min(self._samples)
        if said.limit and said.remaining is not None:
            # Slower while the provider's bucket is low: it refills by the difference
            # (at 95 % alone, a bucket emptied by a bunch of late requests refills at 5 %).
            self._fill = min(1.0, 0.75 + 0.5 * max(0, said.remaining) / said.limit)
        if self.learnt_rate is not None:
            self._set_rate(self.learnt_rate * self._headroom * self._fill)
        if self.rate is not None and said.remaining is not None:
            left = 0 if rate_limited else said.remaining
            interval = 1.0 / self.rate
            # At most `left` requests may leave at once from now on.
            self._tat = max(self._tat, now + (self.burst - left) * interval)
        # drop answers older than a second (they estimate the header-less rate)
        while self._answers and self._answers[0] < now - 1.0:
            self._answers.popleft()

    def _set_rate(self, rate: float) -> None:
        self.rate = max(MIN_RATE, rate)

    # --- for views -----------------------------------------------------------------------

    def paused_for(self) -> float:
        """Seconds until the provider's pause ends (0: not paused)."""
        return max(0.0, self.paused_until - time.monotonic())


# --- the registry --------------------------------------------------------------------------

_limiters: dict[tuple[str, str], EndpointLimiter] = {}
_registry_lock = threading.Lock()
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@")


def endpoint_key(call: Mapping[str, Any]) -> tuple[str, str]:
    """(model, api_base) of litellm completion arguments; the base URL without
    credentials or query (the key, if any, stays out)."""
    base = call.get("api_base") or call.get("base_url") or ""
    base = _USERINFO.sub(r"\1", str(base)).split("?", 1)[0].split("#", 1)[0].rstrip("/")
    return str(call.get("model", "")), base


def _forget_in_child() -> None:
    """A forked child paces its own requests: new limiters, and a new registry lock (one
    another thread held at the fork would stay held forever there)."""
    global _registry_lock
    _registry_lock = threading.Lock()
    _limiters.clear()
    _calls.clear()


def limiter_for(model: str, api_base: str = "") -> EndpointLimiter:
    """The process's one limiter for this endpoint (made on first use)."""
    key = (model, api_base)
    with _registry_lock:
        found = _limiters.get(key)
        if found is None:
            found = _limiters[key] = EndpointLimiter(model, api_base)
        return found


def limiters() -> list[EndpointLimiter]:
    """Every endpoint's limiter made in this process."""
    with _registry_lock:
        return list(_limiters.values())


def waiting() -> int:
    """Threads held back by a provider's rate limit right now, all endpoints together."""
    return sum(limiter.waiting for limiter in limiters())


class _Refusal:
    timeout: float | None = None  # what configure(refusal_timeout=...) set, for the process


def refusal_timeout() -> float:
    """Seconds a provider may refuse every request (HTTP 429) before calls to it stop:
    ``configure(refusal_timeout=...)``, else ``SKYNET_REFUSAL_TIMEOUT`` (how ``skynet-check``
    and worker processes are told), else 60."""
    if _Refusal.timeout is not None:
        return _Refusal.timeout
    return _refusal_from_environment()


def _refusal_from_environment() -> float:
    import os

    text = os.environ.get("SKYNET_REFUSAL_TIMEOUT", "").strip()
    try:
        seconds = float(text) if text else REFUSAL_TIMEOUT
    except ValueError:
        return REFUSAL_TIMEOUT  # not a number: the default (configure() says why, not here)
    return seconds if math.isfinite(seconds) and seconds > 0 else REFUSAL_TIMEOUT


def reset_refusal_timeout() -> None:
    """Forget what ``configure(refusal_timeout=...)`` set: the environment's, else 60."""
    _Refusal.timeout = None


def set_refusal_timeout(seconds: float) -> None:
    """Set :func:`refusal_timeout` (``configure(refusal_timeout=...)``); a sentence when
    ``seconds`` is not a positive, finite number of seconds."""
    number = isinstance(seconds, int | float) and not isinstance(seconds, bool)
    if not number or not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(
            t("rate.refusal_timeout_invalid", resolve_lang(), value=repr(seconds)[:40])
        )
    _Refusal.timeout = float(seconds)


# --- abandoned cases -----------------------------------------------------------------------

_calls: dict[int, _Call] = {}  # thread id -> its send() in progress (set and popped by it)


def abandon(thread_id: int | None) -> None:
    """The case on thread ``thread_id`` was abandoned past its time limit, still blocked
    (in a request that hangs, or waiting for one): its request gives its place in the
    window back, so later calls to that endpoint are not held back by it, and it sends
    nothing more."""
    call = _calls.get(thread_id) if thread_id is not None else None
    if call is not None:
        call.limiter.give_back(call)
    from .first_contact import release_thread

    release_thread(thread_id)  # a first call it made no longer holds the others back


# --- one call -----------------------------------------------------------------------------


class CallFailed(Exception):
    """A call failed: ``error`` is the provider's error, ``retries`` the 429s retried
    before it, ``note`` a sentence on why the 429s were not retried further."""

    def __init__(
        self, error: BaseException, retries: int, note: str = "", refused: bool = False
    ) -> None:
        super().__init__(str(error))
        self.error = error
        self.retries = retries
        self.note = note
        self.refused = refused  # the provider refused everything: the run stops


@dataclass(frozen=True, slots=True)
class Sent:
    """The answer of :func:`send`, and how many 429s were retried to get it."""

    response: Any
    retries: int


def _backoff(in_a_row: int) -> float:
    """The pause a 429 without Retry-After implies while the pace is unknown: BACKOFF
    seconds, doubled for each 429 in a row before it, BACKOFF_MOST at most."""
    return min(BACKOFF_MOST, BACKOFF * 2.0 ** min(max(in_a_row - 1, 0), 16))


def implied_pause(in_a_row: int, since: float, now: float, timeout: float) -> float:
    """The pause the ``in_a_row``-th 429 in a row without a usable Retry-After implies,
    while the pace is unknown, in a streak of refusals that began at ``since``: the
    backoff, cut so that the next request goes when the refusals have lasted ``timeout``
    (the run stops then, not a doubled pause later).  Past that moment the whole
    backoff: what still asks is a probe, not a stream (cut, it went every 0.05 s)."""
    pause = _backoff(in_a_row)
    left = since + timeout - now
    if left > 0:
        pause = min(pause, max(0.05, left))
    return pause


def send(call: Mapping[str, Any], request: Callable[..., T]) -> Sent:
    """Make ``request()`` (one ``litellm.completion`` with the arguments ``call``)
    through its endpoint's limiter, retrying 429s; raises :class:`CallFailed`.

    In a run, a key is tried once (``first_contact``): the first call with it goes
    alone, and once refused it is not sent again (a :class:`CallFailed` whose error is
    the refusal, marked not sent).
    """
    context = current_case.get()
    contact = None if context is None else context.first_contact
    if contact is None:
        return _send(call, request)
    from .first_contact import RefusedBefore
    from .shared_refusals import SharedStreak

    endpoint = endpoint_key(call)
    # The run's worker processes take turns at an endpoint that refuses (shared_refusals).
    shared = SharedStreak.of(contact.folder, endpoint)
    try:
        return contact.send(call, endpoint, lambda: _first_send(call, request, shared))
    except RefusedBefore as before:
        raise CallFailed(before, 0) from None


def _first_send(
    call: Mapping[str, Any], request: Callable[..., T], shared: SharedStreak | None
) -> Sent:
    """A key's first call in a run: once, without litellm's retries, so that a refusal is
    sent once (litellm retries an HTTP 403, which its retry policy cannot name); any
    other failure is then sent again as every call is, with its retries."""
    policy = call.get("retry_policy")
    if not isinstance(policy, Mapping) or not any(policy.values()):
        return _send(call, request, shared)  # no retries asked: the call is sent once anyway
    once = {**call, "retry_policy": dict.fromkeys(policy, 0)}
    try:
        return _send(once, lambda: request(once), shared)
    except CallFailed as failed:
        if failed.refused or not _retried_by_litellm(failed.error):
            raise
    return _send(call, request, shared)


# What litellm's retry policy (``llm.retry_policy``) never retries, and a key refusal.
_NEVER_RETRIED = frozenset(
    {
        "AuthenticationError",
        "PermissionDeniedError",
        "BadRequestError",
        "NotFoundError",
        "ContentPolicyViolationError",
        "RateLimitError",  # this limiter's own (_send)
        "Timeout",
        "APITimeoutError",
    }
)


def _retried_by_litellm(error: BaseException) -> bool:
    """Whether a call that failed with ``error`` would have been retried: a server error
    (5xx) or a lost connection, nothing the provider answered about the request."""
    if {cls.__name__ for cls in type(error).__mro__} & _NEVER_RETRIED:
        return False
    status = getattr(error, "status_code", None)
    return not isinstance(status, int) or status >= 500


def _send(
    call: Mapping[str, Any], request: Callable[[], T], shared: SharedStreak | None = None
) -> Sent:
    limiter = limiter_for(*endpoint_key(call))
    began = time.monotonic()
    retries = 0
    mine = _Call(limiter)
    thread = threading.get_ident()
    _calls[thread] = mine  # for abandon(): one call at a time per thread
    try:
        while True:
            try:
                permit = _permit(limiter, mine, shared)
            except Closed as closed:
                error = limiter.last_refusal or RuntimeError("HTTP 429")
                raise _closed(limiter, error, retries, closed.seconds) from None
            except Refused:
                error = limiter.last_refusal or RuntimeError("HTTP 429")
                _stop_the_run(limiter)
                raise CallFailed(error, retries, limiter.refusal_note(), refused=True) from None
            try:
                response = request()
            except Exception as error:
                if not is_rate_limited(error):
                    limiter.failed(permit, error_headers(error))
                    _answered(shared)
                    raise CallFailed(error, retries) from None
                pause, refusing = _rate_limited(limiter, permit, error, shared)
                mine.not_before = time.monotonic() + (pause or 0.0)  # honoured, paused or not
                if refusing:
                    _stop_the_run(limiter)
                    raise CallFailed(error, retries, limiter.refusal_note(), refused=True) from None
                failed = _not_retried(limiter, error, retries, pause, time.monotonic() - began)
                if failed is not None:
                    raise failed from None
                retries += 1
                with limiter._cond:
                    limiter.retries += 1
                continue
            except BaseException:
                limiter.failed(permit, None)  # interrupted: the place in the window is freed
                raise
            limiter.succeeded(permit, response_headers(response))
            _answered(shared)
            return Sent(response, retries)
    finally:
        if _calls.get(thread) is mine:
            del _calls[thread]


def _permit(limiter: EndpointLimiter, mine: _Call, shared: SharedStreak | None) -> Permit:
    """This process's permit, then the turn among the run's processes while the endpoint
    refuses (shared_refusals): in that order, so that a turn taken is never held while
    this process's own pause or window keeps the request back."""
    permit = limiter.acquire(mine)
    if shared is None:
        return permit
    try:
        shared.take_turn(
            refusal_timeout(),
            abandoned=lambda: mine.abandoned,
            refused=Refused,
            gone=Abandoned,
            longest=MAX_WAIT_SECONDS,
            closed=Closed,
        )
    except BaseException:
        limiter.failed(permit, None)  # not sent: its place in the window is free again
        raise
    return permit


def _answered(shared: SharedStreak | None) -> None:
    """The provider answered (not a 429): the streak the run's processes share is over."""
    if shared is not None:
        shared.answered()


def _rate_limited(
    limiter: EndpointLimiter, permit: Permit, error: BaseException, shared: SharedStreak | None
) -> tuple[float | None, bool]:
    """A 429: the limiter learns it, and so do the run's other processes while the pace is
    unknown.  Returns the pause to wait before retrying, and whether the provider has
    refused everything for the refusal timeout (the run stops)."""
    headers = error_headers(error)
    pause = limiter.rate_limited_by(permit, headers, error)
    refusing = limiter.refusing()
    if shared is not None and limiter.rate is None:
        asked = retry_after(headers)
        refusing = shared.refused(asked, refusal_timeout(), implied_pause) or refusing
    return pause, refusing


def _not_retried(
    limiter: EndpointLimiter,
    error: BaseException,
    retries: int,
    pause: float | None,
    spent: float,
) -> CallFailed | None:
    """How this 429 ends the call, or None to retry it."""
    if pause is not None and pause > MAX_WAIT_SECONDS and not is_quota_error(error):
        return _closed(limiter, error, retries, pause)
    note = _why_not_retried(error, retries, pause, spent)
    return None if note is None else CallFailed(error, retries, note)


def _closed(
    limiter: EndpointLimiter, error: BaseException, retries: int, seconds: float
) -> CallFailed:
    """The provider asked for a pause longer than any call waits: this call fails, with the
    pause said, and so does the run (every case would fail the same way)."""
    most = f"{MAX_WAIT_SECONDS:.0f}"
    said = {"model": limiter.model, "seconds": math.ceil(seconds), "most": most}
    _stop_the_run(limiter, t("rate.not_run_closed", resolve_lang(), **said))
    note = t("rate.wait_too_long", resolve_lang(), seconds=math.ceil(seconds), most=most)
    return CallFailed(error, retries, note, refused=True)


def _stop_the_run(limiter: EndpointLimiter, sentence: str | None = None) -> None:
    """The provider refuses everything (or, ``sentence``, asks for a longer pause than any
    call waits): the run this call belongs to starts no more cases (told through the case
    context: by the run's threads, or by a worker process's parent)."""
    context = current_case.get()
    stop = None if context is None else context.stop_run
    if stop is None:
        return
    if sentence is None:
        seconds = f"{refusal_timeout():g}"
        sentence = t("rate.not_run_refused", resolve_lang(), model=limiter.model, seconds=seconds)
    stop(sentence)


def _why_not_retried(
    error: BaseException, retries: int, pause: float | None, spent: float
) -> str | None:
    """Why this 429 ends the call (a sentence in the user's language), or None to retry it."""
    if is_quota_error(error):
        return t("rate.out_of_quota", resolve_lang())
    if retries >= RATE_LIMIT_RETRIES:
        return t("rate.still_limited", resolve_lang(), retries=retries, seconds=f"{spent:.0f}")
    if pause is not None and spent + pause > MAX_WAIT_SECONDS:
        more, most = math.ceil(pause), f"{MAX_WAIT_SECONDS:.0f}"
        return t("rate.wait_too_long", resolve_lang(), seconds=more, most=most)
    if spent > MAX_WAIT_SECONDS:
        said = {"seconds": f"{spent:.0f}", "most": f"{MAX_WAIT_SECONDS:.0f}"}
        return t("rate.limited_too_long", resolve_lang(), **said)
    return None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
