"""``%skynet_align``: its options, and the work behind the magic.

The method sits on the one ``SkynetMagics`` class (``magics.py``); it parses
its line and calls :func:`run_align`, which resolves the names in the
notebook as every magic does (:func:`~.option_groups.run_options`), shows
the live view, calls ``align_with`` with those options as they are, saves
the aligned metric with ``--save`` and returns the report.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument

from ..core.errors import DataError
from ..i18n import t
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


def run_align(magics: Any, args: Any, silenced: bool) -> AlignReport:
    """What ``%skynet_align`` does once its line is parsed."""
    # The optimizer is imported when it runs, not at %load_ext (issue 26: a fast load).
    from ..alignment.align import align_with
    from ..optimizers.gepa_adapter import GepaMissing
    from ..optimizers.optimize import ReflectionModelMissing
    from .cell_display import lazy_show
    from .names import data_file, unquote

    lang = magics._lang(args.lang)
    if args.force and not args.save:
        raise UsageError(t("magic.force_needs_save", lang))
    metric = magics._metric(unquote(args.metric) if args.metric else "default")
    data = magics._resolve("--data", args.data, data_file)
    options = run_options(magics, "eval", args, lang)  # --run and --artifact resolved, checked
    reflection = reflection_option(magics, args)
    prompt = unquote(args.prompt)
    view = listener = None
    if not silenced:
        from .widgets._align_view import AlignView

        view = AlignView(
            lang=lang, budget=args.budget or 1, metric_name=metric.name, prompt_name=prompt
        )
        listener = lazy_show(view)  # shown at the first event: a usage error leaves no view
    cache = magics.run_cache.fresh() if args.fresh else magics.run_cache
    try:
        report = align_with(
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
        )
    except (DataError, ValueError, TypeError, ReflectionModelMissing, GepaMissing) as problem:
        if view is not None:
            view.close()
        raise UsageError(str(problem)) from None
    if args.save and report.source is not None:
        path = Path(unquote(args.save)).expanduser()
        _, note = save_source(path, report.source, args.force, lang)
        print(note)
    # The view shows the report (or ';' hid it): the cell's Out does not show it again.
    return magics._shown_once(report)
