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
