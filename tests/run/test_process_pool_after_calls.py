"""A process pool forked after the caller has called a model makes its own connections.

litellm keeps its HTTP clients, with their pooled keep-alive sockets, for the whole
process.  A process pool's workers are forked from the caller: a worker that reused
the caller's socket shared it, and waited forever for an answer the caller's side
read (found by the conformance matrix, rule 5, on the process-pool path).  A forked
child now starts with litellm's client cache empty (``models.litellm_import``).
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

import skynet_jupyter as sj
from skynet_jupyter.helper.skynet import llm
from tests.openai_server import OpenAIServer

ROWS = [{"text": f"ticket {n}", "label": "billing"} for n in range(12)]
EXACT = """
def score(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": "Scored."}
"""


def ask(artifact, input):
    return str(llm(artifact, input["text"])).strip()


@pytest.mark.timeout(120)
def test_a_process_pool_forked_after_a_call_answers_every_case():
    with OpenAIServer() as server:
        server.reply = lambda request: "billing"
        model = {"model": "openai/gpt-4o-mini", "api_base": server.base_url, "api_key": "sk-x"}
        options = {
            "outputs": "label",
            "run": ask,
            "artifact": "Label it.",
            "models": sj.ModelSettings(task_model=model),
        }
        here = sj.evaluate(EXACT, ROWS, concurrency=4, **options)  # the caller's clients
        assert here.passed  # keep their connections open
        for _ in range(2):
            with ProcessPoolExecutor(2) as pool:  # forked now, with those connections open
                there = sj.evaluate(EXACT, ROWS, executor=pool, **options)
            assert there.passed and len(there.cases) == 12
        assert len(server.calls()) == 36
