"""The text report in terminals: wrapped at word boundaries, indented, no progress left behind.

Unit tests lay the report out with ``width=``; the terminal tests run the real
thing in a real terminal: ``skynet-check`` (the installed console script) and
terminal IPython inside a tmux pane 60 columns wide, read back with
``tmux capture-pane``.  A line the terminal itself wrapped at its edge shows
as two lines in ``capture-pane -p`` and as one with ``-J`` (join wrapped
lines): the two captures being equal is the proof that no line reached the
edge, so no word was cut there.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
import uuid
from pathlib import Path

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t
from skynet_jupyter.show.progress_line import ERASE, ProgressLine
from skynet_jupyter.show.render import report_text
from skynet_jupyter.show.terminal_text import fill_parts, terminal_width, wrap_block
from tests.cli_support import cli_env, skynet_check_command
from tests.conftest import EXAMPLES

LONG = "and this sentence is deliberately long so that it must wrap at sixty columns."
METRIC = f"""
def score(input, output, expected=None):
    print("scoring:", input["text"][:20])  # a print while the progress line shows
    want = expected["label"]
    return (1.0 if output == want else 0.0), {{
        "feedback": f"Expected {{want!r}}, got {{output!r}}.\\nThe ticket says: "
        f"{{input['text']!r}} {LONG}"
    }}
"""


def multi_line_score(input, output, expected=None):
    want = expected["label"]
    feedback = f"Expected {want!r}, got {output!r}.\nThe ticket says: {input['text']!r} {LONG}"
    return (1.0 if output == want else 0.0), {"feedback": feedback}


def classify(artifact, input):
    return "billing" if "charge" in input["text"] else "other"


@pytest.fixture
def report(tickets):
    rows = [dict(row) for row in tickets]
    rows[1]["text"] = "The app crashes on start.\nSecond paragraph."
    return sj.check(
        multi_line_score, rows, outputs="label", run=classify, artifact="", cases=3, lang="en"
    )


def words(text: str) -> list[str]:
    return text.split()


# --- laying out the text ----------------------------------------------------------------


@pytest.mark.parametrize("width", [40, 60, 100])
def test_wrapped_to_the_width_and_never_inside_a_word(report, width):
    wrapped = report_text(report, width=width)
    whole = report_text(report, width=0)
    assert max(len(line) for line in wrapped.splitlines()) <= width
    # The same words in the same order: none was cut in two, none lost.
    assert words(wrapped) == words(whole)
    assert len(wrapped.splitlines()) > len(whole.splitlines())


@pytest.mark.parametrize("width", [0, 40, 60, 100])
def test_continuation_lines_hang_under_their_label(report, width):
    lines = report_text(report, width=width).splitlines()
    assert lines[0].startswith("Contract check")
    # Only the headline starts at column 0: every other line belongs to something above it.
    assert all(line.startswith("  ") for line in lines[1:]), "\n".join(lines)
    feedback = " " * 6 + t("col.feedback", "en")[:10]  # "feedback (": the label may wrap too
    assert any(line.startswith(feedback) for line in lines)
    for number, line in enumerate(lines):
        if line.startswith(feedback):
            # The feedback's second line (its own line break, or a wrap) hangs deeper.
            assert lines[number + 1].startswith(" " * 10), lines[number : number + 2]


def test_multi_line_values_are_indented_even_unwrapped(report):
    lines = report_text(report, width=0).splitlines()
    said = [line for line in lines if "The ticket says:" in line]
    assert len(said) == 3
    assert all(line.startswith(" " * 10 + "The ticket says:") for line in said)
    assert all(line.endswith(LONG) for line in said), "a line of its own, not wrapped"
    second = [line for line in lines if line.lstrip().startswith("Second paragraph")]
    assert len(second) == 1 and second[0].startswith(" " * 10 + "Second paragraph.")


def test_off_a_terminal_nothing_is_hard_wrapped(report):
    # pytest captures stdout: not a terminal, so the report is laid out unwrapped.
    assert terminal_width() is None
    assert str(report) == report_text(report) == report_text(report, width=0)


def test_wrap_block_keeps_breaks_and_cuts_only_a_too_long_word():
    assert wrap_block("a b\nc", "> ", "  ", None) == ["> a b", "  c"]
    assert wrap_block("", "  x: ", "    ", 20) == ["  x:"]
    # A word wider than the line is the one thing cut: nothing is lost, lines still fit.
    lines = wrap_block("see https://example.com/a/very/long/path/indeed ok", "", "  ", 24)
    assert all(len(line) <= 24 for line in lines) and len(lines) == 3
    url = "https://example.com/a/very/long/path/indeed"
    assert "".join("".join(lines).split()) == f"see{url}ok"
    assert lines[0].startswith("see ") and lines[-1].endswith(" ok")
    # "case-insensitive" is one word: never broken at its hyphen.
    assert "case-insensitive" in words(
        "\n".join(wrap_block("x " * 8 + "case-insensitive", "", "", 20))
    )


def test_fill_parts_never_splits_a_part():
    parts = ["✓ case 12", "score 0.5", "run 12.0 ms", "metric 3.1 ms", "cost $0.0012"]
    lines = fill_parts(parts, "  ", "      ", 30)
    assert fill_parts(parts, "  ", "      ", 34)[1] == "      run 12.0 ms  metric 3.1 ms"
    assert lines == [
        "  ✓ case 12  score 0.5",
        "      run 12.0 ms",
        "      metric 3.1 ms",
        "      cost $0.0012",
    ]
    assert fill_parts(parts, "  ", "      ", None) == ["  " + "  ".join(parts)]


# --- the progress line --------------------------------------------------------------------


def test_progress_line_is_never_written_off_a_terminal(tmp_path):
    with open(tmp_path / "out.txt", "w") as file:
        line = ProgressLine("Running the contract check…", "en", file)
        line.show()
        line.on_event(type("E", (), {"done": 1, "total": 3})())
        line.clear()
    assert (tmp_path / "out.txt").read_text() == ""
    assert not line.active


def read_all(master: int) -> str:
    """What the terminal received: read until nothing more comes for a moment."""
    received = b""
    while select.select([master], [], [], 1.0)[0]:
        chunk = os.read(master, 4096)
        if not chunk:
            break
        received += chunk
    return received.decode("utf-8")


def test_progress_line_is_rewritten_and_erased_on_a_terminal():
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 30, 0, 0))
    try:
        with os.fdopen(slave, "w", encoding="utf-8", closefd=False) as stream:
            line = ProgressLine("Running the contract check…", "en", stream)
            assert line.width == 30
            line.show()
            line.on_event(type("E", (), {"done": 3, "total": 3})())
            line.clear()
            line.clear()  # erased once: nothing more to erase
        written = read_all(master)
    finally:
        os.close(master)
        os.close(slave)
    # One row, cut to fit (a wrapped note could not be erased), then erased.
    title = "Running the contract check…"
    cut = (title + " 3 of 3 cases")[:28] + "…"
    assert written == ERASE + title + ERASE + cut + ERASE, repr(written)


# --- real terminals -----------------------------------------------------------------------

TMUX = shutil.which("tmux")
# Skipped without tmux on a developer's machine; under CI (which installs it) a missing
# tmux is a broken setup, so the tests run and fail rather than vanish.
needs_tmux = pytest.mark.skipif(
    TMUX is None and not os.environ.get("CI"),
    reason="tmux is not installed (apt-get install tmux)",
)
COLUMNS = 60
DONE = "__EXIT__"
CASE_HEAD = re.compile(r"  \S case \d+  score ")


class Pane:
    """A tmux pane of COLUMNS columns on a private tmux server (ended afterwards)."""

    def __init__(self, command: str, cwd: Path) -> None:
        self.socket = f"skynet-test-{uuid.uuid4().hex[:12]}"
        # skynet-check's environment rule (tests/cli_support.py), in a terminal of its own
        self.env = cli_env({"TERM": "xterm-256color"}, unset=("COLUMNS", "LINES", "TMUX"))
        self.tmux("new-session", "-d", "-x", str(COLUMNS), "-y", "200", "-c", str(cwd), command)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [TMUX, "-L", self.socket, *args], capture_output=True, text=True, env=self.env
        )
        return done.stdout

    def capture(self, joined: bool = False) -> str:
        return self.tmux("capture-pane", "-p", *(["-J"] if joined else []), "-S", "-", "-E", "-")

    def wait_for(self, pattern: str, timeout: float = 120.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.capture()
            if re.search(pattern, shown):
                return shown
            time.sleep(0.3)
        raise AssertionError(f"{pattern!r} never showed; the pane:\n{self.capture()}")

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def terminal_files(tmp_path):
    (tmp_path / "metric.py").write_text(METRIC, encoding="utf-8")
    (tmp_path / "broken.py").write_text(
        "def score(input, output, expected=None):\n    return 0.8\n"
    )
    return tmp_path


def check_command(*extra: str) -> str:
    args = [
        *skynet_check_command("script"),
        "metric.py",
        "--data",
        str(EXAMPLES / "tickets.csv"),
        "--outputs",
        "label",
        "--run",
        f"{EXAMPLES / 'classify.py'}:run",
        "--artifact",
        str(EXAMPLES / "prompt.txt"),
        "--cases",
        "10",
        *extra,
    ]
    return " ".join(f"'{arg}'" if " " in arg else arg for arg in args)


def assert_laid_out(shown: str, joined: str) -> list[str]:
    """The report as a person sees it: no line wrapped by the terminal, words whole, indented."""
    lines = [line.rstrip() for line in shown.splitlines()]
    joined_lines = [line.rstrip() for line in joined.splitlines()]
    assert lines == joined_lines, "the terminal wrapped a line at its edge (cutting a word)"
    assert max(len(line) for line in lines) <= COLUMNS
    start = next(n for n, line in enumerate(lines) if line.startswith("Contract check"))
    report = lines[start:]
    end = next(
        (n for n, line in enumerate(report) if DONE in line or line.startswith("In [")), None
    )
    report = [line for line in report[:end] if line]
    assert all(line.startswith("  ") for line in report[1:]), "\n".join(report)
    text = "\n".join(report)
    assert "Running the contract check" not in shown
    # The metric's prints start at column 0: the progress line was erased before each.
    printed = [line for line in lines if "scoring:" in line]
    assert len(printed) == 10 and all(line.startswith("scoring: ") for line in printed)
    # The long feedback sentence is there, word for word, wrapped and hanging.
    assert LONG in " ".join(words(text))
    said = [n for n, line in enumerate(report) if "The ticket says:" in line]
    assert len(said) == 10 and all(report[n].startswith(" " * 10) for n in said)
    assert any(len(line) > COLUMNS - 12 for line in report), "lines fill the width"
    return report


@needs_tmux
def test_skynet_check_in_a_60_column_terminal(terminal_files):
    pane = Pane(f"{check_command()}; echo {DONE} $?; sleep 600", terminal_files)
    try:
        pane.wait_for(rf"{DONE} \d+")
        shown, joined = pane.capture(), pane.capture(joined=True)
    finally:
        pane.close()
    assert f"{DONE} 0" in shown
    report = assert_laid_out(shown, joined)
    assert sum(bool(CASE_HEAD.match(line)) for line in report) == 10


@needs_tmux
def test_skynet_check_to_a_file_or_json_has_no_progress_line(terminal_files):
    command = (
        f"{check_command()} > out.txt; {check_command('--json')} > out.json; "
        f"echo {DONE} $?; sleep 600"
    )
    pane = Pane(command, terminal_files)
    try:
        pane.wait_for(rf"{DONE} \d+")
    finally:
        pane.close()
    text = (terminal_files / "out.txt").read_text(encoding="utf-8")
    document = (terminal_files / "out.json").read_text(encoding="utf-8")
    for written in (text, document):
        assert "\x1b" not in written and "\r" not in written
        assert "Running the contract check" not in written
    assert document.lstrip().startswith("{")
    # Not a terminal: not hard-wrapped, and the feedback's second line still hangs.
    lines = text.splitlines()
    assert lines[0].startswith("Contract check passed")
    said = [line for line in lines if "The ticket says:" in line]
    assert len(said) == 10 and all(
        line.startswith(" " * 10) and line.endswith(LONG) for line in said
    )


@needs_tmux
def test_terminal_ipython_in_a_60_column_terminal(terminal_files):
    setup = terminal_files / "setup.py"
    setup.write_text(
        "import importlib.util\n"
        "import pandas as pd\n"
        "import skynet_jupyter as sj\n"
        "tickets = pd.read_csv(sj.load_example('tickets'))\n"
        f"spec = importlib.util.spec_from_file_location('c', {str(EXAMPLES / 'classify.py')!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "classify = module.run\n"
        f"prompt = open({str(EXAMPLES / 'prompt.txt')!r}).read()\n"
        "A = '--data tickets --outputs label --run classify --artifact prompt --cases 10'\n"
        "B = '--metric broken --data tickets --outputs label --run classify --artifact prompt'\n",
        encoding="utf-8",
    )
    ipython = (
        f"{sys.executable} -m IPython --no-banner --colors=NoColor --no-confirm-exit "
        "--HistoryManager.enabled=False --TerminalInteractiveShell.simple_prompt=False"
    )
    pane = Pane(ipython, terminal_files)
    try:
        pane.wait_for(r"In \[1\]", timeout=60)
        for line in (
            "%load_ext skynet_jupyter",
            "%run -i setup.py",
            "%skynet_metric --load metric.py",
        ):
            pane.tmux("send-keys", "-t", "0", "-l", line)
            pane.tmux("send-keys", "-t", "0", "Enter")
        pane.wait_for(r"In \[4\]", timeout=60)
        pane.tmux("send-keys", "-t", "0", "-l", "get_ipython().run_line_magic('skynet_check', A)")
        pane.tmux("send-keys", "-t", "0", "Enter")
        pane.wait_for(r"In \[5\]", timeout=120)
        shown, joined = pane.capture(), pane.capture(joined=True)
        # A failed check stops the cell: its report is printed first, then the error.
        for line in (
            "%skynet_metric --load broken.py broken",
            "get_ipython().run_line_magic('skynet_check', B)",
        ):
            pane.tmux("send-keys", "-t", "0", "-l", line)
            pane.tmux("send-keys", "-t", "0", "Enter")
        failed = pane.wait_for(r"In \[7\]", timeout=120)
    finally:
        pane.close()
    assert "Out[4]" in shown
    report = assert_laid_out(shown, joined)
    assert sum(bool(CASE_HEAD.match(line)) for line in report) == 10
    after = " ".join(failed[failed.index("In [6]") :].split())  # words, whatever the wrapping
    assert "Running the contract check" not in after
    headline = after.index(t("report.check_failed", "en"))
    error = after.index("CheckFailed: " + t("report.check_failed", "en"))
    assert headline < after.index("score returned only a number") < error
