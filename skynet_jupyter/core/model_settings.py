"""Which models answer ``llm()``: the value :class:`ModelSettings`.

Where settings come from (the environment, ``configure()``, ``%config``) is the
models layer's business (:mod:`skynet_jupyter.models.settings`); the core only
carries the value, in :class:`~skynet_jupyter.core.options.RunOptions`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ModelSettings"]


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
        for name in ("task_model", "metric_model", "reflection_model"):
            model = getattr(self, name)
            if model is not None:  # no model, nothing to protect: %load_ext skips secrets
                from .secrets import protect_model  # dict models: a repr without secrets

                object.__setattr__(self, name, protect_model(model))

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
        from .secrets import safe_repr

        return (
            f"ModelSettings(task_model={safe_repr(self.task_model)}, "
            f"metric_model={safe_repr(self.metric_model)}, "
            f"reflection_model={safe_repr(self.reflection_model)})"
        )
