"""The ``skynet`` helper module: ``llm``, ``reward``, ``observation``, ``service_cost``.

Metric code does ``from skynet import llm, reward, observation, service_cost``.
Inside a check those names read the current case's context (a ContextVar set
by the engine in the thread that runs the case): ``llm()`` called from
``run(artifact, input)`` goes to the task model and counts toward the run's
cost; called from the metric it goes to the metric model (default: the
reflection model) and counts apart, as the judge's cost.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .reward import RewardSpec

__all__ = [
    "ModelNotConfigured",
    "ModelSettings",
    "Observation",
    "configure",
    "llm",
    "observation",
    "reward",
    "service_cost",
]

RUN = "run"
METRIC = "metric"


@dataclass(frozen=True, slots=True)
class Observation:
    """What was measured for the current case's ``run(artifact, input)`` call.

    ``None`` means "not measured": no run function (outputs came from the
    data), or a model call whose price is unknown (for ``cost_usd``).
    """

    run_ms: float | None = None
    cost_usd: float | None = None
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    retries: int = 0  # rate-limit answers retried during the run
    stand_in_calls: int = 0  # model calls an offline stand-in answered


NOT_MEASURED = Observation()


class Usage:
    """Model usage added up during one phase of one case (engine-owned, mutable).

    ``retries``: rate-limit (429) answers retried, plus, for a call that failed,
    the retries litellm made before giving up.
    """

    __slots__ = (
        "calls",
        "cost_known",
        "cost_usd",
        "input_tokens",
        "output_tokens",
        "retries",
        "stand_in_calls",
    )

    def __init__(self) -> None:
        self.calls = 0
        self.retries = 0
        self.stand_in_calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.cost_usd = 0.0
        self.cost_known = True

    def add(self, input_tokens: int, output_tokens: int, cost_usd: float | None) -> None:
        self.calls += 1
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens
        if cost_usd is None:
            self.cost_known = False
        else:
            self.cost_usd += cost_usd

    @property
    def cost(self) -> float | None:
        return self.cost_usd if self.cost_known else None


@dataclass(frozen=True, slots=True)
class ModelSettings:
    """Which model answers ``llm()`` in the run (task) and in the metric (judge).

    A model is a litellm model string, a dict of litellm completion arguments,
    or a callable ``(instructions, input) -> str``.
    """

    task_model: Any = None
    metric_model: Any = None
    reflection_model: Any = None

    def __post_init__(self) -> None:
        from ._models import protect_model  # dict models: a repr without secrets

        for name in ("task_model", "metric_model", "reflection_model"):
            object.__setattr__(self, name, protect_model(getattr(self, name)))

    @property
    def judge_model(self) -> Any:
        return self.metric_model if self.metric_model is not None else self.reflection_model

    def merged(self, **overrides: Any) -> ModelSettings:
        """These settings with every non-None override applied."""
        values = {
            "task_model": self.task_model,
            "metric_model": self.metric_model,
            "reflection_model": self.reflection_model,
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return ModelSettings(**values)

    def __repr__(self) -> str:  # a dict model may hold an api_key: never show it
        from ._models import safe_repr

        return (
            f"ModelSettings(task_model={safe_repr(self.task_model)}, "
            f"metric_model={safe_repr(self.metric_model)}, "
            f"reflection_model={safe_repr(self.reflection_model)})"
        )


class _Configured:
    # The one process-wide place configure() writes to; read when a check starts,
    # then carried with the case (so Dask workers see the same models).
    settings = ModelSettings()
    # The loaded notebook extension's %config settings, read live (never copied here,
    # so setting one back to None really forgets it).
    session: Callable[[], ModelSettings] | None = None
    version = 0  # changes whenever any of the above may have changed


def use_session_settings(provider: Callable[[], ModelSettings] | None) -> None:
    """Let ``provider`` (the magics' ``%config`` settings) answer after ``configure()``.

    ``None`` removes it (``%unload_ext``).
    """
    _Configured.session = provider
    settings_changed()


def settings_changed() -> None:
    """Note that a model setting may have changed (caches of the settings re-read them)."""
    _Configured.version += 1


def settings_version() -> int:
    """A number that changes whenever ``configure()`` or the session settings change."""
    return _Configured.version


def configure(
    *,
    task_model: Any = None,
    metric_model: Any = None,
    reflection_model: Any = None,
    reset: bool = False,
) -> ModelSettings:
    """Set the models ``llm()`` uses (each left unchanged when not given).

    ``reset=True`` first forgets what earlier ``configure()`` calls set (the
    environment variables apply again).  Returns the configured settings.
    """
    from ._models import check_model

    given = {
        "task_model": task_model,
        "metric_model": metric_model,
        "reflection_model": reflection_model,
    }
    for name, model in given.items():
        if model is not None:
            check_model(model, name)
    base = ModelSettings() if reset else _Configured.settings
    _Configured.settings = base.merged(**given)
    settings_changed()
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


class CaseContext:
    """The per-case state that the helper functions read (engine-owned).

    A worker thread keeps one and calls :meth:`start` for each case: cheaper
    than a new context (and a ContextVar switch) per case.  Usage records are
    made on the first model call of a phase: most cases make none.
    """

    __slots__ = ("judge_usage", "models", "observation", "phase", "run_usage")

    def __init__(self, models: ModelSettings, phase: str = RUN) -> None:
        self.models = models
        self.start(phase)

    def start(self, phase: str = RUN) -> None:
        """Forget the previous case."""
        self.phase = phase
        self.run_usage: Usage | None = None
        self.judge_usage: Usage | None = None
        self.observation = NOT_MEASURED

    def usage(self, judging: bool) -> Usage:
        """The usage record of the judge's or the run's calls (made on first use)."""
        if judging:
            if self.judge_usage is None:
                self.judge_usage = Usage()
            return self.judge_usage
        if self.run_usage is None:
            self.run_usage = Usage()
        return self.run_usage


_current: ContextVar[CaseContext | None] = ContextVar("skynet_case", default=None)


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


def llm(instructions: str, input: Any = None, **options: Any) -> str:
    """Ask a model: the task model inside ``run``, the metric model inside ``score``.

    ``instructions`` are the system message, ``input`` the user message (data is
    sent as JSON).  ``options`` (``temperature=0``, ``max_tokens=...``,
    ``num_retries=...``) go to litellm.  Returns the model's text.  Outside a
    check, the task model answers (the metric model when no task model is set).
    A provider error raises ``ModelCallError`` with the provider's message
    (secrets redacted).
    """
    from . import _models  # litellm itself is imported at the first litellm call

    ctx = _current.get()
    settings = ctx.models if ctx is not None else current_settings()
    judging = ctx is not None and ctx.phase == METRIC
    model = settings.judge_model if judging else settings.task_model
    if model is None and ctx is None:
        # Outside a check (a metric's own unit test, say) any configured model answers.
        model = settings.judge_model
    if model is None:
        raise ModelNotConfigured("metric" if judging else "task")
    usage = None if ctx is None else ctx.usage(judging)
    try:
        reply = _models.complete(model, instructions, input, **options)
    except _models.ModelCallError as error:
        if usage is not None:
            usage.retries += error.retries
            if error.kind == "Timeout":
                usage.cost_known = False  # the provider may have done, and billed, the work
        raise
    if usage is not None:
        usage.add(reply.input_tokens, reply.output_tokens, reply.cost_usd)
        usage.retries += reply.retries
        if reply.stand_in:
            usage.stand_in_calls += 1
    return reply.text


def observation() -> Observation:
    """The current case's measurements (all "not measured" outside a check)."""
    ctx = _current.get()
    return NOT_MEASURED if ctx is None else ctx.observation


def service_cost() -> float | None:
    """The US-dollar cost of the model calls made by this case's run, or None."""
    return observation().cost_usd


def reward(
    spec: Any, accuracy: float, feedback: str = "", *, scores: dict[str, float] | None = None
) -> tuple[float, dict[str, Any]]:
    """Blend ``accuracy`` with the case's measured speed and cost per ``spec``.

    Returns what ``score`` should return: the weighted reward and side
    information whose ``"scores"`` hold the three 0..1 components (plus any
    extra named ``scores``).  A part that was not measured scores 0 and the
    feedback gains a sentence saying so.
    """
    parsed = RewardSpec.from_dict(spec)
    value = parsed.check_accuracy(accuracy)
    seen = observation()
    parts = parsed.parts(value, seen.run_ms, seen.cost_usd)
    notes = []
    if not parts.speed_measured and parsed.weights["speed"] > 0:
        notes.append("Speed was not measured for this case, so its part of the reward is 0.")
    if not parts.cost_measured and parsed.weights["cost"] > 0:
        notes.append("Cost was not measured for this case, so its part of the reward is 0.")
    text = " ".join(part for part in (str(feedback).strip(), *notes) if part)
    named = dict(scores or {})
    named.update(accuracy=parts.accuracy, speed=parts.speed, cost=parts.cost)
    return parts.value, {"feedback": text, "scores": named}


_PUBLIC = ("llm", "reward", "observation", "service_cost")


def install_skynet_module() -> types.ModuleType:
    """Make ``import skynet`` give these helpers, unless a real ``skynet`` has them."""
    existing = sys.modules.get("skynet")
    if existing is not None:
        return existing
    try:
        found = importlib.util.find_spec("skynet")
    except (ImportError, ValueError):
        found = None
    if found is not None:
        try:
            real = importlib.import_module("skynet")
        except Exception:  # a broken package named skynet: use ours
            real = None
        if real is not None and all(hasattr(real, name) for name in _PUBLIC):
            return real
        sys.modules.pop("skynet", None)
    module = new_skynet_module()
    sys.modules["skynet"] = module
    return module


def new_skynet_module() -> types.ModuleType:
    """A fresh ``skynet`` module object holding these helpers (not yet in ``sys.modules``)."""
    module = types.ModuleType(
        "skynet", "Skynet helpers for metrics (provided locally by skynet_jupyter)."
    )
    module.__file__ = __file__  # tracebacks and editors point at the helpers' source
    for name in _PUBLIC:
        setattr(module, name, globals()[name])
    module.Observation = Observation  # type: ignore[attr-defined]
    module.__all__ = list(_PUBLIC)  # type: ignore[attr-defined]
    module.__skynet_jupyter__ = True  # type: ignore[attr-defined]
    return module


def uninstall_skynet_module() -> None:
    """Undo :func:`install_skynet_module` (only if the module is ours)."""
    module = sys.modules.get("skynet")
    if module is not None and getattr(module, "__skynet_jupyter__", False):
        del sys.modules["skynet"]
