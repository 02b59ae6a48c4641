"""Claim (issue 46): `skynet-check diff` never ends in a traceback, and its exit code says
whether a case regressed.

Path: `skynet-check diff last~1 last` with stdout in cp1252 (`PYTHONIOENCODING`: Windows
output to a file or a CI log). Expected: exit 1, the diff printed. Observed: a
UnicodeEncodeError on the diff's own "−", a traceback, and exit 1 whatever the verdict (the
check itself died the same way on a feedback's "✓").
Exits 1 while the bug is present.
"""

import os
import shutil
import subprocess
import sys

env = dict(
    os.environ,
    LITELLM_LOCAL_MODEL_COST_MAP="True",
    SKYNET_IMPORT_AHEAD="0",
    SKYNET_RUN_LOG="runlog",
)
os.environ.update(env)
shutil.rmtree("runlog", ignore_errors=True)
import skynet_jupyter as sj  # noqa: E402  (after the environment it reads)

rows = [{"text": "t", "label": "x", "guess": "x"}]


def good(input, output, expected=None):
    return 1.0, {"feedback": "Correct."}


def bad(input, output, expected=None):
    return 0.0, {"feedback": "Wrong."}


sj.evaluate(good, rows, outputs="label", output_column="guess")
sj.evaluate(bad, rows, outputs="label", output_column="guess")
p = subprocess.run(
    ["skynet-check", "diff", "last~1", "last", "--log-dir", "runlog"],
    capture_output=True,
    text=True,
    env=dict(env, PYTHONIOENCODING="cp1252"),
    errors="replace",
)
print("expected: exit 1 (a regression), no traceback")
print(
    f"seen: exit {p.returncode}, traceback: {'Traceback' in p.stderr}; {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}"
)
sys.exit(0 if p.returncode == 1 and "Traceback" not in p.stderr else 1)
