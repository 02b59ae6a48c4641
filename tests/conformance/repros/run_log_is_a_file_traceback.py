"""Claim 6 (#46 run log): SKYNET_RUN_LOG set to odd values, `skynet-check history`,
`skynet-check diff A B --json`.

Path: SKYNET_RUN_LOG=<an existing regular file> (or --log-dir FILE), then
sj.history(), `skynet-check history [--json]`, `skynet-check diff last~1 last --json`.

Expected: recording warns once (it does), and reading says in one sentence that the
log place is a file (as RunLogUnreachable does for a URL); the CLI exits 2 (usage)
with that sentence and, with --json, one JSON document on stdout; never a traceback.
Observed: sj.history() raises a raw NotADirectoryError ("[Errno 20] Not a directory:
'.../file/runs'"); every skynet-check history/diff prints a Python traceback, writes
nothing on stdout for --json, and exits 1, which for `diff` means "a case regressed".
Exits 1 while the bug is present.
"""

import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("SKYNET_IMPORT_AHEAD", "0")

if __name__ == "__main__":
    d = tempfile.mkdtemp()
    log = os.path.join(d, "notes.txt")
    open(log, "w").write("not a folder\n")
    env = dict(os.environ, SKYNET_RUN_LOG=log)
    bad = []
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            "import skynet_jupyter as sj\ntry:\n    sj.history()\nexcept Exception as e:\n    print(type(e).__name__, e)",
        ],
        env=env,
        cwd=d,
        capture_output=True,
        text=True,
        timeout=60,
    )
    print("sj.history():", p.stdout.strip()[:200])
    if "NotADirectoryError" in p.stdout or "Traceback" in p.stderr:
        bad.append("sj.history")
    for args in (["history"], ["history", "--json"], ["diff", "last~1", "last", "--json"]):
        p = subprocess.run(
            ["skynet-check", *args], env=env, cwd=d, capture_output=True, text=True, timeout=60
        )
        doc_ok = True
        if "--json" in args:
            try:
                json.loads(p.stdout)
            except ValueError:
                doc_ok = False
        print(
            f"skynet-check {' '.join(args)}: exit {p.returncode}, traceback: {'Traceback' in p.stderr}, JSON doc: {doc_ok}"
        )
        if "Traceback" in p.stderr or p.returncode == 1 or not doc_ok:
            bad.append(" ".join(args))
    sys.exit(1 if bad else 0)
