"""``evaluate`` at its default concurrency: against gepa's ``DefaultAdapter.evaluate``, against
``concurrency=1`` on a CPU-bound metric, and against the ideal on an I/O-bound one.

Run:  python benchmarks/bench_concurrency.py [--cases N] [--rounds R]

One process; the contenders of each figure run interleaved, round by round (the
order flips each round), each from a collected heap.  Reported: the fastest round
of each and the median of the paired ratios (each round's two runs side by side).

- trivial cases (``workload.py``: exact match on precomputed outputs):
  ``evaluate(...)`` at the default concurrency and at ``concurrency=1`` against
  ``gepa``'s ``DefaultAdapter(model=callable, evaluator=...).evaluate`` on the same
  rows and metric (its model a dict lookup of the precomputed output);
- a CPU-bound metric (pure Python arithmetic, ~0.2 ms a case): the default
  concurrency against ``concurrency=1``;
- an I/O-bound metric (``time.sleep(0.02)``, 200 cases): the default concurrency
  (8) and ``concurrency=16`` against the ideal (cases x 20 ms / slots).

Targets (issue 26): default / gepa <= 1.5x (aim: below 1); default / concurrency=1 on the
CPU-bound metric <= 1.0 (1.05 allowed for noise); I/O-bound <= 1.1x the ideal.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable

from workload import exact_match, make_rows

import skynet_jupyter as sj
from skynet_jupyter.core.options import EVAL_CONCURRENCY

SLEEP_S = 0.02


def cpu_metric(input, output, expected=None):
    total = 0
    for i in range(3_000):  # ~0.2 ms of pure Python: holds the GIL the whole time
        total += i * i % 7
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": f"Checked ({total % 3})."}


def io_metric(input, output, expected=None):
    time.sleep(SLEEP_S)  # a model call's wait
    return exact_match(input, output, expected)


def ours(metric: Callable, rows: list[dict], concurrency: int | None = None) -> Callable[[], float]:
    options = {} if concurrency is None else {"concurrency": concurrency}

    def run() -> float:
        report = sj.evaluate(metric, rows, outputs="label", output_column="prediction", **options)
        assert len(report.cases) == len(rows) and report.mean_score is not None
        return report.mean_score

    return run


def gepa_contender(rows: list[dict]) -> Callable[[], float] | None:
    try:
        from gepa.adapters.default_adapter.default_adapter import DefaultAdapter, EvaluationResult
    except ImportError:
        return None
    answers = {row["text"]: row["prediction"] for row in rows}
    batch = [
        {"input": row["text"], "additional_context": {}, "answer": row["label"]} for row in rows
    ]

    def model(messages):
        return answers[messages[1]["content"]]

    def evaluator(data, response):
        value, info = exact_match({"text": data["input"]}, response, {"label": data["answer"]})
        return EvaluationResult(value, info["feedback"])

    adapter = DefaultAdapter(model=model, evaluator=evaluator)

    def run() -> float:
        result = adapter.evaluate(batch, {"prompt": "classify"})
        return sum(result.scores) / len(result.scores)

    return run


def timed(work: Callable[[], float]) -> float:
    gc.collect()
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def race(contenders: dict[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for turn in range(rounds):
        names = list(contenders) if turn % 2 == 0 else list(reversed(contenders))
        for name in names:
            times[name].append(timed(contenders[name]))
    return times


def paired(times: dict[str, list[float]], a: str, b: str) -> float:
    return statistics.median(x / y for x, y in zip(times[a], times[b], strict=True))


def show(title: str, times: dict[str, list[float]], unit_cases: int) -> None:
    print(title)
    for name, runs in times.items():
        per_case = min(runs) / unit_cases * 1e6
        print(f"  {name:<34} {min(runs) * 1000:9.1f} ms fastest  ({per_case:7.2f} µs/case)")


def verdict(label: str, value: float, target: float) -> None:
    print(
        f"  => {label}: {value:.2f}x (target <= {target}): {'met' if value <= target else 'missed'}"
    )


DEFAULT = f"evaluate, default concurrency ({EVAL_CONCURRENCY})"


def against(metric: Callable, rows: list[dict], slots: int) -> dict[str, Callable[[], float]]:
    """The default concurrency and ``concurrency=slots`` on the same metric and rows."""
    return {
        DEFAULT: ours(metric, rows),
        f"evaluate, concurrency={slots}": ours(metric, rows, slots),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    one = "evaluate, concurrency=1"
    rows = make_rows(args.cases)
    trivial = against(exact_match, rows, 1)
    twin = gepa_contender(rows)
    if twin is not None:
        trivial["gepa DefaultAdapter.evaluate"] = twin
    for work in trivial.values():
        work()  # warm up imports and caches
    times = race(trivial, args.rounds)
    show(f"trivial metric, {args.cases:,} cases, {args.rounds} rounds", times, args.cases)
    if twin is not None:
        gepa = paired(times, DEFAULT, "gepa DefaultAdapter.evaluate")
        verdict("default / gepa (paired)", gepa, 1.5)
    verdict("default / concurrency=1 (paired)", paired(times, DEFAULT, one), 1.05)

    cpu_rows = rows[:2_000]
    times = race(against(cpu_metric, cpu_rows, 1), args.rounds)
    show(f"CPU-bound metric, {len(cpu_rows):,} cases", times, len(cpu_rows))
    verdict("default / concurrency=1 (paired)", paired(times, DEFAULT, one), 1.05)

    io_rows = rows[:200]
    times = race(against(io_metric, io_rows, 16), max(3, args.rounds // 2))
    show(f"I/O-bound metric (20 ms a case), {len(io_rows)} cases", times, len(io_rows))
    for name, slots in ((DEFAULT, EVAL_CONCURRENCY), ("evaluate, concurrency=16", 16)):
        ideal = len(io_rows) * SLEEP_S / slots
        verdict(f"{name} / ideal {ideal * 1000:.0f} ms (fastest)", min(times[name]) / ideal, 1.1)


if __name__ == "__main__":
    main()
