"""The feedback adviser: the contract's weak/useful examples, each flag, every view."""

from __future__ import annotations

import json

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.advice import advise, is_generic, names_target
from skynet_jupyter.core.contract import FEEDBACK_ADVICE
from skynet_jupyter.core.report import ADVICE, PASSED, SKIPPED, CaseResult, CheckReport
from skynet_jupyter.i18n import LANGUAGES, catalog

BILLING = {"text": "I was charged twice for my subscription.", "label": "billing"}
TECHNICAL = {"text": "The app crashes on start.", "label": "technical"}
OTHER = {"text": "Do you have an office in Lisbon?", "label": "other"}

# "Useful feedback" in shared/spec/CONTRACT.md, and the same table in the
# French and Portuguese source pages.
WEAK = ["Wrong.", "Bad format.", "Faux.", "Mauvais format.", "Errado.", "Formato ruim."]
USEFUL_LABEL = [
    "Expected 'billing', got 'other'. The message mentions a charge.",
    "Attendu 'billing', obtenu 'other'. Le message mentionne un prélèvement.",
    "Esperado 'billing', obtido 'other'. A mensagem menciona uma cobrança.",
]
USEFUL_JSON = [
    "The output is not valid JSON. There is a stray comma after the last field.",
    "La sortie n'est pas un JSON valide. Il y a une virgule en trop après le dernier champ.",
    "A saída não é um JSON válido. Há uma vírgula sobrando depois do último campo.",
]


def case(index, score, feedback, expected=None, output="other", **extra) -> CaseResult:
    result = CaseResult(index, {"text": "..."}, expected, output=output, **extra)
    result.score = score
    result.feedback = feedback
    return result


def report_of(*cases: CaseResult, lang: str = "en", reward_spec=None) -> CheckReport:
    return CheckReport(steps=[], cases=list(cases), lang=lang, reward_spec=reward_spec)


def always(feedback: str, score: float = 0.0):
    """A metric that gives every output ``score`` and ``feedback``."""

    def score_(input, output, expected=None):
        return score, {"feedback": feedback}

    return score_


def labelled(right: str, wrong: str):
    """Exact match with the given feedback texts."""

    def score(input, output, expected=None):
        if output == expected["label"]:
            return 1.0, {"feedback": right}
        return 0.0, {"feedback": wrong}

    return score


def say_other(artifact, input):
    return "other"


# --- the contract's examples --------------------------------------------------


@pytest.mark.parametrize("feedback", WEAK)
def test_weak_feedback_is_flagged(feedback):
    step = advise(report_of(case(0, 0.0, feedback, {"label": "billing"}), case(1, 1.0, "OK")))
    assert step.status == ADVICE
    assert step.id == FEEDBACK_ADVICE
    assert step.status == ADVICE
    assert step.passed
    assert step.cases == (0,)
    assert repr(feedback) in step.message


@pytest.mark.parametrize("feedback", USEFUL_LABEL + USEFUL_JSON)
def test_useful_feedback_is_not_flagged(feedback):
    expected = {"label": "billing"} if "billing" in feedback else {"fields": ["name", "date"]}
    step = advise(report_of(case(0, 0.0, feedback, expected), case(1, 1.0, "Correct.")))
    assert (step.id, step.status, step.cases) == (FEEDBACK_ADVICE, PASSED, ())
    assert step.message == catalog("en")["advice.none"]["other"].format(count=2)


def test_weak_and_useful_through_check():
    weak = sj.check(
        labelled("Correct.", "Wrong."), [BILLING, OTHER], outputs="label", run=say_other
    )
    assert weak.passed  # advice never fails the check
    advice = weak.step(FEEDBACK_ADVICE)
    assert advice.status == ADVICE
    assert advice.cases == (0,)
    assert "'Wrong.'" in advice.message
    assert "\"Expected 'billing', got 'other'. <why>\"" in advice.message
    assert weak.advice == [advice]

    def useful(input, output, expected=None):
        want = expected["label"]
        if output == want:
            return 1.0, {"feedback": "Correct."}
        return 0.0, {
            "feedback": f"Expected {want!r}, got {output!r}. The message mentions a charge."
        }

    good = sj.check(useful, [BILLING, OTHER], outputs="label", run=say_other)
    assert good.passed
    assert good.step(FEEDBACK_ADVICE).status == PASSED
    assert good.advice == []


def test_useful_json_feedback_through_check():
    rows = [{"text": "name and date", "fields": "name,date"}, {"text": "x", "fields": "name"}]
    outputs = iter(['{"name": "a", "date": "b",}', '{"name": "a"}'])

    def run(artifact, input):
        return next(outputs)

    def score(input, output, expected=None):
        try:
            json.loads(output)
        except ValueError:
            return 0.0, {"feedback": USEFUL_JSON[0]}
        return 1.0, {"feedback": "All fields present."}

    report = sj.check(score, rows, outputs="fields", run=run)
    assert [c.score for c in report.cases] == [0.0, 1.0]
    assert report.advice == []


# --- each flag ----------------------------------------------------------------


@pytest.mark.parametrize(
    "feedback",
    [
        *WEAK,
        *["wrong", "WRONG!!!", "  Incorrect  ", "OK", "ok.", "Error", "Not correct."],
        *["The answer is wrong.", "Invalid output", "Mauvaise réponse !", "C'est faux."],
        *["Échec", "Resposta errada.", "Não.", "Saída inválida", "Score: 0.5", "0", ""],
    ],
)
def test_generic_feedback_in_three_languages(feedback):
    assert is_generic(feedback)


@pytest.mark.parametrize(
    "feedback",
    [
        "Close. Missing the date.",
        "Expected 'billing', got 'other'.",
        "The output is not valid JSON. There is a stray comma after the last field.",
        "Wrong label: the message mentions a refund.",
    ],
)
def test_specific_feedback_is_not_generic(feedback):
    assert not is_generic(feedback)


def test_generic_feedback_on_full_marks_is_fine():
    assert advise(report_of(case(0, 1.0, "OK"), case(1, 0.0, USEFUL_LABEL[0]))).status == PASSED


def test_full_marks_is_one_or_the_best_score_seen():
    # On a 0..10 scale, 10 is full marks: "OK" on a 7 is flagged, on the 10 it is not.
    step = advise(report_of(case(0, 10.0, "Correct."), case(1, 7.0, "OK")))
    assert step.status == ADVICE
    assert "'OK' on case 1:" in step.message
    assert step.cases == (1,)
    # Below 1.0 nothing is full marks: 0.9 with "OK" is flagged.
    step = advise(report_of(case(0, 0.9, "OK"), case(1, 0.0, USEFUL_LABEL[0])))
    assert step.status == ADVICE and "'OK' on case 0" in step.message


def test_empty_feedback_is_flagged():
    step = advise(report_of(case(0, 0.0, "", {"label": "billing"}), case(1, 1.0, "Correct.")))
    assert step.status == ADVICE
    assert step.message.startswith("Empty feedback on case 0:")
    assert "\"Expected 'billing', got 'other'. <why>\"" in step.message


def test_same_feedback_with_different_scores():
    feedback = "Partly right: see the fields."
    step = advise(report_of(case(0, 0.5, feedback), case(1, 0.8, feedback), case(2, 0.8, "x y")))
    assert step.status == ADVICE
    assert "The same feedback 'Partly right: see the fields.' on cases 0, 1" in step.message
    assert "which score 0.5, 0.8" in step.message
    assert step.cases == (0, 1)


def test_same_feedback_lists_scores_in_the_order_of_the_cases():
    # "on cases 2, 3, which score 0.833, 0.667": case 2 scored 0.833.
    step = advise(report_of(case(2, 0.833, "Wrong."), case(3, 0.667, "Wrong.")))
    assert "on cases 2, 3, which score 0.833, 0.667:" in step.message
    many = [case(i, 0.5 + i / 100, "Partly right: see the fields.") for i in range(7)]
    step = advise(report_of(*many))
    expected = (
        "on cases 0, 1, 2, 3, 4 (+2 more), which score 0.5, 0.51, 0.52, 0.53, 0.54 (+2 more):"
    )
    assert expected in step.message


def test_same_feedback_ignores_case_and_punctuation():
    step = advise(
        report_of(case(0, 0.6, "Close: check the date"), case(1, 0.9, "close, check the DATE!"))
    )
    assert step.status == ADVICE and "on cases 0, 1" in step.message


def test_constant_score_is_flagged():
    step = advise(report_of(*(case(i, 1.0, "Correct.") for i in range(3))))
    assert step.status == ADVICE
    assert step.message.startswith("The 3 cases all have the score 1.")
    assert step.cases == (0, 1, 2)


def test_one_case_is_not_a_constant_score():
    assert advise(report_of(case(0, 1.0, "Correct."))).status == PASSED


@pytest.mark.parametrize(
    ("feedback", "expected", "flagged"),
    [
        ("The label is off; the message talks about money.", {"label": "billing"}, True),
        ("Got 'other'.", {"label": "billing"}, True),  # quotes only the output
        ("The label is off; it is billing.", {"label": "billing"}, False),  # names the value
        ("The label should match the topic of the message.", {"label": "billing"}, False),
        ("Le libellé doit suivre le sujet du message.", {"label": "billing"}, False),
        ("O rótulo deve seguir o assunto da mensagem.", {"label": "billing"}, False),
        ("Try the label 'billing'.", None, False),  # quotes another value
        ("The answer is too short and vague.", None, True),
    ],
)
def test_feedback_without_a_target_on_a_low_score(feedback, expected, flagged):
    low = case(0, 0.2, feedback, expected)
    assert names_target(feedback, low) is not flagged
    step = advise(report_of(low, case(1, 1.0, "Correct.")))
    assert (step.status == ADVICE) is flagged
    if flagged:
        assert "comes with a low score" in step.message


def test_no_target_only_below_half_marks():
    vague = "The answer is a bit too long."
    assert advise(report_of(case(0, 0.6, vague), case(1, 1.0, "Correct."))).status == PASSED
    assert advise(report_of(case(0, 0.4, vague), case(1, 1.0, "Correct."))).status == ADVICE


def test_example_without_expected_is_a_pattern():
    step = advise(report_of(case(0, 0.0, "Wrong."), case(1, 1.0, "Good.")))
    assert '"<what is wrong>. A correct output would <what it needs>."' in step.message


def test_many_cases_are_summarised():
    report = sj.evaluate(always("Wrong."), [BILLING] * 9 + [OTHER], outputs="label", run=say_other)
    advice = report.step(FEEDBACK_ADVICE)
    assert "on cases 0, 1, 2, 3, 4 (+5 more)" in advice.message
    assert advice.cases == tuple(range(10))
    assert report.passed


def test_reward_metrics_are_judged_on_accuracy():
    # Speed differs between cases, so the reward differs, but "Correct." is not
    # "the same feedback with different scores": the accuracy is the same.
    source = """
from skynet import reward

REWARD_SPEC = {
    "weights": {"accuracy": 0.7, "speed": 0.2, "cost": 0.1},
    "accuracy": {},
    "speed": {"reference": 2000},
    "cost": {"reference": 0.01},
}


def score(input, output, expected=None):
    ok = output == expected["label"]
    want = expected["label"]
    return reward(REWARD_SPEC, 1.0 if ok else 0.0,
                  "Correct." if ok else f"Expected {want!r}, got {output!r}.")
"""
    report = sj.check(source, [OTHER, OTHER, BILLING], outputs="label", run=say_other)
    assert report.passed
    assert report.advice == []
    same = sj.check(source, [OTHER, OTHER], outputs="label", run=say_other)
    assert same.step(FEEDBACK_ADVICE).message.startswith("The 2 cases all have the accuracy 1.")


def test_broken_cases_are_not_read_and_load_errors_get_no_advice():
    def broken(input, output, expected=None):
        if expected["label"] == "billing":
            return 0.5
        return 0.0, {"feedback": USEFUL_LABEL[0]}

    report = sj.check(broken, [BILLING, OTHER], outputs="label", run=say_other)
    assert not report.passed
    assert report.advice == []
    unloadable = sj.check("def score(:\n", [BILLING], outputs="label", run=say_other)
    assert unloadable.cases == []
    assert unloadable.advice == []


@pytest.mark.parametrize(
    ("lang", "opening", "said"),
    [
        ("en", "Generic feedback", "'Bad format.' on case 1, 'Wrong.' on cases 2, 3: none of"),
        ("fr", "Retour", "'Bad format.' pour le cas 1, 'Wrong.' pour les cas 2, 3 : aucun"),
        ("pt", "Feedback genérico", "'Bad format.' no caso 1, 'Wrong.' nos casos 2, 3: nenhum"),
    ],
)
def test_two_generic_sentences_are_one_paragraph(lang, opening, said):
    # Tutorial 02 said the whole "it says neither what is wrong..." paragraph once per sentence.
    step = advise(
        report_of(
            case(0, 1.0, "OK"),
            case(1, 0.0, "Bad format.", {"label": "billing"}),
            case(2, 0.5, "Wrong.", {"label": "billing"}),
            case(3, 0.6, "Wrong.", {"label": "billing"}),
            lang=lang,
        )
    )
    assert step.message.count(opening) == 1
    assert said in step.message
    assert step.cases == (1, 2, 3)


# --- languages and views --------------------------------------------------------


def test_advice_keys_exist_in_every_language():
    keys = {key for key in catalog("en") if key.startswith("advice.")}
    assert len(keys) >= 10
    for lang in LANGUAGES:
        assert keys <= set(catalog(lang)), lang


@pytest.mark.parametrize(
    ("lang", "title", "words"),
    [
        ("en", "Feedback advice", ["Generic feedback 'Faux.' on case 0", "Expected 'billing'"]),
        ("fr", "Conseils sur le retour", ["Retour générique 'Faux.' pour le cas 0", "« Attendu"]),
        ("pt", "Conselhos sobre o feedback", ["Feedback genérico 'Faux.' no caso 0", "Esperado"]),
    ],
)
def test_advice_in_three_languages(lang, title, words):
    report = sj.check(
        labelled("Correct.", "Faux."),
        [BILLING, OTHER, OTHER],
        outputs="label",
        run=say_other,
        lang=lang,
    )
    advice = report.step(FEEDBACK_ADVICE)
    assert advice.title == title
    for word in words:
        assert word in advice.message
    assert advice.hint == catalog(lang)["advice.hint"]
    assert title in str(report)


def test_views_show_advice_escaped():
    hostile = "<b>Wrong</b>"
    report = sj.check(
        labelled("Correct.", hostile), [BILLING, OTHER], outputs="label", run=say_other
    )
    # "<b>Wrong</b>" is generic once its markup is read as punctuation.
    advice = report.step(FEEDBACK_ADVICE)
    html = report._repr_html_()
    assert 'data-step="feedback_advice" data-status="advice"' in html
    assert "&lt;b&gt;Wrong&lt;/b&gt;" in html
    assert "<b>Wrong</b>" not in html
    assert "Advice: " in html and "reads only the feedback" in html
    assert f"! Feedback advice: {advice.message}" in str(report)
    as_json = report.to_dict()["steps"][-1]
    assert as_json["id"] == FEEDBACK_ADVICE
    assert as_json["status"] == ADVICE
    assert as_json["passed"] is True


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_advice_is_a_step_every_view_shows(lang):
    # A tutorial that says "look at the feedback advice step" must find it even
    # when the feedback is good: the step passes and says so, in every view.
    report = sj.check(
        labelled("Correct.", "Expected 'other', got 'billing'. The message asks about an office."),
        [BILLING, OTHER],
        outputs="label",
        run=lambda artifact, input: "billing",
        lang=lang,
    )
    step = report.step(FEEDBACK_ADVICE)
    assert (step.status, step.cases, step.hint) == (PASSED, (), "")
    assert step.message == catalog(lang)["advice.none"]["other"].format(count=2)
    assert report.advice == [] and report.passed
    assert f"✓ {catalog(lang)['labelled'].format(label=step.title, text=step.message)}" in str(
        report
    )
    assert 'data-step="feedback_advice" data-status="passed"' in report._repr_html_()
    assert report.to_dict()["steps"][-1]["id"] == FEEDBACK_ADVICE


def test_no_valid_case_skips_the_advice_step():
    def bare_number(input, output, expected=None):
        return 0.5  # not a pair: every case fails at metric_return_value

    report = sj.check(bare_number, [BILLING, OTHER], outputs="label", run=say_other)
    step = report.step(FEEDBACK_ADVICE)
    assert not report.passed
    assert step.status == SKIPPED
    assert step.message == catalog("en")["advice.no_cases"]
    assert report.advice == []
