"""llm(): routing, measured cost, retries, provider errors, no leaked keys.

Everything goes through the real litellm code path to a real HTTP server on
127.0.0.1 (``openai_server.py``); expected prices are read from litellm's own
(offline) price map.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import traceback

import pytest

import skynet_jupyter as sj
from skynet_jupyter import ModelCallError, ModelReply, ModelSettings, StandInModel
from skynet_jupyter.core import secrets as _secrets
from skynet_jupyter.core.contract import case_hint
from skynet_jupyter.core.reward import component
from skynet_jupyter.helper.skynet import llm, observation
from skynet_jupyter.models import case_context
from skynet_jupyter.models import llm as _llm
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.models.settings import ModelNotConfigured
from tests.openai_server import OpenAIServer, Recorded

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

TASK, JUDGE, OTHER_JUDGE = "gpt-4o-mini", "gpt-4o", "gpt-4.1-mini"
FAKE_ENV_KEY = "sk-env-LEAKCHECK-0123456789abcdef"
FAKE_DICT_KEY = "sk-dict-LEAKCHECK-fedcba9876543210"
COST_REFERENCE = 0.0001

JUDGED_METRIC = f"""
from skynet import llm, observation, reward

REWARD_SPEC = {{
    "weights": {{"accuracy": 0.6, "speed": 0.2, "cost": 0.2}},
    "accuracy": {{}},
    "speed": {{"reference": 2000}},
    "cost": {{"reference": {COST_REFERENCE}}},
}}


def score(input, output, expected=None):
    verdict = llm(
        "Answer PASS or FAIL, then give one sentence of reasons.",
        input=f"Message: {{input['text']}}\\nLabel: {{output}}\\nExpected: {{expected['label']}}",
    )
    seen = observation()
    note = (
        f"Judge: {{verdict}} Run: {{seen.model_calls}} call(s), "
        f"{{seen.input_tokens}} in, {{seen.output_tokens}} out."
    )
    return reward(REWARD_SPEC, 1.0 if verdict.startswith("PASS") else 0.0, note)
"""


def classify(artifact, case_input):
    return llm(artifact, input=case_input["text"]).strip()


def answer(request: Recorded) -> str:
    """The task model labels tickets; the judges compare the label with the expected one."""
    user = request.messages[-1]["content"]
    if request.model == TASK:
        text = user.lower()
        if "charge" in text or "refund" in text:
            return "billing"
        if "crash" in text or "error" in text:
            return "technical"
        return "other"
    fields = dict(line.split(": ", 1) for line in user.splitlines() if ": " in line)
    if fields.get("Label") == fields.get("Expected"):
        return "PASS The label matches the message."
    return "FAIL The label does not match."


# --- fixtures ---------------------------------------------------------------------


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
def no_models(monkeypatch):
    """No model from the environment or from configure() (restored afterwards)."""
    for name in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())


@pytest.fixture
def litellm_map():
    import litellm

    return litellm.model_cost


def model(server: OpenAIServer, name: str, **extra) -> dict:
    """A litellm dict model on the local server (fast retries for tests)."""
    return {
        "model": f"openai/{name}",
        "api_base": server.base_url,
        "api_key": FAKE_DICT_KEY,
        "retry_strategy": "constant_retry",
        **extra,
    }


def price(requests: list[Recorded], name: str, model_cost: dict) -> float:
    """What ``requests`` cost at the map's price for ``name``: tokens x price."""
    entry = model_cost[name]
    return sum(
        r.usage["prompt_tokens"] * entry["input_cost_per_token"]
        + r.usage["completion_tokens"] * entry["output_cost_per_token"]
        for r in requests
    )


def asked_about(requests: list[Recorded], text: str) -> list[Recorded]:
    return [r for r in requests if text in r.messages[-1]["content"]]


# --- end to end: routing, cost, judge cost ------------------------------------------


def test_task_and_judge_routing_with_measured_cost(server, no_models, tickets, litellm_map):
    models = ModelSettings(task_model=model(server, TASK), metric_model=model(server, JUDGE))
    prompt = "Label the support ticket: billing, technical or other. One word."

    report = sj.check(
        JUDGED_METRIC, tickets, outputs="label", run=classify, artifact=prompt, models=models
    )

    assert report.passed, str(report)
    task_calls, judge_calls = server.calls(TASK), server.calls(JUDGE)
    assert len(task_calls) == len(judge_calls) == 3 and len(server.requests) == 6
    for request in task_calls:  # run: system = the artifact, user = the input
        assert request.messages[0] == {"role": "system", "content": prompt}
        assert request.headers["authorization"] == f"Bearer {FAKE_DICT_KEY}"
    for case in report.cases:
        text = case.input["text"]
        (run_call,) = asked_about(task_calls, text)
        (judge_call,) = asked_about(judge_calls, text)
        run_cost = price([run_call], TASK, litellm_map)
        judge_cost = price([judge_call], JUDGE, litellm_map)
        assert run_cost > 0 and judge_cost > 0
        assert case.output == case.expected["label"]
        assert case.cost_usd == pytest.approx(run_cost, rel=1e-9)
        assert case.judge_cost_usd == pytest.approx(judge_cost, rel=1e-9)
        assert case.model_calls == 2
        assert case.scores["cost"] == pytest.approx(component(COST_REFERENCE, run_cost))
        assert case.scores["accuracy"] == 1.0
        usage = run_call.usage
        assert (
            f"Run: 1 call(s), {usage['prompt_tokens']} in, {usage['completion_tokens']} out."
            in case.feedback
        )
        assert "not measured" not in case.feedback

    text = str(report)
    assert "judge cost" in text
    first = report.cases[0]
    assert render_usd(first.judge_cost_usd) in text and render_usd(first.cost_usd) in text
    from skynet_jupyter.notebook.widgets import LiveView

    view = LiveView(kind="check", lang="en", metric_name="default")
    view.finish(report)
    shown = widget_text(view)
    assert "judge cost" in shown and render_usd(first.judge_cost_usd) in shown
    exported = report.to_dict()["cases"][0]
    assert exported["cost_usd"] == pytest.approx(first.cost_usd)
    assert exported["judge_cost_usd"] == pytest.approx(first.judge_cost_usd)


def render_usd(usd: float) -> str:
    from skynet_jupyter.show.formats import fmt_usd

    return fmt_usd(usd, "en")


def test_concurrent_cases_each_pay_for_their_own_calls(server, no_models, tickets, litellm_map):
    server.delay = 0.05  # let the cases overlap
    models = ModelSettings(task_model=model(server, TASK), metric_model=model(server, JUDGE))

    report = sj.evaluate(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=classify,
        artifact="Label it.",
        models=models,
        concurrency=5,
    )

    assert len(report.cases) == 5 and all(case.passed for case in report.cases)
    for case in report.cases:
        text = case.input["text"]
        assert case.cost_usd == pytest.approx(
            price(asked_about(server.calls(TASK), text), TASK, litellm_map)
        )
        assert case.judge_cost_usd == pytest.approx(
            price(asked_about(server.calls(JUDGE), text), JUDGE, litellm_map)
        )


def test_unknown_price_makes_cost_not_measured(server, no_models, tickets):
    models = ModelSettings(
        task_model=model(server, "house-model-7b"), metric_model=model(server, JUDGE)
    )

    report = sj.check(
        JUDGED_METRIC, tickets, outputs="label", run=classify, artifact="Label it.", models=models
    )

    assert report.passed, str(report)
    assert len(server.calls("house-model-7b")) == 3
    for case in report.cases:
        assert case.cost_usd is None
        assert case.judge_cost_usd is not None and case.judge_cost_usd > 0
        assert case.scores["cost"] == 0.0
        assert "Cost was not measured for this case" in case.feedback
    assert "cost not measured" in str(report)


def test_a_price_given_in_the_model_dict_is_used(server, no_models, tickets):
    priced = model(server, "house-model-7b", input_cost_per_token=1e-6, output_cost_per_token=2e-6)

    report = sj.check(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=classify,
        artifact="Label it.",
        models=ModelSettings(task_model=priced, metric_model=StandInModel("PASS")),
    )

    for case in report.cases:
        (call,) = asked_about(server.calls("house-model-7b"), case.input["text"])
        expected = call.usage["prompt_tokens"] * 1e-6 + call.usage["completion_tokens"] * 2e-6
        assert case.cost_usd == pytest.approx(expected)


def test_a_reply_without_usage_counts_as_not_measured(server, no_models):
    server.report_usage = False
    reply = _llm.complete(model(server, TASK), "Say hi.", "hello")
    assert reply.text == "other"
    assert reply.cost_usd is None


# --- configuration: configure(), environment variables, overrides ---------------------


def test_environment_variables_route_task_metric_and_reflection(
    server, no_models, monkeypatch, tickets
):
    monkeypatch.setenv("OPENAI_API_BASE", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_ENV_KEY)
    monkeypatch.setenv("SKYNET_TASK_MODEL", f"openai/{TASK}")
    monkeypatch.setenv("SKYNET_REFLECTION_MODEL", f"openai/{JUDGE}")

    report = sj.check(JUDGED_METRIC, tickets, outputs="label", run=classify, artifact="Label.")

    assert report.passed, str(report)
    assert len(server.calls(TASK)) == 3 and len(server.calls(JUDGE)) == 3
    assert server.requests[0].headers["authorization"] == f"Bearer {FAKE_ENV_KEY}"

    server.requests.clear()
    monkeypatch.setenv("SKYNET_METRIC_MODEL", f"openai/{OTHER_JUDGE}")  # beats reflection
    report = sj.check(JUDGED_METRIC, tickets, outputs="label", run=classify, artifact="Label.")
    assert report.passed, str(report)
    assert len(server.calls(OTHER_JUDGE)) == 3 and not server.calls(JUDGE)

    server.requests.clear()  # outside a check, llm() asks the task model
    assert llm("Label it.", input="I was charged twice.") == "billing"
    assert [r.model for r in server.requests] == [TASK]


def test_configure_beats_environment_and_overrides_beat_configure(no_models, monkeypatch, tickets):
    monkeypatch.setenv("SKYNET_TASK_MODEL", "openai/never-called")
    monkeypatch.setenv("SKYNET_METRIC_MODEL", "openai/never-called")
    task, configured, override = StandInModel("billing", tag=""), StandInModel("PASS"), None
    sj.configure(task_model=task, metric_model=configured)

    report = sj.check(JUDGED_METRIC, tickets, outputs="label", run=classify, artifact="Label.")
    assert len(task.calls) == 3 and len(configured.calls) == 3
    assert report.cases[0].feedback.startswith("Judge: PASS")
    # Replies are exactly what the stand-in was told; the report counts them instead.
    assert report.cases[0].stand_in_calls == 2  # the run's and the judge's
    assert report.stand_in_calls == 6

    override = StandInModel("FAIL")
    report = sj.check(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=classify,
        artifact="Label.",
        models=ModelSettings(metric_model=override),
    )
    assert len(override.calls) == 3 and len(configured.calls) == 3
    assert report.cases[0].scores["accuracy"] == 0.0

    settings = sj.configure(reset=True)
    assert settings == ModelSettings()
    assert model_settings.current_settings().task_model == "openai/never-called"


def test_configure_rejects_what_is_not_a_model(no_models):
    with pytest.raises(TypeError, match="metric_model must be a litellm model string"):
        sj.configure(metric_model=42)
    with pytest.raises(TypeError, match="without a 'model' key"):
        sj.configure(task_model={"api_base": "http://localhost"})
    assert model_settings._Configured.settings == ModelSettings()


def test_run_code_cannot_change_the_judge_or_the_measurements(no_models, tickets):
    judge = StandInModel("PASS")
    sneaky = StandInModel("FAIL")

    def run(artifact, case_input):
        sj.configure(metric_model=sneaky)  # too late: the check carries its models
        seen = observation()
        assert seen == case_context.Observation()  # nothing measured yet, nothing to change
        with pytest.raises(dataclasses.FrozenInstanceError):
            seen.cost_usd = 0.0  # type: ignore[misc]
        return llm("Label it.", input=case_input["text"])

    report = sj.check(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=run,
        models=ModelSettings(task_model=StandInModel(tag=""), metric_model=judge),
    )

    assert report.passed, str(report)
    assert len(judge.calls) == 3 and not sneaky.calls
    assert all("Run: 1 call(s)" in case.feedback for case in report.cases)


def test_no_model_configured_names_the_three_ways(no_models, tickets):
    with pytest.raises(ModelNotConfigured) as caught:
        llm("Say hi.")
    message = str(caught.value)
    for way in ("configure(task_model=", "%config SkynetMagics.task_model", "SKYNET_TASK_MODEL"):
        assert way in message

    report = sj.check(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=classify,
        models=ModelSettings(task_model=StandInModel("billing", tag="")),
    )
    first = report.cases[0]
    assert not report.passed
    # The case says what it is (a configuration problem); its fix names the three ways.
    assert "configuration problem" in first.error
    fix = case_hint(first.failed_step, first)
    for way in (
        "configure(metric_model=",
        "%config SkynetMagics.metric_model",
        "SKYNET_METRIC_MODEL",
        "SKYNET_REFLECTION_MODEL",
    ):
        assert way in fix


# --- retries and provider errors ---------------------------------------------------------


def test_rate_limits_and_server_errors_are_retried(server, no_models):
    server.fail_next(429, 500)

    assert llm_with(model(server, TASK), "I was charged twice.") == "billing"

    assert [r.status for r in server.requests] == [429, 500, 200]
    assert {r.model for r in server.requests} == {TASK}


def test_retries_run_out_into_the_providers_message(server, no_models):
    server.fail_next(503, 503, 503, 503)

    with pytest.raises(ModelCallError) as caught:
        llm_with(model(server, TASK, num_retries=2), "hello")

    assert [r.status for r in server.requests] == [503, 503, 503]
    error = caught.value
    assert error.status_code == 503 and error.retries == 2
    assert "after 2 retries" in str(error)
    assert "The server had an error while processing your request." in str(error)

    with pytest.raises(ModelCallError, match=r"after 1 retry .*Connection error"):
        llm_with(model(server, TASK, api_base="http://127.0.0.1:1/v1", num_retries=1), "hi")


def test_a_client_error_is_not_retried_and_becomes_the_case_error(server, no_models, tickets):
    server.fail_next(400)
    judge = StandInModel("PASS")

    report = sj.check(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=classify,
        models=ModelSettings(task_model=model(server, TASK), metric_model=judge),
    )

    assert [r.status for r in server.requests] == [400, 200, 200]  # no retry for the 400
    failed = report.cases[0]
    assert failed.failed_step == "run_function"
    assert "ModelCallError" in failed.error and "HTTP 400" in failed.error
    assert "The request was refused with status 400 (test server)." in failed.error
    assert [case.passed for case in report.cases] == [False, True, True]
    assert len(judge.calls) == 2


def test_a_judge_error_fails_the_metric_step(server, no_models, tickets):
    report = sj.check(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=classify,
        models=ModelSettings(
            task_model=StandInModel("billing", tag=""),
            metric_model=model(server, JUDGE, api_base=server.base_url + "/nowhere"),
        ),
    )
    case = report.cases[0]
    assert case.failed_step == "metric_return_value"
    assert "ModelCallError" in case.error and "HTTP 404" in case.error
    assert "No route /v1/nowhere/chat/completions." in case.error


def test_a_timeout_is_not_retried_and_leaves_the_cost_unknown(server, no_models, tickets):
    def run(artifact, case_input):
        try:
            return llm("Label it.", input=case_input["text"] + " [[delay=1]]")
        except ModelCallError as error:
            assert error.kind == "Timeout"
            return "other"

    report = sj.check(
        JUDGED_METRIC,
        tickets[:1],
        outputs="label",
        run=run,
        cases=1,
        models=ModelSettings(
            task_model=model(server, TASK, timeout=0.3), metric_model=StandInModel("PASS")
        ),
    )

    assert len(server.requests) == 1
    case = report.cases[0]
    assert case.passed and case.cost_usd is None  # the provider may have billed the work
    assert "Cost was not measured" in case.feedback


# --- no leaked keys ------------------------------------------------------------------------


def widget_text(view) -> str:
    """Every trait value of every widget a LiveView holds, as text."""
    import ipywidgets

    seen, parts = set(), []

    def walk(widget):
        if id(widget) in seen:
            return
        seen.add(id(widget))
        parts.append(json.dumps(widget.get_state(), default=str))
        for child in getattr(widget, "children", ()):
            walk(child)

    for value in vars(view).values():
        if isinstance(value, ipywidgets.Widget):
            walk(value)
    return "\n".join(parts)


def test_api_keys_appear_in_no_output(
    server, no_models, monkeypatch, tickets, tmp_path, capfd, caplog
):
    caplog.set_level("DEBUG")
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_ENV_KEY)
    monkeypatch.setenv("OPENAI_API_BASE", server.base_url)
    server.reject_keys = {FAKE_ENV_KEY, FAKE_DICT_KEY}  # 401s that echo the key in full
    outputs: dict[str, str] = {}

    # a check whose run and judge both fail with the provider echoing the key
    models = ModelSettings(task_model=f"openai/{TASK}", metric_model=model(server, JUDGE))
    report = sj.check(
        JUDGED_METRIC, tickets, outputs="label", run=classify, artifact="Label.", models=models
    )
    judge_report = sj.check(
        JUDGED_METRIC,
        tickets,
        outputs="label",
        run=lambda artifact, case_input: "billing",
        models=models,
    )
    assert not report.passed and not judge_report.passed
    assert "Incorrect API key provided: [redacted]" in report.cases[0].error
    assert judge_report.cases[0].failed_step == "metric_return_value"
    for name, found in (("run", report), ("judge", judge_report)):
        outputs[f"{name} str"] = str(found)
        outputs[f"{name} repr"] = repr(found)
        outputs[f"{name} html"] = found._repr_html_()
        outputs[f"{name} json"] = json.dumps(found.to_dict())
        outputs[f"{name} frame"] = found.to_frame().to_string()
        outputs[f"{name} tracebacks"] = "\n".join(c.traceback or "" for c in found.cases)

    from skynet_jupyter.notebook.widgets import LiveView

    view = LiveView(kind="check", lang="en", metric_name="default")
    view.finish(report)
    outputs["widget"] = widget_text(view)

    # the exception a direct call raises, in every form a notebook could show
    with pytest.raises(ModelCallError) as caught:
        llm_with(model(server, TASK), "hello")
    outputs["exception"] = "".join(
        traceback.format_exception(caught.type, caught.value, caught.tb)
    ) + repr(caught.value)
    assert "Incorrect API key provided: [redacted]" in str(caught.value)

    # settings, as configure() shows them, and the dict model itself (as %config shows it)
    configured = sj.configure(metric_model=model(server, JUDGE))
    outputs["settings"] = "\n".join(
        (repr(configured), repr(models), f"{configured.metric_model!r}", str(models.metric_model))
    )

    # the command line, JSON and text
    (tmp_path / "metric.py").write_text(JUDGED_METRIC, encoding="utf-8")
    (tmp_path / "run.py").write_text(
        "from skynet_jupyter.helper.skynet import llm\n\n"
        "def run(artifact, case_input):\n"
        "    return llm(artifact, input=case_input['text'])\n",
        encoding="utf-8",
    )
    (tmp_path / "cases.jsonl").write_text(
        "\n".join(json.dumps(row) for row in tickets), encoding="utf-8"
    )
    monkeypatch.setenv("SKYNET_TASK_MODEL", f"openai/{TASK}")
    monkeypatch.setenv("SKYNET_METRIC_MODEL", f"openai/{JUDGE}")
    (tmp_path / "prompt.txt").write_text("Label it.", encoding="utf-8")
    from skynet_jupyter.cli import main

    for extra in (["--json"], []):
        code = main(
            [
                str(tmp_path / "metric.py"),
                "--data",
                str(tmp_path / "cases.jsonl"),
                "--outputs",
                "label",
                "--run",
                f"{tmp_path / 'run.py'}:run",
                "--artifact",
                str(tmp_path / "prompt.txt"),
                *extra,
            ]
        )
        assert code == 2  # a refused key is a configuration problem (issue 35): a usage exit
    printed = capfd.readouterr()
    outputs["cli and everything printed"] = printed.out + printed.err
    outputs["logs"] = caplog.text
    assert "[redacted]" in outputs["cli and everything printed"]

    # The keys really went to the provider, once per check: a refused key stops the run
    # (issue 35): two checks, one direct call, two skynet-check runs.
    assert len(server.requests) >= 5
    for name, text in outputs.items():  # ...and came back nowhere
        assert FAKE_ENV_KEY not in text, name
        assert FAKE_DICT_KEY not in text, name
        assert "LEAKCHECK" not in text, name


def test_redact_removes_keys_headers_and_known_secrets(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "plain-secret-value-42")
    text = (
        "Authorization: Bearer abc.def-123456 and x-api-key: k1k2k3k4k5 "
        "api_key='zz-secret-99' https://host/v1?key=AIzaSyA-0123456789abcdefghijkl&alt=json "
        "sk-ant-api03-abcdefghijklmnop and plain-secret-value-42 and custom-secret-xyz"
    )
    cleaned = _secrets.redact(text, ["custom-secret-xyz"])
    for secret in (
        "abc.def-123456",
        "k1k2k3k4k5",
        "zz-secret-99",
        "AIzaSyA",
        "abcdefghijklmnop",
        "plain-secret-value-42",
        "custom-secret-xyz",
    ):
        assert secret not in cleaned
    assert "Bearer [redacted]" in cleaned and "&alt=json" in cleaned
    assert _secrets.redact("max_tokens=1000, temperature: 0") == "max_tokens=1000, temperature: 0"


# --- callables, the stand-in, the litellm call itself ----------------------------------------


def llm_with(chosen, text: str, **options) -> str:
    """``llm()`` inside a case's run phase, with ``chosen`` as the task model."""
    ctx = case_context.CaseContext(ModelSettings(task_model=chosen))
    token = case_context.current_case.set(ctx)
    try:
        return llm("Label it.", input=text, **options)
    finally:
        case_context.current_case.reset(token)


def test_callable_models_report_usage_and_price(no_models, litellm_map):
    def reply(text, input_tokens=0, output_tokens=0, **extra):
        return lambda instructions, input: {
            "text": text,
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            **extra,
        }

    assert _llm.complete(lambda i, x: "plain", "I", "x") == ModelReply("plain")
    assert _llm.complete(reply("a", 10, 2, cost_usd=0.5), "I", "x").cost_usd == 0.5
    assert _llm.complete(reply("a", 10, 2), "I", "x").cost_usd is None  # tokens, no price
    assert _llm.complete(reply("a", 0, 0), "I", "x").cost_usd == 0.0
    usage = {"text": "a", "usage": {"prompt_tokens": 100, "completion_tokens": 20}}
    priced = _llm.complete(lambda i, x: {**usage, "model": TASK}, "I", "x")
    entry = litellm_map[TASK]
    assert priced.cost_usd == pytest.approx(
        100 * entry["input_cost_per_token"] + 20 * entry["output_cost_per_token"]
    )
    assert (priced.input_tokens, priced.output_tokens) == (100, 20)
    given = ModelReply("b", 3, 4, None)
    assert _llm.complete(lambda i, x: given, "I", "x") is given

    with pytest.raises(TypeError, match="returned None"):
        _llm.complete(lambda i, x: None, "I", "x")
    with pytest.raises(TypeError, match="without a 'text' string"):
        _llm.complete(lambda i, x: {"answer": "a"}, "I", "x")
    with pytest.raises(TypeError, match="does not accept them"):
        _llm.complete(lambda i, x: "a", "I", "x", temperature=0)
    seen = {}
    _llm.complete(lambda i, x, **options: seen.update(options) or "a", "I", "x", temperature=0)
    assert seen == {"temperature": 0}


def test_stand_in_model_answers_exactly_is_marked_offline_and_priced_on_request():
    assert StandInModel("PASS")("Answer PASS or FAIL.", "2+2=4").text == "PASS"
    assert StandInModel("PASS")("Answer.", "x").stand_in is True
    assert StandInModel("PASS", tag="[offline] ")("Answer.", "x").text == "[offline] PASS"
    judge = StandInModel()
    text = judge("Answer PASS or FAIL.", {"question": "2+2?"}).text
    assert text.startswith("A stand-in reply") and "not a real model" in text
    assert judge.calls == [("Answer PASS or FAIL.", {"question": "2+2?"})]
    assert repr(judge) == "StandInModel('stand-in', offline)"

    exact = StandInModel(lambda instructions, input: input.upper(), tag="")
    assert exact("Shout.", "hi").text == "HI"

    priced = StandInModel("PASS", input_cost_per_token=0.001, output_cost_per_token=0.002)
    reply = priced("Judge this answer.", "four")
    assert (reply.input_tokens, reply.output_tokens) == (4, 1)  # words: 3 + 1 in, 1 out
    assert reply.cost_usd == pytest.approx(4 * 0.001 + 1 * 0.002)


def test_litellm_call_messages_and_retry_settings(server, no_models):
    call = _llm.litellm_arguments("openai/x", "Judge.", {"answer": 4, "note": "é"}, {})
    assert call["messages"] == [
        {"role": "system", "content": "Judge."},
        {"role": "user", "content": '{\n  "answer": 4,\n  "note": "é"\n}'},
    ]
    assert call["max_retries"] == 0 and "num_retries" not in call
    policy = call["retry_policy"]
    assert policy["InternalServerErrorRetries"] == 2
    assert policy["RateLimitErrorRetries"] == 0  # 429s: the endpoint's limiter retries them
    assert policy["DefaultRetries"] == 2  # 502s, lost connections
    assert policy["AuthenticationErrorRetries"] == policy["TimeoutErrorRetries"] == 0
    assert policy["BadRequestErrorRetries"] == policy["NotFoundErrorRetries"] == 0
    assert call["retry_strategy"] == "exponential_backoff_retry"
    assert _llm.litellm_arguments("m", "Only this.", None, {})["messages"] == [
        {"role": "user", "content": "Only this."}
    ]
    with pytest.raises(TypeError, match="drop 'messages'"):
        _llm.litellm_arguments("m", "I", "x", {"messages": []})

    llm_with(model(server, TASK), {"text": "I was charged twice."}, temperature=0)
    (request,) = server.requests
    assert json.loads(request.messages[-1]["content"]) == {"text": "I was charged twice."}
    assert request.body["temperature"] == 0
    assert set(request.body) == {"model", "messages", "temperature"}  # no litellm-only keys


def test_importing_the_package_does_not_import_litellm():
    code = (
        "import sys, skynet_jupyter as sj\n"
        "sj.configure(reflection_model='openai/gpt-4o-mini')\n"
        "from skynet_jupyter.core.skynet_import import install_skynet_module\n"
        "install_skynet_module()\n"
        "print('litellm' in sys.modules)\n"
        "models = sj.ModelSettings(task_model=sj.StandInModel(), metric_model=sj.StandInModel())\n"
        "report = sj.check(lambda i, o: (0.5, {'feedback': f'{i} {o}'}), [{'q': 'x', 'a': 'y'}],\n"
        "                  output_column='a', models=models)\n"
        "print('litellm' in sys.modules)\n"
        "print(report.passed, [(c.score, c.feedback) for c in report.cases])\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert lines[:2] == ["False", "False"]  # nor a check with callable models
    # The two-argument metric really ran: its score and feedback came back.
    assert lines[2] == "True [(0.5, \"{'q': 'x'} y\")]"
