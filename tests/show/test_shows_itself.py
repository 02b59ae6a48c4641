"""Reports show themselves through the views registered for them, never by importing them.

A report class is plain data low in the package; its views live in a higher
layer and register for it (``core/shows_itself.py``).  A report shown before
anything imported its views still shows itself, exactly as the views draw it.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import dataclass

import pytest

from skynet_jupyter.core.report import CheckReport, EvalReport
from skynet_jupyter.core.shows_itself import VIEW_MODULES, ShowsItself, View, show_with, view_of
from skynet_jupyter.show.render import report_html, report_text

_ONLY_THE_CORE = """
import json, sys
from skynet_jupyter.core.report import CaseResult, CheckReport
report = CheckReport(steps=[], cases=[CaseResult(0, {"q": 1}, None, output=1, score=1.0)])
loaded_before = "skynet_jupyter.show.render" in sys.modules
print(json.dumps([loaded_before, str(report), report._repr_html_()]))
"""

_AFTER_THE_VIEWS = """
import json
from skynet_jupyter.core.report import CaseResult, CheckReport
from skynet_jupyter.show.render import report_html, report_text
report = CheckReport(steps=[], cases=[CaseResult(0, {"q": 1}, None, output=1, score=1.0)])
print(json.dumps([report_text(report), report_html(report)]))
"""


def _run(code: str) -> list[object]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return list(json.loads(done.stdout))


def test_a_report_built_from_the_core_alone_shows_itself_as_its_views_draw_it():
    loaded_before, text, html = _run(_ONLY_THE_CORE)
    assert loaded_before is False  # the core imported no view
    assert [text, html] == _run(_AFTER_THE_VIEWS)


def test_an_evaluation_report_is_shown_by_the_check_reports_views():
    report = EvalReport(steps=[], cases=[])
    assert view_of(EvalReport) == view_of(CheckReport)
    assert str(report) == report_text(report)
    assert report._repr_html_() == report_html(report)


def test_a_report_class_registers_its_own_views():
    @dataclass
    class Tally(ShowsItself):
        count: int

    show_with(Tally, text=lambda tally: f"{tally.count} seen", html=lambda tally: "<b>n</b>")
    assert str(Tally(3)) == "3 seen"
    assert Tally(3)._repr_html_() == "<b>n</b>"


def test_a_report_without_views_says_so():
    @dataclass
    class Unshown(ShowsItself):
        count: int

    with pytest.raises(LookupError, match="Unshown"):
        str(Unshown(1))


def test_each_report_is_shown_by_its_own_renderer():
    from skynet_jupyter.alignment import render as align_render
    from skynet_jupyter.alignment.report import AlignReport
    from skynet_jupyter.optimizers import render as optimize_render
    from skynet_jupyter.optimizers.report import OptimizeReport
    from skynet_jupyter.show import render

    assert view_of(CheckReport) == View(render.report_text, render.report_html)
    assert view_of(OptimizeReport) == View(optimize_render.report_text, optimize_render.report_html)
    assert view_of(AlignReport) == View(align_render.align_text, align_render.align_html)


def test_the_view_modules_named_for_a_lookup_by_name_exist():
    for name in VIEW_MODULES:
        assert importlib.util.find_spec(name) is not None, name
