"""What a check or an evaluation found: plain data that shows itself.

``CaseResult`` is one case; ``CheckReport`` / ``EvalReport`` hold the steps and
the cases, show themselves as text and HTML (through the views ``show/render.py``
registers for them: ``shows_itself``), and become a pandas frame.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Any, TypeVar

from ..i18n import t
from .compact_record import compact_record, fresh, lean_constructor, rare
from .contract import (
    FEEDBACK_ADVICE,
    METRIC_LOADS,
    METRIC_RETURN_VALUE,
    METRIC_SIGNATURE,
    METRIC_TIME_LIMIT,
    NO_MODEL_HINTS,
    REWARD_SPEC,
    RUN_FUNCTION,
    STEP_HINTS,
    STEP_IDS,
    case_hint,
    step_title,
)
from .shows_itself import ShowsItself


class StepStatus(StrEnum):
    """What became of a check step; ``PENDING``: not known yet (a live view, mid-run)."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"  # not reached, or not used (outputs from a column: no run step)
    ADVICE = "advice"
    PENDING = "pending"


PASSED, FAILED, SKIPPED, ADVICE = (
    StepStatus.PASSED,
    StepStatus.FAILED,
    StepStatus.SKIPPED,
    StepStatus.ADVICE,
)

_T = TypeVar("_T")


@compact_record
class CaseResult:
    """One case: what went in, what came out, what the metric said, what it cost.

    ``failed_step`` is the id of the contract step the case failed at (None
    when it passed); ``error`` says why, ``traceback`` holds the user's frames.
    Times are in milliseconds, costs in US dollars (None: not measured).  The
    fields declared ``rare(...)`` are those most cases leave at their default
    (see :mod:`~skynet_jupyter.core.compact_record`).
    """

    index: int
    input: dict[str, Any]
    expected: dict[str, Any] | None
    output: Any = None
    score: float | None = None
    feedback: str | None = None
    scores: dict[str, float] = fresh(factory=dict)
    info: dict[str, Any] | None = None
    error: str | None = None
    traceback: str | None = rare(default=None)  # the user's frames of the exception
    failed_step: str | None = None
    metric_ms: float | None = None
    run_ms: float | None = rare(default=None)  # how long run(artifact, input) took (None: not run)
    cost_usd: float | None = rare(default=None)  # the run's model calls (None: not measured)
    judge_cost_usd: float | None = rare(default=None)  # the metric's model calls (None: none made)
    model_calls: int = rare(default=0)  # model calls made for this case: the run's and the judge's
    cached: bool = rare(default=False)  # the output came from the run cache, not a run now
    measured: Any = rare(default=None)  # the run's Observation (what observation() returned)
    retries: int = rare(default=0)  # rate-limit answers retried for this case's model calls
    stand_in_calls: int = rare(
        default=0
    )  # model calls an offline stand-in answered (run and judge)
    hint_id: str | None = rare(
        default=None
    )  # a fix of its own (a copy that failed), else the step's
    # What the run's and the judge's calls cost *now* (a call cache hit is free; None: not
    # measured, or a price unknown): what an optimizer's max_cost counts as spent.
    run_paid_usd: float | None = rare(default=None)
    judge_paid_usd: float | None = rare(default=None)

    @property
    def passed(self) -> bool:
        return self.failed_step is None


# A scored case with nothing measured: ``CaseResult(...)`` for the hot path, the same
# object (tests/run/test_one_case_lean_path.py checks it field by field) without the
# 21-argument call.
scored_result = lean_constructor(
    CaseResult,
    "index",
    "input",
    "expected",
    "output",
    "score",
    "feedback",
    "scores",
    "info",
    "metric_ms",
)
RARE_FIELDS = tuple(
    name for name in CaseResult.__match_args__ if name not in CaseResult.__dict__["__slots__"]
)


# The columns of ``to_frame`` before the named scores, in order, and the field each is read
# from (``passed``: from ``failed_step``, made a bool after).
_FRAME_FIELDS = {"case": "index", "passed": "failed_step"}
_FRAME_COLUMNS = tuple((name, _FRAME_FIELDS.get(name, name)) for name in (
    "case", "input", "expected", "output", "score", "feedback", "passed", "failed_step",
    "error", "metric_ms", "run_ms", "cost_usd", "judge_cost_usd", "cached", "retries",
    "stand_in_calls",
))  # fmt: skip


def worst_key(case: CaseResult) -> tuple[bool, float, int]:
    """The order of the worst cases first: failed, then by rising score, then by index."""
    return (case.failed_step is None, -math.inf if case.score is None else case.score, case.index)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the contract check.  ``status``: passed, failed, skipped or advice."""

    id: str
    title: str
    status: StepStatus
    message: str = ""
    hint: str = ""
    cases: tuple[int, ...] = ()

    @property
    def passed(self) -> bool:
        return self.status != FAILED


# Why a run started no further case: the kinds of :class:`RunStop`.
MODEL_KEY = "model_key"  # a model's API key missing, or refused by its provider (401, 403)
NO_MODEL = "no_model"  # llm() called with no model configured for its role
PROVIDER_REFUSED = "provider_refused"  # a provider refused every request (HTTP 429) too long


@dataclass(frozen=True, slots=True)
class RunStop:
    """Why a run started no further case: a configuration problem every case would meet.

    ``kind`` is :data:`MODEL_KEY`, :data:`NO_MODEL` or :data:`PROVIDER_REFUSED`;
    ``case`` the index of the case that found it (None when no one case did: a
    provider that refused every request); ``sentence`` says what is wrong and how
    to fix it, in the run's language.  The cases that were not run say "Not run"
    and name ``case``.  Every tool report carries one as ``stop`` (None: it ran to
    its end): a tool that meets it stops too, and says ``sentence`` first.
    """

    kind: str
    case: int | None
    sentence: str


@dataclass(slots=True)
class CheckReport(ShowsItself):
    """The result of the 3-case contract check (``check``).

    ``stop`` is set when the run stopped before its last case for a configuration
    problem (:class:`RunStop`: a model's key, no model, a provider refusing everything).
    """

    steps: list[Step]
    cases: list[CaseResult]
    lang: str = "en"
    metric_name: str = "default"
    reward_spec: Any = None  # a RewardSpec, when the metric has one
    interrupted: bool = False
    total_cases: int = 0
    elapsed_s: float = 0.0
    kind: str = "check"
    stop: RunStop | None = None
    # Means and rankings, kept while the cases stay the same (views ask for them often).
    _memo: dict[tuple[str, int], Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def _remember(self, key: str, compute: Callable[[], _T]) -> _T:
        stamp = (key, len(self.cases))
        if stamp not in self._memo:
            self._memo[stamp] = compute()
        value: _T = self._memo[stamp]  # what compute() gave for this key: one type per key
        return value

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

        cases = self.cases
        if not cases:
            return pd.DataFrame()
        # Built a column at a time (a list per field), not from a dict per row: pandas
        # then reads each column once instead of aligning a million row dicts.
        columns: dict[str, list[Any]] = {
            name: list(map(attrgetter(field_name), cases))  # C-level: one pass per column
            for name, field_name in _FRAME_COLUMNS
        }
        # ``passed`` from the failed steps: the property would be a Python call per case.
        columns["passed"] = [step is None for step in columns["passed"]]
        named: dict[str, list[Any]] = {}
        for position, case in enumerate(cases):
            for name, value in case.scores.items():
                column = named.get(name)
                if column is None:  # a case without this score: NaN, as in a row-wise build
                    column = named[name] = [math.nan] * len(cases)
                column[position] = value
        columns.update((f"scores.{name}", column) for name, column in named.items())
        return pd.DataFrame(columns).set_index("case")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (what ``skynet-check --json`` prints)."""
        from .json_export import json_cases
        from .secrets import Redactor

        redact = Redactor()  # the secrets gathered once, not once per case
        return {
            "kind": self.kind,
            "passed": self.passed,
            "interrupted": self.interrupted,
            "metric": self.metric_name,
            "lang": self.lang,
            "mean_score": self.mean_score,
            "mean_scores": self.mean_scores,
            "stop": None
            if self.stop is None
            else {
                "kind": self.stop.kind,
                "case": self.stop.case,
                "sentence": redact(self.stop.sentence),
            },
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
            "cases": json_cases(self.cases, redact),  # a column at a time: a million is quick
        }


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
    """The check's steps from what happened: a load failure, or the cases' results.

    The live view (``widgets._state.LiveState.steps``) builds its running steps
    from the same ``titled_step`` and ``step_failed_by``.
    """

    def step(step_id: str, status: StepStatus, message: str = "") -> Step:
        return titled_step(step_id, status, lang, message)

    if load_error is not None:
        failed_at = STEP_IDS.index(load_error.step)
        steps = [step(s, PASSED) for s in STEP_IDS[:failed_at]]
        steps.append(
            titled_step(
                load_error.step,
                FAILED,
                lang,
                load_error.message(lang),
                t(STEP_HINTS[load_error.step], lang),
            )
        )
        steps += [step(s, SKIPPED, t("step.not_reached", lang)) for s in STEP_IDS[failed_at + 1 :]]
        return steps

    steps = [
        step(METRIC_LOADS, PASSED),
        step(METRIC_SIGNATURE, PASSED),
        step(REWARD_SPEC, PASSED, "" if has_spec else t("spec.none", lang)),
    ]
    # One pass over the cases: the steps some case failed at.  A step no case
    # failed at needs no filtering (most runs: none failed).
    failing = {case.failed_step for case in cases}
    if run_used:
        steps.append(_case_step(RUN_FUNCTION, cases, cases, lang, failing))
        # A case whose run() failed never reached the metric: those steps say so.
        reached = (
            [case for case in cases if case.failed_step != RUN_FUNCTION]
            if RUN_FUNCTION in failing
            else cases
        )
    else:
        steps.append(
            step(RUN_FUNCTION, SKIPPED, t("run.not_used", lang, column=output_column or "?"))
        )
        reached = cases
    steps.append(_case_step(METRIC_RETURN_VALUE, cases, reached, lang, failing))
    steps.append(_case_step(METRIC_TIME_LIMIT, cases, reached, lang, failing))
    return steps


_NO_MODEL_HINT_IDS = frozenset(NO_MODEL_HINTS.values())
MAX_MESSAGE_GROUPS = 3  # distinct failure messages spelled out in a step; the rest are counted
MAX_CASE_RANGES = 8  # runs of case numbers listed before "…"


def titled_step(
    step_id: str,
    status: StepStatus,
    lang: str,
    message: str = "",
    hint: str = "",
    cases: Iterable[int] = (),
) -> Step:
    """A step with its title in ``lang`` (the report's steps and the live view's)."""
    return Step(step_id, step_title(step_id, lang), status, message, hint, tuple(cases))


def _case_step(
    step_id: str,
    cases: list[CaseResult],
    reached: list[CaseResult],
    lang: str,
    failing: set[str | None] | None = None,
) -> Step:
    """``step_id``'s step; ``failing``: the steps any case failed at (None: not known)."""
    if not reached:  # no case got this far: not a pass
        message = t("step.not_reached", lang) if cases else t("step.no_cases", lang)
        return titled_step(step_id, SKIPPED, lang, message)
    if failing is not None and step_id not in failing:
        failed: list[CaseResult] = []
    else:
        failed = [case for case in reached if case.failed_step == step_id]
    if not failed:
        if len(reached) < len(cases):
            missed = [case.index for case in cases if case.failed_step == RUN_FUNCTION]
            return titled_step(
                step_id,
                PASSED,
                lang,
                t("step.not_reached_cases", lang, cases=case_ranges(missed), count=len(missed)),
            )
        return titled_step(step_id, PASSED, lang)
    return step_failed_by(step_id, failed, lang)


def step_failed_by(step_id: str, failed: list[CaseResult], lang: str) -> Step:
    """The failed step ``step_id``: what its failed cases said, and the first one's fix.

    Used by the report and, while cases still arrive, by the live view.
    """
    # The same sentence for many cases is said once, with the case numbers.
    groups: dict[str, list[int]] = {}
    configuration: str | None = None  # a missing model's sentence: it stopped the run
    for case in failed:
        groups.setdefault(case.error or "", []).append(case.index)
        if configuration is None and case.hint_id in _NO_MODEL_HINT_IDS:
            configuration = case.error or ""
    # The commonest first (a missing model's first of all: the other cases never ran).
    ranked = sorted(groups.items(), key=lambda group: (group[0] != configuration, -len(group[1])))
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
    return titled_step(step_id, FAILED, lang, " ".join(parts), hint, [c.index for c in failed])


class SameErrors:
    """Which earlier row a failed case repeats the failure of, so that rows say it once.

    Asked in the order the rows are drawn: the first case with a (step, error) says
    it, with its traceback; a later one with the same says "the same as case N".
    The note on a cached case's time and cost is the same: said in full once.
    """

    __slots__ = ("_cached", "_first")

    def __init__(self) -> None:
        self._first: dict[tuple[str, str], int] = {}
        self._cached = False

    def cached_said(self, case: CaseResult) -> bool:
        """Whether a row drawn before ``case`` (a cached one) said what "cached" means."""
        if not case.cached:
            return False
        said, self._cached = self._cached, True
        return said

    def of(self, case: CaseResult) -> int | None:
        """The index of the first case drawn with ``case``'s failure, if that is another."""
        if case.failed_step is None or not case.error:
            return None
        first = self._first.setdefault((case.failed_step, case.error), case.index)
        return None if first == case.index else first


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
    "MODEL_KEY",
    "NO_MODEL",
    "PASSED",
    "PROVIDER_REFUSED",
    "SKIPPED",
    "CaseResult",
    "CheckReport",
    "EvalReport",
    "RunStop",
    "SameErrors",
    "Step",
    "build_steps",
    "case_ranges",
    "step_failed_by",
    "titled_step",
    "worst_key",
]
