"""What an independent attack on ``sj.race`` / ``%skynet_race`` found (issue 38), each kept
as a test that failed before its fix: no winner without a race, failures said rather than
scored as a silent tie, duplicated rows kept on one side of the held-out split, sentences
instead of deep errors for bad input, names shown on one line, and the magic's words."""

from __future__ import annotations

import _thread
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from skynet_jupyter.core.errors import DataError
from skynet_jupyter.examples.classify import run as classify
from tests.conftest import require_module
from tests.race_support import INFORMATIVE, TERSE, WEAK_PROMPT, FeedbackReader, tickets

gepa = require_module("gepa")


def race(metrics=None, data=None, **options):
    settings = {
        "outputs": "label",
        "run": classify,
        "artifact": WEAK_PROMPT,
        "reflection_model": sj.StandInModel(FeedbackReader(), tag=""),
        "budget": 30,
        "held_out": 10,
        **options,
    }
    metrics = metrics or {"informative": INFORMATIVE, "terse": TERSE}
    return sj.race(metrics, tickets() if data is None else data, **settings)


def test_no_winner_when_only_one_metric_finished_a_run(ctrl_c):
    reader = FeedbackReader()

    def answer(instructions, _input):
        if "Wrong." in instructions:  # the second metric's run: Ctrl-C there
            _thread.interrupt_main()
        return reader(instructions, _input)

    report = race(reflection_model=sj.StandInModel(answer, tag=""))
    assert report.interrupted
    assert report.winner is None and report.verdict().why == "alone"
    assert str(report).startswith("Only 'informative' finished a run")


def test_max_cost_gives_every_run_the_same_share():
    priced = sj.StandInModel(FeedbackReader(), tag="", output_cost_per_token=0.0001)
    report = race(reflection_model=priced, budget=60, max_cost=0.10)
    share = report.run_max_cost
    assert share == pytest.approx(0.05)
    assert all(len(entry.runs) == 1 for entry in report.entries)  # the first left some
    assert "max_cost $0.1 for the whole race ($0.05 per run)" in str(report)


def test_a_referee_that_fails_everywhere_gives_no_verdict_and_says_so():
    def referee(input, output, expected=None):
        raise RuntimeError("referee is broken")

    report = race(referee=referee)
    assert report.winner is None and report.verdict().why == "failed"
    text = str(report)
    assert text.startswith("No verdict: every held-out scoring failed")
    assert "held-out scorings failed" in text


def test_a_run_failing_on_some_held_out_cases_is_said_beside_the_verdict():
    held = race().held_out_cases
    texts = {tickets().iloc[i]["text"] for i in held[:3]}

    def run(artifact, case_input):
        if case_input["text"] in texts:
            raise RuntimeError("the run fails on this one")
        return classify(artifact, case_input)

    report = race(run=run)
    assert report.held_failures == 3 * 3  # three cases, for the seed and each best artifact
    assert f"{report.held_failures} of the {report.held_scorings} held-out scorings failed" in (
        str(report)
    )


def test_duplicated_rows_stay_on_one_side_of_the_held_out_split():
    data = pd.concat([tickets().iloc[:15], tickets().iloc[:15]], ignore_index=True)
    seen: list[str] = []

    def watching(input, output, expected=None):
        seen.append(input["text"])
        return float(output == expected["label"]), {"feedback": "Wrong."}

    report = race({"a": watching, "b": TERSE}, data, held_out=8, referee=TERSE)
    held = {data.iloc[i]["text"] for i in report.held_out_cases}
    assert held and held.isdisjoint(seen)


@pytest.mark.parametrize(
    ("options", "error", "said"),
    [
        ({"held_out": 29}, DataError, "With held_out=29, only 1 of 30 cases remain for GEPA"),
        ({"held_out": 10**9}, DataError, "give a smaller held_out="),
        ({"seed": None}, TypeError, "seed must be a whole number, got None."),
        ({"referee": 42}, TypeError, "Metric 'referee' is of type int"),
        ({"referee": "nope"}, ValueError, "referee='nope' is none of the racing metrics"),
        ({"executor": "thread"}, ValueError, "executor must be a concurrent.futures.Executor"),
        ({"budget": 1}, ValueError, "budget=1 is spent before GEPA can propose anything"),
    ],
)
def test_bad_input_is_a_sentence_naming_it(options, error, said):
    with pytest.raises(error, match=said.replace("(", r"\(").replace(")", r"\)")):
        race(**options)


def test_a_metric_that_is_not_one_is_named():
    with pytest.raises(TypeError, match="Metric 'a' is of type NoneType"):
        race({"a": None, "b": TERSE})
    with pytest.raises(ValueError, match="needs a name to show"):
        race({" ": TERSE, "b": TERSE})


def test_an_executor_still_runs_a_race():
    with ThreadPoolExecutor(2) as pool:
        report = race(executor=pool, repeats=1)
    assert report.finished and report.stopped is None


def test_line_breaks_in_a_name_stay_on_one_line_of_the_table():
    names = {"a\nb": TERSE, "c\u2028d\re": INFORMATIVE}
    text = str(race(names))
    table = [line for line in text.splitlines() if "b" in line and ("a\\nb" in line)]
    assert table, text
    assert "c\\u2028d\\re" in text
    assert not any(ch in text for ch in "\u2028\r")


def test_a_control_character_in_a_name_is_shown_as_text_shows_it_in_the_standings():
    """Found by the attack on issue 44: the standings table of the race's text showed a
    metric named "A\\x1b[2J" as "A#x1B[2J", an HTML character reference without its "&"
    (the escaping meant for JUnit XML), while the verdict and the notes showed "\\x1b".
    Every line of the text shows it as repr does; the HTML, as HTML does."""
    report = race({"A\x1b[2J": TERSE, "B": INFORMATIVE}, repeats=1)
    text = str(report)
    assert "#x1B" not in text and "\x1b" not in text
    table = [line for line in text.splitlines() if line.lstrip().startswith("A\\x1b[2J ")]
    assert len(table) == 1, text
    assert "#x1B" not in report._repr_html_()


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


LINE = (
    "--data tickets --outputs label --run classify --artifact weak_prompt "
    "--reflection-model reader --budget 30 --held-out 10"
)


@pytest.mark.parametrize(
    ("metrics", "said"),
    [
        ("informative,nope", "--metrics: no registered metric 'nope'; registered:"),
        ("informative,,terse", "name two or more registered metrics"),
        ("informative,informative", "two or more distinct registered metrics"),
    ],
)
def test_the_magic_says_what_is_wrong_with_its_metrics(shell, metrics, said):
    with capture_output(), pytest.raises(UsageError, match=said):
        shell.run_line_magic("skynet_race", f"--metrics {metrics} {LINE}")


def test_the_magic_reads_names_with_spaces_and_quotes(shell):
    with capture_output():
        report = shell.run_line_magic("skynet_race", f"--metrics 'informative, terse' {LINE};")
    assert [entry.name for entry in report.entries] == ["informative", "terse"]
    with capture_output(), pytest.raises(UsageError, match="--referee: no registered metric"):
        shell.run_line_magic("skynet_race", f"--metrics informative,terse --referee x {LINE}")
