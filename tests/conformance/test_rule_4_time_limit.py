"""Rule 4: a time limit holds on every path: a metric (or a run) that hangs fails its own
case at the limit, the others are scored, and the run ends.
"""

from __future__ import annotations

import pytest

from skynet_jupyter.core.contract import METRIC_TIME_LIMIT, RUN_FUNCTION
from skynet_jupyter.core.report import CheckReport
from tests.conformance.paths import OPTIMIZERS, QUALITY, Command, not_applicable, use

# Hangs on the tickets about money, in short sleeps (so a thread past its limit stops:
# a call blocked in C is the isolation tests' subject), answers the others.
HANGS = """
import time


def score(input, output, expected=None):
    if "charge" in input["text"].lower() or "refund" in input["text"].lower():
        while True:
            time.sleep(0.05)
    return float(output == expected["label"]), {"feedback": "Scored."}
"""


HANGS_JUDGED = HANGS.replace(
    "def score(", 'JUDGE = """Answer PASS or FAIL."""\n\n\ndef score('
)  # align improves the judge's instructions: a metric with some


def hangs_on_money(artifact, input):
    import time

    if "charge" in input["text"].lower():
        while True:
            time.sleep(0.05)
    return "other"


def hung_cases(report: CheckReport, step: str) -> list[int]:
    return [case.index for case in report.cases if case.failed_step == step]


@pytest.mark.parametrize("path", not_applicable("a time limit", {}))
def test_a_metric_that_hangs_fails_its_own_case_at_the_limit(path, scenario):
    metric = HANGS_JUDGED if path == "align" else HANGS
    outcome = use(path, scenario.but(metric=metric, timeout=1))
    if isinstance(outcome, Command):
        assert outcome.code == 1, outcome.stderr
        steps = [case["failed_step"] for case in outcome.report["cases"]]
        assert METRIC_TIME_LIMIT in steps and None in steps
        return
    if path in QUALITY:  # it ended, and says why the hung cases did not score
        assert outcome.stop is None
        assert "longer than the 1 s" in str(outcome), str(outcome)  # the limit's sentence
        return
    if path in OPTIMIZERS:  # GEPA scored the hung cases 0 (their feedback the limit's
        assert outcome.stop is None  # sentence) and the tool ran to its end
        assert not getattr(outcome, "interrupted", False)
        return
    hung = hung_cases(outcome, METRIC_TIME_LIMIT)
    assert hung and len(hung) < len(outcome.cases)  # the others were scored
    assert all(case.passed or case.index in hung for case in outcome.cases)


@pytest.mark.parametrize(
    "path",
    not_applicable(
        "a time limit on run",
        {
            "probe": "probe measures the metric on the run's outputs: the same first pass "
            "as evaluate's, proven there",
            "stability": "the same first pass as evaluate's, proven there",
            "agreement": "the same first pass as evaluate's, proven there",
            "compare": "the same first pass as evaluate's, proven there",
        },
    ),
)
def test_a_run_that_hangs_fails_its_own_case_at_the_limit(path, scenario):
    if path == "skynet-check":
        pytest.skip(
            "skynet-check's --run-timeout: tests/cli (the same engine); its metric "
            "limit is proven above"
        )
    outcome = use(path, scenario.but(run=hangs_on_money, run_timeout=1))
    if path in OPTIMIZERS:
        assert outcome is not None
        return
    hung = hung_cases(outcome, RUN_FUNCTION)
    assert hung and len(hung) < len(outcome.cases)
