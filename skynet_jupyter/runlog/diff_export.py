"""A :class:`~.diff.RunDiff` as plain JSON (``skynet-check diff --json``) and as a frame."""

from __future__ import annotations

from typing import Any

from .words import diff_text

# The RunDiff, its CaseChange rows and their RunRecords are typed Any here: not imported,
# since the diff imports this module to export itself.

__all__ = ["CHANGE_COLUMNS", "diff_dict", "diff_frame", "run_summary"]

CHANGE_COLUMNS = (
    "id", "kind", "index", "input", "expected", "passed_a", "passed_b", "score_a", "score_b",
    "delta", "feedback_a", "feedback_b", "feedback_diff", "output_a", "output_b",
)  # fmt: skip


def run_summary(record: Any) -> dict[str, Any]:
    return {
        "id": record.id,
        "metric": record.metric,
        "version": record.version,
        "kind": record.kind,
        "started": record.head["started"],
        "origin": record.origin,
        "data_fingerprint": record.data_fingerprint,
        "data_size": record.data_size,
        "passed": record.passed,
        "pass_rate": record.pass_rate,
        "mean": record.mean,
        "cost_usd": record.cost_usd,
        "elapsed_s": record.elapsed_s,
        "git_commit": record.git_commit,
    }


def _change(change: Any) -> dict[str, Any]:
    return {
        "id": change.id,
        "kind": change.kind,
        "index": change.index,
        "input": change.input,
        "expected": change.expected,
        "passed_a": change.passed_a,
        "passed_b": change.passed_b,
        "score_a": change.score_a,
        "score_b": change.score_b,
        "delta": change.delta,
        "feedback_a": change.feedback_a,
        "feedback_b": change.feedback_b,
        "feedback_diff": diff_text(change.feedback_diff) if change.feedback_changed else None,
        "output_a": None if change.a is None else change.a.get("output"),
        "output_b": None if change.b is None else change.b.get("output"),
    }


def diff_dict(diff: Any) -> dict[str, Any]:
    deltas = diff.deltas
    return {
        "a": run_summary(diff.a),
        "b": run_summary(diff.b),
        "shared": diff.shared,
        "different_data": diff.different_data,
        "note": diff.note or None,
        "deltas": {
            "pass_rate": deltas.pass_rate,
            "mean": deltas.mean,
            "cost_usd": deltas.cost_usd,
            "elapsed_s": deltas.elapsed_s,
        },
        "counts": {
            "regressions": len(diff.regressions),
            "improvements": len(diff.improvements),
            "unchanged": len(diff.unchanged),
            "added": len(diff.added),
            "removed": len(diff.removed),
        },
        "regressions": [_change(c) for c in diff.regressions],
        "improvements": [_change(c) for c in diff.improvements],
        "changed_feedback": [_change(c) for c in diff.changed_feedback],
        "added": [_change(c) for c in diff.added],
        "removed": [_change(c) for c in diff.removed],
        "source_diff": diff.source_diff or None,
    }


def diff_frame(diff: Any) -> Any:
    import pandas as pd

    rows = [
        _change(change)
        for group in (diff.regressions, diff.improvements, diff.added, diff.removed, diff.unchanged)
        for change in group
    ]
    return pd.DataFrame(rows, columns=list(CHANGE_COLUMNS))
