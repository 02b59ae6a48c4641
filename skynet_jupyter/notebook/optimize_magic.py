"""``%skynet_optimize``: its options, and the work behind the magic.

The method itself sits on the one ``SkynetMagics`` class (``magics.py``); it
parses its line and calls :func:`run_optimize` with the session, which resolves
the names in the notebook as every magic does (:func:`~.option_groups.run_options`),
shows the live view, calls the optimizer with those options as they are
(:func:`~.session.call_showing`) and returns its report.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError

from ..i18n import t
from .magic_args import argument
from .names import data_file, no_file, unquote
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
from .session import Session, call_showing

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


def run_optimize(session: Session, args: argparse.Namespace, silenced: bool) -> OptimizeReport:
    """What ``%skynet_optimize`` does once its line is parsed."""
    # The optimizer is imported when it runs, not at %load_ext (issue 26: a fast load).
    from ..optimizers.optimize import optimize_with

    metric = session.metric(args.metric)
    data = session.resolve("--data", args.data, data_file)
    options = run_options(session, "eval", args)  # --run and --artifact resolved, checked
    gepa_options = gepa_options_given(session, args.gepa_options)
    reflection = reflection_option(session, args)
    view = None
    if not silenced:
        from .widgets._optimize_view import OptimizeView

        view = OptimizeView(lang=session.lang, budget=args.budget or 1, metric_name=metric.name)
    cache = session.run_cache(fresh=args.fresh)
    report: OptimizeReport = call_showing(
        view,
        lambda listener: optimize_with(
            metric,
            data,
            options,
            budget=args.budget,
            reflection_model=reflection,
            val=validation_share(args.val),
            max_cost=args.max_cost,
            seed=args.seed,
            component=unquote(args.component),
            run_cache=cache,
            on_event=listener,
            gepa_options=gepa_options,
        ),
    )
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return session.shown_once(report)


def gepa_options_given(session: Session, text: str | None) -> Mapping[str, Any] | None:
    """``--gepa-options``: a notebook dict or expression; a usage error if not a mapping."""
    if not text:
        return None
    found = session.resolve("--gepa-options", text, no_file)
    if not isinstance(found, Mapping):
        raise UsageError(t("magic.not_gepa_options", text=text, type=type(found).__name__))
    return found


def validation_share(val: float | None) -> float | int | None:
    """``--val``: a share (0..1), or a whole number of cases (``--val 6`` parses as 6.0)."""
    if isinstance(val, float) and val >= 1 and val.is_integer():
        return int(val)
    return val  # None: the optimizer's default split
