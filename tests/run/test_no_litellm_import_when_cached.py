"""A restart that re-checks from the run cache waits for no litellm import (issue 37, item
1): every call answered from the cache, litellm is never imported; a call the cache
misses imports it then, and the import is not counted in that case's run time.

Each check runs in a fresh Python process (as a restarted kernel, or skynet-check), with
a litellm model at the loopback server; ``sys.modules`` is read at the end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.openai_server import OpenAIServer

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import json, sys
import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm

def run(artifact, case_input):
    return llm(artifact, case_input["text"])

def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "ok"}

import time
rows = [{"text": text, "label": "billing"} for text in sys.argv[3].split("|")]
started = time.perf_counter()
model = {"model": "openai/gpt-4o-mini", "api_base": sys.argv[1], "api_key": "sk-test-0000"}
report = sj.evaluate(score, rows, outputs="label", run=run, artifact="Label.",
                     models=ModelSettings(task_model=model),
                     run_cache=sj.RunCache(path=sys.argv[2]), concurrency=1)
print(json.dumps({
    "litellm": "litellm" in sys.modules,
    "cached": [case.cached for case in report.cases],
    "run_ms": [case.run_ms for case in report.cases],
    "passed": report.passed,
    "elapsed_ms": (time.perf_counter() - started) * 1000.0,
}))
"""


def check(server: OpenAIServer, cache: Path, texts: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run(
        [sys.executable, "-c", CHECK, server.base_url, str(cache), "|".join(texts)],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture
def server():
    with OpenAIServer() as running:
        running.reply = lambda request: "billing"
        yield running


def test_every_call_from_the_cache_imports_no_litellm(server, tmp_path):
    cache = tmp_path / "runs.sqlite"
    texts = ["I was charged twice.", "Refund my plan.", "Invoice missing."]
    cold = check(server, cache, texts)
    assert cold["passed"] and len(server.requests) == 3
    warm = check(server, cache, texts)  # a fresh process: a restarted kernel
    assert warm["passed"] and all(warm["cached"]) and len(server.requests) == 3
    assert warm["litellm"] is False


def test_a_miss_after_a_restart_imports_litellm_without_counting_it_as_run_time(server, tmp_path):
    cache = tmp_path / "runs.sqlite"
    check(server, cache, ["I was charged twice."])
    later = check(server, cache, ["I was charged twice.", "A new message."])
    assert later["cached"] == [True, False] and later["litellm"] is True
    # The import is most of the check's time; the new case's own call to the loopback server
    # is not, and its run time leaves the import out (a ratio: no clock bound).
    assert later["run_ms"][1] < later["elapsed_ms"] / 3, later


HELD = """
import json, sys
import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm

def score(input, output, expected=None):
    verdict = llm("Say billing.", output)
    return float(verdict == "billing"), {"feedback": "Judged."}

model = {"model": "openai/gpt-4o-mini", "api_base": sys.argv[1], "api_key": "sk-test-0000"}
cache = sj.RunCache(path=sys.argv[2])
report = sj.evaluate(score, [{"out": "x", "label": "billing"}], output_column="out",
                     models=ModelSettings(metric_model=model), run_cache=cache, timeout=1,
                     concurrency=1)
case = report.cases[0]
print(json.dumps({"litellm": "litellm" in sys.modules, "error": case.error,
                  "score": case.score, "metric_ms": case.metric_ms}))
"""


def test_litellms_import_at_a_judges_miss_is_not_held_against_its_time_limit(server, tmp_path):
    """A cache holding replies: no import before the cases; the judge's miss imports litellm
    inside ``score`` (seconds, against a 1 s limit), and the limit's clock stops meanwhile."""
    cache = tmp_path / "runs.sqlite"
    assert check(server, cache, ["another request"])["cached"] == [False]  # the cache fills
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run(
        [sys.executable, "-c", HELD, server.base_url, str(cache)],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert said["error"] is None, said
    assert said["score"] == 1.0 and said["litellm"] is True
