"""Offline users are told once, and litellm's settings are never changed for them (issue 37,
item 4).

litellm downloads its price map when imported and falls back to its bundled copy when it
cannot.  We never set ``LITELLM_LOCAL_MODEL_COST_MAP``; when the download failed, the first
report after the import says so once, in the report's language, naming that variable.
Each scenario is a fresh process whose price-map address refuses connections (no network).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.fresh_python import last_json
from tests.openai_server import OpenAIServer

ROOT = Path(__file__).resolve().parents[2]
REFUSED = "http://127.0.0.1:9/model_prices_and_context_window.json"  # nothing listens there

CHECKS = """
import json, os, sys
import skynet_jupyter as sj
from skynet_jupyter.helper.skynet import llm

MODEL = {"model": "openai/gpt-4o-mini", "api_base": sys.argv[1], "api_key": "sk-test-0000"}
use_run = sys.argv[3] == "run"

def run(artifact, case_input):
    return llm(artifact, case_input["text"])

def score(input, output, expected=None):
    verdict = output if use_run else llm("Say billing", output)
    return float(verdict == "billing"), {"feedback": "Judged."}

rows = [{"text": "Ticket", "label": "billing"}] * 3
options = dict(run=run, artifact="Label.") if use_run else dict(output_column="label")
models = sj.ModelSettings(task_model=MODEL) if use_run else sj.ModelSettings(metric_model=MODEL)
texts = []
for _ in range(2):
    report = sj.check(score, rows, outputs="label", models=models, lang=sys.argv[2], **options)
    assert report.passed, str(report)
    texts.append({step.id: step.message for step in report.steps})
print(json.dumps({"steps": texts, "set": "LITELLM_LOCAL_MODEL_COST_MAP" in os.environ}))
"""

WORDS = {"en": "could not download", "fr": "n'a pas pu télécharger", "pt": "não conseguiu baixar"}


def checks(server: OpenAIServer, lang: str, where: str, **env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    environment |= {"LITELLM_MODEL_COST_MAP_URL": REFUSED, **env}
    return last_json(CHECKS, server.base_url, lang, where, env=environment)[0]


@pytest.fixture(scope="module")
def server():
    with OpenAIServer() as running:
        running.reply = lambda request: "billing"
        yield running


@pytest.mark.parametrize(
    ("lang", "where", "step"),
    [
        ("en", "run", "run_function"),
        ("fr", "judge", "metric_return_value"),
        ("pt", "run", "run_function"),
    ],
)
def test_the_first_report_after_a_failed_download_names_the_variable_once(
    server, lang, where, step
):
    said = checks(server, lang, where)
    first, second = said["steps"]
    assert "LITELLM_LOCAL_MODEL_COST_MAP=True" in first[step]
    assert WORDS[lang] in first[step]
    others = [text for name, text in first.items() if name != step]
    assert not any("LITELLM_LOCAL_MODEL_COST_MAP" in text for text in others)
    assert not any("LITELLM_LOCAL_MODEL_COST_MAP" in text for text in second.values())
    assert said["set"] is False  # litellm's settings are the user's: never set for them


def test_nothing_is_said_when_the_bundled_map_was_asked_for(server):
    said = checks(server, "en", "run", LITELLM_LOCAL_MODEL_COST_MAP="True")
    for report in said["steps"]:
        assert not any("price map" in text for text in report.values())


def test_the_package_never_sets_litellms_variables():
    writes = re.compile(r"(environ\s*(\[|\.setdefault|\.update)|putenv)[^\n]*LITELLM")
    sources = (ROOT / "skynet_jupyter").rglob("*.py")
    setting = [path.name for path in sources if writes.search(path.read_text(encoding="utf-8"))]
    assert setting == []
    # The pattern finds the way it was done before.
    assert writes.search('os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")')
