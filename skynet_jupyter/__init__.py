"""Write, check and evaluate Skynet optimizer metrics in Jupyter.

    import skynet_jupyter as sj
    report = sj.check("metric.py", "cases.csv", outputs="label", output_column="prediction")

In a notebook: ``%load_ext skynet_jupyter``, then ``%%skynet_metric`` and
``%skynet_check``.

Modules (README's "Layout" says the same, at more length)::

    the core, no IPython   contract.py metric.py dataset.py reward.py report.py advice.py
                           render.py _shows.py tracebacks.py
    running cases          engine.py options.py _runner.py _workers.py _isolation.py
                           executors.py run_store.py
    import skynet          skynet_helpers.py case_context.py _import_hook.py importable/
                           pytest_plugin.py
    models                 model_settings.py _llm.py _rate_limit.py _secrets.py stand_in.py
    notebook magics        magics.py names.py _magic_options.py _cell_display.py _replay.py
                           _save.py _quality_magic.py _optimize_magic.py widgets/
    terminal               cli.py progress_line.py terminal_text.py
    languages              i18n.py locales/
    optimizers             dspy_adapter.py optimize.py gepa_adapter.py optimize_report.py
                           optimize_render.py
    metric quality         quality/
    tutorial data          examples/
"""

from __future__ import annotations

from typing import Any

from . import _import_hook
from ._llm import ModelCallError, ModelReply
from .case_context import Observation
from .contract import ContractError, validate_return
from .dataset import Case, DataError, load_cases, load_example
from .engine import (
    CaseFinished,
    CaseStarted,
    Finished,
    Limits,
    RunCache,
    check,
    evaluate,
    run_case,
)
from .executors import ExecutorError
from .gepa_adapter import to_gepa_adapter
from .metric import Metric, load_metric
from .model_settings import ModelNotConfigured, ModelSettings, configure
from .optimize import OptimizeReport, optimize
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
from .report import CaseResult, CheckReport, EvalReport, Step
from .reward import RewardSpec
from .stand_in import StandInModel

__version__ = "0.1.0"

_import_hook.install_finder()  # `import skynet` works in tests and scripts too

__all__ = [
    "AgreementReport",
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
    "Limits",
    "Metric",
    "ModelCallError",
    "ModelNotConfigured",
    "ModelReply",
    "ModelSettings",
    "Observation",
    "OptimizeReport",
    "ProbeReport",
    "RewardSpec",
    "RunCache",
    "StabilityReport",
    "StandInModel",
    "Step",
    "agreement",
    "check",
    "compare",
    "configure",
    "evaluate",
    "from_dspy_program",
    "load_cases",
    "load_example",
    "load_ipython_extension",
    "load_metric",
    "optimize",
    "probe",
    "run_case",
    "stability",
    "to_dspy_metric",
    "to_gepa_adapter",
    "unload_ipython_extension",
    "validate_return",
]


def to_dspy_metric(metric: Any, *, lang: str | None = None) -> Any:
    """A DSPy metric (for ``dspy.Evaluate`` and ``dspy.GEPA``) from a Skynet metric."""
    from .dspy_adapter import to_dspy_metric as adapt

    return adapt(metric, lang=lang)


def from_dspy_program(program: Any, *, lm: Any = None) -> Any:
    """A ``run(artifact, input)`` that calls a DSPy program on a case's inputs."""
    from .dspy_adapter import from_dspy_program as adapt

    return adapt(program, lm=lm)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext skynet_jupyter``: register the magics and the ``skynet`` module."""
    from .magics import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext skynet_jupyter``: undo everything ``%load_ext`` did."""
    from .magics import unload

    unload(ipython)


def __getattr__(name: str) -> Any:
    # CheckFailed lives with the magics, which import IPython: only when asked for.
    if name == "CheckFailed":
        from .magics import CheckFailed

        return CheckFailed
    raise AttributeError(f"module 'skynet_jupyter' has no attribute {name!r}")
