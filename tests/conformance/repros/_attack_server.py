"""Shared by the repro scripts: a real OpenAI-shaped HTTP server on 127.0.0.1 that
records arrival times; policy(n, t) -> (status, headers, delay_seconds)."""

import json
import os
import threading
import time

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["SKYNET_IMPORT_AHEAD"] = "0"
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

OK = json.dumps(
    {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-4o-mini",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
).encode()
ERR = json.dumps(
    {"error": {"message": "Rate limit reached", "type": "rate_limit_exceeded"}}
).encode()
KEY = "sk-test-SECRETKEY0123456789abcdef"


class Server:
    def __init__(self, policy):
        self.policy, self.times, self.lock = policy, [], threading.Lock()
        srv = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("content-length", 0)))
                now = time.monotonic()
                with srv.lock:
                    n = len(srv.times)
                    t = now - srv.times[0] if srv.times else 0.0
                    status, headers, delay = srv.policy(n, t)
                    srv.times.append(now)
                if delay:
                    time.sleep(delay)
                body = OK if status == 200 else ERR
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except Exception:
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def model(self):
        return {
            "model": "openai/gpt-4o-mini",
            "api_base": f"http://127.0.0.1:{self.httpd.server_port}/v1",
            "api_key": KEY,
        }

    def arrivals(self):
        ts = sorted(self.times)
        return [round(t - ts[0], 2) for t in ts]


def run_fn(artifact, input):
    from skynet import llm

    return llm(artifact, input=input["q"])


def metric(input, output, expected=None):
    return 1.0, {"feedback": "ok"}


def rows(n):
    return [{"q": f"q{i}", "a": "x"} for i in range(n)]
