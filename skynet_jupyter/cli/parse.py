"""``skynet-check``'s arguments: the argparse parser, and its usage errors in the user's words.

argparse says its refusals in English and exits on its own; here they are said
in the language asked (``--lang``, else the environment), and with ``--json``
still as the one JSON document, with exit code 2.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..core.options import MAX_RUN_TIMEOUT, MAX_TIMEOUT, MIN_TIMEOUT, RUN_TIMEOUT
from ..i18n import LANGUAGES, resolve_lang, t
from .exits import EXIT_USAGE, usage
from .job import LOAD_TIMEOUT, MAX_LOAD_TIMEOUT

__all__ = ["SUBCOMMANDS", "parse", "parse_subcommand"]

SUBCOMMANDS = ("diff", "history")  # skynet-check diff A B, skynet-check history (issue 46)


def parse(raw: Sequence[str]) -> argparse.Namespace:
    """The arguments, or (raising ``SystemExit``) the usage error said, or the help printed."""
    parser = _parser()
    try:
        return parser.parse_args(raw)
    except _Refused as refused:
        message = str(refused)
    _say_refused(parser, message, raw)


class _Refused(Exception):
    """argparse refused the arguments; ``str()`` is its English sentence."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a refusal is raised to :func:`parse` instead of ending the process:
    only ``parse`` knows the arguments, hence the language and whether ``--json`` was asked."""

    def error(self, message: str) -> NoReturn:
        raise _Refused(message)


def _say_refused(parser: argparse.ArgumentParser, message: str, raw: Sequence[str]) -> NoReturn:
    lang = _asked_lang(raw)
    message = _argparse_message(message, lang)
    parser.print_usage(sys.stderr)
    if "--json" in raw:
        sys.exit(usage(message, as_json=True))
    said = t("labelled", lang, label=t("cli.args.error", lang), text=message)  # "erreur : …"
    from .log_text import log_text  # an unknown argument's line break or escape: shown

    parser.exit(EXIT_USAGE, f"{parser.prog}: {log_text(said)}\n")


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
            "interrupted (Ctrl-C), 141 the reader of stdout went away (| head).\n"
            "The check runs in a child process: prints from the metric or run go to stderr.\n\n"
            "CI: --junit-xml PATH writes the report as JUnit XML too; --format github adds\n"
            "GitHub Actions annotations. Several metric files are checked one by one (a\n"
            "pre-commit hook passes the changed ones last); the exit code is the first\n"
            "that is not 0."
        ),
    )
    parser.add_argument(
        "metric",
        nargs="+",
        help="the metric file (metric.py) defining score(); several are checked one by one, "
        "and the command fails if any fails",
    )
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
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="keep the replies of model calls made through llm() in DIR/runs.sqlite and "
        "answer the same requests from there in later runs (default: no cache, every call "
        "is made)",
    )
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the report")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print one JSON document")
    shown.add_argument(
        "--format",
        choices=("text", "github"),
        default="text",
        help="'text' (default): the report; 'github': GitHub Actions annotations "
        "(::error, ::warning) before it",
    )
    parser.add_argument(
        "--junit-xml",
        metavar="PATH",
        help="also write the report as JUnit XML (as pytest --junitxml) to PATH",
    )
    _run_log_options(parser)
    return parser


def _run_log_options(parser: argparse.ArgumentParser) -> None:
    """The run log's options (issue 46): where runs are recorded, and --against."""
    log = parser.add_argument_group(
        "run log", "every check is recorded (default: .skynet_runs here, or SKYNET_RUN_LOG)"
    )
    log.add_argument(
        "--log-dir",
        metavar="DIR",
        help="the run log: a folder or an fsspec URL such as s3://bucket/runs (default: "
        "SKYNET_RUN_LOG, else .skynet_runs in the current folder)",
    )
    log.add_argument("--no-log", action="store_true", help="record nothing in the run log")
    log.add_argument(
        "--against",
        metavar="RUN",
        help="compare with a recorded run: 'last' (the last run of this metric on this data), "
        "'last~1' (the one before) "
        "or a run id; exit 1 when any case regressed (pass -> fail, or a lower score)",
    )
    log.add_argument(
        "--allow-different-data",
        action="store_true",
        help="with --against RUN (or diff): compare the cases shared with a run on other data",
    )


def parse_subcommand(raw: Sequence[str]) -> argparse.Namespace:
    """``skynet-check diff A B`` or ``skynet-check history``: the arguments (``raw[0]`` the
    subcommand), or the usage error said as :func:`parse` says it."""
    parser = _history_parser() if raw[0] == "history" else _diff_parser()
    try:
        return parser.parse_args(raw[1:])
    except _Refused as refused:
        message = str(refused)
    _say_refused(parser, message, raw)


def _log_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--log-dir",
        metavar="DIR",
        help="the run log (default: SKYNET_RUN_LOG, else .skynet_runs in the current folder)",
    )
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the output")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def _diff_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="skynet-check diff",
        description="Compare two recorded runs case by case: regressions first.",
        epilog="example: skynet-check diff last~1 last --metric metric.py\n"
        "exit codes: 0 no case regressed, 1 a case regressed, 2 usage error",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("a", metavar="A", help="a run id (or its start), or last~1")
    parser.add_argument("b", metavar="B", help="a run id (or its start), or last")
    parser.add_argument(
        "--metric", metavar="NAME", help="whose last / last~N (default: the newest run's metric)"
    )
    parser.add_argument(
        "--allow-different-data",
        action="store_true",
        help="compare the cases two runs on different data share",
    )
    _log_dir(parser)
    return parser


def _history_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="skynet-check history",
        description="List the recorded runs, newest first; --prune N keeps each metric's newest N.",
        epilog="example: skynet-check history metric.py --limit 10\n"
        "         skynet-check history --prune 20",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("metric", nargs="?", metavar="NAME", help="only this metric's runs")
    parser.add_argument("--data", metavar="FINGERPRINT", help="only runs on this data")
    parser.add_argument("--limit", type=int, default=50, help="the newest N runs (default 50)")
    parser.add_argument(
        "--prune", metavar="N", type=int, help="remove all but each metric's newest N runs"
    )
    _log_dir(parser)
    return parser
