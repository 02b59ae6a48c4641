"""The optimizer's live view in a real JupyterLab, in real Chromium (marked ``browser``).

A notebook registers the ticket metric and runs ``%skynet_optimize`` with a
stand-in reflection model that proposes from the feedback.  The test sees the
view update while GEPA runs (a candidate's score under a "running" title),
then reads the finished view against the report's numbers: one row per
candidate with its score, the best marked, each proposal with the feedback
records the reflection model read and a word diff; proves that hostile
text in the feedback shows as text; and measures the text contrast of the
view in JupyterLab Dark.  The screenshot goes to a temporary path;
to refresh the README's picture, run::

    SKYNET_OPTIMIZE_SCREENSHOT=docs/optimize.png \\
        python -m pytest tests/notebook/browser/test_optimize_view.py -m browser -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.browser_support import (
    ROOT,
    chromium_page,
    low_contrast_in_dark,
    require_browser,
    running_lab,
    wait_kernel_idle,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = '<img src=x onerror="window.__pwned=1">'
VIEW = ".skynet-optimize-view"

SETUP = r"""
import re
import time

import skynet_jupyter as sj

tickets = [
    {"text": "I was charged twice for my subscription.", "label": "billing"},
    {"text": "Please refund my annual plan.", "label": "billing"},
    {"text": "I need a refund for the duplicate payment.", "label": "billing"},
    {"text": 'My invoice shows <img src=x onerror="window.__pwned=1"> as the logo.',
     "label": "billing"},
    {"text": "The payment page times out.", "label": "billing"},
    {"text": "Where is my refund?", "label": "billing"},
    {"text": "The app crashes on start.", "label": "technical"},
    {"text": "Sync fails with an error.", "label": "technical"},
    {"text": "The export crashes every time.", "label": "technical"},
    {"text": "Login fails since Monday.", "label": "technical"},
    {"text": "The editor crashes on save.", "label": "technical"},
    {"text": "Do you have an office in Lisbon?", "label": "other"},
    {"text": "What are your support hours?", "label": "other"},
    {"text": "Can I bring my dog?", "label": "other"},
]
seed_prompt = "billing: charged\ntechnical: error"


def classify(prompt, input):
    time.sleep(0.25)  # slow enough to watch the view move
    text = input["text"].lower()
    for line in prompt.splitlines():
        label, _, words = line.partition(":")
        if any(w.strip() and w.strip() in text for w in words.split(",")):
            return label.strip()
    return "other"


KEYWORDS = {"billing": ["refund", "payment", "invoice"], "technical": ["crashes", "fails"]}


def propose(instructions, _input=None):
    current = instructions.split("```", 2)[1].strip("\n")
    lines = current.splitlines()
    for label in sorted(set(re.findall(r"Expected '(\w+)'", instructions))):
        for number, line in enumerate(lines):
            if line.startswith(label + ":"):
                missing = [w for w in KEYWORDS.get(label, []) if w not in line][:1]
                lines[number] = ", ".join([line, *missing])
    return "```\n" + "\n".join(lines) + "\n```"


reflection = sj.StandInModel(propose, tag="", input_cost_per_token=2e-6)
"""

METRIC = """\
%%skynet_metric
def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    message = input["text"]
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}. The message was: {message!r}"}
"""

OPTIMIZE = (
    "report = %skynet_optimize --data tickets --outputs label --run classify "
    "--artifact seed_prompt --budget 80 --val 0.4 --seed 1 --concurrency 1 "
    "--reflection-model reflection"
)

NUMBERS = """\
import json
print("NUMBERS" + json.dumps({
    "candidates": [{"index": c.index, "score": c.score, "parent": c.parent}
                   for c in report.candidates],
    "best": report.best.index,
    "seed": report.seed_score,
    "best_score": report.best_score,
    "improved": report.improved,
    "proposals": [{"iteration": p.iteration, "feedback": [r["Feedback"] for r in p.records][:5],
                   "accepted": p.accepted} for p in report.proposals],
    "calls": report.calls,
}))
"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("lab-root")
    home = tmp_path_factory.mktemp("lab-home")
    write_notebook(
        root / "optimize.ipynb", ["%load_ext skynet_jupyter", SETUP, METRIC, OPTIMIZE, NUMBERS]
    )
    with running_lab(root, home) as running:
        yield running


@pytest.fixture(scope="module")
def page_and_live(lab):
    with chromium_page(lab.home, width=1300, height=1400) as page:
        page.goto(lab.open_url("optimize.ipynb"))
        wait_kernel_idle(page)
        # Not awaited: the command's promise resolves only when every cell has run.
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        # While GEPA runs: a candidate's score is on screen under the "running" title.
        page.wait_for_function(
            f"""() => document.querySelector('{VIEW} .sko-title.sko-run')
                     && document.querySelector('{VIEW} tr.sko-cand[data-score]')""",
            timeout=90_000,
        )
        live = page.locator(f"{VIEW} .sko-sub").inner_text()
        page.wait_for_selector(".jp-OutputArea-output:has-text('NUMBERS')", timeout=120_000)
        page.wait_for_selector(f"{VIEW} .sko-title.sko-up", timeout=30_000)
        yield page, live


def _numbers(page) -> dict:
    text = page.locator(".jp-OutputArea-output:has-text('NUMBERS')").inner_text()
    return json.loads(text.split("NUMBERS", 1)[1].strip())


def test_the_view_moves_while_gepa_runs(page_and_live):
    _, live = page_and_live
    assert "metric calls" in live and "cost" in live


def test_candidates_show_the_report_s_scores(page_and_live):
    page, _ = page_and_live
    numbers = _numbers(page)
    assert numbers["improved"]
    rows = page.locator(f"{VIEW} tr.sko-cand")
    assert rows.count() == len(numbers["candidates"]) >= 2
    for candidate in numbers["candidates"]:
        row = page.locator(f'{VIEW} tr.sko-cand[data-candidate="{candidate["index"]}"]')
        assert float(row.get_attribute("data-score")) == pytest.approx(candidate["score"])
        assert row.locator(".sko-score").inner_text() == f"{candidate['score']:.3f}"
    best = page.locator(f"{VIEW} tr.sko-best")
    assert best.get_attribute("data-candidate") == str(numbers["best"])
    title = page.locator(f"{VIEW} .sko-title").inner_text()
    assert f"{numbers['seed']:.3f} → {numbers['best_score']:.3f}" in title


def test_each_proposal_shows_the_feedback_read_and_a_word_diff(page_and_live):
    page, _ = page_and_live
    numbers = _numbers(page)
    shown = page.locator(f"{VIEW} .sko-proposal")
    assert shown.count() == len(numbers["proposals"]) >= 1
    newest = numbers["proposals"][-1]
    first = shown.first
    feedback = first.locator(".sko-feedback").all_inner_texts()
    assert feedback == newest["feedback"]
    assert first.locator(".sko-diff ins").count() >= 1


def test_hostile_text_is_shown_as_text(page_and_live):
    page, _ = page_and_live
    texts = " ".join(page.locator(f"{VIEW} .sko-feedback").all_inner_texts())
    numbers = _numbers(page)
    read = [f for p in numbers["proposals"] for f in p["feedback"]]
    if any(HOSTILE in f for f in read[:5]):
        assert HOSTILE in texts
    assert page.locator(f"{VIEW} img").count() == 0
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_dark_theme_text_has_contrast(page_and_live, tmp_path):
    # The optimizer's view takes its colours from the theme, as the check view does
    # (tests/notebook/browser/test_frontends.py): each text keeps a WCAG contrast of 4.5.
    page, _ = page_and_live
    view = page.locator(VIEW)
    newest = view.locator(".sko-proposal").first  # open: its records and diff show
    measured = {
        "title": view.locator(".sko-title").first,
        "status line": view.locator(".sko-sub").first,
        "a table head": view.locator("table.sko-candidates th").first,
        "a candidate's score": view.locator("tr.sko-cand .sko-score").first,
        "the best's score": view.locator("tr.sko-best .sko-score").first,
        "the best mark": view.locator(".sko-best-mark").first,
        "a proposal's head": newest.locator("summary b").first,
        "a kept proposal": view.locator(".sko-kept").first,
        "a note": newest.locator(".sko-note").first,
        "an input read": newest.locator(".sko-records td").first,
        "a feedback read": newest.locator(".sko-feedback").first,
        "an inserted word": newest.locator(".sko-diff ins").first,
        "the best text": view.locator(".sko-best-text").first,
    }
    picture = tmp_path / "optimize-dark.png"
    low = low_contrast_in_dark(page, measured, view, picture)  # printed: see them with -s
    assert not low, low
    assert picture.stat().st_size > 10_000


def test_screenshot_of_the_live_view(page_and_live, tmp_path):
    page, _ = page_and_live
    view = page.locator(VIEW)
    view.scroll_into_view_if_needed()
    shot = tmp_path / "optimize.png"
    view.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    wanted = os.environ.get("SKYNET_OPTIMIZE_SCREENSHOT")
    if wanted:  # only on request: tests never rewrite tracked files by themselves
        target = Path(wanted)
        target = target if target.is_absolute() else ROOT / target
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, target)
