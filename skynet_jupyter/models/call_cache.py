"""Model calls kept, keyed on the request as sent: :class:`CallCache`.

What a model answers depends on the request, not on the Python code that
built it, so the key is the request: a SHA-256 over a canonical JSON of the
litellm arguments of one ``llm()`` call (the model string, ``api_base``,
every argument that may change the reply: ``temperature``, ``top_p``,
``max_tokens``, ``seed``, ``stop``, ``response_format``, ``tools``...) and the
messages as sent.  Secrets are left out (``api_key``, credential headers: a
new key keeps the replies), and so is what only changes how the call is made
(retries, timeouts, prices).  The run function itself runs every time; when
all its calls are found here it costs only its own Python time.

A reply found here keeps what the call it came from measured (its latency,
tokens and cost), so a case counts it exactly as if the call were made now.
Only litellm models are kept: a callable model or ``StandInModel`` is local
(and free), and is always called.  Replies live in memory and, with a
``path``, in a sqlite file (:mod:`.call_store`) that survives a restart and is
shared by kernels and processes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import weakref
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..core.secrets import (
    CREDENTIAL_ARGUMENTS,
    CREDENTIAL_HEADERS,
    credential_argument,
    credential_header,
    credential_parameter,
    masked,
)

if TYPE_CHECKING:
    from .call_store import CallStore, Cleared

__all__ = [
    "CREDENTIAL_ARGUMENTS",
    "CREDENTIAL_HEADERS",
    "CachedReply",
    "CallCache",
    "is_credential_argument",
    "is_credential_header",
    "request_key",
    "request_text",
    "stable_order",
    "stable_text",
]

SCHEMA = 2  # change it when what a key covers, or what a record holds, changes

# litellm arguments that change how a call is made, never what the model answers.
_NOT_IN_KEY = frozenset(
    {
        "retry_strategy",
        "retry_policy",
        "max_retries",
        "num_retries",
        "timeout",
        "request_timeout",
        "stream_timeout",
        "metadata",
        "caching",
        "cache",
        "client",
        "logger_fn",
        "input_cost_per_token",
        "output_cost_per_token",
        "mock_timeout",
    }
)


@dataclass(frozen=True, slots=True)
class CachedReply:
    """A reply as the call that made it measured it (``cost_usd=None``: price unknown)."""

    text: str
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    latency_ms: float

    def record(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> CachedReply | None:
        """The reply a stored record holds, or None (a miss) for any other shape."""
        try:
            text, latency = record["text"], float(record["latency_ms"])
            cost = record["cost_usd"]
            reply = cls(
                text,
                int(record["input_tokens"]),
                int(record["output_tokens"]),
                None if cost is None else float(cost),
                latency,
            )
        except (KeyError, TypeError, ValueError):
            return None
        return reply if isinstance(text, str) else None


class _NoKey(Exception):
    """A request holding a value with no canonical form: that call is not kept."""


_HIDDEN = "[credential]"  # a credential header's value in the key: which one, never said
_URL_ARGUMENTS = frozenset({"api_base", "base_url"})  # user:PASSWORD@host: the password out


def request_key(call: Mapping[str, Any]) -> str | None:
    """The key of one litellm call (its ``litellm.completion`` arguments), or None.

    None: an argument has no canonical JSON form (an object whose text would
    hold its address), so the call is made and not kept, never mixed up.
    """
    text = request_text(call)
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def request_text(call: Mapping[str, Any]) -> str | None:
    """The canonical JSON text :func:`request_key` hashes: no credential is in it."""
    identity = {}
    for name, value in call.items():
        if str(name) in _NOT_IN_KEY or is_credential_argument(str(name)):
            continue  # with or without a key in the settings, the request is the same
        if _HEADERS.search(str(name)):
            value = _without_credentials(value)
        elif str(name) in _URL_ARGUMENTS and isinstance(value, str):
            value = url_without_credentials(value)
        identity[str(name)] = value
    # The arguments in name order (a call's keywords have none), but every value as it is
    # sent: a JSON schema's properties, a tool's parameters, the messages keep their order,
    # which the model reads (structured output writes its fields in schema order).
    request = dict(sorted(identity.items()))
    try:
        return json.dumps(
            {"schema": SCHEMA, "request": request},
            ensure_ascii=False,
            separators=(",", ":"),
            default=_canonical,
        )
    except (_NoKey, TypeError, ValueError, RecursionError):
        return None


_HEADERS = re.compile(r"headers?$", re.IGNORECASE)


def url_without_credentials(url: str) -> str:
    """``url`` with its user information and every credential parameter hidden: a new
    key (or a key given another way) asks the same request."""
    try:
        parts = urlsplit(url)
        host = parts.netloc.rpartition("@")
    except ValueError:
        return str(masked(url))
    netloc = (_HIDDEN + "@" + host[2]) if host[1] else parts.netloc
    query = [
        (name, _HIDDEN if credential_parameter(name) else value)
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
    ]
    shown = urlunsplit((parts.scheme, netloc, parts.path, urlencode(query), parts.fragment))
    return str(masked(shown))


# The one credential rule (core/secrets.py), by the names this module has always had.
is_credential_argument = credential_argument
is_credential_header = credential_header


def _without_credentials(headers: Any) -> Any:
    """Headers with every credential's value hidden; every other value as it is sent."""
    if isinstance(headers, Mapping):
        return {
            name: _HIDDEN if credential_header(name, value) else value
            for name, value in headers.items()
        }
    if isinstance(headers, list | tuple):  # pairs, as some HTTP clients take them
        return [_item_without_credentials(item) for item in headers]
    if isinstance(headers, str) and _CREDENTIAL_TEXT.search(headers):  # "Name: value" text
        return _HIDDEN
    return headers


def _item_without_credentials(item: Any) -> Any:
    """One header of a list: a (name, value, ...) pair or a "Name: value" line."""
    if isinstance(item, list | tuple) and len(item) >= 2:
        if credential_header(item[0], item[1]):
            return [item[0], _HIDDEN]
        return item
    return _without_credentials(item) if isinstance(item, str) else item


_CREDENTIAL_TEXT = re.compile(
    "|".join(
        [r"\b(?:bearer|basic|digest|token)\s+\S", r"-(?:api|auth)-key\b", r"-token\s*[:=]"]
        + [rf"(?<![\w-]){re.escape(name)}\s*[:=]" for name in sorted(CREDENTIAL_HEADERS)]
    ),
    re.IGNORECASE,
)


def _canonical(value: Any) -> Any:
    """A JSON form for what ``json`` does not know: the form litellm sends, or _NoKey."""
    schema = getattr(value, "model_json_schema", None)  # a pydantic model class
    if isinstance(value, type) and callable(schema):
        return {"schema_of": value.__qualname__, "schema": schema()}
    dump = getattr(value, "model_dump", None)  # a pydantic model instance
    if callable(dump):
        return dump(mode="json")
    if isinstance(value, set | frozenset):
        return stable_order(value)  # never hash order: the same after a restart
    # A NumPy array or scalar: tolist(), as item() refuses an array of more than one value.
    tolist = getattr(value, "tolist", None)
    if callable(tolist) and type(value).__module__ == "numpy":
        return tolist()
    raise _NoKey(type(value).__name__)


def stable_text(value: Any) -> str:
    """``str(value)``, but a set's items sorted by their text, at any depth.

    A set's own order is its hash order, which changes with ``PYTHONHASHSEED``: the same
    request would differ at every restart (and never be found in the run cache).
    """
    if isinstance(value, set | frozenset):
        if not value:
            return f"{type(value).__name__}()"
        items = "{" + ", ".join(_item_text(item) for item in stable_order(value)) + "}"
        return items if type(value) is set else f"{type(value).__name__}({items})"
    return str(value)


def stable_order(items: set[Any] | frozenset[Any]) -> list[Any]:
    """A set's items sorted by their text (their repr, with their own sets sorted)."""
    return sorted(items, key=_item_text)


def _item_text(value: Any) -> str:
    """An item's repr, as ``str`` of its container shows it, with its own sets sorted."""
    if isinstance(value, set | frozenset):
        return stable_text(value)
    if type(value) is tuple:
        inner = ", ".join(_item_text(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


class CallCache:
    """Replies of model calls by :func:`request_key`: in memory, and in a file with ``path``.

    ``reads`` False: every call is made again and its reply replaces the old
    one (``--fresh``, ``fresh=True``); ``judge_reads`` False: only the judge's calls are made
    again (``stability`` measures the judge, so it must really ask it).
    ``hits`` / ``misses`` count this cache's look-ups in this process.
    """

    def __init__(
        self,
        store: MutableMapping[str, CachedReply] | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
        fresh: bool = False,
    ) -> None:
        self.store: MutableMapping[str, CachedReply] = {} if store is None else store
        self._disk: CallStore | None = None
        self._path = _checked(path)  # its store is made at first use: see ``disk``
        self.reads = not fresh  # fresh: ask every model again, keeping the new replies
        self.judge_reads = not fresh
        self._counts = _Counts()

    def __getstate__(self) -> dict[str, Any]:
        # To a worker process or a Dask node: the file and the policy, not the kernel's
        # replies (the file has them, and a worker's replies reach it too).
        return {"disk": self.disk, "reads": self.reads, "judge_reads": self.judge_reads}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.store, self.disk, self._counts = {}, state["disk"], _Counts()
        self.reads, self.judge_reads = state["reads"], state["judge_reads"]

    @property
    def disk(self) -> CallStore | None:
        """The sqlite file's store (None: in memory only); made when first asked for."""
        # A kernel's first check names the file but a check without a model never reads
        # it: the store (and its module) wait for the first look-up.
        found = self._disk
        if found is None and self._path is not None:
            from .call_store import CallStore

            with _MAKING:  # worker threads may look up at once: one store for all
                if self._disk is None and self._path is not None:
                    self._disk, self._path = CallStore(self._path), None
                found = self._disk
        return found

    @disk.setter
    def disk(self, store: CallStore | None) -> None:
        self._disk, self._path = store, None

    # --- views -----------------------------------------------------------------------

    def _view(self, reads: bool, judge_reads: bool) -> CallCache:
        view = CallCache(self.store)
        view.disk, view._counts = self.disk, self._counts
        view.reads, view.judge_reads = reads, judge_reads
        return view

    def fresh(self) -> CallCache:
        """This cache, written to but not read from (``--fresh``: every call made again)."""
        return self._view(False, False)

    def fresh_judge(self) -> CallCache:
        """This cache, but the judge's calls are made again (and replace what was kept)."""
        return self._view(self.reads, False)

    def use_file(self, path: str | os.PathLike[str] | None) -> None:
        """Keep replies in the file at ``path`` from now on (None: in memory only)."""
        if self._disk is not None:
            self._disk.close()
        self._disk, self._path = None, _checked(path)

    # --- look-ups ----------------------------------------------------------------------

    def get(self, key: str) -> CachedReply | None:
        """The reply kept for ``key`` (memory first, then the file), counted as a hit or miss."""
        found = self.store.get(key)
        if self.disk is not None and self.disk.pending:
            self.disk.flush()  # replies a lock kept from the file: written once it is free
        if found is None and self.disk is not None:
            record = self.disk.get(key)
            found = None if record is None else CachedReply.from_record(record)
            if found is not None:
                self.store[key] = found
        self._counts.add(found is not None)
        return found

    def asked(self) -> None:
        """A call made without a look-up (``--fresh``): counted with the misses, as asked."""
        self._counts.add(False)

    def put(self, key: str, reply: CachedReply) -> None:
        self.store[key] = reply
        if self.disk is not None:
            self.disk.put(key, reply.record())

    def unwritten(self) -> dict[str, str]:
        """The replies this process could not write to the file (another process holds it
        locked), taken out: a worker hands them to the process that started the run."""
        store = self.disk
        if store is None or not store.pending or store.flush():
            return {}
        return store.take_pending()

    def adopt(self, replies: dict[str, str]) -> None:
        """Replies a worker could not write: kept here, written once the file is free."""
        store = self.disk
        if replies and store is not None:
            store.adopt(replies)

    @property
    def hits(self) -> int:
        return self._counts.hits

    @property
    def misses(self) -> int:
        return self._counts.misses

    def clear(self) -> int:
        """Forget every reply, in memory and on disk; how many were forgotten."""
        return self.empty().count

    def empty(self) -> Cleared:
        """:meth:`clear`, saying what was done to the file (a damaged one is removed)."""
        count = len(self.store)
        self.store.clear()
        self._counts.reset()
        from .call_store import Cleared

        if self.disk is None:
            return Cleared(count)
        done = self.disk.clear()
        return Cleared(max(count, done.count), done.removed, done.kept_directory)

    def __len__(self) -> int:
        return max(len(self.store), 0 if self.disk is None else len(self.disk))

    def __repr__(self) -> str:
        where = "memory" if self.disk is None else str(self.disk.path)
        return f"<{type(self).__name__} {len(self.store)} replies in memory; {where}>"


_MAKING = threading.Lock()
_ALL_COUNTS: weakref.WeakSet[_Counts] = weakref.WeakSet()  # their locks, new in a fork


def _new_locks_in_child() -> None:
    """A fork while another thread held one of these locks: the child's own (that thread
    is not in the child to release it)."""
    global _MAKING
    _MAKING = threading.Lock()
    for counts in list(_ALL_COUNTS):
        counts._lock = threading.Lock()


def _checked(path: str | os.PathLike[str] | None) -> str | os.PathLike[str] | None:
    if path is not None:
        os.fspath(path)  # a path of the wrong type is refused now, not at the first call
    return path


class _Counts:
    """Hits and misses, shared by a cache and its views (threads add to them at once)."""

    __slots__ = ("__weakref__", "_lock", "hits", "misses")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        _ALL_COUNTS.add(self)

    def add(self, hit: bool) -> None:
        with self._lock:
            if hit:
                self.hits += 1
            else:
                self.misses += 1

    def reset(self) -> None:
        with self._lock:
            self.hits = self.misses = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_locks_in_child)
