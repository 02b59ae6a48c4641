"""What a user waits for before anything is checked: the command line, the pytest plugin,
and the first steps in a fresh Jupyter kernel.

Run:  python benchmarks/bench_startup.py [--rounds 9] [--only cli,plugin,kernel]

Whole processes, interleaved (A B C, A B C, ...; the order turns each round),
and the figure is the median of the paired ratios, so that the load of the
machine, which moves the absolute times by a factor of two on 2 shared cores,
moves both sides of a ratio alike:

- ``cli``: ``skynet-check`` on a 3-row CSV (a metric that compares the label
  with the output column) / ``pytest -q`` on a one-test file, the latter run
  with ``-p no:skynet_jupyter`` so that the yardstick does not move with our
  plugin.  Target <= 0.5x (aim 0.25x).
- ``plugin``: the same one-test ``pytest -q`` with our ``pytest11`` plugin /
  without it.  Target <= 1.05x.
- ``kernel``: in a fresh ipykernel each round (started by jupyter_client, not
  counted), the kernel's own clock around ``import skynet_jupyter``, then
  ``%load_ext skynet_jupyter``, then the first ``%skynet_check`` on a list of
  dicts; the heavy packages each step pulled in are listed.  Targets: import
  + load <= 40 ms (aim 25), the first check <= 120 ms (aim 60).

Bytecode is cached under a temporary PYTHONPYCACHEPREFIX, as an installed
package has its .pyc files (this machine sets PYTHONDONTWRITEBYTECODE, which
would time the compiler instead); a first, uncounted round fills that cache.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from kernels import json_lines_in_kernel

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("pandas", "numpy", "pyarrow", "ipywidgets", "prompt_toolkit", "litellm", "dspy", "gepa")

METRIC = """\
def score(input, output, expected):
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": "Correct." if ok else "Wrong label."}
"""
CASES = (
    "question,label,prediction\nWhat is 2+2?,4,4\nCapital of France?,Paris,Paris\nRed?,red,blue\n"
)
ONE_TEST = "def test_one():\n    assert 1 + 1 == 2\n"


def environment(cache: str, root: Path = ROOT) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    # The package as the folder ``root`` has it (this checkout), installed or not.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    return env


def timed(
    command: list[str], cwd: Path, env: dict[str, str], codes: tuple[int, ...]
) -> tuple[float, float]:
    """The wall time of the whole process and the CPU time of it and its children."""
    cpu_before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode not in codes:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    return elapsed, _children_cpu() - cpu_before


def _children_cpu() -> float:
    # Every ended and waited-for descendant: skynet-check's own child is counted too.
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def processes(
    folder: Path, env: dict[str, str], rounds: int, before: dict[str, str] | None
) -> dict[str, list[tuple[float, float]]]:
    """Each contender's (wall, CPU) times per round, whole processes, interleaved."""
    (folder / "metric.py").write_text(METRIC, encoding="utf-8")
    (folder / "cases.csv").write_text(CASES, encoding="utf-8")
    (folder / "test_one.py").write_text(ONE_TEST, encoding="utf-8")
    python = sys.executable
    check = [python, "-m", "skynet_jupyter.cli", "metric.py", "--data", "cases.csv"]
    check += ["--outputs", "label", "--output-column", "prediction"]
    pytest = [python, "-m", "pytest", "-q", "test_one.py"]
    contenders: dict[str, Callable[[], tuple[float, float]]] = {
        # Exit 1: the third case scores 0, and the feedback advice may flag it: a verdict.
        "skynet-check": lambda: timed(check, folder, env, (0, 1)),
        "pytest without the plugin": lambda: timed(
            [*pytest, "-p", "no:skynet_jupyter"], folder, env, (0,)
        ),
        "pytest with the plugin": lambda: timed(pytest, folder, env, (0,)),
    }
    if before is not None:
        contenders["skynet-check (before)"] = lambda: timed(check, folder, before, (0, 1))
    for run in contenders.values():  # fills the bytecode cache and the file system cache
        run()
    names = list(contenders)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for number in range(rounds):
        turn = number % len(names)
        for name in names[turn:] + names[:turn]:
            times[name].append(contenders[name]())
    return times


def paired(
    times: dict[str, list[tuple[float, float]]], top: str, bottom: str, clock: int
) -> list[float]:
    return [a[clock] / b[clock] for a, b in zip(times[top], times[bottom], strict=True)]


Times = dict[str, list[tuple[float, float]]]


def report_ratio(
    label: str, times: Times, top: str, bottom: str, target: float, aim: float | None
) -> bool:
    """The median of the paired ratios, on the wall clock (the figure) and in CPU time."""
    wall, cpu = paired(times, top, bottom, 0), paired(times, top, bottom, 1)
    median = statistics.median(wall)
    met = median <= target
    aimed = f", aim {aim:g}x" if aim is not None else ""
    print(f"  {label}: median {median:.2f}x (min {min(wall):.2f}x, max {max(wall):.2f}x)")
    print(f"    CPU time: median {statistics.median(cpu):.2f}x")
    print(f"    target <= {target:g}x{aimed}: {'met' if met else 'MISSED'}")
    return met


KERNEL_STEPS = {
    "import": "import skynet_jupyter",
    "load_ext": "get_ipython().run_line_magic('load_ext', 'skynet_jupyter')",
    "first check": (
        "get_ipython().run_line_magic('skynet_check', "
        "'--data rows --outputs label --output-column prediction --no-raise')"
    ),
}
METRIC_CELL = "%%skynet_metric\n" + METRIC
ROWS = (
    "rows = [{'question': 'What is 2+2?', 'label': '4', 'prediction': '4'},"
    " {'question': 'Capital of France?', 'label': 'Paris', 'prediction': 'Paris'},"
    " {'question': 'Red?', 'label': 'red', 'prediction': 'blue'}]"
)


def timing_cell(step: str, code: str) -> str:
    """A cell that runs ``code`` on the kernel's clock and prints what it took and imported."""
    return textwrap.dedent(
        f"""\
        import json as _j, sys as _s, time as _t
        _before = set(_s.modules)
        _started, _cpu = _t.perf_counter(), _t.process_time()
        {code}
        _ms = (_t.perf_counter() - _started) * 1000
        _cpu_ms = (_t.process_time() - _cpu) * 1000
        _new = {{_n.split('.')[0] for _n in set(_s.modules) - _before}}
        print(_j.dumps({{'step': {step!r}, 'ms': _ms, 'cpu_ms': _cpu_ms,
                         'heavy': sorted(_new & set({HEAVY!r}))}}))
        """
    )


def one_kernel(folder: Path, env: dict[str, str]) -> dict[str, dict]:
    cells = [
        timing_cell("import", KERNEL_STEPS["import"]),
        timing_cell("load_ext", KERNEL_STEPS["load_ext"]),
        METRIC_CELL,
        ROWS,
        timing_cell("first check", KERNEL_STEPS["first check"]),
    ]
    found = json_lines_in_kernel(cells, env, cwd=str(folder), timeout=120)
    return {said["step"]: said for said in found if "step" in said}


def kernels(folder: Path, env: dict[str, str], rounds: int, before: dict[str, str] | None) -> bool:
    one_kernel(folder, env)  # fills the bytecode caches
    if before is not None:
        one_kernel(folder, before)
    runs, earlier = [], []
    for _ in range(rounds):  # interleaved with the code before, when it is given
        runs.append(one_kernel(folder, env))
        if before is not None:
            earlier.append(one_kernel(folder, before))
    if before is not None:
        print(f"The code before, in the same rounds ({rounds} kernels):")
        show_kernel_steps(earlier)
    print(f"In a fresh kernel each round ({rounds} kernels, the kernel's clock):")
    met = show_kernel_steps(runs)
    if before is not None:
        for label, steps in (
            ("import + %load_ext", ("import", "load_ext")),
            ("first check", ("first check",)),
        ):
            ratios = {
                clock: [
                    sum(now[s][clock] for s in steps) / sum(then[s][clock] for s in steps)
                    for now, then in zip(runs, earlier, strict=True)
                ]
                for clock in ("ms", "cpu_ms")
            }
            print(
                f"  {label}, now / before: median of paired ratios "
                f"{statistics.median(ratios['ms']):.2f}x wall, "
                f"{statistics.median(ratios['cpu_ms']):.2f}x CPU"
            )
    return met


def show_kernel_steps(runs: list[dict[str, dict]]) -> bool:
    loads = [r["import"]["ms"] + r["load_ext"]["ms"] for r in runs]
    firsts = [r["first check"]["ms"] for r in runs]
    for step in KERNEL_STEPS:
        values = [r[step]["ms"] for r in runs]
        cpu = statistics.median(r[step]["cpu_ms"] for r in runs)
        heavy = sorted({name for r in runs for name in r[step]["heavy"]})
        print(
            f"  {step}: median {statistics.median(values):.1f} ms "
            f"(min {min(values):.1f}, max {max(values):.1f}; CPU {cpu:.1f} ms); "
            f"heavy packages it imported: {', '.join(heavy) or 'none'}"
        )
    load_ms, first_ms = statistics.median(loads), statistics.median(firsts)
    load_met, first_met = load_ms <= 40, first_ms <= 120
    print(f"  import + %load_ext: median {load_ms:.1f} ms")
    print(f"    target <= 40 ms, aim 25 ms: {'met' if load_met else 'MISSED'}")
    print(f"  first %skynet_check: median {first_ms:.1f} ms")
    print(f"    target <= 120 ms, aim 60 ms: {'met' if first_met else 'MISSED'}")
    return load_met and first_met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="rounds (fresh processes each)")
    parser.add_argument("--only", default="cli,plugin,kernel", help="which figures, by name")
    parser.add_argument(
        "--before",
        type=Path,
        help="a folder holding the code before a change (its skynet_jupyter/): measured "
        "in the same rounds, for the same figures",
    )
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    results = []
    with (
        tempfile.TemporaryDirectory(prefix="skynet-pycache-") as cache,
        tempfile.TemporaryDirectory(prefix="skynet-startup-") as folder,
    ):
        env = environment(cache)
        before = None if args.before is None else environment(cache, args.before.resolve())
        if only & {"cli", "plugin"}:
            times = processes(Path(folder), env, args.rounds, before)
            print(f"Whole processes, {args.rounds} interleaved rounds (medians):")
            for name, values in times.items():
                wall = statistics.median(v[0] for v in values)
                cpu = statistics.median(v[1] for v in values)
                print(f"  {name}: {wall:.3f} s wall, {cpu:.3f} s CPU")
            print("Paired ratios:")
            bottom = "pytest without the plugin"
            if "cli" in only:
                label = "skynet-check / pytest"
                results.append(report_ratio(label, times, "skynet-check", bottom, 0.5, 0.25))
            if "plugin" in only:
                label = "pytest with / without our plugin"
                top = "pytest with the plugin"
                results.append(report_ratio(label, times, top, bottom, 1.05, None))
            if before is not None and "cli" in only:
                label = "skynet-check before / pytest"
                results.append(
                    report_ratio(label, times, "skynet-check (before)", bottom, 0.5, 0.25)
                )
        if "kernel" in only:
            results.append(kernels(Path(folder), env, args.rounds, before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
