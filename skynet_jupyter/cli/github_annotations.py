"""``--format github``: the report as GitHub Actions workflow commands, before the text.

A failed step is ``::error file=metric.py,line=N,title=STEP::why``, at the
metric's own line where one is known (the last frame of the metric file in a
case's traceback, else ``def score`` or ``REWARD_SPEC`` for the steps about
them); a step whose traceback is in the run file points there.  The feedback
advice is ``::warning``.  One command per distinct message: three cases
failing the same way are one annotation.

Escaped as GitHub's own toolkit escapes (``@actions/core``, ``command.ts``): in
the message ``%`` ``\\r`` ``\\n`` become ``%25`` ``%0D`` ``%0A`` (every other
Unicode line break ``%0A`` too); in a property ``:`` and ``,`` also become ``%3A``
``%2C``.  Texts are redacted, and their control characters, lone surrogates and
bidirectional controls shown (``#x1B``), so a feedback cannot recolour the log.
``file=`` is relative to the repository's root (``GITHUB_WORKSPACE``), as GitHub
reads it.  The text report printed after the commands is inside
``::stop-commands::`` (see :mod:`.log_text`).
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import t
from ..show.terminal_text import visible_controls

if TYPE_CHECKING:
    from ..core.report import CheckReport, Step

__all__ = [
    "escape_data",
    "escape_property",
    "report_annotations",
    "usage_annotation",
    "workflow_command",
]

_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# Bidirectional embeddings, overrides and isolates: they reorder what a reader sees.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def escape_data(text: str) -> str:
    """A workflow command's message, as GitHub reads it.

    Every other line break (VT, FF, FS, GS, RS, NEL, U+2028, U+2029) is a line break
    too, written ``%0A``: a reader that splits lines there must not see a second command.
    """
    escaped = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return _OTHER_BREAKS.sub("%0A", escaped)


def escape_property(text: str) -> str:
    """A workflow command's property value (``file=``, ``title=``), as GitHub reads it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, message: str, **properties: object) -> str:
    """``::command prop=value,...::message``; properties that are None are left out."""
    given = ",".join(
        f"{name}={escape_property(_visible(str(value)))}"
        for name, value in properties.items()
        if value is not None
    )
    head = f"::{command} {given}" if given else f"::{command}"
    return f"{head}::{escape_data(_visible(message))}"


def _visible(text: str) -> str:
    """``text`` with its line breaks kept (escaped later) and every other control character,
    lone surrogate or bidirectional control shown as ``#x1B``."""
    text = _OTHER_BREAKS.sub("\n", text)
    return _BIDI.sub(lambda found: f"#x{ord(found.group()):04X}", visible_controls(text))


def report_annotations(report: CheckReport, metric: str) -> list[str]:
    """The workflow commands of ``report`` (a check of the metric file ``metric``)."""
    from ..core.report import ADVICE, FAILED
    from ..core.secrets import Redactor
    from ..show.render import bounded, cases_missing_unsaid, interrupted_line, step_hint

    clean, lang = Redactor(), report.lang
    commands: list[str] = []
    for step in report.steps:
        if step.status not in (FAILED, ADVICE):
            continue
        lines = [bounded(step.message, lang, clean)] if step.message else []
        hint = step_hint(step, lang, clean)
        if hint:
            lines.append(t("labelled", lang, label=hint[0], text=hint[1]))
        file, line = _location(step, report, metric)
        command = "error" if step.status == FAILED else "warning"
        said = "\n".join(lines) or step.title
        commands.append(workflow_command(command, said, file=file, line=line, title=step.title))
    if cases_missing_unsaid(report):
        title = t("junit.all_cases_ran", lang)
        commands.append(
            workflow_command("error", interrupted_line(report), file=_shown(metric), title=title)
        )
    return list(dict.fromkeys(commands))  # one per distinct message, in the report's order


def usage_annotation(file: str, message: str, line: int | None) -> str:
    """The command of a metric that gave no report (``file`` does not load: its line, if known)."""
    from ..core.secrets import redact

    return workflow_command(
        "error", redact(message), file=_shown(file), line=line, title="skynet-check"
    )


def _location(step: Step, report: CheckReport, metric: str) -> tuple[str, int | None]:
    """Where a step failed: (file as GitHub reads it, line or None)."""
    from ..core.contract import METRIC_SIGNATURE, REWARD_SPEC

    metric_file = os.path.realpath(metric)
    elsewhere: tuple[str, int] | None = None
    for case in report.cases:
        if case.failed_step != step.id or not case.traceback:
            continue
        frames = [(found["file"], int(found["line"])) for found in _FRAME.finditer(case.traceback)]
        mine = [line for file, line in frames if os.path.realpath(file) == metric_file]
        if mine:
            return _shown(metric), mine[-1]
        if frames and elsewhere is None:  # the run file's line, say
            elsewhere = frames[-1]
    if elsewhere is not None:
        return _shown(elsewhere[0]), elsewhere[1]
    if step.id in (METRIC_SIGNATURE, REWARD_SPEC):
        return _shown(metric), _defined_at(
            metric, "score" if step.id == METRIC_SIGNATURE else "REWARD_SPEC"
        )
    return _shown(metric), None


def _defined_at(metric: str, name: str) -> int | None:
    """The line where the metric file defines ``name`` at its top level (None: not found)."""
    from ..core.metric import SourceFileError, read_source

    try:
        tree = ast.parse(read_source(Path(metric)))
    except (SourceFileError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return node.lineno
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            return node.lineno
    return None


def _shown(file: str) -> str:
    """A path as GitHub resolves it: relative to the repository's root.

    That root is ``GITHUB_WORKSPACE`` (set in every GitHub Actions job), else the
    nearest folder holding ``.git`` above the current one, else the current
    folder.  A file outside it is given by its absolute path (no annotation can
    land on it, but the message still names it).
    """
    absolute = Path(os.path.abspath(file))
    root = _workspace()
    try:
        resolved = (root.resolve(), absolute.resolve())
    except (OSError, ValueError):  # a name the file system cannot hold (a lone surrogate)
        resolved = (root, absolute)
    for base, path in ((root, absolute), resolved):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return absolute.as_posix()


def _workspace() -> Path:
    """The folder GitHub reads an annotation's ``file=`` from (see :func:`_shown`)."""
    given = os.environ.get("GITHUB_WORKSPACE")
    if given:
        return Path(os.path.abspath(given))
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here
