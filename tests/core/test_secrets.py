"""No configured secret leaves the process: URL passwords, header values, api keys.

Every test makes its own secrets (``fresh()``): redact() remembers the secrets of
every model configured in the process, so a secret an earlier test configured
would hide a leak that this test's path fails to register.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap
import uuid

import ipywidgets
import pytest
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from skynet_jupyter.core import secrets as _secrets
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.models import llm as _llm
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.notebook.widgets import LiveView
from tests.shell_support import loaded_shell


def fresh(name: str) -> str:
    """A secret no other test (nor any pattern) knows: only a registered value hides it."""
    return f"{name}{uuid.uuid4().hex[:12]}"


def judge(api_key: str, password: str, header: str) -> dict:
    return {
        "model": "openai/gpt-4o-mini",
        "api_base": f"http://alice:{password}@127.0.0.1:9/v1",
        "extra_headers": {"X-Org-Auth": header, "Accept": "application/json"},
        "api_key": api_key,
    }


@pytest.fixture
def no_models(monkeypatch):
    for name in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())


def test_configure_repr_hides_url_passwords_header_values_and_keys(no_models):
    key, password, header = fresh("KEY"), fresh("PASS"), fresh("HDR")
    settings = sj.configure(metric_model=judge(key, password, header))
    shown = "\n".join(
        (
            repr(settings),
            str(settings),
            repr(settings.metric_model),
            str(settings.metric_model),
            _llm.describe_model(settings.metric_model),
        )
    )
    for secret in (key, password, header):
        assert secret not in shown
    assert "http://alice:[redacted]@127.0.0.1:9/v1" in shown
    assert "'X-Org-Auth': '[redacted]'" in shown
    assert "'Accept': 'application/json'" in shown  # plain headers stay readable
    assert "openai/gpt-4o-mini" in shown
    # the model still works with its real values: only what is shown is masked
    assert settings.metric_model["api_key"] == key


def test_redact_knows_every_configured_secret_even_alone(no_models, monkeypatch):
    key, password, header = fresh("KEY"), fresh("PASS"), fresh("HDR")
    text = f"failed: {key} / {password} / {header}"
    assert _secrets.redact(text) == text  # unknown yet: nothing marks them as secrets
    sj.configure(metric_model=judge(key, password, header))
    assert _secrets.redact(text) == "failed: [redacted] / [redacted] / [redacted]"

    env_password = fresh("ENVPASS")
    assert _secrets.redact(env_password) == env_password
    monkeypatch.setenv("SOME_SERVICE_URL", f"postgres://bob:{env_password}@db/x")
    assert _secrets.redact(f"no {env_password}") == "no [redacted]"  # an env URL's password
    assert (
        _secrets.redact("see https://carol:hunter2hunter2@example.com/x")
        == "see https://carol:[redacted]@example.com/x"
    )


def test_config_listing_in_a_real_shell_hides_every_secret(no_models, tmp_path, monkeypatch):
    key, password, header = fresh("KEY"), fresh("PASS"), fresh("HDR")
    with loaded_shell(tmp_path, monkeypatch) as shell:
        shell.user_ns["judge"] = judge(key, password, header)
        shell.run_line_magic("config", "SkynetMagics.metric_model = judge")
        with capture_output() as captured:
            shell.run_cell("%config SkynetMagics", store_history=True)
            shell.run_cell(
                "get_ipython().magics_manager.registry['SkynetMagics'].metric_model",
                store_history=True,
            )
        shown = captured.stdout + "".join(str(o.data) for o in captured.outputs)
        assert "SkynetMagics.metric_model" in shown and "openai/gpt-4o-mini" in shown
        assert "alice:[redacted]@" in shown
        for secret in (key, password, header):
            assert secret not in shown


def _widget_text(view: LiveView) -> str:
    parts = []

    def walk(widget):
        value = getattr(widget, "value", None)
        if isinstance(value, str):
            parts.append(value)
        for child in getattr(widget, "children", ()):
            walk(child)

    walk(view.widget)
    parts.extend(str(o) for o in view.errors.outputs)
    return "\n".join(parts)


def test_a_metric_raising_with_secrets_shows_them_in_no_output(no_models, tickets):
    key, password, header = fresh("KEY"), fresh("PASS"), fresh("HDR")
    models = ModelSettings(metric_model=judge(key, password, header))
    # The secrets reach the traceback twice: in the exception message, and in the
    # source line of the frame that passed the key as a literal (a local in `ask`).
    metric = textwrap.dedent(
        f"""
        def ask(api_key, base):
            raise PermissionError(f"401 for key {{api_key}} at {{base}} ({header})")

        def score(input, output, expected=None):
            return ask("{key}", "http://alice:{password}@127.0.0.1:9/v1")
        """
    )
    view = LiveView(kind="check", lang="en", metric_name="default")
    report = sj.check(
        metric,
        tickets,
        outputs="label",
        output_column="label",
        models=models,
        on_event=view.on_event,
    )
    view.finish(report)
    case = report.cases[0]
    assert case.failed_step == "metric_return_value"
    assert "PermissionError: 401 for key [redacted]" in case.error
    assert 'ask("[redacted]"' in case.traceback  # the source line, redacted too
    outputs = {
        "error": case.error,
        "traceback": case.traceback,
        "str": str(report),
        "repr": repr(report),
        "html": report._repr_html_(),
        "json": json.dumps(report.to_dict()),
        "frame": report.to_frame().to_string(),
        "widget": _widget_text(view),
        "static": view.static_html(),
    }
    for name, text in outputs.items():
        for secret in (key, password, header):
            assert secret not in text, (name, secret)
    assert "[redacted]" in outputs["html"] and "[redacted]" in outputs["json"]
    ipywidgets.Widget.close_all()


def test_a_worker_process_knows_the_configured_secrets(tmp_path):
    # A Dask worker gets the models pickled with the case runner: its redact()
    # must hide the same secrets as the kernel's.
    key, password, header = fresh("KEY"), fresh("PASS"), fresh("HDR")
    settings = ModelSettings(task_model=judge(key, password, header))
    (tmp_path / "settings.pickle").write_bytes(pickle.dumps(settings))
    program = textwrap.dedent(
        f"""
        import pickle, sys
        from skynet_jupyter.core import secrets as _secrets
        text = "{key} {password} {header}"
        assert _secrets.redact(text) == text, "known before unpickling?"
        settings = pickle.loads(open(sys.argv[1], "rb").read())
        assert settings.task_model["api_key"] == "{key}"
        print(_secrets.redact(text))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", program, str(tmp_path / "settings.pickle")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[redacted] [redacted] [redacted]"
