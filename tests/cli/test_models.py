"""skynet-check's model options and inline artifact, against a real loopback server.

The console script runs in a subprocess; its metric and run function call
``llm()`` through litellm to ``openai_server.py`` on 127.0.0.1.  The API key
comes from the environment only, and must appear in no output.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli_support import skynet_check
from tests.openai_server import OpenAIServer, Recorded

ENV_KEY = "sk-cli-LEAKCHECK-0123456789abcdef"
TASK, JUDGE, REFLECTION, NEVER = "task-x", "judge-x", "reflect-x", "never-asked"

JUDGED = """\
from skynet import llm


def score(input, output, expected=None):
    verdict = llm("Answer PASS or FAIL.", input=f"{input['text']} -> {output}")
    ok = verdict.startswith("PASS") and output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": f"Expected {expected['label']!r}: {verdict}"}
"""

RUN = """\
from skynet import llm


def run(artifact, input):
    return llm(artifact, input=input["text"]).strip()
"""

ROWS = [
    {"text": "I was charged twice.", "label": "billing"},
    {"text": "The app crashes.", "label": "technical"},
]


def answer(request: Recorded) -> str:
    if request.model == TASK:
        text = request.messages[-1]["content"]
        return "billing" if "charged" in text else "technical"
    return "PASS: the label fits."


@pytest.fixture(scope="module")
def running_server():
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def server(running_server):
    running_server.reset()
    running_server.reply = answer
    return running_server


@pytest.fixture
def files(tmp_path):
    (tmp_path / "metric.py").write_text(JUDGED, encoding="utf-8")
    (tmp_path / "run.py").write_text(RUN, encoding="utf-8")
    (tmp_path / "cases.jsonl").write_text(
        "".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8"
    )
    return tmp_path


def command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The installed command with the key the leak checks look for (the one runner's rule)."""
    given = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENAI_API_KEY": ENV_KEY, **(env or {})}
    return skynet_check(*args, how="script", timeout=180, env=given)


def check_args(folder: Path, *extra: str) -> list[str]:
    return [
        str(folder / "metric.py"),
        "--data",
        str(folder / "cases.jsonl"),
        "--outputs",
        "label",
        "--run",
        f"{folder / 'run.py'}:run",
        "--all",
        *extra,
    ]


def assert_no_key(done: subprocess.CompletedProcess) -> None:
    assert ENV_KEY not in done.stdout and ENV_KEY not in done.stderr
    assert "LEAKCHECK" not in done.stdout + done.stderr


def test_task_and_metric_models_reach_the_server_with_their_names(server, files):
    extra = ["--artifact-text", "Label the ticket: billing or technical."]
    models = ["--task-model", f"openai/{TASK}", "--metric-model", f"openai/{JUDGE}"]
    # The options beat the environment: SKYNET_METRIC_MODEL names a model never asked.
    env = {"SKYNET_METRIC_MODEL": f"openai/{NEVER}"}
    for output in (["--json"], []):
        done = command(
            *check_args(files, *extra, *models, "--api-base", server.base_url, *output), env=env
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert_no_key(done)
        if output:
            document = json.loads(done.stdout)
            assert document["passed"] is True
            assert [case["output"] for case in document["cases"]] == ["billing", "technical"]
            assert all(case["score"] == 1.0 for case in document["cases"])
            assert ENV_KEY not in json.dumps(document)
        else:
            assert done.stdout.startswith("Evaluation finished")
    assert {r.model for r in server.requests} == {TASK, JUDGE}
    assert len(server.calls(TASK)) == 4 and len(server.calls(JUDGE)) == 4
    assert not server.calls(NEVER)
    # the artifact given inline is the task model's instructions, as written
    assert server.calls(TASK)[0].messages[0]["content"].startswith("Label the ticket:")
    # the key litellm read from the environment is the one the server received
    assert all(r.headers["authorization"] == f"Bearer {ENV_KEY}" for r in server.requests)


def test_the_reflection_model_is_the_judge_when_no_metric_model_is_given(server, files):
    done = command(
        str(files / "metric.py"),
        "--data",
        str(files / "cases.jsonl"),
        "--outputs",
        "label",
        "--output-column",  # outputs from the data: only the judge is asked
        "label",
        "--reflection-model",
        f"openai/{REFLECTION}",
        "--api-base",
        server.base_url,
        "--json",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert {r.model for r in server.requests} == {REFLECTION}
    assert_no_key(done)


def test_api_base_applies_to_models_named_in_the_environment(server, files):
    env = {"SKYNET_TASK_MODEL": f"openai/{TASK}", "SKYNET_METRIC_MODEL": f"openai/{JUDGE}"}
    done = command(
        *check_args(files, "--artifact-text", "Label it.", "--api-base", server.base_url),
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert {r.model for r in server.requests} == {TASK, JUDGE}


def test_a_provider_that_echoes_the_key_is_redacted(server, files):
    server.reject_keys = {ENV_KEY}  # a 401 that repeats the key in full
    done = command(
        *check_args(files, "--artifact-text", "Label it.", "--json"),
        "--task-model",
        f"openai/{TASK}",
        "--metric-model",
        f"openai/{JUDGE}",
        "--api-base",
        server.base_url,
    )
    # A refused key is a configuration problem (issue 35): exit 2, one sentence naming the
    # model and the variable, one request (not retried, no other case run).
    assert done.returncode == 2, done.stdout + done.stderr
    # Asked, never retried (two retries each would make 6 requests): a case already in
    # flight when the first refusal came may have asked too.
    assert 1 <= len(server.requests) <= 2, "the key really went to the server, once a case"
    message = json.loads(done.stdout)["message"]
    assert "The provider refused the API key for openai/task-x (HTTP 401" in message
    assert "OPENAI_API_KEY" in message and "[redacted]" in message
    assert_no_key(done)


def test_a_missing_key_is_said_before_any_request(server, files):
    done = command(
        *check_args(files, "--artifact-text", "Label it.", "--json"),
        "--task-model",
        f"openai/{TASK}",
        "--metric-model",
        f"openai/{JUDGE}",
        "--api-base",
        server.base_url,
        env={"OPENAI_API_KEY": ""},
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert server.requests == []
    message = json.loads(done.stdout)["message"]
    assert message.startswith("openai/task-x needs an API key and none is set")
    assert "OPENAI_API_KEY" in message


def test_no_model_names_the_command_line_option(files):
    done = command(*check_args(files, "--artifact-text", "Label it.", "--json"))
    assert done.returncode == 2
    message = json.loads(done.stdout)["message"]
    assert "--task-model MODEL" in message and "SKYNET_TASK_MODEL" in message


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--api-base", "localhost:8000", "--api-base must be an http:// or https:// address"),
        ("--api-base", "user:sk-secret-123@host", "'…@host'"),
        ("--metric-model", " ", "--metric-model needs a litellm model name"),
    ],
)
def test_bad_model_options_are_usage_errors(files, option, value, said):
    done = command(*check_args(files, "--artifact-text", "x", option, value, "--json"))
    assert done.returncode == 2, done.stdout + done.stderr
    document = json.loads(done.stdout)
    assert said in document["message"]
    assert "sk-secret" not in done.stdout + done.stderr


def test_artifact_and_artifact_text_are_exclusive(files):
    (files / "prompt.txt").write_text("Label it.", encoding="utf-8")
    done = command(
        *check_args(files, "--artifact", str(files / "prompt.txt"), "--artifact-text", "x")
    )
    assert done.returncode == 2
    assert "not allowed with argument" in done.stderr


def test_help_documents_the_model_options_and_where_keys_come_from():
    done = command("--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for words in (
        "--task-model MODEL",
        "--metric-model MODEL",
        "--reflection-model MODEL",
        "--api-base URL",
        "--artifact-text TEXT",
        "--json-columns COLS",
        "keys are read from the environment as litellm reads them",
        "never printed",
        "CSV/TSV cells are text, as written",
    ):
        assert words in text, words
