"""``%skynet_optimize``: its options, and the work behind the magic.

The method itself sits on the one ``SkynetMagics`` class (``magics.py``); it
parses its line and calls :func:`run_optimize`, which resolves the names in
the notebook as every magic does (:func:`~.option_groups.run_options`), shows
the live view, calls the optimizer with those options as they are and
returns its report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument

from ..core.dataset import DataError
from ..i18n import t
from ..optimizers.optimize import OptimizeReport, ReflectionModelMissing, optimize_with
from ..run.engine import RunCache
from .option_groups import (
    CASES,
    LIMITS,
    REPORT_LANGUAGE,
    WORKERS,
    listed_options,
    option_group,
    outputs_group,
    run_options,
)

_OPTIMIZER = option_group(
    "optimizer",
    argument(
        "--budget",
        metavar="N",
        type=int,
        default=40,
        help="metric calls GEPA may make (its max_metric_calls; default 40)",
    ),
    argument("--max-cost", metavar="USD", type=float, help="stop once this many dollars are spent"),
    argument(
        "--val",
        metavar="F",
        type=float,
        default=0.3,
        help="share of the cases kept to validate (0..1), or a number of cases (default 0.3)",
    ),
    argument(
        "--seed",
        metavar="N",
        type=int,
        default=0,
        help="random seed of GEPA and of the training/validation split (default 0)",
    ),
    argument(
        "--reflection-model",
        metavar="EXPR",
        help="the model that writes new texts: a notebook variable, or a litellm model string "
        "(default: SkynetMagics.reflection_model)",
    ),
    argument(
        "--component",
        metavar="NAME",
        default="prompt",
        help="the name of the text GEPA improves, in its candidates (default: prompt)",
    ),
    argument(
        "--gepa-options",
        metavar="EXPR",
        help="other gepa.optimize keyword arguments: a notebook dict or expression, e.g. "
        "\"{'reflection_minibatch_size': 2}\"",
    ),
)

OPTIMIZE_OPTIONS = listed_options(
    CASES, outputs_group(optimizer=True), _OPTIMIZER, LIMITS, WORKERS, REPORT_LANGUAGE
)


def run_optimize(magics: Any, args: Any, silenced: bool) -> OptimizeReport:
    """What ``%skynet_optimize`` does once its line is parsed."""
    from .cell_display import lazy_show
    from .names import MISSING, data_file, no_file, unquote

    lang = magics._lang(args.lang)
    metric = magics._metric(unquote(args.metric) if args.metric else "default")
    data = magics._resolve("--data", args.data, data_file)
    options = run_options(magics, "eval", args, lang)  # --run and --artifact resolved, checked
    gepa_options = None
    if args.gepa_options:
        gepa_options = magics._resolve("--gepa-options", args.gepa_options, no_file)
        if not isinstance(gepa_options, Mapping):
            kind = type(gepa_options).__name__
            raise UsageError(t("magic.not_gepa_options", lang, text=args.gepa_options, type=kind))
    reflection = None
    if args.reflection_model:
        # A notebook variable (a callable model), else the text is a litellm model string.
        reflection = magics._resolve(
            "--reflection-model", args.reflection_model, lambda text: text or MISSING
        )
    val: float | int = args.val
    if isinstance(val, float) and val >= 1 and val.is_integer():
        val = int(val)
    view = None
    listener = None
    if not silenced:
        from .widgets._optimize_view import OptimizeView

        view = OptimizeView(lang=lang, budget=args.budget or 1, metric_name=metric.name)
        listener = lazy_show(view)  # shown at the first event: a usage error leaves no view
    cache = RunCache() if args.fresh else magics.run_cache
    try:
        report = optimize_with(
            metric,
            data,
            options,
            budget=args.budget,
            reflection_model=reflection,
            val=val,
            max_cost=args.max_cost,
            seed=args.seed,
            component=unquote(args.component),
            run_cache=cache,
            on_event=listener,
            gepa_options=gepa_options,
        )
    except (DataError, ValueError, TypeError, ReflectionModelMissing) as problem:
        if view is not None:
            view.close()
        raise UsageError(str(problem)) from None
    if cache is not magics.run_cache:
        magics.run_cache.store.update(cache.store)
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return magics._shown_once(report)
