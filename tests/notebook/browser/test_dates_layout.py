"""Dates stay whole in the check view's output and expected columns (issue 25, item 15).

A check of a date-extraction metric (ISO dates in emails, the newcomer's task) in a real
JupyterLab at 1400 px: every date in the output and expected cells is laid out on one
line (a browser may break after a hyphen: "2024-03-" / "14").
"""

from __future__ import annotations

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

SETUP = """\
emails = [
    {"email": "Hi team, the quarterly review moved to March 14, please update the shared "
              "calendar and tell the people who booked travel for the old date.",
     "date": "2024-03-14", "found": "2024-03-14"},
    {"email": "Reminder: the invoice for the February consulting work is due on the first "
              "of April; payment after that date incurs the late fee in our contract.",
     "date": "2024-04-01", "found": "2024-03-01"},
    {"email": "Our offsite is confirmed for 2024-06-21 at the lake house; bring hiking "
              "shoes, a rain jacket and the printed agenda from the last meeting please.",
     "date": "2024-06-21", "found": "2024-06-21"},
]
"""

METRIC = """\
%%skynet_metric
def score(input, output, expected=None):
    want = expected["date"]
    if output == want:
        return 1.0, {"feedback": f"Correct: {want}."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}: read the whole email "
                             "for the date it names, and write it as YYYY-MM-DD."}
"""

CHECK = "report = %skynet_check --data emails --outputs date --output-column found --cases 3"

# For each output and expected cell: its text and, for each date in it, the number of line
# boxes the date's ten characters take (2 when it breaks after a hyphen).
LINES = r"""e => [...e.querySelectorAll('td.skv-val')].map(cell => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), lines = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const found of node.data.matchAll(/\d{4}-\d{2}-\d{2}/g)) {
            const range = document.createRange();
            range.setStart(node, found.index);
            range.setEnd(node, found.index + found[0].length);
            const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                                            .map(r => Math.round(r.top)));
            lines.push(tops.size);
        }
    }
    return [cell.innerText.trim(), lines];
})"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("dates-root")
    home = tmp_path_factory.mktemp("dates-home")
    write_notebook(root / "dates.ipynb", ["%load_ext skynet_jupyter", SETUP, METRIC, CHECK])
    with running_lab(root, home) as running:
        yield running


def test_dates_stay_on_one_line_at_1400_px(lab):
    with chromium_page(lab.home, width=1400, height=1000) as page:
        page.goto(lab.open_url("dates.ipynb"))
        wait_kernel_idle(page)
        run_all_cells(page)
        page.wait_for_selector(".skynet-view td.skv-val", timeout=90_000)
        wait_kernel_idle(page)
        cells = page.locator(".skynet-view").first.evaluate(LINES)
        assert len(cells) == 6, cells  # 3 cases: output and expected
        for text, lines in cells:
            assert lines == [1], (text, cells)  # one date, on one line
