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
  answer).  Without those headers, the rate is found by AIMD: the first 429s
  set it just below the rate that succeeded, each success adds a little,
  each burst of 429s takes off 30 %;
- bounds the requests at the provider (a concurrency window) the way TCP
  does: it starts at 4, grows by one per answer until the first 429 (slow
  start), then by one per window of answers; a burst of 429s takes off 30 %;
- honours ``Retry-After`` / ``retry-after-ms``: no request leaves for that
  endpoint, from any thread, before the pause ends;
- retries a 429 itself (litellm's own 429 retries are off), at most
  :data:`RATE_LIMIT_RETRIES` times and :data:`MAX_WAIT_SECONDS` in all, and never a
  quota error (retrying cannot fix it).

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
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

__all__ = [
    "MAX_WAIT_SECONDS",
    "RATE_LIMIT_RETRIES",
    "CallFailed",
    "EndpointLimiter",
    "endpoint_key",
    "limiter_for",
    "limiters",
    "send",
    "waiting",
]

RATE_LIMIT_RETRIES = 8  # 429s one call may retry before it fails
MAX_WAIT_SECONDS = 300.0  # a call that got 429s gives up after this long in all

INITIAL_WINDOW = 4.0  # requests at the provider before anything is known
MAX_WINDOW = 1024.0
WINDOW_DECREASE = 0.7  # as CUBIC (TCP's 0.5 halves a window that pacing mostly bounds)
RATE_DECREASE = 0.7  # a burst of 429s: 30 % slower (rate found by AIMD)
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
_SAMPLES = 32  # rate estimates kept (the smallest is the closest to the truth, see _learn)

T = TypeVar("T")

# --- provider headers -------------------------------------------------------------

_PREFIX = "llm_provider-"  # litellm's prefix for the provider's raw headers
_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*(ns|us|µs|ms|h|m|s)?", re.IGNORECASE)
_UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
# OpenAI's out-of-credit 429 (its rate-limit 429s may link to the billing page: not a sign)
_QUOTA = ("insufficient_quota", "exceeded your current quota")


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
    return total if end == len(text) and end else None


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
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = header(headers, "retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    waited = _until(value, time.time())
    return None if waited is None else max(0.0, waited)


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
        return spent / self.reset if spent > 0 else None


def _int(text: str | None) -> int | None:
    try:
        return None if text is None else int(float(text))
    except ValueError:
        return None


def request_limit(headers: Mapping[str, Any] | None) -> RequestLimit | None:
    """The request limit in OpenAI's or Anthropic's headers, or None."""
    limit = _int(header(headers, "x-ratelimit-limit-requests"))
    if limit is not None:
        remaining = _int(header(headers, "x-ratelimit-remaining-requests"))
        reset = parse_duration(header(headers, "x-ratelimit-reset-requests"))
        return RequestLimit(limit, remaining, reset)
    limit = _int(header(headers, "anthropic-ratelimit-requests-limit"))
    if limit is not None:
        remaining = _int(header(headers, "anthropic-ratelimit-requests-remaining"))
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
    """One request let through: when, and after how many decreases (see the module doc)."""

    decreases: int
    sent: float


class EndpointLimiter:
    """Paces and bounds the requests to one model endpoint (see the module docstring).

    Thread-safe; get the shared one with :func:`limiter_for`.
    """

    def __init__(self, model: str, api_base: str = "") -> None:
        self.model = model
        self.api_base = api_base
        self._cond = threading.Condition(threading.Lock())
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
        self._increase = 1.0  # requests/s added per second of successes (header-less)
        self.paused_until = 0.0
        self._pauses = 0  # counts pauses: a paced sleeper re-queues after one
        self.decreases = 0
        self._answers: deque[float] = deque()  # success times in the last second
        self.requests = 0
        self.rate_limited = 0  # 429s received
        self.retries = 0  # 429s retried

    def __repr__(self) -> str:
        where = f" at {self.api_base}" if self.api_base else ""
        rate = "not paced" if self.rate is None else f"{self.rate:.1f} req/s"
        return (
            f"EndpointLimiter({self.model}{where}: {rate}, window {self.window:.1f}, "
            f"{self.in_flight} in flight, {self.waiting} waiting)"
        )

    # --- letting requests through ----------------------------------------------------

    def acquire(self) -> Permit:
        """Wait for the end of any pause, a place in the window, and the request's turn."""
        with self._cond:
            self.waiting += 1
            try:
                self._wait_for_window()
                self.in_flight += 1
            except BaseException:
                self.waiting -= 1
                raise
        try:
            return self._wait_for_turn()
        except BaseException:
            with self._cond:
                self.in_flight -= 1
                self._cond.notify()
            raise
        finally:
            with self._cond:
                self.waiting -= 1

    def _wait_for_window(self) -> None:
        # Called with the lock held.
        while True:
            now = time.monotonic()
            if now < self.paused_until:
                self._cond.wait(self.paused_until - now)
            elif self.in_flight >= int(self.window):
                self._window_waiters += 1
                try:
                    self._cond.wait(1.0)  # notified on each answer; the timeout is a safety net
                finally:
                    self._window_waiters -= 1
            else:
                return

    def _wait_for_turn(self) -> Permit:
        """Reserve the next paced send time, sleep to it (without the lock), and go
        unless a pause began meanwhile (then queue again after it)."""
        while True:
            with self._cond:
                now = time.monotonic()
                if now < self.paused_until:
                    self._cond.wait(self.paused_until - now)
                    continue
                start = now
                if self.rate is not None:
                    interval = 1.0 / self.rate
                    start = max(now, self._tat - (self.burst - 1) * interval)
                    self._tat = max(self._tat, now) + interval
                pauses = self._pauses
                if start <= now:
                    self.requests += 1
                    return Permit(self.decreases, now)
            time.sleep(start - now)
            with self._cond:
                if self._pauses == pauses and time.monotonic() >= self.paused_until:
                    self.requests += 1
                    return Permit(self.decreases, time.monotonic())

    # --- answers ------------------------------------------------------------------------

    def succeeded(self, permit: Permit, headers: Mapping[str, Any] | None) -> None:
        """An answer came back: learn from its headers, grow the window and the rate."""
        with self._cond:
            now = time.monotonic()
            self._release()
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
                self._set_rate(self.rate + self._increase / self.rate)

    def failed(self, permit: Permit, headers: Mapping[str, Any] | None) -> None:
        """Another error (not a 429): learn what the headers say, nothing else."""
        with self._cond:
            self._release()
            self._learn(request_limit(headers), time.monotonic())

    def rate_limited_by(self, permit: Permit, headers: Mapping[str, Any] | None) -> float | None:
        """A 429: pause the endpoint as asked, and slow down once per burst of 429s.
        Returns the pause asked for (seconds), or None."""
        pause = retry_after(headers)
        with self._cond:
            now = time.monotonic()
            self._release()
            self.rate_limited += 1
            self._learn(request_limit(headers), now, rate_limited=True)
            # A pause longer than any call waits (a quota spent for the day) fails the
            # calls instead (see send): held threads would only wait to fail.
            if pause is not None and pause <= MAX_WAIT_SECONDS and now + pause > self.paused_until:
                self.paused_until = now + pause
                self._pauses += 1
                self._tat = max(self._tat, self.paused_until)
            if permit.decreases == self.decreases:  # the first 429 since the last decrease
                self._decrease(now)
        return pause

    def _release(self) -> None:
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
            self._set_rate(self.rate * RATE_DECREASE)
        else:
            # Header-less and not paced yet: start just below what succeeded in the last
            # second, if the endpoint was under load (else one stray 429 would throttle it).
            while self._answers and self._answers[0] < now - 1.0:
                self._answers.popleft()
            if len(self._answers) < MIN_LOAD:
                return
            span = max(0.25, min(1.0, now - self._answers[0]))
            # (what succeeded is about the provider's rate: it was saturated)
            self._set_rate(len(self._answers) / span * FIRST_DECREASE)
        if self.rate is not None:
            self._increase = max(0.5, 0.05 * self.rate)

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


# --- one call -----------------------------------------------------------------------------


class CallFailed(Exception):
    """A call failed: ``error`` is the provider's error, ``retries`` the 429s retried
    before it, ``note`` a sentence on why the 429s were not retried further."""

    def __init__(self, error: BaseException, retries: int, note: str = "") -> None:
        super().__init__(str(error))
        self.error = error
        self.retries = retries
        self.note = note


@dataclass(frozen=True, slots=True)
class Sent:
    """The answer of :func:`send`, and how many 429s were retried to get it."""

    response: Any
    retries: int


def send(call: Mapping[str, Any], request: Callable[[], T]) -> Sent:
    """Make ``request()`` (one ``litellm.completion`` with the arguments ``call``)
    through its endpoint's limiter, retrying 429s; raises :class:`CallFailed`."""
    limiter = limiter_for(*endpoint_key(call))
    began = time.monotonic()
    retries = 0
    while True:
        permit = limiter.acquire()
        try:
            response = request()
        except Exception as error:
            if not is_rate_limited(error):
                limiter.failed(permit, error_headers(error))
                raise CallFailed(error, retries) from None
            pause = limiter.rate_limited_by(permit, error_headers(error))
            note = _why_not_retried(error, retries, pause, time.monotonic() - began)
            if note is not None:
                raise CallFailed(error, retries, note) from None
            retries += 1
            with limiter._cond:
                limiter.retries += 1
            continue
        except BaseException:
            limiter.failed(permit, None)  # interrupted: the place in the window is freed
            raise
        limiter.succeeded(permit, response_headers(response))
        return Sent(response, retries)


def _why_not_retried(
    error: BaseException, retries: int, pause: float | None, spent: float
) -> str | None:
    """Why this 429 ends the call (a sentence), or None to retry it."""
    if is_quota_error(error):
        return "(Out of quota: retrying cannot help; add credit or raise the limit.)"
    if retries >= RATE_LIMIT_RETRIES:
        return (
            f"(Still rate-limited after {retries} paced retries over {spent:.0f} s: lower "
            "the concurrency, or ask the provider for a higher limit.)"
        )
    if pause is not None and spent + pause > MAX_WAIT_SECONDS:
        return (
            f"(The provider asked to wait {math.ceil(pause)} s more, past the "
            f"{MAX_WAIT_SECONDS:.0f} s a call waits for a rate limit: try again later.)"
        )
    if spent > MAX_WAIT_SECONDS:
        return (
            f"(Rate-limited for {spent:.0f} s, longer than a call waits "
            f"({MAX_WAIT_SECONDS:.0f} s): lower the concurrency or try again later.)"
        )
    return None
