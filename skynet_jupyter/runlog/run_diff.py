"""Two runs compared case by case: :class:`RunDiff` and its :class:`CaseChange` rows.

Cases are matched by identity (their input and expected value), never by row, so
reordered data still matches.  A case **regressed** when it passed in ``a`` and
fails in ``b``, or its score went down; it **improved** the other way round (a
change of pass or fail outweighs the score); it is **unchanged** otherwise (its
feedback or output may still have changed: ``feedback_changed``); ``added`` cases
are only in ``b``, ``removed`` only in ``a``.  So ``diff(b, a)`` mirrors
``diff(a, b)``: its regressions are the other's improvements, its added the other's
removed, its deltas the other's negated, and a run compared with itself is empty.

Two runs on different data (their fingerprints differ) are refused with a sentence
unless ``allow_different_data``: then only the cases both have are compared, and
``note`` says how many.  The deltas of pass rate and mean score are over those
shared cases; cost and time are the whole runs'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..core.shows_itself import ShowsItself
from ..i18n import t
from .record import RunRecord
from .words import source_diff, word_diff

__all__ = ["CaseChange", "DifferentData", "RunDiff", "compare_runs"]

SAME_SCORE = 1e-12  # scores closer than this are the same score


class DifferentData(ValueError):
    """The two runs were made on different data; ``str()`` says so and what to do."""


@dataclass(frozen=True, slots=True)
class CaseChange:
    """One case in both runs (or in one): what it was in ``a``, what it is in ``b``."""

    id: str
    kind: str  # "regression", "improvement", "unchanged", "added", "removed"
    a: dict[str, Any] | None  # the case line in run a (None: added)
    b: dict[str, Any] | None  # the case line in run b (None: removed)

    @property
    def case(self) -> dict[str, Any]:
        """The case line that says what the case is now (``b``'s, else ``a``'s)."""
        line = self.b if self.b is not None else self.a
        assert line is not None
        return line

    @property
    def index(self) -> int:
        return int(self.case.get("index", 0))

    @property
    def input(self) -> Any:
        return self.case.get("input")

    @property
    def expected(self) -> Any:
        return self.case.get("expected")

    @property
    def passed_a(self) -> bool | None:
        return None if self.a is None else self.a.get("failed_step") is None

    @property
    def passed_b(self) -> bool | None:
        return None if self.b is None else self.b.get("failed_step") is None

    @property
    def score_a(self) -> float | None:
        return _score(self.a)

    @property
    def score_b(self) -> float | None:
        return _score(self.b)

    @property
    def delta(self) -> float | None:
        """``score_b - score_a`` (None when either is missing)."""
        a, b = self.score_a, self.score_b
        return None if a is None or b is None else b - a

    @property
    def feedback_a(self) -> str | None:
        return _text(self.a, "feedback")

    @property
    def feedback_b(self) -> str | None:
        return _text(self.b, "feedback")

    @property
    def feedback_changed(self) -> bool:
        return self.a is not None and self.b is not None and _changed(self.a, self.b, "feedback")

    @property
    def output_changed(self) -> bool:
        return self.a is not None and self.b is not None and _changed(self.a, self.b, "output")

    @property
    def error_changed(self) -> bool:
        return self.a is not None and self.b is not None and _changed(self.a, self.b, "error")

    @property
    def feedback_diff(self) -> list[tuple[str, str]]:
        """The feedback's change, word by word (``[("=", ...), ("-", ...), ("+", ...)]``)."""
        return word_diff(self.feedback_a or "", self.feedback_b or "")

    @property
    def pass_changed(self) -> bool:
        return (
            self.passed_a is not None
            and self.passed_b is not None
            and (self.passed_a != self.passed_b)
        )


def _score(line: dict[str, Any] | None) -> float | None:
    if line is None:
        return None
    score = line.get("score")
    kind = type(score)  # exact types: a record's numbers are finite JSON floats and ints
    if kind is float:
        return score if math.isfinite(score) else None  # type: ignore[arg-type]
    if kind is int:
        return float(score)  # type: ignore[arg-type]
    return None


def _text(line: dict[str, Any] | None, name: str) -> str | None:
    if line is None:
        return None
    value = line.get(name)
    return value if isinstance(value, str) or value is None else str(value)


def _changed(a: dict[str, Any], b: dict[str, Any], name: str) -> bool:
    cut_a, cut_b = (a.get("cut") or {}).get(name), (b.get("cut") or {}).get(name)
    if cut_a is not None or cut_b is not None:  # past the cut: the whole texts' hashes say
        return (cut_a or {}).get("sha256") != (cut_b or {}).get("sha256") or a.get(name) != b.get(
            name
        )
    return bool(a.get(name) != b.get(name))


def _kind(a: dict[str, Any], b: dict[str, Any]) -> str:
    passed_a, passed_b = a.get("failed_step") is None, b.get("failed_step") is None
    if passed_a != passed_b:
        return "regression" if passed_a else "improvement"
    score_a, score_b = _score(a), _score(b)
    if score_a is not None and score_b is not None and abs(score_b - score_a) > SAME_SCORE:
        return "regression" if score_b < score_a else "improvement"
    return "unchanged"


@dataclass(frozen=True, slots=True)
class Deltas:
    """``b - a``: pass rate and mean score over the shared cases; cost and time of the runs."""

    pass_rate: float | None
    mean: float | None
    cost_usd: float | None
    elapsed_s: float | None


@dataclass(slots=True)
class RunDiff(ShowsItself):
    """Run ``b`` against run ``a``, case by case; regressions first.

    ``regressions``, ``improvements``, ``unchanged``, ``added``, ``removed`` are
    lists of :class:`CaseChange`; ``shared`` counts the cases in both runs;
    ``deltas`` (``b - a``) holds ``pass_rate``, ``mean``, ``cost_usd``,
    ``elapsed_s``; ``source_diff`` is the metric's source diff between the two
    versions (unified diff; "" when the same or unknown); ``note`` says when only
    the shared cases of two data sets were compared.  A diff shows itself
    (text, HTML) and is falsy when nothing changed.
    """

    a: RunRecord
    b: RunRecord
    regressions: list[CaseChange]
    improvements: list[CaseChange]
    unchanged: list[CaseChange]
    added: list[CaseChange]
    removed: list[CaseChange]
    shared: int
    different_data: bool
    lang: str = "en"
    _source_diff: str | None = field(default=None, repr=False)

    @property
    def changed_feedback(self) -> list[CaseChange]:
        """Unchanged cases (same verdict and score) whose feedback or output changed."""
        return [c for c in self.unchanged if c.feedback_changed or c.output_changed]

    @property
    def empty(self) -> bool:
        """Nothing changed: no case moved, none added or removed, no feedback changed."""
        return not (
            self.regressions
            or self.improvements
            or self.added
            or self.removed
            or self.changed_feedback
        )

    def __bool__(self) -> bool:
        return not self.empty

    @property
    def deltas(self) -> Deltas:
        return _deltas(self)

    @property
    def source_diff(self) -> str:
        if self._source_diff is None:
            a, b = self.a, self.b
            if a.version == b.version:
                self._source_diff = ""
            else:
                self._source_diff = source_diff(
                    a.source, b.source, f"{a.metric} v{a.version}", f"{b.metric} v{b.version}"
                )
        return self._source_diff

    @property
    def note(self) -> str:
        """The sentence saying only the shared cases were compared ("" for the same data)."""
        if not self.different_data:
            return ""
        return t("history.shared_only", self.lang, count=self.shared)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (``skynet-check diff --json``)."""
        from .diff_export import diff_dict

        return diff_dict(self)

    def to_frame(self) -> Any:
        """One row per case (pandas), regressions first."""
        from .diff_export import diff_frame

        return diff_frame(self)

    def _text(self) -> str:
        from .views_lookup import views

        return str(views().diff_text(self))

    def _html(self) -> str:
        from .views_lookup import views

        return str(views().diff_html(self))


def _pass_rate(lines: list[dict[str, Any] | None]) -> float | None:
    known = [line for line in lines if line is not None]
    if not known:
        return None
    return sum(1 for line in known if line.get("failed_step") is None) / len(known)


def _mean(lines: list[dict[str, Any] | None]) -> float | None:
    scores = [s for s in map(_score, lines) if s is not None]
    return sum(scores) / len(scores) if scores else None


def _minus(b: float | None, a: float | None) -> float | None:
    return None if a is None or b is None else b - a


def _deltas(diff: RunDiff) -> Deltas:
    both = [*diff.regressions, *diff.improvements, *diff.unchanged]
    lines_a = [change.a for change in both]
    lines_b = [change.b for change in both]
    return Deltas(
        pass_rate=_minus(_pass_rate(lines_b), _pass_rate(lines_a)),
        mean=_minus(_mean(lines_b), _mean(lines_a)),
        cost_usd=_minus(diff.b.cost_usd, diff.a.cost_usd),
        elapsed_s=diff.b.elapsed_s - diff.a.elapsed_s,
    )


def _worst_first(change: CaseChange) -> tuple[int, float, int]:
    """Regressions: pass → fail first, then the biggest drop; improvements the other way."""
    delta = change.delta
    size = -abs(delta) if delta is not None else 0.0
    return (0 if change.pass_changed else 1, size, change.index)


def compare_runs(
    a: RunRecord, b: RunRecord, *, allow_different_data: bool = False, lang: str = "en"
) -> RunDiff:
    """``b`` against ``a``: see the module's docstring."""
    different = a.data_fingerprint != b.data_fingerprint
    if different and not allow_different_data:
        raise DifferentData(
            t(
                "history.different_data",
                lang,
                a=a.id,
                b=b.id,
                size_a=a.data_size,
                size_b=b.data_size,
            )
        )
    lines_a = {line["id"]: line for line in a.cases}
    lines_b = {line["id"]: line for line in b.cases}
    groups: dict[str, list[CaseChange]] = {
        "regression": [],
        "improvement": [],
        "unchanged": [],
        "added": [],
        "removed": [],
    }
    for identity, line_b in lines_b.items():
        line_a = lines_a.get(identity)
        if line_a is None:
            groups["added"].append(CaseChange(identity, "added", None, line_b))
        else:
            kind = _kind(line_a, line_b)
            groups[kind].append(CaseChange(identity, kind, line_a, line_b))
    for identity, line_a in lines_a.items():
        if identity not in lines_b:
            groups["removed"].append(CaseChange(identity, "removed", line_a, None))
    shared = len(groups["regression"]) + len(groups["improvement"]) + len(groups["unchanged"])
    return RunDiff(
        a=a,
        b=b,
        regressions=sorted(groups["regression"], key=_worst_first),
        improvements=sorted(groups["improvement"], key=_worst_first),
        unchanged=sorted(groups["unchanged"], key=lambda c: c.index),
        added=sorted(groups["added"], key=lambda c: c.index),
        removed=sorted(groups["removed"], key=lambda c: c.index),
        shared=shared,
        different_data=different,
        lang=lang,
    )
