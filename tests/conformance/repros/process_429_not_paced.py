"""Claim 1 (#43 rule 2): a provider answering every request with HTTP 429 and NO
Retry-After header gets paced requests (not back to back), on every path.

Path: sj.evaluate(..., isolation="process"), concurrency 8 (default), 20 cases.

Expected: the endpoint's pause (0.5 s doubled per 429 in a row) holds for the
run, as in thread mode, ThreadPoolExecutor and Dask (5 requests in all, gaps
0.5/1/2/4 s, none back to back).
Observed: every worker process keeps its own limiter: ~40 requests, in bursts
of up to 8 arriving within a few milliseconds of each other (gaps of 0.001 s),
i.e. the provider is hammered 8x harder than in thread mode.
Exits 1 while the bug is present.
"""

import itertools
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
        self.send_response(429)  # no Retry-After, no retry-after-ms
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
    sj.configure(refusal_timeout=4)
    rows = [{"q": f"q{i}", "a": "x"} for i in range(20)]
    r = sj.evaluate(
        metric,
        rows,
        outputs="a",
        run=run,
        artifact="Say hi",
        models=sj.ModelSettings(task_model=MODEL),
        isolation="process",
    )
    t = sorted(TIMES)
    gaps = [b - a for a, b in itertools.pairwise(t)]
    back_to_back = sum(1 for g in gaps if g < 0.02)
    print(
        "requests:",
        len(t),
        "back to back (<20 ms apart):",
        back_to_back,
        "stop:",
        r.stop and r.stop.kind,
    )
    # thread mode: 5 requests, 0 back to back
    sys.exit(1 if back_to_back > 2 or len(t) > 12 else 0)
