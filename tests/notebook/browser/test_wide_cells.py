"""Wide JSON cells never push a column out of view (issue 36, item 6).

A check whose inputs, outputs and expected values are JSON (long keys, nested objects,
long URLs, tokens and compact JSON strings without a space) in a real JupyterLab, with
the file browser open, at 1400 px and at 800 px (the narrowest width the README and
``test_frontends`` promise), in English and in Portuguese (longer column titles): in the
live view and in the static report, no case table scrolls sideways and every column's
heading and cells lie inside the output area, with their values folded and unfolded.
"""

from __future__ import annotations

import pytest

from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    require_browser,
    run_all_cells,
    running_lab,
    wait_kernel_idle,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGS = ("en", "pt")
WIDTHS = (1400, 800)  # 800: the narrowest promised (README, test_frontends), output ~370 px

SETUP = """\
import json

TOKEN = "eyJhbGciOiJSUzI1NiIsImtpZCI6InNreW5ldC1rZXktMjAyNC0wMyJ9" * 2


def order(number, name, sku, **extra):
    return {
        "tracking_url": f"https://tracking.example-logistics-provider.com/api/v2/shipments/"
                        f"ORD-{number}/events?include=history,carrier_details&format=json",
        "customer_information": {
            "full_legal_name": name,
            "primary_email_address": name.lower().replace(" ", ".")
                                     + "@customer-accounts.example-company.com.br",
        },
        "line_items": [{"stock_keeping_unit": sku, "quantity_ordered": 2,
                        "unit_price_in_cents": 129900}],
        "authorization_token": TOKEN,
        **extra,
    }


def request(number):
    return {"message_identifier": f"<CAF{number}x7Zq9mLpQ2wErTyUiOpAsDfGhJkLzXcVbNm"
                                  f"{number}@mail.example-company.com.br>",
            "body": f"Please extract order ORD-{number} from the purchase confirmation"}


first = order(2024000123, "Maria Conceicao dos Santos Oliveira",
              "SKU_ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
second = order(2024000124, "Joao Pedro Albuquerque Cavalcanti",
               "SKU_ZYXWVUTSRQPONMLKJIHGFEDCBA_9876543210")
third = order(2024000125, "Ana Beatriz Figueiredo Nascimento",
              "SKU_MNBVCXZLKJHGFDSAPOIUYTREWQ_1029384756")
orders = [
    # A model's answer as compact JSON text: no space in its first 80 characters.
    {"request": request(2024000123), "order": first,
     "found": json.dumps(first, separators=(",", ":"))},
    {"request": request(2024000124), "order": second,
     "found": {**second, "unexpected_field_returned_by_the_model_without_being_asked":
               "https://docs.example.com/a/very/long/path/without/any/spaces/at/all.html"}},
    {"request": json.dumps(request(2024000125), separators=(",", ":")),
     "order": [third, third], "found": [{**third, "line_items": []}, third]},
]
"""

METRIC = """\
%%skynet_metric
import json


def score(input, output, expected=None):
    want = expected["order"]
    got = json.loads(output) if isinstance(output, str) else output
    if got == want:
        return 1.0, {"feedback": "Every field of the extracted order matches."}
    return 0.0, {"feedback": "The extracted order differs from the expected one; keep "
                             "the schema's keys: https://schemas.example.com/orders/v2/"
                             "order_extraction_schema_with_a_very_long_name.json"}
"""

CHECK = (
    "wide_{lang} = %skynet_check --data orders --outputs order --output-column found "
    "--cases 3 --lang {lang}"
)
STATIC = (
    "from IPython.display import HTML\n"
    "HTML('<div data-wide=\"static-{lang}\">' + wide_{lang}._repr_html_() + '</div>')"
)
CELLS = [
    "%load_ext skynet_jupyter",
    SETUP,
    METRIC,
    *(CHECK.format(lang=lang) for lang in LANGS),
    *(STATIC.format(lang=lang) for lang in LANGS),
]

# Whatever of the view's table lies outside the output area (or the notebook, or the
# window), and every scroller or cell whose content is wider than its box.
MEASURE = r"""root => {
    const area = root.closest('.jp-OutputArea-output').getBoundingClientRect();
    const notebook = document.querySelector('.jp-NotebookPanel-notebook')
                             .getBoundingClientRect();
    const left = Math.max(area.left, notebook.left);
    const right = Math.min(area.right, notebook.right, window.innerWidth);
    const problems = [];
    const name = e => (e.dataset.label || e.dataset.col || e.innerText || '').slice(0, 40);
    for (const box of [root, ...root.querySelectorAll('.skv-scroll, table')]) {
        if (box.scrollWidth > box.clientWidth + 1)
            problems.push(['scrolls', box.className, box.scrollWidth, box.clientWidth]);
    }
    const output = root.closest('.jp-OutputArea-output');
    if (output.scrollWidth > output.clientWidth + 1)
        problems.push(['output scrolls', output.scrollWidth, output.clientWidth]);
    const cells = [...root.querySelectorAll('table th, table td')]
        .filter(e => e.getClientRects().length > 0);
    for (const cell of cells) {
        const r = cell.getBoundingClientRect();
        if (r.width > 0 && (r.left < left - 1 || r.right > right + 1))
            problems.push(['outside', name(cell), Math.round(r.left), Math.round(r.right),
                           Math.round(left), Math.round(right)]);
        if (cell.scrollWidth > cell.clientWidth + 1)
            problems.push(['overflows', name(cell), cell.scrollWidth, cell.clientWidth]);
    }
    return {problems, cells: cells.length, heads: cells.filter(c => c.tagName === 'TH').length,
            width: Math.round(right - left)};
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("wide-root")
    home = tmp_path_factory.mktemp("wide-home")
    write_notebook(root / "wide.ipynb", CELLS)
    with running_lab(root, home) as running:
        yield running


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module", params=WIDTHS, ids=lambda width: f"{width}px")
def page(request, lab, browser):
    """The notebook run in a window ``width`` px wide, the file browser open."""
    width = request.param
    context = browser.new_context(viewport={"width": width, "height": 1000}, device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(lab.open_url("wide.ipynb", workspace=f"wide{width}"))
        wait_kernel_idle(page)
        run_all_cells(page)
        for lang in LANGS:
            page.wait_for_selector(f"[data-wide='static-{lang}'] table.sk-cases", timeout=120_000)
        page.wait_for_selector(".skynet-view .skv-cases td[data-label]", timeout=60_000)
        wait_kernel_idle(page)
        assert page.locator("#filebrowser").is_visible()  # the file browser is open
        yield page
    finally:
        context.close()


def _view(page, kind: str, lang: str):
    if kind == "static":
        return page.locator(f"[data-wide='static-{lang}'] .skynet-report")
    return page.locator(".skynet-view.skynet-check").nth(LANGS.index(lang))


def _measure(view) -> dict:
    view.scroll_into_view_if_needed()
    return view.evaluate(MEASURE)


def _fold(view, unfolded: bool) -> None:
    view.evaluate(
        f"e => e.querySelectorAll('details').forEach(d => {{ d.open = {str(unfolded).lower()}; }})"
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["live", "static"])
def test_every_column_stays_in_view(page, kind, lang, tmp_path):
    view = _view(page, kind, lang)
    assert view.count() == 1
    if kind == "live":  # the right view: its headings are in its language
        heading = "tempo e custo" if lang == "pt" else "time and cost"
        assert heading in view.locator("table.skv-cases thead").evaluate("e => e.textContent")
    folded = _measure(view)
    view.screenshot(path=str(tmp_path / f"{kind}-{lang}.png"))
    assert folded["cells"] >= 3 * 6, folded  # the three cases' cells are all laid out
    assert not folded["problems"], ("folded", folded)
    # A value unfolded (its full JSON, indented) still wraps inside its column.
    _fold(view, unfolded=True)
    try:
        unfolded = _measure(view)
    finally:
        _fold(view, unfolded=False)
    assert not unfolded["problems"], ("unfolded", unfolded)


def test_every_width_in_between(page):
    # The window resized, 50 px at a time, towards the other promised width (the file
    # browser stays open): no width in between pushes a column out either.
    start = page.viewport_size["width"]
    step = 50 if start == min(WIDTHS) else -50
    problems = {}
    try:
        for width in range(start + step, max(WIDTHS) if step > 0 else min(WIDTHS), step):
            page.set_viewport_size({"width": width, "height": 1000})
            page.wait_for_timeout(300)  # JupyterLab lays its panels out again
            assert page.locator("#filebrowser").is_visible()
            for kind in ("live", "static"):
                for lang in LANGS:
                    view = _view(page, kind, lang)
                    for unfolded in (False, True):
                        _fold(view, unfolded)
                        found = _measure(view)
                        if found["problems"]:
                            problems[(width, kind, lang, unfolded)] = found
                    _fold(view, unfolded=False)
    finally:
        page.set_viewport_size({"width": start, "height": 1000})
    assert not problems, (sorted(problems), problems)
