"""The run log's cost (issue 46), side by side in one process, rounds interleaved.

- **recording a 1,000-case evaluate** of a trivial metric (outputs in the data): the call
  with the log off against the same call with the log on, until the call returns (the
  record is then written on the writer thread), and with the writer's work waited for
  (``flush()``): what the recording costs in all;
- **recording a 3-case check**: milliseconds added (written before the call returns);
- **listing 1,000 runs**: ``sj.history(limit=None)`` over a log of 1,000 records;
- **a diff of two 10,000-case runs**: ``sj.diff(a, b)`` reading both from the log.

    python benchmarks/bench_history.py [--rounds 7]

Targets: recording <= 5% of the evaluate, <= 10 ms on the check; listing <= 1 s; diff <= 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from workload import exact_match as score
from workload import make_rows

import skynet_jupyter as sj
from skynet_jupyter.core.report import CaseResult, EvalReport
from skynet_jupyter.runlog.location import LogLocation
from skynet_jupyter.runlog.record import draft
from skynet_jupyter.runlog.recorder import flush, write_draft


class _Metric:
    name = "bench"
    path = None
    source = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n"


def _timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def _evaluate(rows, log):
    sj.configure(run_log=log)
    return sj.evaluate(score, rows, outputs="label", output_column="prediction")


def _check(rows, log):
    sj.configure(run_log=log)
    return sj.check(score, rows, outputs="label", output_column="prediction")


def recording(rounds: int, folder: Path) -> None:
    rows, few = make_rows(1_000), make_rows(3)
    times: dict[str, list[float]] = {k: [] for k in ("off", "on", "on+flush", "c_off", "c_on")}
    for _ in range(2):  # warm up: imports, first files
        _evaluate(rows, folder), _check(few, folder), flush()
    for _ in range(rounds):
        times["off"].append(_timed(lambda: _evaluate(rows, False)))
        times["on"].append(_timed(lambda: _evaluate(rows, folder)))
        flush()
        times["on+flush"].append(_timed(lambda: (_evaluate(rows, folder), flush())))
        times["c_off"].append(_timed(lambda: _check(few, False)))
        times["c_on"].append(_timed(lambda: _check(few, folder)))
    sj.configure(reset=True)
    best = {k: min(v) for k, v in times.items()}
    for name, label in (("off", "log off"), ("on", "log on, returned"), ("on+flush", "+ flush")):
        shown = f"{best[name] * 1e3:7.1f} ms (median {statistics.median(times[name]) * 1e3:.1f})"
        print(f"evaluate 1,000 cases, {label:<17} {shown}")
    # Paired: each round's "on" against the same round's "off" (the machine's load moves).
    ratio = statistics.median(on / off for on, off in zip(times["on"], times["off"], strict=True))
    whole = statistics.median(
        on / off for on, off in zip(times["on+flush"], times["off"], strict=True)
    )
    verdict = "met" if ratio <= 1.05 else "MISSED"
    print(
        f"  recording until the call returns: {100 * (ratio - 1):+.1f}% (paired median; "
        f"target <= 5%: {verdict}); with the record written: {100 * (whole - 1):+.1f}%"
    )
    added = statistics.median(
        (on - off) * 1e3 for on, off in zip(times["c_on"], times["c_off"], strict=True)
    )
    print(
        f"check 3 cases: off {best['c_off'] * 1e3:.2f} ms, on {best['c_on'] * 1e3:.2f} ms: "
        f"{added:+.2f} ms paired median (target <= 10 ms: {'met' if added <= 10 else 'MISSED'})"
    )


def _write(folder: Path, count: int, cases: int, score_of=lambda i: 1.0) -> str:
    last = ""
    for number in range(count):
        results = []
        for i in range(cases):
            case = CaseResult(
                i,
                {"text": f"ticket {i}"},
                {"label": "billing"},
                output="billing",
                score=score_of(i + number),
                feedback="Correct.",
            )
            case.metric_ms = 0.01
            results.append(case)
        report = EvalReport(steps=[], cases=results, metric_name="bench", total_cases=cases)
        made = draft(report, _Metric(), None, None, surface="python")
        last = write_draft(made, LogLocation(path=folder))
    return last


def listing(rounds: int, folder: Path) -> None:
    started = time.perf_counter()
    _write(folder, 1_000, 3)
    print(f"(wrote 1,000 records of 3 cases in {time.perf_counter() - started:.2f} s)")
    every = [_timed(lambda: sj.history(log=folder, limit=None)) for _ in range(rounds)]
    fifty = [_timed(lambda: sj.history(log=folder)) for _ in range(rounds)]
    assert len(sj.history(log=folder, limit=None)) == 1_000
    print(
        f"listing 1,000 runs: {min(every):.3f} s (median {statistics.median(every):.3f}); "
        f"the newest 50: {min(fifty):.3f} s "
        f"(target <= 1 s: {'met' if min(every) <= 1 else 'MISSED'})"
    )


def diffing(rounds: int, folder: Path) -> None:
    a = _write(folder, 1, 10_000)
    b = _write(folder, 1, 10_000, score_of=lambda i: 0.0 if i % 7 == 0 else 1.0)
    times = [_timed(lambda: sj.diff(a, b, log=folder)) for _ in range(rounds)]
    found = sj.diff(a, b, log=folder)
    print(
        f"diff of two 10,000-case runs (read from the log): {min(times):.3f} s "
        f"(median {statistics.median(times):.3f}), {len(found.regressions)} regressions "
        f"(target <= 1 s: {'met' if min(times) <= 1 else 'MISSED'})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as root:
        recording(rounds, Path(root) / "record")
        listing(max(3, rounds // 2), Path(root) / "list")
        diffing(max(3, rounds // 2), Path(root) / "diff")
    return 0


if __name__ == "__main__":
    sys.exit(main())
