"""IPython's magic decorators and ``magic_arguments``, typed, in one place.

IPython ships ``py.typed`` but leaves ``IPython.core.magic_arguments`` and the
``line_magic`` family without annotations, so under mypy's strict flags every
call of theirs is an "untyped call" and every magic an "untyped decorator".
Each is wrapped here once, with the one ``type: ignore`` that says so, and the
rest of ``notebook/`` imports these instead.  Each ignore also names ``unused-ignore``:
IPython annotates these one release at a time (9.0 did ``no_var_expand``), and mypy
must pass with the IPython of the lock and with the newest one (``.ci/run --latest``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from IPython.core import magic as _magic
from IPython.core import magic_arguments as _arguments

__all__ = [
    "Decorator",
    "argument",
    "argument_group",
    "line_cell_magic",
    "line_magic",
    "magic_parser",
    "no_var_expand",
    "parse_line",
]

Decorator = Callable[[Any], Any]
"""A magic_arguments decorator: it marks the function it is given and returns it."""


def argument(*names: str, **options: Any) -> Decorator:
    """``magic_arguments.argument``: one option (a decorator with ``add_to_parser``)."""
    made: Decorator = _arguments.argument(*names, **options)  # type: ignore[no-untyped-call, unused-ignore]  # unannotated in IPython up to 9.19
    return made


def argument_group(title: str) -> Decorator:
    """``magic_arguments.argument_group``: the options declared after it sit under ``title``."""
    made: Decorator = _arguments.argument_group(title)  # type: ignore[no-untyped-call, unused-ignore]  # unannotated in IPython up to 9.19
    return made


def magic_parser(name: str, **options: Any) -> _arguments.MagicArgumentParser:
    """A ``MagicArgumentParser`` (IPython's argparse parser that raises UsageError)."""
    return _arguments.MagicArgumentParser(name, **options)  # type: ignore[no-untyped-call, unused-ignore]  # unannotated in IPython up to 9.19


def parse_line(magic: Any, line: str) -> argparse.Namespace:
    """``parse_argstring``: the magic's line, parsed by the parser its decorators declared."""
    parsed: argparse.Namespace = _arguments.parse_argstring(magic, line)  # type: ignore[no-untyped-call, unused-ignore]  # unannotated in IPython up to 9.19
    return parsed


def line_magic(func: Any) -> Any:
    """``IPython.core.magic.line_magic``: registers ``func`` as a line magic of its class."""
    return _magic.line_magic(func)


def line_cell_magic(func: Any) -> Any:
    """``IPython.core.magic.line_cell_magic``: a magic with a line form and a cell form."""
    return _magic.line_cell_magic(func)


def no_var_expand(func: Any) -> Any:
    """``IPython.core.magic.no_var_expand``: ``$x`` and ``{x}`` reach the magic as written."""
    return _magic.no_var_expand(func)  # type: ignore[no-untyped-call, unused-ignore]  # unannotated in IPython 8, annotated in 9
