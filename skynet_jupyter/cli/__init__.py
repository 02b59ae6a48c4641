"""``skynet-check``: the contract check from a terminal, for CI and pre-submit hooks.

Exit codes: 0 the check passed, 1 the contract check failed, 2 a usage error
(a missing or unreadable file, a metric or run file that does not load, an
unknown column, a bad option, no model configured), 3 no verdict: the process
running the check ended before it wrote its report (the metric called
``os._exit``, or was killed), 130 interrupted (Ctrl-C), 141 the reader of stdout
went away (``skynet-check ... | head``): it stops there, quietly, as Unix tools do.

Importing this package imports nothing else: ``main`` imports the rest when it
runs (the exit codes are in :mod:`.exits`).

Modules::

    parse.py      the arguments; argparse's refusals in the user's words
    job.py        every option checked into one Job (its RunOptions) for the child
    sources.py    the user's files read, never run, before the child starts
    each_metric.py  every metric file given, checked one by one; the JUnit file
    supervise.py  the child process: started, watched, limited; the exit code
    child.py      what runs in the child: load the code, run the check, report
    json_out.py   strict JSON for --json (no NaN, no Infinity)
    junit_xml.py  --junit-xml: the report as JUnit XML, as pytest --junitxml writes it
    github_annotations.py  --format github: GitHub Actions ::error / ::warning commands
    exits.py      the exit codes; what is said when there is no passing report
    log_text.py   user text as written to a terminal or a CI log: shown, never obeyed
    history_cmd.py  the run log: skynet-check diff A B, skynet-check history, --against
    __main__.py   ``python -m skynet_jupyter.cli``
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``skynet-check`` with ``argv`` (default: the command line); return the exit code.

    argparse's own ends (``--help``, an argument it refuses) raise ``SystemExit``.
    """
    from ..i18n import language
    from .each_metric import check_each
    from .parse import SUBCOMMANDS, parse

    raw = list(sys.argv[1:] if argv is None else argv)
    if argv is None:  # the command itself: its streams are its own (a caller's are not)
        _escape_what_the_streams_cannot_hold()
    try:
        try:
            if raw and raw[0] in SUBCOMMANDS:  # skynet-check diff A B, skynet-check history
                from .history_cmd import run_subcommand

                return run_subcommand(raw)
            args = parse(raw)
            # The command's language, set once: --lang, else SKYNET_LANG, else the locale.
            with language(args.lang):
                return check_each(args)
        finally:  # here, not at exit (argparse's --help too): a reader gone by then is caught
            sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()


def _escape_what_the_streams_cannot_hold() -> None:
    """A character stdout's or stderr's encoding cannot hold (a CI log or a Windows console
    in cp1252, ``PYTHONIOENCODING=ascii``: a feedback's ✓, the diff's −) is written as an
    escape (``\\u2713``): raised, it lost the report and the exit code to a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # a kernel's stream has none
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # closed, or not a text wrapper after all
                continue


def _reader_gone() -> int:
    """stdout's reader went away (``| head``): stop without a word, as Unix tools do.

    Python's own recipe (the ``signal`` module's notes on SIGPIPE): stdout points at
    devnull, so the flush at exit neither fails nor prints "Exception ignored".
    """
    import os

    from .exits import EXIT_GONE_READER

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is no file (captured): nothing is flushed to one
        pass
    return EXIT_GONE_READER
