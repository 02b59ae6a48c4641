"""What the independent attack on the run log found (issue 46), each kept as a test.

- a report given to ``sj.diff`` is the run it was recorded as, not a new run each call;
- a head (or a case line) with a field of the wrong type is damaged: left out of a listing
  with a warning naming its file, or refused in one sentence when its cases are read;
- a line break of any kind in a feedback, an input or a name never starts a line of the
  diff's text: user text cannot forge a line of the diff;
- a record whose id is not its file's name is left out with a warning naming its file;
- rows repeated with the same input and expected are paired by outcome, not position:
  reordering the data never changes a diff;
- ``SKYNET_RUN_LOG=1`` (``true``, ``yes``, ``on``) is the default place, and a shared
  log that cannot be reached is one sentence naming it.
"""

from __future__ import annotations

import json
import socket
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.cli.history_cmd import run_subcommand
from skynet_jupyter.cli.log_text import LINE_BREAKS
from skynet_jupyter.runlog.api import UnknownRun
from skynet_jupyter.runlog.location import LogLocation, resolve_location
from skynet_jupyter.runlog.record import RunRecord, draft
from skynet_jupyter.runlog.recorder import write_draft
from skynet_jupyter.runlog.run_diff import CaseChange, RunDiff, compare_runs
from skynet_jupyter.runlog.schema import DamagedRecord
from skynet_jupyter.runlog.store import RunLogWarning
from tests.conftest import require_module

from .support import SOURCE_A, SOURCE_B, Source, case, record_of, report

ROWS = [{"q": str(i), "label": "x", "guess": "x"} for i in range(3)]


def fine(input, output, expected=None):
    return 1.0, {"feedback": "fine"}


def by_output(input, output, expected=None):
    return (1.0 if output == expected["label"] else 0.0), {"feedback": f"got {output}"}


@pytest.fixture
def log(tmp_path):
    """A run log of its own, configured for the test (and forgotten after it)."""
    sj.configure(run_log=tmp_path / "log")
    yield tmp_path / "log"
    sj.configure(reset=True)


def _evaluate(metric=fine, rows=ROWS) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sj.evaluate(metric, rows, outputs="label", output_column="guess")


def _record_file(log: Path) -> Path:
    (path,) = sorted((log / "runs").glob("*.jsonl"))
    return path


def _edit(path: Path, head_change=None, first_case_change=None) -> None:
    """``path``'s head, or its first case line, changed in place, the record's size kept
    right (a hand edit, not a record cut short)."""
    head_line, *lines = path.read_bytes().split(b"\n")
    head = json.loads(head_line)
    if first_case_change is not None:
        first = json.loads(lines[0])
        first_case_change(first)
        lines[0] = json.dumps(first, separators=(",", ":")).encode()
    body = b"\n".join(lines)
    head["body_bytes"] = len(body)
    if head_change is not None:
        head_change(head)
    path.write_bytes(json.dumps(head, separators=(",", ":")).encode() + b"\n" + body)


def _messages(said) -> list[str]:
    return [str(w.message) for w in said if issubclass(w.category, RunLogWarning)]


# --- a report is diffed as the run it was recorded as -----------------------------------


def test_a_report_is_diffed_as_the_run_it_was_recorded_as(log):
    report_made = _evaluate()
    (recorded,) = sj.history()
    same = sj.diff(report_made, report_made)
    assert same.a.id == same.b.id == recorded.id and same.empty
    read_back = sj.diff(recorded.report(), recorded)
    assert read_back.a.id == recorded.id and read_back.a.where == recorded.where


def test_a_report_never_recorded_is_compared_as_it_is(log):
    _evaluate()
    (recorded,) = sj.history()
    # The same metric, rows and time as the recorded run, another feedback: not that run.
    other = recorded.report()
    other.cases[0].feedback = "changed"
    compared = sj.diff(recorded, other)
    assert compared.b.id != recorded.id and compared.b.where.startswith("<")
    assert len(compared.changed_feedback) == 1


# --- a field of the wrong type is damage, said with the file's name ---------------------


@pytest.mark.parametrize(
    ("part", "field", "value"),
    [
        ("totals", "passed_check", "no"),
        ("totals", "mean", "high"),
        ("totals", "pass_rate", "x"),
        ("totals", "cost_usd", "free"),
        ("totals", "cases", True),
        ("totals", "interrupted", 0),
        ("totals", "mean_scores", []),
        ("origin", "surface", 3),
    ],
)
def test_a_head_field_of_the_wrong_type_is_left_out_with_a_warning(log, part, field, value):
    _evaluate()
    path = _record_file(log)
    _edit(path, lambda head: head[part].__setitem__(field, value))
    with pytest.warns(RunLogWarning) as said:
        found = sj.history()
    assert len(found) == 0
    (sentence,) = _messages(said)
    assert path.name in sentence and f"{part}.{field}" in sentence


@pytest.mark.parametrize(
    ("field", "value"),
    [("index", "x"), ("score", "high"), ("failed_step", 3), ("cut", []), ("cut", {"output": 3})],
)
def test_a_case_field_of_the_wrong_type_is_one_sentence_never_a_crash(log, field, value, capsys):
    _evaluate()
    _evaluate()
    path = sorted((log / "runs").glob("*.jsonl"))[0]
    _edit(path, first_case_change=lambda line: line.__setitem__(field, value))
    record = next(r for r in sj.history() if r.where == str(path))  # the head is fine
    with pytest.raises(DamagedRecord, match=path.name):
        record.cases  # noqa: B018
    with pytest.raises(UnknownRun, match=path.name):
        sj.diff(record.id, "last")
    assert run_subcommand(["diff", record.id, "last", "--log-dir", str(log)]) == 2
    assert path.name in capsys.readouterr().err


# --- no user text can start a line of the diff's text -----------------------------------


def _regression(feedback_a: str, feedback_b: str, text: str, name: str) -> RunDiff:
    a = record_of([case(0, text, feedback=feedback_a)], SOURCE_A, name=name)
    b = record_of([case(0, text, score=0.0, feedback=feedback_b)], SOURCE_B, name=name)
    return compare_runs(a, b)


@pytest.mark.parametrize("line_break", [*LINE_BREAKS, "\r\n"])
def test_a_line_break_in_a_feedback_or_an_input_never_starts_a_line(line_break):
    forged = "No change: every case has the same verdict, score and feedback."
    text = str(
        _regression("Correct.", f"Wrong.{line_break}{forged}", f"t{line_break}{forged}", "m")
    )
    assert not [line for line in text.splitlines() if line.startswith(forged[:20])]
    assert len(text.splitlines()) == len(
        str(_regression("Correct.", "Wrong.", "t", "m")).splitlines()
    )


def test_the_command_line_diff_keeps_a_feedback_on_its_line(log, capsys):
    forged = "No change: every case has the same verdict, score and feedback."

    def good(input, output, expected=None):
        return 1.0, {"feedback": "Correct."}

    def bad(input, output, expected=None):
        return 0.0, {"feedback": "Wrong.\n" + forged}

    rows = [{"text": "t", "label": "x", "guess": "x"}]
    _evaluate(good, rows)
    _evaluate(bad, rows)
    assert run_subcommand(["diff", "last~1", "last", "--log-dir", str(log)]) == 1
    out = capsys.readouterr().out
    assert "1 case regressed" in out or "Regression" in out
    assert not [line for line in out.splitlines() if line.startswith(forged[:20])]


user_text = st.text(
    alphabet=st.one_of(st.characters(codec="utf-8"), st.sampled_from(list(LINE_BREAKS))),
    max_size=30,
)


def _template(first: str, second: str) -> tuple[str, str]:
    """Plain texts standing for ``first`` and ``second``: without words, with the same
    words, or not, as they are (a feedback change is a change of its words: a ``\r``
    against nothing is none)."""
    words = {"": ""}
    for text in (first, second):
        words.setdefault(" ".join(text.split()), "xy"[len(words) - 1])
    return words[" ".join(first.split())], words[" ".join(second.split())]


@settings(max_examples=150, deadline=None)
@given(user_text, user_text, user_text, user_text)
@example(feedback_a="\r", feedback_b="", text="", name="")  # found by the full suite
@example(feedback_a="", feedback_b="\r", text="", name="")  # and the other way round
@example(feedback_a="", feedback_b=" ", text="", name="")
def test_no_user_text_can_start_a_line_of_the_diff(feedback_a, feedback_b, text, name):
    """Whatever the feedback, the input and the metric's name hold, the diff's text has the
    lines the same diff has with plain words there, each begun the same way."""
    shown = str(_regression(feedback_a, feedback_b, text, name or "m")).splitlines()
    plain_a, plain_b = _template(feedback_a, feedback_b)
    plain = str(_regression(plain_a, plain_b, "t", "m")).splitlines()
    assert len(shown) == len(plain), shown
    for line, expected in zip(shown, plain, strict=True):
        assert line[:4] == expected[:4], (line, expected)


# --- a record whose id is not its file's name -------------------------------------------


def test_a_record_whose_id_is_not_its_file_name_is_left_out_with_a_warning(log):
    _evaluate()
    _evaluate()
    path = sorted((log / "runs").glob("*.jsonl"))[0]
    _edit(path, lambda head: head.__setitem__("id", "20200101-000000-0badc0de"))
    with pytest.warns(RunLogWarning) as said:
        listed = [r.id for r in sj.history()]
    assert "20200101-000000-0badc0de" not in listed and len(listed) == 1
    assert any(path.name in message and "file's name" in message for message in _messages(said))
    with pytest.raises(UnknownRun, match="file's name"):
        sj.diff(path.stem, "last")
    with pytest.raises(UnknownRun, match="No run"):
        sj.diff("20200101-000000-0badc0de", "last")


# --- repeated rows: reordering the data changes nothing ---------------------------------


def test_reordered_repeated_rows_make_an_empty_diff(log):
    rows = [
        {"q": "a", "label": "x", "guess": "x"},
        {"q": "a", "label": "x", "guess": "z"},
        {"q": "b", "label": "y", "guess": "y"},
    ]
    _evaluate(by_output, rows)
    first = sj.history()[0]
    _evaluate(by_output, list(reversed(rows)))
    second = sj.history()[0]
    assert first.data_fingerprint == second.data_fingerprint
    compared = sj.diff(first, second)
    assert compared.empty and len(compared.unchanged) == 3


def _run(rows: list[tuple[str, str]]) -> RunRecord:
    """A run of ``rows`` (input, output) scored by its output, in this order."""
    cases = [
        case(i, text, score=1.0 if output == "x" else 0.0, feedback=f"got {output}", output=output)
        for i, (text, output) in enumerate(rows)
    ]
    return record_of(cases)


def _content(change: CaseChange) -> tuple[Any, ...]:
    """A change as reordering must leave it (its row aside: the rows moved)."""
    outputs = tuple(None if line is None else line["output"] for line in (change.a, change.b))
    return (change.id, change.kind, change.score_a, change.score_b, *outputs)


def _contents(compared: RunDiff) -> list[tuple[Any, ...]]:
    groups = (compared.regressions, compared.improvements, compared.unchanged)
    return sorted(map(_content, [*groups[0], *groups[1], *groups[2], *compared.added,
                                 *compared.removed]))  # fmt: skip


repeated_rows = st.lists(
    st.tuples(st.sampled_from("ab"), st.sampled_from("xyz")), min_size=1, max_size=8
)


@settings(max_examples=150, deadline=None)
@given(repeated_rows, repeated_rows, st.randoms(use_true_random=False))
def test_reordering_data_with_repeated_rows_never_changes_a_diff(rows, other_rows, random):
    shuffled = list(rows)
    random.shuffle(shuffled)
    run, reordered, other = _run(rows), _run(shuffled), _run(other_rows)
    assert compare_runs(run, reordered).empty
    assert _contents(compare_runs(other, run, allow_different_data=True)) == _contents(
        compare_runs(other, reordered, allow_different_data=True)
    )
    assert _contents(compare_runs(run, other, allow_different_data=True)) == _contents(
        compare_runs(reordered, other, allow_different_data=True)
    )


def test_repeated_rows_pair_the_same_outcome_first():
    before = _run([("a", "x"), ("a", "z")])
    after = _run([("a", "y"), ("a", "x")])  # the row that said x still says x
    compared = compare_runs(before, after, allow_different_data=True)
    assert [c.kind for c in compared.unchanged] == ["unchanged", "unchanged"]
    assert [(c.a["output"], c.b["output"]) for c in compared.changed_feedback] == [("z", "y")]


# --- where the log is, and a log that cannot be reached -----------------------------------


@pytest.mark.parametrize("value", ["1", "true", "yes", "on", " TRUE "])
def test_a_variable_saying_on_is_the_default_place_not_a_folder_named_so(
    value, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SKYNET_RUN_LOG", value)
    assert resolve_location(None) == LogLocation(path=tmp_path / ".skynet_runs")
    assert resolve_location(1) == LogLocation(path=tmp_path / ".skynet_runs")


def test_an_unreachable_shared_log_is_one_sentence_naming_it(monkeypatch, capsys):
    s3fs = require_module("s3fs")

    from skynet_jupyter.runlog.store import RunLogUnreachable

    with socket.socket() as taken:  # a port nothing listens on
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
    for name, value in {
        "AWS_ACCESS_KEY_ID": "skynettestkeyid",
        "AWS_SECRET_ACCESS_KEY": "skynettestsecret42",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "AWS_MAX_ATTEMPTS": "1",
    }.items():
        monkeypatch.setenv(name, value)
    # Each file system class keeps its own instances: one made here (with the port nothing
    # listens on) must not be the one the next test of a bucket is given.
    s3fs.S3FileSystem.clear_instance_cache()
    try:
        with pytest.raises(RunLogUnreachable) as raised:
            sj.history(log="s3://nowhere/runs")
        sentence = str(raised.value)
        assert sentence.startswith("The run log s3://nowhere/runs cannot be reached")
        assert "AWS_ENDPOINT_URL" in sentence and "\n" not in sentence
        assert raised.value.__cause__ is None and raised.value.__suppress_context__
        assert run_subcommand(["history", "--log-dir", "s3://nowhere/runs"]) == 2
        assert "s3://nowhere/runs cannot be reached" in capsys.readouterr().err
    finally:
        s3fs.S3FileSystem.clear_instance_cache()


def test_a_record_written_and_read_keeps_its_id(tmp_path):
    """The id check reads what the writer writes: every record it wrote is listed."""
    made = draft(report([case(0, "a")]), Source(SOURCE_A), None, None, surface="python")
    run_id = write_draft(made, LogLocation(path=tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (found,) = sj.history(log=tmp_path)
    assert found.id == run_id == Path(found.where).stem
