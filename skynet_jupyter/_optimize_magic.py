"""``%skynet_optimize``: its options, and the work behind the magic.

The method itself sits on the one ``SkynetMagics`` class (``magics.py``); it
parses its line and calls :func:`run_optimize`, which resolves the names in
the notebook, shows the live view, calls :func:`skynet_jupyter.optimize` and
returns its report.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument

from ._magic_options import listed_options
from .dataset import DataError
from .engine import RunCache
from .i18n import LANGUAGES
from .optimize import OptimizeReport, ReflectionModelMissing, optimize
from .options import MAX_TIMEOUT, MIN_TIMEOUT

OPTIMIZE_OPTIONS = listed_options(
    argument("--metric", metavar="NAME", help="the registered metric to use (default: default)"),
    argument(
        "--data",
        metavar="EXPR",
        required=True,
        help="the cases: a notebook variable or expression, or a data file path",
    ),
    argument("--outputs", metavar="COLS", help="Output column(s), comma-separated: form expected"),
    argument("--inputs", metavar="COLS", help="input column(s) (default: every other column)"),
    argument("--split", metavar="NAME", help="use only this split of the data"),
    argument(
        "--run",
        metavar="FUNC",
        required=True,
        help="run(artifact, input): a notebook function or FILE.py:FUNC",
    ),
    argument(
        "--artifact",
        metavar="EXPR",
        required=True,
        help="the seed text GEPA improves: a notebook variable or expression, or a file",
    ),
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
    argument("--seed", metavar="N", type=int, default=0, help="random seed (default 0)"),
    argument(
        "--reflection-model",
        metavar="EXPR",
        help="the model that writes new texts: a notebook variable, or a litellm model string "
        "(default: SkynetMagics.reflection_model)",
    ),
    argument(
        "--timeout",
        metavar="S",
        type=float,
        help=f"metric time limit per call in seconds, {MIN_TIMEOUT:g}..{MAX_TIMEOUT:g} "
        "(default: SkynetMagics.timeout)",
    ),
    argument(
        "--concurrency",
        metavar="N",
        type=int,
        help="cases run at once (default: SkynetMagics.concurrency, 8)",
    ),
    argument("--lang", choices=LANGUAGES, help="language of the view and the report"),
    argument("--fresh", action="store_true", help="call run again instead of using cached outputs"),
)


class ShownOptimizeReport(OptimizeReport):
    """A report the live view already shows: the cell's Out does not show it twice."""

    __slots__ = ("_cell",)
    _cell: Any

    def _ipython_display_(self) -> None:
        cell = getattr(self, "_cell", None)
        if cell is not None and cell.open:
            return
        from IPython.display import display

        display(plain(self))


def plain(report: OptimizeReport) -> OptimizeReport:
    fields = dataclasses.fields(OptimizeReport)
    return OptimizeReport(**{f.name: getattr(report, f.name) for f in fields})


def _shown(report: OptimizeReport, cell: Any) -> OptimizeReport:
    fields = dataclasses.fields(OptimizeReport)
    shown = ShownOptimizeReport(**{f.name: getattr(report, f.name) for f in fields})
    shown._cell = cell
    return shown


def run_optimize(magics: Any, args: Any, silenced: bool) -> OptimizeReport:
    """What ``%skynet_optimize`` does once its line is parsed."""
    from ._cell_display import CellMark, lazy_show
    from .names import MISSING, artifact_file, data_file, unquote

    lang = magics._lang(args.lang)
    metric = magics._metric(unquote(args.metric) if args.metric else "default")
    data = magics._resolve("--data", args.data, data_file)
    run = magics._resolve("--run", args.run, magics._run_file)
    if not callable(run):
        from .i18n import t

        raise UsageError(t("magic.not_function", lang, text=args.run, type=type(run).__name__))
    artifact = magics._resolve("--artifact", args.artifact, artifact_file)
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
        report = optimize(
            metric,
            data,
            run=run,
            artifact=artifact,
            budget=args.budget,
            reflection_model=reflection,
            val=val,
            max_cost=args.max_cost,
            seed=args.seed,
            outputs=unquote(args.outputs) if args.outputs else None,
            inputs=unquote(args.inputs) if args.inputs else None,
            split=unquote(args.split) if args.split else None,
            timeout=args.timeout if args.timeout is not None else magics.timeout,
            concurrency=args.concurrency if args.concurrency is not None else magics.concurrency,
            lang=lang,
            models=magics._models(),
            run_cache=cache,
            on_event=listener,
        )
    except (DataError, ValueError, TypeError, ReflectionModelMissing) as problem:
        if view is not None:
            view.close()
        raise UsageError(str(problem)) from None
    if cache is not magics.run_cache:
        magics.run_cache.store.update(cache.store)
    if view is None:
        return report
    if magics._cell is None:
        magics._cell = CellMark()
    return _shown(report, magics._cell)
