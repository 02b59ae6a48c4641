"""The options of a run: each rule written once (``RunOptions``), said the same way by
``check()``, the magics and ``skynet-check`` (each naming its own options)."""

from __future__ import annotations

import dataclasses
import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from skynet_jupyter import cli
from skynet_jupyter.cli.exits import EXIT_USAGE
from skynet_jupyter.core.dataset import DataError, load_cases, pick_cases
from skynet_jupyter.core.keywords import EVALUATE
from skynet_jupyter.core.options import (
    Isolation,
    Limits,
    OptionError,
    OutputsError,
    RunOptions,
    Sample,
)

METRIC = """
def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}
"""


def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}


def echo(artifact, input):
    return artifact


ROWS = [{"q": n, "label": "x"} for n in range(4)]
COLUMN = {"outputs": "label", "output_column": "label"}


# --- each rule, once: the sentence it gives ----------------------------------------


@pytest.mark.parametrize(
    ("given", "error", "sentence"),
    [
        (
            {**COLUMN, "timeout": 0},
            OptionError,
            "timeout must be between 1 and 600 seconds (the metric time limit), got 0.",
        ),
        (
            {**COLUMN, "timeout": 600.5},
            OptionError,
            "timeout must be between 1 and 600 seconds (the metric time limit), got 600.5.",
        ),
        (
            {**COLUMN, "timeout": float("nan")},
            OptionError,
            "timeout must be between 1 and 600 seconds (the metric time limit), got nan.",
        ),
        (
            {**COLUMN, "timeout": True},
            OptionError,
            "timeout must be between 1 and 600 seconds (the metric time limit), got True.",
        ),
        (
            {**COLUMN, "run_timeout": 0.5},
            OptionError,
            "run_timeout must be between 1 and 86400 seconds (the run function's time limit "
            "per case), got 0.5.",
        ),
        (
            {**COLUMN, "isolation": "fork"},
            OptionError,
            'isolation must be "thread" or "process", got \'fork\'.',
        ),
        (
            {**COLUMN, "isolation": "process", "executor": ThreadPoolExecutor(1)},
            OptionError,
            'isolation="process" runs cases in local worker processes and does not combine '
            "with an executor (the executor's own workers run the cases): give one or the "
            "other.",
        ),
        (
            {"run": echo, "output_column": "label"},
            OutputsError,
            "Give run= or output_column=, not both.",
        ),
        (
            {"outputs": "label"},
            OutputsError,
            "No outputs: give run= (outputs come from run(artifact, input)) or output_column= "
            "(outputs already in the data).",
        ),
        ({**COLUMN, "cases": 0}, OptionError, "cases must be 1 or more, got 0."),
        ({**COLUMN, "cases": True}, OptionError, "cases must be 1 or more, got True."),
        (
            {**COLUMN, "sample": "middle"},
            OptionError,
            "sample must be 'first' or 'random', got 'middle'.",
        ),
        (
            {**COLUMN, "concurrency": 0},
            OptionError,
            "concurrency must be a whole number of 1 or more, got 0.",
        ),
        (
            {**COLUMN, "concurrency": 2.0},
            OptionError,
            "concurrency must be a whole number of 1 or more, got 2.0.",
        ),
    ],
)
def test_each_broken_rule_is_its_sentence(given, error, sentence):
    with pytest.raises(error) as caught:
        RunOptions.given(lang="en", **given)
    assert str(caught.value) == sentence
    assert isinstance(caught.value, ValueError)
    # The same rule holds however the options are made: typed, or through replace().
    with pytest.raises(error) as again:
        RunOptions(lang="en", **given)
    assert str(again.value) == sentence


def test_the_outputs_rule_is_still_a_data_error_and_the_limits_a_value_error():
    with pytest.raises(DataError, match="not both"):
        RunOptions(run=echo, output_column="label")
    with pytest.raises(ValueError) as caught:
        RunOptions(output_column="label", timeout=0)
    assert not isinstance(caught.value, DataError)


def test_a_sentence_comes_in_the_options_language():
    with pytest.raises(OptionError) as caught:
        RunOptions.given(output_column="label", timeout=0, lang="fr")
    assert str(caught.value) == (
        "timeout doit être compris entre 1 et 600 secondes (le délai de la métrique), reçu 0."
    )
    assert caught.value.message("pt").startswith("timeout deve estar entre 1 e 600 segundos")
    assert caught.value.message("en").startswith("timeout must be between 1 and 600 seconds")


def test_an_unknown_language_is_said_first():
    with pytest.raises(ValueError, match="Unknown language 'de'"):
        RunOptions(output_column="label", timeout=0, lang="de")


def test_made_options_are_typed_and_frozen(monkeypatch):
    monkeypatch.setenv("SKYNET_LANG", "pt")
    options = RunOptions.given(
        run=echo, isolation="process", sample="random", timeout=5, run_timeout=30
    )
    assert options.isolation is Isolation.PROCESS and options.isolation == "process"
    assert options.sample is Sample.RANDOM
    assert options.lang == "pt" and options.language == "pt"
    assert options.limits == Limits(metric=5.0, run=30.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.timeout = 0  # type: ignore[misc]
    with pytest.raises(OptionError, match="timeout deve estar entre"):
        dataclasses.replace(options, timeout=0)


def test_fields_are_exactly_the_keywords_of_check_and_evaluate():
    import inspect

    fields = {field.name for field in dataclasses.fields(RunOptions)}
    skipped = {"metric", "data", "on_event", "run_cache"}
    eval_only = {"concurrency", "executor"}
    for function, extra in ((sj.check, eval_only), (sj.evaluate, set())):
        names = set(inspect.signature(function).parameters) - skipped
        assert fields - extra == names
    # evaluate's defaults are the options' own, but for how many cases run at once.
    options = EVALUATE.options("evaluate", {"output_column": "label"})
    defaults = inspect.signature(sj.evaluate).parameters
    for name in fields - {"lang", "output_column"}:
        assert getattr(options, name) == defaults[name].default, name


def test_the_error_crosses_a_process_boundary_intact():
    with pytest.raises(OutputsError) as caught:
        RunOptions(run=echo, output_column="label")
    back = pickle.loads(pickle.dumps(caught.value))
    assert type(back) is OutputsError and isinstance(back, DataError)
    assert str(back) == "Give run= or output_column=, not both."
    assert back.message("fr") == "Donnez run= ou output_column=, pas les deux."
    with pytest.raises(OptionError) as unpicklable, ThreadPoolExecutor(1) as pool:
        RunOptions(output_column="label", isolation="process", executor=pool)
    back = pickle.loads(pickle.dumps(unpicklable.value))
    assert str(back) == str(unpicklable.value) and back.option == "executor"


def test_limits_checked_and_pick_cases_use_the_same_rules():
    with pytest.raises(OptionError) as from_limits:
        Limits.checked(0)
    with pytest.raises(OptionError) as from_options:
        RunOptions(output_column="label", timeout=0)
    assert str(from_limits.value) == str(from_options.value)
    cases = load_cases(ROWS, outputs="label")
    with pytest.raises(OptionError) as from_pick:
        pick_cases(cases, 0)
    with pytest.raises(OptionError) as from_run:
        RunOptions(output_column="label", cases=0)
    assert str(from_pick.value) == str(from_run.value) == "cases must be 1 or more, got 0."


# --- check(), the magic and skynet-check: the same rule, each in its own words -------


def test_check_refuses_before_anything_runs():
    ran = []

    def counting(artifact, input):
        ran.append(input)
        return "x"

    for bad in ({"timeout": 0}, {"output_column": "label"}, {"isolation": "fork"}):
        with pytest.raises(ValueError):
            sj.check(score, ROWS, outputs="label", run=counting, artifact="a", **bad)
    assert ran == []


@pytest.fixture
def shell(shell):
    """conftest.py's shell, with the rows, the run function and the metric registered."""
    shell.user_ns.update(rows=ROWS, echo=echo)
    with capture_output():
        shell.run_cell(f"%%skynet_metric\n{METRIC}").raise_error()
    return shell


def magic_error(shell, line: str, magic: str = "skynet_check") -> str:
    with capture_output() as captured:
        result = shell.run_cell(f"%{magic} {line}")
    assert isinstance(result.error_in_exec, UsageError), result.error_in_exec
    assert captured.outputs == []  # refused before any view was shown
    return str(result.error_in_exec)


def cli_error(capsys, tmp_path, *args: str) -> str:
    metric = tmp_path / "metric.py"
    metric.write_text(METRIC)
    data = tmp_path / "cases.csv"
    data.write_text("q,label\n1,x\n")
    code = cli.main([str(metric), "--data", str(data), "--outputs", "label", *args])
    assert code == EXIT_USAGE
    return capsys.readouterr().err.strip().removeprefix("skynet-check: ")


def test_a_bad_timeout_is_one_sentence_everywhere(shell, capsys, tmp_path):
    with pytest.raises(OptionError) as from_check:
        sj.check(score, ROWS, output_column="label", outputs="label", timeout=0.0)
    rule = from_check.value
    assert rule.option == "timeout" and rule.message_id == "limits.timeout"
    # The magic says the API's sentence (its option has the same name).
    said = magic_error(shell, "--data rows --outputs label --output-column label --timeout 0")
    assert said == str(rule)
    # skynet-check names its option and shows the number as it was typed.
    said = cli_error(capsys, tmp_path, "--output-column", "label", "--timeout", "0")
    assert said == rule.for_cli("en") == "--timeout must be between 1 and 600 seconds, got 0."


def test_run_and_output_column_is_one_rule_everywhere(shell):
    with pytest.raises(OutputsError) as from_check:
        sj.check(score, ROWS, outputs="label", run=echo, output_column="label")
    rule = from_check.value
    assert str(rule) == "Give run= or output_column=, not both."
    said = magic_error(shell, "--data rows --outputs label --run echo --output-column label")
    assert said == rule.for_magic("en") == "Give --run or --output-column, not both."
    with pytest.raises(OutputsError) as neither:
        sj.check(score, ROWS, outputs="label")
    said = magic_error(shell, "--data rows --outputs label")
    assert said == neither.value.for_magic("en")
    assert said.startswith("Say where the outputs come from: --run FUNC")


def test_the_quality_magics_say_the_same_sentences(shell):
    with pytest.raises(OptionError) as from_check:
        sj.evaluate(score, ROWS, outputs="label", output_column="label", concurrency=0)
    for magic in ("skynet_stability", "skynet_probe", "skynet_eval"):
        line = "--data rows --outputs label --output-column label --concurrency 0"
        assert magic_error(shell, line, magic) == str(from_check.value)
        line = "--data rows --outputs label --run echo --output-column label"
        assert magic_error(shell, line, magic) == "Give --run or --output-column, not both."


def test_the_magic_checks_the_rule_before_looking_names_up(shell):
    # "nothing" names no variable and no file: the rule is said, not the lookup's failure.
    said = magic_error(shell, "--data rows --run nothing --output-column label")
    assert said == "Give --run or --output-column, not both."


def test_bad_cases_is_one_rule_in_check_the_magic_and_the_cli(shell, capsys, tmp_path):
    with pytest.raises(OptionError) as from_check:
        sj.evaluate(score, ROWS, outputs="label", output_column="label", cases=0)
    assert str(from_check.value) == "cases must be 1 or more, got 0."
    said = magic_error(shell, "--data rows --outputs label --output-column label --cases 0")
    assert said == str(from_check.value)
    said = cli_error(capsys, tmp_path, "--output-column", "label", "--cases", "0")
    assert said == from_check.value.for_cli("en") == "--cases must be 1 or more, got 0."


def test_the_cli_keeps_its_own_load_timeout_range(capsys, tmp_path):
    said = cli_error(capsys, tmp_path, "--output-column", "label", "--load-timeout", "601")
    assert said == "--load-timeout must be between 1 and 600 seconds, got 601."


# --- each error names its option and value, in the options' language, and survives pickling


FRENCH_POOL = ThreadPoolExecutor(1)


@pytest.mark.parametrize(
    ("given", "option", "value", "french"),
    [
        (
            {**COLUMN, "concurrency": 0},
            "concurrency",
            0,
            "concurrency doit être un nombre entier de 1 ou plus, reçu 0.",
        ),
        (
            {**COLUMN, "isolation": "fork"},
            "isolation",
            "fork",
            'isolation doit valoir "thread" ou "process", reçu \'fork\'.',
        ),
        (
            {**COLUMN, "isolation": "process", "executor": FRENCH_POOL},
            "executor",
            FRENCH_POOL,
            None,
        ),
        ({"run": echo, "output_column": "label"}, "run", None, None),
        ({"outputs": "label"}, "run", None, None),
        ({**COLUMN, "cases": 0}, "cases", 0, "cases doit valoir 1 ou plus, reçu 0."),
        ({**COLUMN, "sample": "middle"}, "sample", "middle", None),
        ({**COLUMN, "timeout": 0}, "timeout", 0, None),
        ({**COLUMN, "run_timeout": 0.5}, "run_timeout", 0.5, None),
    ],
)
@pytest.mark.parametrize("made", ["typed", "given"])
def test_each_error_names_its_option_and_value_in_the_options_language(
    given, option, value, french, made, monkeypatch
):
    monkeypatch.setenv("SKYNET_LANG", "en")  # the language not asked for
    make = RunOptions if made == "typed" else RunOptions.given
    with pytest.raises(OptionError) as caught:
        make(lang="fr", **given)
    error = caught.value
    assert error.option == option
    assert error.given is value or error.given == value
    assert str(error) == error.message("fr") != error.message("en")
    if french is not None:
        assert str(error) == french
    # Across a process boundary: the same rule, option, plain value and fields.
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and back.option == option and back.fields == error.fields
    assert back.given == (None if option == "executor" else value)
    assert back.message("fr") == str(error)
    assert str(back) == error.message("en")


def test_the_magics_and_the_cli_say_a_rule_in_the_language_asked():
    with pytest.raises(OutputsError) as both:
        RunOptions(run=echo, output_column="label", lang="fr")
    assert both.value.for_magic("fr") == "Donnez --run ou --output-column, pas les deux."
    assert both.value.for_magic("en") == "Give --run or --output-column, not both."
    assert both.value.for_cli("fr") == "Donnez --run ou --output-column, pas les deux."
    with pytest.raises(OptionError) as cases:
        RunOptions(output_column="label", cases=0)
    assert cases.value.for_cli("fr") == "--cases doit valoir 1 ou plus, reçu 0."
    assert cases.value.for_cli("en") == "--cases must be 1 or more, got 0."


@pytest.mark.parametrize(
    ("given", "english", "french"),
    [
        (
            {"timeout": 0},
            "--timeout must be between 1 and 600 seconds, got 0.",
            "--timeout doit être entre 1 et 600 secondes, reçu 0.",
        ),
        (
            {"timeout": True},
            "--timeout must be between 1 and 600 seconds, got True.",
            "--timeout doit être entre 1 et 600 secondes, reçu True.",
        ),
        (
            {"run_timeout": 0.5},
            "--run-timeout must be between 1 and 86400 seconds, got 0.5.",
            "--run-timeout doit être entre 1 et 86400 secondes, reçu 0.5.",
        ),
        (
            {"run_timeout": 90000},
            "--run-timeout must be between 1 and 86400 seconds, got 90000.",
            "--run-timeout doit être entre 1 et 86400 secondes, reçu 90000.",
        ),
    ],
)
def test_the_cli_names_its_time_limit_option_and_range_as_typed(given, english, french):
    with pytest.raises(OptionError) as caught:
        RunOptions(output_column="label", lang="en", **given)
    assert caught.value.for_cli("en") == english
    assert caught.value.for_cli("fr") == french


def test_limits_checked_keeps_both_limits_and_speaks_the_language_asked():
    from skynet_jupyter.core.options import checked_limits

    assert Limits.checked(5, 30) == Limits(metric=5.0, run=30.0)
    assert checked_limits(5, 30) == Limits(metric=5.0, run=30.0)
    with pytest.raises(OptionError) as caught:
        Limits.checked(0, lang="fr")
    assert str(caught.value) == (
        "timeout doit être compris entre 1 et 600 secondes (le délai de la métrique), reçu 0."
    )
