"""Claim (#43 rule 2, claims 1/2/5): with Dask the worker processes of one run share
the refusal pause and take turns: "the same ~4 requests, not one stream per worker",
and the run stops at about refusal_timeout after the first refusal.

Path: sj.evaluate(..., executor=distributed.Client(LocalCluster(n_workers=8,
threads_per_worker=1))), 30 cases, configure(refusal_timeout=3); every request gets
HTTP 429 without Retry-After.

Expected: as in thread mode / isolation="process": 4-5 requests (0, 0.5, 1.5, 3 s),
the last about 3 s after the first, then no more.
Observed: 4 requests by ~3 s as expected, then the cases already handed to the Dask
workers keep starting and each sends a request once the (0.05 s) post-deadline pause
is over: 8-10 requests, the last ~5-6 s after the first (2 s after the stop).
SharedStreak.take_turn only refuses while a pause runs or another has the turn, so
after the stop every queued case gets "its" probe.
Exits 1 while the bug is present.  (~40-60 s on a loaded 2-core machine: cluster start.)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _attack_server import Server, metric, rows, run_fn

if __name__ == "__main__":
    import collections

    from distributed import Client, LocalCluster

    import skynet_jupyter as sj

    sj.configure(refusal_timeout=3)
    s = Server(lambda n, t: (429, {}, 0))
    cluster = LocalCluster(
        n_workers=8, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    r = sj.evaluate(
        metric,
        rows(30),
        outputs="a",
        run=run_fn,
        artifact="Say hi",
        models=sj.ModelSettings(task_model=s.model()),
        executor=client,
    )
    arr = s.arrivals()
    said = collections.Counter((c.error or "ok")[:60] for c in r.cases)
    print("requests:", len(arr), "arrivals:", arr, "stop:", r.stop and r.stop.kind)
    print(dict(said))
    sys.stdout.flush()
    os._exit(1 if len(arr) > 6 else 0)
