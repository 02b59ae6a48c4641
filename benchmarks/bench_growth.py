"""Growth: time per case and memory at 10,000 and at 100,000 cases.

The same trivial exact-match evaluation (``evaluate(concurrency=1)``, outputs
precomputed) on 10,000 and on 100,000 cases.  Time per case: fastest of
several rounds, timed without tracing.  Peak memory: one more run of each size
under ``tracemalloc`` (what ``evaluate`` allocates above the input rows: cases,
results, report), and the process's peak resident size at the end.

    python benchmarks/bench_growth.py [--small 10000] [--large 100000] [--rounds 3]

Target: time per case at 100,000 within 1.5x of that at 10,000.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import time
import tracemalloc

from workload import exact_match as score
from workload import make_rows

import skynet_jupyter as sj


def run(rows: list[dict], concurrency: int) -> sj.EvalReport:
    report = sj.evaluate(
        score, rows, outputs="label", output_column="prediction", concurrency=concurrency
    )
    assert report.passed and len(report.cases) == len(rows)
    return report


def peak_bytes(rows: list[dict], concurrency: int) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        report = run(rows, concurrency)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del report
    return peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args(argv)

    sizes = {"small": args.small, "large": args.large}
    data = {name: make_rows(count) for name, count in sizes.items()}
    run(data["small"][:100], args.concurrency)  # warm up
    times: dict[str, list[float]] = {name: [] for name in sizes}
    for _ in range(args.rounds):
        for name, rows in data.items():
            gc.collect()
            started = time.perf_counter()
            report = run(rows, args.concurrency)
            times[name].append(time.perf_counter() - started)
            del report
    peaks = {name: peak_bytes(rows, args.concurrency) for name, rows in data.items()}
    max_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux

    per_case = {name: min(values) / sizes[name] * 1e6 for name, values in times.items()}
    print(
        f"growth: concurrency {args.concurrency}, fastest of {args.rounds} rounds "
        "(memory: one traced run each)"
    )
    for name, count in sizes.items():
        print(
            f"  {count:>7} cases  min {min(times[name]):7.2f} s  "
            f"median {statistics.median(times[name]):7.2f} s  {per_case[name]:6.2f} us/case  "
            f"peak {peaks[name] / 2**20:7.1f} MiB ({peaks[name] / count:6.0f} B/case)"
        )
    ratio = per_case["large"] / per_case["small"]
    verdict = "met" if ratio <= 1.5 else "missed"
    print(
        f"growth: time per case at {args.large} / at {args.small} = {ratio:.2f}x "
        f"(target <= 1.5x: {verdict})"
    )
    memory_ratio = (peaks["large"] / args.large) / (peaks["small"] / args.small)
    print(
        f"growth: peak memory {peaks['large'] / 2**20:.1f} MiB at {args.large} cases "
        f"({peaks['large'] / args.large:.0f} B/case, {memory_ratio:.2f}x the per-case peak at "
        f"{args.small}); process max RSS {max_rss_mb:.0f} MiB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
