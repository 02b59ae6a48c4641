"""Issue 25, through the API: the words a newcomer reads when a metric is wrong.

The same scenarios through the magics are in tests/notebook/test_said_once_magics.py.
"""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.advice import advise
from skynet_jupyter.core.contract import METRIC_LOADS, METRIC_SIGNATURE, ContractError
from skynet_jupyter.core.metric import load_metric, undefined_names
from skynet_jupyter.core.report import CaseResult, CheckReport
from skynet_jupyter.core.reward import RewardSpec
from skynet_jupyter.i18n import LANGUAGES, t

LANGS = pytest.mark.parametrize("lang", LANGUAGES)


# --- 1. misnamed parameters fail the signature step -----------------------------------


@LANGS
def test_a_contract_name_in_another_position_fails_the_signature_step(lang):
    def score(output, expected):
        return 1.0, {"feedback": "ok"}

    with pytest.raises(ContractError) as raised:
        load_metric(score)
    problem = raised.value
    assert problem.step == METRIC_SIGNATURE
    assert problem.message_id == "signature.misnamed"
    assert problem.fields == {
        "found": "score(output, expected)",
        "name": "output",
        "receives": "input",
    }
    text = problem.message(lang)
    assert text == t("signature.misnamed", lang, **problem.fields)
    assert "score(output, expected)" in text and "input, output, expected=None" in text


def test_the_check_fails_at_the_signature_step_before_any_case():
    report = sj.check(
        "def score(input, expected):\n    return 1.0, {'feedback': 'ok'}\n",
        [{"email": "On 14 March", "date": "2024-03-14"}],
        outputs="date",
        output_column="date",
    )
    step = report.step(METRIC_SIGNATURE)
    assert step.status == "failed"
    assert "'expected'" in step.message and "the output" in step.message
    assert report.cases == []


@pytest.mark.parametrize(
    "source",
    [
        "def score(input, output, expected=None): ...",
        "def score(input, output): ...",
        "def score(x, y, z=None): ...",  # other names are the user's choice
        "def score(inp, output, expected=None): ...",
    ],
)
def test_contract_names_in_their_place_or_other_names_pass(source):
    assert load_metric(source + "\n").arity in (2, 3)


# --- 4. reward() without its spec --------------------------------------------------------


@LANGS
def test_reward_first_argument_not_a_dict_says_it_is_the_spec(lang):
    with pytest.raises(ContractError) as raised:
        RewardSpec.from_argument(1.0)
    text = raised.value.message(lang)
    assert raised.value.message_id == "spec.reward_first_argument"
    assert text == t("spec.reward_first_argument", lang, value="1.0", type="float")
    assert "reward(REWARD_SPEC, accuracy, feedback)" in text
    assert "REWARD_SPEC is a" not in text


# --- 6. the advice's example comes from a case that failed --------------------------------


def _case(index: int, output: str, expected: str, score: float, feedback: str) -> CaseResult:
    return CaseResult(
        index, {"email": f"mail {index}"}, {"date": expected}, output, score, feedback
    )


@LANGS
def test_the_suggested_feedback_quotes_a_wrong_output(lang):
    # Case 0's output is right but the metric scored it low: its values make no example.
    cases = [
        _case(0, "2024-03-14", "2024-03-14", 0.0, "Wrong."),
        _case(1, "2023", "2023-01-02", 0.0, "Wrong."),
        _case(2, "2022", "2022-05-05", 0.0, "Wrong."),
    ]
    report = CheckReport(steps=[], cases=cases, lang=lang, total_cases=3)
    message = advise(report).message
    assert t("advice.example", lang, expected="'2023-01-02'", output="'2023'") in message
    assert "'2024-03-14', " not in message


def test_with_only_right_outputs_scored_low_the_example_has_no_values():
    cases = [_case(0, "2024-03-14", "2024-03-14", 0.0, "Wrong.")]
    message = advise(CheckReport(steps=[], cases=cases, total_cases=1)).message
    assert t("advice.example_no_expected", "en") in message
    assert "2024-03-14" not in message


# --- 7. free names, known at registration --------------------------------------------------


def test_undefined_names_lists_what_the_source_uses_and_never_defines():
    source = """
import re
from skynet import reward
LIMIT = 3

def helper(text):
    return [w for w in text.split() if w not in STOPWORDS]

class Judge:
    mode = MODE

def score(input, output, expected=None):
    global COUNTER
    COUNTER = 1
    found = re.search(PATTERN, output)
    return reward(SPEC, 1.0 if found else 0.0, str(len(helper(output)) + LIMIT + COUNTER))
"""
    metric = load_metric(source.replace("    mode = MODE\n", "    mode = 'x'\n"))
    assert undefined_names(metric) == ["PATTERN", "SPEC", "STOPWORDS"]


def test_a_self_contained_metric_or_a_callable_has_no_undefined_names():
    source = "import json\ndef score(input, output, expected=None):\n"
    source += "    return float(len(json.dumps(output)) > 0), {'feedback': str(len(output))}\n"
    assert undefined_names(load_metric(source)) == []

    def score(input, output, expected=None):
        return 1.0, {"feedback": NOT_DEFINED}  # noqa: F821

    assert undefined_names(load_metric(score)) == []


# --- 8. line numbers as the notebook counts them ----------------------------------------


@LANGS
def test_a_syntax_error_in_a_cell_is_counted_from_the_magic_line(lang):
    source = "def score(input, output, expected=None)\n    return 1.0, {'feedback': 'ok'}\n"
    with pytest.raises(ContractError) as raised:
        load_metric(source, first_line=2)
    problem = raised.value
    assert problem.step == METRIC_LOADS
    assert problem.message_id == "loads.syntax_cell"
    assert problem.fields["line"] == 2
    assert problem.message(lang) == t(
        "loads.syntax_cell", lang, line=2, error=problem.fields["error"]
    )
    assert ", line 2" in problem.detail


def test_a_file_keeps_its_own_numbering_and_tracebacks_follow_the_cell():
    source = "def score(input, output, expected=None)\n    return 1.0, {}\n"
    with pytest.raises(ContractError) as raised:
        load_metric(source)
    assert (raised.value.message_id, raised.value.fields["line"]) == ("loads.syntax", 1)

    raising = "def score(input, output, expected=None):\n    raise ValueError('no')\n"
    report = sj.check(
        load_metric(raising, first_line=2),
        [{"email": "a", "date": "b"}],
        outputs="date",
        output_column="date",
        cases=1,
    )
    assert "line 3, in score" in report.cases[0].traceback
