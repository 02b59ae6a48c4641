"""``sj.history`` and ``sj.diff``: the run log read, and two runs compared.

``history(metric=None, *, data=None, log=None, limit=50)`` gives a :class:`History`:
the newest runs first (``history[0]`` is the last run), with ``to_frame()``, text,
HTML (a chart of each version's mean score and pass rate over time) and
``prune(keep=N)``.  ``diff(a, b)`` takes two runs, each a run id (or a unique
prefix of one), a :class:`RunRecord`, a report, or ``"last"`` / ``"last~N"`` (the
last run of a metric, the one before it...).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, overload

from ..core.shows_itself import ShowsItself
from ..i18n import current_lang, current_surface, t
from .location import LogLocation, resolve_location
from .reading import head_of, read_records, record_of
from .record import RunRecord, draft, in_memory
from .recorder import flush
from .run_diff import RunDiff, compare_runs
from .schema import RecordProblem
from .store import SOURCE_GRACE_S, Store, open_store

__all__ = ["History", "UnknownRun", "diff", "history", "resolve_run"]

_LAST = re.compile(r"^last(?:~(\d+))?$")


class UnknownRun(LookupError):
    """No run answers a reference (an id, a prefix, ``last~N``); ``str()`` says what to try."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True, slots=True)
class _Filter:
    metric: str | None
    data: str | None

    def __call__(self, head: dict[str, Any]) -> bool:
        if self.metric is not None and head["metric"]["name"] != self.metric:
            return False
        return self.data is None or str(head["data"]["fingerprint"]).startswith(self.data)


def _fingerprint(data: Any) -> str | None:
    """``data=``: a fingerprint (or its start), a record, a report; None: any data."""
    if data is None:
        return None
    if isinstance(data, str):
        return data
    if isinstance(data, RunRecord):
        return data.data_fingerprint
    if hasattr(data, "cases") and hasattr(data, "metric_name"):
        return _record_of_report(data).data_fingerprint
    raise TypeError(t("history.bad_data_filter", kind=type(data).__name__))


def _metric_name(metric: Any) -> str | None:
    if metric is None or isinstance(metric, str):
        return metric
    name = getattr(metric, "name", None)
    if isinstance(name, str):
        return name
    raise TypeError(t("history.bad_metric_filter", kind=type(metric).__name__))


class History(ShowsItself):
    """Recorded runs, newest first: a sequence of :class:`RunRecord`.

    ``history[0]`` is the last run; ``to_frame()`` gives one row per run;
    ``prune(keep=N)`` removes all but each metric's newest ``N`` runs of the log
    (within this history's ``metric`` and ``data``).  It shows itself as text and
    as HTML, with a chart of each metric version's mean score and pass rate over
    time.
    """

    __slots__ = ("data", "lang", "location", "metric", "runs", "total")

    def __init__(
        self,
        runs: list[RunRecord],
        *,
        location: LogLocation | None,
        metric: str | None = None,
        data: str | None = None,
        total: int | None = None,
        lang: str = "en",
    ) -> None:
        self.runs = runs
        self.location = location
        self.metric = metric
        self.data = data
        self.total = len(runs) if total is None else total  # before the limit
        self.lang = lang

    def __len__(self) -> int:
        return len(self.runs)

    def __iter__(self) -> Iterator[RunRecord]:
        return iter(self.runs)

    @overload
    def __getitem__(self, index: int) -> RunRecord: ...
    @overload
    def __getitem__(self, index: slice) -> list[RunRecord]: ...
    def __getitem__(self, index: int | slice) -> RunRecord | list[RunRecord]:
        return self.runs[index]

    def __repr__(self) -> str:
        where = self.location.shown if self.location is not None else "off"
        return f"<History of {len(self.runs)} runs in {where}>"

    def to_frame(self) -> Any:
        """One row per run, newest first (pandas DataFrame)."""
        import pandas as pd

        from .diff_export import run_summary

        rows = [run_summary(record) for record in self.runs]
        frame = pd.DataFrame(rows, columns=list(_FRAME_COLUMNS))
        if rows:
            frame["started"] = pd.to_datetime(frame["started"], utc=True, format="ISO8601")
        return frame.set_index("id")

    def prune(self, keep: int) -> int:
        """Remove all but each metric's newest ``keep`` runs; how many runs were removed.

        Within this history's ``metric`` and ``data``, over the whole log (not only
        the ``limit`` runs listed).  A metric source that no run names any more goes
        too, once it is an hour old (a run being written may still need it).
        """
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
            raise ValueError(t("history.bad_keep", value=repr(keep)))
        if self.location is None:
            return 0
        flush()
        return prune_log(open_store(self.location), keep, _Filter(self.metric, self.data))

    def _text(self) -> str:
        from .views_lookup import views

        return str(views().history_text(self))

    def _html(self) -> str:
        from .views_lookup import views

        return str(views().history_html(self))


_FRAME_COLUMNS = (
    "id", "started", "metric", "version", "kind", "origin", "data_fingerprint", "data_size",
    "passed", "pass_rate", "mean", "cost_usd", "elapsed_s", "git_commit",
)  # fmt: skip


def prune_log(store: Store, keep: int, wanted: _Filter) -> int:
    """Keep each metric's newest ``keep`` runs that ``wanted`` selects; remove the rest."""
    records = read_records(store, quiet=True)  # newest first
    seen: dict[str, int] = {}
    removed = 0
    for record in records:
        if not wanted(record.head):
            continue
        seen[record.metric] = seen.get(record.metric, 0) + 1
        if seen[record.metric] > keep:
            from .store import RunFile

            store.remove_run(RunFile(record.id + ".jsonl", 0, record.where))
            removed += 1
    if removed:
        named = {r.version for r in read_records(store, quiet=True)}
        for version, age in store.source_ages().items():
            if version not in named and age is not None and age > SOURCE_GRACE_S:
                store.remove_source(version)
    return removed


def history(
    metric: Any = None, *, data: Any = None, log: Any = None, limit: int | None = 50
) -> History:
    """The recorded runs, newest first: of ``metric`` (a name) and ``data`` (a fingerprint,
    or a record or report whose data to match) when given, at most ``limit`` (None: all).

    ``log`` is the run log to read (a folder or fsspec URL; default: the configured
    one, ``SKYNET_RUN_LOG``, else ``.skynet_runs`` here).  A record that cannot be
    read is skipped with a warning naming its file.
    """
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(t("history.bad_limit", value=repr(limit)))
    name, fingerprint = _metric_name(metric), _fingerprint(data)
    lang = current_lang()
    location = resolve_location(log)
    if location is None:
        return History([], location=None, metric=name, data=fingerprint, lang=lang)
    flush()
    records = read_records(open_store(location), keep=_Filter(name, fingerprint))
    shown = records if limit is None else records[:limit]
    return History(
        shown, location=location, metric=name, data=fingerprint, total=len(records), lang=lang
    )


def _record_of_report(report: Any) -> RunRecord:
    return in_memory(draft(report, None, None, None, surface=current_surface()))


def _run_of_report(report: Any, log: Any) -> RunRecord:
    """The run ``report`` was recorded as (in ``log``), else a record made from it now.

    A report returned by ``sj.evaluate`` or read back with ``RunRecord.report()`` is a
    run of the log: named by its id there, as ``skynet-check diff`` names it, the same
    on each call.  A report never recorded gets an id of its own (a record in memory).
    """
    made = _record_of_report(report)
    try:
        location = resolve_location(log)
        if location is None:
            return made
        flush()
        candidates = read_records(open_store(location), keep=_SameHead(made.head), quiet=True)
    except (OSError, ImportError):  # the log cannot be read now: the report as it is
        return made
    return next((record for record in candidates if _same_cases(record, made)), made)


@dataclass(frozen=True, slots=True)
class _SameHead:
    """A head that may be ``made``'s run: its metric, kind, size and time, read at once."""

    made: dict[str, Any]

    def __call__(self, head: dict[str, Any]) -> bool:
        made = self.made
        return (
            head["metric"]["name"] == made["metric"]["name"]
            and head["run_kind"] == made["run_kind"]
            and head["totals"]["cases"] == made["totals"]["cases"]
            # The run's own time, to the bit (a JSON float reads back the same): two runs
            # never take exactly as long, so this tells a run's report from another's.
            and float(head["elapsed_s"]) == float(made["elapsed_s"])
        )


_SAME_CASE = ("index", "score", "failed_step", "output", "feedback", "error")


def _same_cases(record: RunRecord, made: RunRecord) -> bool:
    """The record holds the same results as the record made from the report (row, score,
    verdict, output, feedback and error of every case; the identity of a case whose input
    was cut differs once read back, so it is not compared)."""
    try:
        recorded = record.cases
    except RecordProblem:
        return False
    return [[line.get(name) for name in _SAME_CASE] for line in recorded] == [
        [line.get(name) for name in _SAME_CASE] for line in made.cases
    ]


def resolve_run(
    ref: Any, *, log: Any = None, metric: str | None = None, data: str | None = None
) -> RunRecord:
    """The run ``ref`` names: a record, a report, a run id or its unique start, ``last~N``.

    ``last`` is the newest run of ``metric`` (and ``data`` when given); without a
    metric, of the newest run's metric.
    """
    if isinstance(ref, RunRecord):
        return ref
    if hasattr(ref, "cases") and hasattr(ref, "metric_name"):
        return _run_of_report(ref, log)
    if not isinstance(ref, str) or not ref.strip():
        raise TypeError(t("history.bad_ref", kind=type(ref).__name__))
    location = resolve_location(log)
    if location is None:
        raise UnknownRun(t("history.log_off"))
    flush()
    store = open_store(location)
    text = ref.strip()
    last = _LAST.match(text)
    if last is not None:
        return _nth_last(store, int(last.group(1) or 0), metric, data, text)
    return _by_id(store, text)


def _nth_last(
    store: Store, back: int, metric: str | None, data: str | None, text: str
) -> RunRecord:
    records = read_records(store)
    if metric is None and records and data is None:
        metric = records[0].metric
    chosen = [r for r in records if _Filter(metric, data)(r.head)]
    if back < len(chosen):
        return chosen[back]
    raise UnknownRun(t("history.no_such_last", ref=text, metric=metric or "?", count=len(chosen)))


def _by_id(store: Store, text: str) -> RunRecord:
    files = store.run_files()
    exact = [f for f in files if f.run_id == text]
    found = exact or [f for f in files if f.run_id.startswith(text) or f.run_id.endswith(text)]
    if len(found) != 1:
        newest = sorted((f.run_id for f in files), reverse=True)[:3]
        if not found:
            shown = ", ".join(newest) or t("history.none_yet")
            raise UnknownRun(t("history.unknown_run", ref=text, newest=shown))
        ids = ", ".join(sorted(f.run_id for f in found)[:5])
        raise UnknownRun(t("history.ambiguous_run", ref=text, ids=ids, count=len(found)))
    file = found[0]
    ((file, line),) = list(store.heads([file]))
    if isinstance(line, BaseException):
        raise UnknownRun(t("history.unreadable_run", ref=text, where=file.where))
    try:
        return record_of(store, file, head_of(file, line))
    except RecordProblem as problem:  # damaged, or of a newer schema: its sentence says
        raise UnknownRun(str(problem)) from None


def diff(
    a: Any,
    b: Any,
    *,
    allow_different_data: bool = False,
    metric: str | None = None,
    log: Any = None,
) -> RunDiff:
    """Run ``b`` against run ``a``, case by case: a :class:`RunDiff`, regressions first.

    ``a`` and ``b`` are run ids (or unique prefixes), :class:`RunRecord`\\ s, reports,
    or ``"last"`` / ``"last~1"``: the last run of ``metric`` (default: the metric of
    the other run given, else of the newest run in the log) and the one before it.
    Runs on different data are refused with a sentence unless
    ``allow_different_data=True``; then only the cases both have are compared.
    """
    lang = current_lang()
    first = None if isinstance(a, str) else resolve_run(a, log=log, metric=metric)
    second = None if isinstance(b, str) else resolve_run(b, log=log, metric=metric)
    given = first or second
    named = metric or (given.metric if given is not None else None)
    if first is None:
        first = resolve_run(a, log=log, metric=named)
    named = named or first.metric
    if second is None:
        second = resolve_run(b, log=log, metric=named)
    try:
        return compare_runs(first, second, allow_different_data=allow_different_data, lang=lang)
    except RecordProblem as problem:  # a case line damaged: its sentence names the file
        raise UnknownRun(str(problem)) from None
