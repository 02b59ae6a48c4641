"""Messages in English, French and Portuguese.

Every sentence a person reads comes from a catalog in ``locales/``: one dict per
language, the same keys in each (a test holds them to that).  The language is
chosen by ``lang=``, else ``SKYNET_LANG``, else the locale, else English.
"""

from __future__ import annotations

import importlib
import locale
import os
from functools import cache

LANGUAGES = ("en", "fr", "pt")


def resolve_lang(lang: str | None = None) -> str:
    """The language to use: ``lang`` if given, else ``SKYNET_LANG``, else the locale."""
    for candidate in (lang, os.environ.get("SKYNET_LANG"), _locale_lang()):
        if not candidate:
            continue
        code = candidate.strip().lower().replace("-", "_").split("_")[0]
        if code in LANGUAGES:
            return code
        if candidate is lang:
            raise ValueError(f"Unknown language {lang!r}: use one of {', '.join(LANGUAGES)}.")
    return "en"


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
def catalog(lang: str) -> dict[str, str]:
    """The message catalog of one language (imported once)."""
    return importlib.import_module(f"skynet_jupyter.locales.{lang}").MESSAGES


def t(msg_id: str, lang: str | None = None, /, **fields: object) -> str:
    """The message ``msg_id`` in ``lang``, with ``fields`` filled in."""
    text = catalog(lang or "en").get(msg_id) or catalog("en")[msg_id]
    return text.format(**fields)
