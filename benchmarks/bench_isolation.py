"""The cost of ``isolation="process"`` per case, side by side with thread mode.

The same trivial exact-match metric and data (outputs precomputed in the data),
``evaluate(concurrency=1)`` in thread mode and in process mode, several rounds
interleaved in one process, the fastest round of each (the machine is shared
and noisy: the minimum is the least disturbed run).  Process mode pays a worker
process start (a fresh interpreter importing skynet_jupyter) once per run and
once per killed case, and per case a pickle each way over a pipe; so:

- **per case**: thread mode, (time for N cases - time for 1 case) / (N - 1);
  process mode, the time from the first finished case to the last, / (N - 1)
  (from the events, which process mode sends as each case returns), so the
  start-up, which swings by a second on a loaded machine, stays out of it;
- **start-up**: process mode's time to its first finished case.

    python benchmarks/bench_isolation.py [--cases 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
import time

from workload import exact_match as score
from workload import make_rows

import skynet_jupyter as sj


def timed(rows: list[dict], isolation: str) -> tuple[float, float, float]:
    """(total seconds, seconds to the first finished case, first to last finished case)."""
    finished: list[float] = []

    def listen(event: object) -> None:
        if isinstance(event, sj.CaseFinished):
            finished.append(time.perf_counter())

    started = time.perf_counter()
    report = sj.evaluate(
        score,
        rows,
        outputs="label",
        output_column="prediction",
        concurrency=1,
        isolation=isolation,
        on_event=listen,
    )
    total = time.perf_counter() - started
    assert report.passed and len(report.cases) == len(rows), report
    return total, finished[0] - started, finished[-1] - finished[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)

    many = make_rows(args.cases)
    one = many[:1]
    timed(one, "thread")  # warm up: imports, first-call caches
    timed(one, "process")
    thread_one, thread_many, start_up, spread, process_many = [], [], [], [], []
    for _ in range(args.rounds):
        thread_one.append(timed(one, "thread")[0])
        thread_many.append(timed(many, "thread")[0])
        total, first, rest = timed(many, "process")
        process_many.append(total)
        start_up.append(first)
        spread.append(rest)
    thread_case = (min(thread_many) - min(thread_one)) / (args.cases - 1)
    process_case = min(spread) / (args.cases - 1)
    print(f"isolation: {args.cases} trivial cases, concurrency 1, fastest of {args.rounds} rounds")
    print(
        f"  thread    {min(thread_many) * 1000:9.1f} ms in all   {thread_case * 1e6:8.1f} us/case"
    )
    print(
        f"  process   {min(process_many) * 1000:9.1f} ms in all   "
        f"{process_case * 1e6:8.1f} us/case   start-up (to the first case) "
        f"{min(start_up) * 1000:.0f} ms"
    )
    print(
        f"isolation: process / thread per case = {process_case / thread_case:.1f}x "
        f"(+{(process_case - thread_case) * 1e6:.0f} us/case); "
        f"+{min(start_up) * 1000:.0f} ms per run and per killed case (a worker start)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
