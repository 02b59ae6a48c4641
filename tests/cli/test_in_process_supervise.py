"""``cli/supervise.py``: the verdicts the parent prints.

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import io
import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from skynet_jupyter.cli import (
    job,
    parse,
    supervise,
)
from tests.cli.in_process_support import (
    COLUMN,
    cli,
)

# --- supervise: the verdicts the parent prints -------------------------------------------


@pytest.mark.parametrize(
    ("message", "code", "said"),
    [
        ({"event": "interrupted"}, 130, "Interrupted: no verdict."),
        ({"event": "usage", "message": "Bad option."}, 2, "Bad option."),
        ({"event": "crashed", "message": "It crashed."}, 3, "It crashed."),
    ],
)
def test_a_verdict_without_report_is_its_code_and_sentence(message, code, said, capsys):
    assert supervise._verdict(message, as_json=False, lang="en") == code
    assert capsys.readouterr() == ("", f"skynet-check: {said}\n")
    assert supervise._verdict(message, as_json=True, lang="en") == code
    document = json.loads(capsys.readouterr().out)
    assert document == {
        "passed": False,
        "error": message["event"],
        "message": said,
        "exit_code": code,
    }


@pytest.mark.parametrize(
    ("passed", "interrupted", "code"), [(True, False, 0), (False, False, 1), (True, True, 130)]
)
def test_a_report_is_printed_and_its_verdict_is_the_code(passed, interrupted, code, capsys):
    done = {"event": "done", "passed": passed, "interrupted": interrupted, "output": "Report."}
    assert supervise._verdict(done, as_json=False, lang="en") == code
    assert capsys.readouterr() == ("Report.\n", "")
    assert supervise._verdict({**done, "output": "{}"}, as_json=True, lang="en") == code
    assert capsys.readouterr() == ("{}\n", "")


def started(code: str, **options: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, **options)


def test_no_verdict_says_how_the_child_ended(capsys):
    progress = supervise.ProgressLine("Running", "en", io.StringIO())
    ended = started("import sys; sys.exit(4)")
    assert supervise._no_verdict(ended, "en", False, progress) == 3
    assert "(it exited with code 4)" in capsys.readouterr().err
    for number, name in ((signal.SIGTERM, "SIGTERM"), (40, "40")):  # 40: a signal with no name
        killed = started(f"import os; os.kill(os.getpid(), {int(number)})")
        assert supervise._no_verdict(killed, "pt", True, progress) == 3
        document = json.loads(capsys.readouterr().out)
        assert document["error"] == "no_verdict" and document["exit_code"] == 3
        assert f"(foi terminado pelo sinal {name})" in document["message"]
        killed.stdout.close()
    ended.stdout.close()


def test_the_childs_messages_are_read_line_by_line_until_it_ends():
    child_process = started(
        'print(\'{"event": "loading", "path": "m.py"}\'); print(\'not ours\');'
        'print(\'{"event": "loaded"}\')'
    )
    into: queue.Queue = queue.Queue()
    supervise._read_messages(child_process, into)
    assert [into.get_nowait() for _ in range(3)] == [
        {"event": "loading", "path": "m.py"},
        {"event": "loaded"},
        None,
    ]
    child_process.wait()
    child_process.stdout.close()


def test_the_childs_stderr_is_passed_on_around_the_progress_line(capfd):
    child_process = started(
        "import sys; sys.stderr.write('first\\n'); sys.stderr.flush(); sys.stderr.write('last')",
        stderr=subprocess.PIPE,
    )
    progress = supervise.ProgressLine("Running", "en", io.StringIO())
    supervise._pass_on_stderr(child_process, progress)
    assert capfd.readouterr().err == "first\nlast"
    child_process.wait()
    child_process.stdout.close()
    child_process.stderr.close()


def test_sigterm_and_sighup_end_the_check_and_the_handlers_come_back():
    before = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGHUP)}
    previous = supervise._end_with_us()
    assert previous == before
    for number in (signal.SIGTERM, signal.SIGHUP):
        with pytest.raises(SystemExit) as stopped:
            signal.getsignal(number)(number, None)
        assert stopped.value.code == 128 + number
    supervise._restore(previous)
    assert {number: signal.getsignal(number) for number in before} == before
    elsewhere: list[dict] = []
    worker = threading.Thread(target=lambda: elsewhere.append(supervise._end_with_us()))
    worker.start()
    worker.join()
    assert elsewhere == [{}]  # only the main thread may set handlers


def test_ending_the_child_ends_what_it_started(tmp_path):
    pid_file = tmp_path / "grandchild"
    leader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time; "
            "p = subprocess.Popen(['sleep', '60']); "
            f"open({str(pid_file)!r}, 'w').write(str(p.pid)); time.sleep(60)",
        ],
        process_group=0,
    )
    for _ in range(200):
        if pid_file.exists() and pid_file.read_text():
            break
        threading.Event().wait(0.05)
    grandchild = int(pid_file.read_text())
    supervise._end(leader)
    assert leader.returncode == -signal.SIGKILL
    for _ in range(100):
        try:
            os.kill(grandchild, 0)
            state = Path(f"/proc/{grandchild}/stat").read_text().split(")")[-1].split()[0]
        except (ProcessLookupError, FileNotFoundError):
            break
        if state == "Z":
            break  # killed, not yet reaped by its new parent
        threading.Event().wait(0.05)
    else:
        pytest.fail("the child's own child still runs")
    supervise._end(leader)  # again: already gone, nothing raised


def test_supervise_gives_the_last_message_to_on_verdict(project, capfd):
    parsed = parse.parse(["good.py", *COLUMN, "--junit-xml", "r.xml"])
    checked = job.job_from(parsed, "en")
    seen: list[dict] = []
    assert supervise.supervise(checked, 60.0, seen.append) == 0
    (message,) = seen
    assert message["event"] == "done" and message["passed"] is True
    assert message["interrupted"] is False
    assert ET.fromstring(message["junit"]).get("name") == "good.py"
    assert capfd.readouterr().out == message["output"] + "\n"
    assert supervise.CHILD == "from skynet_jupyter.cli.child import main; main()"


def on_a_terminal(monkeypatch: pytest.MonkeyPatch, made_job: job.Job) -> tuple[int, str]:
    """``supervise(made_job)`` with stdout a terminal (a pty): its code, and what it showed."""
    leader, follower = os.openpty()
    terminal = open(follower, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    shown = b""
    try:
        with monkeypatch.context() as patched:
            patched.setattr(sys, "stdout", terminal)
            code = supervise.supervise(made_job, 60.0)
            terminal.flush()
        while select.select([leader], [], [], 0.2)[0]:
            shown += os.read(leader, 65536)
    finally:
        terminal.close()
        os.close(leader)
    return code, shown.decode()


def test_on_a_terminal_the_progress_line_is_shown_and_erased(project, monkeypatch, capfd):
    monkeypatch.setenv("COLUMNS", "120")
    (project / "talks.py").write_text(
        "import sys\nprint('loading talks')\n\n\ndef score(input, output, expected=None):\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )
    checked = job.job_from(parse.parse(["talks.py", *COLUMN]), "en")
    checked = job.Job(**{**{f: getattr(checked, f) for f in checked.__slots__}, "width": 120})
    code, shown = on_a_terminal(monkeypatch, checked)
    assert code == 0
    # Shown at the start, and again after the child's line was passed on under it.
    assert shown.count("Running the contract check…") >= 2
    assert "Contract check passed" in shown
    assert "loading talks\n" in capfd.readouterr().err  # the child's print, passed on


# --- the edges: each found by asking what a changed line would still let through ---------


def test_a_slow_check_is_not_held_to_the_load_time_limit(project, capfd):
    (project / "steady.py").write_text(
        "import time\n\n\ndef score(input, output, expected=None):\n"
        "    time.sleep(0.5)\n    return 1.0, {'feedback': f'fine for {output}'}\n"
    )
    assert cli("steady.py", *COLUMN, "--load-timeout", "1", "--json") == 0  # 3 x 0.5 s > 1 s
    assert json.loads(capfd.readouterr().out)["passed"] is True


def test_a_child_gone_while_its_fork_holds_the_channel_is_no_verdict(project, capfd):
    # The fork keeps the channel open (no end of file comes): past the grace, no verdict,
    # and ending the child's process group ends the fork too.
    (project / "forks.py").write_text(
        "import os, time\n\n\ndef score(input, output, expected=None):\n"
        "    if os.fork() == 0:\n        time.sleep(30)\n    os._exit(0)\n"
    )
    assert cli("forks.py", *COLUMN) == 3
    assert "(it exited with code 0)" in capfd.readouterr().err
    assert supervise._GRACE_S == 5.0


# --- the edges, in another language: each part must use the language it is given ---------


def test_verdicts_without_report_are_said_in_the_language_given(capsys):
    assert supervise._verdict({"event": "interrupted"}, as_json=False, lang="fr") == 130
    assert capsys.readouterr().err == "skynet-check: Interrompu : pas de verdict.\n"
    ended = started("import sys; sys.exit(4)")
    progress = supervise.ProgressLine("Running", "pt", io.StringIO())
    assert supervise._no_verdict(ended, "pt", False, progress) == 3
    assert capsys.readouterr().err == (
        "skynet-check: Sem veredicto: o processo que corria a verificação terminou antes de "
        "escrever o seu relatório (terminou com o código 4). Uma métrica ou função run que chama "
        "os._exit() ou mata o seu processo termina a verificação; a verificação não passou.\n"
    )
    ended.stdout.close()


class _GoneStderr:
    """A stderr that refuses every write (the terminal was closed)."""

    class buffer:  # as sys.stderr.buffer is named
        @staticmethod
        def write(data: bytes) -> int:
            raise OSError(5, "Input/output error")

        @staticmethod
        def flush() -> None:
            raise OSError(5, "Input/output error")


def test_the_childs_stderr_is_drained_even_when_ours_is_gone(monkeypatch):
    # 1 MB through a pipe that holds 64 KB: if we stopped reading, the child would block.
    child_process = started(
        "import sys\nfor _ in range(1024):\n    sys.stderr.write('x' * 1023 + '\\n')\n",
        stderr=subprocess.PIPE,
    )
    monkeypatch.setattr(sys, "stderr", _GoneStderr())
    supervise._pass_on_stderr(child_process, supervise.ProgressLine("R", "en", io.StringIO()))
    assert child_process.wait(timeout=30) == 0
    child_process.stdout.close()
    child_process.stderr.close()


def test_on_a_terminal_the_line_is_in_the_language_and_never_with_json(project, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    french = job.job_from(parse.parse(["good.py", *COLUMN, "--lang", "fr"]), "fr")
    french = job.Job(**{**{f: getattr(french, f) for f in french.__slots__}, "width": 120})
    code, shown = on_a_terminal(monkeypatch, french)
    assert code == 0 and "Vérification du contrat en cours…" in shown
    as_json = job.job_from(parse.parse(["good.py", *COLUMN, "--json"]), "en")
    code, shown = on_a_terminal(monkeypatch, as_json)
    assert code == 0 and "Running the contract check" not in shown and "\x1b" not in shown
    assert json.loads(shown)["passed"] is True
