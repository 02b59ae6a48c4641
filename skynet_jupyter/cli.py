"""``skynet-check``: the contract check from a terminal, for CI and pre-submit hooks.

Exit codes: 0 the check passed, 1 the contract check failed, 2 a usage error
(a missing or unreadable file, a metric or run file that does not load, an
unknown column, a bad option, no model configured), 3 no verdict: the process
running the check ended before it wrote its report (the metric called
``os._exit``, or was killed), 130 interrupted (Ctrl-C).

The check runs in a child process that this one supervises.  Whatever the
metric does to its own process (``os._exit(0)``, a signal, a hang while it
is imported), this process still sees that no report was written, and only
it writes to stdout: the child's stdout is its stderr, so prints from the
metric or the run function never mix with the report or the JSON document.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from ._runner import RUN_TIMEOUT
from .i18n import LANGUAGES, resolve_lang, t
from .options import (
    MAX_RUN_TIMEOUT,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    OptionError,
    RunOptions,
    seconds_problem,
    within_seconds,
)
from .progress_line import ProgressLine, running_title
from .terminal_text import terminal_width

EXIT_PASSED, EXIT_FAILED, EXIT_USAGE, EXIT_NO_VERDICT = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # the shell's code for a Ctrl-C

LOAD_TIMEOUT, MAX_LOAD_TIMEOUT = 60.0, 600.0  # importing the metric file and the run file
_GRACE_S = 5.0  # how long the child may take to exit once its report is in

_CHILD = "from skynet_jupyter.cli import _child_main; _child_main()"


# --- options ------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse, but its usage errors in the user's language, and with --json still
    one JSON document."""

    def error(self, message: str) -> NoReturn:
        raw = getattr(self, "_raw", [])
        lang = _asked_lang(raw)
        message = _argparse_message(message, lang)
        if "--json" in raw:
            self.print_usage(sys.stderr)
            sys.exit(_usage(message, as_json=True))
        self.print_usage(sys.stderr)
        said = t("labelled", lang, label=t("cli.args.error", lang), text=message)  # "erreur : …"
        self.exit(EXIT_USAGE, f"{self.prog}: {said}\n")


# argparse's usage errors (its words in Python 3.11+), each with its message id.
_ARGPARSE_ERRORS = tuple(
    (re.compile(pattern, re.DOTALL), message_id)
    for pattern, message_id in (
        (r"the following arguments are required: (?P<names>.+)", "cli.args.required"),
        (r"unrecognized arguments: (?P<names>.+)", "cli.args.unknown"),
        (r"one of the arguments (?P<names>.+) is required", "cli.args.one_required"),
        (r"argument (?P<option>\S+): expected one argument", "cli.args.needs_value"),
        (
            r"argument (?P<option>\S+): invalid choice: (?P<value>.+) "
            r"\(choose from (?P<choices>.+)\)",
            "cli.args.bad_choice",
        ),
        (
            r"argument (?P<option>\S+): invalid (?P<type>\w+) value: (?P<value>.+)",
            "cli.args.bad_value",
        ),
        (
            r"argument (?P<option>\S+): not allowed with argument (?P<other>.+)",
            "cli.args.exclusive",
        ),
        (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)", "cli.args.ambiguous"),
    )
)


def _argparse_message(message: str, lang: str) -> str:
    """argparse's English sentence in ``lang`` (in English, or one not known here: as is)."""
    if lang == "en":
        return message
    for pattern, message_id in _ARGPARSE_ERRORS:
        found = pattern.fullmatch(message)
        if found is not None:
            return t(message_id, lang, **found.groupdict())
    return message


def _asked_lang(raw: Sequence[str]) -> str:
    """The language of the messages before the options are parsed: --lang, else the environment."""
    asked = None
    for number, arg in enumerate(raw):
        if arg == "--lang" and number + 1 < len(raw):
            asked = raw[number + 1]
        elif arg.startswith("--lang="):
            asked = arg.partition("=")[2]
    try:
        return resolve_lang(asked)
    except ValueError:  # --lang with an unknown language: that is the error being reported
        return resolve_lang(None)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="skynet-check",
        description="Run the Skynet metric contract check on a metric.py file.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "example: skynet-check metric.py --data cases.csv --outputs label "
            "--run run.py:run --artifact prompt.txt\n"
            "         skynet-check metric.py --data cases.csv --outputs label --run run.py:run \\\n"
            "             --artifact-text 'Label the ticket.' --task-model openai/gpt-4o-mini \\\n"
            "             --metric-model openai/gpt-4o --api-base http://localhost:8000/v1\n\n"
            "data: CSV/TSV cells are text, as written; --json-columns parses the named columns'\n"
            "cells as JSON (lists, objects, numbers).\n"
            "models: litellm model strings; API keys are read from the environment as litellm\n"
            "reads them (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...), never from an option, and\n"
            "are never printed. Without the options: SKYNET_TASK_MODEL, SKYNET_METRIC_MODEL,\n"
            "SKYNET_REFLECTION_MODEL.\n\n"
            "exit codes: 0 passed, 1 the contract check failed, 2 usage error (a file that\n"
            "is missing, unreadable or does not load, a bad option, an unknown column, no\n"
            "model configured), 3 no verdict (the process running the check ended before\n"
            "writing its report, e.g. the metric called os._exit() or was killed), 130\n"
            "interrupted (Ctrl-C).\n"
            "The check runs in a child process: prints from the metric or run go to stderr."
        ),
    )
    parser.add_argument("metric", help="the metric file (metric.py) defining score()")
    parser.add_argument("--data", required=True, help="cases: .csv, .tsv, .jsonl, .json, .parquet")
    parser.add_argument("--outputs", help="Output column(s), comma-separated: they form expected")
    parser.add_argument("--inputs", help="input column(s), comma-separated (default: the rest)")
    parser.add_argument(
        "--json-columns",
        metavar="COLS",
        help="column(s) whose cells are JSON, comma-separated (other CSV/TSV cells are text)",
    )
    parser.add_argument("--split", help="use only the rows whose 'split' column is this")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--run", metavar="FILE.py:FUNC", help="outputs from run(artifact, input)")
    source.add_argument("--output-column", metavar="COL", help="outputs already in the data")
    artifact = parser.add_mutually_exclusive_group()
    artifact.add_argument("--artifact", metavar="FILE", help="the artifact passed to run: a file")
    artifact.add_argument(
        "--artifact-text", metavar="TEXT", help="the artifact passed to run, given inline"
    )
    models = parser.add_argument_group(
        "models", "litellm model strings; keys come from the environment, as litellm reads them"
    )
    for role, who in (
        ("task", "llm() inside run(artifact, input)"),
        ("metric", "llm() inside the metric (the judge; default: the reflection model)"),
        ("reflection", "the optimizer's reflection model, and the judge's fallback"),
    ):
        models.add_argument(
            f"--{role}-model",
            metavar="MODEL",
            help=f"{who}, e.g. openai/gpt-4o-mini (default: SKYNET_{role.upper()}_MODEL)",
        )
    models.add_argument(
        "--api-base",
        metavar="URL",
        help="the OpenAI-compatible server those models are asked at (e.g. a local "
        "http://localhost:8000/v1); default: the provider's",
    )
    parser.add_argument(
        "--cases",
        type=int,
        default=None,
        help="how many cases, 1 or more (default: 3; with --all: every case)",
    )
    parser.add_argument("--all", action="store_true", help="evaluate every case, not just 3")
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help=f"the metric's time limit per call, {MIN_TIMEOUT:g}..{MAX_TIMEOUT:g} (default 60)",
    )
    parser.add_argument(
        "--run-timeout",
        type=float,
        default=RUN_TIMEOUT,
        metavar="SECONDS",
        help=f"run(artifact, input)'s time limit per case, {MIN_TIMEOUT:g}..{MAX_RUN_TIMEOUT:g} "
        f"(default {RUN_TIMEOUT:g})",
    )
    parser.add_argument(
        "--load-timeout",
        type=float,
        default=LOAD_TIMEOUT,
        metavar="SECONDS",
        help="the time limit to import the metric file, and the run file, "
        f"{MIN_TIMEOUT:g}..{MAX_LOAD_TIMEOUT:g} (default {LOAD_TIMEOUT:g})",
    )
    parser.add_argument(
        "--isolation",
        choices=("thread", "process"),
        default="thread",
        help="where cases run: 'thread' (default, fast) or 'process' (a case blocked in C "
        "code, such as a hung socket read, can really be stopped at its time limit)",
    )
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the report")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    return parser


class UsageProblem(Exception):
    """A usage error: one sentence naming the option or file; the CLI exits 2."""


def _check_numbers(args: argparse.Namespace, lang: str) -> None:
    """The options' rules (:class:`RunOptions`, as ``check`` applies them), in the CLI's words.

    Checked here, before the child starts, so a bad number is exit 2 with the
    option's name, before any of the user's code is imported.
    """
    try:
        RunOptions.given(
            run=args.run,
            output_column=args.output_column,
            cases=args.cases,
            timeout=args.timeout,
            run_timeout=args.run_timeout,
            isolation=args.isolation,
            lang=lang,
        )
    except OptionError as problem:
        raise UsageProblem(problem.for_cli(lang)) from None
    # Loading the user's files is this command's own limit, on the same kind of range.
    if not within_seconds(args.load_timeout, MIN_TIMEOUT, MAX_LOAD_TIMEOUT):
        raise UsageProblem(
            seconds_problem("--load-timeout", args.load_timeout, lang, MAX_LOAD_TIMEOUT)
        )


def _check_models(args: argparse.Namespace, lang: str) -> None:
    """Model names that are not blank, and an http(s) address for --api-base."""
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


def _models(job: dict[str, Any]) -> Any:
    """The models of this check: the options over the environment, at --api-base if given."""
    from .model_settings import ModelSettings, current_settings

    given = job["models"]
    settings = current_settings(ModelSettings(**{k: v for k, v in given.items() if v}))
    base = job["api_base"]
    if base is None:
        return settings

    def at_base(model: Any) -> Any:
        # A dict model is litellm's completion arguments: the key still comes from the
        # environment (litellm reads it), never from us.
        return {"model": model, "api_base": base} if isinstance(model, str) else model

    return ModelSettings(
        task_model=at_base(settings.task_model),
        metric_model=at_base(settings.metric_model),
        reflection_model=at_base(settings.reflection_model),
    )


def _check_sources(args: argparse.Namespace, lang: str) -> str | None:
    """Read (never run) the metric and run files, and the artifact; the artifact's text.

    Each problem found here is one sentence naming the file: missing, a
    directory, unreadable, not text in its encoding, or a syntax error (with its
    line).  Nothing of the user's code runs in this process.
    """
    from .metric import SourceFileError, read_source

    def compiled(path: Path, role: str) -> None:
        try:
            source = read_source(path)
        except SourceFileError as problem:
            if problem.message_id == "source.missing":
                raise UsageProblem(t(f"cli.no_{role}_file", lang, path=str(path))) from None
            raise UsageProblem(problem.message(lang)) from None
        try:
            compile(source, str(path), "exec", dont_inherit=True)
        except SyntaxError as exc:
            raise UsageProblem(
                t("cli.syntax_error", lang, path=str(path), line=exc.lineno or 0, error=exc.msg)
            ) from None
        except ValueError as exc:  # source with a NUL byte
            raise UsageProblem(t("cli.not_source", lang, path=str(path), error=exc)) from None

    compiled(Path(args.metric), "metric")
    if args.run is not None:
        path_text, _, _ = args.run.rpartition(":") if ":" in args.run else (args.run, "", "")
        compiled(Path(path_text), "run")
    if args.artifact_text is not None:
        return str(args.artifact_text)
    if args.artifact is None:
        return None
    path = Path(args.artifact)
    if not path.exists():
        raise UsageProblem(t("cli.no_artifact_file", lang, path=args.artifact))
    if path.is_dir():
        raise UsageProblem(t("source.directory", lang, path=args.artifact))
    if not path.is_file():  # a pipe or a device: reading it could block
        raise UsageProblem(t("source.not_regular", lang, path=args.artifact))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageProblem(
            t("source.unreadable", lang, path=args.artifact, error=exc.strerror or exc)
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageProblem(
            t(
                "cli.artifact_not_utf8",
                lang,
                path=args.artifact,
                byte=f"0x{data[exc.start]:02x}",
                line=data.count(b"\n", 0, exc.start) + 1,
            )
        ) from None


# --- the parent: validate, start the child, supervise it, print --------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    raw = list(sys.argv[1:] if argv is None else argv)
    parser._raw = raw  # type: ignore[attr-defined]
    args = parser.parse_args(raw)
    lang = resolve_lang(args.lang)
    try:
        _check_numbers(args, lang)
        _check_models(args, lang)
        artifact = _check_sources(args, lang)
    except UsageProblem as problem:
        return _usage(str(problem), args.json)
    job = {
        "metric": args.metric,
        "data": args.data,
        "outputs": args.outputs,
        "inputs": args.inputs,
        "json_columns": args.json_columns,
        "split": args.split,
        "run": args.run,
        "artifact": artifact,
        "output_column": args.output_column,
        "cases": args.cases,
        "all": args.all,
        "timeout": args.timeout,
        "run_timeout": args.run_timeout,
        "isolation": args.isolation,
        "lang": lang,
        "json": args.json,
        "models": {
            "task_model": args.task_model,
            "metric_model": args.metric_model,
            "reflection_model": args.reflection_model,
        },
        "api_base": args.api_base,
        # The report is laid out for this process's stdout: wrapped to its width on a
        # terminal, 0 (not wrapped) for a pipe, a file or --json.
        "width": 0 if args.json else terminal_width() or 0,
    }
    return _supervise(job, args.load_timeout, lang)


def _usage(message: str, as_json: bool) -> int:
    return _no_pass("usage", message, EXIT_USAGE, as_json)


def _no_pass(error: str, message: str, code: int, as_json: bool) -> int:
    """Say why there is no passing report: a sentence on stderr, and the JSON document."""
    _PROGRESS.clear()
    print(f"skynet-check: {message}", file=sys.stderr)
    if as_json:
        _print_json({"passed": False, "error": error, "message": message, "exit_code": code})
    return code


def _print_json(document: dict[str, Any]) -> None:
    print(json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False))


def _supervise(job: dict[str, Any], load_timeout: float, lang: str) -> int:
    """Run the check in a child process; its verdict, or exit 3 if it gave none."""
    global _PROGRESS
    posix = os.name == "posix"
    running = running_title("eval" if job["all"] else "check", lang)
    # On a terminal only (never in a pipe, a file or --json): erased before any output.
    _PROGRESS = ProgressLine(running, lang) if job["width"] else _NO_PROGRESS
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        # The user's prints and our warnings reach the terminal as they happen: straight
        # through, or, under a progress line, passed on by us once the line is erased.
        stderr=subprocess.PIPE if _PROGRESS.active else None,
        # Its own process group: leftovers (a hung worker process) are ended with it.
        process_group=0 if posix else None,
    )
    passing_on = None
    if child.stderr is not None:
        passing_on = threading.Thread(target=_pass_on_stderr, args=(child,), daemon=True)
        passing_on.start()
    _PROGRESS.show()
    messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
    threading.Thread(target=_read_messages, args=(child, messages), daemon=True).start()
    assert child.stdin is not None
    try:
        child.stdin.write(json.dumps(job).encode("utf-8"))
        child.stdin.close()
    except OSError:
        pass  # the child already died: its end is read below
    loading: dict[str, Any] | None = None
    deadline = math.inf
    interrupted = False
    ended = 0.0  # when the child was first seen to have exited
    previous_handlers = _end_with_us()
    try:
        while True:
            try:
                message = messages.get(timeout=max(0.0, min(deadline - time.monotonic(), 1.0)))
            except queue.Empty:
                # Ended without a word, though something it started may hold its channel
                # open (so no end of file comes): past a short grace, that is no verdict.
                if child.poll() is not None:
                    ended = ended or time.monotonic()
                    if time.monotonic() - ended > _GRACE_S:
                        return _no_verdict(child, lang, job["json"])
                if loading is not None and time.monotonic() >= deadline:
                    _end(child)
                    return _usage(
                        t(
                            "cli.load_timeout",
                            lang,
                            path=loading["path"],
                            seconds=f"{load_timeout:g}",
                        ),
                        job["json"],
                    )
                continue
            except KeyboardInterrupt:
                if interrupted:  # a second Ctrl-C: stop now
                    _end(child)
                    stopped = t("cli.interrupted", lang)
                    return _no_pass("interrupted", stopped, EXIT_INTERRUPTED, job["json"])
                interrupted = True  # the first: the child stops and reports what it has
                if child.poll() is None:
                    child.send_signal(signal.SIGINT)
                continue
            if message is None:  # the child closed its channel: it ended
                return _no_verdict(child, lang, job["json"])
            event = message.get("event")
            if event == "loading":
                loading = message
                deadline = time.monotonic() + load_timeout
            elif event == "loaded":
                loading, deadline = None, math.inf
            else:
                _wait_or_end(child)
                if passing_on is not None:  # the child's last words come before the report
                    passing_on.join(timeout=_GRACE_S)
                return _verdict(message, job["json"], lang)
    finally:
        _end(child)
        _restore(previous_handlers)
        _PROGRESS.clear()


class _NoProgress(ProgressLine):
    """Where no progress line is shown: every call does nothing."""

    def __init__(self) -> None:
        super().__init__("", "en", io.StringIO())  # not a terminal: inactive


_NO_PROGRESS = _NoProgress()
_PROGRESS: ProgressLine = _NO_PROGRESS


def _pass_on_stderr(child: subprocess.Popen[bytes]) -> None:
    """Copy the child's stderr to ours, erasing the progress line first (then showing it again)."""
    assert child.stderr is not None
    out = sys.stderr.buffer
    while chunk := child.stderr.read1(65536):  # type: ignore[attr-defined]
        _PROGRESS.clear()
        try:
            out.write(chunk)
            out.flush()
        except (OSError, ValueError):
            continue  # our stderr is gone: keep draining, or the child would block
        if chunk.endswith(b"\n"):
            _PROGRESS.show()


def _read_messages(child: subprocess.Popen[bytes], into: queue.Queue[Any]) -> None:
    assert child.stdout is not None
    for line in child.stdout:
        try:
            into.put(json.loads(line))
        except ValueError:
            continue  # not one of ours (cannot happen: the child's stdout is its stderr)
    into.put(None)


def _verdict(message: dict[str, Any], as_json: bool, lang: str) -> int:
    _PROGRESS.clear()
    event = message["event"]
    if event == "interrupted":
        return _no_pass("interrupted", t("cli.interrupted", lang), EXIT_INTERRUPTED, as_json)
    if event == "usage":
        return _usage(message["message"], as_json)
    if event == "crashed":
        return _no_pass("crashed", message["message"], EXIT_NO_VERDICT, as_json)
    # "done": the report, as text or as the (already strict) JSON document
    if as_json:
        sys.stdout.write(message["output"] + "\n")
    else:
        print(message["output"])
    if message["interrupted"]:
        return EXIT_INTERRUPTED
    return EXIT_PASSED if message["passed"] else EXIT_FAILED


def _no_verdict(child: subprocess.Popen[bytes], lang: str, as_json: bool) -> int:
    code = child.wait()
    if code < 0:
        try:
            how = t("cli.ended_by_signal", lang, signal=signal.Signals(-code).name)
        except ValueError:
            how = t("cli.ended_by_signal", lang, signal=-code)
    else:
        how = t("cli.ended_with_code", lang, code=code)
    return _no_pass("no_verdict", t("cli.no_verdict", lang, how=how), EXIT_NO_VERDICT, as_json)


def _end_with_us() -> dict[int, Any]:
    """On SIGTERM or SIGHUP (a CI job cancelled, a terminal closed), end the child too.

    The child has its own process group, so these signals do not reach it by
    themselves: leaving it running would leave paid model calls running.
    """

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)  # unwinds through _supervise's finally: _end(child)

    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread() or os.name != "posix":
        return previous
    for number in (signal.SIGTERM, signal.SIGHUP):
        previous[number] = signal.signal(number, stop)
    return previous


def _restore(handlers: dict[int, Any]) -> None:
    for number, handler in handlers.items():
        signal.signal(number, handler)


def _wait_or_end(child: subprocess.Popen[bytes]) -> None:
    # Past the grace, _end stops it: its report is in, what it left running is not needed.
    with contextlib.suppress(subprocess.TimeoutExpired):
        child.wait(timeout=_GRACE_S)


def _end(child: subprocess.Popen[bytes]) -> None:
    """Stop the child and anything it started (its process group)."""
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(child.pid, signal.SIGKILL)
    elif child.poll() is None:
        child.kill()
    child.wait()


# --- the child: load the user's code, run the check, send one verdict ----------------


def _child_main() -> None:
    """The child's whole life: its last act is sending one message, then exiting at once."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")  # the verdict goes only here
    os.dup2(2, 1)  # everything else written to stdout, even from C, goes to stderr
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]

    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message, ensure_ascii=True, allow_nan=False) + "\n")
        channel.flush()

    job = json.loads(sys.stdin.read())
    lang = job["lang"]
    parent = os.getppid()
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    try:
        message = _check_in_child(job, send)
    except KeyboardInterrupt:  # Ctrl-C while loading, before the engine could keep cases
        message = {"event": "interrupted"}
    except BaseException as exc:  # our own fault: say so in one line, never a silence
        message = {
            "event": "crashed",
            "message": t("cli.crashed", lang, error=f"{type(exc).__name__}: {exc}"),
        }
    sys.stdout.flush()
    sys.stderr.flush()
    send(message)
    channel.close()
    # At once: threads the check abandoned (a hung metric) must not hold the exit.
    os._exit(0)


def _exit_with_parent(parent: int) -> None:
    """End this child if skynet-check itself ends (even by SIGKILL): no orphan keeps working."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(EXIT_NO_VERDICT)


def _check_in_child(job: dict[str, Any], send: Any) -> dict[str, Any]:
    from .contract import METRIC_LOADS, ContractError
    from .dataset import DataError
    from .engine import check, evaluate
    from .metric import SourceFileError, load_function, load_metric
    from .render import report_text

    lang = job["lang"]
    run = None
    if job["run"] is not None:
        path_text = job["run"].rpartition(":")[0] if ":" in job["run"] else job["run"]
        send({"event": "loading", "path": path_text})
        try:
            run = load_function(job["run"])
        except SourceFileError as problem:
            return _usage_message(problem.message(lang))
        except AttributeError as problem:
            return _usage_message(_no_function(problem, path_text, lang))
        except FileNotFoundError as problem:
            return _usage_message(str(problem))
        except (Exception, SystemExit) as exc:  # sys.exit() at import is a failure to load
            return _usage_message(_load_failure(path_text, exc, lang))
    send({"event": "loading", "path": job["metric"]})
    metric: Any
    try:
        metric = load_metric(Path(job["metric"]))
    except ContractError as problem:
        if problem.step != METRIC_LOADS:  # it loads, but breaks the contract: the report says
            metric = Path(job["metric"])
        else:  # a file that does not load is a usage error naming the file (and the line)
            reason = problem.message(lang)
            if problem.message_id.startswith("loads."):
                reason = t("cli.metric_failed", lang, path=job["metric"], reason=reason)
            return _usage_message(reason)
    send({"event": "loaded"})
    options: dict[str, Any] = dict(
        outputs=job["outputs"],
        inputs=job["inputs"],
        json_columns=job["json_columns"],
        split=job["split"],
        run=run,
        artifact=job["artifact"],
        output_column=job["output_column"],
        timeout=job["timeout"],
        run_timeout=job["run_timeout"],
        isolation=job["isolation"],
        lang=lang,
        models=_models(job),
    )
    report: Any
    try:
        if job["all"]:
            report = evaluate(metric, job["data"], cases=job["cases"], **options)
        else:
            report = check(metric, job["data"], cases=job["cases"] or 3, **options)
    except DataError as problem:
        return _usage_message(problem.message(lang))
    except ValueError as problem:
        return _usage_message(str(problem))
    missing_model = _missing_model(report)
    if missing_model is not None:
        hint = t(f"hint.no_{missing_model}_model", lang)
        return _usage_message(t("cli.no_model", lang, hint=hint, option=f"--{missing_model}-model"))
    if job["json"]:
        output = json.dumps(strict_document(report), ensure_ascii=False, indent=2, allow_nan=False)
    else:  # laid out for the parent's stdout (this process's stdout is a pipe)
        output = report_text(report, width=job.get("width", 0))
    return {
        "event": "done",
        "passed": report.passed,
        "interrupted": report.interrupted,
        "output": output,
    }


def _no_function(problem: AttributeError, path: str, lang: str) -> str:
    """The run file lacks the function named after ':', in ``lang``: what it does define."""
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


def _usage_message(message: str) -> dict[str, Any]:
    return {"event": "usage", "message": message}


def _load_failure(path: str, exc: BaseException, lang: str) -> str:
    """One sentence for a run file that fails to import: the file, the line, the error."""
    import traceback

    if isinstance(exc, SyntaxError):
        return t("cli.syntax_error", lang, path=path, line=exc.lineno or 0, error=exc.msg)
    resolved = str(Path(path).resolve())
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == resolved]
    from ._secrets import redact

    error = redact(f"{type(exc).__name__}: {exc}")
    return t("cli.run_failed", lang, path=path, line=lines[-1] if lines else "?", error=error)


def _missing_model(report: Any) -> str | None:
    """'metric' or 'task' when a case failed because llm() had no model to ask."""
    from .contract import NOT_CONFIGURED

    for case in report.cases:
        for text in (case.traceback, case.error):
            found = NOT_CONFIGURED.search(text or "")
            if found is not None:
                return found["role"]
    return None


def strict_document(report: Any) -> dict[str, Any]:
    """``report.to_dict()`` as strict JSON: no NaN or Infinity.

    Each such value becomes null, and ``non_finite`` maps its place (a JSON
    Pointer) to what it was: ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``.
    """
    document = report.to_dict()
    found: dict[str, str] = {}
    # to_dict already nulls non-finite values inside the cases: find what they were.
    for number, case in enumerate(report.cases):
        for key in ("input", "expected", "output", "scores", "score"):
            _note_non_finite(getattr(case, key, None), f"/cases/{number}/{key}", found)
    document = _replace_non_finite(document, "", found)
    document["non_finite"] = dict(sorted(found.items()))
    return document


def _spelled(value: float) -> str:
    return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")


def _pointer(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _note_non_finite(value: Any, where: str, found: dict[str, str], depth: int = 0) -> None:
    if depth > 100:
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            found[where] = _spelled(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _note_non_finite(item, f"{where}/{_pointer(key)}", found, depth + 1)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _note_non_finite(item, f"{where}/{index}", found, depth + 1)


def _replace_non_finite(value: Any, where: str, found: dict[str, str]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        found[where] = _spelled(value)
        return None
    if isinstance(value, dict):
        return {
            k: _replace_non_finite(v, f"{where}/{_pointer(k)}", found) for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_replace_non_finite(v, f"{where}/{i}", found) for i, v in enumerate(value)]
    return value


if __name__ == "__main__":
    sys.exit(main())
