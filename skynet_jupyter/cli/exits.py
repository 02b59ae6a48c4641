"""``skynet-check``'s exit codes, and what it says when there is no passing report.

0 the check passed, 1 the contract check failed, 2 a usage error, 3 no
verdict (the process running the check ended before it wrote its report),
130 interrupted (Ctrl-C), 141 the reader of stdout went away (``| head``).
"""

from __future__ import annotations

import sys

from .json_out import print_json

__all__ = [
    "EXIT_FAILED",
    "EXIT_GONE_READER",
    "EXIT_INTERRUPTED",
    "EXIT_NO_VERDICT",
    "EXIT_PASSED",
    "EXIT_USAGE",
    "UsageProblem",
    "no_pass",
    "usage",
]

EXIT_PASSED, EXIT_FAILED, EXIT_USAGE, EXIT_NO_VERDICT = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # the shell's code for a Ctrl-C
# 128 + SIGPIPE: what a shell reports for a Unix tool whose reader closed the pipe
# (``| head``). Not 0: what was left unchecked did not pass; not 1: nothing failed.
EXIT_GONE_READER = 141


class UsageProblem(Exception):
    """A usage error: one sentence naming the option or file; the CLI exits 2.

    ``file`` and ``line``: where the problem is, when it is in a file (a syntax
    error), for ``--format github``'s annotation.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.line = line


def usage(message: str, as_json: bool) -> int:
    """A usage error: its sentence (and with ``--json`` its document); exit 2."""
    return no_pass("usage", message, EXIT_USAGE, as_json)


def no_pass(error: str, message: str, code: int, as_json: bool) -> int:
    """Say why there is no passing report: a sentence on stderr, and the JSON document."""
    from .log_text import log_text

    print(f"skynet-check: {log_text(message)}", file=sys.stderr)
    if as_json:
        print_json({"passed": False, "error": error, "message": message, "exit_code": code})
    return code
