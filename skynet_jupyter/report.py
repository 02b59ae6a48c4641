"""What a check or an evaluation found: plain data that shows itself.

``CaseResult`` is one case; ``CheckReport`` / ``EvalReport`` hold the steps and
the cases, render as text and HTML (``render``), and become a pandas frame.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import Any

from .contract import (
    FEEDBACK_ADVICE,
    METRIC_LOADS,
    METRIC_RETURN_VALUE,
    METRIC_SIGNATURE,
    METRIC_TIME_LIMIT,
    REWARD_SPEC,
    RUN_FUNCTION,
    STEP_IDS,
    case_hint,
)
from .i18n import t

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"
ADVICE = "advice"


@dataclass(slots=True)
class CaseResult:
    """One case: what went in, what came out, what the metric said, what it cost.

    ``failed_step`` is the id of the contract step the case failed at (None
    when it passed); ``error`` says why, ``traceback`` holds the user's frames.
    Times are in milliseconds, costs in US dollars (None: not measured).
    """

    index: int
    input: dict[str, Any]
    expected: dict[str, Any] | None
    output: Any = None
    score: float | None = None
    feedback: str | None = None
    scores: dict[str, float] = field(default_factory=dict)
    info: dict[str, Any] | None = None
    error: str | None = None
    traceback: str | None = None
    failed_step: str | None = None
    metric_ms: float | None = None
    run_ms: float | None = None
    cost_usd: float | None = None
    judge_cost_usd: float | None = None
    model_calls: int = 0  # the run's and the judge's
    cached: bool = False
    measured: Any = None  # the run's Observation (what observation() returned)
    retries: int = 0  # rate-limit answers retried for this case's model calls (run and judge)
    stand_in_calls: int = 0  # model calls an offline stand-in answered (run and judge)
    hint_id: str | None = None  # a fix of its own (a copy that failed), else the step's

    @property
    def passed(self) -> bool:
        return self.failed_step is None


def worst_key(case: CaseResult) -> tuple[bool, float, int]:
    """The order of the worst cases first: failed, then by rising score, then by index."""
    return (case.failed_step is None, -math.inf if case.score is None else case.score, case.index)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the contract check.  ``status``: passed, failed, skipped or advice."""

    id: str
    title: str
    status: str
    message: str = ""
    hint: str = ""
    cases: tuple[int, ...] = ()

    @property
    def passed(self) -> bool:
        return self.status != FAILED


@dataclass(slots=True)
class CheckReport:
    """The result of the 3-case contract check (``check``)."""

    steps: list[Step]
    cases: list[CaseResult]
    lang: str = "en"
    metric_name: str = "default"
    reward_spec: Any = None  # a RewardSpec, when the metric has one
    interrupted: bool = False
    total_cases: int = 0
    elapsed_s: float = 0.0
    kind: str = "check"
    # Means and rankings, kept while the cases stay the same (views ask for them often).
    _memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def _remember(self, key: str, compute: Any) -> Any:
        stamp = (key, len(self.cases))
        if stamp not in self._memo:
            self._memo[stamp] = compute()
        return self._memo[stamp]

    @property
    def passed(self) -> bool:
        """Every step passed, every case asked has a result and every case passed."""
        if self.interrupted or len(self.cases) < self.total_cases:
            return False
        if not all(step.passed for step in self.steps):
            return False
        return self._remember("all_cases_passed", self._all_cases_passed)

    def _all_cases_passed(self) -> bool:
        # Steps are built from the cases; this holds even for a hand-made report.
        return all(case.failed_step is None for case in self.cases)

    def step(self, step_id: str) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)

    @property
    def failed_steps(self) -> list[Step]:
        return [step for step in self.steps if step.status == FAILED]

    @property
    def advice(self) -> list[Step]:
        return [step for step in self.steps if step.status == ADVICE]

    @property
    def scored(self) -> list[CaseResult]:
        return [case for case in self.cases if case.score is not None]

    @property
    def mean_score(self) -> float | None:
        """The mean score over the cases that have one (None when none has)."""

        def compute() -> float | None:
            scores = [c.score for c in self.cases if c.score is not None]
            return sum(scores) / len(scores) if scores else None

        return self._remember("mean_score", compute)

    @property
    def mean_scores(self) -> dict[str, float]:
        """The mean of each named score over the cases that report it."""

        def compute() -> dict[str, float]:
            sums: dict[str, list[float]] = {}
            for case in self.cases:
                for name, value in case.scores.items():
                    sums.setdefault(name, []).append(float(value))
            return {name: sum(values) / len(values) for name, values in sums.items()}

        return dict(self._remember("mean_scores", compute))

    def worst(self, count: int | None = None) -> list[CaseResult]:
        """Failed cases first, then by rising score."""

        def compute() -> list[CaseResult]:
            if count is not None:  # the same as sorted(...)[:count], without sorting them all
                return heapq.nsmallest(count, self.cases, key=worst_key)
            return sorted(self.cases, key=worst_key)

        return list(self._remember(f"worst {count}", compute))

    @property
    def retries(self) -> int:
        """Rate-limit answers retried over every case (the provider held the run back)."""
        return sum(case.retries for case in self.cases)

    @property
    def stand_in_calls(self) -> int:
        """Model calls an offline stand-in answered, not a real model."""
        return sum(case.stand_in_calls for case in self.cases)

    def to_frame(self) -> Any:
        """One row per case (pandas DataFrame); named scores as ``scores.NAME`` columns."""
        import pandas as pd

        rows = []
        for case in self.cases:
            row = {
                "case": case.index,
                "input": case.input,
                "expected": case.expected,
                "output": case.output,
                "score": case.score,
                "feedback": case.feedback,
                "passed": case.passed,
                "failed_step": case.failed_step,
                "error": case.error,
                "metric_ms": case.metric_ms,
                "run_ms": case.run_ms,
                "cost_usd": case.cost_usd,
                "judge_cost_usd": case.judge_cost_usd,
                "cached": case.cached,
                "retries": case.retries,
                "stand_in_calls": case.stand_in_calls,
            }
            for name, value in case.scores.items():
                row[f"scores.{name}"] = value
            rows.append(row)
        return pd.DataFrame(rows).set_index("case") if rows else pd.DataFrame()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (what ``skynet-check --json`` prints)."""
        from ._models import Redactor
        from .render import json_ready

        redact = Redactor()  # the secrets gathered once, not once per case
        return {
            "kind": self.kind,
            "passed": self.passed,
            "interrupted": self.interrupted,
            "metric": self.metric_name,
            "lang": self.lang,
            "mean_score": self.mean_score,
            "mean_scores": self.mean_scores,
            "steps": [
                {
                    "id": s.id,
                    "title": s.title,
                    "status": s.status,
                    "passed": s.passed,
                    "message": redact(s.message),
                    "hint": redact(s.hint),
                    "cases": list(s.cases),
                }
                for s in self.steps
            ],
            "cases": [json_ready(case, redact) for case in self.cases],
        }

    def __str__(self) -> str:
        from .render import report_text

        return report_text(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))

    def _repr_html_(self) -> str:
        from .render import report_html

        return report_html(self)


@dataclass(slots=True)
class EvalReport(CheckReport):
    """The result of ``evaluate``: every case, with means and the worst cases first."""

    kind: str = "eval"


def build_steps(
    lang: str,
    *,
    load_error: Any = None,
    has_spec: bool,
    run_used: bool,
    output_column: str | None,
    cases: list[CaseResult],
) -> list[Step]:
    """The check's steps from what happened: a load failure, or the cases' results."""

    def step(step_id: str, status: str, message: str = "", hint: str = "", ids=()) -> Step:
        return Step(step_id, t(f"step.{step_id}", lang), status, message, hint, tuple(ids))

    if load_error is not None:
        failed_at = STEP_IDS.index(load_error.step)
        steps = [step(s, PASSED) for s in STEP_IDS[:failed_at]]
        steps.append(
            step(
                load_error.step,
                FAILED,
                load_error.message(lang),
                t(f"hint.{load_error.step}", lang),
            )
        )
        steps += [step(s, SKIPPED, t("step.not_reached", lang)) for s in STEP_IDS[failed_at + 1 :]]
        return steps

    steps = [
        step(METRIC_LOADS, PASSED),
        step(METRIC_SIGNATURE, PASSED),
        step(REWARD_SPEC, PASSED, "" if has_spec else t("spec.none", lang)),
    ]
    if run_used:
        steps.append(_case_step(step, RUN_FUNCTION, cases, cases, lang))
        # A case whose run() failed never reached the metric: those steps say so.
        reached = [case for case in cases if case.failed_step != RUN_FUNCTION]
    else:
        steps.append(
            step(RUN_FUNCTION, SKIPPED, t("run.not_used", lang, column=output_column or "?"))
        )
        reached = cases
    steps.append(_case_step(step, METRIC_RETURN_VALUE, cases, reached, lang))
    steps.append(_case_step(step, METRIC_TIME_LIMIT, cases, reached, lang))
    return steps


MAX_MESSAGE_GROUPS = 3  # distinct failure messages spelled out in a step; the rest are counted
MAX_CASE_RANGES = 8  # runs of case numbers listed before "…"


def _case_step(
    make, step_id: str, cases: list[CaseResult], reached: list[CaseResult], lang: str
) -> Step:
    if not reached:  # no case got this far: not a pass
        message = t("step.not_reached", lang) if cases else t("step.no_cases", lang)
        return make(step_id, SKIPPED, message)
    failed = [case for case in reached if case.failed_step == step_id]
    if not failed:
        if len(reached) < len(cases):
            missed = [case.index for case in cases if case.failed_step == RUN_FUNCTION]
            return make(
                step_id,
                PASSED,
                t("step.not_reached_cases", lang, cases=case_ranges(missed), count=len(missed)),
            )
        return make(step_id, PASSED)
    # The same sentence for many cases is said once, with the case numbers.
    groups: dict[str, list[int]] = {}
    for case in failed:
        groups.setdefault(case.error or "", []).append(case.index)
    ranked = sorted(groups.items(), key=lambda group: -len(group[1]))  # the commonest first
    parts = []
    for error, indices in ranked[:MAX_MESSAGE_GROUPS]:
        if len(indices) == 1:
            parts.append(t("step.case_failed", lang, case=indices[0], error=error))
        else:
            parts.append(
                t(
                    "step.cases_failed",
                    lang,
                    cases=case_ranges(indices),
                    count=len(indices),
                    error=error,
                )
            )
    others = sum(len(indices) for _, indices in ranked[MAX_MESSAGE_GROUPS:])
    if others:
        parts.append(t("step.more_cases", lang, count=others))
    hint = case_hint(step_id, failed[0], lang)  # the first failure's own fix
    return make(step_id, FAILED, " ".join(parts), hint, [c.index for c in failed])


def case_ranges(indices: list[int], limit: int = MAX_CASE_RANGES) -> str:
    """Case numbers as runs: ``0–4, 7, 9–12``, cut to ``limit`` runs with ``…``."""
    runs: list[tuple[int, int]] = []
    for index in sorted(set(indices)):
        if runs and index == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    text = ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in runs[:limit])
    return text + (", …" if len(runs) > limit else "")


__all__ = [
    "ADVICE",
    "FAILED",
    "FEEDBACK_ADVICE",
    "PASSED",
    "SKIPPED",
    "CaseResult",
    "CheckReport",
    "EvalReport",
    "Step",
    "build_steps",
    "case_ranges",
    "worst_key",
]
