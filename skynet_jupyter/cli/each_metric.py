"""Every metric file of the command line, checked one by one (a pre-commit hook passes
each changed ``metric.py``), with what CI reads: the JUnit file and GitHub's annotations.

Each metric gets its own child process (:mod:`.supervise`), so one metric's
imports, globals and failures never reach the next.  The exit code is the
first one that is not 0 (a usage error or Ctrl-C also stops the rest): the
command fails if any metric fails.  ``--junit-xml`` holds one ``<testsuite>``
per metric checked, written once at the end; a metric that gave no report is a
failed test case there saying why, and an ``::error`` annotation with ``--format
github``: "Metric loads" for a file that does not load or a usage error, "The
check wrote its report" with the no-verdict sentence for a check whose process
ended first (exit 3).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..i18n import t
from .exits import EXIT_INTERRUPTED, EXIT_PASSED, EXIT_USAGE, UsageProblem, usage
from .job import job_from
from .log_text import log_text, one_line
from .supervise import supervise

__all__ = ["check_each"]

_STOPS = (EXIT_USAGE, EXIT_INTERRUPTED)  # the command itself is wrong, or the user stopped it


def check_each(args: argparse.Namespace) -> int:
    """Check every metric file of ``args``; the exit code (the first that is not 0).

    Said in the command's language (:func:`~skynet_jupyter.i18n.language`, set by ``main``).
    """
    several = len(args.metric) > 1
    suites: list[str] = []
    code = EXIT_PASSED
    for metric in args.metric:
        if several:  # which report is whose, as head and tail say it for several files
            print(f"==> {one_line(metric)} <==", flush=True)
        last: dict[str, Any] = {}
        try:
            job = job_from(args, metric=metric)
        except UsageProblem as problem:
            last = {"message": str(problem), "file": problem.file, "line": problem.line}
            result = usage(str(problem), args.json)
        else:
            result = supervise(job, args.load_timeout, last.update)
        _no_report_outputs(args, metric, last, result, suites)
        if code == EXIT_PASSED:
            code = result
        if result in _STOPS:
            break
    if args.junit_xml is not None:
        from .junit_xml import junit_document, write_junit

        problem_text = write_junit(args.junit_xml, junit_document(suites))
        if problem_text is not None:
            print(f"skynet-check: {log_text(problem_text)}", flush=True, file=sys.stderr)
            if code == EXIT_PASSED:  # a passing check whose report is missing must not pass
                code = EXIT_USAGE
    return code


def _no_report_outputs(
    args: argparse.Namespace,
    metric: str,
    last: dict[str, Any],
    code: int,
    suites: list[str],
    lang: str | None = None,
) -> None:
    """Keep the metric's JUnit suite; for a metric without a report, say why in both outputs
    (in ``lang``, by default the command's)."""
    if "junit" in last:
        suites.append(last["junit"])
    if last.get("event") == "done":
        return  # the report itself carried the annotations
    if code == EXIT_INTERRUPTED:
        message = t("cli.interrupted", lang)
    else:  # what the command said on stderr: there are no "lines above" in a CI report
        message = last.get("message") or t("cli.no_report", lang, path=metric, code=code)
    if args.junit_xml is not None:
        from .junit_xml import no_report_suite

        no_verdict = last.get("event") == "no_verdict"
        found_by_the_run = bool(last.get("configuration"))
        suites.append(
            no_report_suite(
                metric, message, lang, no_verdict=no_verdict, found_by_the_run=found_by_the_run
            )
        )
    if args.format == "github":
        from .github_annotations import usage_annotation

        print(usage_annotation(last.get("file") or metric, message, last.get("line")), flush=True)
