"""``%config SkynetMagics.<model>``: one source of truth, read live, never copied.

Before, ``%config`` copied a model into the global ``configure()`` and skipped
``None``, so setting it back to ``None`` left the old model answering, and the
model outlived the extension (and the test that set it).
"""

from __future__ import annotations

import copy
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


def test_a_stand_in_set_with_config_counts_its_calls_in_the_users_object(
    shell: InteractiveShell,
) -> None:
    """Found by the attack on issue 44: ``%config SkynetMagics.metric_model = judge`` gave
    the magics a deep copy of the stand-in (traitlets copies what ``%config`` sets), so
    ``judge.calls`` stayed empty while the report counted the calls it answered.  A
    stand-in is a live handle: the magics use the user's own object."""
    run(
        shell,
        """
        import skynet_jupyter as sj
        rows = [{"q": "q%d" % i, "reply": "reply %d" % i} for i in range(3)]
        judge = sj.StandInModel("PASS")
        %config SkynetMagics.metric_model = judge
        """,
    )
    run(
        shell,
        """
        %%skynet_metric
        from skynet import llm
        def score(input, output, expected=None):
            verdict = llm("Judge: PASS or FAIL", input=output)
            return (1.0 if verdict.startswith("PASS") else 0.0), {"feedback": verdict}
        """,
    ).raise_error()
    run(shell, "r = %skynet_check --data rows --output-column reply --no-raise").raise_error()
    judge, report = shell.user_ns["judge"], shell.user_ns["r"]
    magics = shell.magics_manager.registry["SkynetMagics"]
    assert magics.metric_model is judge
    assert report.stand_in_calls == 3
    assert sorted(input for _, input in judge.calls) == ["reply 0", "reply 1", "reply 2"]
    assert copy.deepcopy(judge) is judge and copy.copy(judge) is judge
