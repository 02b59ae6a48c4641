"""The README's test command: what a contributor waits for (issue 45, item 3).

Two figures, each whole commands in fresh processes:

- the suite's heaviest in-process part, the modules that drive the magics in one
  IPython shell (``SHELL_MODULES``, collected with the whole suite, as a worker
  collects them), with the garbage collector's frozen generation
  (tests/conftest.py, ``pytest_collection_finish``) and without it
  (``SKYNET_TEST_GC_FREEZE=0``), interleaved round by round, in one process each
  (``-n 0``), so that the two differ by that alone;
- with ``--full``, the README's command itself (``python -m pytest``: two workers),
  once, its wall clock and the CPU time of it and every process it waited for.

    python benchmarks/bench_test_suite.py [--rounds 2] [--full]

Target: the README's command in <= 10 minutes on this 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Selected from the whole suite's collection, as a worker holds it (collecting every
# module imports litellm and dspy: the heap a full collection walks).
SHELL_MODULES = "test_magics or test_one_skeleton or test_said_once_magics"
TARGET_S = 600.0


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def pytest_run(arguments: list[str], **env: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of ``python -m pytest arguments``, and its last line."""
    cpu, started = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-300:]
    if done.returncode != 0:
        raise SystemExit(f"pytest {' '.join(arguments)} failed: {last}")
    return wall, children_cpu() - cpu, last


def shell_modules(rounds: int) -> None:
    runs: dict[str, list[tuple[float, float]]] = {"frozen": [], "not frozen": []}
    for _ in range(rounds):
        for name, freeze in (("frozen", "1"), ("not frozen", "0")):
            wall, cpu, last = pytest_run(
                ["-n", "0", "tests", "-k", SHELL_MODULES], SKYNET_TEST_GC_FREEZE=freeze
            )
            runs[name].append((wall, cpu))
            print(f"{name:>10}: {wall:6.1f} s wall, {cpu:6.1f} s CPU  ({last})", flush=True)
    best = {name: min(times) for name, times in runs.items()}
    ratio = best["frozen"][0] / best["not frozen"][0]
    cpu_ratio = best["frozen"][1] / best["not frozen"][1]
    print(
        f"the magics' modules, frozen / not frozen (fastest of {rounds}): "
        f"{ratio:.2f}x wall, {cpu_ratio:.2f}x CPU"
    )


def full_suite() -> None:
    wall, cpu, last = pytest_run([])
    tests = re.search(r"(\d+) passed", last)
    met = "met" if wall <= TARGET_S else "missed"
    print(
        f"python -m pytest (README): {wall / 60:.1f} min wall, {cpu:.0f} s CPU "
        f"({cpu / wall * 100:.0f} % of the machine's {os.cpu_count()} cores x 100 %), "
        f"{tests[1] if tests else '?'} passed: <= {TARGET_S / 60:.0f} min: {met}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="also the README's whole command")
    args = parser.parse_args(argv)
    shell_modules(args.rounds)
    if args.full:
        full_suite()
    return 0


if __name__ == "__main__":
    sys.exit(main())
