"""What every view shows the same way: marks, quoted strings, cached outputs, steps, colours.

The live view's rows (``widgets/_html.py``), the static HTML (``render.report_html``,
what exports and GitHub show) and the text (``str(report)``) are read side by side.
The real-browser side (exports, narrow windows, dark themes) is in
``tests/notebook/browser/test_frontends.py``.
"""

from __future__ import annotations

import re
from html import unescape

import skynet_jupyter as sj
from skynet_jupyter.core.report import CaseResult, Step
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.notebook.widgets._html import STYLE
from skynet_jupyter.show.render import report_html

TEXT_LIST = '["name", "email"]'


def _case(index: int, **fields) -> CaseResult:
    values = {"output": "billing", "score": 1.0, "feedback": "fine"} | fields
    return CaseResult(index, {"text": "t"}, {"label": "billing"}, **values)


def _views(report: sj.CheckReport) -> dict[str, str]:
    view = LiveView(kind=report.kind)
    view.finish(report)
    return {"live": view.cases.value, "static": report_html(report), "text": str(report)}


def _row(html: str, index: int) -> str:
    found = re.search(rf'<tr data-case="{index}".*?</tr>', html, flags=re.S)
    assert found, index
    return found.group(0)


def test_a_zero_score_gets_no_mark_that_reads_correct():
    report = sj.CheckReport(steps=[], cases=[_case(0, score=0.0), _case(1, score=1.0)])
    views = _views(report)
    for name in ("live", "static"):
        zero, one = _row(views[name], 0), _row(views[name], 1)
        for row in (zero, one):
            assert "✓" not in row, name  # the contract held: a neutral circle
            assert "○" in row, name
        prefix = "skv" if name == "live" else "sk"
        assert f"{prefix}-score-lo" in zero and f"{prefix}-score-hi" in one, name
        assert f"{prefix}-pass" not in zero, name  # no success colour on the contract mark
        assert "kept the contract" in unescape(views[name])  # the legend says what ○ means
    case_lines = [line for line in views["text"].splitlines() if " case " in line]
    assert case_lines and all(line.lstrip().startswith("○") for line in case_lines)


def test_a_broken_contract_is_a_red_cross_in_every_view():
    broken = _case(0, output=None, score=None, feedback=None, error="boom")
    broken.failed_step = "run_function"
    views = _views(sj.CheckReport(steps=[], cases=[broken]))
    assert "skv-fail" in _row(views["live"], 0) and "✗" in _row(views["live"], 0)
    assert "sk-fail" in _row(views["static"], 0) and "✗" in _row(views["static"], 0)
    assert any(line.lstrip().startswith("✗") for line in views["text"].splitlines())


def test_a_string_never_looks_like_a_list():
    text_case = _case(0, output=TEXT_LIST)
    list_case = _case(1, output=["name", "email"])
    views = _views(sj.CheckReport(steps=[], cases=[text_case, list_case]))
    text_lines = views["text"].splitlines()
    assert f'output: "{TEXT_LIST}"' in [line.strip() for line in text_lines]
    assert f"output: {TEXT_LIST}" in [line.strip() for line in text_lines]  # the list
    for name in ("live", "static"):
        as_text = unescape(_row(views[name], 0))
        as_list = unescape(_row(views[name], 1))
        assert f'"{TEXT_LIST}"' in as_text, name  # quoted: a string
        assert TEXT_LIST in as_list and f'"{TEXT_LIST}"' not in as_list, name
    # A one-key dict's string is quoted too (the issue's `fields: ["name", "email"]`).
    views = _views(sj.CheckReport(steps=[], cases=[_case(0, output={"fields": TEXT_LIST})]))
    for name in ("live", "static"):
        assert f'fields: "{TEXT_LIST}"' in unescape(_row(views[name], 0)), name


def test_cached_outputs_are_marked_with_the_original_run_in_every_view():
    cached = _case(0, run_ms=120.0, cost_usd=0.0004, model_calls=1)
    cached.cached = True  # its run's one model call was answered from the run cache
    fresh = _case(1, run_ms=80.0, cost_usd=0.0002)
    views = _views(sj.CheckReport(steps=[], cases=[cached, fresh]))
    note = "cached: the original run's time and cost"
    for name in ("live", "static"):
        assert note in unescape(_row(views[name], 0)), name
        assert note not in unescape(_row(views[name], 1)), name
        assert "120.0 ms" in _row(views[name], 0) and "$0.0004" in _row(views[name], 0), name
    text_lines = views["text"].split("\n")
    first = next(i for i, line in enumerate(text_lines) if " case 0" in line)
    second = next(i for i, line in enumerate(text_lines) if " case 1" in line)
    assert note in " ".join(text_lines[first:second])
    assert note not in " ".join(text_lines[second:])


def test_the_running_view_shows_the_same_steps_as_the_finished_one():
    report = sj.check(
        lambda input, output, expected=None: (1.0, "ok"),
        [{"text": "a", "label": "x"}] * 3,
        outputs="label",
        output_column="label",
    )
    view = LiveView()
    running_ids = re.findall(r'data-step="([^"]+)"', view.head.value)
    view.finish(report)
    finished_ids = re.findall(r'data-step="([^"]+)"', view.head.value)
    assert running_ids == finished_ids == [step.id for step in report.steps]
    assert "feedback_advice" in running_ids


def test_colours_come_from_the_theme_with_fallbacks():
    steps = [Step("metric_loads", "Metric loads", "passed")]
    static = report_html(sj.CheckReport(steps=steps, cases=[_case(0)]))
    for css in (STYLE, static):
        for variable in ("--jp-success-color1", "--jp-error-color1", "--jp-ui-font-color1"):
            assert f"var({variable}," in css  # with a fallback after the comma
        assert "color:#1a7f37" not in css and "color:#cf222e" not in css  # no fixed colours
    # The static table outweighs the host page's right-aligned cells and fixed layout,
    # and wraps at spaces (break-word), never mid-word (word-break:break-word/anywhere).
    assert ".skynet-report table.sk-cases th,.skynet-report table.sk-cases td{" in static
    assert "text-align:left" in static and "table-layout:auto" in static
    assert "word-break:break-word" not in static and "overflow-wrap:break-word" in static
    assert "@container (max-width:640px)" in static and "@container (max-width:640px)" in STYLE
