"""Write, check and evaluate Skynet optimizer metrics in Jupyter.

    import skynet_jupyter as sj
    report = sj.check("metric.py", "cases.csv", outputs="label", output_column="prediction")

In a notebook: ``%load_ext skynet_jupyter``, then ``%%skynet_metric`` and
``%skynet_check``.

This module is the public API and nothing else.  The code lives in one
subpackage per layer, each importing only the layers below it (README's
"Layout" has the map; ``tests/test_layers.py`` holds the code to it)::

    notebook/  cli/          entry points: the magics and their widgets; skynet-check
    alignment/               a judge aligned with people: agreement driving GEPA
    quality/   optimizers/   measurements built on the engine
    show/                    reports as text and HTML
    run/                     the engine: cases, workers, isolation, executors, cache
    helper/                  the `skynet` module metric code imports
    models/                  llm() and its settings, rate limiter, stand-in
    core/                    contract, metric, data, reward, options, reports: pure
    i18n/                    messages in English, French and Portuguese

A public name is imported from its module the first time it is used, so
``import skynet_jupyter`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .core.skynet_import import install_finder

if TYPE_CHECKING:
    from .alignment.align import align
    from .alignment.report import AlignReport
    from .core.contract import ContractError, validate_return
    from .core.dataset import Case, DataError, load_cases, load_example
    from .core.metric import Metric, load_metric
    from .core.model_settings import ModelSettings
    from .core.observation import Observation
    from .core.options import Limits
    from .core.report import CaseResult, CheckReport, EvalReport, Step
    from .core.reward import RewardSpec
    from .models.llm import ModelCallError, ModelReply
    from .models.settings import ModelNotConfigured, configure
    from .models.stand_in import StandInModel
    from .notebook.check_failed import CheckFailed
    from .optimizers.gepa_adapter import to_gepa_adapter
    from .optimizers.optimize import OptimizeReport, optimize
    from .optimizers.race import race
    from .optimizers.race_report import RaceReport
    from .quality import (
        AgreementReport,
        CompareReport,
        ProbeReport,
        StabilityReport,
        agreement,
        compare,
        probe,
        stability,
    )
    from .run.engine import (
        CaseFinished,
        CaseStarted,
        Finished,
        RunCache,
        check,
        evaluate,
        run_case,
    )
    from .run.executors import ExecutorError
    from .runlog import History, RunDiff, RunRecord, diff, history

__version__ = "0.1.0"

install_finder()  # `import skynet` works in tests and scripts too

# Where each public name lives (imported on first use: see __getattr__).
_LAZY = {
    "AgreementReport": "quality",
    "AlignReport": "alignment.report",
    "Case": "core.dataset",
    "CaseFinished": "run.engine",
    "CaseResult": "core.report",
    "CaseStarted": "run.engine",
    "CheckFailed": "notebook.check_failed",
    "CheckReport": "core.report",
    "CompareReport": "quality",
    "ContractError": "core.contract",
    "DataError": "core.dataset",
    "EvalReport": "core.report",
    "ExecutorError": "run.executors",
    "Finished": "run.engine",
    "Limits": "core.options",
    "Metric": "core.metric",
    "ModelCallError": "models.llm",
    "ModelNotConfigured": "models.settings",
    "ModelReply": "models.llm",
    "ModelSettings": "core.model_settings",
    "Observation": "core.observation",
    "OptimizeReport": "optimizers.optimize",
    "RaceReport": "optimizers.race_report",
    "ProbeReport": "quality",
    "RewardSpec": "core.reward",
    "RunCache": "run.engine",
    "StabilityReport": "quality",
    "StandInModel": "models.stand_in",
    "Step": "core.report",
    "agreement": "quality",
    "align": "alignment.align",
    "check": "run.engine",
    "compare": "quality",
    "configure": "models.settings",
    "evaluate": "run.engine",
    "History": "runlog",
    "RunDiff": "runlog",
    "RunRecord": "runlog",
    "diff": "runlog",
    "history": "runlog",
    "load_cases": "core.dataset",
    "load_example": "core.dataset",
    "load_metric": "core.metric",
    "optimize": "optimizers.optimize",
    "race": "optimizers.race",
    "probe": "quality",
    "run_case": "run.engine",
    "stability": "quality",
    "to_gepa_adapter": "optimizers.gepa_adapter",
    "validate_return": "core.contract",
}

__all__ = [
    "AgreementReport",
    "AlignReport",
    "Case",
    "CaseFinished",
    "CaseResult",
    "CaseStarted",
    "CheckFailed",
    "CheckReport",
    "CompareReport",
    "ContractError",
    "DataError",
    "EvalReport",
    "ExecutorError",
    "Finished",
    "History",
    "Limits",
    "Metric",
    "ModelCallError",
    "ModelNotConfigured",
    "ModelReply",
    "ModelSettings",
    "Observation",
    "OptimizeReport",
    "ProbeReport",
    "RaceReport",
    "RewardSpec",
    "RunCache",
    "RunDiff",
    "RunRecord",
    "StabilityReport",
    "StandInModel",
    "Step",
    "agreement",
    "align",
    "check",
    "compare",
    "configure",
    "diff",
    "evaluate",
    "from_dspy_metric",
    "from_dspy_program",
    "history",
    "load_cases",
    "load_example",
    "load_ipython_extension",
    "load_metric",
    "optimize",
    "probe",
    "race",
    "run_case",
    "stability",
    "to_dspy_metric",
    "to_gepa_adapter",
    "unload_ipython_extension",
    "validate_return",
]


def to_dspy_metric(metric: Any, *, lang: str | None = None) -> Any:
    """A DSPy metric (for ``dspy.Evaluate`` and ``dspy.GEPA``) from a Skynet metric."""
    from .optimizers.dspy_adapter import to_dspy_metric as adapt

    return adapt(metric, lang=lang)


def from_dspy_metric(fn: Any, *, output_field: str | None = None, predictors: Any = None) -> Any:
    """A Skynet metric from a DSPy/GEPA metric ``fn(example, prediction, trace=None, ...)``."""
    from .optimizers.dspy_metric import from_dspy_metric as adapt

    return adapt(fn, output_field=output_field, predictors=predictors)


def from_dspy_program(program: Any, *, lm: Any = None) -> Any:
    """A ``run(artifact, input)`` that calls a DSPy program on a case's inputs."""
    from .optimizers.dspy_adapter import from_dspy_program as adapt

    return adapt(program, lm=lm)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext skynet_jupyter``: register the magics and the ``skynet`` module."""
    from .notebook.magics import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext skynet_jupyter``: undo everything ``%load_ext`` did."""
    from .notebook.magics import unload

    unload(ipython)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'skynet_jupyter' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
