"""The project the in-process CLI tests work in, and the helpers several of their files use.

Shared by ``tests/cli/test_in_process_*.py`` (split by the module of ``skynet_jupyter/cli``
each tests); the ``project`` fixture that writes these files is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import pytest

from skynet_jupyter.cli import (
    exits,
    main,
    parse,
    sources,
)

GOOD = """\
def score(input, output, expected=None):
    right = output == expected["label"]
    feedback = "Right." if right else f"Wrong: the label is {expected['label']}, not {output}."
    return float(right), {"feedback": feedback}
"""

# Case 1 ("bye") raises on line 4; the others score 1 with the same feedback.
FAILING = """\
def score(input, output, expected=None):
    text = input["text"]
    if text == "bye":
        raise KeyError("missing")
    return 1.0, {"feedback": "ok"}
"""

# score takes one argument: the signature step fails, no case runs.
ONE_ARGUMENT = """\
import os


def score(input):
    return 1.0
"""

# The process running the check ends in the middle of it.
EXITS = "import os\n\n\ndef score(input, output, expected=None):\n    os._exit(0)\n"

KILLED = "import os\n\n\ndef score(input, output, expected=None):\n    os.kill(os.getpid(), 9)\n"

SLOW_IMPORT = (
    "import time\n\ntime.sleep(30)\n\n\ndef score(input, output, expected=None):\n    return 1.0\n"
)

CASES = "text,label,prediction\nhello,greeting,greeting\nbye,farewell,other\nyo,greeting,greeting\n"

RUN = """\
def helper():
    return "greeting"


def run(artifact, case_input):
    return artifact.strip() if case_input["text"] == "bye" else helper()
"""

# The column mode: no run function, the outputs are in the data.
COLUMN = ("--data", "cases.csv", "--outputs", "label", "--output-column", "prediction")


def cli(*args: object) -> int:
    return main([str(arg) for arg in args])


def words(text: str) -> str:
    """``text`` with its runs of white space as one space (argparse wraps its help)."""
    return " ".join(text.split())


def ctrl_c_once_there(marker: Path, times: int = 1) -> None:
    """Once ``marker`` exists (the child reached the point to interrupt), Ctrl-C ``times``
    times: SIGINT to the main thread, as a terminal's Ctrl-C lands (it wakes a blocked wait)."""

    def press() -> None:
        for _ in range(600):
            if marker.exists():
                break
            threading.Event().wait(0.05)
        for _ in range(times):
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            threading.Event().wait(0.5)

    threading.Thread(target=press, daemon=True).start()


def read(*args: object, lang: str = "en") -> str | None:
    parsed = parse.parse([str(arg) for arg in args])
    return sources.read_sources(parsed, parsed.metric[0], lang)


def read_refused(*args: object, lang: str = "en") -> exits.UsageProblem:
    with pytest.raises(exits.UsageProblem) as problem:
        read(*args, lang=lang)
    return problem.value


def report_of(metric: str, lang: str = "en", **given: object):
    """The report of a check run in this process (no child): what the child would send."""
    from skynet_jupyter.run.engine import check

    options = {"outputs": "label", "output_column": "prediction", **given}
    return check(metric, "cases.csv", lang=lang, **options)
