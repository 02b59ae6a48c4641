"""Claim 1: a 429 with Retry-After is honoured WHOLE on every backend, also when longer than
refusal_timeout: no request to that endpoint from any worker of the run before it ends.

Path: sj.evaluate(..., concurrency=8) (thread mode; ThreadPoolExecutor the same code path),
20 cases, configure(refusal_timeout=3); every request gets HTTP 429 with `Retry-After: 3600`
(anything above rate_limit.MAX_WAIT_SECONDS = 300, e.g. a daily quota window).

Expected: after the first 429, no further request for 3600 s (isolation="process" does this:
one request, the other cases wait / hit run_timeout).
Observed: 20 requests within ~1 s, one per case, no stop: rate_limited_by() pauses the
endpoint only when `pause <= MAX_WAIT_SECONDS`; above that only the refused call fails
(wait_too_long) and every other thread sends at once.  Backends disagree.
Exits 1 while the bug is present.
"""

import os
import sys

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["SKYNET_IMPORT_AHEAD"] = "0"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _attack_server import Server, metric, rows, run_fn

if __name__ == "__main__":
    import skynet_jupyter as sj

    sj.configure(refusal_timeout=3)
    s = Server(lambda n, t: (429, {"Retry-After": "3600"}, 0))
    r = sj.evaluate(
        metric,
        rows(20),
        outputs="a",
        run=run_fn,
        artifact="Say hi",
        models=sj.ModelSettings(task_model=s.model()),
        concurrency=8,
        run_timeout=10,
    )
    arr = s.arrivals()
    early = [a for a in arr[1:] if a > 0.3]  # sent after the first 429 had come back
    print(
        "requests:",
        len(arr),
        "arrivals:",
        arr[:12],
        "stop:",
        r.stop and r.stop.kind,
        "sent during the 3600 s pause:",
        len(early),
    )
    sys.stdout.flush()
    os._exit(1 if early else 0)
