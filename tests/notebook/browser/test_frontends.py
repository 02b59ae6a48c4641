"""Where else people look at a check: exports, narrow windows, dark themes (marked ``browser``).

The notebook is the one the docs' pictures come from (``tests/make_pictures.py``):
a realistic reward check with one misclassified ticket, and a second metric
that breaks the contract (it reads a column the data doesn't have).

- Export: ``jupyter nbconvert --to html --execute`` (widget state stored, as by
  default, and without it), opened in Chromium with the network off: the title,
  a feedback text and the reward numbers are on the page, once per check.
- Live JupyterLab: one report per check on screen (the static copy hidden); a
  notebook saved with its outputs and opened again without running shows the copy.
- 800x900 with the file browser open: every feedback text is inside the viewport,
  the weight sliders keep a usable track, and no case table scrolls sideways.
- JupyterLab Dark: the titles, the step chips and a failure line have a WCAG
  contrast of at least 4.5 with what is behind them.

Screenshots go to temporary folders; ``python -m tests.make_pictures`` writes docs/.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    low_contrast,
    require_browser,
    running_lab,
    set_theme,
    write_notebook,
)
from tests.make_pictures import CELLS, export_html, numbers_of, offline_page, open_and_run
from tests.notebook_client import WAIT_FOR_OUTPUTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("frontends-root")
    home = tmp_path_factory.mktemp("frontends-home")
    for name in ("narrow", "dark"):
        write_notebook(root / f"{name}.ipynb", CELLS)
    _save_executed(root / "saved.ipynb")
    with running_lab(root, home) as running:
        yield running


def _save_executed(path) -> None:
    """A notebook run headless and saved with its outputs (and widget state), as if shared."""
    import nbformat
    from nbclient import NotebookClient

    write_notebook(path, CELLS)
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        **WAIT_FOR_OUTPUTS,
        timeout=300,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nbformat.write(notebook, path)


def _numbers(page) -> dict:
    return numbers_of(page.locator(".jp-OutputArea-output:has-text('NUMBERS')").inner_text())


# --- exports -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """The notebook exported twice: with widget state (nbconvert's default) and without."""
    require_browser()
    root = tmp_path_factory.mktemp("export-root")
    home = tmp_path_factory.mktemp("export-home")
    notebook = root / "export.ipynb"
    write_notebook(notebook, CELLS)
    with_state = export_html(root, home, notebook)
    without_state = export_html(root, home, notebook, widget_state=False)
    return with_state, without_state


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.mark.parametrize("which", ["with widget state", "without widget state"])
def test_an_exported_notebook_shows_the_report_offline(exports, browser, which, tmp_path):
    path = exports[0] if which == "with widget state" else exports[1]
    source = path.read_text()
    if which == "with widget state":  # the export nbconvert makes by default
        assert "application/vnd.jupyter.widget-state+json" in source
    page = offline_page(browser, path)
    numbers = numbers_of(page.locator(".jp-OutputArea-output:has-text('NUMBERS')").inner_text())
    reports = page.locator(".skynet-static .skynet-report")
    visible = [r for r in reports.all() if r.is_visible()]
    # One report per check (the passing one and the broken one), each shown once.
    titles = [r.locator(".sk-head").inner_text() for r in visible]
    assert titles == [numbers["title"], "Contract check failed"], titles
    passing = visible[0]
    assert passing.locator("table.sk-cases tr[data-case]").count() == 3
    shown_feedback = passing.locator("td[data-col='feedback']").all_inner_texts()
    assert shown_feedback and shown_feedback == [f for f in numbers["feedback"]], shown_feedback
    # The reward numbers: each case's reward and the mean, drawn without widgets.
    bars = page.locator(".skynet-static .skv-reward-box").first
    assert bars.is_visible()
    rewards = [
        float(t.get_attribute("data-reward")) for t in bars.locator(".skv-track[data-case]").all()
    ]
    assert rewards == pytest.approx(numbers["scores"], abs=1e-5)
    mean = bars.locator(".skv-mean-row[data-reward-value]").inner_text()
    assert mean == f"{numbers['mean']:.3f}"
    # Nothing tried to reach the network for the report to show (the CDN is unreachable).
    assert "Contract check passed" in page.locator("body").inner_text()
    picture = tmp_path / "export.png"
    passing.screenshot(path=str(picture))
    assert picture.stat().st_size > 10_000


def test_an_export_read_in_a_narrow_window_stacks_each_case(exports, browser):
    # A phone, a side panel: the static table stacks each case's cells under its number.
    page = offline_page(browser, exports[0], width=420, height=900)
    report = page.locator(".skynet-static .skynet-report").first
    assert report.locator("table.sk-cases thead").is_hidden()
    feedback = report.locator("td[data-col='feedback']")
    assert feedback.count() == 3
    for cell in feedback.all():
        rect = cell.bounding_box()
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 420, rect
        assert cell.evaluate("e => getComputedStyle(e).textAlign") in ("left", "start")
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    page.context.close()


def test_an_export_without_widget_state_holds_each_report_once(exports):
    # The widget's output carries no second copy (an empty text/plain): no duplicate anywhere.
    source = exports[1].read_text()
    assert source.count('class="skynet-static"') == 2
    assert len(re.findall(r"Running the contract check", source)) == 0


def test_a_saved_notebook_opened_without_running_shows_the_report(lab, browser):
    # Shared with its outputs and opened again: no kernel has the widgets, the copy shows.
    with _page(browser) as page:
        page.goto(lab.open_url("saved.ipynb", workspace="saved"))
        page.wait_for_selector(".skynet-static .sk-head", timeout=60_000)
        page.wait_for_timeout(1_000)  # any widget output has had time to render (or not)
        numbers = _numbers(page)
        heads = page.locator(".sk-head, .skv-title").all()
        visible = [head.inner_text() for head in heads if head.is_visible()]
        assert visible == [numbers["title"], "Contract check failed"], visible
        # An untrusted notebook's HTML is sanitized (no data- attributes, no style): the text
        # is still all there.
        shown = page.locator(".skynet-static .skynet-report").first.inner_text()
        assert all(text in shown for text in numbers["feedback"]), shown


# --- live JupyterLab: narrow window ---------------------------------------------------------


@contextmanager
def _page(browser, *, width: int = 1440, height: int = 1100):
    # One Playwright per module (the export tests' browser): a second one can't start.
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=1
    )
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture(scope="module")
def narrow(lab, browser):
    with _page(browser, width=800, height=900) as page:
        open_and_run(page, lab, "narrow.ipynb")
        yield page


def test_live_front_end_shows_one_report_per_check(narrow):
    assert narrow.locator(".skynet-view").count() == 2
    statics = narrow.locator(".skynet-static")
    assert statics.count() == 2
    assert not any(s.is_visible() for s in statics.all())  # hidden by the rendered widget
    numbers = _numbers(narrow)
    visible_titles = [
        t.inner_text() for t in narrow.locator(".skv-title, .sk-head").all() if t.is_visible()
    ]
    assert visible_titles == [numbers["title"], "Contract check failed"]


def test_narrow_window_keeps_every_feedback_readable(narrow, tmp_path):
    numbers = _numbers(narrow)
    width = narrow.viewport_size["width"]
    output = narrow.locator(".skynet-view").first
    area = output.bounding_box()
    assert area["width"] < 520  # the file browser is open: the output is narrow
    feedback = output.locator(".skv-feedback")
    assert feedback.count() == 3
    assert feedback.all_inner_texts() == numbers["feedback"]
    for box in feedback.all():
        box.scroll_into_view_if_needed()
        rect = box.bounding_box()
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= width, rect
        assert rect["width"] >= 200, rect  # a readable column, not a sliver
        # No sideways overflow inside the text itself (words wrap at spaces).
        assert box.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    # No case table scrolls sideways, and the reward panel's columns all get room.
    for scroller in narrow.locator(".skynet-view .skv-scroll").all():
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    for raw in output.locator(".skv-raw").all():
        rect = raw.bounding_box()
        assert rect["width"] > 50 and rect["x"] + rect["width"] <= width, rect
    # Each weight slider keeps a usable track, inside the window.
    for part in ("accuracy", "speed", "cost"):
        track = output.locator(f".skynet-weight-{part} .slider-container")
        rect = track.bounding_box()
        assert rect["width"] >= 100 and rect["x"] + rect["width"] <= width, (part, rect)
    picture = tmp_path / "narrow.png"
    narrow.screenshot(path=str(picture))
    assert picture.stat().st_size > 10_000


def test_no_word_is_cut_in_the_narrow_case_details(narrow):
    # Every line break inside a stacked cell falls at a space: compare the text's words with
    # the words the browser laid out on each line (a word cut mid-way appears split in two).
    cells = narrow.locator(".skynet-view").first.locator("td[data-label] .skv-feedback")
    for cell in cells.all():
        lines = cell.evaluate(
            """e => {
                const range = document.createRange(), node = e.firstChild, out = [];
                let top = null, line = '';
                for (let i = 0; i < node.length; i++) {
                    range.setStart(node, i); range.setEnd(node, i + 1);
                    const r = range.getClientRects()[0];
                    if (r && top !== null && r.top > top + 2) { out.push(line); line = ''; }
                    if (r) top = r.top;
                    line += node.data[i];
                }
                out.push(line);
                return out;
            }"""
        )
        words = set(cell.inner_text().split())
        for line in lines:
            for word in line.split():
                assert word in words, (word, lines)


# --- live JupyterLab: dark theme ---------------------------------------------------------


@pytest.fixture(scope="module")
def dark(lab, browser, narrow):  # after the narrow page: the theme is a lab-wide setting
    with _page(browser) as page:
        open_and_run(page, lab, "dark.ipynb")
        set_theme(page, "JupyterLab Dark")
        try:
            yield page
        finally:
            set_theme(page, "JupyterLab Light")


def test_dark_theme_text_has_contrast(dark, tmp_path):
    background = dark.evaluate(
        "getComputedStyle(document.querySelector('.jp-Notebook')).backgroundColor"
    )
    assert background != "rgb(255, 255, 255)"  # the dark theme applies
    views = dark.locator(".skynet-view")
    passing, broken = views.nth(0), views.nth(1)
    measured = {
        "passing title": passing.locator(".skv-title"),
        "passing step chip": passing.locator('.skv-step[data-status="passed"]').first,
        "broken title": broken.locator(".skv-title"),
        "broken step chip": broken.locator('.skv-step[data-status="failed"]').first,
        "failure line": broken.locator(".skv-error").first,
        "failed-at line": broken.locator("tr.skv-sub .skv-fail").first,
        "reason and fix": broken.locator(".skv-callout").first,
        "a high score": passing.locator(".skv-score-hi").first,
        "a low score": passing.locator(".skv-score-lo").first,  # the misclassified ticket
        "feedback": passing.locator(".skv-feedback").first,
    }
    low = low_contrast(measured, 4.5)  # each measurement printed (-s shows them)
    assert not low, low
    picture = tmp_path / "dark.png"
    dark.locator(".jp-Notebook").screenshot(path=str(picture))
    assert picture.stat().st_size > 10_000


def test_marks_say_contract_and_score_apart(dark):
    passing = dark.locator(".skynet-view").nth(0)
    numbers = _numbers(dark)
    for index, score in enumerate(numbers["scores"]):
        row = passing.locator(f'tr[data-case="{index}"]')
        mark = row.locator("td.skv-mark")
        assert mark.get_attribute("data-contract") == "passed"
        assert "✓" not in mark.inner_text()  # the contract held: a neutral mark, not "correct"
        shown = row.locator(".skv-score")
        level = "hi" if score >= 0.8 else "mid" if score >= 0.5 else "lo"
        assert f"skv-score-{level}" in shown.get_attribute("class").split()
    assert "kept the contract" in passing.locator(".skv-marks").inner_text()
