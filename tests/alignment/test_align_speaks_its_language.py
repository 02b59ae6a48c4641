"""Issue 34, item 3: ``sj.align(..., lang="fr")`` speaks French in every sentence, the
missing gepa library's included (it once said it in English while ``sj.optimize`` said it
in French): the language is set once where the run enters, and read where a sentence
is made.  A missing gepa is simulated as in tests/optimizers/test_gepa_missing.py.
"""

from __future__ import annotations

import sys

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import catalog, current_lang, t
from skynet_jupyter.optimizers.gepa_adapter import GepaMissing, install_command
from tests.align_support import JUDGE_METRIC, RuleWriter, judge_model, replies
from tests.conftest import require_module


@pytest.fixture(autouse=True)
def _no_language_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """English unless a test says otherwise: the sentences below come from ``lang=`` only."""
    monkeypatch.setenv("SKYNET_LANG", "en")


def _french_starts(prefix: str) -> list[str]:
    """How each French sentence whose id starts with ``prefix`` begins (before a field)."""
    starts = []
    for msg_id, message in catalog("fr").items():
        forms = [message] if isinstance(message, str) else list(message.values())
        if msg_id.startswith(prefix):
            starts += [form.split("{")[0] for form in forms]
    return starts


def _align(data: list[dict[str, object]] | None = None, **options: object) -> sj.AlignReport:
    settings: dict[str, object] = dict(
        labels="human",
        output_column="reply",
        rationale="why",
        reflection_model=sj.StandInModel(RuleWriter()),
        budget=20,
        models=sj.ModelSettings(metric_model=judge_model()),
        lang="fr",
    )
    settings.update(options)
    return sj.align(JUDGE_METRIC, replies() if data is None else data, **settings)


def test_a_missing_gepa_is_said_in_the_language_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gepa", None)
    for lang in ("fr", "pt"):
        with pytest.raises(GepaMissing) as raised:
            _align(lang=lang)
        assert str(raised.value) == t("optimize.needs_gepa", lang, command=install_command("gepa"))
    assert current_lang() == "en"  # the run's language ends with the run


def test_the_refusals_before_the_run_are_in_french() -> None:
    require_module("gepa")
    with pytest.raises(ValueError) as raised:
        _align(budget=0)
    assert str(raised.value) == t("optimize.bad_budget", "fr", value="0")
    with pytest.raises(ValueError) as raised:
        _align(threshold="half")
    assert str(raised.value) == t("quality.agree.threshold", "fr", value="half")
    with pytest.raises(sj.DataError) as raised:
        _align(labels="nope")
    assert "labels=" in str(raised.value) and "nomme la colonne" in str(raised.value)
    few = replies()[:4]
    with pytest.raises(sj.DataError) as raised:
        _align(few)
    assert str(raised.value) == t(
        "align.too_few_labels", "fr", count=len(few), column="human", least=10
    )


def test_the_report_and_its_advice_are_in_french() -> None:
    require_module("gepa")
    report = _align()
    assert report.lang == "fr"
    text = str(report)
    assert t("align.held_out", "fr") in text and t("align.before", "fr") in text
    assert report.advice  # the stand-in reads English: nothing improves, and it says why
    for note in report.advice:
        assert any(note.startswith(start) for start in _french_starts("align.why_")), note
    assert current_lang() == "en"
