"""Claim 1 (#43 rule 2): a provider answering every request with HTTP 429 and NO
Retry-After: the run stops after `sj.configure(refusal_timeout=SECONDS)` of refusals.

Path: sj.evaluate(...) in thread mode (the same on a ThreadPoolExecutor and a Dask
LocalCluster(processes=False) client), refusal_timeout=4.

Expected: the run returns with report.stop about 4 s after the first refused request
(a little slack allowed: <= 5.5 s).
Observed: the pause doubles (0.5, 1, 2, 4 s) without being cut at what is left of the
refusal window, so the 5th request is sent at 7.5 s and the run stops ~7.6 s after the
first refusal: almost twice the configured time (refusal_timeout=2 -> 3.5 s, 10 -> 15.5 s).
Exits 1 while the bug is present.
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("SKYNET_IMPORT_AHEAD", "0")
import skynet_jupyter as sj

TIMES = []


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", 0)))
        TIMES.append(time.monotonic())
        out = json.dumps(
            {"error": {"message": "Rate limit reached", "type": "rate_limit_exceeded"}}
        ).encode()
        self.send_response(429)  # no Retry-After
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


def run(artifact, input):
    from skynet import llm

    return llm(artifact, input=input["q"])


def metric(input, output, expected=None):
    return 1.0, {"feedback": "ok"}


if __name__ == "__main__":
    LIMIT = 4
    sj.configure(refusal_timeout=LIMIT)
    rows = [{"q": f"q{i}", "a": "x"} for i in range(20)]
    r = sj.evaluate(
        metric,
        rows,
        outputs="a",
        run=run,
        artifact="Say hi",
        models=sj.ModelSettings(task_model=MODEL),
    )
    took = time.monotonic() - min(TIMES)
    print(
        f"refusal_timeout={LIMIT}: stopped {took:.2f} s after the first refusal;",
        "requests:",
        len(TIMES),
        "stop:",
        r.stop and r.stop.kind,
    )
    sys.exit(1 if (r.stop is None or took > LIMIT + 1.5) else 0)
