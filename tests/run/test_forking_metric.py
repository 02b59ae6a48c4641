"""A metric that calls ``os.fork()`` and lets the copy return: the metric's failure, named.

The copy would carry on as a second worker (taking cases meant for the real
one, forking again at each): cases went missing and the report called it a
bug in skynet_jupyter.  Now the copy ends when it comes back from its case and
that case fails with a sentence saying what the metric did; a metric whose
child ends itself passes.  Real forks, in threads and in worker processes.
"""

from __future__ import annotations

import os

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE
from skynet_jupyter.i18n import t

CASES = 6


def forks_and_returns(input, output, expected=None):
    os.fork()  # both the copy and the real process return from here
    return 1.0, {"feedback": "Scored."}


def forks_properly(input, output, expected=None):
    pid = os.fork()
    if pid == 0:
        os._exit(0)  # the child does its work and ends itself
    os.waitpid(pid, 0)
    return 1.0, {"feedback": "Scored."}


def rows() -> list[dict]:
    return [{"text": f"t{n}", "label": "x", "out": "x"} for n in range(CASES)]


def evaluated(metric, isolation: str, lang: str = "en"):
    return sj.evaluate(
        metric, rows(), outputs="label", output_column="out", isolation=isolation, lang=lang
    )


@pytest.mark.parametrize(
    ("isolation", "lang"), [("thread", "en"), ("thread", "fr"), ("process", "pt")]
)
def test_a_copy_that_returns_fails_its_case_by_name(isolation: str, lang: str) -> None:
    report = evaluated(forks_and_returns, isolation, lang)
    assert not report.passed
    assert sorted(case.index for case in report.cases) == list(range(CASES))  # none lost
    named = t("case.forked", lang, function="score")
    assert [case.error for case in report.cases] == [named] * CASES
    assert {case.failed_step for case in report.cases} == {METRIC_RETURN_VALUE}
    step = report.step(METRIC_RETURN_VALUE)
    assert step.hint == t("hint.forked", lang)
    assert "skynet_jupyter" not in step.message  # not "a bug in skynet_jupyter"


@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_a_child_that_ends_itself_changes_nothing(isolation: str) -> None:
    report = evaluated(forks_properly, isolation)
    assert report.passed, [case.error for case in report.cases]
