"""``%skynet_probe``, ``%skynet_stability``, ``%skynet_agree``, ``%skynet_compare``: the
options they add to the case options, and the work behind the magics.

The methods sit on the one ``SkynetMagics`` class (``magics.py``); each parses
its line and calls :func:`run_quality`, which resolves names in the notebook
exactly as ``%skynet_eval`` does, shows the live view, calls the measurement
(:mod:`skynet_jupyter.quality`) and returns its report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument

from ._magic_options import listed_options
from .dataset import DataError
from .i18n import t
from .quality import PROBES, agreement, compare, probe, stability

_RUNNING = (
    argument(
        "--concurrency",
        metavar="N",
        type=int,
        help="cases scored at once (default: SkynetMagics.concurrency, 8)",
    ),
    argument(
        "--executor",
        metavar="EXPR",
        help="a concurrent.futures.Executor to score the cases on (e.g. a Dask client's "
        "get_executor())",
    ),
)

PROBE_OPTIONS = listed_options(
    argument(
        "--probes",
        metavar="IDS",
        help=f"probe ids, comma-separated (default: all): {', '.join(PROBES)}",
    ),
    *_RUNNING,
)
STABILITY_OPTIONS = listed_options(
    argument(
        "--repeats", metavar="N", type=int, default=5, help="how many times to score (default 5)"
    ),
    *_RUNNING,
)
AGREE_OPTIONS = listed_options(
    argument(
        "--human",
        metavar="COL",
        required=True,
        help="the column of human labels (never given to the metric)",
    ),
    argument(
        "--threshold",
        metavar="X",
        type=float,
        default=0.5,
        help="a score at or above X is a pass, for pass/fail labels (default 0.5)",
    ),
    *_RUNNING,
)
COMPARE_OPTIONS = listed_options(
    argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="NAME_A NAME_B: two registered metrics; one NAME: its previous version and the "
        "current one",
    ),
    *_RUNNING,
)


def run_quality(magics: Any, kind: str, args: Any, silenced: bool) -> Any:
    """The work of the four magics: resolve, show the live view, measure, return the report."""
    from .magics import DEFAULT_NAME, CheckFailed
    from .names import data_file, unquote

    language = magics._lang(args.lang)
    if kind == "compare":
        metrics, names = _compared(magics, args, language)
    else:
        metric = magics._metric(unquote(args.metric) if args.metric else DEFAULT_NAME)
        metrics, names = [metric], None
    data = magics._resolve("--data", args.data, data_file)
    # The checked options (concurrency and executor too), as evaluate's keyword arguments.
    options = magics._case_options("eval", args, language).keywords("eval")
    if kind == "probe":
        options["probes"] = unquote(args.probes) if args.probes else None
        measure: Callable[..., Any] = probe
    elif kind == "stability":
        options["repeats"] = args.repeats
        measure = stability
    elif kind == "agree":
        options["human"] = unquote(args.human)
        options["threshold"] = args.threshold
        measure = agreement
    else:
        options["names"] = names
        measure = compare
    view = listener = None
    if not silenced:
        from ._cell_display import lazy_show
        from .widgets._quality_views import QualityView

        view = QualityView(kind=kind, lang=language, metric_name=metrics[0].name)
        listener = lazy_show(view)
    cache = magics.run_cache.fresh() if args.fresh else magics.run_cache
    try:
        report = measure(
            *metrics,
            data,
            run_cache=cache,
            on_event=listener,
            **options,
        )
    except (DataError, ValueError) as problem:  # MetricNotUsable is a ValueError
        raise UsageError(str(problem)) from None
    if report.interrupted:
        raise CheckFailed(t("quality.interrupted", language), report)
    from ._cell_display import CellMark

    if magics._cell is None:
        magics._cell = CellMark()
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    report._live_cell = magics._cell
    return report


def _compared(magics: Any, args: Any, lang: str) -> tuple[list[Any], tuple[str, str]]:
    """The two metrics of ``%skynet_compare`` and their labels."""
    from .magics import DEFAULT_NAME
    from .names import unquote

    names = [unquote(name) for name in args.names]
    if len(names) > 2:
        raise UsageError(t("quality.compare.names", lang, count=len(names)))
    if len(names) == 2:
        first, second = (magics._metric(name) for name in names)
        if names[0] == names[1]:
            return [first, second], (f"{names[0]} (a)", f"{names[1]} (b)")
        return [first, second], (names[0], names[1])
    name = names[0] if names else (unquote(args.metric) if args.metric else DEFAULT_NAME)
    current = magics._metric(name)
    previous = magics.previous_metrics.get(name)
    if previous is None:
        raise UsageError(t("quality.compare.no_previous", lang, name=name))
    return [previous, current], (t("quality.compare.previous", lang, name=name), name)
