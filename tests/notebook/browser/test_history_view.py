"""The run history and the diff in a real JupyterLab, in real Chromium (marked ``browser``).

A notebook records an evaluation of each of two versions of a metric (its name and feedback
hostile: ``<img onerror>``, ``<script>``), shows ``%skynet_history``, then, in a later
cell, runs one more evaluation: the chart above grows without being run again (the live
view reads the log after each cell).  Then ``%skynet_diff last~1 last``.  The test reads
the chart (one line per series and version, a mark per run, the new version marked),
proves every hostile text is shown as text (no element injected, no handler run), the
regressions come first in the diff, and nothing scrolls sideways.  The screenshot goes to
a temporary path (``SKYNET_HISTORY_SCREENSHOT=PATH`` keeps it).
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.browser_support import (
    chromium_page,
    require_browser,
    running_lab,
    wait_kernel_idle,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SETUP = """
%load_ext skynet_jupyter
import skynet_jupyter as sj
sj.configure(run_log="runs")  # the suite turns the log off; a user has .skynet_runs
rows = [{"text": t, "label": l, "guess": g} for t, l, g in
        [("one", "a", "a"), ("two", "b", "b"), ("three", "c", "x"), ("four", "a", "a")]]
"""
VERSION_1 = """
%%skynet_metric hostile
def score(input, output, expected=None):
    ok = output == expected["label"]
    said = "ok <b>" if ok else '<img src=x onerror="window.__hacked=3">'
    return (1.0 if ok else 0.0), {"feedback": said}
"""
EVAL = (
    "%skynet_eval --metric hostile --data rows --outputs label --output-column guess --no-raise ;"
)
VERSION_2 = """
%%skynet_metric hostile
def score(input, output, expected=None):
    ok = output == expected["label"] != "b"
    said = "ok <b>" if ok else '<script>window.__hacked=4</script>'
    return (1.0 if ok else 0.0), {"feedback": said}
"""
HISTORY = "%skynet_history hostile"
ONE_MORE = EVAL + "\nprint('ONE MORE DONE')"
DIFF = "%skynet_diff last~2 last --metric hostile"  # version 1 against version 2


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("history-root")
    home = tmp_path_factory.mktemp("history-home")
    cells = [SETUP, VERSION_1, EVAL, VERSION_2, EVAL, HISTORY, ONE_MORE, DIFF]
    write_notebook(root / "history.ipynb", cells)
    with running_lab(root, home) as lab, chromium_page(lab.home, width=1200, height=1600) as page:
        page.goto(lab.open_url("history.ipynb"))
        wait_kernel_idle(page)
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        page.wait_for_selector(".jp-OutputArea-output:has-text('ONE MORE DONE')", timeout=180_000)
        page.wait_for_selector("[data-group='regressions']", timeout=60_000)
        wait_kernel_idle(page)
        page.wait_for_timeout(800)  # the live view's last refresh reaches the page
        yield page


def _chart(page):
    return page.locator(".skynet-history-view svg.skh-chart")


def test_the_chart_follows_the_runs_recorded_after_it(page):
    chart = _chart(page)
    assert chart.count() == 1 and chart.is_visible()
    # Three runs: two before the history cell, one after it (read again after that cell).
    assert chart.locator("circle").count() == 3
    assert chart.locator("rect").count() == 3
    colours = {mark.get_attribute("fill") for mark in chart.locator("circle").all()}
    assert len(colours) == 2  # a colour per version
    lines = chart.locator("polyline").all()  # version 2's two runs, mean and pass rate
    assert {line.get_attribute("data-series") for line in lines} == {"mean", "pass_rate"}
    assert chart.locator("line.skh-cut").count() == 1
    table = page.locator(".skynet-history-view table.skh-runs tbody tr")
    assert table.count() == 3


def test_hostile_text_is_shown_as_text(page):
    assert page.evaluate("() => window.__hacked") is None
    view = page.locator(".skynet-history-view")
    assert view.locator("img").count() == 0 and view.locator("script").count() == 0
    regressions = page.locator("[data-group='regressions']")
    diff = page.locator(".jp-OutputArea-output:has([data-group='regressions'])")
    assert diff.locator("img").count() == 0 and diff.locator("script").count() == 0
    assert "<script>window.__hacked=4</script>" in diff.inner_text()
    assert regressions.is_visible()


def test_the_diff_lists_the_regression_first_with_its_word_diff(page):
    diff = page.locator(".jp-OutputArea-output:has([data-group='regressions'])")
    title = diff.locator(".sko-title").first.inner_text()
    assert title == "1 case regressed"
    groups = [g.get_attribute("data-group") for g in diff.locator("[data-group]").all()]
    assert groups[0] == "regressions"
    row = diff.locator("tr[data-kind='regression']")
    assert row.count() == 1 and "two" in row.inner_text()
    assert row.locator("ins").count() >= 1 and row.locator("del").count() >= 1
    assert diff.locator(".skh-src .skh-add").count() >= 1  # the source diff


def test_nothing_scrolls_sideways_and_a_screenshot(page, tmp_path):
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.skh table, .skh svg')]
                 .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).length"""
    )
    assert wide == 0
    shot = tmp_path / "history.png"
    page.locator(".skynet-history-view").first.screenshot(path=str(shot))
    assert shot.stat().st_size > 5_000
    keep = os.environ.get("SKYNET_HISTORY_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)
