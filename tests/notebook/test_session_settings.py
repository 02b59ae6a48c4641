"""``%config SkynetMagics.<model>``: one source of truth, read live, never copied.

Before, ``%config`` copied a model into the global ``configure()`` and skipped
``None``, so setting it back to ``None`` left the old model answering, and the
model outlived the extension (and the test that set it).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.models.settings import ModelNotConfigured, current_settings
from tests.shell_support import loaded_shell


@pytest.fixture
def shell(tmp_path, monkeypatch: pytest.MonkeyPatch) -> Iterator[InteractiveShell]:
    """The shared shell, with no model configured anywhere before the extension loads."""
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())
    with loaded_shell(tmp_path, monkeypatch) as shell:
        yield shell


def run(shell: InteractiveShell, source: str):
    with capture_output():
        result = shell.run_cell(textwrap.dedent(source).lstrip("\n"))
    return result


def test_setting_a_model_back_to_none_forgets_it(shell: InteractiveShell) -> None:
    run(shell, "%config SkynetMagics.task_model = lambda instructions, input: 'from config'")
    answered = run(shell, "from skynet import llm\nllm('Say something.')")
    assert answered.result == "from config"
    assert model_settings._Configured.settings == ModelSettings()  # nothing copied into configure()
    run(shell, "%config SkynetMagics.task_model = None")
    failed = run(shell, "llm('Say something.')")
    assert isinstance(failed.error_in_exec, ModelNotConfigured)
    assert "No task model is configured" in str(failed.error_in_exec)


def test_config_beats_configure_and_unloading_removes_it(shell: InteractiveShell) -> None:
    run(shell, "import skynet_jupyter as sj\nsj.configure(task_model=lambda i, x: 'configured');")
    run(shell, "%config SkynetMagics.task_model = lambda instructions, input: 'from config'")
    assert run(shell, "from skynet import llm\nllm('Hi.')").result == "from config"
    version = model_settings.settings_version()
    shell.extension_manager.unload_extension("skynet_jupyter")
    assert model_settings.settings_version() != version  # caches of the settings re-read them
    assert current_settings().task_model("", None) == "configured"
    shell.extension_manager.load_extension("skynet_jupyter")  # the fixture unloads it
