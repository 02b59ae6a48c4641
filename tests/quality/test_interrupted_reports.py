"""Ctrl-C during a measurement leaves a partial report that shows itself (issue 24, item 9),
and the counts a measurement takes are bounded before it starts (item 7).

Ctrl-C is the kernel's: ``_thread.interrupt_main()`` from inside the metric on its Nth
call raises KeyboardInterrupt in the main thread, as SIGINT does.
"""

from __future__ import annotations

import _thread
import time

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t
from tests.quality_support import EXACT, TICKETS, cell, quality_shell, register

LABELS = {"outputs": "label", "output_column": "label", "concurrency": 1, "lang": "en"}
MAX_REPEATS = 1_000  # the documented bounds (core/options.py)
MAX_SCORINGS = 200_000


def interrupting_on_call(n: int):
    """A steady metric that presses Ctrl-C on its ``n``-th call; ``.calls`` counts them."""

    def metric(input, output, expected=None):
        metric.calls += 1
        if metric.calls == n:
            _thread.interrupt_main()
        return 1.0, {"feedback": "Fine."}

    metric.calls = 0
    return metric


def shows_itself_partial(report) -> None:
    text = str(report)
    assert t("quality.interrupted", "en") in text
    assert "Interrupted" in report._repr_html_() and repr(report)


@pytest.mark.parametrize("nth", [2, 7])  # in the outputs' pass, then in the repeats
def test_an_interrupted_stability_report_shows_itself(ctrl_c, nth):
    report = sj.stability(interrupting_on_call(nth), TICKETS, repeats=3, **LABELS)
    assert report.interrupted and not report.passed
    shows_itself_partial(report)


def test_a_case_whose_repeats_were_interrupted_is_left_out(ctrl_c):
    steady = interrupting_on_call(12)  # the 2nd repeat of case 1 (5 outputs' calls first)

    def slow(input, output, expected=None):
        time.sleep(0.05)  # the Ctrl-C lands before the later repeats run
        return steady(input, output, expected)

    report = sj.stability(slow, TICKETS, repeats=3, **LABELS)
    assert report.interrupted and 0 < len(report.scores) < len(TICKETS)
    assert all(scores == [1.0, 1.0, 1.0] for scores in report.scores.values()), report.scores


@pytest.mark.parametrize("nth", [2, 7])  # metric_a's pass, then metric_b's
def test_an_interrupted_compare_report_shows_itself(ctrl_c, nth):
    metric = interrupting_on_call(nth)
    report = sj.compare(metric, metric, TICKETS, **LABELS)
    assert report.interrupted
    shows_itself_partial(report)


def test_an_interrupted_probe_and_agreement_show_themselves(ctrl_c):
    shows_itself_partial(sj.probe(interrupting_on_call(2), TICKETS, **LABELS))
    rows = [dict(row, human="pass") for row in TICKETS]
    shows_itself_partial(sj.agreement(interrupting_on_call(2), rows, human="human", **LABELS))


INTERRUPTING = """
import _thread
import time

CALLS = []

def score(input, output, expected=None):
    CALLS.append(1)
    if len(CALLS) == {nth}:
        _thread.interrupt_main()
    return 1.0, {{"feedback": "Fine."}}
"""


@pytest.mark.parametrize(("magic", "nth"), [("stability", 2), ("stability", 7), ("compare", 2)])
def test_magic_interrupted_shows_the_partial_report(tmp_path, monkeypatch, ctrl_c, magic, nth):
    with quality_shell(tmp_path, monkeypatch) as shell:
        register(shell, INTERRUPTING.format(nth=nth), "ticking")
        register(shell, EXACT, "exact")
        line = "--data tickets --outputs label --output-column label --concurrency 1"
        if magic == "stability":
            source = f"%skynet_stability --metric ticking {line} --repeats 3"
        else:
            source = f"%skynet_compare ticking exact {line}"
        result, captured = cell(shell, source)
        error = result.error_in_exec
        assert type(error).__name__ == "CheckFailed", repr(error)  # not a TypeError
        assert error.report.interrupted
        shown = "\n".join(o.data.get("text/plain", "") for o in captured.outputs)
        assert t("quality.interrupted", "en") in shown
        assert "Traceback" not in captured.stdout + captured.stderr


# --- item 7: counts bounded before anything runs --------------------------------------------


def counting():
    def metric(input, output, expected=None):
        metric.calls += 1
        return 1.0, {"feedback": "Fine."}

    metric.calls = 0
    return metric


def test_repeats_are_bounded_before_anything_runs():
    metric = counting()
    two = TICKETS[:2]
    message = f"repeats must be a whole number from 2 to {MAX_REPEATS}"
    with pytest.raises(ValueError, match=message):
        sj.stability(metric, two, repeats=MAX_REPEATS + 1, **LABELS)
    # The report of the issue: a billion repeats on two rows once took 24 GB.
    with pytest.raises(ValueError, match=message):
        sj.stability(metric, two, repeats=10**9, **LABELS)
    assert metric.calls == 0
    assert sj.stability(metric, two, repeats=MAX_REPEATS, **LABELS).passed


def test_cases_times_repeats_are_bounded_before_the_repeats(ctrl_c):
    cases = MAX_SCORINGS // 500 + 1  # x 500 repeats: just over the bound
    rows = [{"text": f"ticket {n}", "label": "other"} for n in range(cases)]
    metric = interrupting_on_call(2 * cases)  # Ctrl-C should the repeats start
    with pytest.raises(ValueError, match=f"more than the {MAX_SCORINGS} allowed"):
        sj.stability(metric, rows, repeats=500, **LABELS)
    assert metric.calls == cases  # the outputs' pass only


def test_concurrency_is_bounded():
    with pytest.raises(ValueError, match="concurrency must be a whole number from 1 to 256"):
        sj.evaluate(EXACT, TICKETS, outputs="label", output_column="label", concurrency=10**6)
    with pytest.raises(ValueError, match="concurrency must be a whole number from 1 to 256"):
        sj.stability(EXACT, TICKETS, outputs="label", output_column="label", concurrency=257)


def test_magic_refuses_too_many_repeats(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        register(shell, EXACT)
        result, _ = cell(
            shell,
            "%skynet_stability --data tickets --outputs label --output-column label --repeats 1001",
        )
        assert type(result.error_in_exec).__name__ == "UsageError"
        assert "repeats must be a whole number from 2 to 1000" in str(result.error_in_exec)
