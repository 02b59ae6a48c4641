"""The child process of ``skynet-check``: load the user's code, run the check, send one verdict.

It gets its :class:`~.job.Job` pickled on stdin and answers on stdout, one
JSON message a line: ``loading`` (a file is being imported: the parent's load
time limit runs) and ``loaded``, then one last message: ``done`` (with the
report, already laid out or as the strict JSON document), ``usage`` (a
sentence), ``interrupted`` or ``crashed``.  Everything else written to its
stdout, even from C, goes to its stderr.

Started as ``python -c`` (see :data:`.supervise.CHILD`), never imported by the
parent.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.model_settings import ModelSettings
from ..i18n import language, surface, t
from ..run.lifeline import end_with_parent
from .history_cmd import AgainstProblem, flush_run_log, prepare, with_against
from .job import Job
from .sources import import_folders, run_file

if TYPE_CHECKING:
    from ..core.contract import ContractError

__all__ = ["main"]

Message = dict[str, Any]


def main() -> None:
    """The child's whole life: its last act is sending one message, then exiting at once."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")  # the verdict goes only here
    os.dup2(2, 1)  # everything else written to stdout, even from C, goes to stderr
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    def send(message: Message) -> None:
        channel.write(json.dumps(message, ensure_ascii=True, allow_nan=False) + "\n")
        channel.flush()

    # From the parent, which started this process with the same Python and package.
    job = pickle.loads(sys.stdin.buffer.read())
    assert isinstance(job, Job)
    # If skynet-check itself ends (even by SIGKILL), this child ends with its process group:
    # what the metric started (a program it runs, an isolation worker) goes too.
    end_with_parent(os.getppid())
    message = _last_message(job, send)
    flush_run_log()  # the run's record is written before this process ends at once
    sys.stdout.flush()
    sys.stderr.flush()
    send(message)
    channel.close()
    # At once: threads the check abandoned (a hung metric) must not hold the exit.
    os._exit(0)


def _last_message(job: Job, send: Callable[[Message], None]) -> Message:
    """The check's verdict, or why there is none; never raises."""
    try:
        return _check(job, send)
    except KeyboardInterrupt:  # Ctrl-C while loading, before the engine could keep cases
        return {"event": "interrupted"}
    except BaseException as exc:  # our own fault: say so in one line, never a silence
        return {
            "event": "crashed",
            "message": t("cli.crashed", job.lang, error=f"{type(exc).__name__}: {exc}"),
        }


class _NoReport(Exception):
    """The check ended before its report (a usage error); ``message`` is the last message."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


def _check(job: Job, send: Callable[[Message], None]) -> Message:
    """The check's last message: its report, or the usage error that stopped it first."""
    # A new process starts outside the parent's language context: the job says it.
    with language(job.lang), surface("cli"):
        try:
            return _checked(job, send)
        except _NoReport as stopped:
            return stopped.message


def _checked(job: Job, send: Callable[[Message], None]) -> Message:
    _import_ours_first()
    from ..core.dataset import DataError
    from ..run.engine import execute

    try:  # the run log (issue 46): where this run is recorded, what --against names
        against = prepare(job)
    except AgainstProblem as problem:
        return _usage(str(problem))

    options = job.options
    models = _models(options.models, job.api_base)
    _import_litellm_ahead(models, job.cache_path)
    # Modules beside the metric and run files are found first.
    sys.path[:0] = import_folders(job.metric, options.run)
    run = _loaded_run(options.run, send)
    metric = _loaded_metric(job.metric, send)
    send({"event": "loaded"})
    # The run function loaded once, here (so its failures are usage errors): not again.
    options = dataclasses.replace(options, run=run, models=models)
    try:
        report = execute(
            job.kind,
            metric,
            job.data,
            options,
            on_event=None,
            run_cache=_run_cache(job),
            record=True,
        )
    except DataError as problem:
        return _usage(problem.for_command())
    except ValueError as problem:
        return _usage(str(problem))
    # A configuration problem found by the run (the metric loaded): said as usage, and
    # filed in JUnit under the run, not under "Metric loads".
    key_problem = _key_problem(report)
    if key_problem is not None:  # a key missing or refused: the sentence names the variable
        return {**_usage(key_problem), "configuration": True}
    missing_model = _missing_model(report)
    if missing_model is not None:
        from ..core.contract import NO_MODEL_HINTS

        hint = t(NO_MODEL_HINTS[missing_model])
        message = t("cli.no_model", hint=hint, option=f"--{missing_model}-model")
        return {**_usage(message), "configuration": True}
    return with_against(job, report, metric, _done(job, report), against)


def _import_litellm_ahead(models: ModelSettings, cache_path: str | None) -> None:
    """litellm's import (seconds) overlaps loading the metric, the run file and the data."""
    from ..models import import_ahead

    chosen = (models.task_model, models.metric_model, models.reflection_model)
    import_ahead.start_now(chosen, None if cache_path is None else Path(cache_path))


def _import_ours_first() -> None:
    """Import what the check uses of ours before the user's folders go first on sys.path
    (as it always did): what these modules import is ours, never a file of theirs."""
    from ..core import contract, dataset, metric
    from ..run import engine
    from ..show import render
    from . import json_out

    del contract, dataset, metric, engine, render, json_out  # loaded; used where needed


def _loaded_run(run: Any, send: Callable[[Message], None]) -> Any:
    """``--run FILE.py:FUNC``'s function, imported here (as given when it is not a file)."""
    if not isinstance(run, str):
        return run
    from ..core.metric import SourceFileError, load_function

    path_text = run_file(run)
    send({"event": "loading", "path": path_text})
    try:
        return load_function(run)
    except SourceFileError as problem:
        message = problem.message()
    except AttributeError as problem:
        message = _no_function(problem, path_text)
    except FileNotFoundError as problem:
        message = str(problem)
    except (Exception, SystemExit) as exc:  # sys.exit() at import is a failure to load
        message = _load_failure(path_text, exc)
    raise _NoReport(_usage(message))


def _loaded_metric(path: str, send: Callable[[Message], None]) -> Any:
    """The metric module; its path when it loads but breaks the contract (the report says)."""
    from ..core.contract import METRIC_LOADS, ContractError
    from ..core.metric import load_metric

    send({"event": "loading", "path": path})
    try:
        return load_metric(Path(path), name=path)  # its runs are recorded under the file's name
    except ContractError as problem:
        if problem.step != METRIC_LOADS:  # it loads, but breaks the contract: the report says
            return Path(path)
        # A file that does not load is a usage error naming the file (and the line).
        usage = {**_usage(_metric_load_failure(problem, path)), "line": problem.fields.get("line")}
        raise _NoReport(usage) from None  # the line: for --format github


def _metric_load_failure(problem: ContractError, path: str) -> str:
    """Why the metric file does not load (and that ``import skynet`` got the user's own module)."""
    from ..core.skynet_import import shadowing_note

    reason = problem.message()
    if problem.message_id.startswith("loads."):
        reason = t("cli.metric_failed", path=path, reason=reason)
    shadowed = shadowing_note()  # `import skynet` got the user's own module
    if shadowed is not None:
        reason = f"{reason} {shadowed}"
    return reason


def _done(job: Job, report: Any) -> Message:
    """The last message of a check that reported: its report laid out as the job asks."""
    from ..show.render import report_text
    from .json_out import strict_document, strict_json
    from .log_text import commands_stopped, log_text

    # On a command line the metric is the file checked: the headline names it, not "default".
    report.metric_name = job.metric
    if job.as_json:
        # "metric_file": the path as given, whatever "metric" may name in other documents.
        output = strict_json({**strict_document(report), "metric_file": job.metric})
    else:  # laid out for the parent's stdout (this process's stdout is a pipe)
        output = log_text(report_text(report, width=job.width))
    if job.output_format == "github":
        from .github_annotations import report_annotations

        # Our annotations, then the report: none of its user text is run as a command.
        annotations = report_annotations(report, job.metric)
        output = "".join(line + "\n" for line in annotations) + commands_stopped(output)
    done: Message = {
        "event": "done",
        "passed": report.passed,
        "interrupted": report.interrupted,
        "output": output,
    }
    if job.junit:  # the parent puts every metric's <testsuite> in one file
        from .junit_xml import report_suite

        done["junit"] = report_suite(report, job.metric)
    return done


def _run_cache(job: Job) -> Any:
    """The run cache --cache-dir names (None: every model call is made)."""
    if job.cache_path is None:
        return None
    from ..run.engine import RunCache

    return RunCache(path=job.cache_path)


def _models(given: ModelSettings | None, api_base: str | None) -> ModelSettings:
    """The models of this check: the options over the environment, at --api-base if given."""
    from ..models.settings import current_settings

    settings = current_settings(given)
    if api_base is None:
        return settings

    def at_base(model: Any) -> Any:
        # A dict model is litellm's completion arguments: the key still comes from the
        # environment (litellm reads it), never from us.
        return {"model": model, "api_base": api_base} if isinstance(model, str) else model

    return ModelSettings(
        task_model=at_base(settings.task_model),
        metric_model=at_base(settings.metric_model),
        reflection_model=at_base(settings.reflection_model),
    )


def _usage(message: str) -> Message:
    return {"event": "usage", "message": message}


def _no_function(problem: AttributeError, path: str, lang: str | None = None) -> str:
    """The run file lacks the function named after ':': what it does define (in ``lang``,
    by default the run's)."""
    module = problem.obj
    if getattr(module, "__file__", None) != str(Path(path).resolve()):
        return str(problem)  # raised by the file's own code while it loaded: as it is
    defined = [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")]
    return t(
        "cli.no_function",
        lang,
        path=path,
        name=repr(problem.name),
        defined=", ".join(defined) or t("cli.nothing_callable", lang),
    )


def _load_failure(path: str, exc: BaseException, lang: str | None = None) -> str:
    """One sentence for a run file that fails to import: the file, the line, the error
    (in ``lang``, by default the run's)."""
    import traceback

    if isinstance(exc, SyntaxError):
        return t("cli.syntax_error", lang, path=path, line=exc.lineno or 0, error=exc.msg)
    resolved = str(Path(path).resolve())
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == resolved]
    from ..core.secrets import redact

    error = redact(f"{type(exc).__name__}: {exc}")
    return t("cli.run_failed", lang, path=path, line=lines[-1] if lines else "?", error=error)


def _key_problem(report: Any) -> str | None:
    """The sentence of the case that stopped the run on a model's key, missing or refused
    (the run's stop: with cases side by side, another case's "Not run" may come first)."""
    from ..core.report import MODEL_KEY

    stop = getattr(report, "stop", None)
    if stop is not None and stop.kind == MODEL_KEY:
        return str(stop.sentence)
    for case in report.cases:
        if case.failed_step is not None and getattr(case, "hint_id", None) == "hint.model_key":
            return str(case.error)
    return None


def _missing_model(report: Any) -> str | None:
    """'metric' or 'task' when a case failed because llm() had no model to ask."""
    from ..core.contract import NO_MODEL_HINTS, NOT_CONFIGURED

    roles = {hint: role for role, hint in NO_MODEL_HINTS.items()}
    for case in report.cases:
        role = roles.get(getattr(case, "hint_id", None) or "")
        if case.failed_step is not None and role is not None:  # the engine said so itself
            return role
        for text in (case.traceback, case.error):
            found = NOT_CONFIGURED.search(text or "")
            if found is not None:
                return found["role"]
    return None
