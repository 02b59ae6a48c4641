"""The call cache's key format, its records and its bookkeeping, pinned exactly.

The key is what files written by an earlier kernel are read with: its text form
may only change with ``SCHEMA``.  In process, with a real sqlite file.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from skynet_jupyter.models.call_cache import CachedReply, CallCache, request_key
from skynet_jupyter.models.call_store import Cleared

BASE = {"model": "openai/m", "messages": [{"role": "user", "content": "é \ud800"}]}


def test_the_key_is_the_sha256_of_the_sorted_compact_request_with_its_schema():
    # The arguments sorted by name; every value as litellm sends it, its own order kept.
    call = {"temperature": 0, **BASE, "api_key": "sk-not-in-the-key-0000"}
    text = (
        '{"schema":2,"request":{"messages":[{"role":"user","content":"é \ud800"}],'
        '"model":"openai/m","temperature":0}}'
    )
    assert request_key(call) == hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@pytest.mark.parametrize(
    "name",
    [
        "retry_strategy",
        "retry_policy",
        "max_retries",
        "num_retries",
        "timeout",
        "request_timeout",
        "stream_timeout",
        "metadata",
        "caching",
        "cache",
        "client",
        "logger_fn",
        "input_cost_per_token",
        "output_cost_per_token",
        "mock_timeout",
        "api_key",
        "API_KEY",
    ],
)
def test_how_a_call_is_made_and_its_credentials_are_not_in_the_key(name: str):
    assert request_key({**BASE, name: "anything"}) == request_key(BASE)


@pytest.mark.parametrize("name", ["max_tokens", "MAX_TOKENS", "max_completion_tokens"])
def test_token_limits_are_in_the_key(name: str):
    assert request_key({**BASE, name: 5}) != request_key(BASE)


@pytest.mark.parametrize("name", ["extra_headers", "headers", "Extra_Header"])
def test_credential_headers_are_masked_other_headers_kept(name: str):
    def with_header(header: dict[str, str]) -> str | None:
        return request_key({**BASE, name: header})

    assert with_header({"Authorization": "Bearer a"}) == with_header({"Authorization": "Bearer b"})
    assert with_header({"X-Api-Key": "a"}) == with_header({"X-Api-Key": "b"}) is not None
    assert with_header({"x-trace": "a"}) != with_header({"x-trace": "b"})  # a header's value
    assert with_header({"x-trace": "a"}) != with_header({"x-other": "a"})  # ...and its name


# --- records -------------------------------------------------------------------------------

REPLY = CachedReply("kept", 3, 4, 0.5, 12.0)
RECORD = {
    "text": "kept",
    "input_tokens": 3,
    "output_tokens": 4,
    "cost_usd": 0.5,
    "latency_ms": 12.0,
}


def test_a_reply_is_recorded_as_a_plain_dict_and_read_back():
    assert REPLY.record() == RECORD
    assert CachedReply.from_record(RECORD) == REPLY
    text = {"input_tokens": "3", "output_tokens": 4.0, "cost_usd": "0.5", "latency_ms": "12"}
    assert CachedReply.from_record({**RECORD, **text}) == REPLY
    unpriced = CachedReply.from_record({**RECORD, "cost_usd": None})
    assert unpriced == CachedReply("kept", 3, 4, None, 12.0)


@pytest.mark.parametrize(
    "change",
    [{"text": 5}, {"text": None}, {"latency_ms": "soon"}, {"input_tokens": None}, {"cost_usd": []}],
)
def test_a_record_of_another_shape_is_a_miss(change: dict[str, object]):
    assert CachedReply.from_record({**RECORD, **change}) is None


@pytest.mark.parametrize("missing", sorted(RECORD))
def test_a_record_missing_a_field_is_a_miss(missing: str):
    record = {name: value for name, value in RECORD.items() if name != missing}
    assert CachedReply.from_record(record) is None


# --- the cache's bookkeeping ---------------------------------------------------------------


def test_a_reply_from_the_file_is_kept_in_memory_and_counted(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    CallCache(path=path).put("k", REPLY)
    cache = CallCache(path=path)
    assert len(cache) == 1 and dict(cache.store) == {}
    assert cache.get("k") == REPLY and dict(cache.store) == {"k": REPLY}
    assert cache.get("other") is None and "other" not in cache.store
    assert (cache.hits, cache.misses) == (1, 1)
    view = cache.fresh()
    assert view.get("k") == REPLY and (cache.hits, cache.misses) == (2, 1)  # shared counts
    assert view.store is cache.store and view.disk is cache.disk


def test_a_damaged_record_on_disk_is_a_miss(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    cache = CallCache(path=path)
    assert cache.disk is not None and cache.disk.put("k", {"text": 5})
    assert cache.get("k") is None and "k" not in cache.store and cache.misses == 1


def test_len_is_the_larger_of_memory_and_file(tmp_path: Path):
    cache = CallCache(path=tmp_path / "runs.sqlite")
    cache.put("a", REPLY)
    cache.store["b"] = REPLY  # only in memory
    assert len(cache) == 2
    for name in "cde":
        assert cache.disk is not None and cache.disk.put(name, RECORD)
    assert len(cache) == 4 and len(CallCache()) == 0


def test_clearing_forgets_memory_file_and_counts(tmp_path: Path):
    memory = CallCache()
    memory.put("a", REPLY)
    memory.get("a")
    assert memory.empty() == Cleared(1) and (memory.hits, len(memory)) == (0, 0)
    path = tmp_path / "runs.sqlite"
    cache = CallCache(path=path)
    for name in "abc":
        cache.put(name, REPLY)
    cache.store.pop("c")
    assert cache.get("x") is None and cache.clear() == 3
    assert (cache.hits, cache.misses, len(cache)) == (0, 0, 0)
    assert len(CallCache(path=path)) == 0


def test_use_file_moves_to_another_file_or_to_memory(tmp_path: Path):
    cache = CallCache(path=tmp_path / "one.sqlite")
    cache.put("a", REPLY)
    cache.use_file(tmp_path / "two.sqlite")
    cache.put("b", REPLY)
    assert len(CallCache(path=tmp_path / "one.sqlite")) == 1
    assert CallCache(path=tmp_path / "two.sqlite").get("b") == REPLY
    cache.use_file(None)
    assert cache.disk is None and cache.get("b") == REPLY  # still in memory


def test_a_path_of_the_wrong_type_is_refused_at_once():
    with pytest.raises(TypeError):
        CallCache(path=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        CallCache().use_file(3.5)  # type: ignore[arg-type]
