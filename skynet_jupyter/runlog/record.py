"""A run's record: made from a finished report (:class:`Draft`), read back (:class:`RunRecord`).

:func:`draft` takes what a run leaves (its report, its metric, the cases it was
asked to run, its options) in a few microseconds: references, and what may change
once the call returns (the working directory, the settings, the surface that asked
for it).  :meth:`Draft.encode` turns it into the bytes of one record, the work that
is done off the caller's path (``recorder.py``): every value as plain JSON, every
secret redacted (the credential rule of :mod:`~skynet_jupyter.core.secrets`: the
configured models' keys, secret-looking environment variables, key-shaped text),
and each long text cut at :data:`~.schema.MAX_TEXT` with its length and hash kept.

:class:`RunRecord` is one record as read from a log (or made in memory from a
report, for ``diff``): the attributes issue 46 names, the cases when asked for, and
``report()``, the report read back.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.json_export import json_cases
from ..core.secrets import Redactor
from .identity import case_identities, case_identity, data_fingerprint, metric_version
from .schema import KIND, MAX_TEXT, SCHEMA

if TYPE_CHECKING:
    from ..core.options import RunOptions
    from ..core.report import CaseResult, CheckReport
    from .location import LogLocation

__all__ = ["Draft", "RunRecord", "cut_long", "draft", "in_memory", "new_run_id"]

CUT_FIELDS = ("input", "expected", "output", "feedback", "error")


def new_run_id(when: datetime) -> str:
    """``20261206-041200-1a2b3c4d``: sorts by start time; 32 random bits tell apart two runs
    started in the same second (two kernels, parallel CI jobs)."""
    return f"{when:%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"


@dataclass(slots=True)
class Draft:
    """What a finished run leaves, taken at once; :meth:`encode` makes the record."""

    run_id: str
    kind: str
    started: datetime
    ended: datetime
    elapsed_s: float
    metric_name: str
    metric_path: str | None
    metric: Any  # the metric object: its source is read off the caller's path (encode)
    cases: list[CaseResult]
    asked: Sequence[Any]  # the cases the run was asked to run (``Case``s or results)
    options: RunOptions | None
    surface: str
    lang: str
    models: Any  # ModelSettings
    steps: list[Any]
    reward_spec: Any
    passed: bool
    interrupted: bool
    total_cases: int
    cwd: Path
    source: str | None = field(default=None)
    version: str | None = field(default=None)
    _read_source: bool = field(default=False)

    def read_source(self) -> None:
        """The metric's source and version (``inspect.getsource`` may read a file: done here,
        when the record is made, not while the caller waits)."""
        if self._read_source:
            return
        from .identity import metric_source

        metric = self.metric
        if isinstance(metric, str):
            self.source = metric if "\n" in metric else None  # source text, not a path
        elif metric is not None and not isinstance(metric, os.PathLike):
            self.source = metric_source(metric)
        self.version = metric_version(self.source)
        self._read_source = True

    # --- the record ------------------------------------------------------------------

    def encode(self, redact: Redactor | None = None) -> tuple[dict[str, Any], bytes]:
        """(the head, the record's bytes): the head line, then one line per case."""
        self.read_source()
        clean = redact or Redactor()
        pairs = self.pairs
        identities = case_identities(pairs.values())
        by_index = dict(zip(pairs, identities, strict=True))  # by the case's row
        body = b"".join(_line(case_line) for case_line in self.case_lines(by_index, clean))
        head = self.head(data_fingerprint(identities), len(identities), clean)
        head["body_bytes"] = len(body)
        return head, _line(head) + body

    @property
    def pairs(self) -> dict[int, tuple[Any, Any]]:
        """The asked cases by row: (input, expected); made here, off the caller's path."""
        return {case.index: (case.input, case.expected) for case in self.asked}

    def identities(self) -> list[str]:
        return case_identities(self.pairs.values())

    def head(self, fingerprint: str, size: int, clean: Redactor) -> dict[str, Any]:
        from .options_record import options_record, origin_record, steps_record, totals

        return {
            "schema": SCHEMA,
            "kind": KIND,
            "id": self.run_id,
            "run_kind": self.kind,
            "started": self.started.isoformat(),
            "ended": self.ended.isoformat(),
            "elapsed_s": self.elapsed_s,
            "metric": {
                "name": clean(self.metric_name),
                "version": self.version,
                "path": None if self.metric_path is None else clean(self.metric_path),
            },
            "data": {"fingerprint": fingerprint, "size": size},
            "options": options_record(self.options, clean),
            "totals": totals(self.cases, self.passed, self.interrupted, self.total_cases),
            "origin": origin_record(self.surface, self.models, self.cwd, self.metric_path, clean),
            "lang": self.lang,
            "steps": steps_record(self.steps, clean),
            "reward_spec": _spec(self.reward_spec),
            "body_bytes": 0,
        }

    def case_lines(self, by_index: dict[int, str], clean: Redactor) -> list[dict[str, Any]]:
        ready = json_cases(self.cases, clean)
        lines = []
        for case, shown in zip(self.cases, ready, strict=True):
            identity = by_index.get(case.index)
            if identity is None:  # not among the cases asked (a hand-made report)
                identity = case_identity(case.input, case.expected)
            lines.append(
                {
                    "id": identity,
                    "index": shown["case"],
                    "input": shown["input"],
                    "expected": shown["expected"],
                    "output": shown["output"],
                    "score": shown["score"],
                    "scores": shown["scores"],
                    "feedback": shown["feedback"],
                    "error": shown["error"],
                    "failed_step": shown["failed_step"],
                    "metric_ms": shown["metric_ms"],
                    "run_ms": shown["run_ms"],
                    "cost_usd": shown["cost_usd"],
                    "judge_cost_usd": shown["judge_cost_usd"],
                    "cached": shown["cached"],
                    "cut": None,
                }
            )
        return lines


# One encoder, made once (``json.dumps`` with options builds one per call).
_LINE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _line(value: dict[str, Any]) -> bytes:
    """One JSON line; a case whose text runs past MAX_TEXT has it cut (``cut_long``)."""
    try:
        text = _LINE.encode(value)
    except ValueError:  # a non-finite number left somewhere (a hand-made report): as null
        text = _LINE.encode(_finite(value))
    if len(text) > MAX_TEXT and "cut" in value and value.get("cut") is None:
        text = _LINE.encode(cut_long(value))
    return text.encode("utf-8", "surrogatepass") + b"\n"


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


def cut_long(case_line: dict[str, Any]) -> dict[str, Any]:
    """The case line with each text past :data:`MAX_TEXT` cut there, its length and hash kept.

    A string is cut as it is; another value (a dict, a list) as its JSON text.
    """
    cut: dict[str, Any] = {}
    shown = dict(case_line)
    for name in CUT_FIELDS:
        value = shown.get(name)
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if len(text) <= MAX_TEXT:
            continue
        whole = text.encode("utf-8", "surrogatepass")
        cut[name] = {
            "length": len(text),
            "sha256": hashlib.sha256(whole).hexdigest(),
            "json": not isinstance(value, str),
        }
        shown[name] = text[:MAX_TEXT]
    shown["cut"] = cut or None
    finite: dict[str, Any] = _finite(shown)  # a dict in, a dict out
    return finite


def _spec(spec: Any) -> dict[str, Any] | None:
    if spec is None:
        return None
    try:
        value = spec.to_dict()
    except Exception:  # a spec of another shape: kept out rather than guessed at
        return None
    return value if isinstance(value, dict) else None


def draft(
    report: CheckReport,
    metric: Any,
    cases: Sequence[Any] | None,
    options: RunOptions | None,
    *,
    surface: str,
    models: Any = None,
    now: datetime | None = None,
) -> Draft:
    """Take what the finished run ``report`` leaves: references, in microseconds."""
    ended = now or datetime.now(UTC)
    elapsed = float(getattr(report, "elapsed_s", 0.0) or 0.0)
    started = ended - timedelta(seconds=elapsed)
    asked = cases if cases is not None else report.cases
    path = getattr(metric, "path", None)
    if isinstance(metric, os.PathLike):
        path = os.fspath(metric)
    return Draft(
        run_id=new_run_id(started),
        kind=report.kind,
        started=started,
        ended=ended,
        elapsed_s=elapsed,
        metric_name=str(report.metric_name),
        metric_path=path if isinstance(path, str) else None,
        metric=metric,
        cases=list(report.cases),
        asked=asked,
        options=options,
        surface=surface,
        lang=report.lang,
        models=models,
        steps=list(report.steps),
        reward_spec=report.reward_spec,
        passed=report.passed,
        interrupted=report.interrupted,
        total_cases=report.total_cases,
        cwd=Path.cwd(),
    )


# --- read back ----------------------------------------------------------------------


CaseLoader = Callable[[], list[dict[str, Any]]]
SourceLoader = Callable[[str], "str | None"]


class RunRecord:
    """One recorded run: a check or an evaluation, as its log keeps it.

    The attributes are the head's (read without the cases): ``id``, ``started``,
    ``ended`` (aware UTC datetimes), ``metric`` (its name), ``version`` (its
    source's hash; None when no source was known), ``data_fingerprint``,
    ``data_size``, ``origin`` (``"notebook"``, ``"python"`` or ``"cli"``),
    ``passed`` (the check passed), ``mean`` (mean score), ``pass_rate``,
    ``cost_usd`` (the run's and the judge's model calls; None: not measured),
    ``elapsed_s``.  ``cases`` reads the case lines; ``report()`` gives the
    :class:`~skynet_jupyter.EvalReport` (or ``CheckReport``) back; ``source`` is
    the metric's source at that version.
    """

    __slots__ = ("_cases", "_load_cases", "_load_source", "head", "location", "where")

    def __init__(
        self,
        head: dict[str, Any],
        load_cases: CaseLoader,
        *,
        load_source: SourceLoader | None = None,
        location: LogLocation | None = None,
        where: str = "",
    ) -> None:
        self.head = head
        self._load_cases = load_cases
        self._load_source = load_source
        self._cases: list[dict[str, Any]] | None = None
        self.location = location
        self.where = where  # the record's file, as a sentence names it

    # --- the head -------------------------------------------------------------------

    @property
    def id(self) -> str:
        return str(self.head["id"])

    @property
    def kind(self) -> str:
        return str(self.head.get("run_kind", "check"))

    @property
    def started(self) -> datetime:
        return _when(self.head["started"])

    @property
    def ended(self) -> datetime:
        return _when(self.head["ended"])

    @property
    def metric(self) -> str:
        return str(self.head["metric"]["name"])

    @property
    def version(self) -> str | None:
        version = self.head["metric"].get("version")
        return version if isinstance(version, str) else None

    @property
    def metric_path(self) -> str | None:
        path = self.head["metric"].get("path")
        return path if isinstance(path, str) else None

    @property
    def data_fingerprint(self) -> str:
        return str(self.head["data"]["fingerprint"])

    @property
    def data_size(self) -> int:
        size = self.head["data"].get("size")
        return size if isinstance(size, int) else 0

    @property
    def origin(self) -> str:
        return str(self.head["origin"].get("surface", "python"))

    @property
    def git_commit(self) -> str | None:
        commit = self.head["origin"].get("git_commit")
        return commit if isinstance(commit, str) else None

    @property
    def models(self) -> dict[str, Any]:
        models = self.head["origin"].get("models")
        return dict(models) if isinstance(models, dict) else {}

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.head["options"])

    @property
    def totals(self) -> dict[str, Any]:
        return dict(self.head["totals"])

    @property
    def passed(self) -> bool:
        return bool(self.head["totals"].get("passed_check"))

    @property
    def interrupted(self) -> bool:
        return bool(self.head["totals"].get("interrupted"))

    @property
    def mean(self) -> float | None:
        return _number(self.head["totals"].get("mean"))

    @property
    def pass_rate(self) -> float | None:
        return _number(self.head["totals"].get("pass_rate"))

    @property
    def cost_usd(self) -> float | None:
        return _number(self.head["totals"].get("cost_usd"))

    @property
    def elapsed_s(self) -> float:
        return _number(self.head.get("elapsed_s")) or 0.0

    @property
    def case_count(self) -> int:
        count = self.head["totals"].get("cases")
        return count if isinstance(count, int) else 0

    # --- what is read on demand ---------------------------------------------------------

    @property
    def cases(self) -> list[dict[str, Any]]:
        """The case lines (schema's ``CASE_FIELDS``), read at the first ask."""
        if self._cases is None:
            self._cases = self._load_cases()
        return self._cases

    @property
    def source(self) -> str | None:
        """The metric's source at this version, when the log kept it."""
        if self._load_source is None or self.version is None:
            return None
        return self._load_source(self.version)

    def report(self) -> CheckReport:
        """The report read back: an ``EvalReport`` for an evaluation, else a ``CheckReport``.

        Values cut at :data:`~.schema.MAX_TEXT` stay cut; a case's traceback is not kept.
        """
        from .read_back import report_of

        return report_of(self)

    def __repr__(self) -> str:
        mean = "—" if self.mean is None else f"{self.mean:.3f}"
        verdict = "passed" if self.passed else "failed"
        version = self.version or "?"
        return (
            f"<RunRecord {self.id} {self.metric!r} v{version} {self.kind} {verdict}, "
            f"mean {mean}, {self.case_count} cases, {self.origin}>"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunRecord):
            return NotImplemented
        return self.head == other.head

    def __hash__(self) -> int:
        return hash(self.id)


def _when(text: Any) -> datetime:
    when = datetime.fromisoformat(str(text))
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def in_memory(made: Draft) -> RunRecord:
    """A record made from a live report, never written (``diff`` of a report)."""
    head, data = made.encode()
    lines = [json.loads(line) for line in data.splitlines()[1:]]
    source, version = made.source, made.version

    def load_source(asked: str) -> str | None:
        return source if asked == version else None

    return RunRecord(head, lambda: lines, load_source=load_source, where=f"<{made.metric_name}>")
