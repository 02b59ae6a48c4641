"""Every message exists in English, French and Portuguese, with the same fields."""

from __future__ import annotations

import locale
import string

import pytest

from skynet_jupyter.i18n import LANGUAGES, catalog, resolve_lang, t


def texts(message):
    """A catalog value's sentences: itself, or each of its plural forms."""
    if isinstance(message, str):
        return [message]
    return [text for form, text in message.items() if form != "by"]


def fields(message) -> set[str]:
    return {
        name for text in texts(message) for _, name, _, _ in string.Formatter().parse(text) if name
    }


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_id_has_every_language(lang):
    english = catalog("en")
    other = catalog(lang)
    assert sorted(set(english) - set(other)) == []
    assert sorted(set(other) - set(english)) == []
    for key, text in english.items():
        assert fields(other[key]) == fields(text), key
        assert all(text.strip() for text in texts(other[key])), key


def test_every_template_formats():
    for lang in LANGUAGES:
        for message in catalog(lang).values():
            for text in texts(message):
                text.format(**dict.fromkeys(fields(text), "X"))  # no stray braces


def test_required_titles():
    assert t("step.metric_return_value", "en") == "Metric return value"
    assert t("step.metric_return_value", "fr") == "Valeur de retour de la métrique"
    assert t("step.metric_return_value", "pt") == "Valor devolvido pela métrica"


def test_language_resolution(monkeypatch):
    monkeypatch.delenv("SKYNET_LANG", raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert resolve_lang() == "pt"
    monkeypatch.setenv("SKYNET_LANG", "fr")
    assert resolve_lang() == "fr"
    assert resolve_lang("EN") == "en"
    monkeypatch.setenv("SKYNET_LANG", "de")
    monkeypatch.setenv("LANG", "C.UTF-8")
    # An unknown SKYNET_LANG and the C locale fall through to the process locale, then English.
    monkeypatch.setattr(locale, "getlocale", lambda: ("fr_FR", "UTF-8"))
    assert resolve_lang() == "fr"
    monkeypatch.setattr(locale, "getlocale", lambda: (None, None))
    assert resolve_lang() == "en"
    with pytest.raises(ValueError, match="Unknown language 'de'"):
        resolve_lang("de")
