"""The run cache of model calls: a 200-case eval, cold vs warm from a new process.

``run`` makes one ``llm()`` call per case, through the real litellm, to the
loopback OpenAI server (``tests/openai_server.py``, in this process) answering
each request in 20 ms.  Each contender is a fresh interpreter (what a kernel
restart gives): the cold one starts from an empty cache file and asks the
server 200 times; the warm one starts a new process on the file the cold one
left, and must ask nothing (counted at the server).  Both import litellm
before the clock starts (a fixed cost of any process that may call a model).
Rounds alternate cold and warm; the fastest of each is reported, with the
ratio warm / cold.

    python benchmarks/bench_run_cache.py            # ~1 min
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.openai_server import OpenAIServer  # noqa: E402

CASES, REPLY_MS, CONCURRENCY = 200, 20, 8

ONE_EVAL = f"""
import json, sys, time
import skynet_jupyter as sj
from skynet import llm
from skynet_jupyter.models.llm import _litellm

_litellm()  # imported before the clock, in both contenders

def run(artifact, input):
    return llm(artifact, input["text"])

def score(input, output, expected=None):
    return float(output == input["text"].upper()), {{"feedback": "compared"}}

path, base = sys.argv[1:3]
rows = [{{"text": f"t{{i}}"}} for i in range({CASES})]
model = {{"model": "openai/bench", "api_base": base, "api_key": "sk-bench-0000000000"}}
started = time.perf_counter()
report = sj.evaluate(score, rows, run=run, artifact="Upper-case it.", concurrency={CONCURRENCY},
                     models=sj.ModelSettings(task_model=model), run_cache=sj.RunCache(path=path))
took = time.perf_counter() - started
print(json.dumps({{"seconds": took, "cached": sum(c.cached for c in report.cases),
                  "mean": report.mean_score}}))
"""


def timed(args: list[str]) -> tuple[float, dict]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    wall = time.perf_counter() - started
    lines = done.stdout.strip().splitlines()
    return wall, (json.loads(lines[-1]) if lines else {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    cold, warm, warm_requests = [], [], []
    with OpenAIServer(reply=lambda request: request.messages[-1]["content"].upper()) as server:
        server.delay = REPLY_MS / 1000
        for _ in range(rounds):
            with tempfile.TemporaryDirectory() as folder:
                path = str(Path(folder) / "runs.sqlite")
                server.reset()
                server.reply = lambda request: request.messages[-1]["content"].upper()
                server.delay = REPLY_MS / 1000
                wall, seen = timed([ONE_EVAL, path, server.base_url])
                assert seen["cached"] == 0 and seen["mean"] == 1.0, seen
                assert len(server.requests) == CASES
                cold.append((seen["seconds"], wall))
                wall, seen = timed([ONE_EVAL, path, server.base_url])
                assert seen["cached"] == CASES and seen["mean"] == 1.0, seen
                warm_requests.append(len(server.requests) - CASES)
                warm.append((seen["seconds"], wall))
    best_cold, best_warm = min(cold), min(warm)
    print(
        f"cold: {best_cold[0] * 1000:7.0f} ms evaluate, {best_cold[1] * 1000:7.0f} ms process "
        f"({CASES} calls answered in {REPLY_MS} ms, concurrency {CONCURRENCY})"
    )
    print(
        f"warm: {best_warm[0] * 1000:7.0f} ms evaluate, {best_warm[1] * 1000:7.0f} ms process "
        f"(a new process; requests to the server: {max(warm_requests)})"
    )
    print(
        f"warm / cold: {best_warm[0] / best_cold[0]:.3f}x evaluate, "
        f"{best_warm[1] / best_cold[1]:.2f}x whole process"
    )
    assert max(warm_requests) == 0, "the warm process asked the server"


if __name__ == "__main__":
    main()
