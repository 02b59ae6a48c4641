"""What aligning a judge found: ``AlignReport``, plain data that shows itself and saves itself.

``before`` and ``after`` are ``sj.agreement``'s reports on the held-out cases,
with the old instructions and with the new; ``optimization`` is the GEPA run
itself (an ``OptimizeReport``: candidates scored on the training cases, each
proposal with the disagreements the reflection model read, calls and cost).
``save(path)`` writes the metric with the new instructions: only that string
changes.  ``AlignEvent`` is what ``align`` sends its listener as the run moves on.
"""

from __future__ import annotations

import math
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.shows_itself import ShowsItself
from ..i18n import t
from ..optimizers.report import Costs, OptimizeReport
from ..quality.agreement import BINARY, AgreementReport

if TYPE_CHECKING:
    import os

    from ..core.metric import Metric
    from ..core.report import RunStop
    from .judge_prompt import JudgePrompt

__all__ = ["AlignEvent", "AlignListener", "AlignReport", "Flip"]


@dataclass(frozen=True, slots=True)
class Flip:
    """A held-out case whose agreement with the human changed: ``fixed`` when it agrees now
    (and did not), else it agreed and no longer does.  ``before`` / ``after``: the scores."""

    case: int
    human: Any
    before: float
    after: float
    fixed: bool


@dataclass
class AlignReport(ShowsItself):
    """A judge's instructions rewritten by GEPA from its disagreements with people.

    ``before`` / ``after``: agreement on the held-out cases (``.accuracy``,
    ``.kappa`` for pass/fail labels, ``.spearman`` for numeric ones), with the
    old instructions and with those GEPA found best on the training cases.
    ``best_prompt`` is the new text (the old one when the held-out agreement did
    not improve), ``metric`` the metric with it, ``flips`` the held-out cases that
    changed either way; ``advice`` says why when nothing improved.  ``stop`` is set
    when the judge's model key (missing or refused), or a missing model, stopped the
    alignment (a :class:`~skynet_jupyter.core.report.RunStop`): its sentence is the
    head, and no agreement is claimed.
    """

    metric_name: str
    prompt_name: str
    labels_column: str
    lang: str
    kind: str
    threshold: float
    seed_prompt: str
    optimization: OptimizeReport
    rationale_column: str | None = None
    train_cases: list[int] = field(default_factory=list)
    held_out_cases: list[int] = field(default_factory=list)
    held_out: dict[int, AgreementReport] = field(default_factory=dict)  # candidate -> held-out
    left_out: tuple[int, ...] = ()  # labelled cases without an output
    first_pass_calls: int = 0
    held_out_calls: int = 0
    advice: list[str] = field(default_factory=list)
    finished: bool = False
    elapsed_s: float = 0.0
    stop: RunStop | None = None  # a key or model problem stopped it: no verdict
    prompt: JudgePrompt | None = field(default=None, repr=False, compare=False)

    # --- the measures -------------------------------------------------------------

    @property
    def before(self) -> AgreementReport | None:
        """Held-out agreement with the old instructions."""
        return self.held_out.get(0)

    @property
    def chosen(self) -> int:
        """The candidate kept: GEPA's best on the training cases, if the held-out cases
        agree more with it than with the old instructions; else the seed (0)."""
        best = self.optimization.best
        if best is None or best.index == 0 or best.index not in self.held_out:
            return 0
        before, after = measure(self.before), measure(self.held_out[best.index])
        if after is None or (before is not None and after <= before):
            return 0
        return best.index

    @property
    def tried(self) -> int | None:
        """GEPA's best candidate on the training cases, when it is not the old text."""
        best = self.optimization.best
        return None if best is None or best.index == 0 else best.index

    @property
    def after(self) -> AgreementReport | None:
        """Held-out agreement with the new instructions (GEPA's best on the training cases)."""
        tried = self.tried
        if tried is not None and tried in self.held_out:
            return self.held_out[tried]
        return self.before

    @property
    def improved(self) -> bool:
        return self.chosen != 0

    @property
    def best_prompt(self) -> str:
        """The judge's new instructions (the old ones when nothing improved held-out)."""
        chosen = self.chosen
        if chosen == 0:
            return self.seed_prompt
        text: str = next(c.text for c in self.optimization.candidates if c.index == chosen)
        return text

    @property
    def source(self) -> str | None:
        """The metric's source with ``best_prompt`` (only that string changed)."""
        if self.prompt is None:
            return None
        return self.prompt.source_with(self.best_prompt)

    @property
    def metric(self) -> Metric | None:
        """The aligned metric (a new module), ready for ``sj.check`` / ``%skynet_check``."""
        if self.prompt is None:
            return None
        return self.prompt.metric_with(self.best_prompt)

    @property
    def flips(self) -> list[Flip]:
        """Held-out cases that agree now and did not before (``fixed``), and the reverse."""
        before, after = self.before, self.after
        if before is None or after is None or after is before:
            return []
        flips = []
        for case in self.held_out_cases:
            old, new = agrees_in(before, case), agrees_in(after, case)
            if old is None or new is None or old == new:
                continue
            old_score = before.scores.get(case, math.nan)  # nan: the judge failed on it
            new_score = after.scores.get(case, math.nan)
            flips.append(Flip(case, before.labels[case], old_score, new_score, new))
        return flips

    # --- what it took ---------------------------------------------------------------

    @property
    def calls(self) -> int:
        """The judge's calls: the first pass, GEPA's evaluations, the held-out checks."""
        return self.first_pass_calls + self.optimization.calls + self.held_out_calls

    @property
    def reflection_calls(self) -> int:
        return self.optimization.reflection_calls

    @property
    def budget(self) -> int:
        return self.optimization.budget

    @property
    def cost_usd(self) -> Costs:
        """Dollars by who spent them: the outputs' run (task), the judge, the reflection."""
        return self.optimization.cost_usd

    @property
    def stopped(self) -> str | None:
        return self.optimization.stopped

    @property
    def interrupted(self) -> bool:
        return self.optimization.interrupted

    # --- keeping it -------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str], *, force: bool = False) -> Path:
        """Write the metric with the new instructions to ``path`` (only that string changes).

        Atomic; a different existing file is kept (``FileExistsError``) unless
        ``force``; a link or a special file is never written.  Returns the path.
        """
        from ..core.saving import save_source

        source = self.source
        if source is None or self.prompt is None:
            raise ValueError("This report holds no metric source to save.")
        target = Path(path).expanduser()
        source = self._as_on_disk(target, self.prompt, force) or source
        encoding = _file_encoding(self.prompt.metric.path)  # a BOM, a coding line: kept
        refused = "align.save_refused"
        saved, note = save_source(
            target, source, force, self.lang, refused=refused, encoding=encoding
        )
        if saved is None:
            raise FileExistsError(note)
        return saved

    def _as_on_disk(self, target: Path, prompt: JudgePrompt, force: bool) -> str | None:
        """The metric's own file, changed since align read it: its text as it is now with the
        new instructions, when its string still holds the old ones (the other changes are
        kept); else refused unless ``force``.  None: not the metric's file, or unchanged."""
        from ..core.metric import SourceFileError, read_source
        from .judge_prompt import PromptNotFound

        own = prompt.metric.path
        try:
            if own is None or not target.is_file() or not target.samefile(own):
                return None
            current = read_source(target)
        except (OSError, SourceFileError):
            return None  # saving says what is wrong with the path
        if current == prompt.source:
            return None
        try:
            now = prompt.in_source(current, self.lang)
        except PromptNotFound:
            now = None
        if now is not None and now.text == prompt.text:
            return now.source_with(self.best_prompt)
        if force:
            return None
        refusal = t("align.changed_on_disk", self.lang, path=str(target), prompt=prompt.name)
        raise FileExistsError(refusal)

    def to_frame(self) -> Any:
        """One row per held-out case: the human label, the judge's score before and after."""
        import pandas as pd

        before, after = self.before, self.after
        rows = []
        for case in self.held_out_cases:
            rows.append(
                {
                    "case": case,
                    "human": before.labels.get(case) if before else None,
                    "before": before.scores.get(case) if before else None,
                    "after": after.scores.get(case) if after else None,
                }
            )
        return pd.DataFrame(rows).set_index("case") if rows else pd.DataFrame()

    def __repr__(self) -> str:
        def shown(report: AgreementReport | None) -> str:
            value = measure(report)
            return "—" if value is None or math.isnan(value) else f"{value:.2f}"

        name = "accuracy" if self.kind == BINARY else "spearman"
        return (
            f"<AlignReport metric={self.metric_name!r} {self.prompt_name}: held-out {name} "
            f"{shown(self.before)} -> {shown(self.after)} on {len(self.held_out_cases)} cases>"
        )


def measure(report: AgreementReport | None) -> float | None:
    """The headline measure of an agreement: accuracy (pass/fail), Spearman (numeric)."""
    if report is None:
        return None
    value = report.accuracy if report.kind == BINARY else report.spearman
    return None if value is None or math.isnan(value) else value


def agrees_in(report: AgreementReport, case: int) -> bool | None:
    """Whether the judge of ``report`` agrees with the human on ``case`` (a case the judge
    failed on does not; None: not judged)."""
    if case in report.failed:
        return False
    if case not in report.scores:
        return None
    return all(d.case != case for d in report.disagreements)


@dataclass(frozen=True, slots=True)
class AlignEvent:
    """The alignment moved on: ``kind`` is ``outputs`` (the first pass), GEPA's ``case``,
    ``candidate``, ``proposal``, ``judged``, then ``held_out`` and ``finished``;
    ``report`` is the report so far (the same object throughout)."""

    kind: str
    report: AlignReport


AlignListener = Callable[[AlignEvent], None]


def _file_encoding(path: str | None) -> str:
    """The encoding Python reads the metric's file in (``utf-8-sig`` with a BOM, a PEP 263
    coding line's), so its copy is written in it; UTF-8 for a metric from a cell."""
    if path is None:
        return "utf-8"
    try:
        with open(path, "rb") as source:
            return tokenize.detect_encoding(source.readline)[0]
    except (OSError, SyntaxError):
        return "utf-8"
