"""Secrets never shown: redaction of API keys, tokens and passwords in any text.

A model setting's secrets (``api_key`` values, header values, passwords in
URLs) are remembered when the model is configured (:func:`protect_model`), so
that :func:`redact` removes them from any text: an exception message, a
traceback, a report.  Values of secret-looking environment variables
(``*_API_KEY``, ``*_TOKEN``, ...) and anything shaped like a key or an
authorization header go too.  :class:`ModelArguments` is a dict model whose
repr never shows a secret.

**One credential rule** (issue 43, rule 6), written here and read by the run
cache's key (``models.call_cache``: a credential is left out, so a new key keeps
the replies), by every repr (:func:`masked`, :func:`safe_repr`) and by every
redaction (:func:`redact`, :class:`Redactor`: reports, errors, files):

- an argument named as a credential (:func:`credential_argument`: ``api_key``,
  ``aws_secret_access_key``..., by exact name: ``max_tokens`` changes the reply);
- a header that carries one (:func:`credential_header`: by name, or a value with
  an auth scheme such as ``Bearer ...``);
- in a URL, its user information (the password, or a user name given alone: a
  token) and every credential query parameter (:func:`credential_parameter`:
  ``?key=``, ``?code=``, ``?subscription-key=``, ``?X-Amz-Signature=``...).

A screen may hide more than the rule (a value under any secret-looking name,
every header but the plain ones: hiding too much there costs nothing), never
less; the run cache's key hides exactly the rule (a reply-changing argument left
out of it would replay a wrong reply).
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import unquote_plus

__all__ = [
    "CREDENTIAL_ARGUMENTS",
    "CREDENTIAL_HEADERS",
    "REDACTED",
    "ModelArguments",
    "Redactor",
    "credential_argument",
    "credential_header",
    "credential_parameter",
    "known_secrets",
    "masked",
    "protect_model",
    "redact",
    "remember_secrets",
    "safe_repr",
    "secret_name",
    "secrets_in",
    "url_credentials",
]

REDACTED = "[redacted]"

# --- the credential rule ----------------------------------------------------------------

# Credential arguments of litellm.completion, by exact name (case-insensitive), and any
# ``*_api_key``: never by a substring, as ``max_tokens`` or ``stop_token_ids`` change the
# reply.  With or without them the request asks the same thing.
CREDENTIAL_ARGUMENTS = frozenset(
    {
        "api_key",
        "apikey",
        "aws_access_key_id",
        "aws_secret_access_key",
        "aws_session_token",
        "aws_web_identity_token",
        "azure_ad_token",
        "azure_ad_token_provider",
        "azure_password",
        "client_secret",
        "vertex_credentials",
        "vertex_ai_credentials",
        "watsonx_credentials",
        "wx_credentials",
        "watsonx_token",
        "gigachat_access_token",
    }
)
# Request headers that carry a credential (``-`` and ``_`` alike, any case), and any
# ``*-api-key``, ``*-auth-key``, ``*-token``; a value such as "Bearer ..." or "Basic ..."
# is one under any name.
CREDENTIAL_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "api-key",
        "x-api-key",
        "apikey",
        "cookie",
        "x-goog-api-key",
        "x-auth-token",
        "x-access-token",
        "x-amz-security-token",
        "ocp-apim-subscription-key",
        "x-functions-key",
        "private-token",
    }
)
# A header value that reads as a credential whatever its name ("Bearer ...", "Token ...").
_AUTH_SCHEME = re.compile(r"^\s*(bearer|basic|digest|token|key|apikey)\s+\S", re.IGNORECASE)
# A query parameter that carries a credential: ?key=, ?api-key=, ?access_token=, ?sig=,
# ?X-Amz-Signature=, ?X-Amz-Credential=, ?subscription-key=, ?x-functions-key=, ?auth=,
# ?passwd=, and Azure Functions' ?code= (by itself: ``error_code`` is no credential).
_CREDENTIAL_PARAMETER = re.compile(
    r"key|token|secret|passw|sig|auth|credential|^code$|^pwd$", re.IGNORECASE
)
# A URL's user information: everything before the authority's last "@" (a password may
# hold an "@": the URL parsers split there, and so does this).
_URL_USERINFO = re.compile(r"""\b([A-Za-z][A-Za-z0-9+.-]*://)([^/?#\s"'<>]*)@""")
# A query parameter in any text: ``?name=value`` or ``&name=value``.
_QUERY_PARAMETER = re.compile(r"""([?&;])([^=&?#;\s"'<>]+)=([^&#;\s"'<>]+)""")


def credential_argument(name: str) -> bool:
    """Whether a litellm argument called ``name`` is a credential (exact name, or
    ``*_api_key``)."""
    lowered = name.lower()
    return lowered in CREDENTIAL_ARGUMENTS or lowered.endswith("_api_key")


def credential_header(name: Any, value: Any) -> bool:
    """Whether a header carries a credential: by its name, or a value with an auth scheme."""
    lowered = str(name).strip().lower().replace("_", "-")
    if lowered in CREDENTIAL_HEADERS or lowered.endswith(("-api-key", "-auth-key", "-token")):
        return True
    return isinstance(value, str) and _AUTH_SCHEME.match(value) is not None


def credential_parameter(name: str) -> bool:
    """Whether a URL query parameter called ``name`` carries a credential."""
    return _CREDENTIAL_PARAMETER.search(unquote_plus(name)) is not None


def _userinfo_secret(userinfo: str) -> tuple[str, str]:
    """``(kept, secret)`` of a URL's user information: the user name is kept before a
    password; a user name given alone (a token, ``https://TOKEN@host``) is the secret."""
    user, colon, password = userinfo.partition(":")
    if colon:
        return user + colon, password
    return "", userinfo


def url_credentials(text: str) -> Iterable[str]:
    """The credentials of the URLs in ``text``: user information (a password, or a user
    name given alone) and credential query parameters' values, as written and decoded."""
    if "://" in text:
        for match in _URL_USERINFO.finditer(text):
            secret = _userinfo_secret(match.group(2))[1]
            if secret and secret != REDACTED:
                yield secret
    if "=" in text:
        for match in _QUERY_PARAMETER.finditer(text):
            value = match.group(3)
            if credential_parameter(match.group(2)) and value != REDACTED:
                yield value
                decoded = unquote_plus(value)
                if decoded != value:
                    yield decoded


def _hide_userinfo(match: re.Match[str]) -> str:
    kept, secret = _userinfo_secret(match.group(2))
    if not secret or secret == REDACTED:
        return match.group(0)
    return f"{match.group(1)}{kept}{REDACTED}@"


def _hide_parameter(match: re.Match[str]) -> str:
    if match.group(3) == REDACTED or not credential_parameter(match.group(2)):
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}={REDACTED}"


def _without_url_credentials(text: str) -> str:
    """``text`` with every URL credential (the rule above) replaced by ``[redacted]``."""
    if "://" in text:
        text = _URL_USERINFO.sub(_hide_userinfo, text)
    if "=" in text:
        text = _QUERY_PARAMETER.sub(_hide_parameter, text)
    return text


# --- what a screen hides besides the rule --------------------------------------------

# (``token`` but not ``max_tokens`` nor ``TOKENIZERS_PARALLELISM``: counts, not secrets.)
_SECRET_NAME = re.compile(
    r"(api[_-]?key|apikey|token(?!s|iz)|secret|password|passwd|authorization|credential|"
    r"access[_-]?key|private[_-]?key|session[_-]?key)",
    re.IGNORECASE,
)


@functools.cache  # compiled at the first text that may hold one: ~5 ms at every start
def _secret_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    return (
        # Authorization: Bearer abc / Basic abc
        (re.compile(r"\b([Bb]earer)\s+[A-Za-z0-9._~+/=:-]{6,}"), r"\1 " + REDACTED),
        (re.compile(r"\b(Basic)\s+[A-Za-z0-9+/]{8,}={0,2}"), r"\1 " + REDACTED),
        # api_key=..., "x-api-key": "...", Authorization: ..., password: ..., a credential
        # header's "Name: value" (its names below: the rule's own, written once)
        (
            re.compile(
                r"""(["']?[\w-]*(?:api[_-]?key|apikey|token|secret|passw(?:or)?d|authorization|"""
                + _rule_names()
                + r""")"""
                r"""["']?\s*[:=]\s*["']?)(?!\[redacted\])(?!Bearer\b|Basic\b)"""
                # "Token abc...": the scheme and its token go together
                r"""((?:(?:token|key|apikey|digest)\s+(?!\[redacted\]))?[^\s"',}&;)]{4,})""",
                re.IGNORECASE,
            ),
            r"\1" + REDACTED,
        ),
        # well-known key shapes: sk-..., sk-ant-..., AIza..., ghp_..., xoxb-..., hf_..., AKIA...
        (re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}"), r"\1-" + REDACTED),
        (re.compile(r"\bAIza[0-9A-Za-z_-]{20,}"), REDACTED),
        (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"), REDACTED),
        (re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"), REDACTED),
        (re.compile(r"\bhf_[A-Za-z0-9]{20,}"), REDACTED),
        (re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"), REDACTED),
    )


def _rule_names() -> str:
    """The rule's credential arguments and headers, as alternatives of a pattern (``-`` and
    ``_`` alike), and the endings it reads as credentials."""
    names = sorted(CREDENTIAL_ARGUMENTS | CREDENTIAL_HEADERS, key=len, reverse=True)
    spelled = ["[_-]".join(map(re.escape, re.split(r"[_-]", name))) for name in names]
    return "|".join([*spelled, "auth[_-]?key", "credentials?"])


_MIN_SECRET = 6  # shorter values are too likely to be ordinary words
# Keys whose mapping holds HTTP headers: every value may carry a credential.
_HEADERS_KEY = re.compile(r"headers?$", re.IGNORECASE)
# Header values that are never secrets (kept when a setting is shown, not hunted in text).
_PLAIN_HEADERS = frozenset({"accept", "content-type", "user-agent", "accept-encoding"})
# A cheap first look (plain substring tests on the lowered text, fast even on megabytes):
# text without any of these cannot match a secret pattern.
_MAYBE_SECRET = (
    "bearer", "basic", "key", "token", "secret", "passw", "auth", "sig", "credential",
    "code=", "pwd=", "cookie", "sk-", "pk-", "rk-", "aiza", "ghp_", "gho_", "ghu_", "ghs_",
    "ghr_", "xox", "hf_", "akia", "asia", "://",
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
        elif "://" in value:
            found.extend(p for p in url_credentials(value) if len(p) >= _MIN_SECRET)
    return found


def _with_token(value: str) -> Iterable[str]:
    yield value
    if " " in value.strip():  # "Bearer abc": the token alone too
        yield value.strip().split(" ", 1)[1].strip()


def secrets_in(value: Any, headers: bool = False) -> Iterable[str]:
    """The secrets of a model setting: values under secret-looking keys, header values
    (``extra_headers``, ``headers``), credentials in URLs (``api_base``: a password, a
    token as the user name, ``?code=``...)."""
    if isinstance(value, str):
        yield from url_credentials(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            name = str(key)
            if isinstance(item, str):
                if _hidden_on_screen(name, item, headers):
                    yield from _with_token(item)
                yield from url_credentials(item)
            else:
                yield from secrets_in(item, headers or bool(_HEADERS_KEY.search(name)))
    elif _header_pair(value, headers):
        yield from _with_token(value[1])
    elif isinstance(value, list | tuple):
        for item in value:
            yield from secrets_in(item, headers)


def _hidden_on_screen(name: str, value: Any, headers: bool) -> bool:
    """Whether a setting's value is hidden when shown: a credential by the rule (an
    argument or a header), or any value under a secret-looking name, or any header but
    the plain ones."""
    if credential_argument(name) or _SECRET_NAME.search(name):
        return True
    if not headers or not isinstance(value, str):
        return False
    return name.lower() not in _PLAIN_HEADERS or credential_header(name, value)


def _header_pair(value: Any, headers: bool) -> bool:
    """A ``(name, value)`` header pair, as some HTTP clients take headers, that is hidden."""
    return (
        headers
        and type(value) in (list, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], str)
        and bool(value[1])
        and _hidden_on_screen(value[0], value[1], headers)
    )


def _forget_lock_in_child() -> None:
    """A fork while another thread held the lock: the child's own (that thread is not
    there to release it, and every redaction would wait for it)."""
    global _known_lock
    _known_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_lock_in_child)


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
        text = _without_url_credentials(text)
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
            if item and _hidden_on_screen(name, item, headers):
                shown[key] = REDACTED
            else:
                shown[key] = masked(item, headers or bool(_HEADERS_KEY.search(name)))
        return shown
    if isinstance(value, str):
        return _without_url_credentials(value)
    if _header_pair(value, headers):
        return type(value)((value[0], REDACTED))
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
