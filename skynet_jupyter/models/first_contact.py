"""A model's key is tried once per run: the first request to an endpoint with a key goes
alone, and a key the provider refuses is never sent again in that run.

Without this, a refused API key is sent by every case in flight at once: eight
threads, four worker processes or every chunk of an executor each ask the
provider before the first answer (HTTP 401) comes back, and each case then
fails on its own (issue 43).  Here, per run and per (endpoint, key):

- the first call goes; the calls that come meanwhile wait for its answer, for at most
  two seconds (a refusal comes at once: a first call unanswered that long is slow or
  hung, and the others go);
- an answer that is not a key refusal (a reply, or any other error) lets every
  call go, as before;
- a key refusal (HTTP 401 or 403, litellm's ``AuthenticationError``) is
  remembered: every later call of the run fails at once with the same
  provider error, marked not sent (:class:`RefusedBefore`), and no request
  leaves with that key again.

A run's :class:`FirstContact` is two strings, so it travels with the runner to
worker processes: the ones on this machine (``isolation="process"``, a process
pool, a local Dask cluster) share its folder, where the first answer is written
and a file lock says who asks first.  A worker on another machine, where the
folder does not exist, keeps the rule within its own process.  A key is known by
a digest of the credentials a call could send (never the key itself).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["FirstContact", "RefusedBefore", "is_key_refusal", "key_digest", "release_thread"]

T = TypeVar("T")

_WAIT = 0.02  # seconds between looks while another call asks first
# How long a call waits for another's first answer before going all the same: a provider
# refuses a key at once, so a first call still unanswered this long is being worked on
# (a slow model, or a request that hangs), and holding the others back would make every
# case wait for it.
_HOLD = 2.0
_KEEP_RUNS = 16  # runs whose gates a process keeps (a pool's workers serve many runs)
_OK = "ok"
_REFUSED = "refused"
_NO_KEY_SAID = ("missing credentials", "api_key client option must be set")


class RefusedBefore(Exception):
    """A call not sent: an earlier call of this run found its key refused.

    It carries that answer's status and words (``status_code``, ``message``), so it
    reads as the provider's refusal wherever errors are read; ``not_sent`` says no
    request left.
    """

    not_sent = True

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status
        self.message = message


def is_key_refusal(error: BaseException) -> bool:
    """Whether a provider's ``error`` refuses the key: HTTP 401 or 403, an
    ``AuthenticationError``, or an OpenAI client that had no key to send."""
    status = getattr(error, "status_code", None)
    if status in (401, 403):
        return True
    if any(cls.__name__ == "AuthenticationError" for cls in type(error).__mro__):
        return True
    told = str(getattr(error, "message", None) or error).lower()
    return any(words in told for words in _NO_KEY_SAID)


def key_digest(call: Mapping[str, Any], endpoint: tuple[str, str]) -> str:
    """A digest of the endpoint and of every credential the call could send: the
    ``api_key`` given, the providers' key variables, litellm's own key settings.  A new
    key is a new digest (asked first again); the key itself is never kept."""
    parts: list[str] = [*endpoint]
    for name in ("api_key", "azure_ad_token"):
        value = call.get(name)
        parts.append(value if isinstance(value, str) else "")
    # Every variable a provider's key may be read from (OPENAI_API_KEY, TOGETHER_AI_TOKEN..).
    parts.extend(
        f"{name}={value}"
        for name, value in sorted(os.environ.items())
        if name.endswith(("_KEY", "_TOKEN"))
    )
    litellm = sys.modules.get("litellm")
    if litellm is not None:
        for name in sorted(vars(litellm)):
            value = getattr(litellm, name, None)
            if (name == "api_key" or name.endswith("_key")) and isinstance(value, str):
                parts.append(f"{name}={value}")
    return hashlib.blake2b("\0".join(parts).encode(), digest_size=12).hexdigest()


@dataclass(frozen=True, slots=True)
class FirstContact:
    """One run's first-contact rule: its id, and the folder shared with its worker
    processes on this machine (None: the run's cases all run in this process)."""

    run: str
    folder: str | None = None

    @classmethod
    def for_run(cls, shared: bool) -> FirstContact:
        """A new run's rule; ``shared``: its cases may run in other processes."""
        folder = tempfile.mkdtemp(prefix="skynet-contact-") if shared else None
        return cls(uuid.uuid4().hex, folder)

    def close(self) -> None:
        """The run is over: its folder goes (its gate in this process is forgotten later)."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def send(
        self, call: Mapping[str, Any], endpoint: tuple[str, str], request: Callable[[], T]
    ) -> T:
        """``request()`` under the rule: alone if it is the first with its key, not at all
        if its key was refused (:class:`RefusedBefore`)."""
        return _gate(self).send(key_digest(call, endpoint), request)


class _Gate:
    """A run's rule in one process: what each key's first call found, and who asks first."""

    def __init__(self, folder: str | None) -> None:
        self.folder = folder if folder is not None and os.path.isdir(folder) else None
        self.lock = threading.Lock()
        self.found: dict[str, tuple[str, int, str]] = {}  # digest -> (state, status, words)
        self.asking: dict[str, int] = {}  # digest -> the thread asking first

    def send(self, digest: str, request: Callable[[], T]) -> T:
        held_until = time.monotonic() + _HOLD
        while True:
            found = self._found(digest)
            if found is not None:
                return self._as_found(found, request)
            lock_file = self._ask_first(digest)
            if lock_file is False:
                if time.monotonic() >= held_until:  # no quick refusal: a slow first call
                    return request()
                time.sleep(_WAIT)  # another call asks first: its answer decides
                continue
            try:
                found = self._found(digest)  # it may have answered just before
                if found is not None:
                    return self._as_found(found, request)
                return self._first(digest, request)
            finally:
                self._done_asking(digest, lock_file)

    @staticmethod
    def _as_found(found: tuple[str, int, str], request: Callable[[], T]) -> T:
        state, status, words = found
        if state == _REFUSED:
            raise RefusedBefore(status, words)
        return request()

    def _first(self, digest: str, request: Callable[[], T]) -> T:
        try:
            answer = request()
        except Exception as error:
            # The provider's answer rides on the limiter's CallFailed as ``error``; anything
            # else (the case abandoned, no place at the provider) is no answer at all.
            cause = getattr(error, "error", None)
            if isinstance(cause, BaseException) and is_key_refusal(cause):
                status = getattr(cause, "status_code", None)
                words = str(getattr(cause, "message", None) or cause)
                self._write(digest, (_REFUSED, status if isinstance(status, int) else 401, words))
            elif isinstance(cause, BaseException):  # answered, not about the key: all may ask
                self._write(digest, (_OK, 0, ""))
            raise
        self._write(digest, (_OK, 0, ""))
        return answer

    # --- what the first call found ------------------------------------------------------

    def _found(self, digest: str) -> tuple[str, int, str] | None:
        found = self.found.get(digest)
        if found is None and self.folder is not None:
            found = _read(os.path.join(self.folder, digest + ".json"))
            if found is not None:
                self.found[digest] = found
        return found

    def _write(self, digest: str, found: tuple[str, int, str]) -> None:
        self.found[digest] = found
        if self.folder is not None:
            path = os.path.join(self.folder, digest + ".json")
            with contextlib.suppress(OSError):  # the run ended meanwhile: nobody reads it
                partial = f"{path}.{os.getpid()}.{threading.get_ident()}"
                with open(partial, "w", encoding="utf-8") as file:
                    json.dump(list(found), file)
                os.replace(partial, path)  # readers see all of it or nothing

    # --- who asks first -----------------------------------------------------------------

    def _ask_first(self, digest: str) -> Any:
        """The file lock held (or None without a folder) when this call asks first;
        False when another call does."""
        with self.lock:
            asking = self.asking.get(digest)
            if asking is not None:
                return False
            self.asking[digest] = threading.get_ident()
        if self.folder is None:
            return None
        lock_file = _try_lock(os.path.join(self.folder, digest + ".lock"))
        if lock_file is False:
            with self.lock:
                self.asking.pop(digest, None)
        return lock_file

    def _done_asking(self, digest: str, lock_file: Any) -> None:
        if lock_file is not None:
            _unlock(lock_file)
        with self.lock:
            if self.asking.get(digest) == threading.get_ident():  # not released meanwhile
                del self.asking[digest]

    def release(self, thread: int) -> None:
        """``thread`` was abandoned while asking first (its case ran out of time, the
        request hangs): the next call asks instead.  Its file lock stays until it
        returns; another process then waits for it as for a first call."""
        with self.lock:
            for digest, asking in list(self.asking.items()):
                if asking == thread:
                    del self.asking[digest]


def _read(path: str) -> tuple[str, int, str] | None:
    try:
        with open(path, encoding="utf-8") as file:
            state, status, words = json.load(file)
    except (OSError, ValueError, TypeError):
        return None
    return str(state), int(status), str(words)


def _try_lock(path: str) -> Any:
    """An open file holding an exclusive lock on ``path``, or False when another process
    holds it (POSIX; elsewhere the rule holds within each process)."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        file = open(path, "a+b")  # noqa: SIM115  (held until _unlock)
    except OSError:
        return None  # the run's folder is gone: this process decides alone
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        file.close()
        return False
    return file


def _unlock(file: Any) -> None:
    with contextlib.suppress(OSError):
        file.close()  # closing releases the lock


_gates: OrderedDict[str, _Gate] = OrderedDict()
_gates_lock = threading.Lock()


def _gate(contact: FirstContact) -> _Gate:
    """This process's gate of ``contact``'s run (made on first use)."""
    with _gates_lock:
        gate = _gates.get(contact.run)
        if gate is None:
            gate = _gates[contact.run] = _Gate(contact.folder)
            while len(_gates) > _KEEP_RUNS:
                _gates.popitem(last=False)
        else:
            _gates.move_to_end(contact.run)
        return gate


def _forget_in_child() -> None:
    """A forked child starts with no gate: a lock another thread held at the fork would
    stay held forever there (its runs' gates are found again from their folders)."""
    global _gates_lock
    _gates_lock = threading.Lock()
    _gates.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def release_thread(thread: int | None) -> None:
    """The case on ``thread`` was abandoned: a first call it was making no longer holds
    the others back (called with the limiter's ``abandon``)."""
    if thread is None:
        return
    with _gates_lock:
        gates = list(_gates.values())
    for gate in gates:
        gate.release(thread)
