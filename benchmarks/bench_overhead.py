"""Per-case overhead: ``evaluate(concurrency=1)`` vs a bare loop vs ``dspy.Evaluate``.

10,000 trivial cases (an exact-match metric; outputs precomputed in the data,
``output_column``), the same metric and data for all three, side by side in one
process, several rounds interleaved; the figures use the fastest round of each
(the machine is shared and noisy: the minimum is the least disturbed run).

- **bare loop**: for each row, build ``input`` and ``expected``, call
  ``score``, and check the returned pair by hand (the contract's rules);
- **evaluate**: ``skynet_jupyter.evaluate(score, rows, outputs="label",
  output_column="prediction", concurrency=1)``, everything included (reading
  the rows, the watched worker, the report, the feedback advice);
- **dspy.Evaluate**: ``num_threads=1, display_progress=False``, a program that
  returns the precomputed output as a ``dspy.Prediction``, and the same metric
  through ``to_dspy_metric``; also with a DSPy-native metric (a bare float
  comparison), DSPy's own floor.

    python benchmarks/bench_overhead.py [--cases 10000] [--rounds 5] [--breakdown]

Targets: evaluate <= 2x the bare loop; dspy.Evaluate >= 5x evaluate's time.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from workload import dspy_twin, make_rows
from workload import exact_match as score

import skynet_jupyter as sj


def check_pair(value) -> float:
    """The contract's rules, by hand: a pair of a finite number and a dict with feedback."""
    if type(value) not in (tuple, list) or len(value) != 2:
        raise ValueError("not a pair")
    number, info = value
    if type(number) not in (int, float) or not math.isfinite(number):
        raise ValueError("the score is not a finite number")
    if type(info) is not dict or type(info.get("feedback")) is not str:
        raise ValueError("no feedback string")
    scores = info.get("scores")
    if scores is not None and (
        type(scores) is not dict
        or any(type(v) not in (int, float) or not math.isfinite(v) for v in scores.values())
    ):
        raise ValueError("named scores are not numbers")
    return float(number)


def bare_loop(rows: list[dict]) -> float:
    total = 0.0
    for row in rows:
        case_input = {"text": row["text"]}
        expected = {"label": row["label"]}
        total += check_pair(score(case_input, row["prediction"], expected))
    return total / len(rows)


def ours(rows: list[dict]) -> float:
    report = sj.evaluate(score, rows, outputs="label", output_column="prediction", concurrency=1)
    assert report.passed and len(report.cases) == len(rows)
    return report.mean_score


def dspy_contenders(rows: list[dict]):
    """(same-metric runner, native-metric runner), or None without dspy."""
    twin = dspy_twin(rows)
    if twin is None:
        return None
    import dspy

    program, devset = twin
    adapted = sj.to_dspy_metric(score)

    def native(example, pred, trace=None):
        return float(example.label == pred.label)

    def run(metric):
        def evaluate_with_dspy(_rows: list[dict]) -> float:
            evaluator = dspy.Evaluate(
                devset=devset, metric=metric, num_threads=1, display_progress=False
            )
            return evaluator(program).score / 100.0

        return evaluate_with_dspy

    return run(adapted), run(native)


def timed(function, rows) -> tuple[float, float]:
    started = time.perf_counter()
    value = function(rows)
    return time.perf_counter() - started, value


def breakdown(rows: list[dict], rounds: int) -> None:
    """Where evaluate's time goes (fastest round of each phase)."""
    from skynet_jupyter.core.advice import advise
    from skynet_jupyter.core.dataset import load_cases
    from skynet_jupyter.run import engine
    from skynet_jupyter.run.workers import run_in_threads

    metric = sj.load_metric(score)
    runner = engine.CaseRunner(metric)
    phases: dict[str, list[float]] = {}
    for _ in range(rounds):
        started = time.perf_counter()
        cases = load_cases(rows, "label", None, None, output_column="prediction")
        phases.setdefault("load_cases", []).append(time.perf_counter() - started)
        started = time.perf_counter()
        for case in cases:
            runner.run_one(case)
        phases.setdefault("run_one x N (no thread)", []).append(time.perf_counter() - started)
        started = time.perf_counter()
        run_in_threads(runner, cases, concurrency=1, on_result=None)
        phases.setdefault("supervise (watched worker)", []).append(time.perf_counter() - started)
        report = sj.evaluate(
            score, rows, outputs="label", output_column="prediction", concurrency=1
        )
        started = time.perf_counter()
        advise(report)
        phases.setdefault("advise (feedback advice)", []).append(time.perf_counter() - started)
    count = len(rows)
    for name, times in phases.items():
        best = min(times)
        print(f"  breakdown: {name:<30} {best * 1000:8.1f} ms  {best / count * 1e6:6.2f} us/case")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dspy-rounds", type=int, default=2, help="dspy.Evaluate is slow")
    parser.add_argument("--breakdown", action="store_true", help="time evaluate's phases too")
    args = parser.parse_args(argv)

    rows = make_rows(args.cases)
    contenders = {"bare loop": bare_loop, "evaluate": ours}
    extra = dspy_contenders(rows)
    if extra is not None:
        contenders["dspy.Evaluate (same metric)"] = extra[0]
        contenders["dspy.Evaluate (native metric)"] = extra[1]
    times: dict[str, list[float]] = {name: [] for name in contenders}
    means: dict[str, float] = {}
    ours(rows[:100])  # warm up: imports, first-call caches
    for round_number in range(args.rounds):
        for name, function in contenders.items():
            if name.startswith("dspy") and round_number >= args.dspy_rounds:
                continue
            seconds, mean = timed(function, rows)
            times[name].append(seconds)
            means[name] = mean
    assert len({round(m, 9) for m in means.values()}) == 1, f"the contenders disagree: {means}"

    best = {name: min(values) for name, values in times.items() if values}
    per_case = {name: value / args.cases * 1e6 for name, value in best.items()}
    print(f"overhead: {args.cases} cases, mean score {means['evaluate']:.4f}, "
          f"fastest of {args.rounds} rounds ({args.dspy_rounds} for dspy)")  # fmt: skip
    for name, values in times.items():
        if not values:
            continue
        print(
            f"  {name:<30} min {best[name] * 1000:9.1f} ms  "
            f"median {statistics.median(values) * 1000:9.1f} ms  {per_case[name]:7.2f} us/case"
        )
    ratio = best["evaluate"] / best["bare loop"]
    print(f"overhead: evaluate / bare loop = {ratio:.2f}x (target <= 2.0x: "
          f"{'met' if ratio <= 2.0 else 'missed'})")  # fmt: skip
    if extra is not None and "dspy.Evaluate (same metric)" in best:
        same = best["dspy.Evaluate (same metric)"] / best["evaluate"]
        native = best["dspy.Evaluate (native metric)"] / best["evaluate"]
        print(f"overhead: dspy.Evaluate / evaluate = {same:.1f}x with the same metric, "
              f"{native:.1f}x with a native DSPy metric (target >= 5x: "
              f"{'met' if min(same, native) >= 5 else 'missed'})")  # fmt: skip
    else:
        print("overhead: dspy not installed (pip install 'skynet-jupyter[dspy]'): no DSPy figure")
    if args.breakdown:
        breakdown(rows, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
