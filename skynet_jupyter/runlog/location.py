"""Where the run log is: ``log=``, else ``configure(run_log=...)``, else ``SKYNET_RUN_LOG``,
else ``.skynet_runs`` in the working directory (the run cache's ``.skynet_cache`` rule).

A location is a folder or an fsspec URL (``s3://bucket/runs``: a team shares one
log across machines and CI).  ``False``, ``0`` (or ``"0"``, ``"off"``, ``"false"``,
``"no"`` in the variable) turns the log off; ``True`` (or ``"1"``, ``"on"``, ``"true"``,
``"yes"``) is the default place.  A folder is resolved when the run
is recorded, so a later ``os.chdir`` does not move a run already on its way.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.secrets import masked, remember_secrets

__all__ = [
    "DEFAULT_FOLDER",
    "ENV_VARIABLE",
    "LogLocation",
    "is_off",
    "is_on",
    "resolve_location",
]

DEFAULT_FOLDER = ".skynet_runs"
ENV_VARIABLE = "SKYNET_RUN_LOG"
_OFF_WORDS = frozenset({"0", "false", "no", "off", "none"})
# SKYNET_RUN_LOG=1 means "on", as True does: never a folder named "1" or "true".
_ON_WORDS = frozenset({"1", "true", "yes", "on"})
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


@dataclass(frozen=True, slots=True)
class LogLocation:
    """A run log's place: a local folder (``path``) or an fsspec URL (``url``)."""

    path: Path | None = None
    url: str | None = None

    def __post_init__(self) -> None:
        # A password in the URL is hidden wherever it shows up, also where a back end
        # quotes the URL its own way ('Invalid bucket name "alice:PASSWORD@bucket"').
        if self.url is not None:
            remember_secrets({"api_base": self.url})

    @property
    def shown(self) -> str:
        """The place as a sentence may name it: a password in a URL is never shown."""
        if self.url is not None:
            shown: str = masked(self.url)
            return shown
        return str(self.path)

    def __str__(self) -> str:
        return self.shown


def is_off(value: Any) -> bool:
    """Whether a setting's value turns the log off (``False``, ``0``, ``"off"``...)."""
    if value is False or (isinstance(value, int) and not isinstance(value, bool) and value == 0):
        return True
    return isinstance(value, str) and value.strip().lower() in _OFF_WORDS


def is_on(value: Any) -> bool:
    """Whether a setting's value means "on, in the default place" (``True``, ``"1"``...)."""
    if value is True or (isinstance(value, int) and not isinstance(value, bool) and value == 1):
        return True
    return isinstance(value, str) and value.strip().lower() in _ON_WORDS


def _configured() -> Any:
    from ..models.settings import configured_run_log

    return configured_run_log()


def resolve_location(log: Any = None, *, cwd: Path | None = None) -> LogLocation | None:
    """The log's place (None: the log is off), from ``log`` or the settings.

    ``log`` is a folder, a URL, ``True``/``1``/``"on"`` (the default place),
    ``False``/``0``/``"off"`` (off), or None (the settings decide).
    """
    value = log if log is not None else _configured()
    if value is None:
        env = os.environ.get(ENV_VARIABLE, "").strip()
        value = env or True
    if is_off(value):
        return None
    if is_on(value):
        return LogLocation(path=(cwd or Path.cwd()) / DEFAULT_FOLDER)
    if isinstance(value, LogLocation):
        return value
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        raise TypeError(
            f"run_log must be a folder, an fsspec URL, True or False, not {type(value).__name__}"
        )
    text = value.strip()
    if text.startswith("file://"):
        text = text[len("file://") :]
    elif _URL.match(text):
        return LogLocation(url=text.rstrip("/"))
    path = Path(text).expanduser()
    return LogLocation(path=path if path.is_absolute() else (cwd or Path.cwd()) / path)
