"""The run log's format, version 1: what a record holds, and how a reader judges one.

A run log is a folder (or an fsspec URL) holding::

    runs/<run id>.jsonl     one run: line 1 its head, then one line per case
    sources/<version>.py    a metric's source, once per version

Every line is one JSON object (UTF-8, no NaN or Infinity).  The head says
``"schema": 1`` and ``"body_bytes"``: the length of the case lines after it, so
that a record cut short (a copy stopped half-way, a full disk) is seen at once,
by its size, without reading its cases.  ``docs/history.md`` documents every
field; :data:`HEAD_FIELDS` and :data:`CASE_FIELDS` list them, and the tests hold
the writer to them.

A reader of schema 1 reads a record of schema 1; a record of a newer schema is
refused with one sentence (:class:`NewerSchema`: upgrade to read it); a record
that is not what the head says (bad JSON, the wrong size, a field of the wrong
type) is damaged (:class:`DamagedRecord`), and listings skip it with a warning
naming its file.  Neither is ever fatal to a listing.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ..i18n import t

__all__ = [
    "CASE_FIELDS",
    "HEAD_FIELDS",
    "KIND",
    "MAX_TEXT",
    "SCHEMA",
    "DamagedRecord",
    "NewerSchema",
    "RecordProblem",
    "case_problem",
    "checked_head",
]

SCHEMA = 1  # the version this package writes, and the newest it reads
_VERSION = re.compile(r"[0-9a-f]{12}")  # a metric version: 12 hex digits of its SHA-256
KIND = "skynet_jupyter.run"  # what every head says it is
# Outputs, feedback, errors, inputs and expected values longer than this many characters
# (as text: a string as it is, anything else as its JSON) are cut here; the record keeps
# their whole length and the SHA-256 of the whole text (``cut``), so that a change past
# the cut still shows in a diff.
MAX_TEXT = 10_000

HEAD_FIELDS = (
    "schema",  # int: SCHEMA
    "kind",  # str: KIND
    "id",  # str: the run id, also the file's name
    "run_kind",  # "check" or "eval"
    "started",  # str: ISO 8601, UTC, with microseconds
    "ended",  # str: ISO 8601, UTC
    "elapsed_s",  # float: the run's own time
    "metric",  # {"name", "version", "path"}
    "data",  # {"fingerprint", "size"}
    "options",  # the run options (plain JSON, secrets redacted)
    "totals",  # {"cases", "passed", "failed", "pass_rate", "mean", "mean_scores",
    #            "cost_usd", "judge_cost_usd", "cached", "passed_check", "interrupted"}
    "origin",  # {"surface", "git_commit", "package", "python", "models"}
    "lang",  # the run's language
    "steps",  # the check's steps: [{"id", "status", "message", "hint", "cases"}]
    "reward_spec",  # the metric's REWARD_SPEC as a dict, or null
    "body_bytes",  # int: the length in bytes of the case lines that follow the head
)
CASE_FIELDS = (
    "id",  # the case identity (input and expected), "#2"... for a repeated row
    "index",  # its row in the data
    "input",
    "expected",
    "output",
    "score",  # float or null
    "scores",  # named scores
    "feedback",
    "error",
    "failed_step",  # the contract step it failed at, or null
    "metric_ms",
    "run_ms",
    "cost_usd",
    "judge_cost_usd",
    "cached",
    "cut",  # {field: {"length", "sha256"}} for each field cut at MAX_TEXT
)


class RecordProblem(Exception):
    """A record that cannot be read; ``str()`` is one sentence naming its file."""

    def __init__(self, message_id: str, /, **fields: Any) -> None:
        self.message_id = message_id
        self.fields = fields
        super().__init__(t(message_id, None, **fields))

    def message(self, lang: str | None = None) -> str:
        return t(self.message_id, lang, **self.fields)


class NewerSchema(RecordProblem):
    """The record was written by a newer skynet_jupyter: this one refuses to guess."""


class DamagedRecord(RecordProblem):
    """The record is not what its head says: bad JSON, cut short, a field of a wrong type."""


_HEAD_TYPES: dict[str, type | tuple[type, ...]] = {
    "id": str,
    "run_kind": str,
    "started": str,
    "ended": str,
    "elapsed_s": (int, float),
    "metric": dict,
    "data": dict,
    "options": dict,
    "totals": dict,
    "origin": dict,
    "steps": list,
    "body_bytes": int,
}

# The parts of the head a listing shows, and the case fields a diff and a report read back
# rely on, each with its types: a bool is never taken for a number here.
_COUNT = (int,)
_NUMBER_OR_NULL = (int, float, type(None))
_TOTALS_TYPES: dict[str, tuple[type, ...]] = {
    "cases": _COUNT,
    "asked": _COUNT,
    "passed": _COUNT,
    "failed": _COUNT,
    "cached": _COUNT,
    "pass_rate": _NUMBER_OR_NULL,
    "mean": _NUMBER_OR_NULL,
    "cost_usd": _NUMBER_OR_NULL,
    "judge_cost_usd": _NUMBER_OR_NULL,
    "mean_scores": (dict,),
    "passed_check": (bool,),
    "interrupted": (bool,),
}
_ORIGIN_TYPES: dict[str, tuple[type, ...]] = {"surface": (str,)}
_CASE_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "index": _COUNT,
    "score": _NUMBER_OR_NULL,
    "failed_step": (str, type(None)),
    "feedback": (str, type(None)),
    "error": (str, type(None)),
    "scores": (dict, type(None)),
    "cut": (dict, type(None)),
}


def checked_head(head: Any, path: str) -> dict[str, Any]:
    """``head`` (line 1 of a record, parsed) if this package can read its record.

    Raises :class:`NewerSchema` for a newer schema, :class:`DamagedRecord` for
    anything else wrong; ``path`` names the file in the sentence.
    """
    if not isinstance(head, dict) or head.get("kind") != KIND:
        raise DamagedRecord("history.damaged", path=path, why=t("history.why_not_a_record"))
    schema = head.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise DamagedRecord("history.damaged", path=path, why=t("history.why_no_schema"))
    if schema > SCHEMA:
        raise NewerSchema("history.newer_schema", path=path, schema=schema, known=SCHEMA)
    for name, kind in _HEAD_TYPES.items():
        value = head.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise DamagedRecord(
                "history.damaged", path=path, why=t("history.why_field", field=name)
            )
    metric, data = head["metric"], head["data"]
    version = metric.get("version")
    # The version names a file of the log (sources/<version>.py): a record from a shared
    # log must not name another file ("../../x").
    if not isinstance(metric.get("name"), str) or (
        version is not None and not (isinstance(version, str) and _VERSION.fullmatch(version))
    ):
        raise _damaged(path, "metric")
    if not isinstance(data.get("fingerprint"), str):
        raise _damaged(path, "data")
    _check_fields(head["totals"], _TOTALS_TYPES, "totals", path)
    _check_fields(head["origin"], _ORIGIN_TYPES, "origin", path)
    for name in ("started", "ended"):
        try:
            datetime.fromisoformat(head[name])
        except ValueError:
            raise _damaged(path, name) from None
    return head


def _check_fields(
    part: dict[str, Any], types: dict[str, tuple[type, ...]], name: str, path: str
) -> None:
    """Each field of ``part`` (the head's ``totals`` or ``origin``) of its type: a listing
    shows these, and a wrong one read as a default would be a made-up value ("no" read as
    passed, "high" as no mean)."""
    for field, kind in types.items():
        value = part.get(field)
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in kind):
            raise _damaged(path, f"{name}.{field}")


def case_problem(case: Any) -> str | None:
    """The first field of a case line that is not of its type (None: it is a case line).

    Only what a diff or a report read back relies on: the rest is read defensively.
    """
    if type(case) is not dict:
        return "id"
    for field, kind in _CASE_TYPES.items():
        value = case.get(field)
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in kind):
            return field
    cut = case.get("cut")
    if cut is not None and not all(isinstance(v, dict) for v in cut.values()):
        return "cut"
    return None


def _damaged(path: str, field: str) -> DamagedRecord:
    return DamagedRecord("history.damaged", path=path, why=t("history.why_field", field=field))
