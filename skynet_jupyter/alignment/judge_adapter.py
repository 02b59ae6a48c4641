"""The judge as GEPA reads it when aligning: a candidate is the judge's instructions, its
score on a case is whether its verdict agrees with the human label, and its feedback is
the disagreement in words.

``HumanLabels`` holds what people said (the label, and their reason when a
``rationale`` column is given) and measures one verdict against it, as
``sj.agreement`` does: pass/fail by ``threshold``, numeric labels by closeness.
``JudgeAdapter`` is the ``gepa.GEPAAdapter``: it scores the known outputs with
the metric whose instructions are the candidate's (a fresh module per text,
``judge_prompt``), through the engine, so time limits, concurrency and the
judge's cost are the engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.dataset import Case
from ..core.metric import Metric
from ..core.options import RunOptions
from ..core.report import CaseResult
from ..i18n import t
from ..optimizers.gepa_adapter import (
    SkynetGEPAAdapter,
    failure_feedback,
    import_gepa,
    numbered_back,
)
from ..optimizers.report import Costs
from ..optimizers.tool_rules import stop_if_the_run_stopped
from ..quality import _scoring
from ..quality.agreement import (
    BINARY,
    AgreementReport,
    disagreements_of,
)
from ..run.engine import Listener, execute_cases
from ..show.formats import fmt_score
from .judge_prompt import JudgePrompt

__all__ = ["COMPONENT", "HeldOutAgreement", "HumanLabels", "JudgeAdapter"]

COMPONENT = "instructions"  # the candidate's one text, in GEPA's terms


@dataclass(frozen=True)
class HumanLabels:
    """The human labels of the cases (case -> label as given, as a number, the reason)."""

    column: str
    kind: str  # "binary" or "numeric" (quality.agreement's)
    threshold: float
    labels: dict[int, Any]
    values: dict[int, float]
    reasons: dict[int, str] = field(default_factory=dict)

    def only(self, cases: Sequence[int]) -> HumanLabels:
        """The labels of ``cases`` only (the cases the run uses: ``cases=``, ``split=``)."""
        kept = set(cases)
        return HumanLabels(
            self.column,
            self.kind,
            self.threshold,
            {c: v for c, v in self.labels.items() if c in kept},
            {c: v for c, v in self.values.items() if c in kept},
            {c: v for c, v in self.reasons.items() if c in kept},
        )

    @property
    def low(self) -> float:
        return min(self.values.values())

    @property
    def span(self) -> float:
        return (max(self.values.values()) - self.low) or 1.0

    def agreement(self, case: int, score: float) -> float:
        """1 when the verdict is the label's; numeric labels: closeness to the label, which
        is rescaled to 0..1 over the labels' range."""
        value = self.values[case]
        if self.kind == BINARY:
            return 1.0 if (1.0 if score >= self.threshold else 0.0) == value else 0.0
        return max(0.0, 1.0 - abs(score - (value - self.low) / self.span))

    def word(self, value: float, lang: str) -> str:
        """A pass/fail verdict as the reports say it."""
        return t("quality.agree.pass" if value >= 1.0 else "quality.agree.fail", lang)

    def said(self, case: int, result: CaseResult, lang: str) -> tuple[float, str]:
        """(the agreement, the disagreement or agreement in words) for a scored case."""
        if not result.passed or result.score is None:
            return 0.0, t("align.fb_failed", lang, error=failure_feedback(result, lang))
        score = float(result.score)
        agreement = self.agreement(case, score)
        fields = {
            "score": fmt_score(score),
            "feedback": result.feedback or "—",
            "human": self.labels[case],
        }
        if self.kind == BINARY:
            fields["judge"] = self.word(1.0 if score >= self.threshold else 0.0, lang)
            fields["human"] = self.word(self.values[case], lang)
            key = "align.fb_agree" if agreement >= 1.0 else "align.fb_disagree"
        else:
            fields["closeness"] = fmt_score(agreement)
            key = "align.fb_numeric"
        words = t(key, lang, **fields)
        reason = self.reasons.get(case)
        if reason:
            words += " " + t("align.fb_reason", lang, rationale=reason)
        return agreement, words

    def report(
        self, metric_name: str, results: Sequence[CaseResult], lang: str
    ) -> HeldOutAgreement:
        """``sj.agreement``'s report of ``results`` (cases scored by one judge), where a
        case the judge failed on counts as a disagreement (:class:`HeldOutAgreement`)."""
        scored = [r for r in results if r.passed and r.score is not None]
        report = HeldOutAgreement(
            metric_name=metric_name,
            lang=lang,
            human=self.column,
            threshold=self.threshold,
            kind=self.kind,
            labels={r.index: self.labels[r.index] for r in results},
            values={r.index: self.values[r.index] for r in results},
            scores={r.index: float(r.score or 0.0) for r in scored},
            feedbacks={r.index: r.feedback for r in scored},
            failed=tuple(r.index for r in results if not (r.passed and r.score is not None)),
            judge_cost_usd=_scoring.judge_cost(results),
            judge_unpriced=_scoring.unpriced_judging(results),
        )
        report.disagreements = disagreements_of(report)
        return report


class HeldOutAgreement(AgreementReport):
    """``sj.agreement``'s report of the held-out cases, where a case the judge failed on
    (it raised, or replied what the metric cannot read) is a disagreement, never a case
    left out: the measures of the old and the new instructions cover the same cases.

    ``labels`` and ``values`` hold the failed cases too; ``scores`` only the scored ones.
    Pass/fail labels: a failure is the verdict opposite to the human's.  Numeric labels:
    a failure ranks at the far end from the human's label (below every score for a label
    in the upper half of the range, above every score otherwise).
    """

    def _verdicts(self) -> list[tuple[int, int]]:
        pairs = super()._verdicts()
        if self.kind != BINARY:
            return pairs
        return pairs + [(int(self.values[c]), 1 - int(self.values[c])) for c in self.failed]

    def _correlation(self, measure: Callable[[list[float], list[float]], float]) -> float | None:
        if not self.failed or self.kind == BINARY:
            return super()._correlation(measure)
        cases = [*self.scores, *self.failed]
        if len(cases) < 2:
            return None
        values = [self.values[c] for c in cases]
        middle = (min(values) + max(values)) / 2
        seen = list(self.scores.values()) or [0.0, 1.0]
        low, high = min(seen) - 1.0, max(seen) + 1.0
        scores = [
            self.scores[c] if c in self.scores else (low if self.values[c] >= middle else high)
            for c in cases
        ]
        return measure(values, scores)


class JudgeAdapter:
    """A ``gepa.GEPAAdapter`` whose candidate ``{"instructions": text}`` is the judge's prompt.

    Batches are cases that carry their output (the first pass's).  ``spend``
    adds up the judge's cost (and whatever else is added to it), ``failed_cases``
    the evaluations the judge failed; ``on_event`` gets the engine's events of
    GEPA's evaluations.
    """

    propose_new_texts = None  # GEPA's own reflective proposer writes the new text

    def __init__(self, prompt: JudgePrompt, labels: HumanLabels, options: RunOptions) -> None:
        self.prompt = prompt
        self.labels = labels
        self.options = options  # the cases carry their outputs: run is never called again
        self.lang = options.language
        self.spend = Costs()
        self.failed_cases = 0
        self.current_artifact: Any = None
        self.on_event: Listener | None = None
        self._metrics: dict[str, Metric] = {prompt.text: prompt.metric}

    def metric(self, text: str) -> Metric:
        """The judge with the instructions ``text`` (each text loaded once, in its own module)."""
        metric = self._metrics.get(text)
        if metric is None:
            metric = self._metrics[text] = self.prompt.metric_with(text)
        return metric

    def judge(self, cases: Sequence[Case], text: str, *, events: bool = True) -> list[CaseResult]:
        """Every case scored by the judge with ``text``, in the order given; its cost spent."""
        # Numbered by place, so the same case twice in a batch is two cases.
        batch = [
            Case(place, case.input, case.expected, case.output, case.measured)
            for place, case in enumerate(cases)
        ]
        report = execute_cases(
            "eval",
            self.metric(text),
            batch,
            self.options,
            on_event=self.on_event if events else None,
            run_cache=None,
        )
        for result in report.cases:  # what finished was paid for
            self.spend.add_case(result)
        if report.interrupted:
            raise KeyboardInterrupt
        stop_if_the_run_stopped(report, cases)  # the judge's key: the alignment stops
        return numbered_back(report.cases, cases)

    def evaluate(
        self, batch: Sequence[Case], candidate: dict[str, str], capture_traces: bool = False
    ) -> Any:
        """Each case's agreement with its human label: an ``EvaluationBatch``."""
        gepa = import_gepa()
        text = self.current_artifact = candidate[COMPONENT]
        scores, outputs, trajectories = [], [], []
        for case, result in zip(batch, self.judge(batch, text), strict=True):
            agreement, words = self.labels.said(case.index, result, self.lang)
            if not result.passed:
                self.failed_cases += 1
            scores.append(agreement)
            outputs.append(result.score)
            trajectories.append(
                {
                    "input": {"input": result.input, "output": case.output},
                    "output": _verdict(result),
                    "score": agreement,
                    "feedback": words,
                }
            )
        return gepa.EvaluationBatch(
            outputs=outputs,
            scores=scores,
            trajectories=trajectories if capture_traces else None,
        )

    # Per case, GEPA's records as the metric adapter writes them: Inputs (what the judge
    # was shown), Generated Outputs (its verdict), Feedback (the disagreement), Score.
    make_reflective_dataset = SkynetGEPAAdapter.make_reflective_dataset


def _verdict(result: CaseResult) -> Any:
    """The judge's verdict as its record shows it: the score, and the feedback verbatim."""
    if not result.passed or result.score is None:
        return None
    return {"score": result.score, "feedback": result.feedback}
