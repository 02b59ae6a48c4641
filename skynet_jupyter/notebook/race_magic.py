"""``%skynet_race``: its options, and the work behind the magic.

The method sits on the one ``SkynetMagics`` class (``magics.py``); it parses its
line and calls :func:`run_race` with the session, which looks up the racing
metrics among the registered ones, resolves the names in the notebook as every
magic does (:func:`~.option_groups.run_options`), shows the live view and calls
the race with those options as they are (:func:`~.session.call_showing`).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from IPython.core.error import UsageError

from ..i18n import t
from .magic_args import argument
from .names import data_file, unquote
from .optimize_magic import gepa_options_given, validation_share
from .option_groups import (
    DATA,
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
    from ..core.metric import Metric
    from ..optimizers.race_report import RaceReport

_RACE = option_group(
    "race",
    argument(
        "--metrics",
        metavar="NAME,NAME",
        required=True,
        help="the registered metrics to race, comma-separated (two or more)",
    ),
    argument(
        "--referee",
        metavar="NAME",
        help="the registered metric that scores every best artifact on the held-out cases "
        "(default: the first of --metrics)",
    ),
    argument(
        "--held-out",
        metavar="F|N",
        type=float,
        help="share of the cases GEPA never sees (0..1), or a whole number of cases; "
        "default 30%%, at least 5",
    ),
    argument(
        "--repeats",
        metavar="N",
        type=int,
        default=1,
        help="GEPA seeds per metric (--seed, --seed + 1, ...): the standings give mean and range",
    ),
    argument(
        "--gepa-options",
        metavar="EXPR",
        help="other gepa.optimize keyword arguments: a notebook dict or expression",
    ),
)

RACE_OPTIONS = listed_options(
    DATA, outputs_group(optimizer=True), _RACE, OPTIMIZER, LIMITS, WORKERS, REPORT_LANGUAGE
)


def run_race(session: Session, args: argparse.Namespace, silenced: bool) -> RaceReport:
    """What ``%skynet_race`` does once its line is parsed."""
    # The optimizer is imported when it runs, not at %load_ext (issue 26: a fast load).
    from ..optimizers.race import race_with

    metrics = _racing(session, unquote(args.metrics))
    referee = None
    if args.referee:
        referee = _registered(session, unquote(args.referee).strip(), "--referee")
    data = session.resolve("--data", args.data, data_file)
    options = run_options(session, "eval", args)  # --run and --artifact resolved, checked
    gepa_options = gepa_options_given(session, args.gepa_options)
    reflection = reflection_option(session, args)
    view = None
    if not silenced:
        from .widgets._race_view import RaceView

        runs = len(metrics) * max(1, args.repeats or 1)
        view = RaceView(lang=session.lang, budget=(args.budget or 1) * runs)
    cache = session.run_cache(fresh=args.fresh)
    report: RaceReport = call_showing(
        view,
        lambda listener: race_with(
            metrics,
            data,
            options,
            referee=referee,
            budget=args.budget,
            reflection_model=reflection,
            val=validation_share(args.val),
            held_out=validation_share(args.held_out),
            seed=args.seed,
            repeats=args.repeats,
            max_cost=args.max_cost,
            run_cache=cache,
            on_event=listener,
            gepa_options=gepa_options,
        ),
    )
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return session.shown_once(report)


def _racing(session: Session, text: str) -> dict[str, Metric]:
    """``--metrics a,b``: the registered metrics by name, in order; two or more, distinct.

    Each name is taken without the spaces and quotes around it (``'a, b'`` names a and b).
    """
    names = [unquote(name.strip()).strip() for name in text.split(",")]
    if any(not name for name in names) or len(names) < 2:
        raise UsageError(t("race.magic_two_metrics", text=text))
    if len(set(names)) < len(names):
        raise UsageError(t("race.magic_distinct", text=text))
    return {name: _registered(session, name) for name in names}


def _registered(session: Session, name: str, option: str = "--metrics") -> Metric:
    """A racing metric (or the referee) by name: an unknown one said with the option's words."""
    try:
        return session.metric_named(name)
    except UsageError:
        known = ", ".join(session.metric_names()) or "-"
        said = t("race.magic_unknown", option=option, name=name, known=known)
        raise UsageError(said) from None
