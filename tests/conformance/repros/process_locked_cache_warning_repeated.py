"""Claim 5 (run cache locked by another process), isolation="process": README:
"A damaged, locked (after a 1.5 s wait), read-only or non-file cache path is one
warning naming it".

Path: sj.evaluate(8 cases, isolation="process", run_cache=sj.RunCache(path=...)) while
another process holds the sqlite file with BEGIN IMMEDIATE; default warning filters.

Expected: one warning that the cache is locked (and, at exit, the one sentence
counting the replies that could not be written), in about the thread-mode time.
Observed: the same "is locked by another process (waited 1.5 s ...)" warning is
printed ~10 times for one call (once per worker process, plus the kernel), and the
evaluate takes ~4x the thread-mode time (every worker waits its own 1.5 s).
Exits 1 while the bug is present.
"""

import os
import subprocess
import sys
import tempfile
import textwrap

CHILD = textwrap.dedent(r"""
import json, os, sys, threading, time, subprocess
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"; os.environ["SKYNET_IMPORT_AHEAD"] = "0"
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import skynet_jupyter as sj
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        out = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}).encode()
        self.send_response(200); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out))); self.end_headers(); self.wfile.write(out)
httpd = ThreadingHTTPServer(("127.0.0.1", 0), H); httpd.daemon_threads = True
threading.Thread(target=httpd.serve_forever, daemon=True).start()
M = sj.ModelSettings(task_model={"model": "openai/gpt-4o-mini", "api_base": f"http://127.0.0.1:{httpd.server_port}/v1", "api_key": "sk-test-0123456789abcdef"})
def run(artifact, input):
    from skynet import llm
    return llm(artifact, input=input["q"])
def metric(input, output, expected=None):
    return 1.0, {"feedback": "ok"}
db = sys.argv[1]
cache = sj.RunCache(path=db)
sj.evaluate(metric, [{"q": "warm", "a": "x"}], outputs="a", run=run, artifact="S", models=M, run_cache=cache)
locker = subprocess.Popen([sys.executable, "-c", f"import sqlite3, time\nc = sqlite3.connect({db!r}, isolation_level=None, timeout=0)\nc.execute('BEGIN IMMEDIATE'); print('l', flush=True); time.sleep(15)"], stdout=subprocess.PIPE, text=True)
locker.stdout.readline()
sj.evaluate(metric, [{"q": f"q{i}", "a": "x"} for i in range(8)], outputs="a", run=run, artifact="S", models=M,
            run_cache=cache, isolation="process")
locker.kill()
""")

if __name__ == "__main__":
    db = os.path.join(tempfile.mkdtemp(), "runs.sqlite")
    p = subprocess.run(
        [sys.executable, "-c", CHILD, db], capture_output=True, text=True, timeout=100
    )
    n = p.stderr.count("is locked by another process")
    print(f"'is locked by another process' warnings for one evaluate: {n}")
    sys.exit(1 if n > 2 else 0)
