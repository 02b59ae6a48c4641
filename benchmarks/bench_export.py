"""``report.to_dict()`` (what ``--json`` prints) and ``to_frame()`` at a million cases.

Run:  python benchmarks/bench_export.py [--cases N] [--repeat R]

One process, contenders interleaved round by round (fastest round and median):

- ``to_dict``: the report's JSON-ready dict, every string redacted;
- ``bare dict``: the same dict per case built by a plain comprehension, nothing
  redacted and no type checked (the floor: what building the dicts costs);
- ``bare, no gc``: the same with the cyclic collector paused, as ``to_dict`` pauses it
  from 10,000 cases on (the floor of the floor);
- ``case by case``: ``json_ready`` called for each case, as ``to_dict`` did before
  issue 26's second round (the same dicts: ``tests/core/test_report_export_fast.py``);
- ``to_frame``: the report's DataFrame;
- ``column-wise``: ``pd.DataFrame`` from one list per field (the yardstick of
  issue 26: ``to_frame`` no slower than it).

Targets (issue 26): ``to_dict`` <= 3 s at 1,000,000 cases; ``to_frame`` / column-wise <= 1.0
(1.05 allowed for noise).  The cases are those ``evaluate`` makes for an exact-match
metric with named scores: a dict input and expected, a label output, a feedback.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import pandas as pd

from skynet_jupyter.core.json_export import json_ready
from skynet_jupyter.core.report import CaseResult, CheckReport
from skynet_jupyter.core.secrets import Redactor

LABELS = ("billing", "technical", "other")


def make_report(count: int) -> CheckReport:
    cases = []
    for i in range(count):
        want, got = LABELS[i % 3], LABELS[(2 * i) % 3]
        ok = want == got
        feedback = "Correct." if ok else f"Expected {want!r}, got {got!r}."
        scores = {"accuracy": 1.0 if ok else 0.0, "speed": 0.5}
        cases.append(
            CaseResult(i, {"text": f"ticket {i}"}, {"label": want}, got, scores["accuracy"],
                       feedback, scores, None, metric_ms=0.01)
        )  # fmt: skip
    return CheckReport(steps=[], cases=cases, kind="eval", total_cases=count)


def bare_dicts(report: CheckReport) -> list[dict[str, Any]]:
    return [
        {
            "case": c.index, "input": dict(c.input), "expected": dict(c.expected or {}),
            "output": c.output, "score": c.score, "scores": dict(c.scores),
            "feedback": c.feedback, "passed": c.failed_step is None,
            "failed_step": c.failed_step, "error": c.error, "traceback": c.traceback,
            "metric_ms": c.metric_ms, "run_ms": c.run_ms, "cost_usd": c.cost_usd,
            "judge_cost_usd": c.judge_cost_usd, "cached": c.cached,
            "model_calls": c.model_calls, "retries": c.retries,
            "stand_in_calls": c.stand_in_calls,
        }
        for c in report.cases
    ]  # fmt: skip


def bare_dicts_no_gc(report: CheckReport) -> list[dict[str, Any]]:
    gc.disable()
    try:
        return bare_dicts(report)
    finally:
        gc.enable()


def case_by_case(report: CheckReport) -> list[dict[str, Any]]:
    redact = Redactor()
    return [json_ready(case, redact) for case in report.cases]


def column_wise(report: CheckReport) -> Any:
    cases = report.cases
    fields = ("input", "expected", "output", "score", "feedback", "failed_step", "error",
              "metric_ms", "run_ms", "cost_usd", "judge_cost_usd", "cached", "retries",
              "stand_in_calls")  # fmt: skip
    columns: dict[str, list[Any]] = {"case": [c.index for c in cases]}
    columns.update((name, [getattr(c, name) for c in cases]) for name in fields)
    columns["passed"] = [c.failed_step is None for c in cases]
    for name in ("accuracy", "speed"):
        columns[f"scores.{name}"] = [c.scores.get(name, math.nan) for c in cases]
    return pd.DataFrame(columns).set_index("case")


def timed(work: Callable[[], Any]) -> tuple[float, float]:
    """Wall and CPU seconds of ``work()`` (CPU: less moved by the other processes)."""
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    report = make_report(args.cases)
    contenders: dict[str, Callable[[], Any]] = {
        "to_dict": report.to_dict,
        "bare dict": lambda: bare_dicts(report),
        "bare, no gc": lambda: bare_dicts_no_gc(report),
        "case by case": lambda: case_by_case(report),
        "to_frame": report.to_frame,
        "column-wise": lambda: column_wise(report),
    }
    times: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[float]] = {name: [] for name in contenders}
    for turn in range(args.repeat):
        order = list(contenders) if turn % 2 == 0 else list(reversed(contenders))
        for name in order:
            wall, used = timed(contenders[name])
            times[name].append(wall)
            cpu[name].append(used)
    print(
        f"{args.cases:,} cases, {args.repeat} rounds, interleaved, load average"
        f" {os.getloadavg()[0]:.1f} (seconds: fastest / median wall; fastest CPU)"
    )
    for name, runs in times.items():
        print(
            f"  {name:<12} {min(runs):8.3f} / {statistics.median(runs):.3f}; {min(cpu[name]):.3f}"
        )
    to_dict, bare = min(times["to_dict"]), min(times["bare dict"])
    frame, columns = min(times["to_frame"]), min(times["column-wise"])
    scale = 1_000_000 / args.cases
    print(
        f"to_dict: {to_dict:.2f} s ({to_dict / args.cases * 1e6:.2f} µs/case;"
        f" {to_dict * scale:.2f} s"
        f" per million), {to_dict / bare:.2f}x the bare dicts"
        f" ({to_dict / min(times['bare, no gc']):.2f}x with no gc;"
        f" {min(times['case by case']) / to_dict:.2f}x faster than case by case);"
        f" target <= 3 s per million: {'met' if to_dict * scale <= 3 else 'missed'}"
    )
    print(
        f"to_frame / column-wise: {frame / columns:.2f}x; target <= 1.0 (1.05 with noise):"
        f" {'met' if frame / columns <= 1.05 else 'missed'}"
    )


if __name__ == "__main__":
    main()
