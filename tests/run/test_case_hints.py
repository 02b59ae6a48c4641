"""The fix a report gives depends on why the case failed: raised, bad shape, no model.

And the contract's "a tuple or a list of two elements" includes tuple subclasses
(a namedtuple), read through the base type.
"""

from __future__ import annotations

from collections import namedtuple

import ipywidgets
import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import ContractError, raised_at, validate_return
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper import skynet as skynet_helpers
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.notebook.widgets._state import LiveState

RAISES_IN_A_HELPER = """
def parse(output):
    return int(output)


def score(input, output, expected=None):
    value = parse(output)
    return float(value), {"feedback": "ok"}
"""

BAD_SHAPE = """
def score(input, output, expected=None):
    return 1.0
"""

ASKS_THE_JUDGE = """
from skynet import llm


def score(input, output, expected=None):
    verdict = llm("Is this right?", output)
    return float(verdict == "PASS"), {"feedback": verdict}
"""


@pytest.fixture
def no_models(monkeypatch):
    for name in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())


@pytest.fixture(autouse=True)
def close_widgets():
    yield
    ipywidgets.Widget.close_all()


def metric_step(report):
    return report.step("metric_return_value")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "score raised an exception at <skynet_metric default>, line 3, in parse"),
        ("fr", "score a levé une exception à <skynet_metric default>, line 3, in parse"),
        ("pt", "score lançou uma exceção em <skynet_metric default>, line 3, in parse"),
    ],
)
def test_a_metric_that_raises_is_told_where_it_raised(tickets, lang, said):
    report = sj.check(
        RAISES_IN_A_HELPER, tickets, outputs="label", output_column="label", lang=lang
    )
    step = metric_step(report)
    assert step.status == "failed"
    assert said in step.hint
    assert "(number, " not in step.hint and "(nombre, " not in step.hint  # not "Return a pair"
    assert said in str(report)


def test_a_bad_return_value_still_gets_the_return_a_pair_hint(tickets):
    report = sj.check(BAD_SHAPE, tickets, outputs="label", output_column="label")
    step = metric_step(report)
    assert step.hint.startswith("Return a pair: (number, ")
    assert "raised" not in step.hint


def test_the_live_view_gives_the_same_hint_while_running(tickets):
    report = sj.check(RAISES_IN_A_HELPER, tickets, outputs="label", output_column="label")
    state = LiveState(kind="check")
    state.add_many(report.cases)  # the cases as they arrive, before the report exists
    running = next(s for s in state.steps() if s.id == "metric_return_value")
    assert running.hint == metric_step(report).hint
    view = LiveView(kind="check")
    view.finish(report)
    assert "line 3, in parse" in view.head.value


def test_a_missing_judge_model_names_every_way_to_set_it(tickets, no_models):
    report = sj.check(ASKS_THE_JUDGE, tickets, outputs="label", output_column="label")
    hint = metric_step(report).hint
    for named in (
        "SKYNET_METRIC_MODEL",
        "skynet_jupyter.configure(metric_model=...)",
        "%config SkynetMagics.metric_model",
    ):
        assert named in hint
    assert "Return a pair" not in hint
    french = sj.check(ASKS_THE_JUDGE, tickets, outputs="label", output_column="label", lang="fr")
    assert "SKYNET_METRIC_MODEL" in metric_step(french).hint
    assert "aucun n'est défini" in metric_step(french).hint


def test_a_run_asking_a_missing_task_model_names_the_task_settings(tickets, no_models):
    def run(artifact, case_input):
        return skynet_helpers.llm(artifact, case_input["text"])

    report = sj.check(
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n",
        tickets,
        outputs="label",
        run=run,
        artifact="Label it.",
    )
    step = report.step("run_function")
    assert step.status == "failed"
    for named in (
        "SKYNET_TASK_MODEL",
        "skynet_jupyter.configure(task_model=...)",
        "%config SkynetMagics.task_model",
    ):
        assert named in step.hint
    assert "SKYNET_METRIC_MODEL" not in step.hint


def test_a_run_that_raises_is_told_where(tickets):
    def run(artifact, case_input):
        return {}["missing"]

    report = sj.check(
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n",
        tickets,
        outputs="label",
        run=run,
        artifact="x",
    )
    hint = report.step("run_function").hint
    assert hint.startswith("run(artifact, input) raised an exception at ")
    assert "test_case_hints.py, line" in hint and "in run:" in hint


def test_raised_at_reads_the_last_user_frame():
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "metric.py", line 9, in score\n    value = parse(output)\n'
        '  File "metric.py", line 3, in parse\n    return int(output)\n'
        "ValueError: invalid literal"
    )
    assert raised_at(traceback) == "metric.py, line 3, in parse"
    assert raised_at("ValueError: no frames") is None
    assert raised_at(None) is None


# --- a pair is a tuple or a list of two, subclasses included ---------------------------

Pair = namedtuple("Pair", "score info")


class StubbornTuple(tuple):
    """A tuple subclass whose own __len__ and __iter__ lie: the base type is read."""

    def __len__(self) -> int:
        raise RuntimeError("no len")

    def __iter__(self):
        raise RuntimeError("no iter")


class FeedbackDict(dict):
    def get(self, *args, **kwargs):
        raise RuntimeError("no get")


def test_a_namedtuple_or_tuple_subclass_of_two_is_a_pair():
    assert validate_return(Pair(1.0, {"feedback": "ok"})) == (1.0, {"feedback": "ok"})
    assert validate_return(StubbornTuple((0.5, {"feedback": "ok"})))[0] == 0.5
    info = FeedbackDict(feedback="ok")
    assert validate_return((1, info)) == (1.0, info)

    class PairList(list):
        pass

    assert validate_return(PairList([0.25, {"feedback": "ok"}]))[0] == 0.25
    Triple = namedtuple("Triple", "a b c")
    with pytest.raises(ContractError) as caught:
        validate_return(Triple(1.0, {"feedback": "ok"}, None))
    assert caught.value.message_id == "return.wrong_length"


def test_a_metric_returning_a_namedtuple_passes_the_check(tickets):
    metric = """
from collections import namedtuple

Result = namedtuple("Result", "score info")


def score(input, output, expected=None):
    return Result(1.0, {"feedback": "Right label."})
"""
    report = sj.check(metric, tickets, outputs="label", output_column="label")
    assert metric_step(report).status == "passed"
    assert [case.score for case in report.cases] == [1.0, 1.0, 1.0]
