"""The history and the diff as text and HTML: a chart per metric (an SVG drawn here), every
user text escaped, in English, French and Portuguese."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import language, t
from skynet_jupyter.runlog.location import LogLocation
from skynet_jupyter.runlog.record import draft
from skynet_jupyter.runlog.recorder import write_draft
from skynet_jupyter.runlog.run_diff import compare_runs

from .support import SOURCE_A, SOURCE_B, Source, case, record_of, report

HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)


def tags(html: str) -> list[str]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


def _log(tmp_path, name=HOSTILE):
    for number, source in enumerate((SOURCE_A, SOURCE_A, SOURCE_B, SOURCE_B, SOURCE_B)):
        cases = [case(0, HOSTILE, score=1.0 - number * 0.1, feedback=HOSTILE), case(1, "b")]
        made = draft(report(cases, name=name), Source(source, name), None, None, surface="cli")
        write_draft(made, LogLocation(path=tmp_path))
    return sj.history(log=tmp_path)


def test_the_history_chart_draws_each_version_and_escapes_every_text(tmp_path):
    found = _log(tmp_path)
    html = found._repr_html_()
    assert "img" not in tags(html) and "script" not in tags(html)
    assert "&lt;script&gt;" in html
    (svg,) = re.findall(r"<svg class=\"skh-chart\".*?</svg>", html, re.S)
    versions = {r.version for r in found}
    lines = re.findall(
        r'<polyline class="skh-(mean|rate)" data-series="\w+" data-version="(\w+)"', svg
    )
    assert {version for _, version in lines} == versions
    assert {series for series, _ in lines} == {"mean", "rate"}
    assert svg.count("<circle") == 5 and svg.count("<rect") == 5
    assert svg.count('class="skh-cut"') == 1  # the new version is marked where it starts
    assert all(r.id in html for r in found)


def test_the_text_lists_the_runs_and_each_version(tmp_path):
    text = str(_log(tmp_path, name="strict"))
    assert text.startswith("Run history: 5 runs")
    assert "strict v" in text and "2 runs, last mean" in text and "3 runs, last mean" in text


def test_a_diff_marks_its_regressions_and_escapes_everything():
    a = record_of([case(0, HOSTILE, feedback=HOSTILE), case(1, "b")], SOURCE_A, name=HOSTILE)
    b = record_of(
        [
            case(0, HOSTILE, score=0.0, failed="metric_return_value", feedback=HOSTILE + "!"),
            case(1, "b"),
        ],
        SOURCE_B,
        name=HOSTILE,
    )
    found = compare_runs(a, b)
    html = found._repr_html_()
    assert "img" not in tags(html) and "script" not in tags(html)
    assert 'data-group="regressions"' in html and 'class="skh-row-reg"' in html
    assert html.index('data-group="regressions"') < html.index("data-case=")
    assert "<del>&gt;</del><ins>&gt;!</ins>" in html
    text = str(found)
    assert text.startswith("1 case regressed") and "passed → failed" in text
    assert "[->-]{+>!+}" in text


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_the_views_speak_each_language(tmp_path, lang):
    _log(tmp_path, name="m")
    with language(lang):
        found = sj.history(log=tmp_path)
        a, b = found[1], found[0]
        diff = sj.diff(a, b)
    assert str(found).startswith(t("history.title", lang, count=5))
    assert t("history.series_rate", lang) in found._repr_html_()
    assert str(diff).startswith(t("history.diff_regressed", lang, count=1))
    assert t("history.group_regressions", lang, count=1) in str(diff)


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_the_warnings_speak_each_language(tmp_path, lang):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "bad.jsonl").write_bytes(b"{")
    with language(lang), pytest.warns(UserWarning) as said:
        sj.history(log=tmp_path)
    (warning,) = said
    assert str(warning.message).startswith(
        t("history.damaged", lang, path="X", why="").split("X")[0]
    )
    assert t("history.why_cut_short", lang) in str(warning.message)
