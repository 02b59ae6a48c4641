"""Issue 43's tool-level rules, one test per rule over the three optimizer tools.

``optimize``, ``race`` and ``align`` go through ``optimizers/tool_rules.py``:

1. a model's key, missing or refused, stops the tool at once (no further GEPA run,
   metric or seed), its sentence is the report's head, no verdict is given, and a
   refused key (the judge's, the reflection model's) is sent once per tool call;
3. an exception leaving the tool (a listener that raised, an executor that failed)
   carries the tool's own partial report as ``.skynet_report``;
5. the tool stays within ``max_cost``, or says by how much and why.

Real GEPA; the keys are real litellm calls against the loopback server (a 401 for a
refused key) or a missing ``OPENAI_API_KEY`` (no request at all).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.alignment.report import AlignReport
from skynet_jupyter.examples.classify import run as classify
from skynet_jupyter.i18n import t
from skynet_jupyter.optimizers.race_report import RaceReport
from skynet_jupyter.optimizers.report import OptimizeReport
from skynet_jupyter.optimizers.tool_rules import past_max_cost, split_max_cost
from tests.align_support import JUDGE_METRIC, RuleWriter, judge_model, replies
from tests.conftest import require_module
from tests.openai_server import OpenAIServer
from tests.race_support import TERSE, WEAK_PROMPT, FeedbackReader, tickets
from tests.served_models import KEY, served

require_module("gepa")

# A judge metric for optimize and race: an LLM asked about each label, scored by exact match.
JUDGED = """
from skynet import llm


def score(input, output, expected=None):
    llm("Is the label right?", {"text": input["text"], "label": output})
    return float(output == expected["label"]), {"feedback": "Judged."}
"""

Tool = Callable[..., Any]


def run_optimize(judge: Any, reflection: Any = None, **options: Any) -> OptimizeReport:
    return sj.optimize(
        JUDGED,
        tickets(),
        outputs="label",
        run=classify,
        artifact=WEAK_PROMPT,
        budget=30,
        reflection_model=reflection or sj.StandInModel(FeedbackReader(), tag=""),
        models=sj.ModelSettings(metric_model=judge),
        **options,
    )


def run_race(judge: Any, reflection: Any = None, **options: Any) -> RaceReport:
    return sj.race(
        {"terse": TERSE, "judged": JUDGED},
        tickets(),
        outputs="label",
        run=classify,
        artifact=WEAK_PROMPT,
        budget=30,
        held_out=10,
        repeats=2,
        reflection_model=reflection or sj.StandInModel(FeedbackReader(), tag=""),
        models=sj.ModelSettings(metric_model=judge),
        **options,
    )


def run_align(judge: Any, reflection: Any = None, **options: Any) -> AlignReport:
    return sj.align(
        JUDGE_METRIC,
        replies(),
        labels="human",
        output_column="reply",
        rationale="why",
        budget=30,
        reflection_model=reflection or sj.StandInModel(RuleWriter()),
        models=sj.ModelSettings(metric_model=judge),
        **options,
    )


# Each tool, the report it returns, and a judge (a stand-in) its metric reads right.
TOOLS: dict[str, tuple[Tool, type, Callable[[], Any]]] = {
    "optimize": (run_optimize, OptimizeReport, lambda: sj.StandInModel("PASS")),
    "race": (run_race, RaceReport, lambda: sj.StandInModel("PASS")),
    "align": (run_align, AlignReport, judge_model),
}
tools = pytest.mark.parametrize("tool", list(TOOLS))


@pytest.fixture(scope="module")
def server():
    with OpenAIServer() as running:
        yield running


@pytest.fixture
def refusing(server):
    """The loopback server refusing the test key (401), and how many requests it got."""
    server.reject_keys = {KEY}
    since = len(server.calls())
    yield lambda: len(server.calls()) - since
    server.reject_keys = set()


def assert_stopped_by_the_key(report: Any, starts: str) -> None:
    """Rule 1's report: the stop kept, its sentence first, no verdict, no blame."""
    assert report.stop is not None and report.stop.kind == "model_key"
    text = str(report)
    assert text.startswith(starts), text[:300]
    assert KEY not in text and KEY not in report._repr_html_()
    for blame in ("fix the metric", "broke the contract", "No candidate", "A tie", " wins"):
        assert blame not in text
    assert ".. " not in text  # no doubled period after the key's sentence
    assert report.finished


# --- rule 1: a key problem stops the tool -------------------------------------------------


@tools
def test_a_missing_judge_key_stops_the_tool_before_any_request(tool, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    run, kind, _ = TOOLS[tool]
    report = run("openai/gpt-4o-mini")
    assert type(report) is kind
    assert_stopped_by_the_key(report, "openai/gpt-4o-mini needs an API key and none is set")
    if tool == "optimize":
        assert report.calls == 1 and report.proposals == [] and report.advice == []
    if tool == "race":
        assert report.verdict().why == "stopped" and report.winner is None
    if tool == "align":
        assert report.optimization.calls == 0 and not report.improved


@tools
def test_a_refused_judge_key_is_sent_once(tool, server, refusing):
    run, _, _ = TOOLS[tool]
    report = run(served(server))
    assert refusing() == 1
    assert_stopped_by_the_key(report, "The provider refused the API key for openai/gpt-4o-mini")


@tools
def test_a_refused_reflection_key_is_sent_once(tool, server, refusing):
    run, _, judge = TOOLS[tool]
    report = run(judge(), reflection=served(server))
    assert refusing() == 1  # GEPA's retry of the batched proposal, task by task, sent nothing
    assert_stopped_by_the_key(report, "The provider refused the API key for openai/gpt-4o-mini")
    optimization = report if tool == "optimize" else getattr(report, "optimization", None)
    if optimization is not None:
        assert optimization.error is None  # not "The reflection model failed: ... Check"
        assert optimization.reflection_calls == 0
    if tool == "race":
        assert sum(len(entry.runs) for entry in report.entries) == 1


# --- rule 3: the tool's own partial report rides on the exception -------------------------


class Broke(Exception):
    pass


@tools
@pytest.mark.parametrize("after", [1, 25])
def test_a_listener_that_raises_carries_the_tools_own_report(tool, after):
    run, kind, judge = TOOLS[tool]
    heard: list[str] = []

    def listener(event: Any) -> None:
        heard.append(event.kind)
        if len(heard) == after:
            raise Broke(event.kind)

    with pytest.raises(Broke) as raised:
        run(judge(), on_event=listener)
    report = raised.value.skynet_report
    assert type(report) is kind
    notes = getattr(raised.value, "__notes__", [])
    assert [note for note in notes if ".skynet_report" in note] == [
        t("tool.partial_report", "en", report=kind.__name__)
    ]
    assert report.finished and "Stopped by an error" in str(report)


class FailingExecutor(ThreadPoolExecutor):
    """An executor whose cluster goes away after ``after`` tasks."""

    def __init__(self, after: int) -> None:
        super().__init__(2)
        self.after, self.submitted = after, 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        if self.submitted > self.after:
            raise RuntimeError("the cluster went away")
        return super().submit(*args, **kwargs)


@tools
def test_a_failing_executor_carries_the_tools_own_report(tool):
    run, kind, judge = TOOLS[tool]
    # Past the first evaluations (optimize, the first run: race, the first pass: align).
    after = {"optimize": 8, "race": 40, "align": 20}[tool]
    with (
        FailingExecutor(after) as pool,
        pytest.raises(RuntimeError, match="went away") as raised,
    ):
        run(judge(), executor=pool)
    report = raised.value.skynet_report
    assert type(report) is kind
    if tool == "race":  # the seed's scoring and the first run, as far as it got
        assert report.seed_scores and report.entries[0].runs
    if tool == "optimize":
        assert report.calls > 0 and report.candidates
    if tool == "align":
        assert report.first_pass_calls > 0


# --- rule 5: within max_cost, or said by how much and why -----------------------------------


@tools
def test_past_max_cost_is_said_by_how_much_and_why(tool):
    run, _, judge = TOOLS[tool]
    reader = FeedbackReader() if tool != "align" else RuleWriter()
    priced = sj.StandInModel(reader, tag="", output_cost_per_token=0.0002)
    report = run(judge(), reflection=priced, max_cost=0.003)
    spent = report.cost_usd.total
    text = str(report)
    said = re.search(r"Spent \$([0-9.]+), \$([0-9.]+) past max_cost \$0\.003: (\S.+)", text)
    assert spent > 0.003  # one proposal costs more than the money left: past it, said
    assert said is not None, text[:600]
    assert float(said.group(1)) == pytest.approx(spent, abs=1e-6)
    assert float(said.group(2)) == pytest.approx(spent - 0.003, abs=1e-6)
    assert "between iterations" in said.group(3)


money = st.floats(min_value=1e-6, max_value=100, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(max_cost=money, runs=st.integers(1, 400), kept=st.floats(0, 150))
def test_shares_are_equal_and_add_up_to_what_is_left(max_cost, runs, kept):
    share = split_max_cost(max_cost, runs, kept)
    assert share is not None and share >= 0
    if kept < max_cost:
        assert share * runs + kept == pytest.approx(max_cost)
    else:
        assert share == 0  # nothing left for the runs: the race says so, never a negative
    assert split_max_cost(None, runs, kept) is None


@settings(max_examples=200, deadline=None)
@given(max_cost=money, spent=st.floats(0, 200))
def test_past_max_cost_is_said_exactly_when_it_is_past(max_cost, spent):
    said = past_max_cost(spent, max_cost, "en", "why.")
    if spent <= max_cost:
        assert said is None
    else:
        assert said is None or (said.startswith("Spent $") and said.endswith(": why."))
        if spent - max_cost > 1e-6 * max_cost:
            assert said is not None
