"""What the run log's tests share: reports made by hand, records made from them, a log."""

from __future__ import annotations

from typing import Any

from skynet_jupyter.core.report import CaseResult, CheckReport, EvalReport, build_steps
from skynet_jupyter.runlog.record import RunRecord, draft, in_memory

SOURCE_A = 'def score(input, output, expected=None):\n    return 1.0, {"feedback": "Fine."}\n'
SOURCE_B = 'def score(input, output, expected=None):\n    return 0.5, {"feedback": "Half."}\n'


class Source:
    """A metric as the recorder sees it: its name and source (no code is run)."""

    def __init__(self, source: str, name: str = "default") -> None:
        self.source = source
        self.name = name
        self.path = None


def case(
    index: int,
    text: str,
    label: str = "x",
    *,
    score: float | None = 1.0,
    feedback: str = "Fine.",
    failed: str | None = None,
    output: Any = "x",
) -> CaseResult:
    result = CaseResult(index, {"text": text}, {"label": label}, output=output, score=score)
    result.feedback = feedback
    result.metric_ms = 0.1
    if failed is not None:
        result.failed_step = failed
        result.error = "It broke."
    return result


def report(cases: list[CaseResult], *, kind: str = "eval", name: str = "default") -> CheckReport:
    made = EvalReport if kind == "eval" else CheckReport
    steps = build_steps("en", has_spec=False, run_used=False, output_column="out", cases=cases)
    return made(
        steps=steps,
        cases=cases,
        metric_name=name,
        total_cases=len(cases),
        elapsed_s=0.01,
    )


def record_of(cases: list[CaseResult], source: str = SOURCE_A, name: str = "default") -> RunRecord:
    """An in-memory record of a run with ``cases`` (never written)."""
    return in_memory(
        draft(report(cases, name=name), Source(source, name), None, None, surface="python")
    )
