"""The run log on disk: records written whole, read back the same, damaged ones skipped
with a warning naming the file, a newer schema refused with one sentence."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import skynet_jupyter as sj
from skynet_jupyter.runlog.location import LogLocation, is_off, resolve_location
from skynet_jupyter.runlog.reading import read_records
from skynet_jupyter.runlog.record import draft
from skynet_jupyter.runlog.recorder import record_run, write_draft
from skynet_jupyter.runlog.schema import (
    CASE_FIELDS,
    HEAD_FIELDS,
    MAX_TEXT,
    SCHEMA,
    DamagedRecord,
    NewerSchema,
)
from skynet_jupyter.runlog.store import RunLogWarning, open_store

from .support import SOURCE_A, SOURCE_B, Source, case, report


def write(log: Path, cases, source=SOURCE_A, name="default") -> str:
    made = draft(report(cases, name=name), Source(source, name), None, None, surface="python")
    return write_draft(made, LogLocation(path=log))


def runs(log: Path) -> list[Path]:
    return sorted((log / "runs").glob("*.jsonl"))


def test_a_record_holds_the_documented_fields_and_reads_back_the_same(tmp_path):
    cases = [case(0, "a"), case(1, "b", score=0.0, feedback="Wrong.", failed="metric_return_value")]
    run_id = write(tmp_path, cases)
    (path,) = runs(tmp_path)
    assert path.name == f"{run_id}.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert tuple(head) == HEAD_FIELDS and head["schema"] == SCHEMA
    assert [tuple(json.loads(line)) for line in lines[1:]] == [CASE_FIELDS, CASE_FIELDS]
    (record,) = sj.history(log=tmp_path)
    assert record.id == run_id and record.metric == "default" and record.origin == "python"
    assert record.passed is False and record.mean == 0.5 and record.pass_rate == 0.5
    assert record.data_size == 2 and record.kind == "eval"
    back = record.report()
    assert isinstance(back, sj.EvalReport)
    assert [(c.index, c.input, c.expected, c.output, c.score, c.feedback, c.failed_step)
            for c in back.cases] == [
        (c.index, c.input, c.expected, c.output, c.score, c.feedback, c.failed_step)
        for c in cases
    ]  # fmt: skip
    assert [s.id for s in back.steps] == [s.id for s in report(cases).steps]
    assert back.passed is False and back.mean_score == 0.5


def test_the_source_is_kept_once_per_version(tmp_path):
    for _ in range(3):
        write(tmp_path, [case(0, "a")])
    write(tmp_path, [case(0, "a")], SOURCE_B)
    sources = sorted(p.read_text() for p in (tmp_path / "sources").iterdir())
    assert sources == sorted([SOURCE_A, SOURCE_B])
    newest = sj.history(log=tmp_path)[0]
    assert newest.source == SOURCE_B


def test_long_outputs_and_feedback_are_cut_with_their_length_and_hash(tmp_path):
    long = "word " * (MAX_TEXT // 2)
    write(tmp_path, [case(0, "a", output=long, feedback=long + "!")])
    (line,) = sj.history(log=tmp_path)[0].cases
    assert len(line["output"]) == MAX_TEXT and line["cut"]["output"]["length"] == len(long)
    assert line["cut"]["feedback"]["length"] == len(long) + 1
    assert len(line["cut"]["output"]["sha256"]) == 64
    assert runs(tmp_path)[0].stat().st_size < 3 * MAX_TEXT * 2


def _damaged(log: Path) -> dict[str, bytes]:
    good = runs(log)[0].read_bytes()
    first_line = good.split(b"\n", 1)[0]
    return {
        "cut-short.jsonl": good[: len(good) // 2],
        "half-head.jsonl": first_line[: len(first_line) // 2],
        "not-json.jsonl": b"{not json\n",
        "other.jsonl": b'{"hello": "world"}\n',
        "empty.jsonl": b"",
        "grown.jsonl": good + b'{"id": "extra"}\n',
    }


def test_damaged_records_are_skipped_with_a_warning_naming_each_file(tmp_path):
    write(tmp_path, [case(0, "a")])
    for name, data in _damaged(tmp_path).items():
        (tmp_path / "runs" / name).write_bytes(data)
    with pytest.warns(RunLogWarning) as said:
        found = sj.history(log=tmp_path)
    assert len(found) == 1
    messages = [str(w.message) for w in said]
    for name in _damaged(tmp_path):
        assert any(name in message for message in messages), (name, messages)
    assert all(message.startswith("The run record") for message in messages)
    assert all(message.endswith("It is left out of the history.") for message in messages)


def test_a_newer_schema_is_refused_with_one_sentence(tmp_path):
    write(tmp_path, [case(0, "a")])
    (path,) = runs(tmp_path)
    lines = path.read_bytes().split(b"\n", 1)
    head = json.loads(lines[0])
    head["schema"] = SCHEMA + 1
    newer_line = json.dumps(head).encode() + b"\n"
    head["body_bytes"] = head["body_bytes"]
    newer = tmp_path / "runs" / "20990101-000000-feedface.jsonl"
    newer.write_bytes(newer_line + lines[1])
    with pytest.warns(RunLogWarning, match="newer skynet_jupyter") as said:
        assert len(sj.history(log=tmp_path)) == 1
    (sentence,) = [str(w.message) for w in said]
    assert "schema 2" in sentence and "pip install -U skynet-jupyter" in sentence
    assert sentence.count(". ") == 0 or sentence.endswith(".")
    store = open_store(LogLocation(path=tmp_path))
    ((file, line),) = [
        pair for pair in store.heads(store.run_files()) if pair[0].where == str(newer)
    ]
    from skynet_jupyter.runlog.reading import head_of

    with pytest.raises(NewerSchema, match="upgrade skynet_jupyter"):
        head_of(file, line)
    with pytest.raises(LookupError, match="newer"):
        sj.diff("20990101", "last", log=tmp_path)


def test_a_damaged_case_line_is_said_when_the_cases_are_read(tmp_path):
    write(tmp_path, [case(0, "a"), case(1, "b")])
    (path,) = runs(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-2] + b"!\n")  # the same size: the head is read, a case is not
    (record,) = read_records(open_store(LogLocation(path=tmp_path)))
    with pytest.raises(
        DamagedRecord, match=r"The run record .* cannot be read: a line of it is not JSON"
    ):
        record.cases  # noqa: B018
    with pytest.raises(DamagedRecord) as read_back:
        record.report()
    assert str(path) in str(read_back.value)


def test_the_writer_leaves_no_temporary_file(tmp_path):
    for number in range(5):
        write(tmp_path, [case(number, "a")])
    assert not [p for p in (tmp_path / "runs").iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("value", [False, 0, "0", "off", "false", "no", " OFF "])
def test_false_and_zero_turn_the_log_off(value):
    assert is_off(value)
    assert resolve_location(value) is None


def test_where_the_log_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SKYNET_RUN_LOG", raising=False)
    assert resolve_location(None) == LogLocation(path=tmp_path / ".skynet_runs")
    monkeypatch.setenv("SKYNET_RUN_LOG", "elsewhere")
    assert resolve_location(None) == LogLocation(path=tmp_path / "elsewhere")
    monkeypatch.setenv("SKYNET_RUN_LOG", "s3://bucket/runs/")
    assert resolve_location(None) == LogLocation(url="s3://bucket/runs")
    monkeypatch.setenv("SKYNET_RUN_LOG", "0")
    assert resolve_location(None) is None
    try:
        sj.configure(run_log=tmp_path / "configured")
        assert resolve_location(None) == LogLocation(path=tmp_path / "configured")
        sj.configure(run_log=True)
        assert resolve_location(None) == LogLocation(path=tmp_path / ".skynet_runs")
    finally:
        sj.configure(reset=True)
    assert resolve_location(None) is None  # the variable again
    shown = LogLocation(url="s3://me:hunter2secret@bucket/runs").shown
    assert "hunter2secret" not in shown


def test_recording_never_fails_a_check_a_log_that_cannot_be_written_warns_once(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with pytest.warns(RunLogWarning) as said:
        checked = _checked_with_log(blocked)
    assert checked.passed
    (warning,) = said
    assert "was not recorded" in str(warning.message) and str(blocked) in str(warning.message)


def _checked_with_log(log: Path):
    try:
        sj.configure(run_log=log)
        return sj.check(
            lambda input, output, expected=None: (1.0, {"feedback": "Fine."}),
            [{"q": "x", "a": "y"}],
            outputs="a",
            output_column="a",
        )
    finally:
        sj.configure(reset=True)


def test_a_big_run_is_written_in_the_background_and_flushed(tmp_path):
    from skynet_jupyter.runlog.recorder import SYNC_CASES, flush

    many = [case(i, f"t{i}") for i in range(SYNC_CASES + 5)]
    run_id = record_run(report(many), Source(SOURCE_A), None, None, log=tmp_path)
    flush()
    (record,) = sj.history(log=tmp_path)
    assert record.id == run_id and len(record.cases) == SYNC_CASES + 5


def test_history_filters_limits_and_prunes(tmp_path):
    for _ in range(4):
        write(tmp_path, [case(0, "a")], name="one")
    for _ in range(3):
        write(tmp_path, [case(0, "a"), case(1, "b")], name="two")
    assert len(sj.history(log=tmp_path)) == 7
    assert len(sj.history("one", log=tmp_path)) == 4
    assert len(sj.history(log=tmp_path, limit=2)) == 2
    two = sj.history("two", log=tmp_path)
    assert len(sj.history(data=two[0], log=tmp_path)) == 3
    assert len(sj.history(data=two[0].data_fingerprint[:6], log=tmp_path)) == 3
    frame = sj.history(log=tmp_path).to_frame()
    assert list(frame["metric"]).count("one") == 4 and frame.index.name == "id"
    assert sj.history("two", log=tmp_path).prune(keep=1) == 2
    assert sj.history(log=tmp_path).prune(keep=2) == 2
    left = sj.history(log=tmp_path)
    assert sorted(r.metric for r in left) == ["one", "one", "two"]
    with pytest.raises(ValueError, match="whole number"):
        left.prune(keep=-1)
    assert os.listdir(tmp_path / "sources")  # a source younger than an hour is kept


def _with_head(log: Path, change) -> Path:
    """A copy of the log's record with its head changed by ``change`` (sizes kept right)."""
    (path,) = runs(log)
    head_line, body = path.read_bytes().split(b"\n", 1)
    head = json.loads(head_line)
    forged = log / "runs" / "20990101-000000-0000f00d.jsonl"
    head["id"] = forged.stem  # its own name: only ``change`` makes it damaged
    change(head)
    forged.write_bytes(json.dumps(head).encode() + b"\n" + body)
    return forged


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("version", "../../../../etc/hostname"),
        ("version", "ABCDEF123456"),
        ("started", "yesterday"),
        ("ended", 5),
    ],
)
def test_a_forged_head_from_a_shared_log_is_damaged_not_followed(tmp_path, field, value):
    write(tmp_path, [case(0, "a")])

    def change(head):
        if field == "version":
            head["metric"]["version"] = value
        else:
            head[field] = value

    forged = _with_head(tmp_path, change)
    with pytest.warns(RunLogWarning, match=forged.name):
        assert len(sj.history(log=tmp_path)) == 1
    store = open_store(LogLocation(path=tmp_path))
    assert store.read_source("../../../../etc/hostname") is None


def test_a_line_nested_too_deep_is_damaged_not_a_crash(tmp_path):
    write(tmp_path, [case(0, "a")])
    (tmp_path / "runs" / "deep.jsonl").write_bytes(b"[" * 100_000 + b"\n")
    with pytest.warns(RunLogWarning, match="deep.jsonl"):
        assert len(sj.history(log=tmp_path)) == 1
