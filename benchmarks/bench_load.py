"""How long ``%load_ext skynet_jupyter`` takes, beyond importing IPython and ipywidgets.

Each round is a fresh Python process: it imports IPython and ipywidgets and
makes a shell (not counted), then times ``load_extension("skynet_jupyter")``
(counted: importing our package and registering the magics), and lists the
heavy packages that loading pulled in (there must be none).  Bytecode is
cached under a temporary PYTHONPYCACHEPREFIX, as an installed package has its
.pyc files (this machine sets PYTHONDONTWRITEBYTECODE, which would time the
compiler instead); a first, uncounted round fills that cache.

    python benchmarks/bench_load.py [--rounds 9]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TARGET_MS = 100.0
HEAVY = ("pandas", "numpy", "litellm", "dspy", "dask", "distributed", "pyarrow")
ROOT = Path(__file__).resolve().parent.parent

ROUND = f"""
import json, sys, time
import IPython, ipywidgets
from IPython.core.interactiveshell import InteractiveShell

shell = InteractiveShell.instance()
started = time.perf_counter()
shell.extension_manager.load_extension("skynet_jupyter")
elapsed_ms = (time.perf_counter() - started) * 1000
heavy = sorted({{name.split(".")[0] for name in sys.modules}} & set({HEAVY!r}))
print(json.dumps({{"ms": elapsed_ms, "heavy": heavy}}))
"""


def one_round(env: dict[str, str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", ROUND], capture_output=True, text=True, cwd=ROOT, env=env, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="fresh processes to time")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="skynet-pycache-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        one_round(env)  # fills the bytecode cache and the file system cache
        rounds = [one_round(env) for _ in range(args.rounds)]
    times = sorted(r["ms"] for r in rounds)
    heavy = sorted({name for r in rounds for name in r["heavy"]})
    median = statistics.median(times)
    print(f"%load_ext skynet_jupyter, beyond IPython + ipywidgets ({args.rounds} fresh processes)")
    print(f"  median {median:.1f} ms   min {times[0]:.1f} ms   max {times[-1]:.1f} ms")
    print(f"  target <= {TARGET_MS:.0f} ms: {'met' if median <= TARGET_MS else 'MISSED'}")
    print(f"  heavy packages imported at load: {', '.join(heavy) or 'none'}")
    return 0 if median <= TARGET_MS and not heavy else 1


if __name__ == "__main__":
    sys.exit(main())
