"""Messages in English, French and Portuguese.

Every sentence a person reads comes from a catalog (``en.py``, ``fr.py``,
``pt.py``): one dict per language, the same keys in each, and every id written
out where it is used (``tests/i18n/test_message_ids.py`` holds them to that).  The
language is chosen by ``lang=``, else ``SKYNET_LANG``, else the locale, else
English.

The language of a run is set once, where the run enters (a function's ``lang=``,
a magic's ``--lang``, the CLI's ``--lang``), with ``with language(lang):``; a
sentence made anywhere below reads it with ``current_lang()`` (``t`` does, when it
is given no language).  It is a context variable, as ``decimal``'s local context or
Django's ``translation.override``: it holds for that run, in that thread, and
nowhere else.  Work handed to another thread runs in a copy of the context
(``contextvars.copy_context``); a worker process is told the language.

A message that shows a count has a form per plural category instead of one
string: ``{"one": "{count} case", "other": "{count} cases"}``, chosen by the
``count=`` field (or by the field its ``"by"`` names, when a language's words
agree with another number of the sentence).  ``"zero"``, when given, is the form
for exactly 0 (French says "aucun cas" where "0 cas" reads badly).

Modules::

    en.py   the English catalog (the reference: every key is here)
    fr.py   the French catalog
    pt.py   the Portuguese catalog
"""

from __future__ import annotations

import importlib
import locale
import numbers
import os
from collections.abc import Mapping
from contextvars import ContextVar, Token
from functools import cache

LANGUAGES = ("en", "fr", "pt")

# A catalog value: a sentence, or its forms by plural category (see the module's doc).
Message = str | Mapping[str, str]
PLURAL_FORMS = ("zero", "one", "other")


# The language of the run in progress in this context; None outside any run.
_RUN_LANG: ContextVar[str | None] = ContextVar("skynet_jupyter_lang", default=None)


def resolve_lang(lang: str | None = None) -> str:
    """The language to use: ``lang`` if given, else the run's (``language``), else
    ``SKYNET_LANG``, else the locale, else English."""
    for candidate in (lang, _RUN_LANG.get(), os.environ.get("SKYNET_LANG"), _locale_lang()):
        if not candidate:
            continue
        code = candidate.strip().lower().replace("-", "_").split("_")[0]
        if code in LANGUAGES:
            return code
        if candidate is lang:
            raise ValueError(f"Unknown language {lang!r}: use one of {', '.join(LANGUAGES)}.")
    return "en"


class language:  # lower case: it reads as a function, ``with language("fr"):``
    """Speak ``lang`` (resolved as ``resolve_lang`` does) until the block ends.

    Set once where a run enters; a run started inside another keeps the outer
    run's language unless it names its own.  ``with`` gives the language code.
    A class, not a generator: an exception leaving the block passes through
    untouched (a generator's context manager sets its ``__traceback__`` again,
    which some exceptions refuse), and the language holds for as long as the
    block, whoever keeps the object.
    """

    __slots__ = ("_token", "code")

    def __init__(self, lang: str | None = None) -> None:
        self.code = resolve_lang(lang)
        self._token: Token[str | None] | None = None

    def __enter__(self) -> str:
        self._token = _RUN_LANG.set(self.code)
        return self.code

    def __exit__(self, *_: object) -> None:
        if self._token is not None:
            _RUN_LANG.reset(self._token)
            self._token = None


def current_lang() -> str:
    """The language of the run in progress (``language``), or English outside one."""
    return _RUN_LANG.get() or "en"


# Where the run was asked for: a sentence names that surface's command to fix a problem
# ("%skynet_cache --clear" in a notebook, "--cache-dir" on the command line).
SURFACES = ("python", "notebook", "cli")
_SURFACE: ContextVar[str] = ContextVar("skynet_jupyter_surface", default="python")


class surface:  # lower case, as ``language``: ``with surface("cli"):``
    """Name ``where``'s commands (``python``, ``notebook`` or ``cli``) until the block ends."""

    __slots__ = ("_token", "where")

    def __init__(self, where: str) -> None:
        if where not in SURFACES:
            raise ValueError(f"Unknown surface {where!r}: use one of {', '.join(SURFACES)}.")
        self.where = where
        self._token: Token[str] | None = None

    def __enter__(self) -> str:
        self._token = _SURFACE.set(self.where)
        return self.where

    def __exit__(self, *_: object) -> None:
        if self._token is not None:
            _SURFACE.reset(self._token)
            self._token = None


def current_surface() -> str:
    """Where the run in progress was asked for: ``python`` outside the magics and the CLI."""
    return _SURFACE.get()


def _locale_lang() -> str | None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value
    try:
        return locale.getlocale()[0]
    except ValueError:
        return None


@cache
def catalog(lang: str) -> dict[str, Message]:
    """The message catalog of one language (imported once)."""
    messages: dict[str, Message] = importlib.import_module(f"skynet_jupyter.i18n.{lang}").MESSAGES
    return messages


def plural_category(lang: str, count: float) -> str:
    """``"one"`` or ``"other"``: the plural category of ``count`` in ``lang``.

    French says "0 cas, 1 cas" with the singular (one is below 2); English and
    Portuguese only 1 (Portuguese as in Portugal: "0 casos").
    """
    if lang == "fr":
        return "one" if abs(count) < 2 else "other"
    return "one" if abs(count) == 1 else "other"


def t(msg_id: str, lang: str | None = None, /, **fields: object) -> str:
    """The message ``msg_id`` in ``lang``, with ``fields`` filled in.

    A message with plural forms takes the one its count (``count=``, or the field
    its ``"by"`` names) calls for in that language.
    """
    lang = lang or current_lang()
    message = catalog(lang).get(msg_id)
    if not message:  # not translated: the English words, with English plurals
        lang, message = "en", catalog("en")[msg_id]
    if not isinstance(message, str):
        message = _plural_form(msg_id, message, lang, fields)
    return message.format(**fields)


# What ends a sentence in the three languages, and what may close after it ("(see X.)").
SENTENCE_ENDS = (".", "!", "?", "…")
CLOSING = ")]\"'»”"


def sentences(*parts: str) -> str:
    """The non-empty ``parts`` as one text, each but the last ending as a sentence does.

    An exception's message rarely ends with a full stop ("... no attribute
    'splitlines'"); a sentence written after it must not read as its tail.
    """
    kept = [part.strip() for part in parts if part and part.strip()]
    return " ".join(
        text if number == len(kept) - 1 or ends_sentence(text) else text + "."
        for number, text in enumerate(kept)
    )


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends with a full stop, a question or an exclamation mark."""
    return text.rstrip().rstrip(CLOSING).endswith(SENTENCE_ENDS)


def _plural_form(
    msg_id: str, forms: Mapping[str, str], lang: str, fields: dict[str, object]
) -> str:
    by = forms.get("by", "count")
    count = fields.get(by)
    if not isinstance(count, numbers.Real):  # NumPy's integers too
        raise TypeError(f"{msg_id} needs a number {by}= to choose its plural form, got {count!r}")
    if count == 0 and "zero" in forms:
        return forms["zero"]
    return forms[plural_category(lang, float(count))]
