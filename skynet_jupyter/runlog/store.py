"""The run log's files: written atomically, listed, read, removed; a folder or fsspec.

:class:`LocalStore` writes each record to a temporary file in the same folder and
renames it into place (``os.replace``, atomic on POSIX and Windows), so a reader
never sees half a record and two writers (two kernels, parallel CI jobs) never
write the same file: each run has its own id.  :class:`RemoteStore` does the same
through ``fsspec`` (the optional ``[remote]`` extra): an object store writes an
object whole, in one request.  A metric's source is written once per version.

Reading never fails a listing: a record that cannot be read is skipped with one
warning naming its file (:mod:`.schema` says what is damaged, what is newer).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..i18n import t
from .location import LogLocation

__all__ = [
    "RUNS",
    "SOURCES",
    "LocalStore",
    "RemoteStore",
    "RunFile",
    "RunLogUnreachable",
    "RunLogWarning",
    "Store",
    "open_store",
]

RUNS, SOURCES = "runs", "sources"
SUFFIX = ".jsonl"
HEAD_BYTES = 65_536  # a head longer than this is read whole
SOURCE_GRACE_S = 3_600.0  # a source no run names is removed by prune only once this old
_ERROR_CHARS = 200  # a back end's error, as the sentence about an unreachable log quotes it


class RunLogWarning(UserWarning):
    """The run log could not be written, or a record in it could not be read."""


class RunLogUnreachable(ConnectionError):
    """The run log cannot be listed (a URL nothing answers, a folder that is a file or
    cannot be read); ``str()`` names the log and what to check."""


@dataclass(frozen=True, slots=True)
class RunFile:
    """A record's file: its name (the run id + ``.jsonl``), size, and where it is."""

    name: str
    size: int
    where: str  # as a sentence names it

    @property
    def run_id(self) -> str:
        return self.name.removesuffix(SUFFIX)


class Store(Protocol):
    location: LogLocation

    def write_run(self, run_id: str, data: bytes) -> None: ...
    def write_source(self, version: str, text: str) -> None: ...
    def run_files(self) -> list[RunFile]: ...
    def heads(self, files: list[RunFile]) -> Iterator[tuple[RunFile, bytes | BaseException]]: ...
    def read_run(self, file: RunFile) -> bytes: ...
    def read_source(self, version: str) -> str | None: ...
    def remove_run(self, file: RunFile) -> None: ...
    def source_ages(self) -> dict[str, float | None]: ...
    def remove_source(self, version: str) -> None: ...


def open_store(location: LogLocation) -> Store:
    """The store of ``location``: a folder, or an fsspec URL (needs ``[remote]``)."""
    if location.path is not None:
        return LocalStore(location)
    return RemoteStore(location)


def _is_version(version: str) -> bool:
    return len(version) == 12 and all(c in "0123456789abcdef" for c in version)


def _first_line(data: bytes) -> bytes:
    end = data.find(b"\n")
    return data if end < 0 else data[: end + 1]


class LocalStore:
    """A run log in a local folder."""

    def __init__(self, location: LogLocation) -> None:
        assert location.path is not None
        self.location = location
        self.root = location.path

    def write_run(self, run_id: str, data: bytes) -> None:
        folder = self.root / RUNS
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomic(folder / f"{run_id}{SUFFIX}", data)

    def write_source(self, version: str, text: str) -> None:
        folder = self.root / SOURCES
        target = folder / f"{version}.py"
        if target.exists():
            return
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomic(target, text.encode("utf-8", "surrogatepass"))

    def run_files(self) -> list[RunFile]:
        folder = self.root / RUNS
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            return []
        except OSError as problem:  # the log is a file, or a folder this user cannot read
            error = str(problem.strerror or problem).lower()  # "not a directory"
            said = t("history.unreadable_folder", path=self.location.shown, error=error)
            raise RunLogUnreachable(said) from None
        found = []
        for entry in entries:
            if entry.name.endswith(SUFFIX) and not entry.name.startswith("."):
                with contextlib.suppress(OSError):  # removed meanwhile (a prune)
                    found.append(RunFile(entry.name, entry.stat().st_size, entry.path))
        return found

    def heads(self, files: list[RunFile]) -> Iterator[tuple[RunFile, bytes | BaseException]]:
        for file in files:
            try:
                with open(file.where, "rb") as stream:
                    yield file, stream.readline()
            except OSError as problem:
                yield file, problem

    def read_run(self, file: RunFile) -> bytes:
        return Path(file.where).read_bytes()

    def read_source(self, version: str) -> str | None:
        if not _is_version(version):  # a name of this log's sources/, never a path
            return None
        try:
            return (self.root / SOURCES / f"{version}.py").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def remove_run(self, file: RunFile) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(file.where)

    def source_ages(self) -> dict[str, float | None]:
        ages: dict[str, float | None] = {}
        now = time.time()
        with contextlib.suppress(FileNotFoundError):
            for entry in os.scandir(self.root / SOURCES):
                if entry.name.endswith(".py") and not entry.name.startswith("."):
                    with contextlib.suppress(OSError):
                        ages[entry.name.removesuffix(".py")] = now - entry.stat().st_mtime
        return ages

    def remove_source(self, version: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.root / SOURCES / f"{version}.py")


def _write_atomic(target: Path, data: bytes) -> None:
    """``data`` in ``target``, whole or not at all: a temporary file, then a rename."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


class RemoteStore:
    """A run log at an fsspec URL (``s3://bucket/runs``): the ``[remote]`` extra."""

    def __init__(self, location: LogLocation) -> None:
        assert location.url is not None
        self.location = location
        try:
            import fsspec  # type: ignore[import-untyped, unused-ignore]  # no py.typed
        except ImportError:
            raise ImportError(t("history.needs_fsspec", url=location.shown)) from None
        self.fs, root = fsspec.core.url_to_fs(location.url)
        self.root = str(root).rstrip("/")
        self.protocol = location.url.split("://", 1)[0]

    def _path(self, *parts: str) -> str:
        return "/".join([self.root, *parts])

    def _shown(self, path: str) -> str:
        return f"{self.protocol}://{path}"

    def write_run(self, run_id: str, data: bytes) -> None:
        self.fs.pipe_file(self._path(RUNS, f"{run_id}{SUFFIX}"), data)

    def write_source(self, version: str, text: str) -> None:
        path = self._path(SOURCES, f"{version}.py")
        if not self.fs.exists(path):
            self.fs.pipe_file(path, text.encode("utf-8", "surrogatepass"))

    def _listed(self, folder: str) -> list[dict[str, Any]]:
        try:
            self.fs.invalidate_cache(self._path(folder))
            entries = self.fs.ls(self._path(folder), detail=True)
        except FileNotFoundError:
            return []
        except Exception as problem:  # each back end raises its own (botocore, aiohttp...)
            raise self._unreachable(problem) from None
        return [entry for entry in entries if entry.get("type", "file") == "file"]

    def _unreachable(self, problem: BaseException) -> RunLogUnreachable:
        """One sentence naming the log and what to check, instead of the back end's error
        (a connection error's text names an endpoint, never the log the user gave)."""
        from ..core.secrets import redact

        error = " ".join(redact(f"{type(problem).__name__}: {problem}").split())
        if len(error) > _ERROR_CHARS:
            error = error[: _ERROR_CHARS - 1] + "…"
        return RunLogUnreachable(t("history.unreachable", url=self.location.shown, error=error))

    def run_files(self) -> list[RunFile]:
        found = []
        for entry in self._listed(RUNS):
            name = str(entry["name"]).rsplit("/", 1)[-1]
            if name.endswith(SUFFIX) and not name.startswith("."):
                found.append(RunFile(name, int(entry.get("size") or 0), str(entry["name"])))
        return found

    def heads(self, files: list[RunFile]) -> Iterator[tuple[RunFile, bytes | BaseException]]:
        """The first lines, read in one batch of ranged reads (concurrent where fsspec can)."""
        if not files:
            return
        paths = [file.where for file in files]
        ends = [min(file.size, HEAD_BYTES) for file in files]
        try:
            blocks: Iterable[Any] = self.fs.cat_ranges(paths, [0] * len(paths), ends)
        except Exception as problem:  # the batch failed as a whole: one at a time says which
            blocks = [problem] * len(paths)
        for file, block in zip(files, blocks, strict=True):
            if isinstance(block, BaseException):
                try:
                    block = self.fs.cat_file(file.where, start=0, end=min(file.size, HEAD_BYTES))
                except Exception as problem:
                    yield file, problem
                    continue
            line = _first_line(block)
            if not line.endswith(b"\n") and file.size > len(block):
                try:
                    line = _first_line(self.fs.cat_file(file.where))
                except Exception as problem:
                    yield file, problem
                    continue
            yield file, line

    def read_run(self, file: RunFile) -> bytes:
        data: bytes = self.fs.cat_file(file.where)
        return data

    def read_source(self, version: str) -> str | None:
        if not _is_version(version):
            return None
        try:
            data: bytes = self.fs.cat_file(self._path(SOURCES, f"{version}.py"))
            return data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        except Exception:  # fsspec back ends raise their own errors for a missing object
            return None

    def remove_run(self, file: RunFile) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm_file(file.where)

    def source_ages(self) -> dict[str, float | None]:
        ages: dict[str, float | None] = {}
        now = time.time()
        for entry in self._listed(SOURCES):
            name = str(entry["name"]).rsplit("/", 1)[-1]
            if not name.endswith(".py"):
                continue
            modified = entry.get("LastModified") or entry.get("mtime") or entry.get("created")
            stamp = getattr(modified, "timestamp", None)
            seconds = stamp() if callable(stamp) else modified
            ages[name.removesuffix(".py")] = (
                now - float(seconds) if isinstance(seconds, int | float) else None
            )
        return ages

    def remove_source(self, version: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm_file(self._path(SOURCES, f"{version}.py"))


def warn(message: str) -> None:
    """One warning, attributed to the caller of the public function (not to this module)."""
    warnings.warn(message, RunLogWarning, stacklevel=4)
