"""One stylesheet and one set of formats for every view: check and eval, quality, optimizer.

Each view's HTML, static or live, carries the one ``<style>`` of ``show/style.py``
and no other; its colours are the theme's variables; a score, a mean and an
amount of money read the same in the check, probe, stability and optimizer
views; strings are quoted as the check view quotes them.  (The real-browser
side, dark-theme contrast, is in tests/notebook/browser/test_*.py.)
"""

from __future__ import annotations

import dataclasses
import re
from html import unescape
from pathlib import Path

import ipywidgets
import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.report import CaseResult, Step
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.notebook.widgets._optimize_view import OptimizeView
from skynet_jupyter.notebook.widgets._quality_views import QualityView
from skynet_jupyter.optimizers.render import body_html, head_html, report_html
from skynet_jupyter.optimizers.report import Candidate, Costs, OptimizeReport, Proposal
from skynet_jupyter.show import formats
from skynet_jupyter.show.render import report_html as check_html
from skynet_jupyter.show.style import STYLE, THEME_CSS

TEXT_LIST = '["name", "email"]'  # a string that looks like a list
COST = 0.0012


def half(input, output, expected=None):
    return 0.5, {"feedback": "Half right."}


ROWS = [
    {"text": "I was charged twice.", "label": "billing", "said": TEXT_LIST, "human": "pass"},
    {"text": "The app crashes.", "label": "technical", "said": "technical", "human": "fail"},
]
OPTIONS = {"outputs": "label", "output_column": "said"}


def _check() -> sj.EvalReport:
    cases = [
        CaseResult(
            i,
            {"text": row["text"]},
            {"label": row["label"]},
            output=row["said"],
            score=0.5,
            feedback="Half right.",
            run_ms=12.0,
            cost_usd=COST,
        )
        for i, row in enumerate(ROWS)
    ]
    return sj.EvalReport(steps=[Step("metric_loads", "Metric loads", "passed")], cases=cases)


def _optimizer() -> OptimizeReport:
    record = {"Inputs": {"text": "hi"}, "Generated Outputs": TEXT_LIST, "Feedback": "f"}
    record["Score"] = 0.5
    return OptimizeReport(
        seed_artifact="seed",
        budget=4,
        candidates=[Candidate(0, "seed", None, 0.5), Candidate(1, "better", 0, 0.75)],
        proposals=[
            Proposal(1, 0, "seed", "better", [record], [0.5], [1.0], accepted=True, candidate=1)
        ],
        cost_usd=Costs(task=COST),
        calls=4,
        finished=True,
    )


REWARDED = """
from skynet import reward

REWARD_SPEC = {"weights": {"accuracy": 0.6, "speed": 0.3, "cost": 0.1}, "accuracy": {},
               "speed": {"reference": 10}, "cost": {"reference": 0.01}}


def score(input, output, expected=None):
    return reward(REWARD_SPEC, 0.5, "Half right.")
"""


def quarter(input, output, expected=None):
    return 0.25, {"feedback": "A quarter right."}


@pytest.fixture(scope="module")
def quality() -> dict[str, object]:
    return {
        "probe": sj.probe(half, ROWS, **OPTIONS),
        "stability": sj.stability(half, ROWS, repeats=2, **OPTIONS),
        "agreement": sj.agreement(half, ROWS, human="human", **OPTIONS),
        "compare": sj.compare(half, quarter, ROWS, **OPTIONS),
    }


@pytest.fixture(scope="module")
def views(quality) -> dict[str, str]:
    """Every view's HTML: static and live, check, quality and optimizer."""
    check = _check()
    live = LiveView(kind="eval")
    live.finish(check)
    found = {
        "check static": check_html(check),
        "check live head": live.head.value,
        "check live cases": live.cases.value,
    }
    rewarded = sj.check(REWARDED, ROWS, **OPTIONS)
    bars = LiveView(reward_spec=rewarded.reward_spec)
    bars.finish(rewarded)
    found["check static copy, with reward bars"] = bars.static_html()
    found["check live reward bars"] = bars.reward.bars.value
    for kind, report in quality.items():
        found[f"{kind} static"] = report.html()  # type: ignore[attr-defined]
        view = QualityView(kind=kind, metric_name="half")
        view.finish(report)
        found[f"{kind} live"] = view.body.value
    found["probe live detail"] = quality["probe"].probe_html("empty")  # type: ignore[attr-defined]
    optimized = _optimizer()
    found["optimizer static"] = report_html(optimized)
    view = OptimizeView(budget=4)
    view.finish(optimized)
    found["optimizer live head"] = view.head.value
    found["optimizer live body"] = view.body.value
    ipywidgets.Widget.close_all()
    return found


def test_every_view_carries_the_one_stylesheet_and_no_other(views):
    for name, html in views.items():
        styles = re.findall(r"<style>.*?</style>", html, flags=re.S)
        # Apart from the rule that hides a view's static copy where its widget renders.
        styles = [style for style in styles if "data-skynet-static" not in style]
        assert styles, name
        assert set(styles) == {STYLE}, name  # the one stylesheet, no view's own
        if "static" in name:  # an output's HTML carries it once
            assert len(styles) == 1, name
    assert head_html(_optimizer()).startswith(STYLE) and body_html(_optimizer()).startswith(STYLE)


def test_the_stylesheet_takes_every_colour_from_the_theme():
    rules = STYLE.replace(THEME_CSS, "")
    assert THEME_CSS in STYLE and rules != STYLE
    # Outside the theme block, a colour is a --skv-* variable or a JupyterLab one with a
    # light fallback: no fixed colour that a dark theme would leave unreadable.
    without_fallbacks = re.sub(r"var\(--jp-[\w-]+,[^()]*\)", "", rules)
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b|rgba?\(", without_fallbacks)
    for value in re.findall(r"(?<![\w-])(?:color|background|border-color):([^;}]+)", rules):
        assert value.startswith(("var(", "transparent")), value
    # The theme block: each colour comes from JupyterLab's variables where they exist,
    # with the plain light colour in the fallback (a static export, GitHub).
    for variable in ("--jp-success-color1", "--jp-error-color1", "--jp-warn-color1"):
        assert f"var({variable},#" in THEME_CSS
    for variable in ("--jp-ui-font-color1", "--jp-ui-font-color2", "--jp-layout-color1"):
        assert f"var({variable},#" in THEME_CSS


def test_a_score_a_mean_and_money_read_the_same_in_every_view(views, quality):
    score, mean, money = formats.fmt_score(0.5), formats.fmt_mean(0.5), formats.fmt_usd(COST, "en")
    assert (score, mean, money) == ("0.5", "0.500", "$0.0012")
    # A case's score of 0.5: the check view's rows, the probe's table, the optimizer's records.
    assert f">{score}</span>" in views["check static"]  # the coloured score
    assert f">{score}</div>" in views["check live cases"]
    real_scores = re.findall(r'<td class="skq-num">([^<]*)</td>', views["probe static"])
    assert score in real_scores
    assert f'<td class="sko-num">{score}</td>' in views["optimizer static"]
    # A mean of 0.5: the check's summary, the stability table, a candidate on validation.
    assert f"mean score {mean}" in views["check static"]
    stability = re.findall(r'<td class="skq-num">([^<]*)</td>', views["stability static"])
    assert mean in stability
    assert f'<span class="sko-score">{mean}</span>' in views["optimizer static"]
    # Money: a case's cost, a judge's, an optimizer run's.
    assert money in views["check static"] and money in views["check live cases"]
    judged = dataclasses.replace(quality["probe"], judge_cost_usd=COST)  # type: ignore[type-var]
    assert f"judge cost {money}" in judged.html()  # type: ignore[attr-defined]
    assert f"cost {money}" in views["optimizer static"]


def test_no_view_writes_its_own_number_format():
    # The formats live in show/formats.py; the views call them (a second format would
    # show the same value two ways).
    package = Path(sj.__file__).parent
    views = [
        package / "show" / "render.py",
        package / "optimizers" / "render.py",
        *(package / "quality").glob("*.py"),
        *(package / "notebook" / "widgets").glob("*.py"),
    ]
    for path in views:
        source = path.read_text(encoding="utf-8")
        written = [
            spec.group(0)
            for spec in re.finditer(r"\{[^{}]*:(\+?\.\d+[fg%])\}(%?)", source)
            # Exempt: a CSS width ("{width:.1f}%") and data attributes read by code (.6f).
            if not spec.group(2) and spec.group(1) != ".6f"
        ]
        assert not written, (path.name, written)


def test_strings_are_quoted_in_the_quality_and_optimizer_views_as_in_the_check_view(views):
    quoted = f'"{TEXT_LIST}"'
    for name in ("check static", "check live cases", "probe static", "compare static"):
        assert quoted in unescape(views[name]), name
    assert quoted in unescape(views["optimizer static"])  # the output a record shows
    assert '"fail"' in unescape(views["agreement static"])  # a human label is a value too
    # The list-looking text stays escaped markup-wise: no raw quote inside an attribute.
    assert quoted not in views["probe static"] and "&quot;" in views["probe static"]
