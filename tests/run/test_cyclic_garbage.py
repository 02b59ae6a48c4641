"""A metric's cyclic garbage is collected while a run goes on (the collector is the user's).

An attack on a spacing of the garbage collector's young generation during runs (tried for
issue 37's per-case target, not kept) showed a metric whose per-case garbage is a cycle
holding a large buffer: spaced out, the garbage of thousands of cases was kept at once
(5 GB at 100,000 cases of 200 KB).  A run leaves the collector's settings alone.
"""

from __future__ import annotations

import gc
import tracemalloc

import skynet_jupyter as sj

METRIC = """
class Node:
    pass

def score(input, output, expected=None):
    node = Node()
    node.itself = node  # garbage only the cyclic collector frees
    node.payload = bytearray(200_000)
    return 1.0, {"feedback": "ok"}
"""


def test_a_metrics_cyclic_garbage_does_not_pile_up_during_a_run():
    rows = [{"q": str(n), "out": "x"} for n in range(2_000)]  # 400 MB if none were freed
    before = gc.get_threshold()
    tracemalloc.start()
    try:
        report = sj.evaluate(METRIC, rows, output_column="out", concurrency=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.passed and len(report.cases) == 2_000
    assert peak < 100 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    assert gc.get_threshold() == before
