"""A hung metric in the contract check: what the user waits for (issue 45, item 2).

Three cases, ``timeout=2``, a metric that never returns (in ``time.sleep``, or
in a busy Python loop), on threads and in worker processes.  The check runs its
cases side by side (``CHECK_CONCURRENCY``), so a metric that hangs on every case
costs one time limit; "one at a time" is the same three cases with concurrency 1,
as the check ran them before (each case waits for its own limit in turn).

    python benchmarks/bench_hung_check.py [--timeout 2] [--rounds 2]

Target: the check <= limit + 1 s on every backend.
"""

from __future__ import annotations

import argparse
import sys
import time

import skynet_jupyter as sj
from skynet_jupyter.core.options import RunOptions
from skynet_jupyter.run.engine import execute

SLEEPS = """
import time
def score(input, output, expected=None):
    time.sleep(3600)
    return 1.0, {"feedback": "never"}
"""
SPINS = """
def score(input, output, expected=None):
    while True:
        pass
"""
ROWS = [{"n": n, "out": "x"} for n in range(3)]


def check_seconds(metric: str, isolation: str, timeout: float, concurrency: int | None) -> float:
    """Seconds the check takes (``concurrency`` None: the check's own default)."""
    started = time.perf_counter()
    if concurrency is None:
        report = sj.check(metric, ROWS, output_column="out", timeout=timeout, isolation=isolation)
    else:
        options = RunOptions.given(
            output_column="out",
            cases=3,
            timeout=timeout,
            isolation=isolation,
            concurrency=concurrency,
        )
        report = execute("check", metric, ROWS, options, on_event=None, run_cache=None)
    seconds = time.perf_counter() - started
    assert [case.failed_step for case in report.cases] == ["metric_time_limit"] * 3, report
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    limit = args.timeout
    met = True
    for name, metric in (("sleep", SLEEPS), ("busy loop", SPINS)):
        for isolation in ("thread", "process"):
            side: list[float] = []
            alone: list[float] = []
            for _ in range(args.rounds):  # interleaved: both see the same machine
                side.append(check_seconds(metric, isolation, limit, None))
                alone.append(check_seconds(metric, isolation, limit, 1))
            best, before = min(side), min(alone)
            ok = best <= limit + 1.0
            met = met and ok
            print(
                f"{name:9s} {isolation:7s}  check {best:5.2f} s   one at a time {before:5.2f} s"
                f"   ratio {best / before:4.2f}x   target <= {limit + 1:.1f} s: "
                f"{'met' if ok else 'MISSED'}"
            )
    print(f"every backend within one time limit + 1 s: {'met' if met else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
