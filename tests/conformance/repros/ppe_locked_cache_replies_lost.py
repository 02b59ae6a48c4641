"""Claim 5 (#45 item 5 / #43 rule 3): a run cache file locked by another process
(sqlite BEGIN IMMEDIATE) for longer than the run: replies made by worker processes
are not silently lost: either written once the lock passes, or a process that ends
first says how many it could not write; no warning claims nothing is lost when
something is.

Path: sj.evaluate(..., executor=ProcessPoolExecutor(2), run_cache=sj.RunCache(path=...)),
a task model called through llm() in run(); the lock is held 8 s; the pool is shut
down, the lock is released, and the kernel makes one more call with the same cache.

Expected: the 6 replies the pool workers made are in the file after the lock passed
(or a message says "6 model replies were not written ..."), as with isolation="process"
(which ends with "8 model replies were not written to the run cache ...").
Observed: the file holds only the kernel's own 2 replies; the 6 worker replies are
gone, nothing says so, and the only warning said "Nothing needs deleting: the
replies made meanwhile are kept in this kernel and written to the file as soon as
the lock is released".
Exits 1 while the bug is present.
"""

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("SKYNET_IMPORT_AHEAD", "0")
import skynet_jupyter as sj


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        out = json.dumps(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "gpt-4o-mini",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "x"},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
            }
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
httpd.daemon_threads = True
threading.Thread(target=httpd.serve_forever, daemon=True).start()
MODEL = {
    "model": "openai/gpt-4o-mini",
    "api_base": f"http://127.0.0.1:{httpd.server_port}/v1",
    "api_key": "sk-test-0123456789abcdef",
}
M = sj.ModelSettings(task_model=MODEL)


def run(artifact, input):
    from skynet import llm

    return llm(artifact, input=input["q"])


def metric(input, output, expected=None):
    return 1.0, {"feedback": "ok"}


def rows(prefix, n):
    return [{"q": f"{prefix}{i}", "a": "x"} for i in range(n)]


if __name__ == "__main__":
    db = os.path.join(tempfile.mkdtemp(), "runs.sqlite")
    cache = sj.RunCache(path=db)
    sj.evaluate(
        metric, rows("warm", 1), outputs="a", run=run, artifact="Say", models=M, run_cache=cache
    )
    locker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"""
import sqlite3, time
c = sqlite3.connect({db!r}, isolation_level=None, timeout=0)
c.execute("BEGIN IMMEDIATE"); print("locked", flush=True); time.sleep(8); c.execute("ROLLBACK")
""",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    locker.stdout.readline()
    said = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(said):
        warnings.simplefilter("always")
        with ProcessPoolExecutor(2) as pool:
            sj.evaluate(
                metric,
                rows("q", 6),
                outputs="a",
                run=run,
                artifact="Say",
                models=M,
                run_cache=cache,
                executor=pool,
            )
        locker.wait()
        time.sleep(0.3)
        sj.evaluate(
            metric,
            rows("after", 1),
            outputs="a",
            run=run,
            artifact="Say",
            models=M,
            run_cache=cache,
        )
    text = said.getvalue() + "\n".join(str(w.message) for w in caught)
    n = sqlite3.connect(db).execute("select count(*) from replies").fetchone()[0]
    told = "not written" in text or "could not write" in text.replace(
        "says how many it could not write", ""
    )
    print(f"replies in the file: {n} (expected 8); told how many were lost: {told}")
    sys.exit(0 if n >= 8 or told else 1)
