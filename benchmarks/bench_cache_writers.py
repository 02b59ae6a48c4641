"""Many writers on one run cache file (issue 45, item 5).

Four processes x 8 threads x 150 cases write one ``RunCache`` file at once: each
process is an ``sj.evaluate(concurrency=8)`` whose run function asks a litellm task
model once per case, at a loopback OpenAI-compatible server (``tests/openai_server.py``,
in this process, answering in ``--reply-ms``).  Each process has its own 150 cases,
so 600 replies are written.  Then a fifth process runs all 600 cases on the same file
and must find every reply (it asks the server nothing).  ``--burn N`` processes spin
meanwhile, to measure at a load of about 8 on a 2-core machine.

Reported per round: "locked by another process" warnings in the writers (target: 0),
replies the fifth process found (target: 600 of 600), requests it made (target: 0),
and the writers' wall time.  ``--before DIR`` runs the same rounds, interleaved, with
the code of another tree (``git archive <commit> | tar -x -C DIR``): before and after,
side by side in one run.

    python benchmarks/bench_cache_writers.py [--rounds 3] [--burn 6] [--before /tmp/base]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.openai_server import OpenAIServer  # noqa: E402

WRITERS, THREADS, CASES = 4, 8, 150

WRITER = """
import json, sys, time, warnings
import skynet_jupyter as sj
from skynet import llm
from skynet_jupyter.models.litellm_import import imported_litellm

imported_litellm()  # before the clock: every contender pays it

path, base, first, count, threads = sys.argv[1:6]
first, count, threads = int(first), int(count), int(threads)


def run(artifact, input):
    return llm(artifact, input["text"])


def score(input, output, expected=None):
    return float(output == input["text"].upper()), {"feedback": "compared"}


rows = [{"text": f"case {n}"} for n in range(first, first + count)]
model = {"model": "openai/bench", "api_base": base, "api_key": "sk-bench-0000000000"}
with warnings.catch_warnings(record=True) as said:
    warnings.simplefilter("always")
    started = time.perf_counter()
    report = sj.evaluate(score, rows, run=run, artifact="Upper-case it.", concurrency=threads,
                         models=sj.ModelSettings(task_model=model),
                         run_cache=sj.RunCache(path=path))
    took = time.perf_counter() - started
locked = [str(w.message) for w in said if "locked by another process" in str(w.message)]
print(json.dumps({"seconds": took, "locked": len(locked), "passed": report.passed,
                  "cached": sum(case.cached for case in report.cases)}))
"""


def burn(stop: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    while not stop.is_set():
        sum(range(10_000))


def python(root: Path, code: str, *args: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "SKYNET_IMPORT_AHEAD": "0",
    }
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=root,  # "python -c" looks in its working directory first: the tree measured
    )


def said(process: subprocess.Popen[str]) -> dict:
    out, err = process.communicate(timeout=900)
    if process.returncode != 0:
        raise SystemExit(f"a writer failed:\n{err[-3000:]}")
    return json.loads(out.strip().splitlines()[-1])


def one_round(root: Path, server: OpenAIServer, folder: Path) -> dict:
    path = str(folder / "runs.sqlite")
    base = server.base_url
    writers = [
        python(root, WRITER, path, base, str(n * CASES), str(CASES), str(THREADS))
        for n in range(WRITERS)
    ]
    started = time.perf_counter()
    results = [said(writer) for writer in writers]
    wall = time.perf_counter() - started
    asked_before = len(server.requests)
    reader = said(python(root, WRITER, path, base, "0", str(WRITERS * CASES), str(THREADS)))
    return {
        "locked": sum(result["locked"] for result in results),
        "wall": wall,
        "found": reader["cached"],
        "asked": len(server.requests) - asked_before,
        "passed": all(result["passed"] for result in results) and reader["passed"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--burn", type=int, default=6, help="busy processes meanwhile")
    parser.add_argument("--reply-ms", type=float, default=20.0)
    parser.add_argument("--before", type=Path, help="another tree, run side by side")
    parser.add_argument("--settle", type=float, default=30.0, help="seconds of load first")
    args = parser.parse_args(argv)
    trees = {"after (this tree)": ROOT}
    if args.before is not None:
        trees = {"before": args.before.resolve(), **trees}
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,)) for _ in range(args.burn)]
    for burner in burners:
        burner.start()
    time.sleep(args.settle)  # the load average catches up with the busy processes
    loads = [os.getloadavg()[0]]
    rows: dict[str, list[dict]] = {name: [] for name in trees}
    try:
        with OpenAIServer(reply=lambda request: request.messages[-1]["content"].upper()) as server:
            server.delay = args.reply_ms / 1000
            for _ in range(args.rounds):
                for name, root in trees.items():
                    with tempfile.TemporaryDirectory() as folder:
                        rows[name].append(one_round(root, server, Path(folder)))
                    loads.append(os.getloadavg()[0])
    finally:
        stop.set()
        for burner in burners:
            burner.join()
    total = WRITERS * CASES
    print(
        f"cache writers: {WRITERS} processes x {THREADS} threads x {CASES} cases on one file, "
        f"replies in {args.reply_ms:g} ms, {args.burn} busy processes, load average "
        f"{min(loads):.1f}-{max(loads):.1f}; then a fifth process reads all {total}"
    )
    for name, results in rows.items():
        for number, result in enumerate(results, 1):
            print(
                f"  {name:18} round {number}: {result['locked']} 'locked' warnings, "
                f"{result['found']}/{total} found by the fifth process "
                f"({result['asked']} asked), writers {result['wall']:.1f} s"
                + ("" if result["passed"] else "  [a run failed]")
            )
    for name, results in rows.items():
        warned = sum(result["locked"] for result in results)
        every = all(result["found"] == total and result["asked"] == 0 for result in results)
        met = "met" if warned == 0 and every else "MISSED"
        print(
            f"cache writers, {name}: {warned} warnings in {len(results)} rounds; every reply "
            f"found: {'yes' if every else 'no'}: {met}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
