"""What ``import skynet_jupyter`` offers: every exported name resolves, the errors
users catch are the ones raised, and importing stays free of IPython."""

from __future__ import annotations

import subprocess
import sys

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper import skynet as skynet_helpers
from skynet_jupyter.models import settings as model_settings


def test_every_exported_name_resolves() -> None:
    missing = [name for name in sj.__all__ if getattr(sj, name, None) is None]
    assert missing == []


def test_importing_the_package_imports_no_ipython() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, skynet_jupyter as sj; print('IPython' in sys.modules); "
            "sj.CheckFailed; print('IPython' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]  # CheckFailed is a plain exception now


def test_the_errors_users_catch_are_the_ones_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())
    with pytest.raises(sj.ModelNotConfigured, match="No task model is configured"):
        skynet_helpers.llm("Say something.")
    from skynet_jupyter.notebook.magics import CheckFailed
    from skynet_jupyter.run.executors import ExecutorError

    assert sj.CheckFailed is CheckFailed and sj.ExecutorError is ExecutorError
    with pytest.raises(AttributeError, match="no attribute 'NotAName'"):
        sj.NotAName  # noqa: B018


def test_from_dspy_metric_is_public_under_the_name_issue_44_gives() -> None:
    import inspect

    assert "from_dspy_metric" in sj.__all__
    parameters = inspect.signature(sj.from_dspy_metric).parameters
    assert list(parameters) == ["fn", "output_field", "predictors"]  # sj.from_dspy_metric(fn)


def test_the_run_log_names_are_the_functions_after_their_package_is_imported() -> None:
    # A subpackage named like a public function replaces it once imported (the run log's
    # package is runlog, not history): sj.history stays the function in a fresh process too.
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import skynet_jupyter as sj, skynet_jupyter.runlog.recorder; "
            "import skynet_jupyter.runlog.api; "
            "print(callable(sj.history), callable(sj.diff), sj.History.__name__, "
            "sj.RunRecord.__name__, sj.RunDiff.__name__)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "History", "RunRecord", "RunDiff"]
