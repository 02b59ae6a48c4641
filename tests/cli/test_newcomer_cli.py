"""Issue 36, "what a newcomer reads": skynet-check's output as someone new to it reads it.

- The report names the file it checked, never "metric 'default'" (item 7).
- ``skynet-check ... | head`` ends quietly: no BrokenPipeError traceback (item 8).
- README's "In CI" section says what the CI outputs do, and the code does it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from skynet_jupyter.cli import child, job, parse
from skynet_jupyter.cli.exits import EXIT_GONE_READER
from skynet_jupyter.cli.github_annotations import usage_annotation
from skynet_jupyter.cli.log_text import log_text
from tests.cli.in_process_support import COLUMN, FAILING, GOOD, cli
from tests.cli_support import cli_env, skynet_check_command
from tests.conftest import ROOT


def checked(*args: object) -> dict:
    """The child's last message for these arguments, checked in this process."""
    parsed = parse.parse([str(arg) for arg in args])
    return child._check(job.job_from(parsed, "en"), lambda message: None)


# --- item 7: the report names the file it checked ------------------------------------------


def test_the_first_line_names_the_metric_file(project):
    (project / "sub").mkdir()
    (project / "sub" / "metric.py").write_text(FAILING)
    output = checked("sub/metric.py", *COLUMN)["output"]
    first = output.splitlines()[0]
    assert first.startswith("Contract check failed — metric 'sub/metric.py' · 3 cases"), first
    assert "'default'" not in output


def test_the_github_report_names_the_file_after_its_annotations(project):
    output = checked("failing.py", *COLUMN, "--format", "github")["output"]
    lines = output.splitlines()
    stop = next(n for n, line in enumerate(lines) if line.startswith("::stop-commands::"))
    assert lines[stop + 1].startswith("Contract check failed — metric 'failing.py' · 3 cases")


def test_the_json_document_names_the_file(project):
    document = json.loads(checked("good.py", *COLUMN, "--json")["output"])
    assert document["metric"] == "good.py"  # the key kept, its value the file
    assert document["metric_file"] == "good.py"  # added


def test_the_junit_suite_and_its_property_name_the_file(project, capsys):
    assert cli("good.py", *COLUMN, "--junit-xml", "out.xml") == 0
    assert capsys.readouterr().out.startswith("Contract check passed — metric 'good.py' · 3 cases")
    suite = ET.parse(project / "out.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("name") == "good.py"
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["metric_name"] == "good.py"


# --- item 8: a reader that goes away (| head) ---------------------------------------------

QUIET = ("Traceback", "BrokenPipeError", "Exception ignored")


def test_a_reader_that_closes_after_one_line_gets_no_traceback(project):
    """Two metric files: the reader takes the first line and closes its end; the report and
    the second file's header meet a closed pipe."""
    command = [*skynet_check_command(), "good.py", "failing.py", *COLUMN]
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=project,
        env=cli_env(),
    ) as started:
        assert started.stdout is not None and started.stderr is not None
        assert started.stdout.readline() == b"==> good.py <==\n"
        started.stdout.close()  # the reader goes away
        stderr = started.stderr.read().decode("utf-8", "replace")
        code = started.wait(timeout=120)
    assert not any(word in stderr for word in QUIET), stderr
    assert code == EXIT_GONE_READER


@pytest.mark.skipif(sys.platform == "win32", reason="bash and head")
def test_head_reads_the_first_line_and_the_command_ends_quietly(project):
    """The same through a shell pipeline, as a user types it."""
    command = " ".join([*map(_quoted, skynet_check_command()), "good.py failing.py", *COLUMN])
    script = f"set -o pipefail; {command} 2>errors.txt | head -n 1"
    ended = subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        cwd=project,
        env=cli_env(),
        timeout=120,
    )
    assert ended.stdout == "==> good.py <==\n"
    stderr = (project / "errors.txt").read_text()
    assert not any(word in stderr for word in QUIET), stderr
    assert ended.returncode == EXIT_GONE_READER


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


# --- README's "In CI" section says what the code does ------------------------------------


def _in_ci() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("\n## In CI\n")
    return " ".join(readme[start : readme.index("\n## ", start + 1)].split())


def test_readme_says_how_the_text_report_is_kept_from_running_as_commands(project):
    said = re.search(r"`(::stop-commands::<token>)` … `(::<token>::)`", _in_ci())
    assert said, "README's In CI section no longer says how the report is wrapped"
    opening, closing = (
        re.escape(part).replace(re.escape("<token>"), "(?P<token>[0-9a-f]{8,})")
        for part in said.groups()
    )
    lines = checked("failing.py", *COLUMN, "--format", "github")["output"].splitlines()
    starts = [n for n, line in enumerate(lines) if re.fullmatch(opening, line)]
    assert len(starts) == 1, lines
    assert all(line.startswith(("::error ", "::warning ")) for line in lines[: starts[0]])
    token = re.fullmatch(opening, lines[starts[0]])["token"]
    assert re.fullmatch(closing, lines[-1])["token"] == token  # the report ends it
    assert not any(token in line for line in lines[starts[0] + 1 : -1])


def test_readme_says_how_a_line_starting_with_two_colons_is_shown():
    said = re.search(r"starts with `::` \(after white space\) is shown as `([^`]+)`", _in_ci())
    assert said, "README's In CI section no longer says how a '::' line is shown"
    assert log_text("  ::error::pwned") == f"  {said.group(1)}error::pwned"
    assert "`\\x1b`" in _in_ci() and log_text("\x1b[31m") == "\\x1b[31m"
    assert log_text("\ud83d") == "\\ud83d"


def _file_of(command: str) -> str:
    found = re.search(r"file=([^,:]+)", command)
    assert found, command
    return found.group(1)


def test_readme_says_where_annotation_files_are_relative_to(tmp_path, monkeypatch):
    said = re.search(r"`file=` is relative to ([^.]+)\.", _in_ci())
    assert said, "README's In CI section no longer says what file= is relative to"
    assert said.group(1) == (
        "`GITHUB_WORKSPACE`, else the git repository's root, else the current folder"
    )
    assert not any((folder / ".git").exists() for folder in tmp_path.parents)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "proj" / "sub").mkdir(parents=True)
    metric = repo / "proj" / "sub" / "metric.py"
    metric.write_text(GOOD)
    monkeypatch.chdir(repo / "proj")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo / "proj" / "sub"))
    assert _file_of(usage_annotation(str(metric), "why", None)) == "metric.py"
    monkeypatch.delenv("GITHUB_WORKSPACE")
    assert _file_of(usage_annotation(str(metric), "why", None)) == "proj/sub/metric.py"
    (repo / ".git").rmdir()
    assert _file_of(usage_annotation(str(metric), "why", None)) == "sub/metric.py"


def test_readme_says_what_the_reader_gone_exit_code_is():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"**{EXIT_GONE_READER}** the reader of stdout went away" in readme
