"""Properties of the run-level rules' small parts, over generated inputs (issue 43).

- a 429 without Retry-After pauses the endpoint: never less than BACKOFF, never more than
  BACKOFF_MOST, and never shorter for a longer run of 429s;
- a key's first request is sent again after a failure only when litellm would have
  retried it: a server error or a lost connection, never an answer about the request;
- the keys carried to a worker process: exactly the provider keys of the caller's
  environment, and in the worker exactly those of the last run, its own left alone;
- the conformance matrix reads each test's path from its id, the longest path named.
"""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.models import carried
from skynet_jupyter.models.rate_limit import (
    _NEVER_RETRIED,
    BACKOFF,
    BACKOFF_MOST,
    _backoff,
    _retried_by_litellm,
)
from tests.conformance.matrix import _rule_and_path
from tests.conformance.paths import PATHS


@given(st.integers(min_value=-10, max_value=10**9), st.integers(min_value=0, max_value=10**9))
def test_the_pause_of_a_429_without_retry_after_is_bounded_and_never_shrinks(n, more):
    pause, later = _backoff(n), _backoff(n + more)
    assert BACKOFF <= pause <= later <= BACKOFF_MOST


@given(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["s", "ms"]))
def test_a_retry_after_read_is_a_finite_pause_of_zero_or_more(number, unit):
    """Whatever number a provider sends, what is read is None (ignored, said once) or a
    finite, non-negative pause: never a negative one (read as 0, it was a flood)."""
    import warnings

    from skynet_jupyter.models.rate_limit import retry_after

    name = "retry-after-ms" if unit == "ms" else "Retry-After"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        read = retry_after({name: repr(number)})
    assert read is None or (math.isfinite(read) and read >= 0)
    if read is not None and number > 0:
        assert read == pytest.approx(number / 1000 if unit == "ms" else number)


@given(
    st.integers(1, 64),
    st.floats(0, 1e6),
    st.floats(0, 1e6),
    st.floats(0.01, 1e4),
)
def test_an_implied_pause_ends_at_the_refusal_limit_and_past_it_is_the_whole_backoff(
    n, since, elapsed, timeout
):
    from skynet_jupyter.models.rate_limit import implied_pause

    now = since + elapsed
    pause = implied_pause(n, since, now, timeout)
    assert 0.05 <= pause <= _backoff(n)
    if elapsed >= timeout:  # the run stopped: a probe every backoff, not a stream
        assert pause == _backoff(n)
    else:  # the next request goes when the refusals reach the limit, not later
        assert now + pause <= max(since + timeout, now + 0.05) + 1e-6


def failure(name: str, status: object) -> BaseException:
    error = type(name, (Exception,), {})("failed")
    error.status_code = status  # type: ignore[attr-defined]
    return error


STATUSES = st.one_of(st.none(), st.integers(100, 599), st.text(max_size=3), st.floats())
NAMES = st.one_of(
    st.sampled_from(sorted(_NEVER_RETRIED)),
    st.from_regex(r"[A-Z][a-z]{2,12}Error", fullmatch=True),
)


@given(NAMES, STATUSES)
def test_a_first_request_is_sent_again_only_for_what_litellm_retries(name, status):
    retried = _retried_by_litellm(failure(name, status))
    if name in _NEVER_RETRIED:
        assert not retried  # a key refusal, a bad request, a 429, a timeout: never again
    elif isinstance(status, int):
        assert retried == (status >= 500)  # a server error, not an answer about the request
    else:
        assert retried  # no status: the connection was lost before an answer


ENDINGS = ("_API_KEY", "_API_TOKEN", "_api_key", "_KEY", "_TOKEN", "_URL")
ENV_NAME = st.builds(
    lambda stem, ending: f"SKYTEST_{stem}{ending}",
    st.from_regex(r"[A-Z][A-Z0-9]{0,6}", fullmatch=True),
    st.sampled_from(ENDINGS),
)
ENV_VALUE = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12
)


def _ours() -> dict[str, str]:
    return {n: v for n, v in os.environ.items() if n.startswith("SKYTEST_")}


def _clear_ours() -> None:
    for name in _ours():
        del os.environ[name]
    carried._replaced.clear()


@settings(max_examples=60)
@given(st.dictionaries(ENV_NAME, ENV_VALUE, max_size=6))
def test_the_caller_carries_exactly_its_provider_keys(environment):
    _clear_ours()
    try:
        os.environ.update(environment)
        carried_now = {
            n.removeprefix("env:"): v
            for n, v in carried.environment_keys().items()
            if n.startswith("env:SKYTEST_")
        }
        expected = {
            n: v
            for n, v in environment.items()
            if n.upper().endswith(("_API_KEY", "_API_TOKEN")) and v.strip()
        }
        assert carried_now == expected
    finally:
        _clear_ours()


@settings(max_examples=60)
@given(
    st.dictionaries(ENV_NAME, ENV_VALUE.filter(str.strip), max_size=3),
    st.lists(st.dictionaries(ENV_NAME, ENV_VALUE.filter(str.strip), max_size=4), max_size=4),
)
def test_a_worker_holds_exactly_the_keys_of_the_last_run_and_keeps_its_own(own, runs):
    _clear_ours()
    try:
        os.environ.update(own)  # the worker's own variables, set before any run
        for keys in runs:
            carried.carry({"env:" + name: value for name, value in keys.items()})
            expected = {**own, **keys}  # the run's keys, else the worker's own
            assert _ours() == expected
    finally:
        _clear_ours()


@given(
    st.sampled_from(PATHS),
    st.lists(st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True), max_size=3),
    st.integers(1, 9),
)
def test_the_matrix_reads_the_longest_path_a_test_id_names(path, extra, rule):
    nodeid = f"tests/conformance/test_rule_{rule}_some_rule.py::test_x[{'-'.join([path, *extra])}]"
    found_rule, found_path = _rule_and_path(nodeid)
    assert found_rule == f"{rule} some rule"
    assert found_path == path or (
        found_path is not None
        and found_path.startswith(path + "-")
        and "-".join([path, *extra]).startswith(found_path)
    )
