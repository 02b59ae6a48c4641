"""Issue 25, through the magics: what a newcomer reads when a metric is wrong.

The same scenarios through the API are in tests/core/test_said_once.py,
tests/run/test_said_once_cases.py and tests/show/test_said_once_views.py.  Each
message is read in English, French and Portuguese (``%config SkynetMagics.lang``).
"""

from __future__ import annotations

import sys
import textwrap

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

from skynet_jupyter.core.contract import ContractError
from skynet_jupyter.i18n import LANGUAGES, t
from skynet_jupyter.notebook import names
from skynet_jupyter.notebook.check_failed import CheckFailed
from skynet_jupyter.optimizers.gepa_adapter import install_command
from skynet_jupyter.show.formats import fmt_mean

LANGS = pytest.mark.parametrize("lang", LANGUAGES)

EMAILS = [
    {"email": "Meet on 14 March 2024", "date": "2024-03-14"},
    {"email": "See you 2 Jan 2023", "date": "2023-01-02"},
    {"email": "Due 5 May 2022", "date": "2022-05-05"},
    {"email": "Sent 1 Jun 2021", "date": "2021-06-01"},
]
CHECK = "%skynet_check --data emails --outputs date --run extract --artifact formats"


def extract(artifact, input):
    return input["email"][-4:]


@pytest.fixture
def shell(shell):
    """conftest.py's shell with the emails, a run function and its artifact (``formats``)."""
    shell.user_ns.update(emails=EMAILS, extract=extract, formats="YYYY-MM-DD")
    return shell


def cell(shell, source: str, lang: str = "en"):
    """Run a cell in ``lang``; (its result, what it printed and displayed)."""
    shell.run_line_magic("config", f"SkynetMagics.lang = {lang!r}")
    with capture_output() as captured:
        result = shell.run_cell(textwrap.dedent(source).lstrip("\n"), store_history=True)
    return result, captured


def metric_cell(shell, body: str, lang: str = "en"):
    return cell(shell, "%%skynet_metric\n" + textwrap.dedent(body).lstrip("\n"), lang)


def registered(shell, body: str, lang: str = "en") -> str:
    result, captured = metric_cell(shell, body, lang)
    result.raise_error()
    return captured.stdout + captured.stderr  # a note to act on is a warning, on stderr


def failed_check(shell, line: str = CHECK, lang: str = "en") -> CheckFailed:
    result, _ = cell(shell, line, lang)
    assert isinstance(result.error_in_exec, CheckFailed), result.error_in_exec
    return result.error_in_exec


# --- 1. misnamed parameters -------------------------------------------------------------


@LANGS
def test_misnamed_parameters_fail_at_registration(shell, lang):
    result, _ = metric_cell(
        shell, 'def score(output, expected):\n    return 1.0, {"feedback": "ok"}\n', lang
    )
    problem = result.error_in_exec
    assert isinstance(problem, ContractError)
    assert str(problem) == t(
        "signature.misnamed", lang, found="score(output, expected)", name="output", receives="input"
    )


# --- 2. a typo that hits a builtin or a module -----------------------------------------


@LANGS
def test_a_builtin_picked_up_by_a_typo_is_a_usage_error_with_the_close_name(shell, lang):
    registered(
        shell, 'def score(input, output, expected=None):\n    return 1.0, {"feedback": "ok"}\n'
    )
    result, _ = cell(shell, CHECK.replace("formats", "format"), lang)
    problem = result.error_in_exec
    assert isinstance(problem, UsageError)
    hint = t("magic.did_you_mean", lang, name="formats")
    assert str(problem) == t(
        "magic.builtin_found", lang, option="--artifact", text="format", hint=hint
    )


def test_a_module_is_refused_and_an_expression_or_a_constant_is_kept():
    import json

    user_ns = {"jsons": "x", "json": json, "prompt": "Say the date."}
    with pytest.raises(names.UnusableName, match=r"the module 'json'.* Did you mean 'jsons'"):
        names.resolve("--artifact", "json", names.artifact_file, user_ns, lang="en")
    with pytest.raises(names.UnusableName, match="builtin 'input'"):
        names.resolve("--run", "input", names.no_file, user_ns, lang="en")
    assert names.resolve("--artifact", "None", names.no_file, user_ns) is None
    assert names.resolve("--artifact", "prompt.upper()", names.no_file, user_ns) == "SAY THE DATE."
    assert names.resolve("--artifact", "len", names.no_file, {"len": 3}) == 3  # the notebook's


# --- 3. a failed check's mean -------------------------------------------------------------


@LANGS
def test_the_failed_check_headline_says_over_how_many_cases_the_mean_is(shell, lang):
    registered(
        shell,
        """
        def score(input, output, expected=None):
            if "March" not in input["email"]:
                raise ValueError("cannot parse")
            return 1.0, {"feedback": "Right: " + expected["date"] + "."}
        """,
    )
    _, captured = cell(shell, CHECK + " --cases 4", lang)
    over = t("report.mean_over", lang, scored=1, count=4)
    shown = "\n".join(str(output.data.get("text/plain", "")) for output in captured.outputs)
    assert f"{t('report.mean', lang)} {fmt_mean(1.0)} {over}" in shown


# --- 4. reward() without its spec ---------------------------------------------------------


@LANGS
def test_reward_without_its_spec_names_the_first_argument(shell, lang):
    registered(
        shell,
        """
        from skynet import reward
        def score(input, output, expected=None):
            return reward(1.0, "feedback here")
        """,
    )
    problem = failed_check(shell, lang=lang)
    assert t("spec.reward_first_argument", lang, value="1.0", type="float") in str(problem)


# --- 5. a KeyError lists the case's keys ------------------------------------------------


@LANGS
def test_a_misspelt_key_of_expected_lists_the_keys(shell, lang):
    registered(
        shell,
        """
        def score(input, output, expected=None):
            return float(output == expected["dat"]), {"feedback": "Expected the date."}
        """,
    )
    problem = failed_check(shell, lang=lang)
    note = t("case.key_missing", lang, key="'dat'", input="email", expected="date")
    assert note in str(problem)
    assert all(note in case.error for case in problem.report.cases)


# --- 6. the advice's example is a failed case's -------------------------------------------


@LANGS
def test_the_feedback_advice_example_comes_from_a_wrong_output(shell, lang):
    shell.user_ns["extract"] = lambda artifact, input: (
        "2024-03-14" if "March" in input["email"] else input["email"][-4:]
    )
    registered(
        shell,
        """
        def score(input, output, expected=None):
            return 0.0, {"feedback": "Wrong."}
        """,
    )
    _, captured = cell(shell, CHECK, lang)
    shown = "\n".join(str(output.data.get("text/plain", "")) for output in captured.outputs)
    assert t("advice.example", lang, expected="'2023-01-02'", output="'2023'") in shown
    wrong = t("advice.example", lang, expected="'2024-03-14'", output="'2024-03-14'")
    assert wrong not in shown


# --- 7. free names, said at registration ------------------------------------------------


@LANGS
def test_registration_names_what_the_cell_uses_and_does_not_define(shell, lang):
    shell.user_ns["PATTERN"] = r"\d{4}"  # a notebook variable: not visible to the metric
    said = registered(
        shell,
        """
        import re
        from skynet import reward
        LIMIT = 2

        def score(input, output, expected=None):
            found = re.search(PATTERN, output)
            return float(bool(found)), {"feedback": f"Looked for {PATTERN} within {LIMIT}."}
        """,
        lang,
    )
    assert t("magic.undefined_names", lang, names="'PATTERN'", count=1) in said
    for name in ("'re'", "'reward'", "'LIMIT'", "'float'"):
        assert name not in said


def test_a_self_contained_cell_registers_without_a_note(shell):
    said = registered(
        shell, 'def score(input, output, expected=None):\n    return 1.0, {"feedback": "ok"}\n'
    )
    assert "does not define" not in said


# --- 8. line numbers as JupyterLab counts them --------------------------------------------


@LANGS
def test_a_syntax_error_is_on_the_cells_line(shell, lang):
    result, _ = metric_cell(
        shell, 'def score(input, output, expected=None)\n    return 1.0, {"feedback": "ok"}\n', lang
    )
    problem = result.error_in_exec
    assert isinstance(problem, ContractError)
    # Line 1 is %%skynet_metric: the def is line 2 of the cell, as JupyterLab numbers it.
    assert str(problem) == t("loads.syntax_cell", lang, line=2, error=problem.fields["error"])


def test_a_traceback_at_check_time_is_on_the_cells_line(shell):
    registered(
        shell,
        """
        def score(input, output, expected=None):
            raise ValueError("no date")
        """,
    )
    problem = failed_check(shell)
    assert "line 3, in score" in problem.report.cases[0].traceback


# --- 9. no judge model --------------------------------------------------------------------

JUDGE = """
from skynet import llm
def score(input, output, expected=None):
    verdict = llm("Is this date right? yes or no.", {"output": output, "expected": expected})
    return (1.0 if "yes" in verdict else 0.0), {"feedback": verdict}
"""


@LANGS
def test_no_judge_model_is_said_once_as_a_configuration_problem(shell, lang, monkeypatch):
    for variable in ("SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL", "SKYNET_TASK_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    registered(shell, JUDGE)
    result, captured = cell(shell, CHECK, lang)
    problem = result.error_in_exec
    assert isinstance(problem, CheckFailed)
    configuration = t("case.no_metric_model", lang)
    assert configuration in str(problem)
    assert "ModelNotConfigured" not in str(problem)
    report = problem.report
    assert [case.error for case in report.cases[1:]] == [
        t("case.not_run_no_model", lang, case=0)
    ] * 2
    text = str(report)
    # Once in the step line (with the case number), once in case 0's row: not per case.
    assert text.count(configuration) == 2
    assert text.count("SKYNET_METRIC_MODEL") == 1  # the fix, with its three ways
    assert "Traceback" not in text
    shown = "\n".join(str(output.data.get("text/plain", "")) for output in captured.outputs)
    assert shown.count(configuration) == 2 and "Traceback" not in shown


# --- 11. a failure repeated across cases ------------------------------------------------


@LANGS
def test_the_misspelt_feedback_paragraph_is_said_once(shell, lang):
    registered(
        shell, 'def score(input, output, expected=None):\n    return 1.0, {"feedbak": "ok"}\n'
    )
    result, captured = cell(shell, CHECK + " --cases 4", lang)
    problem = result.error_in_exec
    assert isinstance(problem, CheckFailed)
    paragraph = problem.report.cases[0].error
    assert "feedbak" in paragraph
    shown = "\n".join(str(output.data.get("text/plain", "")) for output in captured.outputs)
    assert shown.count(paragraph) == 2  # the step line (cases 0–3) and case 0's row
    assert shown.count(t("case.same_error", lang, case=0)) == 3
    assert str(problem).count(paragraph) == 1


# --- 10. %skynet_optimize without gepa --------------------------------------------------


@LANGS
def test_optimize_without_gepa_is_one_line_with_the_install_command(shell, lang, monkeypatch):
    monkeypatch.setitem(sys.modules, "gepa", None)  # import gepa raises ImportError
    registered(
        shell, 'def score(input, output, expected=None):\n    return 1.0, {"feedback": "ok"}\n'
    )
    result, _ = cell(
        shell,
        "%skynet_optimize --data emails --outputs date --run extract --artifact formats "
        "--reflection-model openai/gpt-4o-mini",
        lang,
    )
    problem = result.error_in_exec
    assert isinstance(problem, UsageError)
    assert str(problem) == t("optimize.needs_gepa", lang, command=install_command("gepa"))
    assert "\n" not in str(problem)
