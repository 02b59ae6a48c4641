"""What an independent attack on the call cache and the key check found (issue 35), each
kept as a test: values keep the order litellm sends them in, no credential in an
``api_base`` reaches the key text, and a key set the way litellm reads it is a key."""

from __future__ import annotations

import sys
import types

import pytest

from skynet_jupyter.models.call_cache import request_key, request_text
from skynet_jupyter.models.credentials import missing_key

BASE = {"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}


def schema(order: list[str]) -> dict:
    properties = {name: {"type": "string"} for name in order}
    return {
        "type": "json_schema",
        "json_schema": {"name": "r", "schema": {"properties": properties}},
    }


def test_a_schemas_property_order_is_part_of_the_request():
    """Structured output writes its fields in schema order: another order is another
    request; the arguments' own order is not."""
    first = request_key({**BASE, "response_format": schema(["reason", "verdict"])})
    second = request_key({**BASE, "response_format": schema(["verdict", "reason"])})
    assert first and second and first != second
    swapped = {"response_format": schema(["reason", "verdict"]), **BASE}
    assert request_key(swapped) == first


SECRET = "s3cr3tVALUE99"


@pytest.mark.parametrize(
    "url",
    [
        f"https://host/v1?key={SECRET}",
        f"https://host/v1?api-key={SECRET}&x=1",
        f"https://{SECRET}@host/v1",
        f"https://user:ab@{SECRET}@host/v1",
        f"https://user:{SECRET}@host/v1",
    ],
)
def test_no_credential_in_an_api_base_reaches_the_key_text(url):
    text = request_text({**BASE, "api_base": url})
    assert text is not None and SECRET not in text
    other = url.replace(SECRET, "another-key-0000")
    assert request_key({**BASE, "api_base": other}) == request_key({**BASE, "api_base": url})


@pytest.mark.parametrize(
    "headers",
    [
        ["Authorization: Bearer " + SECRET],
        [("X-Auth-Key", SECRET, "extra")],
        {"X-Custom": "Token " + SECRET},
    ],
)
def test_credentials_in_headers_of_any_shape_never_reach_the_key_text(headers):
    text = request_text({**BASE, "extra_headers": headers})
    assert text is None or SECRET not in text


def test_a_key_set_in_litellm_is_a_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    call = {"model": "openai/gpt-4o-mini"}
    fake = types.SimpleNamespace(api_key=None, openai_key=None)
    monkeypatch.setitem(sys.modules, "litellm", fake)
    assert missing_key(call) == ("openai", "OPENAI_API_KEY")
    fake.api_key = "sk-global-key-123456"
    assert missing_key(call) is None
    fake.api_key, fake.openai_key = None, "sk-openai-key-123456"
    assert missing_key(call) is None


@pytest.mark.parametrize("variable", ["GOOGLE_API_KEY", "GEMINI_API_KEY", "PALM_API_KEY"])
def test_gemini_reads_any_of_its_variables(monkeypatch, variable):
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "PALM_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, "AIza-test-key-1234567890")
    assert missing_key({"model": "gemini/gemini-2.0-flash"}) is None
