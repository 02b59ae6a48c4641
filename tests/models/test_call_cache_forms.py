"""What the call cache keys on for values ``json`` does not know, and what a cache
carries to another process (a worker, a Dask node) when it is pickled.

In process and on purpose: the exact canonical form of each odd value is pinned
by comparing its key with the key of the JSON value it must stand for.
"""

from __future__ import annotations

import pickle
import warnings
from datetime import datetime
from pathlib import Path

import numpy as np
import pydantic

from skynet_jupyter.models.call_cache import CachedReply, CallCache, request_key
from skynet_jupyter.models.call_store import CallStore


def key(**arguments: object) -> str | None:
    return request_key({"model": "openai/m", **arguments})


class Verdict(pydantic.BaseModel):
    label: str
    at: datetime


class Itemish:
    """Not NumPy, but with NumPy's method names: no canonical form."""

    def item(self) -> int:
        return 1

    def tolist(self) -> list[int]:
        return [1]


def test_a_pydantic_class_is_keyed_on_its_name_and_json_schema():
    form = {"schema_of": "Verdict", "schema": Verdict.model_json_schema()}
    assert key(response_format=Verdict) is not None
    assert key(response_format=Verdict) == key(response_format=form)


def test_a_pydantic_instance_is_keyed_on_its_json_dump():
    verdict = Verdict(label="x", at=datetime(2026, 1, 2, 3, 4, 5))
    assert key(extra_body={"v": verdict}) is not None
    assert key(extra_body={"v": verdict}) == key(
        extra_body={"v": {"label": "x", "at": "2026-01-02T03:04:05"}}
    )


def test_sets_are_keyed_as_lists_sorted_by_their_text():
    assert key(stop={"b", "a"}) is not None
    assert key(stop={"b", "a"}) == key(stop=["a", "b"])
    assert key(stop=frozenset({9, 10})) == key(stop=[10, 9])  # "10" < "9"
    assert key(stop={1, "a"}) == key(stop=["a", 1])  # mixed: their text still orders them


def test_numpy_scalars_and_arrays_are_keyed_as_the_python_values_they_hold():
    assert key(seed=np.int64(3)) == key(seed=3) != key(seed=4)
    assert key(extra_body={"w": np.arange(3)}) is not None
    assert key(extra_body={"w": np.arange(3)}) == key(extra_body={"w": [0, 1, 2]})
    assert key(extra_body={"w": np.ones((2, 2))}) == key(extra_body={"w": [[1.0, 1.0]] * 2})


def test_other_objects_have_no_key_even_with_numpy_like_methods():
    assert key(extra_body={"x": Itemish()}) is None
    assert key(extra_body={"x": int}) is None  # a class, but not a pydantic one


# --- what a pickled cache carries ---------------------------------------------------------

REPLY = CachedReply("kept", 3, 4, 0.5, 12.0)


def test_a_pickled_cache_carries_its_file_and_policy_not_its_replies(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    cache = CallCache(path=path)
    cache.put("k", REPLY)
    cache.store["only-in-memory"] = REPLY
    assert cache.get("k") == REPLY and cache.hits == 1
    for view, policy in ((cache, (True, True)), (cache.fresh_judge(), (True, False))):
        copy = pickle.loads(pickle.dumps(view))
        assert (copy.reads, copy.judge_reads) == policy
        assert dict(copy.store) == {} and (copy.hits, copy.misses) == (0, 0)
        assert copy.disk is not None and copy.disk.path == path
        assert copy.get("only-in-memory") is None and copy.get("k") == REPLY  # from the file
        assert (copy.hits, copy.misses) == (1, 1) and cache.hits == 1
    fresh = pickle.loads(pickle.dumps(cache.fresh()))
    assert (fresh.reads, fresh.judge_reads) == (False, False)


def test_a_cache_in_memory_pickles_in_memory():
    copy = pickle.loads(pickle.dumps(CallCache(fresh=True)))
    assert copy.disk is None and (copy.reads, copy.judge_reads) == (False, False)


def test_a_cache_says_where_its_replies_are(tmp_path: Path):
    cache = CallCache()
    cache.put("k", REPLY)
    assert repr(cache) == "<CallCache 1 replies in memory; memory>"
    path = tmp_path / "runs.sqlite"
    assert repr(CallCache(path=path)) == f"<CallCache 0 replies in memory; {path}>"
    assert repr(CallStore(path)) == f"CallStore({str(path)!r})"


def test_a_pickled_store_opens_the_same_file(tmp_path: Path):
    store = CallStore(tmp_path / "runs.sqlite")
    assert store.put("k", {"text": "kept"})
    copy = pickle.loads(pickle.dumps(store))
    assert copy.path == store.path and copy.broken is False
    assert copy.get("k") == {"text": "kept"} and len(copy) == 1


def test_a_pickled_broken_store_stays_off_and_says_nothing_again(tmp_path: Path):
    path = tmp_path / "runs.sqlite"
    path.write_bytes(b"not a database" * 300)
    said: list[str] = []
    store = CallStore(path, warn=said.append)
    assert store.get("k") is None and store.broken and len(said) == 1
    path.unlink()  # a usable path now: only the carried "broken" keeps the copy off
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        copy = pickle.loads(pickle.dumps(store))
        assert copy.broken is True and copy.path == path
        assert copy.put("k", {"text": "x"}) is False and copy.get("k") is None
    assert again == [] and not path.exists()
