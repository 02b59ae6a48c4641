"""A record's report read back: the ``CheckReport`` or ``EvalReport`` its run returned.

The steps are the recorded ones (their titles in the record's language), the cases
are rebuilt from the case lines; a value cut at the record's size limit stays cut,
and the traceback of a failed case is not kept in a record.
"""

from __future__ import annotations

import math
from typing import Any

from ..core.contract import STEP_TITLES, step_title
from ..core.report import CaseResult, CheckReport, EvalReport, Step, StepStatus
from ..core.reward import RewardSpec
from ..i18n import t
from .schema import DamagedRecord

__all__ = ["report_of"]


def report_of(record: Any) -> CheckReport:
    """``record``'s report (a :class:`~.record.RunRecord`: not imported, since it imports
    this module to read itself back).

    A record edited by hand can hold what no run writes and the reader's types allow (a
    feedback ``true``, a step unknown here): the report is shown once here, and what it
    cannot show is a :class:`~.schema.DamagedRecord` naming the file, never an error later.
    """
    try:
        report = _built(record)
        str(report)
        report._repr_html_()
    except DamagedRecord:  # a case line read now: its own sentence
        raise
    except Exception as problem:  # what a hand-edited record holds: said, never raised later
        error = " ".join(f"{type(problem).__name__}: {problem}".split())[:120]
        why = t("history.why_unshowable", error=error)
        raise DamagedRecord("history.damaged", path=record.where, why=why) from None
    return report


def _built(record: Any) -> CheckReport:
    head = record.head
    lang = head.get("lang") if head.get("lang") in ("en", "fr", "pt") else "en"
    kind = EvalReport if record.kind == "eval" else CheckReport
    totals = head["totals"]
    return kind(
        steps=[_step(step, lang) for step in head.get("steps", []) if isinstance(step, dict)],
        cases=[_case(line) for line in record.cases],
        lang=lang,
        metric_name=record.metric,
        reward_spec=_spec(head.get("reward_spec")),
        interrupted=bool(totals.get("interrupted")),
        total_cases=_int(totals.get("asked"), record.case_count),
        elapsed_s=record.elapsed_s,
    )


def _step(step: dict[str, Any], lang: str) -> Step:
    step_id = str(step.get("id", ""))
    title = step_title(step_id, lang) if step_id in STEP_TITLES else step_id
    try:
        status = StepStatus(str(step.get("status")))
    except ValueError:
        status = StepStatus.SKIPPED
    cases = tuple(c for c in step.get("cases", []) if isinstance(c, int))
    return Step(
        step_id, title, status, str(step.get("message", "")), str(step.get("hint", "")), cases
    )


def _case(line: dict[str, Any]) -> CaseResult:
    scores = line.get("scores")
    given: Any = line.get("input")  # as recorded: a dict, or the text it was cut to
    return CaseResult(
        _int(line.get("index"), 0),
        given,
        line.get("expected"),
        output=line.get("output"),
        score=_float(line.get("score")),
        feedback=line.get("feedback"),
        scores=scores if isinstance(scores, dict) else {},
        error=line.get("error"),
        failed_step=line.get("failed_step"),
        metric_ms=_float(line.get("metric_ms")),
        run_ms=_float(line.get("run_ms")),
        cost_usd=_float(line.get("cost_usd")),
        judge_cost_usd=_float(line.get("judge_cost_usd")),
        cached=bool(line.get("cached")),
    )


def _spec(value: Any) -> RewardSpec | None:
    if not isinstance(value, dict):
        return None
    try:
        return RewardSpec.from_dict(value)
    except Exception:  # a spec this version reads otherwise: the report goes without it
        return None


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None
