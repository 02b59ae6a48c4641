"""Long runs without spaces get break opportunities; words stay whole (issue 36, item 6).

The browser test (``tests/notebook/browser/test_wide_cells.py``) measures the layout;
these hold the pieces it rests on, in a second.
"""

from __future__ import annotations

import html
import re

from hypothesis import given
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.report import CaseResult
from skynet_jupyter.core.secrets import Redactor
from skynet_jupyter.show.case_columns import CaseRow, breakable, live_row_html, static_row_html
from skynet_jupyter.show.style import STYLE

URL = "https://tracking.example-logistics-provider.com/api/v2/shipments/ORD-2024000123/events"
COMPACT = '{"tracking_url":"' + URL + '","authorization_token":"' + "eyJhbGciOiJSUzI1NiIs" * 3
WIDEST = 24  # the longest piece breakable leaves: a chunk and the punctuation around it


def _pieces(shown: str) -> list[str]:
    return html.unescape(shown).replace("<wbr>", " ").split()


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_breakable_keeps_the_text_and_escapes_it(text):
    shown = breakable(text)
    assert html.unescape(shown.replace("<wbr>", "")) == text
    assert "<" not in shown.replace("<wbr>", "")  # nothing but break opportunities added
    assert max(map(len, _pieces(shown)), default=0) <= WIDEST


def test_words_and_short_runs_stay_whole():
    prose = "The extracted order differs: keep the schema's keys (unrepresentable Opaque)."
    assert breakable(prose) == html.escape(prose)
    assert breakable("2024-03-14") == "2024-03-14"


def test_a_url_and_compact_json_break_after_their_punctuation():
    assert "https://<wbr>tracking.<wbr>" in breakable(URL)
    shown = breakable(COMPACT)
    assert shown.count("<wbr>") > 8
    assert max(map(len, _pieces(shown))) <= WIDEST


def test_every_view_of_a_json_case_makes_its_long_runs_breakable():
    case = CaseResult(
        0,
        {"request": COMPACT},
        {"order": {"tracking_url": URL}},
        output=COMPACT,
        score=0.0,
        feedback="Keep the schema: " + URL,
    )
    row = CaseRow(case, "pt", Redactor())
    for drawn in (static_row_html(row), live_row_html(row)):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", drawn, re.S)
        texts = [re.sub(r"<(?!wbr>)[^>]*>", " ", cell) for cell in cells]
        for text in texts:
            assert max(map(len, _pieces(text)), default=0) <= WIDEST, text


def test_headings_wrap_and_the_tables_stack_where_they_no_longer_fit():
    static = sj.CheckReport(steps=[], cases=[])._repr_html_()
    assert ".skynet-report table.sk-cases th{white-space:normal" in STYLE
    assert ".skv .skv-cases th{padding:4px 6px;white-space:normal}" in STYLE
    assert "@container (max-width:900px){\n.skynet-report table.sk-cases," in static
    assert "@container (max-width:800px){\n.skv .skv-scroll{overflow-x:visible}" in STYLE
    assert "@container (max-width:640px){\n.skv .skv-bars" in STYLE
    full = re.search(r"\.skv \.skv-full\{[^}]*\}", STYLE)[0]
    assert "white-space:pre-wrap" in full and "overflow-wrap:anywhere" in full
