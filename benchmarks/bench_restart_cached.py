"""A restart that re-checks from the run cache (issue 37, item 1): the whole check, in a
fresh Python process, with every call answered from the cache, against the same check
with a cold cache.

30 cases, a run function making one ``llm()`` call per case to a litellm task model
at a loopback OpenAI-compatible server (``tests/openai_server.py``, answering in
20 ms; ``LITELLM_LOCAL_MODEL_COST_MAP=True``).  Each contender is a fresh
``python -c`` (what a restarted kernel or ``skynet-check`` pays, litellm's import
included); rounds interleaved, fastest of each:

- **cold**: an empty run cache (every call is asked; litellm is imported);
- **warm**: the same cache, full (no call is asked): litellm must not be imported.

Target: warm <= 0.1x cold, and ``litellm`` not in ``sys.modules`` after the warm run.

    python benchmarks/bench_restart_cached.py [--cases 30] [--rounds 3]
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
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.openai_server import OpenAIServer  # noqa: E402

CHECK = """
import json, sys
import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm

def run(artifact, case_input):
    return llm(artifact, case_input["text"])

def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "ok"}

rows = [{"text": f"Ticket {n}: I was charged twice.", "label": "billing"}
        for n in range(int(sys.argv[3]))]
model = {"model": "openai/gpt-4o-mini", "api_base": sys.argv[1], "api_key": "sk-bench-0000"}
cache = sj.RunCache(path=sys.argv[2])
models = ModelSettings(task_model=model)
report = sj.evaluate(score, rows, outputs="label", run=run, artifact="Label.", models=models,
                     run_cache=cache)
cached = sum(c.cached for c in report.cases)
print(json.dumps({"litellm": "litellm" in sys.modules, "cached": cached}))
"""


def one(server: OpenAIServer, cache: Path, cases: int) -> tuple[float, dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHECK, server.base_url, str(cache), str(cases)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return time.perf_counter() - started, json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    cold_times, warm_times, imported = [], [], []
    with OpenAIServer() as server:
        server.reply = lambda request: (time.sleep(0.02), "billing")[1]
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory() as folder:
                cache = Path(folder) / "runs.sqlite"
                seconds, _ = one(server, cache, args.cases)
                cold_times.append(seconds)
                seconds, said = one(server, cache, args.cases)
                warm_times.append(seconds)
                imported.append(said["litellm"])
                assert said["cached"] == args.cases, said
    cold, warm = min(cold_times), min(warm_times)
    print(f"cold (empty cache, fresh process): {cold:.2f} s (median {median(cold_times):.2f})")
    print(f"warm (all calls cached, fresh process): {warm:.2f} s (median {median(warm_times):.2f})")
    ratio = warm / cold
    met = ratio <= 0.1 and not any(imported)
    print(
        f"warm / cold: {ratio:.3f}x; litellm imported by the warm run: {any(imported)} "
        f"(target <= 0.1x and not imported: {'met' if met else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
