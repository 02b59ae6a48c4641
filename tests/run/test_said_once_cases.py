"""Issue 25, through the API: what a case says when the metric is wrong.

``reward()`` without its spec, a KeyError on input or expected, no model configured.

The same scenarios through the magics are in tests/notebook/test_said_once_magics.py.
"""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE, RUN_FUNCTION
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.i18n import LANGUAGES, t

LANGS = pytest.mark.parametrize("lang", LANGUAGES)

EMAILS = [
    {"email": "Meet on 14 March 2024", "date": "2024-03-14"},
    {"email": "See you 2 Jan 2023", "date": "2023-01-02"},
    {"email": "Due 5 May 2022", "date": "2022-05-05"},
]


def extract(artifact, input):
    return input["email"][-4:]


def check(metric, lang="en", **options):
    options.setdefault("run", extract)
    return sj.check(metric, EMAILS, outputs="date", artifact="dates", lang=lang, **options)


# --- 4. reward() without its spec --------------------------------------------------------

FORGOT_SPEC = """
from skynet import reward
def score(input, output, expected=None):
    return reward(1.0, "feedback here")
"""


@LANGS
def test_reward_without_its_spec_says_the_first_argument_is_the_spec(lang):
    report = check(FORGOT_SPEC, lang)
    step = report.step(METRIC_RETURN_VALUE)
    sentence = t("spec.reward_first_argument", lang, value="1.0", type="float")
    assert sentence in step.message
    assert all(sentence in case.error for case in report.cases)
    assert t("spec.not_dict", lang, type="float") not in step.message
    # The fix is the call itself, not "catch the error and return (0.0, ...)".
    assert step.hint == t("hint.reward_call", lang)


# --- 5. a KeyError on input or expected lists the case's keys ----------------------------

MISSPELT_KEY = """
def score(input, output, expected=None):
    want = expected["dat"]
    return float(output == want), {"feedback": f"Expected {want!r}."}
"""


@LANGS
def test_a_missing_key_of_expected_lists_the_keys_the_case_has(lang):
    report = check(MISSPELT_KEY, lang)
    note = t("case.key_missing", lang, key="'dat'", input="email", expected="date")
    assert all(note in case.error for case in report.cases)
    assert "KeyError: 'dat'" in report.cases[0].error
    assert note in report.step(METRIC_RETURN_VALUE).message


@LANGS
def test_a_missing_key_of_input_in_run_lists_the_input_keys(lang):
    source = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n"
    report = check(source, lang, run=lambda artifact, input: input["emial"])
    note = t("case.key_missing_input", lang, key="'emial'", input="email")
    assert report.cases[0].failed_step == RUN_FUNCTION
    assert report.cases[0].error.endswith(note)


def test_a_key_error_raised_by_hand_adds_nothing():
    source = "def score(input, output, expected=None):\n    raise KeyError('label')\n"
    report = check(source)
    assert report.cases[0].error == t("case.metric_raised", "en", error="KeyError: 'label'")


def test_a_key_error_from_another_dict_adds_nothing():
    source = (
        "def score(input, output, expected=None):\n"
        "    return {'x': 1}['date'], {'feedback': 'ok'}\n"
    )
    report = check(source)
    assert report.cases[0].error == t("case.metric_raised", "en", error="KeyError: 'date'")


# --- 9. no judge model: said once, as a configuration problem; the check stops ----------

JUDGE = """
from skynet import llm
def score(input, output, expected=None):
    verdict = llm("Is this date right? Answer yes or no.", {"output": output, "expected": expected})
    return (1.0 if "yes" in verdict else 0.0), {"feedback": verdict}
"""


@LANGS
def test_no_metric_model_stops_at_the_first_case_and_says_how_to_set_one(lang):
    calls = []

    def counted(artifact, input):
        calls.append(input["email"])
        return extract(artifact, input)

    report = check(JUDGE, lang, run=counted, models=ModelSettings())
    first, *rest = report.cases
    assert len(calls) == 1  # the other cases were not run: they would fail the same way
    assert first.error == t("case.no_metric_model", lang)
    assert first.traceback is None
    assert [case.error for case in rest] == [t("case.not_run_no_model", lang, case=0)] * 2
    step = report.step(METRIC_RETURN_VALUE)
    assert step.message.startswith(t("step.case_failed", lang, case=0, error=first.error))
    assert step.hint == t("hint.no_metric_model", lang)
    # The three ways to set a model are in the fix, and the long exception text nowhere.
    for way in ("SKYNET_METRIC_MODEL", "configure(metric_model=...)", "SkynetMagics.metric_model"):
        assert way in step.hint
    assert "ModelNotConfigured" not in str(report)
    assert str(report).count("SKYNET_METRIC_MODEL") == 1
    assert len(str(report)) < 2500


def test_no_task_model_in_run_is_a_configuration_problem_at_the_run_step():
    def asks(artifact, input):
        from skynet import llm

        return llm("Extract the date.", input)

    source = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'ok'}\n"
    report = check(source, run=asks, models=ModelSettings())
    assert report.cases[0].failed_step == RUN_FUNCTION
    assert report.cases[0].error == t("case.no_task_model", "en")
    assert report.step(RUN_FUNCTION).hint == t("hint.no_task_model", "en")
    assert [case.error for case in report.cases[1:]] == [
        t("case.not_run_no_model", "en", case=0)
    ] * 2
