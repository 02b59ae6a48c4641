"""A model's key, missing or refused (issue 35, item 17): one sentence naming the model and
the variable to set, never retried, said once, the run stopped there, the key never shown.

Real litellm against the loopback server; "no key" is the environment without
``OPENAI_API_KEY`` and a model that names none.
"""

from __future__ import annotations

import json
import os
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.models.credentials import (
    KEY_VARIABLES,
    ModelKeyProblem,
    missing_key,
)
from tests.openai_server import OpenAIServer

REFUSED_KEY = "sk-refused-LEAKCHECK-00112233445566"
TICKETS = [{"text": f"Ticket {n}: I was charged twice.", "label": "billing"} for n in range(6)]
METRIC = """
def score(input, output, expected=None):
    ok = output == expected
    return float(ok), {"feedback": "Right." if ok else f"Expected {expected!r}, got {output!r}."}
"""


def classify(artifact, case_input):
    return llm(artifact, case_input["text"], temperature=0)


@pytest.fixture(scope="module")
def running_server():
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def server(running_server):
    running_server.reset()
    running_server.reply = lambda request: "billing"
    return running_server


@pytest.fixture
def no_keys(monkeypatch):
    """No key for any provider in the environment, and no model configured."""
    for variables in KEY_VARIABLES.values():
        for variable in variables:
            monkeypatch.delenv(variable, raising=False)
    for name in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())


def at(server: OpenAIServer, **extra) -> dict:
    return {"model": "openai/gpt-4o-mini", "api_base": server.base_url, **extra}


def every_form(report) -> str:
    return "\n".join(
        [str(report), report._repr_html_(), json.dumps(report.to_dict())]
        + [case.traceback or "" for case in report.cases]
    )


def test_a_missing_key_stops_the_check_on_its_first_case_and_asks_nothing(server, no_keys):
    models = ModelSettings(task_model=at(server))
    report = sj.evaluate(
        METRIC,
        TICKETS,
        outputs="label",
        run=classify,
        artifact="Label.",
        models=models,
        concurrency=2,
    )
    assert server.requests == []  # no request, no retry
    first = report.cases[0]
    assert "openai/gpt-4o-mini needs an API key" in first.error
    assert "OPENAI_API_KEY" in first.error and "Traceback" not in first.error
    assert first.traceback is None
    said_once = [case for case in report.cases if "needs an API key" in (case.error or "")]
    assert len(said_once) <= 2  # the cases already started when it was found (concurrency 2)
    assert sum(1 for case in report.cases if (case.error or "").startswith("Not run")) >= 4


@pytest.mark.parametrize("blank", ["", " ", "   \t", "\n"])
def test_a_key_variable_set_to_blanks_is_a_missing_key(server, no_keys, monkeypatch, blank):
    monkeypatch.setenv("OPENAI_API_KEY", blank)
    report = sj.check(
        METRIC,
        TICKETS,
        outputs="label",
        run=classify,
        artifact="Label.",
        models=ModelSettings(task_model=at(server)),
    )
    assert "openai/gpt-4o-mini needs an API key" in report.cases[0].error
    assert "OPENAI_API_KEY" in report.cases[0].error
    assert server.requests == []  # nothing sent with a blank key


def test_a_litellm_key_set_to_blanks_is_a_missing_key(server, no_keys, monkeypatch):
    from skynet_jupyter.models.litellm_import import imported_litellm

    litellm = imported_litellm()
    monkeypatch.setattr(litellm, "api_key", "  ", raising=False)
    assert missing_key({"model": "openai/gpt-4o-mini"}) == ("openai", "OPENAI_API_KEY")
    monkeypatch.setattr(litellm, "api_key", "sk-set-the-litellm-way", raising=False)
    assert missing_key({"model": "openai/gpt-4o-mini"}) is None


def test_a_missing_key_is_said_in_the_runs_language(server, no_keys):
    report = sj.check(
        METRIC,
        TICKETS,
        outputs="label",
        run=classify,
        artifact="Label.",
        models=ModelSettings(task_model=at(server)),
        lang="fr",
    )
    assert "a besoin d'une clé d'API" in report.cases[0].error
    assert server.requests == []


def test_a_refused_key_is_asked_once_never_retried_and_never_shown(server, no_keys):
    server.reject_keys = {REFUSED_KEY}  # a 401 that echoes the key in full
    models = ModelSettings(task_model=at(server, api_key=REFUSED_KEY))
    report = sj.evaluate(
        METRIC,
        TICKETS,
        outputs="label",
        run=classify,
        artifact="Label.",
        models=models,
        concurrency=1,
    )
    assert len(server.requests) == 1  # 6 cases, one request: not retried, the run stopped
    first = report.cases[0]
    assert "refused the API key for openai/gpt-4o-mini (HTTP 401" in first.error
    assert all((case.error or "").startswith("Not run") for case in report.cases[1:])
    assert REFUSED_KEY not in every_form(report)


def test_a_judge_without_its_key_names_the_judge(server, no_keys):
    judged = """
from skynet import llm
def score(input, output, expected=None):
    verdict = llm("Say PASS or FAIL.", output)
    return float(verdict == "PASS"), {"feedback": verdict}
"""
    report = sj.check(
        judged,
        TICKETS,
        outputs="label",
        output_column="label",
        models=ModelSettings(metric_model=at(server)),
    )
    assert server.requests == []
    assert report.cases[0].failed_step == "metric_return_value"
    assert "needs an API key" in report.cases[0].error


def test_a_cached_reply_needs_no_key(server, no_keys, monkeypatch, tmp_path):
    """The key is checked at the first call that must be sent: a replay from the cache
    (CI re-checking without secrets) asks for no key."""
    cache = sj.RunCache(path=tmp_path / "runs.sqlite")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-once-0123456789")
    first = sj.check(
        METRIC,
        TICKETS,
        outputs="label",
        run=classify,
        artifact="Label.",
        models=ModelSettings(task_model=at(server)),
        run_cache=cache,
    )
    assert first.passed and len(server.requests) == 3
    monkeypatch.delenv("OPENAI_API_KEY")
    again = sj.check(
        METRIC,
        TICKETS,
        outputs="label",
        run=classify,
        artifact="Label.",
        models=ModelSettings(task_model=at(server)),
        run_cache=cache,
    )
    assert again.passed and len(server.requests) == 3


def test_optimize_without_the_reflection_key_says_so_before_anything_runs(server, no_keys):
    calls = []

    def run(artifact, case_input):
        calls.append(case_input)
        return "billing"

    with pytest.raises(ModelKeyProblem) as refused:
        sj.optimize(
            METRIC,
            TICKETS * 2,
            outputs="label",
            run=run,
            artifact="Label.",
            budget=20,
            reflection_model="openai/gpt-4o-mini",
        )
    assert calls == [] and server.requests == []
    assert refused.value.role == "reflection" and "OPENAI_API_KEY" in str(refused.value)


# --- the rule itself, over generated calls ----------------------------------------------

providers = st.sampled_from(sorted(KEY_VARIABLES))
names = st.text(alphabet=string.ascii_lowercase + string.digits + "-.", min_size=1, max_size=20)
secrets = st.text(alphabet=string.ascii_letters + string.digits, min_size=8, max_size=40)


blanks = st.text(alphabet=" \t\n\r", max_size=4)
WAYS = ["env", "arg", "none", "blank-env", "blank-arg"]


@settings(max_examples=300, deadline=None)
@given(provider=providers, name=names, key=secrets, blank=blanks, how=st.sampled_from(WAYS))
def test_a_key_is_missing_exactly_when_neither_given_nor_set(provider, name, key, blank, how):
    """A variable or an argument set to blanks (a template left unfilled) is no key."""
    variables = KEY_VARIABLES[provider]
    saved = {variable: os.environ.pop(variable, None) for variable in variables}
    try:
        call = {"model": f"{provider}/{name}"}
        if how == "env":
            os.environ[variables[-1]] = key
        if how == "arg":
            call["api_key"] = key
        if how == "blank-env":
            os.environ[variables[0]] = blank
        if how == "blank-arg":
            call["api_key"] = blank
        found = missing_key(call)
        assert (found is None) == (how in ("env", "arg"))
        if found is not None:
            assert found == (provider, variables[0])
            problem = ModelKeyProblem(call["model"], found[1])
            assert variables[0] in str(problem) and call["model"] in str(problem)
    finally:
        for variable, value in saved.items():
            os.environ.pop(variable, None)
            if value is not None:
                os.environ[variable] = value


@settings(max_examples=200, deadline=None)
@given(model=st.text(max_size=30))
def test_a_model_of_no_known_provider_is_never_refused_beforehand(model):
    """A local server, a proxy, a provider not in the table: litellm decides, not us."""
    known = (
        model.split("/", 1)[0] in KEY_VARIABLES
        if "/" in model
        else model.startswith(("gpt-", "chatgpt-", "o1", "o3", "o4-", "claude"))
    )
    if not known:
        assert missing_key({"model": model}) is None
