"""Claim (issue 46): a diff is shown at once.

Path: three cases whose 10,000-character feedbacks changed ("a b " * 2500 → "b a " * 2500);
`str(sj.diff(...))`. Expected: well under a second. Observed: 11.4 s (the word diff,
quadratic, ran on up to 20,000 tokens a pair: 4 s each here).
Exits 1 while the bug is present.
"""

import os
import shutil
import sys
import time

os.environ.update(
    LITELLM_LOCAL_MODEL_COST_MAP="True", SKYNET_IMPORT_AHEAD="0", SKYNET_RUN_LOG="runlog"
)
shutil.rmtree("runlog", ignore_errors=True)
import skynet_jupyter as sj  # noqa: E402  (after the environment it reads)

rows = [{"text": f"t{i}", "label": "x", "guess": "x"} for i in range(3)]


def a(input, output, expected=None):
    return 1.0, {"feedback": "a b " * 2500}


def b(input, output, expected=None):
    return 0.0, {"feedback": "b a " * 2500}


sj.evaluate(a, rows, outputs="label", output_column="guess")
sj.evaluate(b, rows, outputs="label", output_column="guess")
d = sj.diff("last~1", "last")
t0 = time.perf_counter()
str(d)
spent = time.perf_counter() - t0
print("expected: str(diff) of 3 cases in well under 1 s")
print(f"seen: {spent:.1f} s")
sys.exit(0 if spent < 1.0 else 1)
