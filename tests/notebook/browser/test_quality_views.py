"""The four metric-quality views in a real JupyterLab, in real Chromium (marked ``browser``).

One notebook (``tests/make_quality_picture.CELLS``) probes a 'contains' metric,
measures a stand-in judge that flips, checks agreement with a labelled
column, fixes the metric and compares the two versions.  The test reads each
rendered view against the reports' own numbers, picks a probe in the probe
view's picker, proves a hostile ticket shows as text, measures the text
contrast of the views in JupyterLab Dark, and takes the probe view's
screenshot into a temporary folder (``python -m tests.make_quality_picture``
regenerates docs/probe.png).
"""

from __future__ import annotations

import json

import pytest

from tests.browser_support import (
    chromium_page,
    low_contrast_in_dark,
    require_browser,
    running_lab,
    write_notebook,
)
from tests.make_quality_picture import CELLS, HOSTILE, open_views

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("lab-root")
    home = tmp_path_factory.mktemp("lab-home")
    write_notebook(root / "quality.ipynb", CELLS)
    with running_lab(root, home) as lab, chromium_page(lab.home) as page:
        page.goto(lab.open_url("quality.ipynb"))
        open_views(page)
        yield page


def _numbers(page) -> dict:
    text = page.locator(".jp-OutputArea-output:has-text('NUMBERS')").inner_text()
    return json.loads(text.split("NUMBERS", 1)[1].strip())


def test_the_four_views_render_their_reports(page):
    numbers = _numbers(page)
    for kind in ("probe", "stability", "agree", "compare"):
        assert page.locator(f".skynet-quality.skynet-{kind}").count() == 1, kind
    probe = page.locator(".skynet-probe")
    assert "Gaming probes of metric 'default'" in probe.inner_text()
    shown = probe.locator(".skq-probe [data-probe]").evaluate_all(
        "boxes => boxes.map(b => b.dataset.probe)"
    )
    assert sorted(shown) == numbers["flagged"] == ["all_expected", "injection", "long"]
    assert probe.locator(".skq-probes td.skq-flag").count() > 0
    stability = page.locator(".skynet-stability").inner_text()
    assert f"flip rate {numbers['flip_rate']:.0%}" in stability and "temperature=0" in stability
    agree = page.locator(".skynet-agree").inner_text()
    assert f"Cohen's kappa {numbers['kappa']:.3g}" in agree
    assert page.locator(".skynet-agree .skq-confusion").count() == 1
    compare = page.locator(".skynet-compare").inner_text()
    changed, feedback = len(numbers["changed"]), len(numbers["feedback_changed"])
    assert f"{changed} of 6 cases changed score and {feedback} changed feedback" in compare
    assert "default (previous) → default" in compare


def test_the_probe_picker_shows_a_probe_and_hostile_text_stays_text(page):
    picker = page.locator(".skynet-probe select")
    picker.select_option("echo_input")
    detail = page.locator(".skynet-probe .skq-probe-detail[data-probe='echo_input']")
    detail.wait_for(timeout=15_000)
    assert HOSTILE in detail.inner_text()  # the ticket echoed back, shown as text
    assert page.locator(".skynet-quality img").count() == 0
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_screenshot(page, tmp_path):
    # Into a temporary folder: tests never rewrite tracked files.
    view = page.locator(".skynet-probe")
    view.scroll_into_view_if_needed()
    picture = tmp_path / "probe.png"
    view.screenshot(path=str(picture))
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size > 10_000


def test_dark_theme_text_has_contrast(page, tmp_path):
    # The quality views take their colours from the theme, as the check view does
    # (tests/notebook/browser/test_frontends.py): each text keeps a WCAG contrast of 4.5.
    probe, stability = page.locator(".skynet-probe"), page.locator(".skynet-stability")
    agree, compare = page.locator(".skynet-agree"), page.locator(".skynet-compare")
    measured = {
        "probe title": probe.locator(".skq-title").first,
        "probe subtitle": probe.locator(".skq-sub").first,
        "a probe's finding": probe.locator("div[data-probe] > .skq-box").first,
        "a table head": probe.locator("table.skq-probes th").first,
        "an output": probe.locator("table.skq-probes td:nth-child(3)").first,
        "a flagged score": probe.locator("table.skq-probes td.skq-flag").first,
        "a probe's feedback": probe.locator(".skq-probe-detail td:nth-child(4)").first,
        "stability title": stability.locator(".skq-title").first,
        "stability verdict": stability.locator(".skq-box").first,
        "stability advice": stability.locator(".skq-box.skq-note").first,
        "a disagreement count": agree.locator("table.skq-confusion td.skq-flag").first,
        "compare title": compare.locator(".skq-title").first,
        "compare summary": compare.locator(".skq-box").first,
    }
    picture = tmp_path / "quality-dark.png"
    low = low_contrast_in_dark(page, measured, probe, picture)  # printed: see them with -s
    assert not low, low
    assert picture.stat().st_size > 10_000
