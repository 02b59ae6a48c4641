"""A magic's argparse parser is built when it first runs, and the help ``%magic?`` shows when
it is asked for, not when ``%load_ext`` defines the magics (issue 26: IPython's
``magic_arguments`` built all ten, and formatted their help, at every load); the help and
the usage errors are IPython's.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import types

import pytest
from IPython.core.error import UsageError
from IPython.core.magic_arguments import magic_arguments

from skynet_jupyter.notebook.magics import SkynetMagics

# In a fresh interpreter: the parsers made by %load_ext, then by %skynet_check? and a run.
COUNTED = """
import argparse, json
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.error import UsageError

made = []
original = argparse.ArgumentParser.__init__
def counted(self, *args, **kwargs):
    made.append(kwargs.get("prog") or (args[0] if args else None))
    original(self, *args, **kwargs)
argparse.ArgumentParser.__init__ = counted
formatted = []
format_help = argparse.ArgumentParser.format_help
def counted_help(self):
    formatted.append(self.prog)
    return format_help(self)
argparse.ArgumentParser.format_help = counted_help

shell = InteractiveShell.instance()  # IPython's own magics build theirs
made.clear()
formatted.clear()
shell.run_line_magic("load_ext", "skynet_jupyter")
steps = {"load": list(made), "load_help": list(formatted)}
made.clear()
help_text = shell.object_inspect_text("%skynet_check")
steps["help"] = list(made)
formatted.clear()
made.clear()
try:
    shell.run_line_magic("skynet_eval", "--data rows --no-such-option")
except UsageError as problem:
    steps["error"] = str(problem)
steps["run"] = list(made)
steps["run_help"] = list(formatted)
steps["text"] = help_text
print(json.dumps(steps))
"""

MAGICS = [
    "skynet_metric",
    "skynet_check",
    "skynet_eval",
    "skynet_optimize",
    "skynet_align",
    "skynet_cache",
    "skynet_probe",
    "skynet_stability",
    "skynet_agree",
    "skynet_compare",
]


def counted() -> dict:
    done = subprocess.run(
        [sys.executable, "-c", COUNTED], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_load_ext_builds_no_parser_and_each_magic_builds_its_own_at_first_use():
    steps = counted()
    assert steps["load"] == [] and steps["load_help"] == []
    assert steps["help"] == ["skynet_check"]  # %skynet_check? builds that one only
    assert steps["run"] == ["skynet_eval"]
    assert steps["run_help"] == []  # running a magic formats no help
    assert steps["error"] == "unrecognized arguments: --no-such-option"
    text = steps["text"]
    assert "Run the 3-case contract check on a registered metric" in text
    for option in ("--data EXPR", "--output-column COL", "--run-timeout S", "--no-raise"):
        assert option in text
    assert "the registered metric to use (default: default)" in text  # an option's help


def built_by_ipython(magic: str) -> types.FunctionType:
    """The same function decorated with IPython's own magic_arguments: today's help."""
    lazy = getattr(SkynetMagics, magic)
    func = lazy.__wrapped__
    twin = types.FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__)
    twin.__annotations__ = func.__annotations__
    twin.__doc__ = lazy.parser.description  # the docstring as written
    twin.has_arguments = True  # type: ignore[attr-defined]
    twin.decorators = list(func.decorators)  # type: ignore[attr-defined]
    return magic_arguments(lazy.argcmd_name)(twin)


@pytest.mark.parametrize("magic", MAGICS)
def test_the_help_is_what_magic_arguments_makes_and_lists_every_option(magic, shell):
    twin = built_by_ipython(magic)
    bound = shell.find_line_magic(magic)
    assert inspect.getdoc(bound) == inspect.getdoc(twin)
    assert getattr(SkynetMagics, magic).__doc__ == twin.__doc__
    shown = shell.object_inspect_text("%" + magic)
    for action in bound.parser._actions:
        for option in action.option_strings:
            assert option in shown, f"%{magic}? does not list {option}"
    assert inspect.signature(bound) == inspect.signature(types.MethodType(twin, object()))


@pytest.mark.parametrize("line", ["--no-such-option", "--cases x", "--lang zz", "--data"])
def test_a_wrong_option_reads_as_magic_arguments_words_it(line):
    twin = built_by_ipython("skynet_check")
    with pytest.raises(UsageError) as ours:
        SkynetMagics.skynet_check.parser.parse_argstring(line)
    with pytest.raises(UsageError) as theirs:
        twin.parser.parse_argstring(line)
    assert str(ours.value) == str(theirs.value)
