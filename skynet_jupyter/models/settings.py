"""Which models answer ``llm()``: :class:`ModelSettings` and :func:`configure`.

Settings come, weakest first, from the environment variables
(``SKYNET_TASK_MODEL``, ``SKYNET_METRIC_MODEL``, ``SKYNET_REFLECTION_MODEL``),
``configure()``, the loaded notebook extension's ``%config SkynetMagics.*``
(read live through :func:`use_session_settings`), then a check's own
``models=``.  :func:`current_settings` applies them in that order.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..core.model_settings import ModelSettings
from . import import_ahead

__all__ = [
    "ModelNotConfigured",
    "configure",
    "configured_run_log",
    "configured_settings",
    "current_settings",
    "settings_changed",
    "settings_version",
    "use_session_settings",
]


class _Configured:
    # The one process-wide place configure() writes to; read when a check starts,
    # then carried with the case (so Dask workers see the same models).
    settings = ModelSettings()
    # The loaded notebook extension's %config settings, read live (never copied here,
    # so setting one back to None really forgets it).
    session: Callable[[], ModelSettings] | None = None
    version = 0  # changes whenever any of the above may have changed
    run_log: Any = None  # configure(run_log=...): None until set (SKYNET_RUN_LOG decides)


def use_session_settings(provider: Callable[[], ModelSettings] | None) -> None:
    """Let ``provider`` (the magics' ``%config`` settings) answer after ``configure()``.

    ``None`` removes it (``%unload_ext``).
    """
    _Configured.session = provider
    settings_changed()


def settings_changed() -> None:
    """Note that a model setting may have changed (caches of the settings re-read them).

    A litellm model now configured has litellm imported ahead, in the background.
    """
    _Configured.version += 1
    import_ahead.schedule(_models_now)


def _models_now() -> tuple[Any, ...]:
    settings = current_settings()
    return (settings.task_model, settings.metric_model, settings.reflection_model)


def settings_version() -> int:
    """A number that changes whenever ``configure()`` or the session settings change."""
    return _Configured.version


def configure(
    *,
    task_model: Any = None,
    metric_model: Any = None,
    reflection_model: Any = None,
    refusal_timeout: float | None = None,
    run_log: Any = None,
    reset: bool = False,
) -> ModelSettings:
    """Set the models ``llm()`` uses (each left unchanged when not given).

    ``refusal_timeout``: seconds a provider may answer every request with HTTP 429
    before no more requests go to it and the run stops (default 60; for this
    process: worker processes of ``isolation="process"`` keep the default).
    ``run_log``: where every check and evaluation is recorded (a folder or an fsspec
    URL such as ``s3://bucket/runs``; ``True`` the default ``.skynet_runs``; ``False``
    or ``0`` records nothing); without it, ``SKYNET_RUN_LOG`` decides.
    ``reset=True`` first forgets what earlier ``configure()`` calls set (the
    environment variables apply again; ``refusal_timeout`` is 60 again).
    Returns the configured settings.
    """
    from . import rate_limit
    from .model_names import check_model

    if refusal_timeout is not None:
        rate_limit.set_refusal_timeout(refusal_timeout)
    elif reset:
        rate_limit.reset_refusal_timeout()

    given = {
        "task_model": task_model,
        "metric_model": metric_model,
        "reflection_model": reflection_model,
    }
    for name, model in given.items():
        if model is not None:
            check_model(model, name)
    if reset or run_log is not None:
        _Configured.run_log = run_log
    base = ModelSettings() if reset else _Configured.settings
    _Configured.settings = base.merged(**given)
    settings_changed()
    return _Configured.settings


def configured_run_log() -> Any:
    """What ``configure(run_log=...)`` set (None: not set; the history reads the rest)."""
    return _Configured.run_log


def configured_settings() -> ModelSettings:
    """What ``configure()`` set (without the environment or ``%config``)."""
    return _Configured.settings


def current_settings(overrides: ModelSettings | None = None) -> ModelSettings:
    """Environment variables, then ``configure()``, then ``%config``, then ``overrides``."""
    settings = ModelSettings(
        task_model=os.environ.get("SKYNET_TASK_MODEL") or None,
        metric_model=os.environ.get("SKYNET_METRIC_MODEL") or None,
        reflection_model=os.environ.get("SKYNET_REFLECTION_MODEL") or None,
    )
    configured = _Configured.settings
    settings = settings.merged(
        task_model=configured.task_model,
        metric_model=configured.metric_model,
        reflection_model=configured.reflection_model,
    )
    session = _Configured.session
    if session is not None:
        from_notebook = session()
        settings = settings.merged(
            task_model=from_notebook.task_model,
            metric_model=from_notebook.metric_model,
            reflection_model=from_notebook.reflection_model,
        )
    if overrides is not None:
        settings = settings.merged(
            task_model=overrides.task_model,
            metric_model=overrides.metric_model,
            reflection_model=overrides.reflection_model,
        )
    return settings


class ModelNotConfigured(RuntimeError):
    """``llm()`` was called but no model is set for that role."""

    def __init__(self, role: str) -> None:
        self.role = role
        if role == "task":
            where = "llm() called from run(artifact, input) asks the task model"
            setting, variable, fallback = "task_model", "SKYNET_TASK_MODEL", ""
        else:
            where = (
                "llm() called from the metric asks the metric model (default: the reflection model)"
            )
            setting, variable = "metric_model", "SKYNET_METRIC_MODEL"
            fallback = " (or reflection_model / SKYNET_REFLECTION_MODEL)"
        super().__init__(
            f"No {role} model is configured: {where}. Set one in any of three ways: "
            f"skynet_jupyter.configure({setting}=...), "
            f"%config SkynetMagics.{setting} = ..., "
            f"or the environment variable {variable}{fallback}. A model is a litellm "
            "model string ('openai/gpt-4o-mini'), a dict of litellm arguments, or a "
            "callable (instructions, input) -> str; offline, use "
            "skynet_jupyter.StandInModel()."
        )
