"""Run outputs kept on disk, so a kernel restart does not pay for the task model again.

``RunStore`` is a small sqlite file (standard library; WAL mode, so two
kernels or two processes may write at once).  ``output_key`` names one
output by everything that produced it: the run function's code, the values
its closure and plain-data globals hold, the artifact, the case's input and
the task model's settings.  A model's API key is never part of the key (nor
stored): a new key keeps the outputs, a new model does not.

Anything that cannot be named stably across processes (an object with no
stable form) gets no key: that output is simply not kept on disk.  A corrupt
or unreadable file is a warning and a fresh run, never a crash or a wrong
output.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import pickle
import sqlite3
import threading
import time
import types
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["RunStore", "model_identity", "output_key"]

SCHEMA = 2  # change it when what a key covers changes
# Settings of a litellm dict model that hold credentials, never part of a key.
SECRET_FIELDS = frozenset({"api_key", "api_secret", "password", "token", "extra_headers"})
_DEPTH = 3  # how far into referenced functions a key looks


class _Unstable(Exception):
    """A value with no form that is the same in another process."""


# --- naming an output ------------------------------------------------------------------


def output_key(run: Any, artifact: Any, case_input: Any, task_model: Any = None) -> str | None:
    """A hex digest naming the output of ``run(artifact, case_input)``, or None if unstable."""
    digest = hashlib.sha256(f"skynet-run-output/{SCHEMA}".encode())
    try:
        _feed(digest, _function_identity(run, _DEPTH, set()))
        _feed(digest, artifact)
        _feed(digest, case_input)
        _feed(digest, model_identity(task_model))
    except (_Unstable, RecursionError):
        return None
    return digest.hexdigest()


def model_identity(model: Any) -> Any:
    """What makes a model answer differently: its name and settings, never its key."""
    if model is None or isinstance(model, str):
        return model
    if isinstance(model, Mapping):
        return {str(k): v for k, v in sorted(model.items(), key=str) if str(k) not in SECRET_FIELDS}
    if isinstance(model, types.FunctionType | types.MethodType):
        return _function_identity(model, _DEPTH, set())
    # A callable object (StandInModel, a user class): its type and its settings, the
    # scalars and functions it holds.  Containers are left out: they are usually
    # records that grow with every call (StandInModel.calls), not settings.
    state = getattr(model, "__dict__", {})
    settings = {}
    for name, value in sorted(state.items()):
        if name in SECRET_FIELDS:
            continue
        if isinstance(value, _SCALARS):
            settings[name] = _data(value)
        elif isinstance(value, types.FunctionType):
            settings[name] = _function_identity(value, _DEPTH, set())
    return (
        type(model).__module__,
        type(model).__qualname__,
        _function_identity(type(model).__call__, _DEPTH, set()),
        settings,
    )


def _function_identity(func: Any, depth: int, seen: set[int]) -> Any:
    if isinstance(func, types.MethodType):
        return ("method", _function_identity(func.__func__, depth, seen), _data(func.__self__))
    if isinstance(func, types.FunctionType):
        if id(func) in seen:
            return ("recursive", func.__qualname__)
        seen = seen | {id(func)}
        code = func.__code__
        closure = tuple(
            _value_identity(cell.cell_contents, depth, seen) for cell in func.__closure__ or ()
        )
        # What the body reads from its globals (a prompt template, a compiled pattern, a
        # helper function): changing it changes the output.  Modules and classes count by
        # name; a value with no stable form makes the whole key unstable (never stale).
        referenced: list[tuple[str, Any]] = []
        for name in global_names(code):
            if name not in func.__globals__:
                continue
            value = func.__globals__[name]
            if isinstance(value, types.ModuleType):
                referenced.append((name, ("module", value.__name__)))
            elif isinstance(value, type):
                referenced.append((name, ("class", value.__module__, value.__qualname__)))
            elif isinstance(value, types.FunctionType | types.MethodType):
                referenced.append((name, _value_identity(value, depth - 1, seen)))
            elif isinstance(value, types.BuiltinFunctionType):
                referenced.append((name, ("builtin", getattr(value, "__qualname__", name))))
            else:
                referenced.append((name, _data(value)))
        return (
            func.__module__,
            func.__qualname__,
            _code_identity(code),
            closure,
            tuple(referenced),
            _data(func.__defaults__),
            _data(func.__kwdefaults__),
        )
    if callable(func):
        call = type(func).__call__
        state = getattr(func, "__dict__", {})
        return (
            type(func).__module__,
            type(func).__qualname__,
            _function_identity(call, depth, seen) if isinstance(call, types.FunctionType) else None,
            {k: _value_identity(v, depth - 1, seen) for k, v in sorted(state.items())},
        )
    raise _Unstable(type(func).__name__)


def global_names(code: types.CodeType) -> list[str]:
    """Names a function's code (and the code nested in it) may read from its globals."""
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names.extend(global_names(const))
    return sorted(set(names))


def _code_identity(code: types.CodeType) -> Any:
    consts = tuple(
        _code_identity(const) if isinstance(const, types.CodeType) else _data(const)
        for const in code.co_consts
    )
    return (code.co_code, consts, code.co_names, code.co_varnames)


def _value_identity(value: Any, depth: int, seen: set[int]) -> Any:
    if isinstance(value, types.FunctionType | types.MethodType):
        if depth <= 0:
            return ("function", value.__qualname__)
        return _function_identity(value, depth, seen)
    return _data(value)


_SCALARS = (str, int, float, bool, bytes, type(None))


def _data(value: Any) -> Any:
    """``value`` as nested tuples of scalars, the same in every process, or _Unstable."""
    if isinstance(value, bool | int | str | bytes | type(None)):
        return value
    if isinstance(value, float):
        return ("float", value.hex() if math.isfinite(value) else repr(value))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_data(item) for item in value))
    if isinstance(value, set | frozenset):
        return ("set", tuple(sorted((_data(item) for item in value), key=repr)))
    if isinstance(value, Mapping):
        items = [(_data(k), _data(v)) for k, v in value.items()]
        return ("map", tuple(sorted(items, key=repr)))
    item = getattr(value, "item", None)  # NumPy scalars
    if callable(item) and type(value).__module__ == "numpy":
        return _data(item())
    try:
        # Anything else that pickles deterministically (dataclasses of data, say).
        return ("pickle", type(value).__qualname__, pickle.dumps(value, protocol=5))
    except Exception as exc:
        raise _Unstable(type(value).__name__) from exc


def _feed(digest: Any, value: Any) -> None:
    digest.update(repr(_freeze(value)).encode("utf-8", "surrogatepass"))
    digest.update(b"\x00")


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted(((repr(k), _freeze(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return tuple(_freeze(item) for item in value)
    if isinstance(value, float):
        return ("float", value.hex() if math.isfinite(value) else repr(value))
    if isinstance(value, bool | int | str | bytes | type(None)):
        return value
    return _data(value)


# --- the file -------------------------------------------------------------------------


class RunStore:
    """Outputs on disk, one sqlite file: ``get(key)``, ``put(key, value)``, ``clear()``.

    Safe for concurrent writers (WAL, a busy timeout).  Values are pickled;
    an output that does not pickle is not kept.  Any failure to read or write
    warns once and leaves the run to happen for real.
    """

    def __init__(self, path: str | os.PathLike[str], *, warn: Callable[[str], None] | None = None):
        self.path = Path(path).expanduser()
        self._warn = warn or (lambda text: warnings.warn(text, RuntimeWarning, stacklevel=3))
        self._local = threading.local()
        self._broken = False
        self._warned = False

    # A connection per thread: sqlite connections are not shared across threads.
    def _connection(self) -> sqlite3.Connection | None:
        if self._broken:
            return None
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is not None:
            return connection
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(
                "CREATE TABLE IF NOT EXISTS outputs ("
                "key TEXT PRIMARY KEY, value BLOB NOT NULL, saved REAL NOT NULL)"
            )
            connection.execute("PRAGMA quick_check").fetchone()
        except (sqlite3.Error, OSError) as exc:
            self._fail("opened", exc)
            return None
        self._local.connection = connection
        return connection

    def _fail(self, doing: str, exc: BaseException) -> None:
        self._broken = True
        if not self._warned:
            self._warned = True
            self._warn(
                f"The run cache {str(self.path)!r} could not be {doing} "
                f"({type(exc).__name__}: {exc}); outputs come from a fresh run instead. "
                "Delete the file (or use %skynet_cache --clear) to start a new cache."
            )

    def get(self, key: str) -> Any | None:
        connection = self._connection()
        if connection is None:
            return None
        try:
            row = connection.execute("SELECT value FROM outputs WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            self._fail("read", exc)
            return None
        if row is None:
            return None
        try:
            return pickle.load(io.BytesIO(row[0]))
        except Exception:  # one damaged entry is a miss, not a failure of the whole cache
            return None

    def put(self, key: str, value: Any) -> bool:
        try:
            blob = pickle.dumps(value, protocol=5)
        except Exception:
            return False  # an output that does not pickle stays in the kernel only
        connection = self._connection()
        if connection is None:
            return False
        try:
            connection.execute(
                "INSERT OR REPLACE INTO outputs (key, value, saved) VALUES (?, ?, ?)",
                (key, blob, time.time()),
            )
        except sqlite3.Error as exc:
            self._fail("written", exc)
            return False
        return True

    def __len__(self) -> int:
        connection = self._connection()
        if connection is None:
            return 0
        try:
            return int(connection.execute("SELECT COUNT(*) FROM outputs").fetchone()[0])
        except sqlite3.Error as exc:
            self._fail("read", exc)
            return 0

    def size_bytes(self) -> int:
        """The file's size on disk, with its write-ahead log."""
        total = 0
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{self.path}{suffix}")
            if part.exists():
                total += part.stat().st_size
        return total

    def clear(self) -> int:
        """Forget every output (a broken file is removed); how many were forgotten."""
        count = 0 if self._broken else len(self)
        self.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        self._broken = False
        self._warned = False
        return count

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    def __repr__(self) -> str:
        return f"RunStore({str(self.path)!r})"
