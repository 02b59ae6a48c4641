"""The language of a run: set once where the run enters, read where a sentence is made."""

from __future__ import annotations

import contextvars
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skynet_jupyter.i18n import LANGUAGES, current_lang, language, resolve_lang, t


def test_outside_any_run_sentences_are_english(monkeypatch: pytest.MonkeyPatch) -> None:
    # The environment chooses a run's language where the run enters, not every sentence.
    monkeypatch.setenv("SKYNET_LANG", "fr")
    assert current_lang() == "en"
    assert t("magic.did_you_mean", name="x") == t("magic.did_you_mean", "en", name="x")


def test_a_run_speaks_its_language_until_it_ends() -> None:
    assert t("magic.did_you_mean", "fr", name="x") != t("magic.did_you_mean", "en", name="x")
    with language("fr") as code:
        assert code == "fr"
        assert current_lang() == "fr"
        assert t("magic.did_you_mean", name="x") == t("magic.did_you_mean", "fr", name="x")
    assert current_lang() == "en"


def test_a_run_inside_another_keeps_the_outer_language_unless_it_names_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SKYNET_LANG", "pt")
    with language("fr"):
        with language(None) as inner:
            assert inner == "fr"
        with language("pt") as named:
            assert named == "pt"
        assert current_lang() == "fr"


def test_the_environment_then_the_locale_choose_where_nothing_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SKYNET_LANG", "pt_BR")
    with language(None) as code:
        assert code == "pt"
    monkeypatch.delenv("SKYNET_LANG")
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert resolve_lang() == "fr"


def test_an_unknown_language_is_refused_with_the_choices() -> None:
    refused = pytest.raises(ValueError, match="Unknown language 'de': use one of en, fr, pt")
    with refused, language("de"):
        pass
    assert current_lang() == "en"


def test_the_language_ends_with_the_block_even_on_an_error() -> None:
    with pytest.raises(RuntimeError), language("fr"):
        raise RuntimeError
    assert current_lang() == "en"


def test_another_thread_does_not_see_a_run_it_was_not_handed() -> None:
    seen: dict[str, str] = {}

    def read(key: str) -> None:
        seen[key] = current_lang()

    with language("fr"):
        plain = threading.Thread(target=read, args=("plain",))
        handed = threading.Thread(target=contextvars.copy_context().run, args=(read, "handed"))
        plain.start()
        handed.start()
        plain.join()
        handed.join()
    assert seen == {"plain": "en", "handed": "fr"}


@given(st.lists(st.sampled_from((*LANGUAGES, None)), max_size=6))
def test_nested_runs_always_restore_the_language_around_them(stack: list[str | None]) -> None:
    def enter(remaining: list[str | None], outer: str) -> None:
        if not remaining:
            return
        named, *rest = remaining
        with language(named) as code:
            assert code == (named or outer)
            enter(rest, code)
            assert current_lang() == code
        assert current_lang() == outer

    with language("en"):
        enter(stack, "en")
