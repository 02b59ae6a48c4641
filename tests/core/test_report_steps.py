"""The case steps are built from one pass over the results, with the same steps as before.

``build_steps`` reads which steps any case failed at once (a set), then skips
the filtering a step needs only when some case failed at it.  Every mix of
results (none failed, run failures, metric failures, time limits, all of a
kind, no case at all) must give the steps the full filtering gives: the
general branch (``failing=None``) of ``_case_step`` is that full filtering.
"""

from __future__ import annotations

import itertools

import pytest

from skynet_jupyter.core import report
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE, METRIC_TIME_LIMIT, RUN_FUNCTION
from skynet_jupyter.core.report import CaseResult, build_steps

OUTCOMES = [None, RUN_FUNCTION, METRIC_RETURN_VALUE, METRIC_TIME_LIMIT]


def result(index: int, failed_step: str | None) -> CaseResult:
    case = CaseResult(index, {"q": index}, {"a": index}, output="x")
    if failed_step is None:
        case.score, case.feedback = 1.0, "Correct."
    else:
        case.failed_step, case.error = failed_step, f"broke at {failed_step} ({index % 2})"
    return case


MIXES = [
    [],
    *([outcome] * 3 for outcome in OUTCOMES),
    *(list(pair) for pair in itertools.permutations(OUTCOMES, 2)),
    OUTCOMES,
    [None, RUN_FUNCTION, None, METRIC_TIME_LIMIT, RUN_FUNCTION, METRIC_RETURN_VALUE, None],
]


def steps_by_full_filtering(cases, run_used, lang):
    """build_steps' case steps, each filtering every case (the general branch)."""
    steps = []
    if run_used:
        steps.append(report._case_step(RUN_FUNCTION, cases, cases, lang))
        reached = [case for case in cases if case.failed_step != RUN_FUNCTION]
    else:
        reached = cases
    steps.append(report._case_step(METRIC_RETURN_VALUE, cases, reached, lang))
    steps.append(report._case_step(METRIC_TIME_LIMIT, cases, reached, lang))
    return steps


@pytest.mark.parametrize("run_used", [True, False])
@pytest.mark.parametrize("mix", MIXES, ids=lambda mix: ",".join(map(str, mix)) or "none")
def test_one_pass_gives_the_steps_of_the_full_filtering(mix, run_used):
    cases = [result(index, outcome) for index, outcome in enumerate(mix)]
    for lang in ("en", "fr"):
        steps = build_steps(
            lang, has_spec=False, run_used=run_used, output_column="out", cases=cases
        )
        case_steps = [
            s for s in steps if s.id in (RUN_FUNCTION, METRIC_RETURN_VALUE, METRIC_TIME_LIMIT)
        ]
        if not run_used:
            case_steps = case_steps[1:]  # the run step is "not used", not a case step
        assert case_steps == steps_by_full_filtering(cases, run_used, lang)


def test_a_step_no_case_failed_at_names_the_cases_that_never_reached_it():
    cases = [result(0, RUN_FUNCTION), result(1, None), result(2, RUN_FUNCTION)]
    steps = {
        s.id: s
        for s in build_steps("en", has_spec=False, run_used=True, output_column=None, cases=cases)
    }
    assert steps[RUN_FUNCTION].status == report.FAILED
    assert steps[RUN_FUNCTION].cases == (0, 2)
    for step_id in (METRIC_RETURN_VALUE, METRIC_TIME_LIMIT):
        assert steps[step_id].status == report.PASSED
        assert steps[step_id].message == (
            "Not reached for 2 cases (0, 2): run(artifact, input) failed first."
        )
