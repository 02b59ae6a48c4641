"""``%load_ext skynet_jupyter`` imports no engine, no measurement, no optimizer, no
pandas and no ipywidgets; the first check on a list of dicts imports no pandas, and
ipywidgets only when it shows its view (issue 26: a fresh kernel's first steps).

Each scenario runs in a fresh interpreter with its own IPython shell, so nothing this
test run imported counts.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from skynet_jupyter.notebook import magics

SCENARIO = """
import json, sys
from IPython.core.interactiveshell import InteractiveShell

shell = InteractiveShell.instance()
steps = {{}}
before = set(sys.modules)
shell.run_line_magic("load_ext", "skynet_jupyter")
steps["load"] = sorted(set(sys.modules) - before)
shell.run_cell('''%%skynet_metric
def score(input, output, expected):
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {{"feedback": "Correct." if ok else "Wrong label."}}
''').raise_error()
shell.user_ns["rows"] = [
    {{"question": "2+2?", "label": "4", "prediction": "4"}},
    {{"question": "Paris?", "label": "yes", "prediction": "yes"}},
]
before = set(sys.modules)
line = "--data rows --outputs label --output-column prediction"
shell.run_cell("r = %skynet_check " + line + "{end}").raise_error()
assert shell.user_ns["r"].passed
steps["check"] = sorted(set(sys.modules) - before)
print(json.dumps(steps))
"""

NOT_AT_LOAD = (
    "skynet_jupyter.run",
    "skynet_jupyter.quality",
    "skynet_jupyter.optimizers",
    "skynet_jupyter.alignment",
    "skynet_jupyter.show.render",
    "skynet_jupyter.notebook.widgets",
)


def imported(end: str = "") -> dict[str, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", SCENARIO.format(end=end)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    steps = json.loads(done.stdout.splitlines()[-1])
    return {step: set(names) for step, names in steps.items()}


def packages(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def test_load_ext_imports_no_engine_no_measurement_and_nothing_heavy():
    steps = imported()
    load = steps["load"]
    assert "skynet_jupyter.notebook.magics" in load
    early = sorted(n for n in load if n.startswith(NOT_AT_LOAD) or n in NOT_AT_LOAD)
    assert early == []
    assert not packages(load) & {"pandas", "numpy", "ipywidgets", "litellm", "gepa", "dspy"}
    # The first check brings the engine and its view, and still no pandas.
    check = steps["check"]
    assert {"skynet_jupyter.run.engine", "ipywidgets"} <= check
    assert not packages(check) & {"pandas", "numpy", "pyarrow"}


def test_load_ext_leaves_metric_loading_and_redaction_and_a_check_without_models_the_client():
    steps = imported(end=";")  # the view hidden: what the check itself imports
    # The metric loader comes with the first %%skynet_metric, redaction with the first model.
    assert not {"skynet_jupyter.core.metric", "skynet_jupyter.core.secrets"} & steps["load"]
    # No model configured: the check needs neither the llm client nor the rate limiter.
    assert not {"skynet_jupyter.models.llm", "skynet_jupyter.models.rate_limit"} & steps["check"]


def test_a_check_whose_view_is_hidden_imports_no_widgets():
    steps = imported(end=";")
    assert "skynet_jupyter.run.engine" in steps["check"]
    assert not packages(steps["check"]) & {"ipywidgets", "pandas", "numpy"}


def test_telling_a_terminal_imports_no_terminal_shell(monkeypatch):
    name = "IPython.terminal.interactiveshell"
    monkeypatch.delitem(sys.modules, name, raising=False)
    assert magics._in_terminal(object()) is False
    assert name not in sys.modules  # a kernel is never asked to import prompt_toolkit
    monkeypatch.undo()
    from IPython.terminal.interactiveshell import TerminalInteractiveShell

    shell = TerminalInteractiveShell.__new__(TerminalInteractiveShell)  # not started
    assert magics._in_terminal(shell) is True
    assert magics._in_terminal(object()) is False


@pytest.mark.parametrize("magic", ["skynet_probe", "skynet_optimize", "skynet_align"])
def test_the_magics_whose_work_is_imported_late_still_show_their_options(magic):
    # The help lists the options at %load_ext, before the work behind them is imported.
    doc = " ".join(getattr(magics.SkynetMagics, magic).__doc__.split())  # unwrapped
    assert "--data" in doc and "--lang" in doc
    if magic == "skynet_probe":
        assert "expected, empty, echo_input, other_case, all_expected, long, injection" in doc


SHOWN_CHECK = """
import json, sys
from IPython.core.interactiveshell import InteractiveShell

shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "skynet_jupyter")
shell.run_cell('''%%skynet_metric
def score(input, output, expected):
    ok = output == expected["label"]
    return (1.0 if ok else 0.0), {"feedback": "Correct." if ok else "Wrong label."}
''').raise_error()
shell.user_ns["rows"] = [{"question": "2+2?", "label": "4", "prediction": "4"}]
shell.run_cell("r = %skynet_check --data rows --outputs label --output-column prediction")
assert shell.user_ns["r"].passed
from skynet_jupyter.core import secrets
from skynet_jupyter.show import terminal_text
print(json.dumps({
    "modules": sorted(sys.modules),
    "secret patterns": secrets._secret_patterns.cache_info().currsize,
    "control characters": terminal_text._controls.cache_info().currsize,
}))
"""


def test_a_first_check_with_its_view_leaves_the_limiter_the_store_and_two_patterns():
    # Issue 26: the view reads the rate limiter only if something imported it, the run
    # cache opens its sqlite store at its first look-up, and two sets of patterns a plain
    # first check never uses are compiled when first used (~15 ms at every start).
    done = subprocess.run(
        [sys.executable, "-c", SHOWN_CHECK], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.splitlines()[-1])
    modules = set(said["modules"])
    assert "skynet_jupyter.notebook.widgets" in modules  # the view was shown
    assert not {"skynet_jupyter.models.rate_limit", "skynet_jupyter.models.call_store"} & modules
    assert said["secret patterns"] == 0 and said["control characters"] == 0
