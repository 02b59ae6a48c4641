"""What ``skynet-check`` asks its child process to do: one checked :class:`Job`.

Every option is checked here, before the child starts, so a bad one is exit 2
naming it, before any of the user's code is imported: the run options by
:class:`RunOptions` itself (its rules, said in the CLI's words), then the
command's own ``--load-timeout``, the model options, and the files
(:mod:`.sources`).  The job crosses to the child pickled on its stdin.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass

from ..core.model_settings import ModelSettings
from ..core.options import (
    CHECK_CASES,
    CHECK_CONCURRENCY,
    EVAL_CONCURRENCY,
    MIN_TIMEOUT,
    Kind,
    OptionError,
    RunOptions,
    seconds_problem,
    within_seconds,
)
from ..i18n import t
from ..show.terminal_text import terminal_width
from .exits import UsageProblem
from .sources import read_sources

__all__ = [
    "LOAD_TIMEOUT",
    "MAX_LOAD_TIMEOUT",
    "Job",
    "job_from",
]

LOAD_TIMEOUT, MAX_LOAD_TIMEOUT = 60.0, 600.0  # importing the metric file and the run file


@dataclass(frozen=True, slots=True)
class Job:
    """One check or evaluation, as the child runs it and reports it."""

    kind: Kind
    metric: str  # the metric file
    data: str  # the data file
    options: RunOptions  # ``run`` still "FILE.py:FUNC": the child loads it
    # Applied in the child to the models it resolves (the options over the environment).
    api_base: str | None
    as_json: bool
    # The report is laid out for the parent's stdout: wrapped to its width on a
    # terminal, 0 (not wrapped) for a pipe, a file or --json.
    width: int
    # "github": GitHub Actions annotations before the report (--format github).
    output_format: str = "text"
    # The child also sends its report as a JUnit <testsuite> (--junit-xml).
    junit: bool = False
    # The run cache's file (--cache-dir DIR: DIR/runs.sqlite, resolved here); None: no cache.
    cache_path: str | None = None
    # The run log (issue 46): --log-dir (a folder resolved here, or a URL; None: the child's
    # SKYNET_RUN_LOG or .skynet_runs), whether to record (--no-log), and --against.
    run_log: str | None = None
    record: bool = True
    against: str | None = None
    allow_different_data: bool = False

    @property
    def lang(self) -> str:
        return self.options.language


def job_from(args: argparse.Namespace, lang: str | None = None, metric: str | None = None) -> Job:
    """The job the arguments ask for ``metric`` (default: the only metric file given), or
    the first :class:`UsageProblem` found, said in ``lang`` (by default the command's).

    The job carries its language (``Job.lang``, resolved): the child process, outside
    this one's language context, is told it.
    """
    if metric is None:
        (metric,) = args.metric
    if len(args.metric) > 1 and args.json:  # --json is one document, of one check
        raise UsageProblem(t("cli.json_one_metric", lang, count=len(args.metric)))
    if args.junit_xml is not None:
        from .junit_xml import junit_path_problem

        problem = junit_path_problem(args.junit_xml, lang)
        if problem is not None:
            raise UsageProblem(problem)
    options = _run_options(args, lang)
    # Loading the user's files is this command's own limit, on the same kind of range.
    if not within_seconds(args.load_timeout, MIN_TIMEOUT, MAX_LOAD_TIMEOUT):
        raise UsageProblem(
            seconds_problem("--load-timeout", args.load_timeout, lang, MAX_LOAD_TIMEOUT)
        )
    models = _models(args, lang)
    artifact = read_sources(args, metric, lang)
    return Job(
        kind="eval" if args.all else "check",
        metric=metric,
        data=args.data,
        options=dataclasses.replace(options, artifact=artifact, models=models),
        api_base=args.api_base,
        as_json=args.json,
        width=0 if args.json else terminal_width() or 0,
        output_format=args.format,
        junit=args.junit_xml is not None,
        cache_path=_cache_path(args.cache_dir),
        run_log=_log_place(args.log_dir),
        record=not args.no_log,
        against=args.against,
        allow_different_data=args.allow_different_data,
    )


def _log_place(given: str | None) -> str | None:
    """--log-dir: a URL as given, a folder resolved in the parent (the child may start
    elsewhere)."""
    if given is None or "://" in given:
        return given
    from pathlib import Path

    return str(Path(given).expanduser().resolve())


def _cache_path(folder: str | None) -> str | None:
    """--cache-dir's file, resolved in the parent (the child may start elsewhere)."""
    if folder is None:
        return None
    from pathlib import Path

    return str(Path(folder).expanduser().resolve() / "runs.sqlite")


# The command's options that are RunOptions fields of the same name, taken as given.
_OPTIONS_AS_GIVEN = (
    "outputs",
    "inputs",
    "json_columns",
    "split",
    "run",
    "output_column",
    "timeout",
    "run_timeout",
    "isolation",
)


def _run_options(args: argparse.Namespace, lang: str | None) -> RunOptions:
    """The options' rules (:class:`RunOptions`, as ``check`` applies them), in the CLI's words."""
    if args.all:
        cases, concurrency = args.cases, EVAL_CONCURRENCY
    else:  # a --cases refused (0) stays refused
        cases = CHECK_CASES if args.cases is None else args.cases
        concurrency = CHECK_CONCURRENCY
    try:
        given = {name: getattr(args, name) for name in _OPTIONS_AS_GIVEN}
        return RunOptions.given(cases=cases, concurrency=concurrency, lang=lang, **given)
    except OptionError as problem:
        raise UsageProblem(problem.for_cli(lang)) from None


def _models(args: argparse.Namespace, lang: str | None) -> ModelSettings:
    """The model options (not blank), and an http(s) address for --api-base."""
    from urllib.parse import urlsplit

    for role in ("task", "metric", "reflection"):
        value = getattr(args, f"{role}_model")
        if value is not None and not value.strip():
            raise UsageProblem(t("cli.empty_model", lang, option=f"--{role}-model"))
    if args.api_base is not None:
        try:
            parts = urlsplit(args.api_base.strip())
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            # Shown without what precedes an "@": an address may carry a password.
            given = args.api_base.strip()
            shown = "…@" + given.rsplit("@", 1)[1] if "@" in given else given
            raise UsageProblem(t("cli.bad_api_base", lang, value=repr(shown)))
    return ModelSettings(
        task_model=args.task_model,
        metric_model=args.metric_model,
        reflection_model=args.reflection_model,
    )
