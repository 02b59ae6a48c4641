"""A small, real OpenAI-compatible HTTP server for tests (stdlib only).

    with OpenAIServer() as server:
        server.reply = lambda request: "PASS"
        litellm.completion(model="openai/gpt-4o-mini", api_base=server.base_url,
                           api_key="sk-test", messages=[...])
        server.requests[-1].model   # what was asked, and how it was answered

It serves ``POST /v1/chat/completions`` (and ``/chat/completions``) on
127.0.0.1 at a free port, in a daemon thread.  Replies carry ``usage`` counts
(by default one token per word of the messages and of the answer), so costs can
be checked against a price map.

Errors and delays on demand, two ways:

- server state: ``server.fail_next(429, 500)`` answers the next two requests
  with those statuses (then normally); ``server.delay = 0.5`` slows every reply;
- request content: a message containing ``[[status=401]]`` is always answered
  with that status, ``[[delay=0.3]]`` sleeps before answering, ``[[stall]]``
  holds the answer until ``server.release_stalled()`` (or ``stop()``): a provider
  that hangs;
- keys: a request whose bearer token is in ``server.reject_keys`` gets a 401
  (``server.reject_status = 403``: a 403);
- rate limits: ``server.rate_limit = 40`` allows 40 requests/s per model (a token
  bucket holding ``server.rate_burst`` requests); a request beyond it gets a 429
  with ``Retry-After: 1`` and ``retry-after-ms: 1000``.  Every answer then carries
  OpenAI's ``x-ratelimit-limit-requests`` / ``-remaining-requests`` /
  ``-reset-requests`` headers (``server.rate_headers = False`` leaves them out);
- any header, as is: ``server.extra_headers = {"Retry-After": "1e400"}`` is sent
  with every answer (odd values a provider may send).

An error answer has the OpenAI error shape.  A 401 echoes the bearer token it
received in full (a careless provider), so tests can prove it is redacted.
Every request is recorded in ``server.requests`` (retries included), with the
``time.monotonic()`` of its arrival and of its answer.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_STATUS = re.compile(r"\[\[status=(\d{3})\]\]")
_DELAY = re.compile(r"\[\[delay=([0-9.]+)\]\]")
_STALL = "[[stall]]"
_PATHS = ("/v1/chat/completions", "/chat/completions")
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    404: "invalid_request_error",
    429: "rate_limit_exceeded",
    500: "server_error",
    503: "server_error",
}


@dataclass
class Recorded:
    """One request as received, and the answer sent."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    status: int = 200
    reply: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    arrived: float = 0.0  # time.monotonic() when the request was read
    answered: float = 0.0  # time.monotonic() when the answer was sent
    retry_after: float | None = None  # the pause a 429 asked for, in seconds

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body.get("messages", [])

    @property
    def text(self) -> str:
        """All message contents, joined (what directives are read from)."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


def words(text: str) -> int:
    return len(text.split())


def default_reply(request: Recorded) -> str:
    return f"Answer from {request.model}."


class OpenAIServer:
    """Start with ``with OpenAIServer() as server`` (or ``start()`` / ``stop()``)."""

    def __init__(self, reply: Callable[[Recorded], str] = default_reply) -> None:
        self.reply = reply
        self.delay = 0.0
        self.retry_after_ms: int | None = 1  # sent with 429s: a provider's pacing hint
        self.served_as: dict[str, str] = {}  # asked model -> the name the answer gives
        self.report_usage = True  # False: answers without usage counts
        self.reject_keys: set[str] = set()  # bearer tokens answered with reject_status
        self.reject_status = 401  # or 403: a key without the permission
        self.rate_limit: float | None = None  # requests/s allowed per model (None: no limit)
        self.rate_burst = 5  # requests the bucket holds (sent at once after a quiet spell)
        self.rate_headers = True  # OpenAI's x-ratelimit-* headers on every answer
        self.rate_retry_after = 1.0  # seconds, in the Retry-After of a rate-limit 429
        self.extra_headers: dict[str, str] = {}  # sent as is with every answer
        self._stalled = threading.Event()  # set: the [[stall]] requests held so far answer
        self.requests: list[Recorded] = []
        self._buckets: dict[str, tuple[float, float]] = {}  # model -> (tokens, at)
        self._failures: deque[int] = deque()
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- control --------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """The ``api_base`` for litellm (``http://127.0.0.1:PORT/v1``)."""
        assert self._httpd is not None, "start the server first"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def fail_next(self, *statuses: int) -> None:
        """Answer the next requests with these HTTP error statuses, in order."""
        with self._lock:
            self._failures.extend(statuses)

    def release_stalled(self) -> None:
        """Answer the ``[[stall]]`` requests held so far (later ones are held again)."""
        with self._lock:
            self._stalled.set()
            self._stalled = threading.Event()

    def stalled(self) -> int:
        """How many requests are held by ``[[stall]]`` right now."""
        with self._lock:
            return sum(1 for r in self.requests if r.status == 0)

    def reset(self) -> None:
        """Back to plain answers: no planned failures, delays or records."""
        self.release_stalled()
        with self._lock:
            self._failures.clear()
            self.requests.clear()
            self._buckets.clear()
        self.rate_limit = None
        self.rate_burst = 5
        self.rate_headers = True
        self.rate_retry_after = 1.0
        self.reply = default_reply
        self.delay = 0.0
        self.retry_after_ms = 1
        self.served_as = {}
        self.report_usage = True
        self.reject_keys = set()
        self.reject_status = 401
        self.extra_headers = {}

    def calls(self, model: str | None = None) -> list[Recorded]:
        """Recorded requests (to ``model``, when given)."""
        with self._lock:
            found = list(self.requests)
        return [r for r in found if model is None or r.model == model]

    def start(self) -> OpenAIServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                server._answer(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            # A short poll: stop() waits for one, and every test that uses a server stops one.
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.02},
            name="openai-test-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release_stalled()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- serving --------------------------------------------------------------

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        request = Recorded(
            path=handler.path.split("?")[0],
            headers={k.lower(): v for k, v in handler.headers.items()},
            body=body,
            arrived=time.monotonic(),
        )
        with self._lock:
            self.requests.append(request)
            planned = self._failures.popleft() if self._failures else None
            limited = self._take_token(request)
        if request.path not in _PATHS:
            self._send(handler, request, 404, _error(404, f"No route {request.path}."))
            return
        if limited:
            self._send(handler, request, 429, _error(429, self._message(429, request)))
            return
        wait = self.delay
        found = _DELAY.search(request.text)
        if found:
            wait += float(found.group(1))
        if wait:
            time.sleep(wait)
        if _STALL in request.text:
            with self._lock:
                release = self._stalled
            request.status = 0  # held: not answered yet (see stalled())
            release.wait()
        found = _STATUS.search(request.text)
        status = int(found.group(1)) if found else planned
        token = request.headers.get("authorization", "").removeprefix("Bearer ")
        if token in self.reject_keys:
            status = self.reject_status
        if status is not None:
            self._send(handler, request, status, _error(status, self._message(status, request)))
            return
        text = self.reply(request)
        prompt = sum(words(str(m.get("content", ""))) for m in request.messages)
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": words(text),
            "total_tokens": prompt + words(text),
        }
        request.reply, request.usage = text, usage
        answer = {
            "id": f"chatcmpl-test{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.served_as.get(str(request.model), request.model),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
        }
        if self.report_usage:
            answer["usage"] = usage
        self._send(handler, request, 200, answer)

    def _take_token(self, request: Recorded) -> bool:
        """Spend one of the model's tokens (under the lock); True when there was none."""
        if self.rate_limit is None:
            return False
        name = str(request.model)
        tokens, at = self._buckets.get(name, (float(self.rate_burst), request.arrived))
        tokens = min(float(self.rate_burst), tokens + (request.arrived - at) * self.rate_limit)
        limited = tokens < 1.0
        if not limited:
            tokens -= 1.0
        self._buckets[name] = (tokens, request.arrived)
        return limited

    def _rate_headers(self, request: Recorded) -> dict[str, str]:
        """OpenAI's request-limit headers: the bucket's size, what is left, and the time
        until it is full again (a Go duration, as OpenAI writes it)."""
        if self.rate_limit is None or not self.rate_headers:
            return {}
        with self._lock:
            tokens, at = self._buckets.get(str(request.model), (float(self.rate_burst), 0.0))
        now = time.monotonic()
        tokens = min(float(self.rate_burst), tokens + (now - at) * self.rate_limit)
        full_in = (self.rate_burst - tokens) / self.rate_limit
        return {
            "x-ratelimit-limit-requests": str(self.rate_burst),
            "x-ratelimit-remaining-requests": str(int(tokens)),
            "x-ratelimit-reset-requests": f"{full_in * 1000:.3f}ms",
        }

    def _message(self, status: int, request: Recorded) -> str:
        if status == 401:
            token = request.headers.get("authorization", "").removeprefix("Bearer ")
            return f"Incorrect API key provided: {token}. You can find your API key in settings."
        if status == 403:
            token = request.headers.get("authorization", "").removeprefix("Bearer ")
            return f"The key {token} has no permission for this model."
        if status == 429:
            return "Rate limit reached for requests. Please try again shortly."
        if status >= 500:
            return "The server had an error while processing your request."
        return f"The request was refused with status {status} (test server)."

    def _send(
        self, handler: BaseHTTPRequestHandler, request: Recorded, status: int, payload: dict
    ) -> None:
        request.status = status
        data = json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        for name, value in self._rate_headers(request).items():
            handler.send_header(name, value)
        for name, value in self.extra_headers.items():
            handler.send_header(name, value)
        if status == 429 and self.rate_limit is not None:  # a rate-limit 429
            request.retry_after = self.rate_retry_after
            handler.send_header("Retry-After", f"{self.rate_retry_after:g}")
            handler.send_header("retry-after-ms", f"{self.rate_retry_after * 1000:g}")
        elif status == 429 and self.retry_after_ms is not None:
            request.retry_after = self.retry_after_ms / 1000
            handler.send_header("retry-after-ms", str(self.retry_after_ms))
        handler.end_headers()
        request.answered = time.monotonic()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            handler.wfile.write(data)  # fails when the client gave up (a timeout test)


def _error(status: int, message: str) -> dict[str, Any]:
    return {
        "error": {
            "message": message,
            "type": _ERROR_TYPES.get(status, "invalid_request_error"),
            "param": None,
            "code": str(status),
        }
    }
