"""``cli/github_annotations.py``: workflow commands.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

from skynet_jupyter.cli import github_annotations as gh
from tests.cli.in_process_support import (
    report_of,
)

# --- github_annotations: workflow commands -----------------------------------------------


def test_messages_and_properties_are_escaped_as_githubs_toolkit_does():
    assert gh.escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"
    assert gh.escape_property("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb"
    assert gh.workflow_command("error", "Bad\nthing", file="m.py", line=None, title="T: x") == (
        "::error file=m.py,title=T%3A x::Bad%0Athing"
    )
    assert gh.workflow_command("warning", "only") == "::warning::only"
    assert gh.workflow_command("error", "\x1b[31mred", file="a\x1b.py", line=3) == (
        "::error file=a#x1B.py,line=3::#x1B[31mred"
    )


def test_a_failed_case_points_at_the_metrics_own_line(project):
    commands = gh.report_annotations(report_of("failing.py"), "failing.py")
    assert len(commands) == 2
    assert commands[0].startswith(
        "::error file=failing.py,line=4,title=Metric return value::Case 1: score raised before "
        "returning: "
        "KeyError: 'missing'%0AHow to fix: score raised an exception at "
    )
    assert commands[1].startswith(
        "::warning file=failing.py,title=Feedback advice::The 2 cases all have the score 1."
    )
    assert "%0AAdvice: The optimizer (GEPA, DSPy GEPA, Auto) reads only" in commands[1]
    # The same metric named by its absolute path is shown relative to the workspace.
    absolute = gh.report_annotations(report_of("failing.py"), str(project / "failing.py"))
    assert absolute[0].startswith("::error file=failing.py,line=4,")


def test_cases_failing_the_same_way_are_one_annotation(project):
    (project / "same.py").write_text(
        "def score(input, output, expected=None):\n    raise KeyError('missing')\n"
    )
    commands = gh.report_annotations(report_of("same.py"), "same.py")
    errors = [command for command in commands if command.startswith("::error")]
    assert len(errors) == 1
    assert errors[0].startswith("::error file=same.py,line=2,title=Metric return value::")


def test_a_signature_or_reward_spec_failure_points_at_its_definition(project):
    commands = gh.report_annotations(report_of("one_argument.py", lang="fr"), "one_argument.py")
    assert commands[0].startswith(
        "::error file=one_argument.py,line=4,title=Signature de la métrique::score(input) "
    )
    assert len(commands) == 1  # the failed step says why no case ran: no "interrupted" besides
    (project / "spec.py").write_text(
        '"""A spec."""\n\nREWARD_SPEC: dict = {"weights": {"nope": 1.0}}\n\n\n'
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n"
    )
    commands = gh.report_annotations(report_of("spec.py"), "spec.py")
    assert commands[0].startswith("::error file=spec.py,line=3,title=Reward spec::REWARD_SPEC[")


def test_a_failure_in_the_run_file_points_there(project):
    (project / "run_broken.py").write_text(
        "def run(artifact, case_input):\n    raise RuntimeError('run broke')\n"
    )
    report = report_of("good.py", output_column=None, run="run_broken.py:run")
    (command,) = [c for c in gh.report_annotations(report, "good.py") if "Run function" in c]
    assert command.startswith("::error file=run_broken.py,line=2,title=Run function::Cases 0–2 (3)")


def test_where_a_name_is_defined_at_the_top_of_the_metric(project):
    (project / "defs.py").write_text(
        "import os\nA = 1\nB: int = 2\nC = D = 3\n\n\nasync def score(input, output):\n"
        "    def inner():\n        pass\n\n\nclass K:\n    E = 1\n"
    )
    assert gh._defined_at("defs.py", "score") == 7
    assert gh._defined_at("defs.py", "A") == 2
    assert gh._defined_at("defs.py", "B") == 3
    assert gh._defined_at("defs.py", "D") == 4
    assert gh._defined_at("defs.py", "inner") is None  # not at the top level
    assert gh._defined_at("defs.py", "E") is None
    assert gh._defined_at("defs.py", "K") is None  # a class is not what is looked for
    assert gh._defined_at("gone.py", "score") is None
    (project / "broken.py").write_text("def score(:\n")
    assert gh._defined_at("broken.py", "score") is None
    (project / "nul.py").write_bytes(b"score = 1\x00\n")
    assert gh._defined_at("nul.py", "score") is None


def test_paths_are_shown_relative_to_the_workspace(project):
    assert gh._shown(str(project / "sub" / "m.py")) == "sub/m.py"
    assert gh._shown("/elsewhere/m.py") == "/elsewhere/m.py"
    assert gh._shown("./sub//m.py") == "sub/m.py"


def test_a_usage_annotation_is_redacted_with_its_line(project):
    assert gh.usage_annotation(str(project / "m.py"), "Key sk-abcdefghijklmnop: bad.", 5) == (
        "::error file=m.py,line=5,title=skynet-check::Key sk-[redacted]: bad."
    )
    assert gh.usage_annotation("m.py", "Bad.", None) == "::error file=m.py,title=skynet-check::Bad."


# --- the edges: each found by asking what a changed line would still let through ---------


def test_an_annotation_points_at_the_deepest_line_in_the_metric_or_run_file(project):
    (project / "nested.py").write_text(
        "def check(text):\n    raise KeyError(text)\n\n\n"
        "def score(input, output, expected=None):\n    return check(input['text'])\n"
    )
    commands = gh.report_annotations(report_of("nested.py"), "nested.py")
    assert commands[0].startswith("::error file=nested.py,line=2,title=Metric return value::")
    (project / "nested_run.py").write_text(
        "def broken():\n    raise RuntimeError('run broke')\n\n\n"
        "def run(artifact, case_input):\n    return broken()\n"
    )
    report = report_of("good.py", output_column=None, run="nested_run.py:run")
    (command,) = [c for c in gh.report_annotations(report, "good.py") if "Run function" in c]
    assert command.startswith("::error file=nested_run.py,line=2,title=Run function::")


# --- the edges, in another language: each part must use the language it is given ---------


def test_a_metric_failing_in_a_module_it_imports_is_annotated_at_its_own_line(project, monkeypatch):
    (project / "checks.py").write_text("def check(text):\n    raise KeyError(text)\n")
    (project / "uses.py").write_text(
        "from checks import check\n\n\ndef score(input, output, expected=None):\n"
        "    return check(input['text'])\n"
    )
    monkeypatch.syspath_prepend(str(project))  # as the CLI's child has the metric's folder
    commands = gh.report_annotations(report_of("uses.py"), "uses.py")
    assert commands[0].startswith("::error file=uses.py,line=5,title=Metric return value::")


def test_a_run_file_failing_at_several_lines_is_annotated_at_the_first_cases(project):
    (project / "two_ways.py").write_text(
        "def run(artifact, case_input):\n    if case_input['text'] == 'hello':\n"
        "        raise RuntimeError('first')\n    raise KeyError('other')\n"
    )
    report = report_of("good.py", output_column=None, run="two_ways.py:run")
    (command,) = [c for c in gh.report_annotations(report, "good.py") if "Run function" in c]
    assert command.startswith("::error file=two_ways.py,line=3,title=Run function::")
