"""litellm's one-time import is no phase's time: the accounting rule over generated calls.

Each reply says how long its call spent importing litellm (``setup_ms``).  Added up in a
phase's usage, it is left out of the run's time as ``observation()`` reports it and kept
as ``setup_ms`` (which ``score_case`` takes out of the metric's time), whatever mix of
made, cached and stand-in calls carries it.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.helper.skynet import _count
from skynet_jupyter.models.case_context import Usage
from skynet_jupyter.models.llm import ModelReply

durations = st.floats(min_value=0.0, max_value=60_000.0, allow_nan=False)
replies = st.builds(
    ModelReply,
    text=st.just("x"),
    input_tokens=st.integers(0, 100),
    output_tokens=st.integers(0, 100),
    cost_usd=st.none() | st.floats(min_value=0.0, max_value=1.0),
    retries=st.integers(0, 3),
    stand_in=st.booleans(),
    setup_ms=st.sampled_from([0.0]) | durations,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(replies, max_size=8), durations)
def test_the_import_time_is_kept_apart_from_the_phases_time(calls, run_ms):
    usage = Usage()
    for reply in calls:
        _count(usage, reply, 0.0)  # made now (not cached): no look-up time replayed
    setup = sum(reply.setup_ms for reply in calls)
    assert math.isclose(usage.setup_ms, setup, abs_tol=1e-6)
    assert usage.calls == len(calls)
    # What the run measured (its import included), less the import.
    observed = usage.observation(run_ms + setup).run_ms
    assert math.isclose(observed, run_ms, rel_tol=1e-9, abs_tol=1e-6)
