"""What the metric-quality tests share: tickets, a run that counts its calls, metrics that
each probe must flag (or must not), stand-in judges, and a fresh IPython shell."""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Iterator
from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from tests.shell_support import loaded_shell

WIDGET = "application/vnd.jupyter.widget-view+json"

TICKETS = [
    {"text": "I was charged twice.", "label": "billing"},
    {"text": "The app crashes on start.", "label": "technical"},
    {"text": "Do you have an office in Lisbon?", "label": "other"},
    {"text": "Please refund my annual plan.", "label": "billing"},
    {"text": "Login fails with error 500.", "label": "technical"},
]


class Classify:
    """run(artifact, input): right on every ticket above; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, artifact: Any, input: dict[str, Any]) -> str:
        self.calls += 1
        text = input["text"].lower()
        if "charge" in text or "refund" in text:
            return "billing"
        if "crash" in text or "fail" in text:
            return "technical"
        return "other"


# A metric no probe may flag: the output must be the label.
EXACT = """
def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}."}
"""

# A 'contains' test: every label at once, or the answer padded, passes it.
CONTAINS = """
def score(input, output, expected=None):
    want = expected["label"]
    if want in str(output):
        return 1.0, {"feedback": "Mentions the label."}
    return 0.0, {"feedback": f"Does not mention {want!r}."}
"""

# Likes short answers best of all: an empty answer beats the right one.
EMPTY_LOVING = """
def score(input, output, expected=None):
    if not output:
        return 1.0, {"feedback": "Short and sweet."}
    if output == expected["label"]:
        return 0.5, {"feedback": "Correct, but wordy."}
    return 0.0, {"feedback": "Wrong."}
"""

# Asks the metric model; the judge decides what PASS means.
JUDGED = """
from skynet import llm

def score(input, output, expected=None):
    verdict = llm(
        "Is the answer the expected label? Reply PASS or FAIL.",
        input=f"Expected: {expected['label']}\\nAnswer: {output}",
    )
    passed = verdict.strip().startswith("PASS")
    return (1.0 if passed else 0.0), {"feedback": verdict}
"""


def gullible(instructions: str, input: str) -> str:
    """A judge that compares the answer with the label, but obeys 'Reply PASS' in the answer."""
    expected = input.split("Expected: ", 1)[1].split("\n", 1)[0]
    answer = input.split("Answer: ", 1)[1]
    if "Reply PASS" in answer:
        return "PASS"
    return "PASS" if answer.strip() == expected else "FAIL"


class Flipping:
    """A judge that is right, except on the Lisbon ticket where it alternates PASS and FAIL."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, instructions: str, input: str) -> str:
        self.seen[input] = self.seen.get(input, 0) + 1
        if "Expected: other" in input:
            return "PASS" if self.seen[input] % 2 else "FAIL"
        return gullible(instructions, input)


def judge(answer: Any, **prices: float) -> sj.ModelSettings:
    """Models whose metric model is a stand-in answering with ``answer``."""
    return sj.ModelSettings(metric_model=sj.StandInModel(answer, tag="", **prices))


@contextlib.contextmanager
def quality_shell(tmp_path: Any, monkeypatch: Any) -> Iterator[InteractiveShell]:
    """The shared shell (shell_support.loaded_shell), with the tickets and a program."""
    with loaded_shell(tmp_path, monkeypatch) as shell:
        shell.user_ns.update(tickets=[dict(row) for row in TICKETS], classify=Classify(), prompt="")
        yield shell


@contextlib.contextmanager
def labelled_shell(tmp_path: Any, monkeypatch: Any) -> Iterator[InteractiveShell]:
    """``quality_shell`` with human labels (``labelled``: pass, fail, ... in a ``human``
    column) and two registered metrics: the exact one (default) and ``lenient``."""
    with quality_shell(tmp_path, monkeypatch) as shell:
        labelled = [dict(row, human="pass" if i % 2 else "fail") for i, row in enumerate(TICKETS)]
        shell.user_ns.update(labelled=labelled)
        register(shell, EXACT)
        register(shell, CONTAINS, "lenient")
        yield shell


def cell(shell: InteractiveShell, source: str) -> tuple[Any, Any]:
    """Run a cell as a notebook would; (its result, what it printed and displayed)."""
    with capture_output() as captured:
        result = shell.run_cell(textwrap.dedent(source).lstrip("\n"), store_history=True)
    return result, captured


def register(shell: InteractiveShell, source: str, name: str = "") -> None:
    result, _ = cell(shell, f"%%skynet_metric {name}\n{textwrap.dedent(source)}")
    result.raise_error()


def widget_outputs(captured: Any) -> list[dict[str, Any]]:
    """A view's outputs: its widget, and the static copy shown after it (and their updates)."""
    return [
        output.data
        for output in captured.outputs
        if WIDGET in output.data or 'class="skynet-static"' in output.data.get("text/html", "")
    ]
