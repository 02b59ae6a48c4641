"""What a case that failed shows, on every backend (issue 44, items 2 and 3).

- A metric that runs out of time was given an output: the case shows that output,
  and the run's time and cost, not "—" and "run not measured" (``skynet-check``
  printed ``output: null``).
- A metric that raised never returned: the step keeps its name ("Metric return
  value") and says the metric raised before returning, and where.
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE, METRIC_TIME_LIMIT
from tests.cli_support import skynet_check

SLEEPS = """
import time
def score(input, output, expected=None):
    while True:
        time.sleep(0.05)
"""
RAISES = """
def score(input, output, expected=None):
    label = expected["answer"]
    return 1.0, {"feedback": label}
"""
ROWS = [{"n": n, "label": "x"} for n in range(2)]


def run(artifact, input):
    return f"output of case {input['n']}"


@pytest.mark.parametrize("backend", ["thread", "process", "thread-pool", "process-pool"])
def test_a_metric_out_of_time_shows_the_output_it_was_given_and_the_runs_measures(backend):
    options: dict = {"timeout": 1}
    pool = None
    if backend == "process":
        options["isolation"] = "process"
    elif backend == "thread-pool":
        pool = options["executor"] = ThreadPoolExecutor(2)
    elif backend == "process-pool":
        pool = options["executor"] = ProcessPoolExecutor(2)
    try:
        report = sj.evaluate(SLEEPS, ROWS, run=run, outputs="label", **options)
    finally:
        if pool is not None:
            pool.shutdown()
    for case in report.cases:
        assert case.failed_step == METRIC_TIME_LIMIT
        assert case.output == f"output of case {case.index}"
        assert case.run_ms is not None and case.run_ms >= 0
        assert case.cost_usd == 0.0  # the run called no model: it cost nothing, measured
    text = str(report)
    assert 'output: "output of case 0"' in text
    assert "run not measured" not in text and "cost not measured" not in text
    assert "output of case 0" in report._repr_html_()


def test_skynet_check_prints_the_output_a_metric_out_of_time_was_given(tmp_path):
    (tmp_path / "metric.py").write_text(SLEEPS)
    (tmp_path / "run.py").write_text(
        "def run(artifact, input):\n    return f\"output of case {input['n']}\"\n"
    )
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    done = skynet_check(
        "metric.py",
        "--data",
        "cases.jsonl",
        "--outputs",
        "label",
        "--run",
        "run.py:run",
        "--timeout",
        "1",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    cases = json.loads(done.stdout)["cases"]
    assert [case["output"] for case in cases] == ["output of case 0", "output of case 1"]
    assert all(case["run_ms"] is not None for case in cases)


def test_a_known_output_out_of_time_keeps_its_output():
    rows = [{"n": 0, "label": "x", "prediction": "y"}]
    report = sj.check(SLEEPS, rows, outputs="label", output_column="prediction", timeout=1)
    assert report.cases[0].output == "y"


@pytest.mark.parametrize("isolation", ["thread", "process"])
def test_a_metric_that_raised_is_said_to_have_raised_before_returning_and_where(isolation):
    rows = [{"text": "a", "label": "x", "prediction": "x"}]
    report = sj.check(
        RAISES, rows, outputs="label", output_column="prediction", isolation=isolation
    )
    step = report.step(METRIC_RETURN_VALUE)
    assert step.title == "Metric return value"  # the seed's step names are kept
    assert "score raised before returning: KeyError: 'answer'" in step.message
    assert "line 3, in score" in step.hint
    assert "Return a pair" not in step.hint  # it never returned: the return is not the fix
    html = report._repr_html_()
    assert "score raised before returning: KeyError: &#x27;answer&#x27;" in html or (
        "score raised before returning: KeyError: &#39;answer&#39;" in html
    )
    french = sj.check(RAISES, rows, outputs="label", output_column="prediction", lang="fr")
    assert "avant de renvoyer sa paire" in french.step(METRIC_RETURN_VALUE).message


def test_the_words_raised_before_returning_come_before_the_users_message():
    """Found by the attack on issue 44: "before returning" was glued after the exception's
    own text ("score raised ValueError: …\\nSee line 2 before returning"), where it read
    as part of the user's message.  It comes first, in every language."""

    def score(input, output, expected=None):
        raise ValueError("The answer is not a number.\nSee line 2")

    rows = [{"q": "2+2", "answer": "4"}]
    said = {
        "en": "score raised before returning: ValueError: The answer is not a number.\nSee line 2",
        "fr": "score a levé une exception avant de renvoyer sa paire : ValueError: The answer "
        "is not a number.\nSee line 2",
        "pt": "score lançou uma exceção antes de devolver o par: ValueError: The answer is not "
        "a number.\nSee line 2",
    }
    for lang, error in said.items():
        report = sj.check(score, rows, outputs="answer", run=lambda a, i: "4", cases=1, lang=lang)
        assert report.cases[0].error == error
        assert report.step(METRIC_RETURN_VALUE).message.endswith(error)
