"""The user's files, read (never run) before the child starts: the metric, the run file
and the artifact.

Each problem found here is one sentence naming the file: missing, a
directory, unreadable, not text in its encoding, or a syntax error (with its
line).  Nothing of the user's code runs in this process.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.metric import SourceFileError, read_source
from ..i18n import t
from .exits import UsageProblem

__all__ = ["import_folders", "read_sources", "run_file"]


def run_file(run: str) -> str:
    """The file of ``--run FILE.py:FUNC`` (or of ``--run FILE.py``)."""
    return run.rpartition(":")[0] if ":" in run else run


def import_folders(metric: str, run: object) -> list[str]:
    """The folders the user's code imports from: the metric's, then the run file's.

    As ``python metric.py`` (and Skynet, loading ``metric.py`` from its folder) would
    have it, ``from helpers import ...`` finds a module beside the file, whatever
    the current directory: ``skynet-check proj/metric.py`` works from ``proj``'s parent.
    """
    files = [metric] + ([run_file(run)] if isinstance(run, str) else [])
    folders: list[str] = []
    for file in files:
        folder = str(Path(file).resolve().parent)
        if folder not in folders:
            folders.append(folder)
    return folders


def read_sources(args: argparse.Namespace, metric: str, lang: str | None = None) -> str | None:
    """Check the metric and run files compile; the artifact's text (None without one).

    Each problem is said in ``lang`` (by default the command's).
    """
    _compiled(Path(metric), "metric", lang)
    if args.run is not None:
        _compiled(Path(run_file(args.run)), "run", lang)
    if args.artifact_text is not None:
        return str(args.artifact_text)
    if args.artifact is None:
        return None
    return _artifact_text(args.artifact, lang)


# What skynet-check says when the file of a role is missing.
_NO_FILE = {"metric": "cli.no_metric_file", "run": "cli.no_run_file"}


def _compiled(path: Path, role: str, lang: str | None) -> None:
    try:
        source = read_source(path)
    except SourceFileError as problem:
        if problem.message_id == "source.missing":
            raise UsageProblem(t(_NO_FILE[role], lang, path=str(path))) from None
        raise UsageProblem(problem.message(lang)) from None
    try:
        compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise UsageProblem(
            t("cli.syntax_error", lang, path=str(path), line=exc.lineno or 0, error=exc.msg),
            file=str(path),
            line=exc.lineno,
        ) from None
    except ValueError as exc:  # source with a NUL byte
        raise UsageProblem(t("cli.not_source", lang, path=str(path), error=exc)) from None


def _artifact_text(given: str, lang: str | None) -> str:
    path = Path(given)
    if not path.exists():
        raise UsageProblem(t("cli.no_artifact_file", lang, path=given))
    if path.is_dir():
        raise UsageProblem(t("cli.artifact_directory", lang, path=given))
    if not path.is_file():  # a pipe or a device: reading it could block
        raise UsageProblem(t("source.not_regular", lang, path=given))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageProblem(
            t("source.unreadable", lang, path=given, error=exc.strerror or exc)
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageProblem(
            t(
                "cli.artifact_not_utf8",
                lang,
                path=given,
                byte=f"0x{data[exc.start]:02x}",
                line=data.count(b"\n", 0, exc.start) + 1,
            )
        ) from None
