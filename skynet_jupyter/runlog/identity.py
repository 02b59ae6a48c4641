"""Names that survive a reordering: a case's identity, a data set's fingerprint, a
metric's version.

A case is known by what went in and what was expected (never by its row
number), so the same data in another order, or a check's 3 cases inside an
evaluation of all 30, match case by case.  Rows repeated exactly are told apart
by their turn (``"#2"``, ``"#3"``), which is also the same in any order.  The
data's fingerprint is the identities' sorted digest: the same set of rows, in
any order, has the same fingerprint.  A metric's version is the digest of its
source, so the same text saved twice is one version.

Values are read as JSON (keys sorted; an object JSON cannot hold, by its repr):
hashes of the values themselves, never of what a record shows after redaction
or a cut, so a record written on another machine (other secrets in its
environment) still names its cases the same.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.json_export import json_value

__all__ = [
    "case_identities",
    "case_identity",
    "data_fingerprint",
    "metric_source",
    "metric_version",
]

_DIGEST = 8  # bytes: 16 hex digits, a collision in 2**32 cases


def _as_is(text: str) -> str:
    return text


# One encoder, made once: ``json.dumps`` with options builds a new one at every call.
_CANONICAL = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _canonical(input: Any, expected: Any) -> str:
    """``[input, expected]`` as JSON with sorted keys; a value JSON cannot hold, by its repr."""
    try:
        return _CANONICAL.encode([input, expected])
    except (TypeError, ValueError, RecursionError):  # an object, a key of another type, a cycle
        pass
    plain = [json_value(input, _as_is), json_value(expected, _as_is)]
    try:
        return _CANONICAL.encode(plain)
    except (TypeError, ValueError):
        return json.dumps(repr(plain), ensure_ascii=False)


def case_identity(input: Any, expected: Any) -> str:
    """The identity of one case: 16 hex digits from its input and expected value."""
    text = _canonical(input, expected)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST).hexdigest()


def case_identities(pairs: Iterable[tuple[Any, Any]]) -> list[str]:
    """The identities of cases given as (input, expected), a repeated row as ``ID#2``..."""
    seen: dict[str, int] = {}
    named = []
    for input, expected in pairs:
        base = case_identity(input, expected)
        turn = seen.get(base, 0) + 1
        seen[base] = turn
        named.append(base if turn == 1 else f"{base}#{turn}")
    return named


def data_fingerprint(identities: Sequence[str]) -> str:
    """The fingerprint of a set of cases: the same rows in any order give the same one."""
    digest = hashlib.blake2b(digest_size=_DIGEST)
    for identity in sorted(identities):
        digest.update(identity.encode("ascii") + b"\n")
    return digest.hexdigest()


def metric_version(source: str | None) -> str | None:
    """A metric's version: 12 hex digits of its source's SHA-256 (None: no source known).

    Line endings are made ``\\n`` first: the same metric checked out on Windows is
    the same version.
    """
    if source is None:
        return None
    text = source.replace("\r\n", "\n").replace("\r", "\n")
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def metric_source(metric: Any) -> str | None:
    """The source of a loaded metric (its cell or file), else of its ``score`` function."""
    source = getattr(metric, "source", None)
    if isinstance(source, str):
        return source
    score = getattr(metric, "score", metric)
    try:
        return inspect.getsource(score)
    except (OSError, TypeError):  # a builtin, a lambda typed at a prompt, a C function
        return None
