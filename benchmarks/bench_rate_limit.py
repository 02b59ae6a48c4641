"""A rate-limited model API: every case finishes, near the allowed rate.

A loopback OpenAI-compatible server (``tests/openai_server.py``, in its own
process, as a provider is) allows ``--rate`` requests/s per model, a bucket of
``--burst``, then answers 429 with ``Retry-After: 1``.  Two such servers run
side by side in one run: one sends OpenAI's ``x-ratelimit-*`` headers on every
answer, the other none (``--headers with`` or ``without`` keeps one).
``--cases`` cases whose ``run`` makes one ``llm()`` call each, through litellm,
against each server:

- ``evaluate`` at concurrency 16 and 64 (the endpoint's shared limiter);
- ``evaluate`` at 16 whose metric also asks a judge model (limited apart, as
  providers limit each model apart): 2 x ``--cases`` calls, same ideal time;
- ``dspy.Evaluate(num_threads=16)`` with a ``dspy.LM`` to the same endpoint
  (``cache=False``; DSPy's own retries, ``num_retries=3``);

against the ideal, ``cases / rate`` (4 s for 160 cases at 40 req/s).  Every
contender in every round uses fresh model names: a fresh bucket at the server
and a fresh limiter here (what a new process sees).

    python benchmarks/bench_rate_limit.py [--cases 160] [--rate 40] [--burst 5]
                                          [--rounds 2] [--headers both|with|without]

Targets: 0 failed cases, and ``evaluate`` <= 1.3x the ideal.  A floor on this
machine: the same calls without any rate limit (``unlimited`` line): litellm
costs CPU per call, and these machines have 2 shared cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-bench-0123456789abcdef"

SERVER = """
import json, sys
sys.path.insert(0, {root!r})
from tests.openai_server import OpenAIServer
server = OpenAIServer().start()
server.rate_limit = {rate!r}
server.rate_burst = {burst!r}
server.rate_headers = {headers!r}
print(server.base_url, flush=True)
for line in sys.stdin:  # "count MODEL": requests and 429s that model got
    model = line.split(maxsplit=1)[1].strip()
    calls = server.calls(model)
    print(json.dumps([len(calls), sum(r.status == 429 for r in calls)]), flush=True)
"""


class Server:
    """The test server in a child process (its threads do not share our GIL)."""

    def __init__(self, rate: float | None, burst: int, headers: bool) -> None:
        code = SERVER.format(root=str(ROOT), rate=rate, burst=burst, headers=headers)
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None and self.process.stdin is not None
        self.base_url = self.process.stdout.readline().strip()

    def count(self, model: str) -> tuple[int, int]:
        """(requests, 429s) the server received for ``model``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"count {model}\n")
        self.process.stdin.flush()
        requests, limited = json.loads(self.process.stdout.readline())
        return requests, limited

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=160)
    parser.add_argument("--rate", type=float, default=40.0)
    parser.add_argument("--burst", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--headers",
        choices=("both", "with", "without"),
        default="both",
        help="servers with and/or without x-ratelimit-* headers (default: both, side by side)",
    )
    parser.add_argument("--no-headers", action="store_true", help="the same as --headers without")
    args = parser.parse_args(argv)
    modes = ["with", "without"] if args.headers == "both" else [args.headers]
    if args.no_headers:
        modes = ["without"]

    import skynet_jupyter as sj
    from skynet_jupyter import ModelSettings
    from skynet_jupyter.helper.skynet import llm
    from skynet_jupyter.models import llm as _llm

    _llm.warm_up("openai/gpt-4o-mini")
    rows = [{"text": f"ticket {i}", "label": "billing"} for i in range(args.cases)]
    ideal = args.cases / args.rate
    servers = {mode: Server(args.rate, args.burst, mode == "with") for mode in modes}
    unlimited = Server(None, 1, False)  # no limit: the floor of this machine

    def litellm_model(base: str, name: str) -> dict[str, Any]:
        return {"model": f"openai/{name}", "api_base": base, "api_key": KEY}

    def run(artifact: Any, case: dict) -> str:
        return llm("Label the support ticket.", case["text"])

    def plain(input: Any, output: Any, expected: Any = None) -> tuple[float, dict]:
        return 1.0, {"feedback": "Answered."}

    def judged(input: Any, output: Any, expected: Any = None) -> tuple[float, dict]:
        llm("Answer PASS or FAIL.", output)
        return 1.0, {"feedback": "Judged."}

    def ours(concurrency: int, base: Server, judge: bool = False):
        def contender(tag: str) -> tuple[int, list[str]]:
            task, judge_name = f"task-{tag}", f"judge-{tag}"
            models = ModelSettings(
                task_model=litellm_model(base.base_url, task),
                metric_model=litellm_model(base.base_url, judge_name),
            )
            report = sj.evaluate(
                judged if judge else plain,
                rows,
                outputs="label",
                run=run,
                concurrency=concurrency,
                models=models,
                timeout=600,
                run_timeout=600,
            )
            assert len(report.cases) == len(rows)
            failed = sum(1 for case in report.cases if not case.passed)
            return failed, [task, judge_name] if judge else [task]

        return contender

    contenders: dict[str, Any] = {"unlimited (floor)": ours(16, unlimited)}
    base_of: dict[str, Server] = {"unlimited (floor)": unlimited}
    for mode, server in servers.items():
        for name, contender in (
            ("evaluate c=16", ours(16, server)),
            ("evaluate c=64", ours(64, server)),
            ("evaluate c=16 +judge", ours(16, server, judge=True)),
        ):
            contenders[f"{name} [{mode}]"] = contender
            base_of[f"{name} [{mode}]"] = server
    try:
        import dspy
    except ImportError:
        dspy = None
    if dspy is not None:
        import logging
        import warnings

        logging.getLogger("dspy").setLevel(logging.CRITICAL)  # not one line per failed example
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="dspy")
        warnings.filterwarnings("ignore", message=".*messages= is deprecated.*")
        devset = [dspy.Example(text=r["text"]).with_inputs("text") for r in rows]

        class Ask(dspy.Module):
            def __init__(self, lm: Any) -> None:
                super().__init__()
                self.ask = lm

            def forward(self, text: str) -> Any:
                answer = self.ask(
                    messages=[
                        {"role": "system", "content": "Label the support ticket."},
                        {"role": "user", "content": text},
                    ]
                )
                return dspy.Prediction(label=answer[0])

        def dspy_with(engine: str, server: Server):
            def dspy_contender(tag: str) -> tuple[int, list[str]]:
                name = f"dspy-{engine}-{tag}"
                lm = dspy.LM(
                    f"openai/{name}",
                    api_base=server.base_url,
                    api_key=KEY,
                    cache=False,
                    engine=engine,
                )
                evaluator = dspy.Evaluate(
                    devset=devset,
                    metric=lambda example, prediction, trace=None: 1.0,
                    num_threads=16,
                    display_progress=False,
                    max_errors=len(devset) + 1,
                    failure_score=0.0,
                )
                result = evaluator(Ask(lm))
                failed = sum(1 for _, prediction, _ in result.results if "label" not in prediction)
                return failed, [name]

            return dspy_contender

        # DSPy's default engine ("auto": lm15 here) and its litellm engine (num_retries=3)
        for mode, server in servers.items():
            for name, engine in (
                ("dspy.Evaluate t=16", "auto"),
                ("dspy (litellm) t=16", "litellm"),
            ):
                contenders[f"{name} [{mode}]"] = dspy_with(engine, server)
                base_of[f"{name} [{mode}]"] = server

    times: dict[str, list[float]] = {name: [] for name in contenders}
    failures: dict[str, list[int]] = {name: [] for name in contenders}
    limited: dict[str, list[int]] = {name: [] for name in contenders}
    try:
        for name, contender in contenders.items():  # warm up: imports, first connections
            contender(f"warm{len(times[name])}{abs(hash(name))}")
        for round_ in range(args.rounds):
            for index, (name, contender) in enumerate(contenders.items()):
                started = time.perf_counter()
                failed, models = contender(f"r{round_}c{index}")
                times[name].append(time.perf_counter() - started)
                failures[name].append(failed)
                limited[name].append(sum(base_of[name].count(model)[1] for model in models))
    finally:
        for server in servers.values():
            server.close()
        unlimited.close()

    print(
        f"rate limit: {args.cases} cases, one llm() call each, servers {args.rate:g} req/s per "
        f"model (burst {args.burst}, Retry-After: 1; [with] / [without] x-ratelimit headers); "
        f"ideal {ideal:.1f} s; {args.rounds} rounds, contenders interleaved"
    )
    for name in contenders:
        best, median = min(times[name]), statistics.median(times[name])
        print(
            f"  {name:<32} min {best:6.2f} s  median {median:6.2f} s  "
            f"{best / ideal:5.2f}x ideal  failed cases {max(failures[name]):3d}  "
            f"429s {max(limited[name]):3d}"
        )
    for mode in modes:
        for name in ("evaluate c=16", "evaluate c=64", "evaluate c=16 +judge"):
            name = f"{name} [{mode}]"
            ratio = min(times[name]) / ideal
            ok = max(failures[name]) == 0 and ratio <= 1.3
            print(
                f"rate limit: {name} / ideal = {ratio:.2f}x, {max(failures[name])} failed "
                f"(target 0 failed and <= 1.3x: {'met' if ok else 'missed'})"
            )
    if dspy is not None:
        for mode in modes:
            ours16 = min(times[f"evaluate c=16 [{mode}]"])
            for name in ("dspy.Evaluate t=16", "dspy (litellm) t=16"):
                name = f"{name} [{mode}]"
                print(
                    f"rate limit: {name} / ideal = {min(times[name]) / ideal:.2f}x, "
                    f"{max(failures[name])} failed; / evaluate c=16 = "
                    f"{min(times[name]) / ours16:.2f}x"
                )
    else:
        print("rate limit: dspy not installed (pip install 'skynet-jupyter[dspy]'): no DSPy figure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
