"""Claim (#43 rule 2, claims 1/3): requests are never sent back to back to a provider
that refuses everything; an unusable Retry-After is ignored (the header-less pacing
applies), as `Retry-After: garbage` and `Retry-After: 1e400` are.

Path: sj.evaluate(..., concurrency=8) (thread mode; isolation="process" is the same),
20 cases, configure(refusal_timeout=3); every request gets HTTP 429 with
`Retry-After: -5` (not a valid delay-seconds: RFC 9110 allows only 1*DIGIT).

Expected: as for a garbage value: ~4 requests in the 3 s (0, 0.5, 1.5, 3 s).
Observed: rate_limit.retry_after() clamps the negative number to 0 (max(0.0, seconds))
and the pause is 0: ~45-50 requests in 3 s, each retried as soon as its 429 comes
back (the storm the header-less pacing was added to stop).  `Retry-After: 0` gives
the same flood.
Exits 1 while the bug is present.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _attack_server import Server, metric, rows, run_fn

if __name__ == "__main__":
    import skynet_jupyter as sj

    sj.configure(refusal_timeout=3)
    s = Server(lambda n, t: (429, {"Retry-After": "-5"}, 0))
    r = sj.evaluate(
        metric,
        rows(20),
        outputs="a",
        run=run_fn,
        artifact="Say hi",
        models=sj.ModelSettings(task_model=s.model()),
        concurrency=8,
    )
    arr = s.arrivals()
    print("requests:", len(arr), "arrivals:", arr[:20], "stop:", r.stop and r.stop.kind)
    sys.stdout.flush()
    os._exit(1 if len(arr) > 10 else 0)
