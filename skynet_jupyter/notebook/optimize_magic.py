"""``%skynet_optimize``: its options, and the work behind the magic.

The method itself sits on the one ``SkynetMagics`` class (``magics.py``); it
parses its line and calls :func:`run_optimize`, which resolves the names in
the notebook as every magic does (:func:`~.option_groups.run_options`), shows
the live view, calls the optimizer with those options as they are and
returns its report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument

from ..core.errors import DataError
from ..i18n import t
from .option_groups import (
    CASES,
    LIMITS,
    OPTIMIZER,
    REPORT_LANGUAGE,
    WORKERS,
    listed_options,
    option_group,
    outputs_group,
    reflection_option,
    run_options,
)

if TYPE_CHECKING:
    from ..optimizers.optimize import OptimizeReport

_GEPA = option_group(
    "gepa",
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
    CASES, outputs_group(optimizer=True), OPTIMIZER, _GEPA, LIMITS, WORKERS, REPORT_LANGUAGE
)


def run_optimize(magics: Any, args: Any, silenced: bool) -> OptimizeReport:
    """What ``%skynet_optimize`` does once its line is parsed."""
    # The optimizer is imported when it runs, not at %load_ext (issue 26: a fast load).
    from ..optimizers.gepa_adapter import GepaMissing
    from ..optimizers.optimize import ReflectionModelMissing, optimize_with
    from .cell_display import lazy_show
    from .names import data_file, no_file, unquote

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
    reflection = reflection_option(magics, args)
    val: float | int | None = args.val  # None: the optimizer's default split
    if isinstance(val, float) and val >= 1 and val.is_integer():
        val = int(val)
    view = None
    listener = None
    if not silenced:
        from .widgets._optimize_view import OptimizeView

        view = OptimizeView(lang=lang, budget=args.budget or 1, metric_name=metric.name)
        listener = lazy_show(view)  # shown at the first event: a usage error leaves no view
    cache = magics.run_cache.fresh() if args.fresh else magics.run_cache
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
    except (DataError, ValueError, TypeError, ReflectionModelMissing, GepaMissing) as problem:
        if view is not None:
            view.close()
        raise UsageError(str(problem)) from None
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return magics._shown_once(report)
