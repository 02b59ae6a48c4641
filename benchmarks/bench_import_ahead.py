"""litellm imported ahead, in the background, while the user writes the metric (issue 37,
item 2): the first check after a pause, against litellm's own import time, and what a
cell run during the import pays.

A litellm task model at a loopback OpenAI-compatible server (``tests/openai_server.py``,
answering in 20 ms; ``LITELLM_LOCAL_MODEL_COST_MAP=True`` for every contender), cold:
no run cache.  Every contender is a fresh ``python -c`` (``--only process``) or a
fresh ipykernel driven by ``jupyter_client`` (``--only kernel``, the more faithful
one: ``%load_ext skynet_jupyter`` then ``%config SkynetMagics.task_model = {...}``);
rounds interleaved, fastest and median of each:

1. **litellm's import**: ``python -c "import litellm"``, timed around the import;
2. **ahead on**: configure the model (``sj.configure(task_model=...)`` or the
   ``%config``), sleep ``--pause`` seconds (10: the user writing the metric), then
   the first check, timed whole: ``sj.check(score, rows, outputs="label", run=run,
   artifact=...)`` on 3 rows, ``run`` making one ``llm()`` call per case (in the
   kernel: a ``%skynet_check`` cell, on the kernel's clock; the pause is the
   client's, between cells);
3. **ahead off**: the same with ``SKYNET_IMPORT_AHEAD=0`` (what the user waited before);
4. **responsiveness**: configure, poll until ``import_ahead.status() == "importing"``
   (about ``PAUSE_S`` = 1 s), then a small cell (a 100,000-item dict, its values
   sorted: ~15 ms of pure Python) ``--cells`` times, 50 ms apart, while the import
   runs; against the same cell once the import is done (same process or kernel), and
   in a process or kernel with ``SKYNET_IMPORT_AHEAD=0`` (no import at all).  The CPU
   time the background import used: the process's CPU time from the setting to the
   import's end less the main thread's own (``time.process_time()`` -
   ``time.thread_time()``).

Target: the first check after the pause <= 0.3x litellm's own import time measured in
the same run; reported: (3) / (1), and the small cell's slowdown (median, max) during
the import, and the import's CPU seconds (on 2 cores the import mostly holds the GIL:
a cell run then shares the interpreter with it).

    python benchmarks/bench_import_ahead.py [--rounds 3] [--pause 10] [--cells 8]
        [--only process,kernel]
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

from kernels import json_lines_in_kernel  # noqa: E402

from tests.openai_server import OpenAIServer  # noqa: E402

API_KEY = "sk-bench-0000"
WAYS = ("process", "kernel")

IMPORT = """
import json, time
t = time.perf_counter()
import litellm
print(json.dumps({"seconds": time.perf_counter() - t}))
"""

# The setting, in a process; in a kernel it is a %config cell.
CONFIGURE = """
import skynet_jupyter as sj
sj.configure(task_model={"model": "openai/gpt-4o-mini", "api_base": BASE_URL,
                         "api_key": "sk-bench-0000"})
"""

DEFINE = """
import sys
from skynet_jupyter.helper.skynet import llm

rows = [{"text": f"Ticket {n}: I was charged twice.", "label": "billing"} for n in range(3)]

def run(artifact, case_input):
    return llm(artifact, case_input["text"])

def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "ok"}
"""

FIRST_CHECK = """
import json, sys, time
import skynet_jupyter as sj
from skynet_jupyter.models import import_ahead
before = import_ahead.status()
t = time.perf_counter()
report = sj.check(score, rows, outputs="label", run=run, artifact="Label.")
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "before": before, "passed": bool(report.passed),
                  "cases": len(report.cases), "litellm": "litellm" in sys.modules}))
"""

KERNEL_CHECK = """
import json as _json, sys as _sys, time as _time
from skynet_jupyter.models import import_ahead as _ahead
_before = _ahead.status()
_t = _time.perf_counter()
_r = %skynet_check --data rows --outputs label --run run --artifact 'Label.'
_seconds = _time.perf_counter() - _t
print(_json.dumps({"seconds": _seconds, "before": _before, "passed": bool(_r.passed),
                   "cases": len(_r.cases), "litellm": "litellm" in _sys.modules}))
"""

KERNEL_METRIC = """%%skynet_metric
def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "ok"}
"""

# Run right after the setting (in the kernel: the cell after the %config cell).
RESPONSIVE = """
import json as _json, time as _time
from skynet_jupyter.models import import_ahead as _ahead

def _small_cell():
    d = {i: str(i) for i in range(100_000)}
    return sorted(d.values())

def _timed():
    t = _time.perf_counter()
    _small_cell()
    return _time.perf_counter() - t

_cpu0, _own0 = _time.process_time(), _time.thread_time()
_deadline = _time.monotonic() + (30 if _ahead.enabled() else 1.3)  # off: never starts
while _ahead.status() != "importing" and _time.monotonic() < _deadline:
    if _ahead.status() not in ("idle", "waiting", "starting"):
        break
    _time.sleep(0.005)
_seen = _ahead.status()
_during, _w0 = [], _time.perf_counter()
for _ in range(CELLS):
    if _ahead.status() != "importing":
        break
    _seconds = _timed()
    if _ahead.status() == "importing":  # the whole cell ran during the import
        _during.append(_seconds)
    _time.sleep(0.05)
_ahead.wait(120)
_import_wall = _time.perf_counter() - _w0
_background_cpu = (_time.process_time() - _cpu0) - (_time.thread_time() - _own0)
_time.sleep(0.2)
_after = []
for _ in range(CELLS):
    _after.append(_timed())
    _time.sleep(0.05)
print(_json.dumps({"seen": _seen, "status": _ahead.status(), "during": _during,
                   "after": _after, "background_cpu": _background_cpu,
                   "import_wall_from_seen": _import_wall}))
"""


def base_env(ahead: bool = True) -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    env.pop("SKYNET_TASK_MODEL", None)
    env.pop("SKYNET_METRIC_MODEL", None)
    env.pop("SKYNET_REFLECTION_MODEL", None)
    if ahead:
        env.pop("SKYNET_IMPORT_AHEAD", None)
    else:
        env["SKYNET_IMPORT_AHEAD"] = "0"
    return env


def python(code: str, env: dict[str, str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"a contender failed:\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def configure_code(server: OpenAIServer) -> str:
    return CONFIGURE.replace("BASE_URL", repr(server.base_url))


def process_first_check(server: OpenAIServer, pause: float, ahead: bool) -> dict:
    code = configure_code(server) + DEFINE + f"\nimport time\ntime.sleep({pause})\n" + FIRST_CHECK
    return python(code, base_env(ahead))


def process_responsive(server: OpenAIServer, cells: int, ahead: bool) -> dict:
    return python(configure_code(server) + RESPONSIVE.replace("CELLS", str(cells)), base_env(ahead))


def kernel(server: OpenAIServer, cells: list[str | float], ahead: bool) -> dict:
    """A fresh kernel running ``cells`` (a number: the client sleeps that long); the last
    JSON line printed."""
    model = {"model": "openai/gpt-4o-mini", "api_base": server.base_url, "api_key": API_KEY}
    start: list[str | float] = [
        "%load_ext skynet_jupyter",
        f"%config SkynetMagics.task_model = {model!r}",
    ]
    # Its own empty working folder: the default run cache (.skynet_cache/) starts cold.
    with tempfile.TemporaryDirectory() as folder:
        return json_lines_in_kernel(start + cells, base_env(ahead), cwd=folder)[-1]


def kernel_first_check(server: OpenAIServer, pause: float, ahead: bool) -> dict:
    define = DEFINE.replace(
        "from skynet_jupyter.helper.skynet import llm", "from skynet import llm"
    )
    return kernel(server, [define, KERNEL_METRIC, float(pause), KERNEL_CHECK], ahead)


def kernel_responsive(server: OpenAIServer, cells: int, ahead: bool) -> dict:
    return kernel(server, [RESPONSIVE.replace("CELLS", str(cells))], ahead)


def line(name: str, got: list[float]) -> str:
    return f"{name}: {min(got):.2f} s (median {median(got):.2f}, {len(got)} rounds)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pause", type=float, default=10.0, help="seconds, setting to check")
    parser.add_argument("--cells", type=int, default=8, help="small cells during the import")
    parser.add_argument("--only", default=",".join(WAYS), help="process,kernel")
    args = parser.parse_args()
    ways = [way.strip() for way in args.only.split(",") if way.strip()]
    if set(ways) - set(WAYS):
        parser.error(f"--only: one of {', '.join(WAYS)}, comma-separated")
    imports: list[float] = []
    checks: dict[tuple[str, bool], list[dict]] = {(w, a): [] for w in ways for a in (True, False)}
    responsive: dict[tuple[str, bool], list[dict]] = {
        (w, a): [] for w in ways for a in (True, False)
    }
    first_check = {"process": process_first_check, "kernel": kernel_first_check}
    small_cells = {"process": process_responsive, "kernel": kernel_responsive}
    with OpenAIServer() as server:
        server.reply = lambda request: (time.sleep(0.02), "billing")[1]
        for turn in range(args.rounds):
            imports.append(python(IMPORT, base_env(False))["seconds"])
            for way in ways:
                for ahead in (True, False) if turn % 2 == 0 else (False, True):
                    checks[way, ahead].append(first_check[way](server, args.pause, ahead))
                for ahead in (True, False):
                    responsive[way, ahead].append(small_cells[way](server, args.cells, ahead))
    litellm_import = min(imports)
    print(line("litellm's own import (fresh process)", imports))
    for way in ways:
        for ahead in (True, False):
            got = [said["seconds"] for said in checks[way, ahead]]
            before = sorted({said["before"] for said in checks[way, ahead]})
            print(
                line(
                    f"{way}: first check {args.pause:g} s after the setting, import ahead "
                    f"{'on' if ahead else 'off'} (status at the check: {', '.join(before)})",
                    got,
                )
            )
            bad = [s for s in checks[way, ahead] if not s["passed"] or s["cases"] != 3]
            if bad:
                print(f"  !! a check did not pass on 3 cases: {bad[0]}")
    for way in ways:
        on = min(said["seconds"] for said in checks[way, True])
        off = min(said["seconds"] for said in checks[way, False])
        ratio = on / litellm_import
        print(
            f"{way}: first check after {args.pause:g} s, ahead on / litellm's import "
            f"{ratio:.3f}x ({on:.2f} s / {litellm_import:.2f} s); ahead off / import "
            f"{off / litellm_import:.2f}x ({off:.2f} s) "
            f"(target <= 0.3x: {'met' if ratio <= 0.3 else 'MISSED'})"
        )
    for way in ways:
        during = [s for said in responsive[way, True] for s in said["during"]]
        after = [s for said in responsive[way, True] for s in said["after"]]
        quiet = [s for said in responsive[way, False] for s in said["after"]]
        seen = sorted({said["seen"] for said in responsive[way, True]})
        cpu = [said["background_cpu"] for said in responsive[way, True]]
        if not during:
            print(f"{way}: no small cell ran during the import (status seen: {seen}): a bug?")
            continue
        base = median(after + quiet)
        print(
            f"{way}: small cell during the import: median {median(during) * 1000:.1f} ms, "
            f"max {max(during) * 1000:.1f} ms ({len(during)} cells); no import under way: "
            f"median {median(after) * 1000:.1f} ms after it in the same "
            f"{'process' if way == 'process' else 'kernel'}, {median(quiet) * 1000:.1f} ms "
            f"with SKYNET_IMPORT_AHEAD=0; slowdown median {median(during) / base:.2f}x, "
            f"max {max(during) / base:.2f}x; the import's CPU on its thread "
            f"{median(cpu):.2f} s (median; litellm's own import {median(imports):.2f} s wall) "
            f"(reported)"
        )


if __name__ == "__main__":
    main()
