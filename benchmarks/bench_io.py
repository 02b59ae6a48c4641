"""I/O-bound cases: a metric that waits 20 ms (a judge's network call), 16 at a time.

200 cases, outputs precomputed; ``evaluate(concurrency=16)`` against the ideal
(200 x 20 ms / 16 = 250 ms), against a bare thread pool calling ``score``
(what this machine can do at all) and against ``dspy.Evaluate(num_threads=16)`` on
the same metric (through ``to_dspy_metric``) and data.  Several rounds,
interleaved; the figures use the fastest round of each.  ``--dask`` adds the
same evaluation on a local Dask cluster (2 worker processes x 8 threads), whose
executor runs 16 cases at a time.

    python benchmarks/bench_io.py [--cases 200] [--sleep-ms 20] [--concurrency 16]
                                  [--rounds 5] [--dask]

Targets: evaluate <= 1.1x the ideal, and no slower than dspy.Evaluate (both
meet the same floor, so "no slower" allows 2% of noise).  Note that whole
cases make the floor 13 x 20 ms = 260 ms = 1.04x the ideal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from workload import dspy_twin, make_rows

import skynet_jupyter as sj

SLEEP_SECONDS = 0.020


def score(input, output, expected=None):
    time.sleep(SLEEP_SECONDS)  # stands for a judge model's round trip
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": "Correct." if ok else f"Expected {expected}."}


def main(argv: list[str] | None = None) -> int:
    global SLEEP_SECONDS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--sleep-ms", type=float, default=20.0)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dask", action="store_true", help="also on a local Dask cluster")
    args = parser.parse_args(argv)
    SLEEP_SECONDS = args.sleep_ms / 1000.0
    rows = make_rows(args.cases)
    ideal = args.cases * SLEEP_SECONDS / args.concurrency
    # Cases are whole: 200 cases on 16 slots take 13 rounds of 20 ms, not 12.5.
    floor = -(-args.cases // args.concurrency) * SLEEP_SECONDS

    def ours(executor=None):
        def run() -> float:
            report = sj.evaluate(
                score,
                rows,
                outputs="label",
                output_column="prediction",
                concurrency=args.concurrency,
                executor=executor,
            )
            assert report.passed and len(report.cases) == len(rows)
            return report.mean_score

        return run

    def bare_threads() -> float:
        # The floor on this machine: a plain pool calling score, nothing else.
        def one(row: dict) -> float:
            value, info = score({"text": row["text"]}, row["prediction"], {"label": row["label"]})
            assert isinstance(info["feedback"], str)
            return value

        with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            return sum(pool.map(one, rows)) / len(rows)

    contenders = {"bare thread pool": bare_threads, "evaluate": ours()}
    twin = dspy_twin(rows)
    if twin is not None:
        import dspy

        program, devset = twin
        evaluator = dspy.Evaluate(
            devset=devset,
            metric=sj.to_dspy_metric(score),
            num_threads=args.concurrency,
            display_progress=False,
        )
        contenders["dspy.Evaluate"] = lambda: evaluator(program).score / 100.0

    cluster = client = None
    if args.dask:
        from distributed import Client, LocalCluster

        workers = 2
        cluster = LocalCluster(
            processes=True,
            n_workers=workers,
            threads_per_worker=max(1, args.concurrency // workers),
            dashboard_address=":0",
        )
        client = Client(cluster)
        contenders["evaluate on Dask"] = ours(client.get_executor())

    try:
        for run in contenders.values():  # warm up (imports, Dask workers reading the metric)
            run()
        times: dict[str, list[float]] = {name: [] for name in contenders}
        means = {}
        for _ in range(args.rounds):
            for name, run in contenders.items():
                started = time.perf_counter()
                means[name] = run()
                times[name].append(time.perf_counter() - started)
    finally:
        if client is not None:
            client.close()
            cluster.close()
    assert len({round(m, 9) for m in means.values()}) == 1, f"the contenders disagree: {means}"

    best = {name: min(values) for name, values in times.items()}
    print(
        f"io: {args.cases} cases x {args.sleep_ms:g} ms, {args.concurrency} at a time; "
        f"ideal {ideal * 1000:.0f} ms (whole rounds of cases: {floor * 1000:.0f} ms); "
        f"fastest of {args.rounds} rounds"
    )
    for name, values in times.items():
        print(
            f"  {name:<20} min {best[name] * 1000:8.1f} ms  "
            f"median {statistics.median(values) * 1000:8.1f} ms  "
            f"{best[name] / ideal:5.2f}x ideal"
        )
    ratio = best["evaluate"] / ideal
    verdict = "met" if ratio <= 1.1 else "missed"
    print(f"io: evaluate / ideal = {ratio:.2f}x (target <= 1.1x: {verdict})")
    print(
        f"io: evaluate / bare thread pool = {best['evaluate'] / best['bare thread pool']:.2f}x "
        f"(the bare pool is {best['bare thread pool'] / ideal:.2f}x the ideal here: "
        "whole rounds of cases, and sleeps that overrun on a busy machine)"
    )
    if "dspy.Evaluate" in best:
        versus = best["dspy.Evaluate"] / best["evaluate"]
        verdict = "met" if versus >= 0.98 else "missed"
        print(
            f"io: dspy.Evaluate / evaluate = {versus:.2f}x "
            f"(target: evaluate no slower, within 2% noise: {verdict})"
        )
    else:
        print("io: dspy not installed (pip install 'skynet-jupyter[dspy]'): no DSPy figure")
    if "evaluate on Dask" in best:
        print(f"io: evaluate on Dask / ideal = {best['evaluate on Dask'] / ideal:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
