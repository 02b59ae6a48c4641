"""Claim 6 (#46 run log): a hand-edited record with a field of the wrong type is left
out of a listing with one warning naming its file and the field (or naming it in
sj.diff is one sentence, UnknownRun), "never a crash later".

Path: sj.history(log=DIR)[0].report() and str() of it (the EvalReport read back),
after editing one field of a valid record written by sj.evaluate:
  - a case's "feedback": true           -> TypeError: object of type 'bool' has no len()
  - a step's "cases": null              -> TypeError: 'NoneType' object is not iterable
  - a case's "failed_step": "x"         -> KeyError: 'x'

Expected: the record is refused where it is read (left out of sj.history with a
warning naming the file and field, or DamagedRecord/UnknownRun with one sentence).
Observed: sj.history lists it with no warning, sj.diff of it works, and
RunRecord.report() / str(report) crash with a bare TypeError / KeyError from deep in
show/fragments.py, runlog/read_back.py and core/contract.py.
Exits 1 while the bug is present.
"""

import json
import os
import sys
import tempfile
import warnings

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("SKYNET_IMPORT_AHEAD", "0")
import skynet_jupyter as sj


def metric(input, output, expected=None):
    return 1.0, {"feedback": "ok"}


if __name__ == "__main__":
    base = tempfile.mkdtemp()
    sj.configure(run_log=os.path.join(base, "orig"))
    sj.evaluate(
        metric,
        [{"q": "a", "a": "y", "o": "y"}, {"q": "b", "a": "y", "o": "y"}],
        outputs="a",
        output_column="o",
    )
    sj.history()  # waits for the writer
    runs = os.path.join(base, "orig", "runs")
    name = os.listdir(runs)[0]
    lines = open(os.path.join(runs, name)).read().splitlines()
    edits = {
        "case feedback = true": (None, lambda c: c.__setitem__("feedback", True)),
        "step cases = null": (lambda h: h["steps"][0].__setitem__("cases", None), None),
        "case failed_step = 'x'": (None, lambda c: c.__setitem__("failed_step", "x")),
    }
    crashed = []
    for label, (edit_head, edit_case) in edits.items():
        d = tempfile.mkdtemp(dir=base)
        os.makedirs(os.path.join(d, "runs"))
        head = json.loads(lines[0])
        cases = [json.loads(l) for l in lines[1:]]
        if edit_head:
            edit_head(head)
        if edit_case:
            edit_case(cases[0])
        body = "".join(json.dumps(c, separators=(",", ":")) + "\n" for c in cases)
        head["body_bytes"] = len(body.encode())
        with open(os.path.join(d, "runs", name), "w") as f:
            f.write(json.dumps(head, separators=(",", ":")) + "\n" + body)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for rec in sj.history(log=d):
                    str(rec.report())
            print(f"{label}: refused or read cleanly")
        except Exception as e:
            if type(e).__name__ in ("DamagedRecord", "UnknownRun"):
                print(f"{label}: {type(e).__name__}: {e}")
            else:
                print(f"{label}: CRASH {type(e).__name__}: {e}")
                crashed.append(label)
    sys.exit(1 if crashed else 0)
