"""Two runs compared case by case: :class:`RunDiff` and its :class:`CaseChange` rows.

Cases are matched by identity (their input and expected value), never by row, so
reordered data still matches; rows repeated with the same input and expected are
paired by what the runs made of them (the same outcome first), never by their turn,
so that reordering them changes nothing either.  A case **regressed** when it passed
in ``a`` and fails in ``b``, or its score went down; it **improved** the other way
round (a change of pass or fail outweighs the score); it is **unchanged** otherwise
(its feedback or output may still have changed: ``feedback_changed``); ``added``
cases are only in ``b``, ``removed`` only in ``a``.  So ``diff(b, a)`` mirrors
``diff(a, b)``: its regressions are the other's improvements, its added the other's
removed, its deltas the other's negated, and a run compared with itself is empty.

Two runs on different data (their fingerprints differ) are refused with a sentence
unless ``allow_different_data``: then only the cases both have are compared, and
``note`` says how many.  The deltas of pass rate and mean score are over those
shared cases; cost and time are the whole runs'.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from ..core.shows_itself import ShowsItself
from ..i18n import t
from .record import RunRecord
from .words import source_diff, word_diff

__all__ = ["CaseChange", "DifferentData", "RunDiff", "compare_runs"]

SAME_SCORE = 1e-12  # scores closer than this are the same score
# The fields of a case line a diff tells apart (``cut``: the whole texts' hashes).
_COMPARED = ("failed_step", "output", "feedback", "error", "cut")


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
        """The feedback's change, word by word (``[("=", ...), ("-", ...), ("+", ...)]``).

        A change past the cut (the texts kept are the same, the whole texts' hashes are
        not) is marked after the kept text: ``[-…-]{+…+}``."""
        before, after = self.feedback_a or "", self.feedback_b or ""
        if before == after and self.feedback_changed:
            return [("=", after), ("-", "…"), ("+", "…")]
        return word_diff(before, after)

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


Line = dict[str, Any]


def _by_case(lines: list[Line]) -> dict[str, list[Line]]:
    """The case lines by case: a row repeated (``ID#2``, ``ID#3``) goes with its ``ID``."""
    cases: dict[str, list[Line]] = {}
    for line in lines:
        cases.setdefault(line["id"].partition("#")[0], []).append(line)
    return cases


def _paired(group_a: list[Line], group_b: list[Line]) -> list[tuple[Line | None, Line | None]]:
    """The lines of one case in ``a`` and in ``b`` paired; a line of one run alone is
    paired with None (added, removed).

    Rows repeated with the same input and expected differ only by what the run made of
    them (``ID#2`` is the second by position): pairing by position would make a mere
    reordering of the data a change.  So the pairs do not depend on the order: lines
    with the same outcome are paired first, then the rest in the order of their outcome.
    """
    if len(group_a) <= 1 and len(group_b) <= 1:  # nearly every case: no repeated row
        return [(group_a[0] if group_a else None, group_b[0] if group_b else None)]
    left = sorted(group_a, key=_outcome)
    waiting: dict[str, list[Line]] = {}
    for line in sorted(group_b, key=_outcome):
        waiting.setdefault(_outcome(line), []).append(line)
    pairs: list[tuple[Line | None, Line | None]] = []
    rest_a = []
    for line in left:
        same = waiting.get(_outcome(line))
        if same:
            pairs.append((line, same.pop(0)))
        else:
            rest_a.append(line)
    rest_b = sorted((line for lines in waiting.values() for line in lines), key=_outcome)
    pairs += zip_longest(rest_a, rest_b)
    return pairs


def _outcome(line: Line) -> str:
    """What a diff compares of a case line, as one text: equal texts, no change."""
    compared = [line.get(name) for name in _COMPARED]
    compared.append(_score(line))
    return json.dumps(compared, sort_keys=True, ensure_ascii=False, default=repr)


def _turn_id(case: str, turn: int) -> str:
    """A change's id: the case's, ``#2``... for its repeated rows, in the order of the pairs
    (not either run's rows: the same in ``diff(a, b)``, ``diff(b, a)`` and any order)."""
    return case if turn == 1 else f"{case}#{turn}"


def _change(identity: str, line_a: Line | None, line_b: Line | None) -> CaseChange:
    if line_a is None:
        return CaseChange(identity, "added", None, line_b)
    if line_b is None:
        return CaseChange(identity, "removed", line_a, None)
    return CaseChange(identity, _kind(line_a, line_b), line_a, line_b)


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
    groups: dict[str, list[CaseChange]] = {
        "regression": [],
        "improvement": [],
        "unchanged": [],
        "added": [],
        "removed": [],
    }
    by_case_a, by_case_b = _by_case(a.cases), _by_case(b.cases)
    for case in {**by_case_b, **by_case_a}:
        pairs = _paired(by_case_a.get(case, []), by_case_b.get(case, []))
        for turn, (line_a, line_b) in enumerate(pairs, start=1):
            change = _change(_turn_id(case, turn), line_a, line_b)
            groups[change.kind].append(change)
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
