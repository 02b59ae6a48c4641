"""Secrets never shown: redaction of API keys, tokens and passwords in any text.

A model setting's secrets (``api_key`` values, header values, passwords in
URLs) are remembered when the model is configured (:func:`protect_model`), so
that :func:`redact` removes them from any text: an exception message, a
traceback, a report.  Values of secret-looking environment variables
(``*_API_KEY``, ``*_TOKEN``, ...) and anything shaped like a key or an
authorization header go too.  :class:`ModelArguments` is a dict model whose
repr never shows a secret.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "REDACTED",
    "ModelArguments",
    "Redactor",
    "known_secrets",
    "masked",
    "protect_model",
    "redact",
    "remember_secrets",
    "safe_repr",
    "secret_name",
    "secrets_in",
]

REDACTED = "[redacted]"

_SECRET_NAME = re.compile(
    r"(api[_-]?key|apikey|token|secret|password|passwd|authorization|credential|"
    r"access[_-]?key|private[_-]?key|session[_-]?key)",
    re.IGNORECASE,
)


@functools.cache  # compiled at the first text that may hold one: ~5 ms at every start
def _secret_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    return (
        # Authorization: Bearer abc / Basic abc
        (re.compile(r"\b([Bb]earer)\s+[A-Za-z0-9._~+/=:-]{6,}"), r"\1 " + REDACTED),
        (re.compile(r"\b(Basic)\s+[A-Za-z0-9+/]{8,}={0,2}"), r"\1 " + REDACTED),
        # api_key=..., "x-api-key": "...", Authorization: ..., password: ...
        (
            re.compile(
                r"""(["']?[\w-]*(?:api[_-]?key|apikey|token|secret|password|authorization)"""
                r"""["']?\s*[:=]\s*["']?)(?!\[redacted\])(?!Bearer\b|Basic\b)([^\s"',}&;)]{4,})""",
                re.IGNORECASE,
            ),
            r"\1" + REDACTED,
        ),
        # ?key=... in URLs (Google-style API keys)
        (re.compile(r"([?&](?:key|sig|signature)=)[^&\s\"']+", re.IGNORECASE), r"\1" + REDACTED),
        # well-known key shapes: sk-..., sk-ant-..., AIza..., ghp_..., xoxb-..., hf_..., AKIA...
        (re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}"), r"\1-" + REDACTED),
        (re.compile(r"\bAIza[0-9A-Za-z_-]{20,}"), REDACTED),
        (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),
        (re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"), REDACTED),
        (re.compile(r"\bhf_[A-Za-z0-9]{20,}"), REDACTED),
        (re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"), REDACTED),
    )


_MIN_SECRET = 6  # shorter values are too likely to be ordinary words

# user:password in a URL (http://user:PASS@host, redis://:PASS@host); only the password goes.
_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:)([^/\s@]+)(@)")
# Keys whose mapping holds HTTP headers: every value may carry a credential.
_HEADERS_KEY = re.compile(r"headers?$", re.IGNORECASE)
# Header values that are never secrets (kept when a setting is shown, not hunted in text).
_PLAIN_HEADERS = frozenset({"accept", "content-type", "user-agent", "accept-encoding"})
# A cheap first look (plain substring tests on the lowered text, fast even on megabytes):
# text without any of these cannot match a secret pattern.
_MAYBE_SECRET = (
    "bearer", "basic", "key", "token", "secret", "password", "authorization", "sig=",
    "signature=", "sk-", "pk-", "rk-", "aiza", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
    "xox", "hf_", "akia", "asia", "://",
)  # fmt: skip
# The same look as one pattern: one C-level scan instead of ~24 ``in`` tests, faster on
# short texts (most of a report); on long texts the ``in`` tests stay faster.
_MAYBE_SECRET_RE = re.compile("|".join(re.escape(word) for word in sorted(_MAYBE_SECRET)))
_SHORT_TEXT = 256
# A report repeats the same few strings (dict keys, labels, feedback) in every case: each
# Redactor remembers what it made of short texts, up to this many.
_REMEMBERED = 65_536
_SAMPLE = 256  # texts Redactor.leaves_alone looks at to tell whether they repeat

# Every secret a configured model holds (api_key values, header values, URL passwords),
# remembered when the model is configured (protect_model), so redact() finds them in
# any text: an exception message, a traceback, a report.
_known_secrets: set[str] = set()
_known_lock = threading.Lock()


def _environment_secrets() -> list[str]:
    """Values of secret-looking variables (``*_API_KEY``, ...), and URL passwords in any
    variable (``OPENAI_API_BASE=http://user:PASS@host``)."""
    found = []
    for name, value in os.environ.items():
        if _SECRET_NAME.search(name):
            if len(value) >= _MIN_SECRET:
                found.append(value)
        elif "://" in value and "@" in value:
            found.extend(p for p in _url_passwords(value) if len(p) >= _MIN_SECRET)
    return found


def _with_token(value: str) -> Iterable[str]:
    yield value
    if " " in value.strip():  # "Bearer abc": the token alone too
        yield value.strip().split(" ", 1)[1].strip()


def _url_passwords(text: str) -> Iterable[str]:
    for match in _URL_PASSWORD.finditer(text):
        yield match.group(2)


def secrets_in(value: Any, headers: bool = False) -> Iterable[str]:
    """The secrets of a model setting: values under secret-looking keys, header values
    (``extra_headers``, ``headers``), passwords in URLs (``api_base``)."""
    if isinstance(value, str):
        yield from _url_passwords(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            name = str(key)
            if isinstance(item, str):
                secret_name = _SECRET_NAME.search(name)
                if secret_name or (headers and name.lower() not in _PLAIN_HEADERS):
                    yield from _with_token(item)
                yield from _url_passwords(item)
            else:
                yield from secrets_in(item, headers or bool(_HEADERS_KEY.search(name)))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from secrets_in(item, headers)


def remember_secrets(model: Any) -> None:
    """Remember the secrets ``model`` holds: :func:`redact` removes them from any text."""
    found = {s for s in secrets_in(model) if len(s) >= _MIN_SECRET and s != REDACTED}
    if found:
        with _known_lock:
            _known_secrets.update(found)


def known_secrets(extra: Iterable[str] = ()) -> list[str]:
    """Every secret to hide now, longest first: ``extra``, the configured models',
    the values of secret-looking environment variables."""
    with _known_lock:
        known = set(_known_secrets)
    known.update(s for s in extra if s and len(s) >= _MIN_SECRET)
    known.update(_environment_secrets())
    return sorted(known, key=len, reverse=True)


class Redactor:
    """:func:`redact` with its list of secrets gathered once (for many texts in a row)."""

    __slots__ = ("_seen", "secrets")

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = known_secrets(secrets)
        self._seen: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        if type(text) is not str:  # a subclass may hash or compare in its own way
            return self._clean(text)
        seen = self._seen.get(text)
        if seen is not None:
            return seen
        clean = self._clean(text)
        if len(text) <= _SHORT_TEXT and len(self._seen) < _REMEMBERED:
            self._seen[text] = clean
        return clean

    def leaves_alone(self, texts: list[str]) -> bool:
        """Whether ``self(text) == text`` for every text: one look at them all.

        For exact ``str``s (a report's keys, labels and feedback, a million of each):
        instead of a call per text, the texts joined and looked at once with the
        tests ``_clean`` starts with.  A text changes only if a secret or one of the
        ``_MAYBE_SECRET`` words (lowered) is in it, and then it is in the joined text
        too; a match across a joint only sends the caller the slow way.
        """
        sample = texts[:_SAMPLE]
        # Texts that repeat (keys, labels, feedback) are joined once each; unique ones
        # (inputs) as they come: a set of them would cost more than it saves.
        repeats = len(set(sample)) * 2 <= len(sample)
        joined = "\x00".join(set(texts) if repeats else texts)
        if any(secret in joined for secret in self.secrets):
            return False
        lowered = joined.lower()  # a character at a time: the same as each text lowered
        return not any(word in lowered for word in _MAYBE_SECRET)

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        lowered = text.lower()
        if len(lowered) <= _SHORT_TEXT:
            if _MAYBE_SECRET_RE.search(lowered) is None:
                return text
        elif not any(word in lowered for word in _MAYBE_SECRET):
            return text
        text = _URL_PASSWORD.sub(r"\1" + REDACTED + r"\3", text)
        for pattern, replacement in _secret_patterns():
            text = pattern.sub(replacement, text)
        return text


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with API keys, tokens, passwords and authorization headers replaced by
    ``[redacted]``.

    Removes the given ``secrets``, every secret of a configured model (api_key
    values, header values, URL passwords), the values of environment variables
    whose names look secret (``*_API_KEY``, ``*_TOKEN``, ...), passwords in URLs,
    and anything shaped like a key or an authorization header.
    """
    return Redactor(secrets)(text)


def secret_name(name: str) -> bool:
    """Whether a setting called ``name`` holds a credential (``api_key``, ``aws_secret...``)."""
    return bool(_SECRET_NAME.search(name))


def masked(value: Any, headers: bool = False) -> Any:
    """``value`` (a model setting) with every secret replaced by ``[redacted]``."""
    if isinstance(value, Mapping):
        shown = {}
        for key, item in value.items():
            name = str(key)
            hidden = _SECRET_NAME.search(name) or (
                headers and isinstance(item, str) and name.lower() not in _PLAIN_HEADERS
            )
            if hidden and item:
                shown[key] = REDACTED
            else:
                shown[key] = masked(item, headers or bool(_HEADERS_KEY.search(name)))
        return shown
    if isinstance(value, str):
        return _URL_PASSWORD.sub(r"\1" + REDACTED + r"\3", value)
    if type(value) is list:
        return [masked(item, headers) for item in value]
    if type(value) is tuple:
        return tuple(masked(item, headers) for item in value)
    return value


def safe_repr(model: Any) -> str:
    """A repr of a model setting that never shows a secret."""
    if isinstance(model, Mapping):
        return redact(repr(masked(model)), secrets_in(model))
    return redact(repr(model))


class ModelArguments(dict[str, Any]):
    """A dict model (litellm completion arguments) whose repr never shows a secret."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        remember_secrets(self)

    def __repr__(self) -> str:
        return safe_repr(dict(self))

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through __init__ in another process (a Dask worker): its redact()
        # then knows these secrets too.
        return (ModelArguments, (dict(self),))


def protect_model(model: Any) -> Any:
    """``model``, with a dict model copied into a :class:`ModelArguments` (safe to show)."""
    if isinstance(model, Mapping) and not isinstance(model, ModelArguments):
        return ModelArguments(model)
    if isinstance(model, str):
        remember_secrets(model)  # a model string may be a URL with a password
    return model
