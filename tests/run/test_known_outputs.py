"""The engine scores outputs it is given: ``execute(..., known_outputs=)`` and
``execute_cases`` on cases that carry their outputs.  ``run`` is never called, the
run's time and cost stay with each output, and the run cache is asked only for
the model calls made again (none here: the metrics make none)."""

from __future__ import annotations

from typing import Any

import skynet_jupyter as sj
from skynet_jupyter.core.dataset import Case
from skynet_jupyter.core.observation import Observation
from skynet_jupyter.core.options import RunOptions
from skynet_jupyter.run.engine import KnownOutputs, RunCache, execute, execute_cases

ROWS = [{"text": f"ticket {n}", "label": "billing"} for n in range(3)]


def exact(input: Any, output: Any, expected: Any = None) -> Any:
    return (1.0 if output == expected["label"] else 0.0), {"feedback": "Compared."}


class Refusing:
    """A run that must not be called."""

    calls = 0

    def __call__(self, artifact: Any, input: Any) -> str:
        self.calls += 1
        return "billing"


def test_known_outputs_are_scored_without_calling_run_and_keep_their_measures():
    run = Refusing()
    options = RunOptions.given(run=run, outputs="label", cases=None)
    measured = Observation(run_ms=250.0, cost_usd=0.002, model_calls=1)
    known = KnownOutputs(
        {0: ("billing", measured), 2: ("other", None)}, "No output to re-score here."
    )
    cache = RunCache()
    events: list[Any] = []
    report = execute(
        "check", exact, ROWS, options, on_event=events.append, run_cache=cache, known_outputs=known
    )
    assert run.calls == 0 and len(cache) == 0  # neither run nor the cache was used
    first, second, third = report.cases
    assert (first.output, first.score, first.run_ms, first.cost_usd) == (
        "billing",
        1.0,
        250.0,
        0.002,
    )
    assert first.cached and first.measured is measured
    assert (third.output, third.score, third.run_ms) == ("other", 0.0, None)
    assert second.failed_step == "run_function" and second.error == "No output to re-score here."
    assert isinstance(events[-1], sj.Finished) and len(events) == 1 + 2 * 3  # started, finished


def test_known_outputs_are_copies_the_metric_cannot_reach():
    output = ["billing"]
    known = KnownOutputs({0: (output, None)}, "none")
    options = RunOptions.given(run=Refusing(), outputs="label", cases=1)
    report = execute(
        "check", exact, ROWS, options, on_event=None, run_cache=None, known_outputs=known
    )
    report.cases[0].output.append("changed")
    assert output == ["billing"]


def test_execute_cases_scores_carried_outputs_and_runs_the_others():
    run = Refusing()
    cases = [
        Case(
            0, {"text": "a"}, {"label": "billing"}, "other", Observation(run_ms=5.0, cost_usd=0.0)
        ),
        Case(1, {"text": "b"}, {"label": "billing"}),
    ]
    options = RunOptions.given(run=run, cases=1, outputs="nothing-read-here", concurrency=2)
    report = execute_cases("eval", exact, cases, options, on_event=None, run_cache=None)
    assert run.calls == 1  # only the case without an output; options choose no cases here
    assert [c.score for c in report.cases] == [0.0, 1.0]
    assert report.cases[0].run_ms == 5.0 and report.cases[0].cached
