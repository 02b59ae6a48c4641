"""Reading records from a store: the heads for a listing, a whole record on demand.

A listing reads only each record's first line (its head) and checks the file's
size against what the head says; a record that is damaged (bad JSON, cut short)
or of a newer schema is left out with one warning naming its file.  Its cases are
read when they are asked for (``RunRecord.cases``), and a damaged case line then
raises :class:`~.schema.DamagedRecord`, naming the file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..i18n import t
from .record import RunRecord
from .schema import DamagedRecord, NewerSchema, RecordProblem, case_problem, checked_head
from .store import RunFile, Store, warn

__all__ = ["head_of", "read_records", "record_of"]


def head_of(file: RunFile, line: bytes) -> dict[str, Any]:
    """The checked head of ``file`` from its first line (raises a :class:`RecordProblem`)."""
    if not line.endswith(b"\n"):
        raise DamagedRecord("history.damaged", path=file.where, why=t("history.why_cut_short"))
    try:
        head = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested past what Python reads
        raise DamagedRecord("history.damaged", path=file.where, why=t("history.why_json")) from None
    checked = checked_head(head, file.where)
    if len(line) + checked["body_bytes"] != file.size:
        raise DamagedRecord("history.damaged", path=file.where, why=t("history.why_size"))
    # A run is named by its file (sj.diff, skynet-check diff): a head naming another run (a
    # hand edit, a copy under another name) would be listed under an id nothing finds.
    if checked["id"] != file.run_id:
        raise DamagedRecord("history.damaged", path=file.where, why=t("history.why_id_not_name"))
    return checked


def record_of(store: Store, file: RunFile, head: dict[str, Any]) -> RunRecord:
    """The record of ``file`` (its head read; its cases read when asked for)."""
    return RunRecord(
        head,
        _case_reader(store, file),
        load_source=store.read_source,
        location=store.location,
        where=file.where,
    )


def _case_reader(store: Store, file: RunFile) -> Callable[[], list[dict[str, Any]]]:
    def read() -> list[dict[str, Any]]:
        try:
            data = store.read_run(file)
        except FileNotFoundError:
            raise DamagedRecord(
                "history.damaged", path=file.where, why=t("history.why_gone")
            ) from None
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        head_line = lines[0] + b"\n" if lines else b""
        head = head_of(RunFile(file.name, len(data), file.where), head_line)
        cases = _case_lines(lines[1:], file.where)
        if len(cases) != head["totals"].get("cases", len(cases)):
            raise DamagedRecord("history.damaged", path=file.where, why=t("history.why_size"))
        return cases

    return read


def _case_lines(lines: list[bytes], where: str) -> list[dict[str, Any]]:
    """The case lines, parsed as one JSON array (one call: a 10,000-case run in a blink);
    a line that is not a case object makes the record damaged, naming its file."""
    try:
        cases = json.loads(b"[" + b",".join(lines) + b"]")
    except (ValueError, RecursionError):
        cases = None
    # Joined lines can parse even when one line alone is not an object ("1,2"): each is
    # checked to be a case.
    if not isinstance(cases, list) or len(cases) != len(lines):
        raise DamagedRecord("history.damaged", path=where, why=t("history.why_json"))
    for case in cases:
        field = case_problem(case)
        if field is not None:
            raise DamagedRecord(
                "history.damaged", path=where, why=t("history.why_field", field=field)
            )
    return cases


def read_records(
    store: Store,
    *,
    keep: Callable[[dict[str, Any]], bool] | None = None,
    quiet: bool = False,
) -> list[RunRecord]:
    """Every readable record of ``store`` whose head ``keep`` accepts, newest first.

    A record that cannot be read is skipped, with one warning naming its file
    (none when ``quiet``: a prune reads the log the listing already warned about).
    """
    records = []
    for file, line in store.heads(store.run_files()):
        try:
            if isinstance(line, BaseException):
                raise DamagedRecord(
                    "history.damaged", path=file.where, why=t("history.why_unreadable")
                )
            head = head_of(file, line)
        except (DamagedRecord, NewerSchema) as problem:
            if not quiet:
                warn(_skipped(problem))
            continue
        if keep is None or keep(head):
            records.append(record_of(store, file, head))
    records.sort(key=lambda record: (record.head["started"], record.id), reverse=True)
    return records


def _skipped(problem: RecordProblem) -> str:
    return t("history.skipped", reason=str(problem))
