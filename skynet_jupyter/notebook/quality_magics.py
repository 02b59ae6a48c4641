"""``%skynet_probe``, ``%skynet_stability``, ``%skynet_agree``, ``%skynet_compare``: the
option group each adds to ``%skynet_eval``'s, and the work behind the magics.

The methods sit on the one ``SkynetMagics`` class (``magics.py``); each parses
its line and calls :func:`run_quality` with the session, which resolves names in
the notebook exactly as ``%skynet_eval`` does (:func:`~.option_groups.run_options`),
shows the live view, calls the measurement (:mod:`skynet_jupyter.quality`) with
those options as they are (:func:`~.session.call_showing`), and returns its report.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError

from ..core.probe_ids import PROBES
from ..i18n import t
from .check_failed import CheckFailed
from .magic_args import argument
from .names import DEFAULT_NAME, data_file, unquote
from .option_groups import option_group, run_options
from .session import Session, call_showing

if TYPE_CHECKING:
    from ..core.metric import Metric

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
        "--labels",
        "--human",  # its first name, kept working: %skynet_align has always said --labels
        dest="labels",
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


def run_quality(session: Session, kind: str, args: argparse.Namespace, silenced: bool) -> Any:
    """The work of the four magics: resolve, show the live view, measure, return the report."""
    metrics, names = _measured_metrics(session, kind, args)
    data = session.resolve("--data", args.data, data_file)
    options = run_options(session, "eval", args)  # checked: the engine's, as they are
    own = _own_options(kind, args, names)
    measure = _measure(kind)
    view = None
    if not silenced:
        from .widgets._quality_views import QualityView

        view = QualityView(kind=kind, lang=session.lang, metric_name=metrics[0].name)
    cache = session.run_cache(fresh=args.fresh)
    report = call_showing(
        view,
        lambda listener: measure(
            *metrics, data, options, run_cache=cache, on_event=listener, **own
        ),
    )
    if report.interrupted:
        raise CheckFailed(t("quality.interrupted"), report)
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return session.shown_once(report)


def _measured_metrics(
    session: Session, kind: str, args: argparse.Namespace
) -> tuple[list[Metric], tuple[str, str] | None]:
    """The metrics a magic measures, and (``%skynet_compare``) their labels."""
    if kind == "compare":
        return _compared(session, args)
    return [session.metric(args.metric)], None


def _own_options(
    kind: str, args: argparse.Namespace, names: tuple[str, str] | None
) -> dict[str, Any]:
    """The measurement's own keywords, from the magic's own option group."""
    if kind == "probe":
        return {"probes": unquote(args.probes) if args.probes else None}
    if kind == "stability":
        return {"repeats": args.repeats}
    if kind == "agree":
        return {"labels": unquote(args.labels), "threshold": args.threshold}
    return {"names": names}


def _compared(session: Session, args: argparse.Namespace) -> tuple[list[Metric], tuple[str, str]]:
    """The two metrics of ``%skynet_compare`` and their labels."""
    names = [unquote(name) for name in args.names]
    if len(names) > 2:
        raise UsageError(t("quality.compare.names", count=len(names)))
    if len(names) == 2:
        first, second = (session.metric_named(name) for name in names)
        if names[0] == names[1]:
            return [first, second], (f"{names[0]} (a)", f"{names[1]} (b)")
        return [first, second], (names[0], names[1])
    name = names[0] if names else (unquote(args.metric) if args.metric else DEFAULT_NAME)
    current = session.metric_named(name)
    previous = session.previous_metric(name)
    if previous is None:
        raise UsageError(t("quality.compare.no_previous", name=name))
    return [previous, current], (t("quality.compare.previous", name=name), name)
