"""What CI reads of ``skynet-check`` when the user's text is hostile (issue #35, items 13-16).

A feedback, a data cell or an exception message may hold a lone surrogate, a terminal
escape, a forged GitHub workflow command or any Unicode line break.  Every output (text,
``--json``, ``--junit-xml``, ``--format github``) must still be written, show such text
escaped, run no command of the user's, and exit with the verdict's code.

The tests run ``main()`` here (its child is a real process), or the child's own functions
in this process where that is the same code; the property test at the end is in-process.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skynet_jupyter.cli import child, exits, job, parse, supervise
from skynet_jupyter.cli import github_annotations as gh
from skynet_jupyter.cli import junit_xml as junit
from skynet_jupyter.core.report import FAILED
from tests.cli.in_process_support import (
    assert_schema_valid,
    assert_valid_junit,
    cli,
    report_of,
)

# Every line break a log reader could split at (str.splitlines's, CRLF as one).
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_BREAK = re.compile("\r\n|[" + LINE_BREAKS + "]")
# A line a GitHub runner reads as a command once it has trimmed it.
_COMMAND = re.compile(r"\s*(::|##\[)")
_OURS = re.compile(r"::(error|warning)( [^:]*)?::.*|::stop-commands::[0-9a-f]{32}")

COLUMNS = ("--outputs", "label", "--output-column", "prediction")

# The feedback and the error each come from the case, so one metric serves every attack.
ECHO = """\
def score(input, output, expected=None):
    if input.get("error"):
        raise ValueError(input["error"])
    return float(output == expected["label"]), {"feedback": input["feedback"]}
"""


def write_cases(folder: Path, *cases: dict[str, object]) -> str:
    """``cases.jsonl`` (ASCII JSON: a lone surrogate is written ``\\ud83d``)."""
    rows = [
        {"feedback": "ok", "error": None, "label": "a", "prediction": "a", **case} for case in cases
    ]
    (folder / "cases.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return "cases.jsonl"


def command_lines(text: str) -> list[str]:
    """The lines of ``text`` a GitHub runner would run, split at every line break."""
    return [line for line in _BREAK.split(text) if _COMMAND.match(line)]


def assert_runs_only_ours(out: str) -> None:
    """Only our annotations (first, at column 0) and our stop-commands markers are commands;
    every user line of the report is inert, and the report is inside stop-commands."""
    lines = _BREAK.split(out)
    commands = command_lines(out)
    stop = next((line for line in lines if line.startswith("::stop-commands::")), None)
    if stop is None:
        assert all(_OURS.fullmatch(line) and not line.startswith("::stop") for line in commands)
        return
    token = stop.removeprefix("::stop-commands::")
    assert out.count(token) == 2, "the token appears only in its two markers"
    start = lines.index(stop)
    assert lines[:start] == commands[:start], "annotations first, one a line"
    assert all(_OURS.fullmatch(line) for line in lines[:start])
    assert commands[start:] == [stop, f"::{token}::"], "no command inside the report"
    assert start < lines.index(f"::{token}::")


def assert_printable(*texts: str) -> None:
    for text in texts:
        text.encode("utf-8")  # strict: a lone surrogate raises here, as it did at print
        assert "\x1b" not in text and "\x9b" not in text


# --- 13: a lone surrogate ----------------------------------------------------------------


@pytest.mark.parametrize("mode", [[], ["--json"], ["--format", "github"]])
def test_a_lone_surrogate_in_a_passing_case_is_shown_escaped_in_every_output(project, capfd, mode):
    (project / "echo.py").write_text(ECHO)
    data = write_cases(project, {"text": "I love it \ud83d"}, {"text": "b"}, {"text": "c"})
    assert cli("echo.py", "--data", data, *COLUMNS, *mode, "--junit-xml", "r.xml") == 0
    out, err = capfd.readouterr()
    assert_printable(out, err)
    if mode == ["--json"]:
        assert json.loads(out)["cases"][0]["input"]["text"] == "I love it \ud83d"
        assert '"I love it \\ud83d"' in out  # a JSON escape: the same value, as UTF-8
    else:
        assert '"I love it \\ud83d"' in out
    root = assert_valid_junit((project / "r.xml").read_text())
    assert "I love it #xD83D" in root.find("testsuite/testcase[@classname='echo.cases']").get(
        "name"
    )


def test_a_lone_surrogate_in_a_feedback_or_an_exception_keeps_the_verdicts_exit_code(
    project, capfd
):
    (project / "echo.py").write_text(ECHO)
    data = write_cases(
        project,
        {"feedback": "Wrong \udcff.", "prediction": "b"},
        {"error": "broke \ud83d here"},
        {"text": "c"},
    )
    for mode in ([], ["--json"], ["--format", "github"]):
        assert cli("echo.py", "--data", data, *COLUMNS, *mode, "--junit-xml", "r.xml") == 1
        out, err = capfd.readouterr()
        assert_printable(out, err)
        assert ("Wrong \\udcff." in out) and ("broke \\ud83d here" in out)
        assert_valid_junit((project / "r.xml").read_text())


def test_a_lone_surrogate_in_a_usage_error_is_said_escaped(project, capfd):
    (project / "echo.py").write_text(ECHO)
    (project / "run_bad.py").write_text('raise ValueError("bad \\ud83d")\n')
    data = write_cases(project, {"text": "a"})
    args = ("echo.py", "--data", data, "--outputs", "label", "--run", "run_bad.py:run")
    assert cli(*args, "--artifact-text", "x", "--json") == 2
    out, err = capfd.readouterr()
    assert_printable(out, err)
    assert "bad \\ud83d" in err and "bad \ud83d." in json.loads(out)["message"]


# --- 14: forged workflow commands and terminal escapes -----------------------------------

FORGED = (
    "Wrong.\n::error file=metric.py,line=1,title=Forged::lf\r::error::cr\r\n##[error]crlf"
    "\x0b::error::vt\x0c::error::ff\x1c::error::fs\x1d::error::gs\x1e::error::rs"
    "\x85::error::nel\u2028::error::ls\u2029 \t::error::ps \x1b[31mred\x1b[0m \x9b2J \u202eevil"
)


@pytest.mark.parametrize("mode", [["--format", "github"], []])
def test_a_feedback_forging_workflow_commands_runs_none_and_shows_escapes(project, capfd, mode):
    (project / "echo.py").write_text(ECHO)
    data = write_cases(project, {"feedback": FORGED, "prediction": "b"}, {"text": "b"})
    assert cli("echo.py", "--data", data, *COLUMNS, *mode) == 0
    out, err = capfd.readouterr()
    assert_printable(out, err)
    assert_runs_only_ours(out)
    assert "\\x3a:error file=metric.py,line=1,title=Forged::lf" in out  # shown, not run
    assert "\\x23#[error]crlf" in out and "\\x1b[31mred\\x1b[0m \\x9b2J \\u202eevil" in out
    assert ("::stop-commands::" in out) == bool(mode)


def test_the_stop_commands_token_is_new_each_time_and_never_in_the_text(monkeypatch):
    from skynet_jupyter.cli import log_text

    tokens = iter(["ab" * 16, "cd" * 16])
    monkeypatch.setattr(log_text.secrets, "token_hex", lambda n: next(tokens))
    text = log_text.commands_stopped(f"feedback ::{'ab' * 16}::\n")
    assert text == f"::stop-commands::{'cd' * 16}\nfeedback ::{'ab' * 16}::\n::{'cd' * 16}::"
    monkeypatch.undo()
    first, second = (log_text.commands_stopped("x").split("\n")[0] for _ in range(2))
    assert first != second and re.fullmatch("::stop-commands::[0-9a-f]{32}", first)


def test_an_annotation_breaks_its_message_only_as_percent_escapes():
    said = gh.workflow_command(
        "error", "a\x0bb\x0cc\x1cd\x85e\u2028f\u2029g\rh\ni \ud83d \u202e", title="t\u2028::x"
    )
    assert said == ("::error title=t%0A%3A%3Ax::a%0Ab%0Ac%0Ad%0Ae%0Af%0Ag%0Dh%0Ai #xD83D #x202E")
    assert command_lines(said) == [said]


def test_a_usage_error_on_stderr_runs_no_command(capsys):
    assert exits.no_pass("usage", "bad\n::error::forged\u2028\x1b[2J", 2, as_json=True) == 2
    out, err = capsys.readouterr()
    assert err == "skynet-check: bad\n\\x3a:error::forged\\u2028\\x1b[2J\n"
    assert json.loads(out)["message"] == "bad\n::error::forged\u2028\x1b[2J"
    assert "\u2028" not in out and "\\u2028" in out  # a JSON escape: a reader splits nothing


def test_several_metric_names_are_each_one_line(project, capfd):
    name = "m\n::error::x.py"
    (project / name).write_text(ECHO)
    data = write_cases(project, {"text": "a"})
    cli(name, "good.py", "--data", data, *COLUMNS)
    out, err = capfd.readouterr()
    assert "==> m\\n::error::x.py <==\n" in out
    assert not command_lines(out + err)


# --- 15: file= as GitHub reads it, from the repository's root ----------------------------


def test_file_is_relative_to_the_github_workspace(tmp_path, monkeypatch):
    workspace = tmp_path / "ws"
    (workspace / "proj").mkdir(parents=True)
    monkeypatch.setenv("GITHUB_WORKSPACE", str(workspace))
    monkeypatch.chdir(workspace / "proj")
    assert gh._shown("metric.py") == "proj/metric.py"
    assert gh._shown(str(workspace / "proj" / "metric.py")) == "proj/metric.py"
    assert gh._shown("../other/./m.py") == "other/m.py"
    assert gh._shown(str(tmp_path / "outside.py")) == str(tmp_path / "outside.py")
    assert gh.usage_annotation("metric.py", "Bad.", 2) == (
        "::error file=proj/metric.py,line=2,title=skynet-check::Bad."
    )
    monkeypatch.setenv("GITHUB_WORKSPACE", f"{workspace}/")  # as a user may set it
    assert gh._shown("metric.py") == "proj/metric.py"


def test_file_is_relative_to_a_symlinked_workspace(tmp_path, monkeypatch):
    (tmp_path / "real" / "proj").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path / "link"))
    monkeypatch.chdir(tmp_path / "real" / "proj")
    assert gh._shown("metric.py") == "proj/metric.py"


def test_without_a_workspace_file_is_relative_to_the_git_root(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "proj").mkdir()
    monkeypatch.chdir(tmp_path / "repo" / "proj")
    assert gh._shown("metric.py") == "proj/metric.py"


def test_the_annotations_of_a_report_point_from_the_workspace(project, monkeypatch):
    (project / "proj").mkdir()
    (project / "proj" / "failing.py").write_text((project / "failing.py").read_text())
    (project / "cases.csv").rename(project / "proj" / "cases.csv")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(project))
    monkeypatch.chdir(project / "proj")
    commands = gh.report_annotations(report_of("failing.py"), "failing.py")
    assert commands[0].startswith("::error file=proj/failing.py,line=4,")


# --- 16: JUnit XML valid against junit-10.xsd --------------------------------------------


def test_the_document_with_a_skipped_step_is_valid_against_junit_10(project):
    report = report_of("good.py")  # no run function: that step is skipped
    text = junit.junit_document([junit.report_suite(report, "good.py")])
    assert_schema_valid(text)
    assert assert_valid_junit(text).find("testsuite").get("skipped") == "1"


def test_the_schema_check_refuses_what_junit_10_does_not_allow():
    good = (
        '<testsuites name="x"><testsuite name="a" tests="0" failures="0" errors="0"/></testsuites>'
    )
    assert_schema_valid(good)
    for bad in (
        good.replace('name="x"', 'name="x" skipped="0"'),
        good.replace(' errors="0"', ""),
        good.replace("/>", "><bogus/></testsuite>"),
    ):
        with pytest.raises(Exception):  # noqa: B017 - xmlschema's error, or our assertion
            assert_schema_valid(bad)


# --- the mutant: one annotation per case, not per distinct message -----------------------


def test_three_cases_failing_alike_make_one_annotation(project, capfd):
    (project / "alike.py").write_text(
        "def score(input, output, expected=None):\n    raise KeyError('missing')\n"
    )
    assert cli("alike.py", "--data", "cases.csv", *COLUMNS, "--format", "github") == 1
    out, _ = capfd.readouterr()
    errors = [line for line in out.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "Cases 0–2 (3)" in errors[0]


def test_the_same_message_twice_is_one_annotation(project):
    report = report_of("failing.py")
    failed = next(step for step in report.steps if step.status == FAILED)
    doubled = dataclasses.replace(report, steps=[*report.steps, failed])
    assert gh.report_annotations(doubled, "failing.py") == gh.report_annotations(
        report, "failing.py"
    )


# --- the property: every mode, whatever the text ------------------------------------------

NASTY = [
    "\ud83d", "\udcff", "\x00", "\x07", "\x7f", "\x9b", "\x1b[31m", "\x1b]0;t\x07", "\x1bc",
    "::", "::error::x", "::stop-commands::t", "::t::", "##[error]", "%", "%0A", "%25",
    "]]>", "<", "&", "\u202e", "\ufeff", " ", "\t", *LINE_BREAKS, "\r\n",
]  # fmt: skip
TEXT = st.lists(
    st.one_of(
        st.sampled_from(NASTY),
        st.text(max_size=4),
        st.characters(categories=["Cc", "Cs", "Zl", "Zp", "Zs", "Cf"]),
    ),
    max_size=8,
).map("".join)
MODES = {
    "text": {"as_json": False, "output_format": "text"},
    "json": {"as_json": True, "output_format": "text"},
    "github": {"as_json": False, "output_format": "github"},
}
EXAMPLES = 100


@pytest.fixture
def echo_job(project):
    (project / "echo.py").write_text(ECHO)
    write_cases(project, {})
    parsed = parse.parse(["echo.py", "--data", "cases.jsonl", *COLUMNS, "--junit-xml", "r.xml"])
    return job.job_from(parsed, "en")


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(cells=st.lists(st.tuples(TEXT, TEXT, TEXT, st.booleans()), min_size=1, max_size=3))
def test_every_output_of_any_text_is_printable_inert_and_valid(project, echo_job, capsys, cells):
    cases = [
        {"text": text, "feedback": feedback, "error": error if fails else None}
        for text, feedback, error, fails in cells
    ]
    write_cases(project, *cases)
    for name, mode in MODES.items():
        done = child._checked(dataclasses.replace(echo_job, **mode), lambda message: None)
        message = json.loads(json.dumps(done, ensure_ascii=True))  # as the child sends it
        code = supervise._verdict(message, mode["as_json"], "en")  # as the parent prints it
        out, err = capsys.readouterr()
        assert code == (0 if message["passed"] else 1), name
        assert_printable(out, err)
        assert_runs_only_ours(out + err)
        if name == "json":
            assert json.loads(out)["passed"] is message["passed"]
    assert_valid_junit(junit.junit_document([message["junit"]]))
    # And when the text is a usage error's sentence, in each mode.
    for as_json in (False, True):
        assert exits.usage(cases[0]["feedback"], as_json) == 2
        out, err = capsys.readouterr()
        assert_printable(out, err)
        assert not command_lines(out + err)
        if as_json:
            # as any JSON reader would (a high and a low surrogate read as one character)
            assert json.loads(out)["message"] == json.loads(json.dumps(cases[0]["feedback"]))
    said = gh.usage_annotation("m.py", cases[0]["error"] or "", None)
    assert command_lines(said) == [said] and _OURS.fullmatch(said)


# --- a metric without a report (issue 43, C1), whatever the sentence and the file name ----


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    metric=TEXT.filter(lambda text: text.strip() not in ("", ".", "..")),
    message=st.one_of(TEXT, st.just(""), st.just("x\x1b[31m\u2028" * 30_000)),
    no_verdict=st.booleans(),
    lang=st.sampled_from(["en", "fr", "pt"]),
)
def test_a_metric_without_a_report_is_valid_junit_and_one_inert_annotation(
    metric, message, no_verdict, lang
):
    suite = junit.no_report_suite(metric, message, lang, no_verdict=no_verdict)
    root = assert_valid_junit(junit.junit_document([suite]))
    (case,) = root.find("testsuite")
    failure = case.find("failure")
    assert failure.get("type") == ("no_verdict" if no_verdict else "metric_loads")
    assert case.get("name").startswith(failure.get("type") + ": ")
    shown = failure.get("message")
    assert_printable(shown)
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]", shown)
    said = gh.usage_annotation(metric, message, None)
    assert command_lines(said) == [said] and _OURS.fullmatch(said)
    assert_printable(said)


def test_a_metric_path_not_utf8_is_annotated_not_a_traceback(project, capfd):
    # A command line's bytes that are not UTF-8 reach Python as lone surrogates.
    code = cli(
        "m\udcff.py", "--data", "cases.csv", *COLUMNS, "--format", "github", "--junit-xml", "r.xml"
    )
    assert code == 2
    out, err = capfd.readouterr()
    assert_printable(out, err)
    assert out.startswith("::error file=m#xDCFF.py,")
    assert_valid_junit((project / "r.xml").read_text())


def test_an_annotation_of_a_path_no_file_system_can_hold_is_made_not_a_traceback():
    # A lone high surrogate is not even a surrogateescape'd byte: resolving it raised.
    said = gh.usage_annotation("m\ud83d.py", "No metric file.", None)
    assert said.startswith("::error file=") and "m#xD83D.py" in said
    assert command_lines(said) == [said]
