"""One table of case columns: every view of a case draws the columns the table lists.

The text, the static HTML and the live widget each draw a case from
``show/case_columns.py``; which columns a view shows is a choice written there,
not a second drawing.  (``test_views_agree.py`` holds the views to saying the
same values; these tests hold the views to the table.)
"""

from __future__ import annotations

import re

import pytest

from skynet_jupyter.core.report import CaseResult, CheckReport, EvalReport
from skynet_jupyter.core.secrets import Redactor
from skynet_jupyter.i18n import t
from skynet_jupyter.notebook.widgets import _html
from skynet_jupyter.notebook.widgets._state import LiveState
from skynet_jupyter.show import case_columns
from skynet_jupyter.show.case_columns import (
    COLUMNS,
    LIVE_BELOW,
    LIVE_COLUMNS,
    STATIC_COLUMNS,
    TEXT_FIELDS,
    TEXT_HEAD,
    CaseRow,
    live_row_html,
    static_row_html,
)
from skynet_jupyter.show.render import esc, report_html


def _cases() -> list[CaseResult]:
    return [
        CaseResult(0, {"q": "a"}, {"label": "x"}, output="x", score=1.0, feedback="Right."),
        CaseResult(
            1,
            {"q": "b"},
            None,
            output=None,
            error="ValueError: no",
            traceback="Traceback ...",
            failed_step="metric_return_value",
        ),
    ]


def test_every_view_draws_only_columns_of_the_table():
    for name in (*TEXT_HEAD, *TEXT_FIELDS, *STATIC_COLUMNS, *LIVE_COLUMNS, LIVE_BELOW):
        assert name in COLUMNS, name
    assert all(COLUMNS[name].text_head for name in TEXT_HEAD)
    assert all(COLUMNS[name].text_field for name in TEXT_FIELDS)
    assert all(COLUMNS[name].static for name in STATIC_COLUMNS)
    assert all(COLUMNS[name].live for name in (*LIVE_COLUMNS, LIVE_BELOW))


def test_a_column_the_table_draws_in_a_view_is_shown_by_that_view():
    # A drawer nobody calls would be a column that silently vanished from a view.
    for name, column in COLUMNS.items():
        if column.static:
            assert name in STATIC_COLUMNS, name
        if column.live:
            assert name in (*LIVE_COLUMNS, LIVE_BELOW), name
        if column.text_head or column.text_field:
            assert name in (*TEXT_HEAD, *TEXT_FIELDS), name


def test_the_static_table_has_one_cell_per_column_under_its_heading():
    html = report_html(CheckReport(steps=[], cases=_cases()))
    heads = re.findall(r"<th>(.*?)</th>", html)
    assert heads == [esc(t(COLUMNS[name].title, "en")) for name in STATIC_COLUMNS]
    for row in re.findall(r"<tr data-case=.*?</tr>", html):
        assert re.findall(r'data-col="(\w+)"', row) == list(STATIC_COLUMNS)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_live_table_has_one_cell_per_live_column_under_its_heading(lang):
    cases = _cases()
    clean = Redactor()
    html = _html.cases_html(cases, lang, row=lambda case: live_row_html(CaseRow(case, lang, clean)))
    heads = re.findall(r"<th>(.*?)</th>", html)
    assert heads == [esc(t(COLUMNS[name].title, lang)) for name in LIVE_COLUMNS]
    rows = re.findall(r'<tr data-case="\d+".*?</tr>', html)
    assert len(rows) == len(cases)
    for row in rows:
        assert row.count("<td") == len(LIVE_COLUMNS)
        labels = re.findall(r'data-label="(.*?)"', row)
        assert labels == [esc(t(COLUMNS[name].title, lang)) for name in LIVE_COLUMNS[1:]]
    # the failed case's result: a row under it, spanning the columns after the mark
    assert f'colspan="{len(LIVE_COLUMNS) - 1}"' in html
    assert html.count('data-case-failure="1"') == 1


def test_the_live_view_shows_fewer_columns_than_the_static_one_by_choice():
    assert set(LIVE_COLUMNS) - set(STATIC_COLUMNS) == {"measures"}  # times and cost, together
    assert set(STATIC_COLUMNS) - set(LIVE_COLUMNS) == {
        "scores",
        "metric_ms",
        "run_ms",
        "cost",
        "result",
    }


def test_one_row_drawing_per_view():
    # Two functions named case_row_html once drew the static and the live rows.
    assert not hasattr(_html, "case_row_html")
    row = CaseRow(_cases()[0], "en", Redactor())
    assert static_row_html(row).startswith('<tr data-case="0" data-status="passed">')
    assert live_row_html(row).startswith('<tr data-case="0" data-status="passed">')
    assert case_columns.case_lines(row, None)[0].startswith(f"  ○ {t('col.case', 'en')} 0")


def test_the_live_ranking_of_the_worst_cases_is_the_reports():
    # One ranking of the worst cases (report.worst_key), kept as cases arrive.
    cases = [
        CaseResult(i, {"i": i}, None, output=i, score=score, failed_step=step)
        for i, (score, step) in enumerate(
            [(0.5, None), (None, "metric_return_value"), (0.1, None), (0.1, None), (1.0, None)] * 9
        )
    ]
    report = EvalReport(steps=[], cases=cases)
    state = LiveState(kind="eval")
    for start in range(0, len(cases), 4):  # in small batches, as a live run feeds it
        state.add_many(cases[start : start + 4])
    shown, matching = state.select(count=20)
    assert matching == len(cases)
    assert [case.index for case in shown] == [case.index for case in report.worst(20)]
