"""``%skynet_align``: its options, and the work behind the magic.

The method sits on the one ``SkynetMagics`` class (``magics.py``); it parses
its line and calls :func:`run_align` with the session, which resolves the names
in the notebook as every magic does (:func:`~.option_groups.run_options`), shows
the live view, calls ``align_with`` with those options as they are
(:func:`~.session.call_showing`), saves the aligned metric with ``--save`` and
returns the report.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from IPython.core.error import UsageError

from ..i18n import t
from .magic_args import argument
from .names import data_file, unquote
from .option_groups import (
    CASES,
    LIMITS,
    OPTIMIZER,
    OUTPUTS,
    REPORT_LANGUAGE,
    WORKERS,
    listed_options,
    option_group,
    reflection_option,
    run_options,
)
from .quality_magics import THRESHOLD
from .save import save_source
from .session import Session, call_showing

if TYPE_CHECKING:
    from ..alignment.report import AlignReport

_ALIGN = option_group(
    "alignment",
    argument(
        "--labels",
        metavar="COL",
        required=True,
        help="the column of human labels (pass/fail or numbers; never given to the metric)",
    ),
    argument(
        "--prompt",
        metavar="NAME",
        default="JUDGE",
        help="the metric's module-level string that holds the judge's instructions "
        "(default: JUDGE)",
    ),
    argument(
        "--rationale",
        metavar="COL",
        help="a column of the humans' reasons, read by the reflection model beside each "
        "disagreement (never given to the metric)",
    ),
    THRESHOLD,
    argument(
        "--save",
        metavar="PATH",
        help="write the metric with the new instructions to PATH (only that string changes)",
    ),
    argument("--force", action="store_true", help="with --save: overwrite a different PATH"),
)

ALIGN_OPTIONS = listed_options(CASES, OUTPUTS, _ALIGN, OPTIMIZER, LIMITS, WORKERS, REPORT_LANGUAGE)


def run_align(session: Session, args: argparse.Namespace, silenced: bool) -> AlignReport:
    """What ``%skynet_align`` does once its line is parsed."""
    # The optimizer is imported when it runs, not at %load_ext (issue 26: a fast load).
    from ..alignment.align import align_with

    if args.force and not args.save:
        raise UsageError(t("magic.force_needs_save"))
    metric = session.metric(args.metric)
    data = session.resolve("--data", args.data, data_file)
    options = run_options(session, "eval", args)  # --run and --artifact resolved, checked
    reflection = reflection_option(session, args)
    prompt = unquote(args.prompt)
    view = None
    if not silenced:
        from .widgets._align_view import AlignView

        view = AlignView(
            lang=session.lang, budget=args.budget or 1, metric_name=metric.name, prompt_name=prompt
        )
    cache = session.run_cache(fresh=args.fresh)
    report: AlignReport = call_showing(
        view,
        lambda listener: align_with(
            metric,
            data,
            options,
            labels=unquote(args.labels),
            prompt=prompt,
            threshold=args.threshold,
            rationale=unquote(args.rationale) if args.rationale else None,
            reflection_model=reflection,
            budget=args.budget,
            max_cost=args.max_cost,
            val=args.val,
            seed=args.seed,
            run_cache=cache,
            on_event=listener,
        ),
    )
    if args.save and report.source is not None:
        target = Path(unquote(args.save)).expanduser()
        try:
            _, note = save_source(target, report.source, args.force, metric.name)
        except UsageError as refused:  # the report is kept: the refusal is said beside it
            note = str(refused)
        print(note)
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return session.shown_once(report)
