"""Claim (#43 rule 2, claim 3): a 429 WITH Retry-After is honoured: no request
before the pause is over, on every backend.

Path: sj.evaluate(..., isolation="process", concurrency=4), 8 cases,
configure(refusal_timeout=2); the provider answers every request with HTTP 429 and
`Retry-After: 10`.

Expected: no request reaches the provider in the 10 s after the first 429 (the run
may stop at ~2 s without asking again, or wait the 10 s; it must not ask early).
Observed: the shared refusal streak (models/shared_refusals.py, SharedStreak.refused)
cuts the asked pause to the refusal deadline (`pause = min(pause, since+timeout-now)`),
so another worker process sends at ~2 s, 8 s before the provider allowed it.
Under load it is worse: one run saw requests at 0, 4.1, 8.2, 10.1, 10.2, 14.1 s --
each late 429 came more than timeout+pause (2+2 s) after the previous one, so the
shared streak restarted ("began anew") and the run only stopped ~14 s after the
first refusal (7x refusal_timeout).
Thread mode honours the 10 s (and stops late instead: see
repro_retry_after_long_thread_stops_late.py): the backends disagree.
Exits 1 while the bug is present.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _attack_server import Server, metric, rows, run_fn

if __name__ == "__main__":
    import skynet_jupyter as sj

    sj.configure(refusal_timeout=2)
    s = Server(lambda n, t: (429, {"Retry-After": "10"}, 0))
    r = sj.evaluate(
        metric,
        rows(8),
        outputs="a",
        run=run_fn,
        artifact="Say hi",
        models=sj.ModelSettings(task_model=s.model()),
        concurrency=4,
        isolation="process",
    )
    arr = s.arrivals()
    early = [a for a in arr[1:] if a < 9.0]
    print(
        "arrivals:",
        arr,
        "stop:",
        r.stop and r.stop.kind,
        "sent before Retry-After was over:",
        early,
    )
    sys.stdout.flush()
    os._exit(1 if early else 0)
