"""Properties of the run cache's key over generated litellm requests (issue 35).

Two requests litellm would send differently get different keys; the same request
written another way (key order, a tuple for a list, a NumPy number for a Python
one) gets the same key; no credential ever reaches the key's text or the file.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skynet_jupyter.models.call_cache import CachedReply, CallCache, request_key, request_text

# What docs/models.md says is not in the key: how the call is made, and credentials.
NOT_IN_KEY = [
    "retry_strategy", "retry_policy", "max_retries", "num_retries", "timeout",
    "request_timeout", "stream_timeout", "metadata", "caching", "cache", "client",
    "logger_fn", "input_cost_per_token", "output_cost_per_token", "mock_timeout",
]  # fmt: skip
CREDENTIALS = {
    "api_key", "apikey", "aws_access_key_id", "aws_secret_access_key", "aws_session_token",
    "aws_web_identity_token", "azure_ad_token", "azure_ad_token_provider", "azure_password",
    "client_secret", "vertex_credentials", "vertex_ai_credentials", "watsonx_credentials",
    "wx_credentials", "watsonx_token", "gigachat_access_token",
}  # fmt: skip
SECRET_HEADERS = {
    "authorization", "proxy-authorization", "api-key", "x-api-key", "apikey", "cookie",
    "x-goog-api-key", "x-auth-token", "x-access-token", "x-amz-security-token",
    "ocp-apim-subscription-key", "private-token",
}  # fmt: skip


def is_credential_argument(name: str) -> bool:
    return name.lower() in CREDENTIALS or name.lower().endswith("_api_key")


def is_credential_header(name: str, value: str) -> bool:
    lowered = name.lower().replace("_", "-")
    scheme = value.strip().split(" ", 1)[0].lower() if " " in value.strip() else ""
    return (
        lowered in SECRET_HEADERS
        or lowered.endswith("-api-key")
        or scheme in ("bearer", "basic", "digest")
    )


EXAMPLES = 100  # per property (the secrets one: half); the three run in about 10 s
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# Arguments litellm sends, and made-up ones (a provider's own, passed through).
KNOWN = [
    "temperature", "top_p", "max_tokens", "max_completion_tokens", "seed", "stop", "n",
    "response_format", "tools", "tool_choice", "logit_bias", "user", "presence_penalty",
    "frequency_penalty", "stop_token_ids", "allowed_token_ids", "eos_token_id", "token_limit",
    "reasoning_effort", "top_k", "extra_body", "api_base", "api_version", "prompt_cache_key",
]  # fmt: skip
NAMES = st.one_of(st.sampled_from(KNOWN), st.from_regex(r"[a-z][a-z0-9_]{0,14}", fullmatch=True))
NAMES = NAMES.filter(
    lambda name: (
        name not in NOT_IN_KEY
        and not is_credential_argument(name)
        and not name.endswith("header")
        and not name.endswith("headers")
        and name not in ("model", "messages")
    )
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
HEADER_NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9-]{0,16}", fullmatch=True)
PLAIN_HEADERS = st.dictionaries(HEADER_NAMES, st.text(max_size=16), max_size=4).map(
    lambda headers: {k: v for k, v in headers.items() if not is_credential_header(k, v)}
)
SECRETS = st.from_regex(r"sk-[A-Za-z0-9]{24,40}", fullmatch=True)
CREDENTIAL_HEADERS = st.sampled_from(
    ["Authorization", "authorization", "Proxy-Authorization", "api-key", "X-API-Key", "Cookie"]
)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    call = dict(draw(st.dictionaries(NAMES, VALUES, max_size=6)))
    call["model"] = draw(st.sampled_from(["openai/gpt-4o-mini", "openai/m", "anthropic/c"]))
    call["messages"] = [
        {"role": "system", "content": draw(st.text(max_size=20))},
        {"role": "user", "content": draw(st.text(max_size=40))},
    ]
    headers = draw(PLAIN_HEADERS)
    if headers:
        call["extra_headers"] = headers
    return call


def sent(value: Any) -> str:
    """The JSON litellm would send for ``value``."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@st.composite
def changed(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A request, and the same request with one thing litellm sends changed."""
    call = draw(requests())
    other = json.loads(json.dumps(call))  # a deep copy
    where = draw(st.sampled_from(["argument", "header", "message"]))
    if where == "argument":
        name = draw(NAMES)
        value = draw(VALUES.filter(lambda v: name not in call or sent(v) != sent(call[name])))
        other[name] = value
    elif where == "header":
        name = draw(HEADER_NAMES.filter(lambda n: not is_credential_header(n, "")))
        old = call.get("extra_headers", {}).get(name)
        value = draw(
            st.text(max_size=16).filter(lambda v: v != old and not is_credential_header(name, v))
        )
        other.setdefault("extra_headers", {})[name] = value
    else:
        index = draw(st.sampled_from([0, 1]))
        old = call["messages"][index]["content"]
        other["messages"][index]["content"] = draw(st.text(max_size=40).filter(lambda t: t != old))
    return call, other


@SETTINGS
@given(changed())
def test_requests_sent_differently_have_different_keys(pair):
    call, other = pair
    assert request_key(call) is not None and request_key(other) is not None
    assert request_key(call) != request_key(other)


def respelled(value: Any, draw: st.DrawFn, *, top: bool = True) -> Any:
    """``value`` written another way that litellm sends as the same request: the call's
    keywords in any order; inside a value, dict items keep their order, as litellm sends
    them (a JSON schema's property order is the order the model writes its fields in)."""
    if isinstance(value, dict):
        items = list(value.items())
        order = draw(st.permutations(range(len(items)))) if items and top else range(len(items))
        return {items[i][0]: respelled(items[i][1], draw, top=False) for i in order}
    if isinstance(value, list):
        items = [respelled(item, draw, top=False) for item in value]
        return tuple(items) if draw(st.booleans()) else items
    if isinstance(value, float) and draw(st.booleans()):
        return np.float64(value) if draw(st.booleans()) else float(repr(value))
    if isinstance(value, int) and not isinstance(value, bool) and draw(st.booleans()):
        return np.int64(value)
    return value


@st.composite
def rewritten(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A request, and the same request written another way, with other credentials and
    another way of making the call (retries, timeouts...)."""
    call = draw(requests())
    other = respelled(call, draw)
    other["api_key"] = draw(SECRETS)
    other[draw(st.sampled_from(["azure_api_key", "AWS_SECRET_ACCESS_KEY"]))] = draw(SECRETS)
    other[draw(st.sampled_from(NOT_IN_KEY))] = draw(VALUES)
    other.setdefault("extra_headers", {})[draw(CREDENTIAL_HEADERS)] = draw(SECRETS)
    if "extra_headers" not in call:
        call["extra_headers"] = {}
    for name, value in other["extra_headers"].items():
        if is_credential_header(name, value):
            call["extra_headers"][name] = draw(SECRETS)  # another key, the same request
    return call, other


@SETTINGS
@given(rewritten())
def test_the_same_request_written_another_way_has_the_same_key(pair):
    call, other = pair
    assert request_key(call) is not None and request_key(call) == request_key(other)


@st.composite
def with_secrets(draw: st.DrawFn) -> tuple[dict[str, Any], list[str]]:
    call = draw(requests())
    secrets = draw(st.lists(SECRETS, min_size=4, max_size=4, unique=True))
    call["api_key"] = secrets[0]
    call[draw(st.sampled_from(["openai_api_key", "Vertex_Credentials", "client_secret"]))] = (
        secrets[1]
    )
    headers = call.setdefault("extra_headers", {})
    headers[draw(CREDENTIAL_HEADERS)] = draw(st.sampled_from(["", "Bearer "])) + secrets[2]
    call["api_base"] = f"http://user:{secrets[3]}@127.0.0.1:1/v1"
    return call, secrets


@settings(
    max_examples=EXAMPLES // 2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(with_secrets())
def test_no_secret_reaches_the_key_text_or_the_file(case):
    call, secrets = case
    text = request_text(call)
    assert text is not None and not any(secret in text for secret in secrets)
    key = request_key(call)
    assert key is not None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "runs.sqlite"
        cache = CallCache(path=path)
        cache.put(key, CachedReply("reply", 1, 1, 0.0, 1.0))
        assert cache.disk is not None
        cache.disk.close()
        with sqlite3.connect(path) as raw:
            rows = raw.execute("SELECT key, record FROM replies").fetchall()
        stored = "".join(
            path.parent.joinpath(name).read_bytes().decode("latin-1")
            for name in ("runs.sqlite", "runs.sqlite-wal")
            if path.parent.joinpath(name).exists()
        )
        assert rows and not any(secret in str(rows) + stored for secret in secrets)
