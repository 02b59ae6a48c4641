"""Models served by the loopback OpenAI server (``tests/openai_server.py``), for cache tests.

``served(server)`` is a litellm dict model asked at the server; ``asks(server)``
counts the requests that reached it (the only proof that a model was, or was
not, asked again); ``ask_run`` is a ``run(artifact, input)`` that makes one
``llm()`` call per case, the artifact as its instructions.
"""

from __future__ import annotations

from typing import Any

from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm
from tests.openai_server import OpenAIServer

KEY = "sk-cache-tests-0123456789"


def served(server: OpenAIServer, name: str = "gpt-4o-mini", **settings: Any) -> dict[str, Any]:
    """A litellm dict model asked at ``server`` (with an API key it never needs)."""
    return {"model": f"openai/{name}", "api_base": server.base_url, "api_key": KEY, **settings}


def task_models(server: OpenAIServer, judge: bool = False) -> ModelSettings:
    """The task model (and a judge, "gpt-4o", when asked) at ``server``."""
    return ModelSettings(
        task_model=served(server), metric_model=served(server, "gpt-4o") if judge else None
    )


def asks(server: OpenAIServer, model: str | None = None) -> int:
    """How many requests reached ``server`` (for ``model``: "openai/" stripped, as served)."""
    return len(server.calls(model))


def ask_run(artifact: Any, input: Any) -> str:
    """One model call per case: the artifact as instructions, the case's text as input."""
    return llm(str(artifact), input["text"])
