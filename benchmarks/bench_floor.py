"""The per-case floor, guarantee by guarantee: what each part of a case costs, and buys.

``evaluate(concurrency=1)`` on trivial cases costs several times a bare loop.
This script climbs a ladder from the bare loop to the full ``evaluate``, adding
one guarantee per rung, all on the same 10,000 cases in one process, rounds
interleaved, fastest round of each.  Each rung prints its time per case, its
ratio to the bare loop and the step from the rung below: the price of that
guarantee.  Rungs 1-5 are written out here; 6-8 are the package's own code.

    python benchmarks/bench_floor.py [--cases 10000] [--rounds 7]

1. bare loop: build ``input`` and ``expected``, call ``score``, check the pair
   by hand (what ``bench_overhead.py`` calls the bare loop);
2. + copies: the metric gets its own copy of ``input`` and ``expected`` (a metric
   that changes them cannot corrupt the data, the report or the next case);
3. + ``validate_return``: the contract's own checks, with its messages;
4. + a ``CaseResult``: the per-case record every report, view and frame reads;
5. + the watch: the deadline and case fields the watcher thread reads to stop a
   case past its time limit (written without a lock, in a safe order);
6. ``CaseRunner.score_case``: the real hot path (adds catching any exception of
   the pipeline as the case's failure, the helper context, measurements);
7. ``supervise``: the watched worker thread, results published to the caller;
8. ``evaluate``: reading the rows (``load_cases``), the report, the advice.
"""

from __future__ import annotations

import argparse
import math
import time

from workload import exact_match as score
from workload import make_rows

import skynet_jupyter as sj
from skynet_jupyter._runner import CaseRunner, Deadline
from skynet_jupyter._workers import supervise
from skynet_jupyter.contract import validate_return
from skynet_jupyter.dataset import load_cases
from skynet_jupyter.report import CaseResult
from skynet_jupyter.runtime import CaseContext


def check_pair(value) -> float:
    if type(value) not in (tuple, list) or len(value) != 2:
        raise ValueError("not a pair")
    number, info = value
    if type(number) not in (int, float) or not math.isfinite(number):
        raise ValueError("the score is not a finite number")
    if type(info) is not dict or type(info.get("feedback")) is not str:
        raise ValueError("no feedback string")
    return float(number)


def bare(rows, cases):
    total = 0.0
    for row in rows:
        total += check_pair(
            score({"text": row["text"]}, row["prediction"], {"label": row["label"]})
        )
    return total


def copies(rows, cases):
    total = 0.0
    for case in cases:
        total += check_pair(score(case.input.copy(), case.output, case.expected.copy()))
    return total


def validated(rows, cases):
    total = 0.0
    for case in cases:
        value, _info = validate_return(score(case.input.copy(), case.output, case.expected.copy()))
        total += value
    return total


def with_results(rows, cases):
    results = []
    for case in cases:
        started = time.perf_counter()
        value, info = validate_return(score(case.input.copy(), case.output, case.expected.copy()))
        result = CaseResult(case.index, case.input, case.expected, case.output, value)
        result.feedback = info["feedback"]
        result.metric_ms = (time.perf_counter() - started) * 1000.0
        results.append(result)
    return len(results)


def watched(rows, cases):
    results = []
    watch = Deadline()
    for case in cases:
        started = time.perf_counter()
        watch.deadline = started + 60.0
        watch.step = "metric_time_limit"
        value, info = validate_return(score(case.input.copy(), case.output, case.expected.copy()))
        result = CaseResult(case.index, case.input, case.expected, case.output, value)
        result.feedback = info["feedback"]
        result.metric_ms = (time.perf_counter() - started) * 1000.0
        watch.deadline = math.inf
        results.append(result)
    return len(results)


RUNNER = CaseRunner(sj.load_metric(score))


def hot_path(rows, cases):
    ctx, watch = CaseContext(RUNNER.models), Deadline()
    return len([RUNNER.score_case(case, ctx, watch) for case in cases])


def supervised(rows, cases):
    results, _ = supervise(RUNNER, cases, concurrency=1, on_result=None)
    return len(results)


def evaluated(rows, cases):
    report = sj.evaluate(score, rows, outputs="label", output_column="prediction", concurrency=1)
    return len(report.cases)


LADDER = [
    ("1 bare loop", bare),
    ("2 + copies for the metric", copies),
    ("3 + validate_return", validated),
    ("4 + a CaseResult", with_results),
    ("5 + the watch (time limits)", watched),
    ("6 CaseRunner.score_case", hot_path),
    ("7 supervise (watched thread)", supervised),
    ("8 evaluate (rows, report, advice)", evaluated),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rows = make_rows(args.cases)
    cases = list(load_cases(rows, "label", None, None, output_column="prediction"))
    best = {name: math.inf for name, _ in LADDER}
    for _ in range(args.rounds):
        for name, rung in LADDER:
            started = time.perf_counter()
            rung(rows, cases)
            best[name] = min(best[name], time.perf_counter() - started)
    floor = best[LADDER[0][0]]
    below = floor
    print(f"{args.cases} cases, fastest of {args.rounds} rounds")
    print(f"{'rung':<36} {'us/case':>8} {'x bare':>7} {'step us':>8}")
    for name, _ in LADDER:
        took = best[name]
        step = (took - below) / args.cases * 1e6
        per_case = took / args.cases * 1e6
        print(f"{name:<36} {per_case:8.2f} {took / floor:7.2f} {step:+8.2f}")
        below = took


if __name__ == "__main__":
    main()
