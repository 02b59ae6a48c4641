"""The check view in a real JupyterLab, in real Chromium (marked ``browser``).

A notebook loads the extension, registers a reward metric with
``%%skynet_metric`` and checks it with ``%skynet_check`` and a run function.
The test reads the rendered view: step marks, case rows, reward bars with the
report's numbers; moves a weight slider and sees every bar and the mean
follow; and proves hostile text shows as text, in the feedback and in a long,
multi-line input that the view folds.  The screenshot goes to a temporary
folder (tests never rewrite tracked files); ``python -m tests.make_pictures``
regenerates the README's docs/check.png from the ticket example.
"""

from __future__ import annotations

import json
import math
import re

import pytest

from tests.browser_support import (
    chromium_page,
    require_browser,
    run_all_cells,
    running_lab,
    wait_kernel_idle,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = '<img src=x onerror="window.__pwned=1">'
# Over 80 characters and over two lines: the view folds it (another path than short text).
HOSTILE_TICKET = (
    f"My invoice shows {HOSTILE} instead of a logo.\n"
    "It has done so since the last update of the billing page, on every device I own."
)
WEIGHTS = {"accuracy": 0.6, "speed": 0.3, "cost": 0.1}

SETUP = '''\
import time

from skynet_jupyter import configure
from skynet_jupyter import ModelReply

tickets = [
    {"text": "I was charged twice for my subscription this month.", "label": "billing"},
    {"text": "The app crashes every time I open the settings page.", "label": "technical"},
    {"text": HOSTILE_TICKET, "label": "billing"},
]
PROMPT = "billing: charged, refund\\ntechnical: crash, error, login"


def keyword_model(instructions, text):
    """A stand-in for the task model: keyword rules, with a price per call."""
    time.sleep(0.02 + 0.03 * len(text) / 60)
    for line in instructions.splitlines():
        label, _, words = line.partition(":")
        if any(w.strip() and w.strip() in text.lower() for w in words.split(",")):
            return ModelReply(label.strip(), 40, 2, cost_usd=0.00004 * len(text) / 10)
    return ModelReply("other", 40, 2, cost_usd=0.00004 * len(text) / 10)


configure(task_model=keyword_model)


def classify(prompt, input):
    from skynet import llm

    return llm(prompt, input["text"])
'''.replace("HOSTILE_TICKET", repr(HOSTILE_TICKET))

METRIC = f"""\
%%skynet_metric
from skynet import reward

REWARD_SPEC = {{
    "weights": {json.dumps(WEIGHTS)},
    "accuracy": {{}},
    "speed": {{"reference": 60}},
    "cost": {{"reference": 0.0002}},
}}


def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return reward(REWARD_SPEC, 1.0, f"Correct: {{want!r}}.")
    return reward(
        REWARD_SPEC,
        0.0,
        f"Expected {{want!r}}, got {{output!r}}. The message was: {{input['text']!r}}",
    )
"""

CHECK = "report = %skynet_check --data tickets --outputs label --run classify --artifact PROMPT"

NUMBERS = """\
import json
print("NUMBERS" + json.dumps({
    "cases": [
        {"index": c.index, "score": c.score, "scores": c.scores, "feedback": c.feedback}
        for c in report.cases
    ],
    "mean": report.mean_score,
    "steps": {s.id: s.status for s in report.steps},
}))
"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("lab-root")
    home = tmp_path_factory.mktemp("lab-home")
    cells = ["%load_ext skynet_jupyter", SETUP, METRIC, CHECK, NUMBERS]
    write_notebook(root / "check.ipynb", cells)
    with running_lab(root, home) as running:
        yield running


@pytest.fixture(scope="module")
def page(lab):
    with chromium_page(lab.home) as page:
        page.goto(lab.open_url("check.ipynb"))
        wait_kernel_idle(page)
        run_all_cells(page)
        page.wait_for_selector(".jp-OutputArea-output:has-text('NUMBERS')", timeout=90_000)
        page.wait_for_selector(".skynet-view .skv-title.skv-pass", timeout=30_000)
        yield page


def _numbers(page) -> dict:
    text = page.locator(".jp-OutputArea-output:has-text('NUMBERS')").inner_text()
    return json.loads(text.split("NUMBERS", 1)[1].strip())


def _mean_reward(page) -> float:
    return float(page.locator(".skynet-view .skv-track[data-mean]").get_attribute("data-reward"))


def test_steps_marked(page):
    numbers = _numbers(page)
    view = page.locator(".skynet-view")
    assert "Contract check passed" in view.locator(".skv-title").inner_text()
    for step_id, status in numbers["steps"].items():
        chip = view.locator(f'.skv-step[data-step="{step_id}"]')
        assert chip.get_attribute("data-status") == status
        mark = {"passed": "✓", "failed": "✗", "skipped": "–", "advice": "!"}[status]
        assert chip.inner_text().startswith(mark)
    assert set(numbers["steps"]) >= {
        "metric_loads",
        "metric_signature",
        "reward_spec",
        "run_function",
        "metric_return_value",
        "metric_time_limit",
    }


def test_case_rows_show_the_report(page):
    numbers = _numbers(page)
    rows = page.locator(".skynet-view tr[data-case]")
    assert rows.count() == len(numbers["cases"]) == 3
    for case in numbers["cases"]:
        row = page.locator(f'.skynet-view tr[data-case="{case["index"]}"]')
        assert row.locator(".skv-score").inner_text() == f"{case['score']:.3g}"
        for name in ("accuracy", "speed", "cost"):
            shown = row.locator(f'[data-score="{name}"]').inner_text()
            assert shown == f"{case['scores'][name]:.3g}"
        assert row.locator(".skv-feedback").inner_text() == case["feedback"]


def test_reward_bars_sum_to_each_reward(page):
    numbers = _numbers(page)
    for case in numbers["cases"]:
        track = page.locator(f'.skynet-view .skv-track[data-case="{case["index"]}"]')
        assert float(track.get_attribute("data-reward")) == pytest.approx(case["score"], abs=1e-5)
        parts = {
            seg.get_attribute("data-part"): float(seg.get_attribute("data-value"))
            for seg in track.locator(".skv-seg").all()
        }
        for name, weight in WEIGHTS.items():
            assert parts[name] == pytest.approx(weight * case["scores"][name], abs=1e-5)
        # The drawn widths are the parts (a bar's full width is a reward of 1).
        track_width = track.bounding_box()["width"]
        drawn = sum(seg.bounding_box()["width"] for seg in track.locator(".skv-seg").all())
        assert drawn / track_width == pytest.approx(case["score"], abs=0.02)
    assert _mean_reward(page) == pytest.approx(numbers["mean"], abs=1e-5)
    mean_text = page.locator(".skynet-view .skv-mean-row[data-reward-value]").inner_text()
    assert mean_text == f"{numbers['mean']:.3f}"


def test_hostile_feedback_is_text(page):
    feedback = page.locator(".skynet-view .skv-feedback").all_inner_texts()
    assert any(HOSTILE in text for text in feedback)
    assert page.locator(".skynet-view img").count() == 0
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_a_long_multiline_hostile_input_is_folded_and_stays_text(page):
    cell = page.locator('.skynet-view tr[data-case="2"] .skv-in')
    summary = cell.locator("summary")
    shown = summary.inner_text()
    assert shown.startswith("text: ") and HOSTILE in shown  # the markup, shown as text
    assert len(shown) <= 80 and "\n" not in shown
    summary.click()
    full = cell.locator(".skv-full")
    full.wait_for(state="visible", timeout=10_000)
    assert json.loads(full.inner_text()) == {"text": HOSTILE_TICKET}
    assert page.locator(".skynet-view img").count() == 0
    assert page.evaluate("typeof window.__pwned") == "undefined"
    summary.click()  # folded again, as the other tests expect


def test_screenshot(page, tmp_path):
    # Into a temporary folder: tests never rewrite tracked files (see tests/make_pictures.py).
    view = page.locator(".skynet-view")
    view.scroll_into_view_if_needed()
    picture = tmp_path / "check.png"
    view.screenshot(path=str(picture))
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size > 10_000


def test_weight_slider_recomputes_bars_and_mean(page):
    numbers = _numbers(page)
    before = _mean_reward(page)
    readout = page.locator(".skynet-view .skynet-weight-speed .widget-readout")
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"""() => {{
            const m = document.querySelector('.skynet-view .skv-track[data-mean]');
            return m && Math.abs(parseFloat(m.dataset.reward) - {before}) > 1e-6;
        }}""",
        timeout=15_000,
    )
    total = WEIGHTS["accuracy"] + WEIGHTS["cost"]
    weights = {part: 0.0 if part == "speed" else WEIGHTS[part] / total for part in WEIGHTS}
    rewards = []
    for case in numbers["cases"]:
        want = sum(weights[name] * case["scores"][name] for name in weights)
        rewards.append(want)
        track = page.locator(f'.skynet-view .skv-track[data-case="{case["index"]}"]')
        assert float(track.get_attribute("data-reward")) == pytest.approx(want, abs=1e-5)
        speed = track.locator('.skv-seg[data-part="speed"]')
        assert float(speed.get_attribute("data-value")) == 0.0
    assert _mean_reward(page) == pytest.approx(sum(rewards) / len(rewards), abs=1e-5)
    spec = page.locator(".skynet-view code.skv-spec").inner_text()
    written = json.loads(re.sub(r'^"weights":\s*', "", spec))
    assert written == {part: round(value, 3) for part, value in weights.items()}
    assert math.isclose(sum(written.values()), 1.0, abs_tol=2e-3)
