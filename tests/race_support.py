"""The race's shared set-up: the shipped tickets, a weak seed prompt, two metrics with the
same scores and different feedback, and a stand-in reflection model that can only use
what the feedback says (tutorial 10's, and its tests')."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

import skynet_jupyter as sj

WEAK_PROMPT = "billing: charge, invoice\ntechnical: crash, error"

INFORMATIVE = """
LOOKS_LIKE = {
    "billing": "about money, with words such as charge, refund, pay, price, card, bill, "
    "receipt, discount, plan",
    "technical": "about something broken, with words such as crash, fail, slow, sync, upload, "
    "export, search, notification, password, api",
    "other": "about neither",
}


def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {
        "feedback": f"Expected {want!r}, got {output!r}. A {want} message is {LOOKS_LIKE[want]}."
    }
"""

TERSE = """
def score(input, output, expected=None):
    if output == expected["label"]:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": "Wrong."}
"""

QUOTING = """
def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    said = f"Expected {want!r}, got {output!r}. The message was: {input['text']!r}"
    return 0.0, {"feedback": said}
"""

# The feedback the stand-in can use: the expected label and the words that mean it, or
# the message itself (then it takes two of its longer words, as tutorial 08's does).
TEACHES = re.compile(r"Expected '(\w+)'.*?such as ([a-z ,]+)\.")
QUOTED = re.compile(r"Expected '(\w+)', got '\w+'\. The message was: '([^']*)'")
_STOP_WORDS = (
    "the a an my i is are was for of to on in it with and when every this that do you "
    "can your me but as at from how why what who not no does did after since even"
)
COMMON = frozenset(_STOP_WORDS.split(" "))


class FeedbackReader:
    """A reflection model that adds to a label's line the words the feedback lists for it
    (three per proposal), and records every prompt it read."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, instructions: str, _input: Any = None) -> str:
        self.prompts.append(instructions)
        current = instructions.split("```", 2)[1].strip("\n")
        rules: dict[str, list[str]] = {}
        for line in current.splitlines():
            label, _, words = line.partition(":")
            rules[label.strip()] = [w.strip() for w in words.split(",") if w.strip()]
        for want, words in TEACHES.findall(instructions):
            known = rules.setdefault(want, [])
            new = [w.strip() for w in words.split(",") if w.strip() and w.strip() not in known]
            known += new[:3]
        for want, message in QUOTED.findall(instructions):
            known = rules.setdefault(want, [])
            words = re.findall(r"[a-z]+", message.lower())
            new = [w for w in words if w not in COMMON and len(w) > 3 and w not in known]
            known += new[:2]
        lines = [f"{label}: {', '.join(w)}" for label, w in rules.items() if label != "other"]
        return "```\n" + "\n".join(lines) + "\n```"


def tickets() -> pd.DataFrame:
    return pd.read_csv(sj.load_example("tickets"))
