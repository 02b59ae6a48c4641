"""``%skynet_race``: ``sj.race`` through the magic, with its live view (and its chart), the
same options as ``%skynet_optimize`` and its usage errors (real gepa, a stand-in reader)."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.examples.classify import run as classify  # noqa: E402
from tests.race_support import INFORMATIVE, TERSE, WEAK_PROMPT, FeedbackReader, tickets  # noqa: E402

WIDGET = "application/vnd.jupyter.widget-view+json"
LINE = (
    "--metrics informative,terse --data tickets --outputs label --run classify "
    "--artifact weak_prompt --reflection-model reader --budget 60 --held-out 12 --repeats 3 "
    "--seed 2"
)


@pytest.fixture
def shell(shell):
    shell.user_ns.update(
        tickets=tickets(),
        classify=classify,
        weak_prompt=WEAK_PROMPT,
        reader=sj.StandInModel(FeedbackReader(), tag=""),
    )
    shell.run_cell("%%skynet_metric informative\n" + INFORMATIVE).raise_error()
    shell.run_cell("%%skynet_metric terse\n" + TERSE).raise_error()
    return shell


def test_the_magic_races_with_a_live_view_and_its_chart(shell):
    with capture_output() as captured:
        report = shell.run_line_magic("skynet_race", LINE)
    assert isinstance(report, sj.RaceReport)
    assert report.winner == "informative"
    shown = [output for output in captured.outputs if not output.update]
    assert len(shown) == 2, "one live view (the widget, then its static copy), not the report"
    assert WIDGET in shown[0].data
    final = captured.outputs[-1].data["text/html"]
    assert "&#x27;informative&#x27; wins" in final
    assert final.count("<polyline") == 6  # one curve per metric and seed
    assert 'class="skr-chart"' in final


def test_the_magic_and_the_function_give_the_same_standings(shell):
    with capture_output():
        magic = shell.run_line_magic("skynet_race", LINE + ";")
    direct = sj.race(
        {"informative": INFORMATIVE, "terse": TERSE},
        tickets(),
        outputs="label",
        run=classify,
        artifact=WEAK_PROMPT,
        reflection_model=sj.StandInModel(FeedbackReader(), tag=""),
        budget=60,
        held_out=12,
        repeats=3,
        seed=2,
    )
    assert [e.scores for e in magic.entries] == [e.scores for e in direct.entries]
    assert magic.held_out_cases == direct.held_out_cases


def test_its_help_lists_the_optimizers_options_and_its_own(shell):
    from skynet_jupyter.notebook.magics import SkynetMagics

    helped = SkynetMagics.skynet_race.__doc__  # what %skynet_race? shows (its parser's help)
    for option in (
        "--metrics",
        "--referee",
        "--held-out",
        "--repeats",
        "--budget",
        "--max-cost",
        "--val",
        "--seed",
        "--reflection-model",
        "--timeout",
        "--concurrency",
        "--lang",
        "--gepa-options",
        "--fresh",
    ):
        assert option in helped, option
    assert "--metric " not in helped


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (LINE.replace("informative,terse", "informative"), "name two or more"),
        (LINE.replace("informative,terse", "informative,nope"), "nope"),
        (LINE.replace("--held-out 12", "--held-out 3"), "at least 5 held-out cases"),
        (LINE.replace("--budget 60", "--budget 40000"), "metric calls in all"),
    ],
)
def test_refusals_are_usage_errors(shell, line, said):
    with capture_output(), pytest.raises(UsageError, match=said):
        shell.run_line_magic("skynet_race", line)


JUDGED = """
from skynet import llm


def score(input, output, expected=None):
    llm("Is the label right?", {"text": input["text"], "label": output})
    return float(output == expected["label"]), {"feedback": "Judged."}
"""


def test_a_missing_judge_key_ends_the_magic_with_its_sentence(shell, monkeypatch):
    """Issue 43, K1 through the magic: the view's head is the key's sentence, no verdict."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    shell.run_cell("%%skynet_metric judged\n" + JUDGED).raise_error()
    shell.run_line_magic("config", 'SkynetMagics.metric_model = "openai/gpt-4o-mini"')
    line = LINE.replace("informative,terse", "judged,terse")
    with capture_output() as captured:
        report = shell.run_line_magic("skynet_race", line)
    assert report.stop is not None and report.stop.kind == "model_key"
    final = captured.outputs[-1].data["text/html"]
    assert "openai/gpt-4o-mini needs an API key and none is set" in final
    assert " wins" not in final and "A tie" not in final
    assert all(not entry.runs for entry in report.entries)


def test_calls_past_the_budget_are_said_in_the_view(shell):
    """Issue 44, item 9: the bar says how many calls went past the budget, the head why."""
    with capture_output() as captured:
        report = shell.run_line_magic("skynet_race", LINE)
    calls = sum(entry.calls for entry in report.entries)
    assert calls > 360
    final = captured.outputs[-1].data["text/html"]
    assert f"{calls} metric calls, {calls - 360} past the budget of 360: GEPA checks" in final
    assert f"{calls} of 360" not in final
