"""A restart that re-checks from the run cache (issue 37, item 1): the whole check, with
every call answered from the cache, against the same check with a cold cache, three ways.

30 cases, a run function making one ``llm()`` call per case to a litellm task model
at a loopback OpenAI-compatible server (``tests/openai_server.py``, answering in
20 ms; ``LITELLM_LOCAL_MODEL_COST_MAP=True`` for every contender).  Rounds
interleaved (each pair cold then warm, the pairs one after the other), fastest
and median of each contender:

- **process** (``--only process``): a fresh ``python -c`` running ``sj.evaluate``
  with ``sj.RunCache(path=...)``; the whole process is timed (what a restarted
  kernel or a script pays, litellm's import included);
- **kernel** (``--only kernel``): a fresh ipykernel (``jupyter_client``'s
  ``KernelManager``), the notebook's way: ``%load_ext skynet_jupyter``,
  ``%config SkynetMagics.cache_dir = FOLDER``, ``%config SkynetMagics.task_model =
  {...}``, ``rows`` and ``run`` in a cell, the metric in ``%%skynet_metric``, then
  ``%skynet_eval --data rows --outputs label --run run --artifact 'Label.'``.  Timed
  on the kernel's own clock (``time.perf_counter()`` around the magic, in the same
  cell); the kernel's start and the cells before are not counted;
- **cli** (``--only cli``): ``skynet-check metric.py --data cases.csv --outputs label
  --run run.py:run --all --task-model openai/gpt-4o-mini --api-base URL --cache-dir
  DIR --json``, the whole command's wall time.  Whether the check's child process
  imported litellm is found by ``run.py`` itself (this benchmark's file): at its
  load it notes ``litellm`` already in ``sys.modules`` and adds an audit hook that
  notes any later ``import litellm`` in a marker file (the child ends with
  ``os._exit``: no ``atexit``).

For each: **cold** an empty run cache (every call is asked; litellm is imported),
**warm** the same cache again, full, in a new process or kernel (no call is asked).

Targets: warm <= 0.1x cold, and ``litellm`` not imported by the warm run (every
case marked cached).

    python benchmarks/bench_restart_cached.py [--cases 30] [--rounds 3] [--only process,kernel,cli]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernels import json_lines_in_kernel  # noqa: E402

from tests.openai_server import OpenAIServer  # noqa: E402

API_KEY = "sk-bench-0000"
TEXT = "Ticket {n}: I was charged twice."
WAYS = ("process", "kernel", "cli")

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
print(json.dumps({"litellm": "litellm" in sys.modules, "cases": len(report.cases),
                  "cached": cached}))
"""

KERNEL_ROWS = """
from skynet import llm

rows = [{{"text": f"Ticket {{n}}: I was charged twice.", "label": "billing"}}
        for n in range({cases})]

def run(artifact, case_input):
    return llm(artifact, case_input["text"])
"""

KERNEL_METRIC = """%%skynet_metric
def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "ok"}
"""

KERNEL_TIMED = """
import json as _json, sys as _sys, time as _time
_t = _time.perf_counter()
_r = %skynet_eval --data rows --outputs label --run run --artifact 'Label.'
_seconds = _time.perf_counter() - _t
from skynet_jupyter.models import import_ahead as _ahead
print(_json.dumps({"seconds": _seconds, "cases": len(_r.cases),
                   "cached": sum(c.cached for c in _r.cases),
                   "litellm": "litellm" in _sys.modules, "ahead": _ahead.status()}))
"""

CLI_METRIC = """
def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "ok"}
"""

# The run file notes, in the child of skynet-check, whether litellm is imported at all.
CLI_RUN = """
import os, sys
from skynet import llm

_MARK = os.environ["SKYNET_BENCH_LITELLM_MARK"]

def _note(why):
    with open(_MARK, "a", encoding="utf-8") as out:
        out.write(why + "\\n")

if "litellm" in sys.modules:
    _note("imported before run.py was loaded")

def _hook(event, args):
    if event == "import" and args[0] == "litellm":
        _note("import litellm")

sys.addaudithook(_hook)

def run(artifact, case_input):
    return llm(artifact, case_input["text"])
"""


def base_env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }


def model_dict(server: OpenAIServer) -> dict[str, str]:
    return {"model": "openai/gpt-4o-mini", "api_base": server.base_url, "api_key": API_KEY}


def one_process(server: OpenAIServer, folder: Path, cases: int) -> tuple[float, dict]:
    """A fresh ``python -c`` running ``sj.evaluate`` with the run cache in ``folder``."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHECK, server.base_url, str(folder / "runs.sqlite"), str(cases)],
        capture_output=True,
        text=True,
        env=base_env(),
        check=True,
    )
    return time.perf_counter() - started, json.loads(done.stdout.strip().splitlines()[-1])


def one_kernel(server: OpenAIServer, folder: Path, cases: int) -> tuple[float, dict]:
    """A fresh kernel: the cells of a notebook, the ``%skynet_eval`` cell timed in the kernel."""
    cells = [
        "%load_ext skynet_jupyter",
        f"%config SkynetMagics.cache_dir = {str(folder)!r}",
        f"%config SkynetMagics.task_model = {model_dict(server)!r}",
        KERNEL_ROWS.format(cases=cases),
        KERNEL_METRIC,
        KERNEL_TIMED,
    ]
    said = json_lines_in_kernel(cells, base_env(), cwd=str(folder))[-1]
    return said["seconds"], said


def cli_files(folder: Path, cases: int) -> None:
    (folder / "metric.py").write_text(CLI_METRIC, encoding="utf-8")
    (folder / "run.py").write_text(CLI_RUN, encoding="utf-8")
    with open(folder / "cases.csv", "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["text", "label"])
        writer.writerows([TEXT.format(n=n), "billing"] for n in range(cases))


def one_cli(server: OpenAIServer, folder: Path, cases: int) -> tuple[float, dict]:
    """``skynet-check --cache-dir`` on the files in ``folder``, the whole command timed."""
    files = folder / "files"
    if not files.exists():
        files.mkdir()
        cli_files(files, cases)
    mark = folder / "litellm-mark.txt"
    mark.unlink(missing_ok=True)
    command = shutil.which("skynet-check")
    start = [command] if command else [sys.executable, "-m", "skynet_jupyter.cli"]
    env = {**base_env(), "OPENAI_API_KEY": API_KEY, "SKYNET_BENCH_LITELLM_MARK": str(mark)}
    arguments = [
        "metric.py",
        "--data",
        "cases.csv",
        "--outputs",
        "label",
        "--run",
        "run.py:run",
        "--artifact-text",
        "Label.",
        "--all",
        "--task-model",
        "openai/gpt-4o-mini",
        "--api-base",
        server.base_url,
        "--cache-dir",
        str(folder / "cache"),
        "--json",
    ]
    started = time.perf_counter()
    done = subprocess.run(
        start + arguments, cwd=files, capture_output=True, text=True, env=env, check=False
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"skynet-check exited {done.returncode}: {done.stdout}{done.stderr}")
    report = json.loads(done.stdout)
    said = {
        "litellm": mark.exists(),
        "why": mark.read_text(encoding="utf-8").split("\n")[0] if mark.exists() else "",
        **cached_in_json(report),
    }
    return seconds, said


def cached_in_json(report: dict) -> dict[str, int]:
    """The number of cases and of cached cases in ``skynet-check --json``'s document."""
    reports = report.get("reports", [report])
    cases = [case for one in reports for case in one.get("cases", [])]
    return {"cases": len(cases), "cached": sum(bool(case.get("cached")) for case in cases)}


ONE: dict[str, Callable[[OpenAIServer, Path, int], tuple[float, dict]]] = {
    "process": one_process,
    "kernel": one_kernel,
    "cli": one_cli,
}
LABEL = {
    "process": "fresh process, sj.evaluate + RunCache(path=...)",
    "kernel": "fresh kernel, %skynet_eval cell (kernel's clock)",
    "cli": "skynet-check --cache-dir (whole command)",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--only", default=",".join(WAYS), help="which pairs, comma-separated: process,kernel,cli"
    )
    args = parser.parse_args()
    ways = [way.strip() for way in args.only.split(",") if way.strip()]
    unknown = set(ways) - set(WAYS)
    if unknown:
        parser.error(f"--only: unknown {', '.join(sorted(unknown))} (known: {', '.join(WAYS)})")
    times: dict[tuple[str, str], list[float]] = {(w, s): [] for w in ways for s in ("cold", "warm")}
    warm_said: dict[str, list[dict]] = {way: [] for way in ways}
    cold_said: dict[str, list[dict]] = {way: [] for way in ways}
    with OpenAIServer() as server:
        server.reply = lambda request: (time.sleep(0.02), "billing")[1]
        for _ in range(args.rounds):
            for way in ways:
                with tempfile.TemporaryDirectory() as folder:
                    seconds, said = ONE[way](server, Path(folder), args.cases)
                    times[way, "cold"].append(seconds)
                    cold_said[way].append(said)
                    seconds, said = ONE[way](server, Path(folder), args.cases)
                    times[way, "warm"].append(seconds)
                    warm_said[way].append(said)
    for way in ways:
        for state, what in (("cold", "empty cache"), ("warm", "all calls cached")):
            got = times[way, state]
            print(
                f"{way} {state} ({LABEL[way]}, {what}): {min(got):.2f} s "
                f"(median {median(got):.2f}, {len(got)} rounds)"
            )
    for way in ways:
        cold, warm = min(times[way, "cold"]), min(times[way, "warm"])
        imported = any(said["litellm"] for said in warm_said[way])
        cold_imported = all(said["litellm"] for said in cold_said[way])
        all_cached = all(
            said["cases"] == args.cases and said["cached"] == args.cases for said in warm_said[way]
        )
        ratio = warm / cold
        met = ratio <= 0.1 and not imported and all_cached
        extra = ""
        if way == "kernel":
            extra = f"; import ahead after the warm cell: {warm_said[way][-1]['ahead']!r}"
        if way == "cli" and imported:
            extra = f"; the child said: {warm_said[way][-1]['why']!r}"
        print(
            f"{way}: warm / cold {ratio:.3f}x (fastest; medians "
            f"{median(times[way, 'warm']) / median(times[way, 'cold']):.3f}x); "
            f"warm run: litellm imported {imported}, every case cached {all_cached} "
            f"(cold imported it: {cold_imported}){extra} "
            f"(target <= 0.1x, not imported: {'met' if met else 'MISSED'})"
        )


if __name__ == "__main__":
    main()
