"""The per-case floor, guarantee by guarantee: what each part of a case costs, and buys.

``evaluate(concurrency=1)`` on trivial cases costs several times a bare loop.
This script climbs a ladder from the bare loop to the full ``evaluate``, adding
one guarantee per rung, all on the same 10,000 cases in one process, rounds
interleaved, fastest round of each.  Each rung prints its time per case, its
ratio to the bare loop and the step from the rung below: the price of that
guarantee.  Rungs 1-5 are written out here; 6-8 are the package's own code.
Times are this process's CPU time (all threads) unless ``--clock wall``: on a
shared machine it moves far less than the wall clock.

    python benchmarks/bench_floor.py [--cases 10000] [--rounds 9] [--clock cpu|wall] [--no-gc]

1. bare loop: build ``input`` and ``expected``, call ``score``, check the pair
   by hand (what ``bench_overhead.py`` calls the bare loop; the baseline);
   1a. + each pair kept in a list (step from rung 1): the least of the user's
   job, results to look at, which rung 1 does not do (it only sums the scores);
2. + copies: the metric gets its own copy of ``input`` and ``expected`` (a metric
   that changes them cannot corrupt the data, the report or the next case);
3. + ``validate_return``: the contract's own checks, with its messages;
   3a. + a plain tuple kept per case: the floor of anything that keeps results
   (step from rung 3);
   3b. + ``CaseResult`` as it was, a 21-slot dataclass (step from rung 3);
4. + a ``CaseResult``, built as the hot path builds one (step from rung 3);
5. + the watch: the deadline and case fields the watcher thread reads to stop a
   case past its time limit (written without a lock, in a safe order);
6. ``CaseRunner.score_case``: the real hot path (adds catching any exception of
   the pipeline as the case's failure, copies kept shallow only when that is
   safe, the helper context, measurements);
7. ``run_in_threads``: the watched worker thread, results published to the caller;
   7a. + ``load_cases``: the rows read into cases (a ``Case``, an ``input`` and
   an ``expected`` dict per row), then ``run_in_threads`` on them;
8. ``evaluate``: the options, the accounting of one result per case, the
   steps, the report, the feedback advice (step from rung 7a);
   8a. ``evaluate`` on the same rows as a pandas DataFrame (step from rung 8):
   what reading a DataFrame's cells costs on top.
"""

from __future__ import annotations

import argparse
import gc
import math
import time
from dataclasses import dataclass, field
from typing import Any

from workload import exact_match as score
from workload import make_rows

import skynet_jupyter as sj
from skynet_jupyter.core.contract import validate_return
from skynet_jupyter.core.dataset import load_cases
from skynet_jupyter.core.report import scored_result
from skynet_jupyter.models.case_context import CaseContext
from skynet_jupyter.run.one_case import CaseRunner, Deadline
from skynet_jupyter.run.workers import run_in_threads


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


def bare_kept(rows, cases):
    results = []
    for row in rows:
        pair = score({"text": row["text"]}, row["prediction"], {"label": row["label"]})
        check_pair(pair)
        results.append(pair)
    return len(results)


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


@dataclass(slots=True)
class DataclassResult:
    """``CaseResult`` as it was before the compact layout: 21 slots, a dataclass ``__init__``."""

    index: int
    input: dict[str, Any]
    expected: dict[str, Any] | None
    output: Any = None
    score: float | None = None
    feedback: str | None = None
    scores: dict[str, float] = field(default_factory=dict)
    info: dict[str, Any] | None = None
    error: str | None = None
    traceback: str | None = None
    failed_step: str | None = None
    metric_ms: float | None = None
    run_ms: float | None = None
    cost_usd: float | None = None
    judge_cost_usd: float | None = None
    model_calls: int = 0
    cached: bool = False
    measured: Any = None
    retries: int = 0
    stand_in_calls: int = 0
    hint_id: str | None = None


def with_dataclass_results(rows, cases):
    results = []
    for case in cases:
        started = time.perf_counter()
        value, info = validate_return(score(case.input.copy(), case.output, case.expected.copy()))
        result = DataclassResult(case.index, case.input, case.expected, case.output, value)
        result.feedback = info["feedback"]
        result.info = info
        result.metric_ms = (time.perf_counter() - started) * 1000.0
        results.append(result)
    return len(results)


def tuples(rows, cases):
    results = []
    for case in cases:
        started = time.perf_counter()
        value, info = validate_return(score(case.input.copy(), case.output, case.expected.copy()))
        results.append((value, info, (time.perf_counter() - started) * 1000.0))
    return len(results)


def with_results(rows, cases):
    results = []
    for case in cases:
        started = time.perf_counter()
        value, info = validate_return(score(case.input.copy(), case.output, case.expected.copy()))
        metric_ms = (time.perf_counter() - started) * 1000.0
        results.append(
            scored_result(
                case.index,
                case.input,
                case.expected,
                case.output,
                value,
                info["feedback"],
                {},
                info,
                metric_ms,
            )
        )
    return len(results)


def watched(rows, cases):
    results = []
    watch = Deadline()
    for case in cases:
        started = time.perf_counter()
        watch.deadline = started + 60.0
        watch.step = "metric_time_limit"
        value, info = validate_return(score(case.input.copy(), case.output, case.expected.copy()))
        metric_ms = (time.perf_counter() - started) * 1000.0
        results.append(
            scored_result(
                case.index,
                case.input,
                case.expected,
                case.output,
                value,
                info["feedback"],
                {},
                info,
                metric_ms,
            )
        )
        watch.deadline = math.inf
    return len(results)


RUNNER = CaseRunner(sj.load_metric(score))


def hot_path(rows, cases):
    ctx, watch = CaseContext(RUNNER.models), Deadline()
    return len([RUNNER.score_case(case, ctx, watch) for case in cases])


def supervised(rows, cases):
    results, _ = run_in_threads(RUNNER, cases, concurrency=1, on_result=None)
    return len(results)


def loaded_supervised(rows, cases):
    fresh = load_cases(rows, "label", None, None, output_column="prediction")
    results, _ = run_in_threads(RUNNER, fresh, concurrency=1, on_result=None)
    return len(results)


def evaluated(rows, cases):
    report = sj.evaluate(score, rows, outputs="label", output_column="prediction", concurrency=1)
    return len(report.cases)


FRAMES: dict[int, Any] = {}  # the rows as a DataFrame, built once (not timed)


def evaluated_frame(rows, cases):
    import pandas as pd

    frame = FRAMES.get(id(rows))
    if frame is None:
        frame = FRAMES[id(rows)] = pd.DataFrame(rows)
    report = sj.evaluate(score, frame, outputs="label", output_column="prediction", concurrency=1)
    return len(report.cases)


# (name, rung, the rung its step is measured from: None for the one above).
LADDER = [
    ("1 bare loop", bare, None),
    ("  1a + each result kept", bare_kept, "1 bare loop"),
    ("2 + copies for the metric", copies, None),
    ("3 + validate_return", validated, None),
    ("  3a + results as plain tuples", tuples, "3 + validate_return"),
    ("  3b + the old 21-slot dataclass", with_dataclass_results, "3 + validate_return"),
    ("4 + a CaseResult", with_results, "3 + validate_return"),
    ("5 + the watch (time limits)", watched, None),
    ("6 CaseRunner.score_case", hot_path, None),
    ("7 supervise (watched thread)", supervised, None),
    ("  7a + load_cases (rows to cases)", loaded_supervised, "7 supervise (watched thread)"),
    ("8 evaluate (report, advice)", evaluated, "  7a + load_cases (rows to cases)"),
    ("  8a evaluate on a DataFrame", evaluated_frame, "8 evaluate (report, advice)"),
]

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="cpu: this process's CPU time, all threads (steadier on a shared machine); wall",
    )
    parser.add_argument(
        "--no-gc",
        action="store_true",
        help="the garbage collector off: how much of each rung it is",
    )
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    rows = make_rows(args.cases)
    evaluated_frame(rows, None)  # the DataFrame is built here, outside the timing
    cases = list(load_cases(rows, "label", None, None, output_column="prediction"))
    if args.no_gc:
        gc.disable()
    best = {name: math.inf for name, _, _ in LADDER}
    for _ in range(args.rounds):
        for name, rung, _ in LADDER:
            # Each rung starts from a collected heap: otherwise the full collections
            # the earlier rungs' garbage triggers land on whichever rung comes next.
            gc.collect()
            started = clock()
            rung(rows, cases)
            best[name] = min(best[name], clock() - started)
    floor = best[LADDER[0][0]]
    below = floor
    gc_note = ", garbage collector off" if args.no_gc else ""
    print(f"{args.cases} cases, fastest of {args.rounds} rounds, {args.clock} clock{gc_note}")
    print(f"{'rung':<36} {'us/case':>8} {'x bare':>7} {'step us':>8}")
    for name, _, base in LADDER:
        took = best[name]
        step = (took - (below if base is None else best[base])) / args.cases * 1e6
        per_case = took / args.cases * 1e6
        print(f"{name:<36} {per_case:8.2f} {took / floor:7.2f} {step:+8.2f}")
        if base is None or not name.startswith("  "):
            below = took
    ratio = best["8 evaluate (report, advice)"] / floor
    kept = best["8 evaluate (report, advice)"] / best["  1a + each result kept"]
    verdict = "met" if ratio <= 2.0 else "missed"
    print(
        f"evaluate / bare loop: {ratio:.2f}x (target <= 2x: {verdict}); "
        f"/ the bare loop keeping each result (1a): {kept:.2f}x"
    )


if __name__ == "__main__":
    main()
