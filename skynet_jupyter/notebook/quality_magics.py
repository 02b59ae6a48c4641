"""``%skynet_probe``, ``%skynet_stability``, ``%skynet_agree``, ``%skynet_compare``: the
option group each adds to ``%skynet_eval``'s, and the work behind the magics.

The methods sit on the one ``SkynetMagics`` class (``magics.py``); each parses
its line and calls :func:`run_quality`, which resolves names in the notebook
exactly as ``%skynet_eval`` does (:func:`~.option_groups.run_options`), shows
the live view, calls the measurement (:mod:`skynet_jupyter.quality`) with
those options as they are, and returns its report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument

from ..core.errors import DataError
from ..core.probe_ids import PROBES
from ..i18n import t
from .check_failed import CheckFailed
from .names import DEFAULT_NAME
from .option_groups import option_group, run_options

PROBE_OPTIONS = option_group(
    "probe",
    argument(
        "--probes",
        metavar="IDS",
        help=f"probe ids, comma-separated (default: all): {', '.join(PROBES)}",
    ),
)
STABILITY_OPTIONS = option_group(
    "stability",
    argument(
        "--repeats", metavar="N", type=int, default=5, help="how many times to score (default 5)"
    ),
)
# Also %skynet_align's: the verdict that is compared with a pass/fail label.
THRESHOLD = argument(
    "--threshold",
    metavar="X",
    type=float,
    default=0.5,
    help="a score at or above X is a pass, for pass/fail labels (default 0.5)",
)
AGREE_OPTIONS = option_group(
    "agreement",
    argument(
        "--human",
        metavar="COL",
        required=True,
        help="the column of human labels (never given to the metric)",
    ),
    THRESHOLD,
)
COMPARE_OPTIONS = option_group(
    "compare",
    argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="NAME_A NAME_B: two registered metrics; one NAME: its previous version and the "
        "current one",
    ),
)


def _measure(kind: str) -> Callable[..., Any]:
    """The measurement of a magic, imported when it runs (not at %load_ext: issue 26)."""
    if kind == "probe":
        from ..quality.probe import probe_with

        return probe_with
    if kind == "stability":
        from ..quality.stability import stability_with

        return stability_with
    if kind == "agree":
        from ..quality.agreement import agreement_with

        return agreement_with
    from ..quality.compare import compare_with

    return compare_with


def run_quality(magics: Any, kind: str, args: Any, silenced: bool) -> Any:
    """The work of the four magics: resolve, show the live view, measure, return the report."""
    from .names import data_file, unquote

    language = magics._lang(args.lang)
    if kind == "compare":
        metrics, names = _compared(magics, args, language)
    else:
        metric = magics._metric(unquote(args.metric) if args.metric else DEFAULT_NAME)
        metrics, names = [metric], None
    data = magics._resolve("--data", args.data, data_file)
    options = run_options(magics, "eval", args, language)  # checked: the engine's, as they are
    own: dict[str, Any]  # the measurement's own options
    if kind == "probe":
        own = {"probes": unquote(args.probes) if args.probes else None}
    elif kind == "stability":
        own = {"repeats": args.repeats}
    elif kind == "agree":
        own = {"human": unquote(args.human), "threshold": args.threshold}
    else:
        own = {"names": names}
    measure = _measure(kind)
    view = listener = None
    if not silenced:
        from .cell_display import lazy_show
        from .widgets._quality_views import QualityView

        view = QualityView(kind=kind, lang=language, metric_name=metrics[0].name)
        listener = lazy_show(view)
    cache = magics.run_cache.fresh() if args.fresh else magics.run_cache
    try:
        report = measure(*metrics, data, options, run_cache=cache, on_event=listener, **own)
    except (DataError, ValueError) as problem:  # MetricNotUsable is a ValueError
        raise UsageError(str(problem)) from None
    if report.interrupted:
        raise CheckFailed(t("quality.interrupted", language), report)
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return magics._shown_once(report)


def _compared(magics: Any, args: Any, lang: str) -> tuple[list[Any], tuple[str, str]]:
    """The two metrics of ``%skynet_compare`` and their labels."""
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
