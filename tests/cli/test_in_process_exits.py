"""``cli/exits.py``: the exit codes and the sentences said for a check that did not pass.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

from skynet_jupyter.cli import (
    exits,
)

# --- exits and json_out ------------------------------------------------------------------


def test_the_exit_codes():
    codes = (exits.EXIT_PASSED, exits.EXIT_FAILED, exits.EXIT_USAGE, exits.EXIT_NO_VERDICT)
    assert codes == (0, 1, 2, 3)
    assert exits.EXIT_INTERRUPTED == 130


def test_no_pass_says_why_on_stderr_and_as_the_document(capsys):
    assert exits.no_pass("crashed", "It broke.", 3, as_json=False) == 3
    assert capsys.readouterr() == ("", "skynet-check: It broke.\n")
    assert exits.usage("Bad «option».", as_json=True) == 2
    out, err = capsys.readouterr()
    assert err == "skynet-check: Bad «option».\n"
    assert out == (
        '{\n  "passed": false,\n  "error": "usage",\n  "message": "Bad «option».",\n'
        '  "exit_code": 2\n}\n'
    )
    problem = exits.UsageProblem("Said.", file="m.py", line=4)
    assert (str(problem), problem.file, problem.line) == ("Said.", "m.py", 4)
