"""What an optimizer run found: ``OptimizeReport`` and its parts, plain data that shows itself.

``Candidate`` is a text in GEPA's pool, ``Proposal`` a text the reflection
model wrote, ``Costs`` the dollars spent by who spent them.  The report
renders as text and HTML (``optimizers/render.py``) and becomes a pandas frame.
``OptimizeEvent`` is what ``optimize`` sends its listener as the run moves on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.shows_itself import ShowsItself

if TYPE_CHECKING:
    from ..core.report import CaseResult, RunStop

__all__ = ["Candidate", "Costs", "OptimizeEvent", "OptimizeListener", "OptimizeReport", "Proposal"]


# --- what the report holds -------------------------------------------------------


@dataclass(slots=True)
class Candidate:
    """One text in GEPA's pool: the seed (index 0) or an accepted proposal.

    ``score`` is its mean on the validation cases (``val_scores`` per case
    index); ``records`` are the feedback records the reflection model read
    when it proposed this text (empty for the seed).
    """

    index: int
    text: Any
    parent: int | None
    score: float | None
    val_scores: dict[int, float] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    iteration: int = 0
    calls: int = 0  # metric calls spent when it was found


@dataclass(slots=True)
class Proposal:
    """One text the reflection model wrote, and what GEPA made of it.

    ``before`` / ``after`` are the parent's and the new text's scores on the
    same training minibatch; GEPA keeps the new text (``accepted``) only when
    ``after`` adds up to more, then scores it on the validation cases
    (``candidate`` is then its index).
    """

    iteration: int
    parent: int | None
    parent_text: Any
    text: Any = None
    records: list[dict[str, Any]] = field(default_factory=list)
    before: list[float] = field(default_factory=list)
    after: list[float] | None = None
    accepted: bool | None = None
    candidate: int | None = None


@dataclass(slots=True)
class Costs:
    """US dollars spent, split: the run's model calls (task), the metric's (judge),
    and the reflection model's.  A ``*_known`` flag is False when a price was unknown
    (the figure then counts only the calls whose price was known).  The adapter adds
    cases to its own as they are scored; a report holds a copy."""

    task: float = 0.0
    judge: float = 0.0
    reflection: float = 0.0
    task_known: bool = True
    judge_known: bool = True
    reflection_known: bool = True

    @property
    def total(self) -> float:
        return self.task + self.judge + self.reflection

    @property
    def known(self) -> bool:
        return self.task_known and self.judge_known and self.reflection_known

    def __getitem__(self, name: str) -> float:
        if name not in ("task", "judge", "reflection", "total"):
            raise KeyError(name)
        return float(getattr(self, name))

    def as_dict(self) -> dict[str, float]:
        return {name: self[name] for name in ("task", "judge", "reflection", "total")}

    def add_case(self, result: CaseResult, *, ran_now: bool = False) -> None:
        """Count what one scored case paid now: a call answered from the call cache costs
        nothing now, whatever the report shows it cost when it was made.

        Its run, unless the output was replayed or every call of the run came from the
        cache.  Its judge, unless the case is cached and that says every judge call came
        from the cache: when it had no run, or ``ran_now`` (its run was made now, as the
        optimizer's always are).  A replayed output is cached whatever its judge did, so
        without ``ran_now`` a judge with a run is counted.
        """
        if result.run_paid_usd is not None or result.judge_paid_usd is not None:
            self._add_paid(result)  # the engine said what was paid now: exact
            return
        measured = result.measured
        if measured is not None and not (result.cached or measured.all_cached):
            if result.cost_usd is None:
                self.task_known = False
            else:
                self.task += result.cost_usd
        if result.cached and (ran_now or measured is None):
            return
        if result.judge_cost_usd is not None:
            self.judge += result.judge_cost_usd
        else:
            run_calls = 0 if measured is None else measured.model_calls
            if result.model_calls > run_calls:
                self.judge_known = False  # the judge called a model whose price is unknown

    def _add_paid(self, result: CaseResult) -> None:
        """The calls made now, from the case's own account (a cache hit costs nothing)."""
        if result.run_paid_usd is None:
            self.task_known = False
        else:
            self.task += result.run_paid_usd
        if result.judge_paid_usd is None:
            self.judge_known = False
        else:
            self.judge += result.judge_paid_usd


@dataclass(slots=True)
class OptimizeReport(ShowsItself):
    """What a budgeted GEPA run found.

    ``seed_score`` and ``best_score`` are means on the validation cases;
    ``best_artifact`` is the text (or dict of texts) that scored best;
    ``candidates`` GEPA's pool in the order found, ``proposals`` every text
    the reflection model wrote (kept or not); ``cost_usd`` the spend split
    into task, judge and reflection; ``calls`` the metric calls made.
    ``stopped`` says why the run ended: ``budget``, ``max_cost``,
    ``interrupted``, ``reflection_error``, ``error`` (an exception ended it: this
    report rides on it as ``.skynet_report``) or the kind of ``stop``;
    ``stop`` is set when a model's key (missing or refused) or a missing model
    stopped the run (a :class:`~skynet_jupyter.core.report.RunStop`: its sentence
    is the report's head, and the metric is not blamed); ``advice`` holds the
    likely causes when nothing improved.
    """

    seed_artifact: Any
    budget: int
    max_cost: float | None = None
    lang: str = "en"
    metric_name: str = "default"
    component: str | None = "prompt"
    train_size: int = 0
    val_size: int = 0
    val_cases: list[int] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)
    calls: int = 0
    reflection_calls: int = 0
    cost_usd: Costs = field(default_factory=Costs)
    stopped: str | None = None
    error: str | None = None
    advice: list[str] = field(default_factory=list)
    finished: bool = False
    elapsed_s: float = 0.0
    failed_cases: int = 0  # case evaluations that broke the contract (scored 0)
    stop: RunStop | None = None  # a configuration problem stopped the run (no verdict)
    log: list[str] = field(default_factory=list, repr=False)  # GEPA's own log lines

    @property
    def interrupted(self) -> bool:
        return self.stopped == "interrupted"

    @property
    def seed_score(self) -> float | None:
        return self.candidates[0].score if self.candidates else None

    @property
    def best(self) -> Candidate | None:
        """The candidate with the best validation score (the earliest on a tie)."""
        scored = [c for c in self.candidates if c.score is not None]
        if not scored:
            return None
        return max(scored, key=lambda c: (c.score, -c.index))

    @property
    def best_score(self) -> float | None:
        best = self.best
        return None if best is None else best.score

    @property
    def best_artifact(self) -> Any:
        best = self.best
        return self.seed_artifact if best is None else best.text

    @property
    def improved(self) -> bool:
        seed, best = self.seed_score, self.best_score
        return seed is not None and best is not None and best > seed

    def to_frame(self) -> Any:
        """One row per candidate (pandas DataFrame): parent, score, text, records read."""
        import pandas as pd

        rows = [
            {
                "candidate": c.index,
                "parent": c.parent,
                "iteration": c.iteration,
                "score": c.score,
                "best": self.best is c,
                "calls": c.calls,
                "text": c.text,
                "records": len(c.records),
            }
            for c in self.candidates
        ]
        return pd.DataFrame(rows).set_index("candidate") if rows else pd.DataFrame()


@dataclass(frozen=True, slots=True)
class OptimizeEvent:
    """The run moved on: ``kind`` is ``case``, ``candidate``, ``proposal``, ``judged``
    or ``finished``; ``report`` is the report so far (the same object throughout)."""

    kind: str
    report: OptimizeReport


OptimizeListener = Callable[[OptimizeEvent], None]
