"""A worker thread stopped by an exception sent to it (Ctrl-C, a time limit) can be inside
an HTTP client's connection-pool lock, between its acquire and its ``with``: that lock is
then held for good, and every later request through that client waits forever (found by
the full suite: after one Ctrl-C, every next call on that worker hung).  The calls after a
stop get litellm clients of their own.  A real server on 127.0.0.1; the stopped thread's
held lock is made by holding every cached client's pool lock, as it would leave them.
"""

from __future__ import annotations

import sys
import time

import skynet_jupyter as sj
from tests.openai_server import OpenAIServer

ROWS = [{"text": f"case {n}", "out": "yes"} for n in range(3)]


def judged(input, output, expected=None):
    from skynet import llm

    verdict = llm("Answer PASS or FAIL.", input=input["text"])
    return (1.0 if "PASS" in verdict else 0.0), {"feedback": "The judge said " + verdict}


def hangs(input, output, expected=None):
    time.sleep(3)


def held_pool_locks() -> list:
    """Every connection-pool lock of litellm's cached clients, held, as a thread stopped
    inside one leaves it."""
    cache = sys.modules["litellm"].in_memory_llm_clients_cache
    held = []
    for client in list(vars(cache).get("cache_dict", {}).values()):
        http = getattr(client, "_client", None)
        pool = getattr(getattr(http, "_transport", None), "_pool", None)
        lock = getattr(getattr(pool, "_optional_thread_lock", None), "_lock", None)
        if lock is not None and lock.acquire(blocking=False):
            held.append(lock)
    return held


def test_after_a_thread_is_stopped_the_next_calls_do_not_wait_for_its_client():
    with OpenAIServer(reply=lambda request: "PASS") as server:
        model = {"model": "openai/gpt-4o-mini", "api_base": server.base_url, "api_key": "sk-x1"}
        options = {"output_column": "out", "models": sj.ModelSettings(metric_model=model)}
        assert sj.evaluate(judged, ROWS, **options).passed  # litellm keeps its client
        held = held_pool_locks()
        assert held, "no cached client found: litellm keeps its clients elsewhere now"
        stopped = sj.evaluate(hangs, ROWS[:1], output_column="out", timeout=1)
        assert "time limit" in stopped.cases[0].error  # its thread was sent an exception
        after = sj.evaluate(judged, ROWS, timeout=10, **options)
        assert after.passed, [case.error for case in after.cases]
        for lock in held:
            lock.release()
