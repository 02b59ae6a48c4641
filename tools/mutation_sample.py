"""Measure a module's mutation kill rate on a uniform random sample of its mutants.

Some modules have more mutants than two cores can test in an afternoon: a mutant of
``quality/probe.py`` re-runs the probe tests, and one of ``models/rate_limit.py``
waits on a real server's Retry-After.  mutmut runs the mutants it is given by
name, cheapest first; stopping a whole run early would measure only the cheap
ones.  A uniform sample, fixed by its seed, measures them all alike.

In a folder where ``mutmut run`` has made the mutants (``mutants/``, its first
step: Ctrl-C after it) and the stats, which later runs there reuse::

    python tools/mutation_sample.py pick 80 --seed 24 > todo.txt   # writes sample.txt too
    mutmut run --max-children 2 $(cat todo.txt)
    python tools/mutation_sample.py figures --list                 # per module, survivors

``pick`` takes ``N`` mutants of each module (all of a smaller one) and prints
those without a verdict yet; a verdict mutmut already has counts as it is.
``figures`` gives, per module, what the sample found and the kill rate
(killed and timed out over checked) with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path

# mutmut's exit codes, as its ``results`` command names them.
STATUS = {0: "survived", 1: "killed", 33: "no tests", 34: "skipped", 37: "type check"}
TIMEOUTS = {-24, 24, 36, 152, -9}
SAMPLE = "sample.txt"


def status(code: int | None) -> str:
    if code is None:
        return "not run"
    return "timeout" if code in TIMEOUTS else STATUS.get(code, f"exit {code}")


def verdicts(root: Path) -> dict[str, dict[str, int | None]]:
    """Each mutated module's mutants and their exit codes, read from mutmut's .meta files."""
    found = {}
    for meta in sorted((root / "mutants").glob("**/*.py.meta")):
        module = str(meta.relative_to(root / "mutants"))[: -len(".py.meta")].replace("/", ".")
        found[module] = json.loads(meta.read_text())["exit_code_by_key"]
    return found


def pick(root: Path, per_module: int, seed: int) -> list[str]:
    """Sample each module, write the whole sample to sample.txt; the names still to run."""
    rng = random.Random(seed)
    chosen: list[str] = []
    todo: list[str] = []
    for codes in verdicts(root).values():
        names = sorted(codes)
        taken = names if len(names) <= per_module else rng.sample(names, per_module)
        chosen += taken
        todo += [name for name in taken if codes[name] is None]
    (root / SAMPLE).write_text("\n".join(chosen) + "\n")
    return todo


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (good at rates near 100%)."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    middle = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return ((middle - spread) / scale, (middle + spread) / scale)


def figures(root: Path, listing: bool) -> list[str]:
    sample_file = root / SAMPLE
    sample = set(sample_file.read_text().split()) if sample_file.exists() else None
    lines = []
    for module, codes in verdicts(root).items():
        mine = {k: v for k, v in codes.items() if sample is None or k in sample}
        if not mine:
            continue
        counts = Counter(status(v) for v in mine.values())
        caught = counts["killed"] + counts["timeout"]
        checked = caught + counts["survived"]
        low, high = wilson(caught, checked)
        rate = f"{caught}/{checked} = {100 * caught / checked:.1f}%" if checked else "none checked"
        told = ", ".join(f"{k} {n}" for k, n in sorted(counts.items()))
        interval = f" (95%: {100 * low:.0f}–{100 * high:.0f}%)" if checked else ""
        lines.append(f"{module}: {len(codes)} mutants, {len(mine)} taken: {told}; {rate}{interval}")
        if listing:
            lines += [
                f"   {status(v)}: {k}"
                for k, v in sorted(mine.items())
                if status(v) in ("survived", "no tests")
            ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the mutmut folder")
    commands = parser.add_subparsers(dest="command", required=True)
    take = commands.add_parser("pick", help="sample N mutants of each module")
    take.add_argument("n", type=int)
    take.add_argument("--seed", type=int, default=0)
    show = commands.add_parser("figures", help="the sample's figures per module")
    show.add_argument("--list", action="store_true", help="also each survivor")
    args = parser.parse_args(argv)
    if args.command == "pick":
        print("\n".join(pick(args.root, args.n, args.seed)))
    else:
        print("\n".join(figures(args.root, args.list)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
