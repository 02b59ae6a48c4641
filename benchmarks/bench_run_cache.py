"""A persistent run cache: a 200-case eval with a 20 ms run, cold vs warm from a new process.

Each contender is a fresh interpreter (what a kernel restart gives): the
cold one starts from an empty cache file and calls ``run`` 200 times; the
warm one starts a new process on the file the cold one left.  Rounds
alternate cold and warm; the fastest round of each is reported, with the
ratio warm / cold (and the process start-up, measured alone, for scale).

    python benchmarks/bench_run_cache.py            # ~20 s
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES, RUN_MS, CONCURRENCY = 200, 20, 8

ONE_EVAL = f"""
import json, sys, time
import skynet_jupyter as sj

def run(artifact, input):
    time.sleep({RUN_MS} / 1000)
    return input["text"].upper()

def score(input, output, expected=None):
    return float(output == expected["label"]), {{"feedback": "compared"}}

rows = [{{"text": f"t{{i}}", "label": f"T{{i}}"}} for i in range({CASES})]
started = time.perf_counter()
report = sj.evaluate(score, rows, outputs="label", run=run, artifact="p",
                     concurrency={CONCURRENCY}, run_cache=sj.RunCache(path=sys.argv[1]))
took = time.perf_counter() - started
print(json.dumps({{"seconds": took, "cached": sum(c.cached for c in report.cases),
                  "mean": report.mean_score}}))
"""

START_ONLY = "import skynet_jupyter"


def timed(args: list[str]) -> tuple[float, dict]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", *args], capture_output=True, text=True, check=True, timeout=300
    )
    wall = time.perf_counter() - started
    lines = done.stdout.strip().splitlines()
    return wall, (json.loads(lines[-1]) if lines else {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    cold, warm, start = [], [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "runs.sqlite")
            wall, seen = timed([ONE_EVAL, path])
            assert seen["cached"] == 0 and seen["mean"] == 1.0
            cold.append((wall, seen["seconds"]))
            wall, seen = timed([ONE_EVAL, path])
            assert seen["cached"] == CASES and seen["mean"] == 1.0
            warm.append((wall, seen["seconds"]))
        start.append(timed([START_ONLY])[0])
    best_cold, best_warm = min(cold), min(warm)
    print(f"process start-up (import skynet_jupyter): {min(start) * 1000:7.0f} ms")
    print(
        f"cold: {best_cold[0] * 1000:7.0f} ms process, {best_cold[1] * 1000:6.0f} ms evaluate "
        f"({CASES} x {RUN_MS} ms run, concurrency {CONCURRENCY})"
    )
    print(
        f"warm: {best_warm[0] * 1000:7.0f} ms process, {best_warm[1] * 1000:6.0f} ms evaluate "
        f"(all {CASES} outputs from the file, run not called)"
    )
    print(
        f"warm / cold: {best_warm[1] / best_cold[1]:.2f}x evaluate, "
        f"{best_warm[0] / best_cold[0]:.2f}x whole process"
    )


if __name__ == "__main__":
    main()
