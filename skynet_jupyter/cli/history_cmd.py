"""The run log from the command line: ``skynet-check diff A B``, ``skynet-check history``,
and ``skynet-check metric.py ... --against last`` (issue 46).

``diff`` prints two runs compared case by case (``--json``: one document) and exits
1 when a case regressed; ``history`` lists the runs, ``--prune N`` keeps each
metric's newest N.  In the child process that runs a check (:mod:`.child`),
:func:`prepare` sets this process's run log (``--log-dir``, ``--no-log``) and finds
what ``--against`` names before the run (an unknown run is a usage error before any
model is paid), and :func:`with_against` adds the comparison to the check's output,
its JUnit suite and its GitHub annotations; a regression fails the command (exit 1).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..i18n import language, t
from .exits import EXIT_FAILED, EXIT_PASSED, usage

if TYPE_CHECKING:
    from ..runlog.record import RunRecord
    from ..runlog.run_diff import RunDiff
    from .job import Job

__all__ = [
    "Against",
    "AgainstProblem",
    "flush_run_log",
    "prepare",
    "run_subcommand",
    "with_against",
]

SHOWN_REGRESSIONS = 20  # annotations and JUnit cases, one per regression, at most
_LAST = re.compile(r"^last(?:~(\d+))?$")  # --against last, last~1...


def run_subcommand(raw: list[str]) -> int:
    """``skynet-check diff ...`` or ``skynet-check history ...``: the exit code."""
    from .parse import parse_subcommand

    args = parse_subcommand(raw)
    with language(args.lang):
        if raw[0] == "diff":
            return _diff(args)
        return _history(args)


def _log(args: argparse.Namespace) -> Any:
    return args.log_dir  # None: SKYNET_RUN_LOG, else .skynet_runs here


def _diff(args: argparse.Namespace) -> int:
    from ..runlog.api import UnknownRun, diff
    from ..runlog.run_diff import DifferentData
    from ..runlog.store import RunLogUnreachable

    try:
        found = diff(
            args.a,
            args.b,
            allow_different_data=args.allow_different_data,
            metric=args.metric,
            log=_log(args),
        )
    except (UnknownRun, DifferentData, RunLogUnreachable, ImportError, TypeError) as problem:
        return usage(str(problem), args.json)
    _print(found, args.json)
    return EXIT_FAILED if found.regressions else EXIT_PASSED


def _print(found: RunDiff, as_json: bool) -> None:
    from .json_out import strict_json
    from .log_text import log_text

    if as_json:
        print(strict_json(_strict(found.to_dict())))
    else:
        print(log_text(str(found)))


def _strict(document: Any) -> Any:
    """No NaN or Infinity (records hold none; a live report's values may)."""
    if isinstance(document, float):
        return document if document == document and abs(document) != float("inf") else None
    if isinstance(document, dict):
        return {key: _strict(value) for key, value in document.items()}
    if isinstance(document, list):
        return [_strict(value) for value in document]
    return document


def _history(args: argparse.Namespace) -> int:
    from ..runlog.api import history
    from ..runlog.store import RunLogUnreachable
    from .json_out import strict_json
    from .log_text import log_text

    limit = None if args.prune is not None else args.limit
    try:
        found = history(args.metric, data=args.data, log=_log(args), limit=limit)
        if args.prune is not None:
            removed = found.prune(args.prune)
            where = found.location.shown if found.location is not None else ""
            said = t("history.pruned", count=removed, keep=args.prune, where=where)
            if args.json:
                print(strict_json({"removed": removed, "keep": args.prune, "log": where}))
            else:
                print(log_text(said))
            return EXIT_PASSED
    except (ValueError, TypeError, ImportError, RunLogUnreachable) as problem:
        return usage(str(problem), args.json)
    if args.json:
        from ..runlog.diff_export import run_summary

        runs = [_strict(run_summary(record)) for record in found]
        print(strict_json({"log": found.location.shown if found.location else None, "runs": runs}))
    else:
        print(log_text(str(found)))
    return EXIT_PASSED


# --- in the child: the run log of a check, and --against ---------------------------------


class AgainstProblem(Exception):
    """``--against`` cannot be done; ``str()`` is the usage error's sentence."""


@dataclass(slots=True)
class Against:
    """What ``--against`` names, found before the run: a run, or the last runs of the metric
    (the one on this run's data is chosen once the run is done)."""

    ref: str
    record: RunRecord | None  # --against RUN_ID
    candidates: list[RunRecord]  # --against last~N: this metric's runs, newest first
    where: str
    allow_different_data: bool
    back: int = 0  # last~N: N runs back on this data


def prepare(job: Job) -> Against | None:
    """Set this process's run log from the job; what ``--against`` names (None: not asked).

    Raises :class:`AgainstProblem` for a run that is not there or a log that is off.
    """
    from ..models.settings import configure
    from ..runlog.location import resolve_location

    if job.run_log is not None:
        configure(run_log=job.run_log if job.record else False)
    elif not job.record:
        configure(run_log=False)
    if job.against is None:
        return None
    location = resolve_location(job.run_log)
    if location is None:
        raise AgainstProblem(t("history.against_needs_log"))
    from ..runlog.api import UnknownRun, history, resolve_run
    from ..runlog.store import RunLogUnreachable

    last = _LAST.match(job.against.strip())
    try:
        if last is not None:
            runs = history(job.metric, log=location, limit=None).runs
            back = int(last.group(1) or 0)
            return Against(job.against, None, runs, location.shown, job.allow_different_data, back)
        found = resolve_run(job.against, log=location)
    except (UnknownRun, RunLogUnreachable, ImportError) as problem:
        raise AgainstProblem(str(problem)) from None
    return Against(job.against, found, [], location.shown, job.allow_different_data)


def flush_run_log() -> None:
    """The run's record written before the child ends (at once: ``os._exit``)."""
    if "skynet_jupyter.runlog.recorder" in sys.modules:
        from ..runlog.recorder import flush

        flush()


def with_against(
    job: Job, report: Any, metric: Any, done: dict[str, Any], against: Against | None
) -> dict[str, Any]:
    """The child's last message with the comparison ``--against`` asked for added."""
    if against is None:
        return done
    from ..runlog.run_diff import DifferentData

    current = _current(job, report, metric, against)
    baseline = against.record
    if baseline is None:
        same = [r for r in against.candidates if r.data_fingerprint == current.data_fingerprint]
        if same and len(same) <= against.back:  # a gate that compares with nothing: refused
            message = t(
                "history.against_too_far", given=against.ref, where=against.where,
                metric=job.metric, most=len(same) - 1,
            )  # fmt: skip
            return {"event": "usage", "message": message}
        if not same:  # the first run: nothing to compare with yet
            note = t("history.against_first", metric=job.metric, where=against.where)
            return _noted(job, done, note)
        baseline = same[against.back]
    try:
        from ..runlog.run_diff import compare_runs

        found = compare_runs(
            baseline, current, allow_different_data=against.allow_different_data, lang=job.lang
        )
    except DifferentData as problem:
        return {"event": "usage", "message": str(problem)}
    return _compared(job, done, found)


def _current(job: Job, report: Any, metric: Any, against: Against) -> RunRecord:
    """This run's record: as the log holds it (its id), else made from the report."""
    from ..runlog.record import draft, in_memory

    made = in_memory(draft(report, metric, None, job.options, surface="cli"))
    if not job.record:
        return made
    from ..runlog.api import history

    flush_run_log()
    known = {record.id for record in against.candidates}
    if against.record is not None:
        known.add(against.record.id)
    try:
        runs = history(job.metric, data=made.data_fingerprint, log=job.run_log, limit=5).runs
    except Exception:  # the log cannot be read now: compare with the run as made
        return made
    mine = [r for r in runs if r.id not in known and r.version == made.version]
    return mine[0] if mine else made


def _noted(job: Job, done: dict[str, Any], note: str) -> dict[str, Any]:
    from .log_text import log_text

    if job.as_json:
        document = json.loads(done["output"])
        document["against"] = {"note": note, "diff": None}
        return {**done, "output": _json(document)}
    return {**done, "output": done["output"] + "\n\n" + log_text(note)}


def _json(document: dict[str, Any]) -> str:
    from .json_out import strict_json

    return strict_json(_strict(document))


def _compared(job: Job, done: dict[str, Any], found: RunDiff) -> dict[str, Any]:
    from .log_text import commands_stopped, log_text

    baseline = found.a
    head = t("history.against_head", run=baseline.id, metric=job.metric)
    fails = bool(found.regressions)
    verdict = (
        t("history.regressions_fail", count=len(found.regressions), run=baseline.id)
        if fails
        else ""
    )
    shown = dict(done)
    if job.as_json:
        document = json.loads(done["output"])
        document["against"] = {"note": None, "diff": found.to_dict()}
        shown["output"] = _json(document)
    else:
        text = log_text("\n".join(filter(None, (head, str(found), verdict))))
        if job.output_format == "github":
            text = commands_stopped(text)
            shown["output"] = "\n".join(_annotations(job, found)) + "\n" + done["output"]
            shown["output"] += "\n\n" + text
        else:
            shown["output"] = done["output"] + "\n\n" + text
    if job.junit and "junit" in done:
        shown["junit"] = _junit(done["junit"], job, found)
    if fails:
        shown["passed"] = False
    return shown


def _annotations(job: Job, found: RunDiff) -> list[str]:
    from ..runlog.views import change_line
    from .github_annotations import workflow_command

    title = t("history.regression_title", run=found.a.id)
    return [
        workflow_command("error", change_line(change, job.lang), file=job.metric, title=title)
        for change in found.regressions[:SHOWN_REGRESSIONS]
    ]


def _junit(suite_text: str, job: Job, found: RunDiff) -> str:
    """The check's ``<testsuite>`` with the comparison's test cases: one that passes when no
    case regressed, and one failure per regression."""
    from .junit_xml import _add, _case, _class_name, _counted

    suite = ET.fromstring(suite_text)
    classname = _class_name(job.metric, "against")
    summary = _case(classname, t("history.against_head", run=found.a.id, metric=job.metric), 0.0)
    if found.regressions:
        said = t("history.regressions_fail", count=len(found.regressions), run=found.a.id)
        _add(summary, "failure", said, str(found), type="regression")
    suite.append(summary)
    for change in found.regressions[:SHOWN_REGRESSIONS]:
        case = _case(classname, f"{t('col.case', job.lang)} {change.index}: {change.id}", 0.0)
        line = _line(change, job.lang)
        _add(case, "failure", line, line, type="regression")
        suite.append(case)
    return _counted(suite)


def _line(change: Any, lang: str) -> str:
    from ..runlog.views import change_line

    return str(change_line(change, lang))
