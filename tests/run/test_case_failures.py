"""Each place a case can break ends in its own sentence, at its own step, with its own fix.

A case's pipeline copies the input, runs ``run``, copies the expected value and the
output for the metric, calls ``score``, reads its return value and builds the
result.  Whatever breaks outside the user's own calls still becomes that case's
failure; these tests pin, for each place, the step named, the exact sentence (in
English, and in French or Portuguese where the language could be lost), what the
result keeps (the output, the run's measures) and the hint.  Through ``run_case``
and ``check``, the stable surfaces.
"""

from __future__ import annotations

import threading
import time
from copy import deepcopy

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import ContractError, validate_return
from skynet_jupyter.core.dataset import Case
from skynet_jupyter.i18n import t
from skynet_jupyter.run.engine import Limits, run_case

RUN = "run_function"
RETURN = "metric_return_value"


def ok(input, output, expected=None):
    return 1.0, {"feedback": "fine"}


def line(exc: BaseException) -> str:
    """The ``Type: message`` form the sentences quote."""
    return f"{type(exc).__name__}: {exc}"


def lock_copy_error() -> str:
    try:
        deepcopy(threading.Lock())
    except TypeError as exc:
        return line(exc)
    raise AssertionError("a lock was copied")


LOCK = lock_copy_error()


class FloatRefused(int):
    """An int the contract accepts as a score, whose float() then fails."""

    def __float__(self):
        raise ValueError("no float for this score")


class FloatOverflows(int):
    def __float__(self):
        raise OverflowError("this score does not fit")


class GreedyInfo(dict):
    def get(self, key, default=None):
        raise LookupError("this dict refuses .get")


# --- copying --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_input_that_cannot_be_copied_for_the_metric(lang):
    case = Case(4, {"q": 1, "lock": threading.Lock()}, {"label": "x"}, "given")
    result = run_case(ok, case, lang=lang)
    assert result.failed_step == RETURN
    assert result.error == t("case.input_not_copyable", lang, error=LOCK)
    assert result.hint_id == "hint.not_copyable"
    assert result.output == "given"  # what the data gave is kept, not lost
    assert result.index == 4 and result.score is None and not result.passed
    if lang == "en":
        assert result.error.startswith(
            f"The case's input could not be copied ({LOCK}): inputs must be plain data"
        )


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_an_input_that_cannot_be_copied_for_run(lang):
    calls = []
    case = Case(0, {"q": 1, "lock": threading.Lock()}, None)
    result = run_case(ok, case, run=lambda a, i: calls.append(i) or "x", lang=lang)
    assert calls == []  # run never saw a shared, uncopied input
    assert result.failed_step == RUN
    assert result.error == t("case.input_not_copyable", lang, error=LOCK)
    assert result.hint_id == "hint.not_copyable"
    assert result.output is None and result.run_ms is None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_expected_value_that_cannot_be_copied(lang):
    case = Case(1, {"q": 1}, {"label": "x", "lock": threading.Lock()}, "given")
    result = run_case(ok, case, lang=lang)
    assert result.failed_step == RETURN
    assert result.error == t("case.expected_not_copyable", lang, error=LOCK)
    assert result.hint_id == "hint.not_copyable"
    assert result.output == "given"
    if lang == "en":
        assert result.error.startswith("The case's expected value could not be copied for the")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_output_from_the_data_that_cannot_be_copied(lang):
    lock = threading.Lock()
    result = run_case(ok, Case(2, {"q": 1}, None, lock), lang=lang)
    assert result.failed_step == RETURN  # the data's output: not run's fault
    assert result.error == t("case.output_not_copyable", lang, error=LOCK)
    assert result.hint_id == "hint.not_copyable"
    assert result.output is lock
    if lang == "en":
        assert result.error.startswith("The case's output could not be copied for the metric")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_output_made_by_run_that_cannot_be_copied_blames_run(lang):
    lock = threading.Lock()
    result = run_case(ok, Case(3, {"q": 1}, None), run=lambda a, i: lock, lang=lang)
    assert result.failed_step == RUN
    assert result.error == t("case.run_output_not_copyable", lang, error=LOCK)
    assert result.hint_id == "hint.not_copyable"
    assert result.output is lock  # what run returned, shown
    # The run happened: its time is kept (and the output is not a cached one).
    assert result.measured is not None and result.run_ms is not None and result.run_ms >= 0
    assert result.cached is False
    if lang == "en":
        assert result.error.startswith("run(artifact, input) returned a value that cannot be")


# --- run ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_run_raising_is_the_run_steps_failure_with_its_traceback(lang):
    def run(artifact, input):
        raise ConnectionError("model down")

    result = run_case(ok, Case(0, {"q": 1}), run=run, lang=lang)
    assert result.failed_step == RUN
    assert result.error == t("case.run_raised", lang, error="ConnectionError: model down")
    assert "ConnectionError: model down" in result.traceback
    assert result.hint_id is None and result.output is None and result.score is None
    if lang == "en":
        assert result.error == "run(artifact, input) raised ConnectionError: model down"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_case_with_neither_run_nor_output_fails_at_the_run_step(lang):
    result = run_case(ok, Case(0, {"q": 1}), lang=lang)
    assert result.failed_step == RUN
    assert result.error.startswith(t("case.result_failed", lang, error="DataError: ")[:20])
    assert "DataError: " in result.error
    assert result.hint_id is None  # nothing to copy: not the copying hint
    assert result.output is None  # never the NO_OUTPUT marker
    if lang == "en":
        assert result.error.startswith("The case's result could not be built (DataError: ")


def test_a_run_function_gets_the_artifact_and_a_copy_of_the_input():
    seen = []

    def run(artifact, input):
        seen.append((artifact, input))
        input["q"] = "changed"
        return f"{artifact}:{input['q']}"

    case = Case(0, {"q": 1})
    result = run_case(lambda i, o, e=None: (1.0, {"feedback": o}), case, run=run, artifact="A")
    assert seen == [("A", {"q": "changed"})]
    assert case.input == {"q": 1} and result.input == {"q": 1}
    assert result.output == "A:changed" and result.feedback == "A:changed"
    assert result.failed_step is None and result.score == 1.0
    assert result.cached is False and result.measured is not None
    assert result.run_ms is not None and result.run_ms >= 0


# --- the metric's call and its return value ------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_metric_that_raises(lang):
    def metric(input, output, expected=None):
        raise KeyError("label")

    result = run_case(metric, Case(0, {"q": 1}, None, "x"), lang=lang)
    assert result.failed_step == RETURN
    assert result.error == t("case.metric_raised", lang, error="KeyError: 'label'")
    assert "KeyError" in result.traceback
    assert result.metric_ms is not None and result.metric_ms >= 0
    if lang == "en":
        assert result.error == "score raised before returning: KeyError: 'label'"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_failure_setting_up_the_call_is_said_as_the_metric_step(lang):
    # A limit that is not a number breaks the step that arms the metric's timer.
    result = run_case(ok, Case(0, {"q": 1}, None, "x"), limits=Limits(metric=None), lang=lang)
    assert result.failed_step == RETURN
    said = t("case.metric_raised", lang, error="TypeError: <why>")
    head, tail = said.split("<why>")
    assert result.error.startswith(head) and result.error.endswith(tail)
    assert result.hint_id is None
    assert result.output == "x"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_wrong_shape_is_the_contracts_sentence(lang):
    result = run_case(lambda i, o, e=None: 0.5, Case(0, {"q": 1}, None, "x"), lang=lang)
    assert result.failed_step == RETURN
    with pytest.raises(ContractError) as problem:
        validate_return(0.5)
    assert result.error == problem.value.message(lang)
    assert result.traceback is None
    assert result.metric_ms is not None and result.metric_ms >= 0
    assert result.score is None and not result.passed


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_return_value_that_cannot_be_read(lang):
    result = run_case(
        lambda i, o, e=None: (FloatRefused(1), {"feedback": "f"}),
        Case(0, {"q": 1}, None, "x"),
        lang=lang,
    )
    assert result.failed_step == RETURN
    assert result.error == t(
        "case.return_unreadable", lang, error="ValueError: no float for this score"
    )
    assert result.hint_id is None
    assert result.output == "x"
    if lang == "en":
        assert result.error.startswith(
            "score's return value could not be read (ValueError: no float for this score)"
        )


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_score_too_large_for_a_float(lang):
    result = run_case(
        lambda i, o, e=None: (FloatOverflows(1), {"feedback": "f"}),
        Case(0, {"q": 1}, None, "x"),
        lang=lang,
    )
    assert result.failed_step == RETURN
    assert result.error == t(
        "case.score_overflow", lang, error="OverflowError: this score does not fit"
    )


def test_a_named_score_too_large_for_a_float_while_building_the_result():
    result = run_case(
        lambda i, o, e=None: (1.0, {"feedback": "f", "scores": {"style": 10**400}}),
        Case(0, {"q": 1}, None, "x"),
        lang="fr",
    )
    assert result.failed_step == RETURN
    assert result.error.startswith(t("case.score_overflow", "fr", error="OverflowError: ")[:30])
    assert "OverflowError: " in result.error
    assert result.hint_id is None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_result_that_cannot_be_built(lang):
    result = run_case(
        lambda i, o, e=None: (1.0, GreedyInfo(feedback="f")),
        Case(5, {"q": 1}, {"label": "y"}, "x"),
        lang=lang,
    )
    assert result.failed_step == RETURN
    assert result.error == t(
        "case.result_failed", lang, error="LookupError: this dict refuses .get"
    )
    assert result.hint_id is None
    assert (result.index, result.input, result.expected, result.output) == (
        5,
        {"q": 1},
        {"label": "y"},
        "x",
    )


def test_the_sentences_reach_the_report_in_the_language_asked():
    data = [{"q": n, "lock": threading.Lock(), "label": "x", "out": "x"} for n in range(2)]
    report = sj.check(ok, data, outputs="label", output_column="out", lang="pt")
    assert not report.passed
    assert [c.error for c in report.cases] == [t("case.input_not_copyable", "pt", error=LOCK)] * 2
    step = report.step(RETURN)
    assert step.status == "failed"
    assert t("case.input_not_copyable", "pt", error=LOCK) in step.message


# --- the metric gets copies, the case keeps its values ----------------------------------------


@pytest.mark.parametrize(
    "value",
    [{"q": 1, "tags": ["a"]}, {"q": 1, "n": 2.5}],
    ids=["nested dict", "flat dict"],
)
def test_a_metric_that_changes_its_arguments_changes_nothing_in_the_case(value):
    def metric(input, output, expected):
        for part in (input, output, expected):
            part["q"] = "changed"
            part.setdefault("tags", []).append("changed")
        return 1.0, {"feedback": "changed everything"}

    case = Case(0, deepcopy(value), deepcopy(value), deepcopy(value))
    result = run_case(metric, case)
    assert result.score == 1.0, result.error
    assert (case.input, case.expected, case.output) == (value, value, value)
    assert (result.input, result.expected, result.output) == (value, value, value)


def slow_metric(input, output, expected=None):
    time.sleep(0.05)
    if input["q"] == 1:
        raise ValueError("late")
    return 0.5, {"feedback": "slow", "extra": [1]}


def test_the_metric_time_is_in_milliseconds_passed_or_failed():
    passed = run_case(slow_metric, Case(0, {"q": 0}, None, "x"))
    failed = run_case(slow_metric, Case(1, {"q": 1}, None, "x"))
    for result in (passed, failed):
        assert 45 <= result.metric_ms < 5_000, result.metric_ms
    assert passed.info == {"feedback": "slow", "extra": [1]}  # extra keys kept
    assert passed.scores == {} and passed.score == 0.5 and passed.feedback == "slow"
    assert failed.error == "score raised before returning: ValueError: late"


# --- time limits --------------------------------------------------------------------------


def busy_for(seconds: float) -> None:
    """A loop in Python (a limit can stop it), bounded so a broken limit cannot hang the suite."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_run_past_its_time_limit_is_stopped_with_its_sentence(lang):
    def slow_run(artifact, input):
        busy_for(6)
        return "late"

    started = time.perf_counter()
    result = run_case(ok, Case(0, {"q": 1}), run=slow_run, limits=Limits(run=1), lang=lang)
    assert time.perf_counter() - started < 5.5
    assert result.failed_step == RUN
    assert result.error == t("case.run_timeout", lang, seconds="1")
    assert result.output is None and result.score is None
    if lang == "en":
        assert result.error == "run(artifact, input) took longer than 1 s and was stopped."


def test_a_run_and_a_metric_within_their_limits_are_not_stopped():
    def steady_run(artifact, input):
        busy_for(1.0)
        return "in time"

    def steady_metric(input, output, expected=None):
        busy_for(1.0)
        return 1.0, {"feedback": output}

    result = run_case(
        steady_metric, Case(0, {"q": 1}), run=steady_run, limits=Limits(metric=30, run=30)
    )
    assert result.failed_step is None, result.error
    assert result.output == "in time" and result.feedback == "in time"
    assert result.run_ms >= 900 and result.metric_ms >= 900


def test_a_metric_past_its_time_limit_is_stopped_with_its_sentence():
    def slow_metric(input, output, expected=None):
        busy_for(6)
        return 1.0, {"feedback": "late"}

    started = time.perf_counter()
    result = run_case(slow_metric, Case(0, {"q": 1}, None, "x"), limits=Limits(metric=1))
    assert time.perf_counter() - started < 5.5
    assert result.failed_step == "metric_time_limit"
    assert result.error == t("case.metric_timeout", "en", seconds="1")
    assert result.output == "x"


def test_a_dict_like_expected_reaches_the_metric_as_a_deep_copy():
    from collections import OrderedDict

    expected = OrderedDict(label=["billing"])  # a dict, but not exactly a dict
    case = Case(0, {"q": 1}, expected, "billing")

    def mutating(input, output, expected=None):
        seen = list(expected["label"])
        expected["label"].append("changed by the metric")
        return float(output in seen), {"feedback": f"expected {seen}"}

    result = run_case(mutating, case)
    assert (result.error, result.score, result.feedback) == (None, 1.0, "expected ['billing']")
    assert case.expected == OrderedDict(label=["billing"])
    assert run_case(mutating, case).feedback == "expected ['billing']"  # the same again
