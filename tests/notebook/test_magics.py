"""The magics, driven in an in-process IPython shell, and the same scenarios via the Python API.

Each test gets the one ``InteractiveShell`` with a fresh namespace and a fresh
load of the extension (so a fresh registry and run cache).  The last tests run
a generated notebook in a real kernel with nbclient: the edit loop as a
person lives it.
"""

from __future__ import annotations

import _thread
import os
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from skynet_jupyter.core.contract import ContractError
from skynet_jupyter.core.skynet_import import uninstall_skynet_module
from skynet_jupyter.notebook.magics import CheckFailed, SkynetMagics
from skynet_jupyter.notebook.names import UserCodeError
from tests.notebook_client import WAIT_FOR_OUTPUTS
from tests.openai_server import OpenAIServer
from tests.served_models import asks, served

ROOT = Path(__file__).resolve().parents[2]
WIDGET = "application/vnd.jupyter.widget-view+json"

GOOD = """
def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}."}
"""
BAD_RETURN = """
def score(input, output, expected=None):
    return 0.5, "Close."
"""
ALWAYS_ONE = """
def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}
"""
LEAKS_AT_LOAD = """
LIMIT = THRESHOLD * 2
def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}
"""
LEAKS_IN_SCORE = """
def score(input, output, expected=None):
    return THRESHOLD, {"feedback": "Fine."}
"""
BAD_SIGNATURE = """
def score(input):
    return 1.0, {"feedback": "Fine."}
"""
BAD_SPEC = """
REWARD_SPEC = {"weights": {"accuracy": 1, "speed": 1}, "speed": {"reference": 2000},
               "cost": {"reference": 0.01}}
def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}
"""
WITH_SPEC = """
from skynet import reward

REWARD_SPEC = {
    "weights": {"accuracy": 7, "speed": 2, "cost": 1},
    "accuracy": {},
    "speed": {"reference": 2000},
    "cost": {"reference": 0.01},
}

def score(input, output, expected=None):
    ok = output == expected["label"]
    return reward(REWARD_SPEC, 1.0 if ok else 0.0, "Correct." if ok else "Wrong label.")
"""
TWO_ARGS = """
def score(input, output):
    return 1.0, {"feedback": "Fine."}
"""

CHECK = "%skynet_check --data tickets --outputs label --run classify --artifact prompt"
CHECK_COLUMN = "%skynet_check --data tickets --outputs label --output-column label"


class Program:
    """A run(artifact, input) that counts its calls."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.calls = 0
        self.fail_on = fail_on

    def __call__(self, artifact, input):
        self.calls += 1
        if self.fail_on and self.fail_on in input["text"]:
            raise RuntimeError("the program broke")
        return "billing" if "charge" in input["text"] or "refund" in input["text"] else "other"


@pytest.fixture
def shell(shell, tickets):
    """conftest.py's shell (empty namespace, the extension freshly loaded, a temp cwd),
    with the tickets, a program and a prompt in the notebook."""
    shell.user_ns.update(tickets=tickets, classify=Program(), prompt="billing: charge, refund")
    return shell


def magics(shell) -> SkynetMagics:
    return shell.magics_manager.registry["SkynetMagics"]


def cell(shell, source: str):
    """Run a cell as a notebook would; (its result, what it printed and displayed)."""
    with capture_output() as captured:
        result = shell.run_cell(textwrap.dedent(source).lstrip("\n"), store_history=True)
    return result, captured


def register(shell, source: str, line: str = "") -> str:
    result, captured = cell(shell, f"%%skynet_metric {line}\n{textwrap.dedent(source)}")
    result.raise_error()
    return captured.stdout


def display_ids(captured) -> set[str]:
    return {(output.transient or {}).get("display_id") for output in captured.outputs}


# --- loading ------------------------------------------------------------------------


def test_load_registers_the_magics_settings_and_skynet_module(shell):
    lines = shell.magics_manager.magics["line"]
    cells = shell.magics_manager.magics["cell"]
    assert {"skynet_metric", "skynet_check", "skynet_eval"} <= set(lines)
    assert "skynet_metric" in cells
    assert magics(shell) in shell.configurables
    from skynet import llm, observation, reward, service_cost  # noqa: F401


def test_loading_twice_is_harmless(shell):
    register(shell, GOOD)
    before = magics(shell)
    sj.load_ipython_extension(shell)
    shell.run_line_magic("load_ext", "skynet_jupyter")
    assert magics(shell) is before
    assert list(before.metrics) == ["default"]
    assert shell.configurables.count(before) == 1


def test_unload_removes_everything_load_added(shell):
    shell.extension_manager.unload_extension("skynet_jupyter")
    uninstall_skynet_module()
    callbacks = list(shell.events.callbacks["post_run_cell"])
    configurables = list(shell.configurables)

    shell.extension_manager.load_extension("skynet_jupyter")
    assert "skynet" in sys.modules
    shell.extension_manager.unload_extension("skynet_jupyter")

    assert "SkynetMagics" not in shell.magics_manager.registry
    for kind in ("line", "cell"):
        assert not {"skynet_metric", "skynet_check", "skynet_eval"} & set(
            shell.magics_manager.magics[kind]
        )
    assert shell.events.callbacks["post_run_cell"] == callbacks
    assert shell.configurables == configurables
    assert "skynet" not in sys.modules
    result, _ = cell(shell, CHECK)
    assert isinstance(result.error_in_exec, UsageError)  # %skynet_check is gone
    assert str(result.error_in_exec) == "Line magic function `%skynet_check` not found."


def test_unload_keeps_a_skynet_module_it_did_not_install(shell):
    shell.extension_manager.unload_extension("skynet_jupyter")
    sj.check(ALWAYS_ONE, [{"a": 1}], output_column="a")  # the engine installs it first
    shell.extension_manager.load_extension("skynet_jupyter")
    shell.extension_manager.unload_extension("skynet_jupyter")
    assert "skynet" in sys.modules


def test_loading_imports_no_heavy_package():
    code = textwrap.dedent(
        """
        import sys
        import IPython, ipywidgets
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.extension_manager.load_extension("skynet_jupyter")
        heavy = ("pandas", "litellm", "dspy", "dask", "distributed")
        print(sorted({m.split(".")[0] for m in sys.modules} & set(heavy)))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# --- %%skynet_metric ------------------------------------------------------------------


def test_metric_cell_registers_and_summarises(shell):
    printed = register(shell, GOOD)
    assert "Metric 'default' registered: score(input, output, expected)." in printed
    assert "No REWARD_SPEC" in printed
    metric = magics(shell).metrics["default"]
    assert metric.score({}, "billing", {"label": "billing"})[0] == 1.0
    assert metric.path is None


def test_summary_shows_rescaled_weights_and_references(shell):
    printed = register(shell, WITH_SPEC, "spec")
    assert "Metric 'spec' registered" in printed
    assert "accuracy 0.7, speed 0.2, cost 0.1" in printed
    assert "speed 2000 ms, cost 0.01 USD" in printed


def test_two_argument_metric_shows_its_call_form(shell):
    assert "score(input, output)." in register(shell, TWO_ARGS, "short")


def test_registering_again_replaces_the_metric(shell):
    register(shell, GOOD)
    first = magics(shell).metrics["default"]
    register(shell, ALWAYS_ONE)
    assert magics(shell).metrics["default"] is not first
    assert magics(shell).metrics["default"].score({}, "x", None)[0] == 1.0


def test_cell_does_not_see_notebook_names_at_registration(shell):
    shell.user_ns["THRESHOLD"] = 0.5
    result, _ = cell(shell, f"%%skynet_metric\n{LEAKS_AT_LOAD}")
    error = result.error_in_exec
    assert isinstance(error, ContractError)
    assert error.step == "metric_loads"
    rendered = error._render_traceback_()
    assert "'THRESHOLD'" in rendered[0]
    assert "its own module" in rendered[0]
    assert "<skynet_metric default>" in rendered[1]  # the user's frame, and only theirs
    assert "skynet_jupyter" not in rendered[1].replace("<skynet_metric default>", "")
    assert "default" not in magics(shell).metrics


@pytest.mark.parametrize(
    ("source", "step"),
    [
        (BAD_SIGNATURE, "metric_signature"),
        (BAD_SPEC, "reward_spec"),
        ("x = 1\n", "metric_signature"),
    ],
)
def test_bad_metric_ends_the_cell_with_one_line(shell, source, step):
    result, captured = cell(shell, f"%%skynet_metric\n{source}")
    error = result.error_in_exec
    assert isinstance(error, ContractError)
    assert error.step == step
    assert len(error._render_traceback_()) == 1
    assert "Traceback" not in captured.stdout + captured.stderr
    assert magics(shell).metrics == {}


def test_metric_errors_follow_the_language_setting(shell):
    shell.run_line_magic("config", "SkynetMagics.lang = 'fr'")
    result, _ = cell(shell, f"%%skynet_metric\n{BAD_SIGNATURE}")
    error = result.error_in_exec
    assert str(error) == error.message("fr") != error.message("en")
    assert "Métrique 'ok' enregistrée" in register(shell, GOOD, "ok")


# --- --save -------------------------------------------------------------------------


def test_save_writes_the_cell(shell, tmp_path):
    printed = register(shell, GOOD, "--save metric.py")
    saved = tmp_path / "metric.py"
    assert saved.read_text() == textwrap.dedent(GOOD)
    assert "Saved to metric.py." in printed
    assert magics(shell).metrics["default"].path == str(saved.resolve())
    # No temporary file left; beside the file, only the save's record (issue 44, item 1).
    assert sorted(p.name for p in tmp_path.iterdir()) == [".skynet_cache", "metric.py"]
    assert [p.name for p in (tmp_path / ".skynet_cache").iterdir()] == ["saved"]
    again = sj.check(str(saved), shell.user_ns["tickets"], outputs="label", output_column="label")
    assert again.passed


def test_save_with_identical_content_is_a_no_op(shell, tmp_path):
    register(shell, GOOD, "--save metric.py")
    saved = tmp_path / "metric.py"
    os.utime(saved, (1, 1))
    printed = register(shell, GOOD, "--save metric.py")
    assert "already holds this metric" in printed
    assert saved.stat().st_mtime == 1


def test_save_never_overwrites_a_different_file_without_force(shell, tmp_path):
    saved = tmp_path / "metric.py"
    saved.write_text("# the submitted metric\n")
    result, _ = cell(shell, f"%%skynet_metric --save metric.py\n{textwrap.dedent(GOOD)}")
    assert isinstance(result.error_in_exec, UsageError)  # the cell ends in error: Run All stops
    said = str(result.error_in_exec)
    assert said.startswith("Not saved: metric.py") and "Add --force" in said
    assert saved.read_text() == "# the submitted metric\n"
    assert "default" in magics(shell).metrics  # registered all the same, and it says so
    assert "registered as 'default' all the same" in said
    assert magics(shell).metrics["default"].path is None

    printed = register(shell, GOOD, "--save metric.py --force")
    assert saved.read_text() == textwrap.dedent(GOOD)
    assert "Saved to metric.py." in printed


EDITED = GOOD.replace("Correct.", "Correct: the label matches.")


def test_the_edit_then_save_loop_writes_each_edit(shell, tmp_path):
    """README's cell run again after an edit: the file held what this kernel saved there,
    so the edit is written (no --force), and says it replaced the earlier save."""
    saved = tmp_path / "metric.py"
    register(shell, GOOD, "--save metric.py")
    printed = register(shell, EDITED, "--save metric.py")
    assert saved.read_text() == textwrap.dedent(EDITED)
    assert "Saved to metric.py (replacing this metric's earlier save there)." in printed
    assert magics(shell).metrics["default"].path == str(saved.resolve())
    register(shell, GOOD, "--save metric.py")  # and back: each save is this kernel's own
    assert saved.read_text() == textwrap.dedent(GOOD)


def test_a_file_changed_by_someone_else_since_the_save_is_kept(shell, tmp_path):
    saved = tmp_path / "metric.py"
    register(shell, GOOD, "--save metric.py")
    saved.write_text("# edited in an editor\n")  # or a git checkout
    result, _ = cell(shell, f"%%skynet_metric --save metric.py\n{textwrap.dedent(EDITED)}")
    assert isinstance(result.error_in_exec, UsageError)
    assert "--force" in str(result.error_in_exec)
    assert saved.read_text() == "# edited in an editor\n"
    register(shell, EDITED, "--save metric.py --force")
    assert saved.read_text() == textwrap.dedent(EDITED)


def test_save_keeps_the_file_mode_and_makes_folders(shell, tmp_path):
    saved = tmp_path / "metric.py"
    saved.write_text("old\n")
    saved.chmod(0o640)
    register(shell, GOOD, "--save metric.py --force")
    assert saved.stat().st_mode & 0o777 == 0o640
    register(shell, GOOD, "--save sub/dir/metric.py")
    assert (tmp_path / "sub" / "dir" / "metric.py").read_text() == textwrap.dedent(GOOD)


def test_a_broken_metric_is_not_saved(shell, tmp_path):
    result, _ = cell(shell, f"%%skynet_metric --save metric.py\n{BAD_SIGNATURE}")
    assert isinstance(result.error_in_exec, ContractError)
    assert not (tmp_path / "metric.py").exists()


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("%skynet_metric --save metric.py", "go with the cell magic"),
        ("%skynet_metric --force", "go with the cell magic"),
        (f"%%skynet_metric --force\n{GOOD}", "--force goes with --save"),
        (f"%%skynet_metric --load metric.py\n{GOOD}", "use the line magic"),
    ],
)
def test_misplaced_metric_options_are_usage_errors(shell, source, message):
    result, _ = cell(shell, source)
    assert isinstance(result.error_in_exec, UsageError)
    assert message in str(result.error_in_exec)


# --- %skynet_metric (line) --------------------------------------------------------------


def test_listing_when_nothing_is_registered(shell):
    _, captured = cell(shell, "%skynet_metric")
    assert "No metric registered yet" in captured.stdout


def test_listing_shows_name_call_form_spec_and_source(shell, tmp_path):
    register(shell, GOOD, "--save metric.py")
    register(shell, WITH_SPEC, "spec")
    register(shell, TWO_ARGS, "short")
    _, captured = cell(shell, "%skynet_metric")
    lines = captured.stdout.splitlines()
    assert lines[0].split() == ["name", "call", "form", "REWARD_SPEC", "source", "file"]
    assert lines[1].split()[0] == "default" and str(tmp_path / "metric.py") in lines[1]
    assert lines[2].split()[0] == "spec" and " yes " in lines[2] and "(notebook cell)" in lines[2]
    assert "score(input, output) " in lines[3] and " no " in lines[3]


def test_line_form_with_a_name_shows_that_metric(shell):
    register(shell, WITH_SPEC, "spec")
    _, captured = cell(shell, "%skynet_metric spec")
    assert "accuracy 0.7, speed 0.2, cost 0.1" in captured.stdout
    result, _ = cell(shell, "%skynet_metric nope")
    assert isinstance(result.error_in_exec, UsageError)


def test_load_registers_a_metric_file(shell, examples_dir):
    _, captured = cell(shell, f"%skynet_metric --load {examples_dir / 'metric.py'}")
    assert "Metric 'default' registered" in captured.stdout
    cell(shell, f"%skynet_metric --load {examples_dir / 'metric.py'} judge")
    registry = magics(shell).metrics
    assert set(registry) == {"default", "judge"}
    assert registry["judge"].path == str((examples_dir / "metric.py").resolve())


def test_load_of_a_missing_file_is_one_line(shell):
    result, _ = cell(shell, "%skynet_metric --load nowhere/metric.py")
    assert isinstance(result.error_in_exec, ContractError)
    assert "No metric file at" in str(result.error_in_exec)


# --- %skynet_check ---------------------------------------------------------------------


def test_check_shows_a_live_view_and_returns_the_report(shell):
    register(shell, GOOD)
    result, captured = cell(shell, f"report = {CHECK}")
    result.raise_error()
    report = shell.user_ns["report"]
    assert isinstance(report, sj.CheckReport)
    assert report.passed and len(report.cases) == 3
    assert report.cases[0].output == "billing"
    assert WIDGET in captured.outputs[0].data
    # Two displays: the widget and its static copy (what exports and GitHub show).
    assert len(display_ids(captured)) == 2 and None not in display_ids(captured)
    assert captured.outputs[-1].update  # finished in place


def test_the_view_is_the_display_the_report_is_not_shown_twice(shell):
    register(shell, GOOD)
    result, captured = cell(shell, CHECK)
    result.raise_error()
    assert None not in display_ids(captured)  # every output is the live view
    assert "Contract check passed" not in captured.stdout
    assert isinstance(shell.user_ns["_"], sj.CheckReport)

    assert repr(shell.user_ns["_"]).startswith("CheckReport(")

    # In a later cell the stored report shows itself as usual.
    _, later = cell(shell, "_")
    html = [o.data["text/html"] for o in later.outputs if "text/html" in o.data]
    assert html and "skynet-report" in html[0]
    assert display_ids(later) == {None}


def test_a_trailing_semicolon_hides_the_view(shell):
    register(shell, GOOD)
    result, captured = cell(shell, f"{CHECK};")
    result.raise_error()
    assert captured.outputs == []
    result, captured = cell(shell, f"report = {CHECK}  ;")
    assert captured.outputs == []
    assert shell.user_ns["report"].passed


def test_failed_check_shows_the_report_then_one_error_line(shell):
    register(shell, BAD_RETURN)
    result, captured = cell(shell, CHECK)
    error = result.error_in_exec
    assert isinstance(error, CheckFailed)
    assert captured.outputs, "the report is shown before the error"
    lines = error._render_traceback_()
    assert len(lines) == 1
    # One message for the three cases, said once with their numbers (issue 10).
    assert lines[0].startswith(
        "CheckFailed: Contract check failed — Metric return value: Cases 0–2 (3): "
    )
    assert not error.report.passed
    assert error.report.step("metric_return_value").status == "failed"


def test_no_raise_and_the_setting_let_a_failed_check_return(shell):
    register(shell, BAD_RETURN)
    report = shell.run_line_magic("skynet_check", CHECK.split(" ", 1)[1] + " --no-raise")
    assert not report.passed
    shell.run_line_magic("config", "SkynetMagics.raise_on_failure = False")
    report = shell.run_line_magic("skynet_check", CHECK.split(" ", 1)[1])
    assert not report.passed


class Asking(Program):
    """A run(artifact, input) that counts its calls and asks the task model once a case."""

    def __call__(self, artifact, input):
        super().__call__(artifact, input)
        from skynet import llm

        return llm(artifact, input["text"])


@pytest.fixture
def server(shell):
    """The loopback OpenAI server as the kernel's task model, labelling as classify does."""
    with OpenAIServer() as running:
        running.reply = lambda r: "billing" if "charge" in r.text or "refund" in r.text else "other"
        magics(shell).task_model = served(running)
        shell.user_ns["asking"] = Asking()
        yield running


ASKING = CHECK.replace("--run classify", "--run asking")


def test_model_calls_are_cached_and_fresh_asks_again(shell, server):
    # Issue 23: run runs every time; its model calls come from the run cache.
    register(shell, GOOD)
    program = shell.user_ns["asking"]
    cell(shell, ASKING)[0].raise_error()
    assert program.calls == 3 and asks(server) == 3
    cell(shell, ASKING)[0].raise_error()
    assert program.calls == 6 and asks(server) == 3
    report = shell.run_line_magic("skynet_check", ASKING.split(" ", 1)[1])
    assert all(case.cached for case in report.cases)
    # Every case from the cache: the header says so once (issue 36), not only each row.
    assert "every case from the run cache: no model asked now" in str(report).splitlines()[0]
    cell(shell, f"{ASKING} --fresh")[0].raise_error()
    assert asks(server) == 6
    fresh = magics(shell).run_cache
    # --fresh looks nothing up; what it asks is counted as asked (issue 36: 3 + 3 asked).
    assert fresh.hits == 6 and fresh.misses == 6
    _, shown = cell(shell, "%skynet_cache")
    assert "6 calls answered from the cache, 6 asked" in shown.stdout
    cell(shell, f"{ASKING} --cases 4")[0].raise_error()
    assert asks(server) == 7  # only the new case's call is asked


def test_names_resolve_in_the_notebook_then_as_files(shell, examples_dir):
    register(shell, GOOD)
    shell.user_ns["cfg"] = SimpleNamespace(prompt="billing: charge")
    report = shell.run_line_magic(
        "skynet_check", "--data tickets[1:] --outputs label --run classify --artifact cfg.prompt"
    )
    assert report.passed and report.cases[0].input["text"].startswith("The app")
    report = shell.run_line_magic(
        "skynet_check",
        "--data \"[t for t in tickets if t['label'] == 'billing']\" --outputs label "
        "--run classify --artifact prompt",
    )
    assert len(report.cases) == 2
    report = shell.run_line_magic(
        "skynet_check",
        f"--data {examples_dir / 'tickets.csv'} --outputs label "
        f"--run {examples_dir / 'classify.py'}:run --artifact {examples_dir / 'prompt.txt'}",
    )
    assert report.passed and len(report.cases) == 3
    assert report.cases[0].output == "billing"


def test_a_run_file_without_function_name_uses_run(shell, examples_dir):
    register(shell, GOOD)
    report = shell.run_line_magic(
        "skynet_check",
        f"--data tickets --outputs label --run {examples_dir / 'classify.py'} "
        f"--artifact {examples_dir / 'prompt.txt'}",
    )
    assert report.passed


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("--data nowhere --output-column label", "--data nowhere: no notebook variable or file"),
        ("--data tickets --run nothing --artifact prompt", "--run nothing: no notebook variable"),
        ("--data tickets --run classify --artifact nope.txt", "--artifact nope.txt: no file"),
        ("--data tickets[99] --output-column label", "raised IndexError"),
        ("--data tickets[limit] --output-column label", "NameError: name 'limit'"),
        ("--data tickets --run prompt --artifact prompt", "--run prompt is a str, not a function"),
        ("--data tickets --output-column lbl", "--output-column: no column 'lbl'"),
        ("--data tickets --output-column label --split dev", "no 'split' column"),
        ("--data tickets", "Say where the outputs come from"),
        ("--data tickets --run classify --output-column label", "not both"),
        ("--data tickets --output-column label --timeout 0", "between 1 and 600"),
        ("--data tickets --output-column label --cases 0", "cases must be 1 or more"),
        ("--data tickets --output-column label --lang de", "invalid choice: 'de'"),
        ("--data tickets --output-column label --bogus", "unrecognized arguments: --bogus"),
        ("--output-column label", "required: --data"),
        ("--metric nope --data tickets --output-column label", "No metric named 'nope'"),
    ],
)
def test_usage_mistakes_are_one_line_usage_errors(shell, options, message):
    register(shell, GOOD)
    result, captured = cell(shell, f"%skynet_check {options}")
    assert isinstance(result.error_in_exec, UsageError), result.error_in_exec
    assert message in str(result.error_in_exec)
    assert captured.outputs == []  # no empty view left behind


def test_checking_before_registering_says_what_to_do(shell):
    with pytest.raises(UsageError, match="No metric registered yet: run a %%skynet_metric cell"):
        shell.run_line_magic("skynet_check", "--data tickets --output-column label")


def test_a_run_file_that_fails_to_load_shows_the_users_frames(shell, tmp_path):
    register(shell, GOOD)
    (tmp_path / "run.py").write_text("import json\n\nCONFIG = json.loads('{')\n")
    with pytest.raises(UserCodeError) as caught:
        shell.run_line_magic("skynet_check", "--data tickets --run run.py:run --artifact prompt")
    message, detail = caught.value._render_traceback_()
    assert message.startswith("UserCodeError: The run file run.py failed while loading: JSON")
    assert 'run.py", line 3' in detail
    assert "skynet_jupyter" not in detail


def test_a_metric_using_a_notebook_name_fails_at_check_time_with_the_sentence(shell):
    shell.user_ns["THRESHOLD"] = 0.5
    register(shell, LEAKS_IN_SCORE)
    with pytest.raises(CheckFailed) as caught:
        shell.run_line_magic("skynet_check", CHECK.split(" ", 1)[1])
    assert "score uses the name 'THRESHOLD'" in str(caught.value)
    assert "its own module" in str(caught.value)


def test_an_interrupted_check_ends_the_cell_even_with_no_raise(shell, ctrl_c):
    register(shell, GOOD)

    def interrupting(artifact, input):
        if "crashes" in input["text"]:
            time.sleep(0.3)  # let the check settle into its watch loop, as a person's Ctrl-C would
            _thread.interrupt_main()
            time.sleep(1)
        return "other"

    shell.user_ns["interrupting"] = interrupting
    with pytest.raises(CheckFailed, match="Interrupted") as caught:
        shell.run_line_magic(
            "skynet_check", "--data tickets --outputs label --run interrupting --no-raise"
        )
    assert caught.value.report.interrupted


# --- the edit loop -----------------------------------------------------------------------


def test_editing_a_checked_metric_rechecks_in_place_without_running(shell):
    register(shell, BAD_RETURN)
    program = shell.user_ns["classify"]
    _, checked = cell(shell, CHECK)
    view_ids = display_ids(checked)  # the widget and its static copy
    (static_id,) = {i for i in view_ids if i.endswith("-static")}
    assert program.calls == 3

    result, edited = cell(shell, f"%%skynet_metric\n{GOOD}")
    result.raise_error()
    assert program.calls == 3  # no new run() calls
    assert "Re-ran the last check of 'default' on its cached outputs" in edited.stdout
    assert "Contract check passed." in edited.stdout
    updates = [o for o in edited.outputs if (o.transient or {}).get("display_id") == static_id]
    assert updates and all(o.update for o in updates)
    assert "Contract check passed" in updates[-1].data["text/html"]
    assert "Replayed: these are the outputs of the last check" in updates[-1].data["text/html"]
    assert display_ids(edited) == view_ids  # the metric cell shows no second report

    _, again = cell(shell, f"%%skynet_metric\n{BAD_RETURN}")
    assert "Contract check failed — Metric return value" in again.stdout
    assert program.calls == 3


def test_the_edit_loop_never_calls_run_again_even_for_failed_runs(shell):
    shell.user_ns["classify"] = program = Program(fail_on="crashes")
    register(shell, GOOD)
    result, _ = cell(shell, CHECK)
    assert isinstance(result.error_in_exec, CheckFailed)
    assert program.calls == 3
    _, edited = cell(shell, f"%%skynet_metric\n{ALWAYS_ONE}")
    assert program.calls == 3
    assert "Run function" in edited.stdout
    report = magics(shell).last_checks["default"].view.report
    failed = [case for case in report.cases if not case.passed]
    assert [case.failed_step for case in failed] == ["run_function"]
    assert "Run %skynet_check to call run again" in failed[0].error


def test_only_the_edited_metric_is_rechecked(shell):
    register(shell, GOOD)
    register(shell, ALWAYS_ONE, "other")
    cell(shell, CHECK)[0].raise_error()
    printed = register(shell, ALWAYS_ONE, "other")
    assert "Re-ran" not in printed
    assert "Re-ran" in register(shell, ALWAYS_ONE)


def test_the_edit_loop_works_for_checks_on_an_output_column(shell):
    register(shell, BAD_RETURN)
    result, _ = cell(shell, f"{CHECK_COLUMN} --no-raise")
    result.raise_error()
    assert "Contract check passed." in register(shell, GOOD)


def test_a_silenced_check_is_rechecked_too(shell):
    register(shell, BAD_RETURN)
    cell(shell, f"{CHECK} --no-raise;")[0].raise_error()
    assert "Contract check passed." in register(shell, GOOD)


# --- settings --------------------------------------------------------------------------


def test_settings_are_traitlets_with_help():
    names = ("raise_on_failure", "timeout", "lang", "concurrency")
    names += ("task_model", "metric_model", "reflection_model")
    traits = SkynetMagics.class_traits(config=True)
    assert set(names) <= set(traits)
    for name in names:
        assert traits[name].help, name


def test_config_changes_a_setting_and_refuses_bad_values(shell):
    shell.run_line_magic("config", "SkynetMagics.timeout = 5000")
    assert magics(shell).timeout == 60
    shell.run_line_magic("config", "SkynetMagics.timeout = 1")
    assert magics(shell).timeout == 1
    shell.run_line_magic("config", "SkynetMagics.lang = 'pt'")
    register(shell, GOOD)
    report = shell.run_line_magic("skynet_check", CHECK_COLUMN.split(" ", 1)[1])
    assert report.lang == "pt"


def test_model_settings_are_checked_and_never_show_a_key(shell):
    shell.run_line_magic("config", "SkynetMagics.task_model = 42")
    assert magics(shell).task_model is None
    secret = "sk-test-0123456789abcdef"
    shell.user_ns["secret"] = secret
    shell.run_line_magic(
        "config", "SkynetMagics.task_model = {'model': 'openai/gpt-4o-mini', 'api_key': secret}"
    )
    assert magics(shell).task_model["model"] == "openai/gpt-4o-mini"
    _, captured = cell(shell, "%config SkynetMagics")
    assert "openai/gpt-4o-mini" in captured.stdout
    assert secret not in captured.stdout


def test_the_timeout_setting_limits_the_metric(shell):
    shell.run_line_magic("config", "SkynetMagics.timeout = 1")
    register(shell, "import time\ndef score(input, output, expected=None):\n    time.sleep(30)\n")
    started = time.perf_counter()
    report = shell.run_line_magic(
        "skynet_check", "--data tickets --output-column label --cases 1 --no-raise"
    )
    assert time.perf_counter() - started < 5  # the limit (1 s), far from the sleep (30 s)
    assert report.cases[0].failed_step == "metric_time_limit"


def test_model_settings_reach_llm_in_run_and_in_the_metric(shell):
    shell.user_ns["task"] = lambda instructions, input: "billing"
    shell.user_ns["judge"] = lambda instructions, input: "PASS"
    shell.run_line_magic("config", "SkynetMagics.task_model = task")
    shell.run_line_magic("config", "SkynetMagics.metric_model = judge")
    shell.run_cell(
        "from skynet import llm\ndef ask(artifact, input):\n    return llm(artifact, input)"
    )
    register(
        shell,
        "from skynet import llm\n"
        "def score(input, output, expected=None):\n"
        "    return (1.0 if llm('verdict?', output) == 'PASS' else 0.0), {'feedback': output}\n",
    )
    report = shell.run_line_magic("skynet_check", "--data tickets --run ask --artifact prompt")
    assert report.passed
    assert [case.score for case in report.cases] == [1.0, 1.0, 1.0]
    assert report.cases[0].feedback == "billing"


# --- %skynet_eval -------------------------------------------------------------------------


def test_eval_runs_every_case_and_returns_an_eval_report(shell):
    register(shell, GOOD)
    result, captured = cell(
        shell,
        "report = %skynet_eval --data tickets --outputs label "
        "--run classify --artifact prompt --concurrency 2",
    )
    result.raise_error()
    report = shell.user_ns["report"]
    assert isinstance(report, sj.EvalReport)
    assert len(report.cases) == 5
    assert report.mean_score == pytest.approx(0.6)
    assert report.worst()[0].score == 0.0
    assert WIDGET in captured.outputs[0].data
    # The widget and its static copy.
    assert len(display_ids(captured)) == 2 and None not in display_ids(captured)


def test_eval_options_cases_and_executor(shell):
    register(shell, GOOD)
    with ThreadPoolExecutor(2) as pool:
        shell.user_ns["pool"] = pool
        report = shell.run_line_magic(
            "skynet_eval", "--data tickets --outputs label --output-column label --executor pool"
        )
    assert report.mean_score == 1.0 and len(report.cases) == 5
    report = shell.run_line_magic(
        "skynet_eval", "--data tickets --outputs label --output-column label --cases 2"
    )
    assert len(report.cases) == 2
    with pytest.raises(UsageError, match=r"not a concurrent\.futures\.Executor"):
        shell.run_line_magic(
            "skynet_eval", "--data tickets --output-column label --executor prompt"
        )
    with pytest.raises(UsageError, match="concurrency must be"):
        shell.run_line_magic("skynet_eval", "--data tickets --output-column label --concurrency 0")


def test_eval_failures_end_the_cell_unless_no_raise(shell):
    register(shell, BAD_RETURN)
    with pytest.raises(CheckFailed, match="Evaluation finished with failures"):
        shell.run_line_magic("skynet_eval", "--data tickets --output-column label")
    report = shell.run_line_magic("skynet_eval", "--data tickets --output-column label --no-raise")
    assert not report.passed and len(report.cases) == 5


# --- help -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("magic", "words"),
    [
        ("skynet_check", ["--data EXPR", "--no-raise", "--fresh", "Example", "%skynet_check --"]),
        ("skynet_eval", ["--concurrency N", "--executor EXPR", "Example", "report.to_frame()"]),
        ("skynet_metric", ["--save PATH", "--force", "--load PATH", "Example", "def score("]),
    ],
)
def test_help_is_under_the_magics_own_name(shell, magic, words):
    _, captured = cell(shell, f"%{magic}?")
    text = captured.stdout
    assert f"%{magic} [" in text
    for word in words:
        assert word in text, word


# --- the same scenarios through the Python API ----------------------------------------------


def check_via(via: str, shell, source: str, **options):
    """The same check through the magic or through ``skynet_jupyter.check``."""
    if via == "api":
        namespace = shell.user_ns
        run = namespace[options.pop("run")] if "run" in options else None
        artifact = namespace[options.pop("artifact")] if "artifact" in options else None
        return sj.check(
            textwrap.dedent(source),
            namespace["tickets"],
            run=run,
            artifact=artifact,
            run_cache=magics(shell).run_cache,
            **options,
        )
    register(shell, source)
    line = " ".join(f"--{key.replace('_', '-')} {value}" for key, value in options.items())
    return shell.run_line_magic("skynet_check", f"--data tickets {line} --no-raise")


@pytest.mark.parametrize("via", ["magic", "api"])
@pytest.mark.parametrize(
    ("source", "passed", "failed_step", "says"),
    [
        (GOOD, True, None, "Correct."),
        (BAD_RETURN, False, "metric_return_value", "not a dict"),
        (LEAKS_IN_SCORE, False, "metric_return_value", "score uses the name 'THRESHOLD'"),
        (WITH_SPEC, True, None, "Correct."),
    ],
)
def test_same_check_through_magic_and_api(shell, via, source, passed, failed_step, says):
    shell.user_ns["THRESHOLD"] = 0.5
    report = check_via(via, shell, source, outputs="label", run="classify", artifact="prompt")
    assert report.passed is passed
    assert len(report.cases) == 3
    text = " ".join(f"{c.feedback} {c.error}" for c in report.cases)
    assert says in text
    if failed_step:
        assert report.step(failed_step).status == "failed"
    if source is WITH_SPEC:
        assert set(report.cases[0].scores) == {"accuracy", "speed", "cost"}


@pytest.mark.parametrize("via", ["magic", "api"])
def test_same_run_cache_through_magic_and_api(shell, server, via):
    program = shell.user_ns["asking"]
    for _ in range(2):
        report = check_via(via, shell, GOOD, outputs="label", run="asking", artifact="prompt")
        assert report.passed
    assert program.calls == 6 and asks(server) == 3
    assert all(case.cached for case in report.cases)


@pytest.mark.parametrize(
    ("source", "step", "says"),
    [
        (LEAKS_AT_LOAD, "metric_loads", "uses the name 'THRESHOLD'"),
        (BAD_SIGNATURE, "metric_signature", "cannot be called as score"),
        (BAD_SPEC, "reward_spec", 'has no "cost" weight'),
    ],
)
def test_same_load_failures_through_magic_and_api(shell, source, step, says):
    shell.user_ns["THRESHOLD"] = 0.5
    result, _ = cell(shell, f"%%skynet_metric\n{source}")
    assert result.error_in_exec.step == step
    assert says in str(result.error_in_exec)

    report = sj.check(source, shell.user_ns["tickets"], outputs="label", output_column="label")
    assert not report.passed
    assert report.step(step).status == "failed"
    assert says in report.step(step).message


def test_same_eval_through_magic_and_api(shell):
    register(shell, GOOD)
    options = "--data tickets --outputs label --run classify --artifact prompt"
    via_magic = shell.run_line_magic("skynet_eval", options)
    via_api = sj.evaluate(
        GOOD, shell.user_ns["tickets"], outputs="label", run=Program(), artifact="billing: charge"
    )
    assert [c.score for c in via_magic.cases] == [c.score for c in via_api.cases]


# --- a real notebook, with nbclient ---------------------------------------------------------


def _notebook():
    import nbformat

    def code(source: str, *tags: str):
        cell = nbformat.v4.new_code_cell(textwrap.dedent(source).strip())
        if tags:
            cell.metadata["tags"] = list(tags)
        return cell

    cells = {
        "load": code("%load_ext skynet_jupyter"),
        "data": code(
            """
            tickets = [
                {"text": "I was charged twice.", "label": "billing"},
                {"text": "The app crashes on start.", "label": "technical"},
                {"text": "Please refund my annual plan.", "label": "billing"},
            ]
            THRESHOLD = 0.5
            calls = []
            def classify(artifact, input):
                calls.append(input["text"])
                return "billing" if "charge" in input["text"] else "other"
            prompt = "billing: charge"
            """
        ),
        "metric": code(f"%%skynet_metric --save metric.py\n{GOOD}"),
        "check": code(f"report = {CHECK} --no-raise\nreport.passed"),
        "list": code("%skynet_metric"),
        "failing": code(f"%%skynet_metric broken\n{BAD_RETURN}"),
        "check_failing": code(f"{CHECK} --metric broken", "raises-exception"),
        "leaky": code(f"%%skynet_metric leaky\n{LEAKS_AT_LOAD}", "raises-exception"),
        "unknown": code(f"{CHECK} --metric broken --data no_such_table", "raises-exception"),
        "save_refused": code(
            f"%%skynet_metric other --save metric.py\n{ALWAYS_ONE}", "raises-exception"
        ),
        "save_forced": code(f"%%skynet_metric other --save metric.py --force\n{ALWAYS_ONE}"),
        "bare": code(f"{CHECK} --metric other"),
        "quiet": code(f"{CHECK} --metric other;"),
        "later": code("report"),
        "calls": code("len(calls)"),
    }
    notebook = nbformat.v4.new_notebook(cells=list(cells.values()))
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    return notebook, {name: index for index, name in enumerate(cells)}


def _text(cell) -> str:
    parts = []
    for output in cell.outputs:
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type == "error":
            parts.append(f"{output.ename}: {output.evalue}")
        else:
            parts.append(output.get("data", {}).get("text/html", ""))
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


@pytest.mark.slow
def test_the_edit_loop_in_a_real_notebook(tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setenv("SKYNET_LANG", "en")
    notebook, at = _notebook()
    cells = notebook.cells
    client = NotebookClient(
        notebook,
        **WAIT_FOR_OUTPUTS,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    with client.setup_kernel():
        for index, cell in enumerate(cells):
            client.execute_cell(cell, index)

        # Register and check: the check cell shows the view only (no second Out).
        assert "Saved to metric.py." in _text(cells[at["metric"]])
        check_outputs = cells[at["check"]].outputs
        displays = [o for o in check_outputs if o.output_type == "display_data"]
        assert len(displays) == 2 and WIDGET in displays[0].data  # the widget, its static copy
        assert "Contract check passed" in displays[1].data["text/html"]
        results = [o for o in check_outputs if o.output_type == "execute_result"]
        assert [o.data["text/plain"] for o in results] == ["True"]
        assert str(tmp_path / "metric.py") in _text(cells[at["list"]])

        # A failing check ends its cell with one line, after the report.
        failing = cells[at["check_failing"]].outputs
        assert [o.output_type for o in failing] == ["display_data", "display_data", "error"]
        assert failing[-1].ename == "CheckFailed"
        assert len(failing[-1].traceback) == 1
        cells.append(nbformat.v4.new_code_cell(cells[at["check_failing"]].source))
        with pytest.raises(CellExecutionError):  # untagged, it stops "Run All" there
            client.execute_cell(cells[-1], len(cells) - 1)

        # A metric that is not self-contained, an unknown variable: one sentence each.
        leaky = cells[at["leaky"]].outputs[-1]
        assert leaky.ename == "ContractError" and "'THRESHOLD'" in leaky.evalue
        unknown = _text(cells[at["unknown"]])  # IPython prints a UsageError as one line
        assert (
            unknown.strip()
            == "UsageError: --data no_such_table: no notebook variable or file by that name."
        )

        # --save without --force leaves another metric's file alone, and the cell ends in
        # error (untagged, "Run All" would stop there); with --force, it writes.
        refusal = _text(cells[at["save_refused"]]).strip()
        assert refusal.startswith("UsageError: Not saved: metric.py") and "Add --force" in refusal
        assert "Saved to metric.py." in _text(cells[at["save_forced"]])
        assert "Fine." in (tmp_path / "metric.py").read_text()

        # A check as the cell's last line shows its view and no Out; ';' hides it all;
        # a stored report shows itself in a later cell.
        bare = cells[at["bare"]].outputs
        assert [o.output_type for o in bare] == ["display_data"] * 2 and WIDGET in bare[0].data
        assert cells[at["quiet"]].outputs == []
        (later,) = cells[at["later"]].outputs
        assert "skynet-report" in later.data["text/html"] and WIDGET not in later.data

        # Edit the metric cell so that it breaks the contract, run it again:
        # the check cell's view updates in place, and run() is not called again.
        client.execute_cell(cells[at["calls"]], at["calls"])
        before_edits = cells[at["calls"]].outputs[0].data["text/plain"]
        assert int(before_edits) >= 3  # run runs at every check (issue 23)
        cells[at["metric"]].source = f"%%skynet_metric\n{BAD_RETURN}"
        client.execute_cell(cells[at["metric"]], at["metric"])
        assert "Contract check failed — Metric return value" in _text(cells[at["metric"]])
        view = cells[at["check"]].outputs[1]  # the static copy, updated in place too
        assert "Contract check failed" in view.data["text/html"]
        assert "not a dict" in view.data["text/html"]

        # Fix it again: the same view passes again.
        cells[at["metric"]].source = f"%%skynet_metric\n{GOOD}"
        client.execute_cell(cells[at["metric"]], at["metric"])
        assert "Contract check passed" in cells[at["check"]].outputs[1].data["text/html"]

        client.execute_cell(cells[at["calls"]], at["calls"])
        assert cells[at["calls"]].outputs[0].data["text/plain"] == before_edits  # a replay


def test_config_model_also_answers_llm_outside_a_check(shell):
    from skynet_jupyter.models.settings import configure

    try:
        cell(shell, "%config SkynetMagics.task_model = lambda instructions, input: 'from config'")
        result, _ = cell(shell, "from skynet import llm\nllm('Say something.')")
        assert result.result == "from config"
    finally:
        configure(reset=True)


# --- two-argument metrics, copies, columns ------------------------------------------------

TWO_ARGS_SCORED = """
def score(input, output):
    ok = output == "billing"
    return (1.0 if ok else 0.25), {"feedback": f"{output}: {input['text']}",
                                   "scores": {"words": len(input["text"].split()) / 10}}
"""

VANDAL = """
def score(input, output, expected=None):
    input["text"] = "vandalised"
    expected["label"] = "vandalised"
    output.append("vandal")
    return 1.0, {"feedback": "Fine."}
"""


def test_a_two_argument_metric_through_the_check_magic(shell):
    register(shell, TWO_ARGS_SCORED)
    report = shell.run_line_magic(
        "skynet_check", "--data tickets --outputs label --run classify --artifact prompt"
    )
    assert report.passed, report
    assert [c.output for c in report.cases] == ["billing", "other", "other"]
    assert [c.score for c in report.cases] == [1.0, 0.25, 0.25]
    assert [c.scores["words"] for c in report.cases] == [
        pytest.approx(0.4),
        pytest.approx(0.5),
        pytest.approx(0.7),
    ]
    assert report.cases[0].feedback == "billing: I was charged twice."
    evaluated = shell.run_line_magic("skynet_eval", "--data tickets --output-column label")
    assert [c.score for c in evaluated.cases] == [1.0, 0.25, 0.25, 1.0, 0.25]


def test_a_mutating_metric_and_run_change_nothing_through_the_edit_loop_and_cache(shell, server):
    tickets = shell.user_ns["tickets"]
    before = [dict(row) for row in tickets]
    calls = []

    def vandal_run(artifact, input):
        from skynet import llm

        calls.append(input["text"])
        input["text"] = "run changed me"
        return [llm(artifact, "refund")]  # "billing", from the model, then from the cache

    shell.user_ns["vandal_run"] = vandal_run
    register(shell, VANDAL)
    line = "--data tickets --outputs label --run vandal_run --artifact prompt"
    reports = [shell.run_line_magic("skynet_check", line)]
    # The check's three cases ask alike, side by side: one asks, the others wait for its
    # answer (first_contact), for 2 s at most; a first call slower than that (a loaded
    # machine) lets them ask too.  From then on, every answer comes from the cache.
    asked = asks(server)
    assert 1 <= asked <= 3
    reports.append(shell.run_line_magic("skynet_check", line))  # from the run cache
    assert all(case.cached for case in reports[-1].cases)
    _, edited = cell(shell, f"%%skynet_metric\n{VANDAL}")  # the edit loop re-checks
    assert "Re-ran the last check of 'default'" in edited.stdout
    reports.append(magics(shell).last_checks["default"].view.report)
    assert len(calls) == 6 and asks(server) == asked  # run at each check, not in the replay
    assert tickets == before  # the notebook's data
    for report in reports:
        assert report.passed, report
        assert [c.input for c in report.cases] == [{"text": t["text"]} for t in before[:3]]
        assert [c.expected for c in report.cases] == [{"label": t["label"]} for t in before[:3]]
        assert [c.output for c in report.cases] == [["billing"]] * 3


def test_inputs_and_split_in_the_magics(shell):
    shell.user_ns["rows"] = [
        {"text": f"t{n}", "noise": n, "label": "billing", "split": "test" if n % 2 else "train"}
        for n in range(8)
    ]
    shell.user_ns["splits"] = {
        "train": [{"text": "x", "label": "billing"}],
        "test": [
            {"text": "charged", "noise": 1, "label": "billing"},
            {"text": "crash", "noise": 2, "label": "technical"},
        ],
    }
    seen = []
    shell.user_ns["record"] = lambda artifact, input: seen.append(dict(input)) or "billing"
    register(shell, GOOD)
    report = shell.run_line_magic(
        "skynet_check",
        "--data rows --outputs label --inputs text --split test --output-column label --cases 9",
    )
    assert [c.input for c in report.cases] == [{"text": f"t{n}"} for n in (1, 3, 5, 7)]
    report = shell.run_line_magic(
        "skynet_eval",
        "--data splits --split test --outputs label --inputs text,noise --run record "
        "--artifact prompt --no-raise",
    )
    assert seen == [{"text": "charged", "noise": 1}, {"text": "crash", "noise": 2}]
    assert [c.input for c in report.cases] == seen
    assert [c.score for c in report.cases] == [1.0, 0.0]
    result, _ = cell(shell, "%skynet_check --data rows --output-column label --split dev")
    assert isinstance(result.error_in_exec, UsageError)
    assert "No rows in split 'dev'; the splits present are: test, train." in str(
        result.error_in_exec
    )
