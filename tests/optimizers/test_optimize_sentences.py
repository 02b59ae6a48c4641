"""What ``optimize`` says, word for word, in the language asked: why nothing improved
(which candidate to look at, which cases the seed missed), why the run stopped, and the
error when no reflection model is set.  Real ``gepa.optimize`` and the stand-in
reflection model of ``test_optimize``; the unit tests build the report GEPA would.
"""

from __future__ import annotations

import pytest

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.core.contract import RUN_FUNCTION  # noqa: E402
from skynet_jupyter.core.options import MAX_BUDGET  # noqa: E402
from skynet_jupyter.core.report import CaseResult  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from skynet_jupyter.optimizers.gepa_adapter import (  # noqa: E402
    ReflectionModel,
    SkynetGEPAAdapter,
    failure_feedback,
)
from skynet_jupyter.optimizers.optimize import (  # noqa: E402
    ReflectionModelMissing,
    _CostStop,
    _gepa_options,
    _listed,
    _one_line,
    _Recorder,
    _seed_missed,
    _validation_saturated,
    check_stops,
    split_cases,
)
from skynet_jupyter.optimizers.report import OptimizeReport, Proposal  # noqa: E402
from tests.optimizers.test_optimize import (  # noqa: E402
    SEED,
    TICKETS,
    classify,
    propose_one,
    run_optimize,
    score,
    stand_in,
)
from tests.optimizers.test_small_data import ALL_RIGHT, ALL_RIGHT_SPLIT, optimize  # noqa: E402


def read_all(report: OptimizeReport) -> list[dict]:
    return [record for proposal in report.proposals for record in proposal.records]


def recorder_of(report: OptimizeReport, seed_results: list[CaseResult]) -> _Recorder:
    adapter = sj.to_gepa_adapter(score, classify, outputs="label")
    recorder = _Recorder(report, adapter, ReflectionModel(stand_in()), [], None)
    recorder.seed_results = seed_results
    return recorder


def result(index: int, score: float | None, failed_step: str | None = None) -> CaseResult:
    expected = {"label": "other"}
    return CaseResult(index, {"text": "t"}, expected, score=score, failed_step=failed_step)


# --- why nothing improved, in French, exactly -------------------------------------------


def test_a_saturated_validation_set_names_the_missed_cases_and_the_candidate_in_french():
    report = optimize(val=2, seed=ALL_RIGHT_SPLIT, lang="fr")
    assert report.seed_score == 1.0 and not report.improved
    assert report.advice == [
        t("optimize.why_val_too_small", "fr", val=2, cases="1"),
        t("optimize.why_better_on_training", "fr", candidate=2, before="1", after="3"),
    ]
    assert report.advice[1].startswith("Le candidat #2 a fait mieux que son parent")
    assert "(1 → 3)" in report.advice[1]


def test_nothing_to_improve_is_said_in_the_language_asked():
    report = optimize(data=ALL_RIGHT, budget=12, lang="pt")
    assert report.seed_score == 1.0
    perfect, feedback = report.advice  # the feedback adviser's note follows
    assert perfect == t("optimize.why_perfect", "pt") != t("optimize.why_perfect", "en")
    assert feedback.startswith(t("optimize.why_feedback", "pt", advice="")[:20])


def test_the_candidate_named_is_the_latest_accepted_that_did_better_on_training():
    report = OptimizeReport(seed_artifact=SEED, budget=10, lang="fr", val_size=2)
    report.proposals = [
        Proposal(1, 0, SEED, "a", before=[0.0, 0.0], after=[1.0, 0.0], accepted=True, candidate=1),
        Proposal(2, 1, "a", "b", before=[0.0, 1.0], after=[1.0, 1.0], accepted=True, candidate=2),
        Proposal(3, 0, SEED, "c", before=[0.0, 0.0], after=[1.0, 1.0], accepted=True, candidate=3),
        # Not named: rejected (even though better), worse, and only as good.
        Proposal(4, 3, "c", "d", before=[0.0, 0.0], after=[1.0, 1.0], accepted=False),
        Proposal(5, 3, "c", "e", before=[1.0, 1.0], after=[1.0, 0.0], accepted=True, candidate=4),
        Proposal(6, 3, "c", "f", before=[1.0, 0.0], after=[0.0, 1.0], accepted=True, candidate=5),
        Proposal(7, 3, "c", "g", before=[0.0], after=None, accepted=True, candidate=6),
    ]
    seed_results = [result(0, 1.0), result(4, 0.0), result(9, 0.5), result(4, 0.0)]
    notes = _validation_saturated(report, recorder_of(report, seed_results))
    assert notes == [
        t("optimize.why_val_too_small", "fr", val=2, cases="4, 9"),
        t("optimize.why_better_on_training", "fr", candidate=3, before="0", after="2"),
    ]


def test_the_seed_missed_the_cases_that_failed_or_scored_below_full_marks():
    report = OptimizeReport(seed_artifact=SEED, budget=10)
    seed_results = [
        result(1, 1.0),
        result(2, 1.0, failed_step="metric_return_value"),  # full marks, but it failed
        result(3, 0.99),
        result(5, None, failed_step="run"),
        result(8, 1.0),
    ]
    assert _seed_missed(report, recorder_of(report, seed_results)) == [2, 3, 5]
    every_case_right = [result(1, 1.0), result(8, 1.0)]
    assert _validation_saturated(report, recorder_of(report, every_case_right)) == [
        t("optimize.why_perfect", "en")
    ]


def test_a_budget_too_small_names_the_budget_it_needs():
    # 6 validation cases: the seed's evaluation, two minibatches, the new text's evaluation.
    report = run_optimize(budget=3, lang="fr")
    assert report.advice == [t("optimize.why_budget", "fr", budget=3, val=6, needed=18)]
    smaller = run_optimize(budget=3, lang="fr", reflection_minibatch_size=2)
    assert smaller.advice == [t("optimize.why_budget", "fr", budget=3, val=6, needed=16)]


def test_at_most_eight_case_numbers_are_listed():
    assert _listed([3, 5]) == "3, 5"
    assert _listed(list(range(8))) == "0, 1, 2, 3, 4, 5, 6, 7"
    assert _listed(list(range(9))) == "0, 1, 2, 3, 4, 5, 6, 7, …"


# --- the stops it is given ----------------------------------------------------------------


@pytest.mark.parametrize("budget", [1, MAX_BUDGET])
def test_budgets_from_one_to_the_most_are_taken(budget):
    check_stops(budget, None, "en")
    check_stops(budget, 0.01, "en")


@pytest.mark.parametrize("budget", [0, -1, True, 1.0, "5", None])
def test_a_budget_that_is_no_count_is_a_sentence(budget):
    with pytest.raises(ValueError) as raised:
        check_stops(budget, None, "fr")
    assert str(raised.value) == t("optimize.bad_budget", "fr", value=repr(budget))


def test_a_budget_above_the_most_is_a_sentence():
    with pytest.raises(ValueError) as raised:
        check_stops(MAX_BUDGET + 1, None, "fr")
    fields = {"option": "budget", "low": 1, "high": MAX_BUDGET, "value": str(MAX_BUDGET + 1)}
    assert str(raised.value) == t("limits.count", "fr", **fields)
    assert str(raised.value).startswith("budget ")


@pytest.mark.parametrize("max_cost", [0, -0.5, float("nan"), float("inf"), True, "1"])
def test_a_max_cost_that_would_never_stop_or_stop_at_once_is_a_sentence(max_cost):
    with pytest.raises(ValueError) as raised:
        check_stops(5, max_cost, "fr")
    assert str(raised.value) == t("optimize.bad_max_cost", "fr", value=repr(max_cost))


def test_val_is_a_count_or_a_fraction_and_leaves_a_training_case():
    cases = sj.load_cases(TICKETS, outputs="label")

    def validation(val):
        train, kept = split_cases(cases, val, 0, "en")
        assert sorted(train + kept, key=lambda c: c.index) == cases  # each case once
        assert train == sorted(train, key=lambda c: c.index)  # in the order given
        return [case.index for case in kept]

    assert validation(1) == validation(1.0) == validation(0.01) == [1]
    assert validation(None) == validation(4) == validation(4.0) == [1, 5, 8, 9]
    assert validation(0.25) == [1, 8, 9]  # a quarter of 12
    everything_but_one = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]
    assert validation(11) == validation(20) == validation(0.99) == everything_but_one


@pytest.mark.parametrize("val", [0, 0.0, -1, 1.5, 2.5, True, "2", float("nan")])
def test_a_val_that_is_neither_is_a_sentence(val):
    cases = sj.load_cases(TICKETS, outputs="label")
    with pytest.raises(ValueError) as raised:
        split_cases(cases, val, 0, "fr")
    assert str(raised.value) == t("optimize.bad_val", "fr", value=repr(val))


def test_gepa_options_are_checked_against_gepa_and_ours():
    assert _gepa_options({"use_merge": True}, "fr") == {"use_merge": True}
    with pytest.raises(TypeError) as ours:
        _gepa_options({"use_merge": True, "seed": 1}, "fr")
    assert str(ours.value) == t("optimize.option_ours", "fr", name="seed")
    with pytest.raises(TypeError) as unknown:
        _gepa_options({"nope": 1}, "pt")
    assert str(unknown.value) == t("optimize.option_unknown", "pt", name="nope")


# --- what the listener hears --------------------------------------------------------------


def test_the_report_and_the_listener_follow_each_step_of_the_run():
    heard = []

    def listen(event):
        if event.kind != "case":
            report = event.report
            heard.append((event.kind, len(report.proposals), len(report.candidates)))

    answers = []

    def same_text_first(instructions, _input):
        answers.append(1)
        if len(answers) == 1:  # the seed again: GEPA rejects it on the minibatch
            return "```\n" + SEED + "\n```"
        return propose_one(instructions, _input)

    reflection = sj.StandInModel(same_text_first, tag="")
    report = run_optimize(reflection_model=reflection, on_event=listen, budget=40)
    assert [(p.accepted, p.candidate) for p in report.proposals] == [
        (False, None),
        (True, 1),
        (True, 2),
    ]
    assert heard == [
        ("candidate", 0, 1),  # the seed on validation
        ("proposal", 1, 1),
        ("judged", 1, 1),  # its minibatch scores
        ("judged", 1, 1),  # rejected
        ("proposal", 2, 1),
        ("judged", 2, 1),
        ("candidate", 2, 2),  # accepted: on validation
        ("proposal", 3, 2),
        ("judged", 3, 2),
        ("candidate", 3, 3),
        ("finished", 3, 3),
    ]
    # What GEPA did, recorded whole: the candidates with their parents and scores,
    # the proposals with what the reflection model read and how each was judged.
    got = "billing: invoice, refund\ntechnical: error"
    best = "billing: invoice, refund\ntechnical: error, crash"
    assert report.val_cases == [1, 2, 5, 8, 9, 10] and report.train_size == 6
    seen = [(c.index, c.text, c.parent, c.iteration, c.calls) for c in report.candidates]
    assert seen == [(0, SEED, None, 0, 6), (1, got, 0, 2, 24), (2, best, 1, 3, 36)]
    assert [c.score for c in report.candidates] == pytest.approx([3 / 6, 5 / 6, 1.0])
    assert [c.val_scores for c in report.candidates] == [
        {1: 0.0, 2: 0.0, 5: 0.0, 8: 1.0, 9: 1.0, 10: 1.0},
        {1: 1.0, 2: 1.0, 5: 0.0, 8: 1.0, 9: 1.0, 10: 1.0},
        dict.fromkeys([1, 2, 5, 8, 9, 10], 1.0),
    ]
    judged = [
        (p.iteration, p.parent, p.parent_text, p.text, p.before, p.after) for p in report.proposals
    ]
    assert judged == [
        (1, 0, SEED, SEED, [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]),
        (2, 0, SEED, got, [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        (3, 1, got, best, [1.0, 1.0, 0.0], [1.0, 1.0, 1.0]),
    ]
    read = [[(r["Generated Outputs"], r["Score"]) for r in p.records] for p in report.proposals]
    assert read == [
        [("other", 0.0), ("other", 0.0), ("other", 1.0)],
        [("other", 0.0), ("other", 0.0), ("other", 0.0)],
        [("other", 1.0), ("billing", 1.0), ("other", 0.0)],
    ]
    assert [c.records for c in report.candidates] == [
        [],
        *(p.records for p in report.proposals[1:]),
    ]
    assert all(
        set(r) == {"Inputs", "Generated Outputs", "Feedback", "Score"} for r in read_all(report)
    )
    assert (report.calls, report.reflection_calls, report.stopped) == (42, 3, "budget")
    assert (report.failed_cases, report.error, report.advice) == (0, None, [])
    assert report.log, "GEPA's own log lines are kept in the report"


# --- why it stopped -----------------------------------------------------------------------


def test_a_reflection_error_is_one_line_with_its_type():
    def broken(instructions, _input):
        raise RuntimeError("the endpoint said\n   no  (quota)\n")

    report = run_optimize(reflection_model=broken, lang="fr")
    assert report.stopped == "reflection_error"
    assert report.error == t(
        "optimize.reflection_failed", "fr", error="RuntimeError: the endpoint said no (quota)"
    )


def test_an_error_without_a_message_is_its_type_name():
    assert _one_line(KeyboardInterrupt()) == "KeyboardInterrupt"
    assert _one_line(ValueError("  ")) == "ValueError"
    assert _one_line(ValueError(" a\tb ")) == "ValueError: a b"


def test_the_cost_stop_fires_once_the_spend_reaches_max_cost():
    spent = [0.04]
    stop = _CostStop(0.05, lambda: spent[0])
    assert stop(None) is False and stop.fired is False
    spent[0] = 0.05  # reaching it is enough
    assert stop(None) is True and stop.fired is True
    spent[0] = 0.0
    assert stop(None) is True  # once fired, it stays fired


# --- no reflection model ------------------------------------------------------------------


def test_no_reflection_model_is_said_in_the_language_asked(monkeypatch):
    monkeypatch.delenv("SKYNET_REFLECTION_MODEL", raising=False)
    sj.configure(reset=True)
    with pytest.raises(ReflectionModelMissing) as raised:
        run_optimize(reflection_model=None, lang="fr")
    assert str(raised.value) == t("optimize.no_reflection_model", "fr")
    assert str(raised.value) != t("optimize.no_reflection_model", "en")
    assert raised.value.role == "reflection"
    assert isinstance(raised.value, sj.ModelNotConfigured)
    assert str(ReflectionModelMissing()) == t("optimize.no_reflection_model", "en")


# --- what GEPA reads for a failed case; the evaluations GEPA skipped ----------------------


def test_a_failed_case_reads_as_its_step_then_its_error_in_the_language_asked():
    failed = CaseResult(0, {"text": "t"}, None, error="boom", failed_step=RUN_FUNCTION)
    assert t("step.run_function", "fr") != t("step.run_function", "en")
    assert failure_feedback(failed, "fr") == t("step.run_function", "fr") + ": boom"
    assert failure_feedback(CaseResult(0, {"text": "t"}, None, error="boom"), "fr") == "boom"
    assert failure_feedback(CaseResult(0, {"text": "t"}, None), "fr") == ""


def test_only_the_evaluations_skipped_as_perfect_are_counted():
    recorder = recorder_of(OptimizeReport(seed_artifact=SEED, budget=10), [])
    recorder.on_evaluation_skipped({"reason": "no_improvement"})
    assert recorder.skipped_perfect == 0
    recorder.on_evaluation_skipped({"reason": "all_scores_perfect"})
    recorder.on_evaluation_skipped({"reason": "all_scores_perfect"})
    assert recorder.skipped_perfect == 2


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_a_candidate_without_the_component_names_what_it_has_in_the_language_asked(lang):
    adapter = SkynetGEPAAdapter(score, classify, outputs="label", lang=lang)
    with pytest.raises(KeyError) as missing:
        adapter.artifact({"system": "Be brief.", "user": "Label it."})
    said = t("optimize.no_component", lang, component="prompt", names="'system', 'user'")
    assert missing.value.args[0] == said
    with pytest.raises(KeyError) as empty:
        adapter.artifact({})
    none = t("optimize.no_components", lang)
    assert empty.value.args[0] == t("optimize.no_component", lang, component="prompt", names=none)
    assert adapter.artifact({"prompt": "Label it.", "other": "x"}) == "Label it."
