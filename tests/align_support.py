"""What the judge-alignment tests share: replies labelled by people who follow one rule the
judge's instructions miss, a stand-in judge that follows the rules written in its
instructions, and a stand-in reflection model that writes a rule from the disagreements
it reads (it keeps every prompt it was sent, to be read back)."""

from __future__ import annotations

import re
from typing import Any

import skynet_jupyter as sj

# The judge's instructions name its rules; the humans also fail a reply that asks for the
# password, which the instructions miss.
JUDGE_METRIC = '''from skynet import llm

JUDGE = """You review a support agent's reply to a customer. Answer PASS or FAIL, then say why.
- FAIL if the reply contains "obviously".
- FAIL if the reply contains "read the faq".
"""

OTHER_TEXT = "not the instructions"


def score(input, output, expected=None):
    verdict = llm(JUDGE, input={"question": input["question"], "reply": output})
    passed = str(verdict).strip().upper().startswith("PASS")
    return (1.0 if passed else 0.0), {"feedback": str(verdict)}
'''

RULE = re.compile(r'FAIL if the reply contains "([^"]+)"')


def follow_rules(instructions: str, input: Any) -> str:
    """The stand-in judge: FAIL when the reply contains a phrase a rule names, else PASS."""
    reply = str(input["reply"]).lower()
    for phrase in RULE.findall(instructions):
        if phrase.lower() in reply:
            return f'FAIL. The reply contains "{phrase}".'
    return "PASS. The reply breaks none of my rules."


# A disagreement as the reflection model reads it: the judge passed what a human failed,
# and the human said why, quoting the phrase.
MISSED = re.compile(r"where the human said fail\..*?The human's reason: [^\n]*?\"([^\"]+)\"", re.S)


class RuleWriter:
    """The stand-in reflection model: adds a rule for each phrase the humans' reasons quote."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, instructions: str, _input: Any = None) -> str:
        self.prompts.append(instructions)
        current = instructions.split("```", 2)[1].strip("\n")
        rules = [line for line in current.splitlines()]
        for phrase in MISSED.findall(instructions):
            rule = f'- FAIL if the reply contains "{phrase.lower()}".'
            if rule not in rules:
                rules.append(rule)
        return "```\n" + "\n".join(rules) + "\n```"


GOOD = [
    ("How do I export my data?", "Open Settings, then Export: you get a CSV of all your data."),
    ("Can I change my plan?", "Yes: go to Billing and pick the new plan; it applies at once."),
    ("Where is my invoice?", "Invoices are under Billing > History; I have also emailed it."),
    ("Is there a dark mode?", "Yes, under Settings > Appearance you can switch to dark mode."),
    ("Can I add a teammate?", "Sure: Settings > Team > Invite, then enter their email."),
    ("Why is the app slow?", "We fixed a slow sync today; please update to version 4.2."),
    ("Do you offer refunds?", "Yes, within 30 days; I have started the refund for you."),
    ("How do I delete my account?", "Settings > Account > Delete; it takes effect in 7 days."),
    ("Can I pay yearly?", "Yes, yearly billing saves 20%; switch it under Billing."),
    ("Is my data backed up?", "Yes, we back up every night and keep 30 days of copies."),
    ("How do I reset my password?", "Click 'Forgot password' on the login page for a link."),
    ("Can I use it offline?", "The mobile app works offline and syncs when you reconnect."),
]
RUDE = [
    ("How do I log out?", "Obviously, the button is at the top right."),
    ("Where are the docs?", "Read the FAQ before writing to us."),
    ("Can I rename a project?", "Obviously you can: right-click it."),
    ("Why did my upload fail?", "Read the FAQ, it is all there."),
]
PASSWORD = [
    ("Why can't I log in?", "Send me your password and I will check your account."),
    ("My sync stopped.", "Reply with your password so I can look at the sync."),
    ("I was charged twice.", "To check the charge I need your password, please."),
    ("The app crashes on start.", "Tell me your password and I will reproduce the crash."),
    ("I lost my files.", "Give me your password and I will restore the files."),
    ("Can you move my data?", "Sure, just send your password and I will move it."),
]
PASSWORD_REASON = 'Never ask for "your password": support never needs it.'


def replies(*, with_reasons: bool = True) -> list[dict[str, Any]]:
    """22 labelled replies: good ones pass; rude ones and password requests fail."""
    rows = []
    for question, reply in GOOD:
        rows.append({"question": question, "reply": reply, "human": "pass", "why": "Helpful."})
    for question, reply in RUDE:
        rows.append({"question": question, "reply": reply, "human": "fail", "why": "Rude."})
    for question, reply in PASSWORD:
        rows.append({"question": question, "reply": reply, "human": "fail", "why": PASSWORD_REASON})
    order = [(i * 7) % len(rows) for i in range(len(rows))]  # mixed, the same every time
    mixed = [rows[i] for i in order]
    if not with_reasons:
        for row in mixed:
            del row["why"]
    return mixed


def judge_model() -> sj.StandInModel:
    return sj.StandInModel(follow_rules, name="rule-following judge")


# --- A scripted judge: how it answers each case is written down per version of its text ---

# The instructions carry their version ("Version 0." first); each proposal is the next one.
SCRIPTED_METRIC = """from skynet import llm

JUDGE = "Answer PASS or FAIL. Version 0."


def score(input, output, expected=None):
    verdict = str(llm(JUDGE, input={"reply": output}))
    word = verdict.split(".")[0].strip().upper()
    if word not in ("PASS", "FAIL"):
        raise ValueError("The judge's reply is neither PASS nor FAIL: " + verdict)
    return (PASS_SCORE if word == "PASS" else 0.0), {"feedback": verdict}


PASS_SCORE = 1.0
"""

VERSION = re.compile(r"Version (\d+)\.")
CASE_MARK = re.compile(r"reply #(\d+):")
BEHAVIOURS = ("right", "wrong", "raising", "unparsable")


def scripted_rows(humans: list[str]) -> list[dict[str, Any]]:
    """One row per label; each reply names its case ("reply #7:"), so a prompt shows it."""
    return [{"reply": f"reply #{i}: a reply", "human": label} for i, label in enumerate(humans)]


class ScriptedJudge:
    """The stand-in judge: version ``v`` of the instructions answers case ``c`` as
    ``behave(v, c)`` says: right, wrong, raising (the call fails) or unparsable (a reply
    the metric cannot read, so it raises).  ``calls`` lists each (version, case) judged."""

    def __init__(self, humans: list[str], behave: Any) -> None:
        self.humans = humans
        self.behave = behave
        self.calls: list[tuple[int, int]] = []

    def __call__(self, instructions: str, input: Any = None) -> str:
        found = VERSION.search(instructions)
        version = int(found.group(1)) if found else -1
        mark = CASE_MARK.search(str(input["reply"]))
        assert mark is not None
        case = int(mark.group(1))
        self.calls.append((version, case))
        how = self.behave(version, case)
        human = self.humans[case]
        if how == "right":
            return f"{human.upper()}. As the human would say."
        if how == "wrong":
            return f"{'FAIL' if human == 'pass' else 'PASS'}. Not what the human would say."
        if how == "unparsable":
            return "Hmm, it is hard to say."
        raise RuntimeError("the judge's connection broke")


class NextVersion:
    """The stand-in reflection model: proposes the next version of the instructions, and
    keeps every prompt it was sent."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, prompt: str, _input: Any = None) -> str:
        self.prompts.append(prompt)
        current = prompt.split("```", 2)[1]
        found = VERSION.search(current)
        version = int(found.group(1)) if found else 0
        return f"```\nAnswer PASS or FAIL. Version {version + 1}.\n```"


def scripted_align(
    humans: list[str], behave: Any, metric: str = SCRIPTED_METRIC, **options: Any
) -> tuple[sj.AlignReport, ScriptedJudge, NextVersion]:
    """``sj.align`` of the scripted judge on ``humans``' labels (budget 60 unless given)."""
    judge, writer = ScriptedJudge(humans, behave), NextVersion()
    settings: dict[str, Any] = dict(
        labels="human",
        output_column="reply",
        reflection_model=sj.StandInModel(writer, name="next version"),
        budget=60,
        models=sj.ModelSettings(metric_model=sj.StandInModel(judge, name="scripted judge")),
    )
    settings.update(options)
    report = sj.align(metric, scripted_rows(humans), **settings)
    return report, judge, writer


def split_positions(count: int, val: Any, seed: int) -> tuple[list[int], list[int]]:
    """(training, held-out) positions of ``count`` cases, as align splits them."""
    from skynet_jupyter.optimizers.optimize import split_cases

    train, held = split_cases(list(range(count)), val, seed)  # type: ignore[arg-type]
    return list(train), list(held)
