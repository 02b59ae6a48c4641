"""Claim (issue 46, the run diff): a feedback whose words changed is shown as a word diff.

Path: two `sj.evaluate` runs, one case, feedbacks sharing a 10,050-character start (past
the record's 10,000-character cut) and ending "Correct." then "Wrong."; `str(sj.diff(...))`.
Expected: the case's feedback line marks the change. Observed: the kept texts are the same,
so the line had no mark at all, though the case was listed as changed.
Exits 1 while the bug is present.
"""

import os
import shutil
import sys

os.environ.update(
    LITELLM_LOCAL_MODEL_COST_MAP="True", SKYNET_IMPORT_AHEAD="0", SKYNET_RUN_LOG="runlog"
)
shutil.rmtree("runlog", ignore_errors=True)
import skynet_jupyter as sj  # noqa: E402  (after the environment it reads)

rows = [{"text": "t", "label": "x", "guess": "x"}]
long = "word " * 2010  # 10,050 chars: past the 10,000-char cut


def a(input, output, expected=None):
    return 1.0, {"feedback": long + "Correct."}


def b(input, output, expected=None):
    return 0.0, {"feedback": long + "Wrong."}


sj.evaluate(a, rows, outputs="label", output_column="guess")
sj.evaluate(b, rows, outputs="label", output_column="guess")
text = str(sj.diff("last~1", "last"))
fb = [l for l in text.split("\n") if l.lstrip().startswith("feedback:")]
marked = any(("[-" in l or "{+" in l) for l in fb)
print("expected: one feedback line with a word diff ([-...-] / {+...+})")
print(
    f"seen: {len(fb)} feedback line(s), {len(fb[0]) if fb else 0} chars, word-diff mark present: {marked}"
)
sys.exit(0 if len(fb) == 1 and marked else 1)
