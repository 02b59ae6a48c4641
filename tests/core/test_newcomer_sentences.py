"""What a newcomer reads when a first metric breaks (issue 36, items 2 and 5): why
``expected`` is None and which column to name, a column typo with its likely fix, one
sentence for one mistake, and a notebook variable told as such."""

from __future__ import annotations

import pickle
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.dataset import load_cases
from skynet_jupyter.core.errors import DataError, UnknownColumn

ROWS = [
    {"text": "Invoice 12 from ACME", "fields": {"vendor": "ACME"}},
    {"text": "Invoice 13 from Initech", "fields": {"vendor": "Initech"}},
]
READS_FIELDS = """
def score(input, output, expected=None):
    want = expected["fields"]
    ok = output == want
    return float(ok), {"feedback": "Right." if ok else f"Expected {want!r}."}
"""


def extract(artifact, case_input):
    return {"vendor": case_input["text"].split()[-1]}


def hint_of(report, step="metric_return_value") -> str:
    return next(s.hint for s in report.steps if s.id == step)


def test_expected_none_names_the_column_the_metric_reads():
    report = sj.check(READS_FIELDS, ROWS, run=extract, artifact="Extract.")
    assert not report.passed
    hint = hint_of(report)
    assert hint.startswith("expected is None because no Output column was given")
    assert "give outputs='fields' (--outputs fields" in hint
    fixed = sj.check(READS_FIELDS, ROWS, outputs="fields", run=extract, artifact="Extract.")
    assert fixed.passed


def test_expected_none_without_a_matching_column_still_says_why():
    reads_other = READS_FIELDS.replace('expected["fields"]', "expected.upper()")
    report = sj.check(reads_other, ROWS, run=extract, artifact="Extract.", lang="pt")
    assert hint_of(report).startswith("expected é None porque nenhuma coluna de saída foi dada")


def test_a_notebook_variable_is_told_as_such_not_to_catch_the_name_error():
    uses = 'def score(input, output, expected=None):\n    return THRESHOLD, {"feedback": "x"}\n'
    report = sj.check(uses, ROWS, outputs="fields", output_column="fields")
    hint = hint_of(report)
    assert "Define or import 'THRESHOLD' in the metric itself" in hint
    assert "catch the error" not in hint


@pytest.mark.parametrize("returned", ["1.0 if output else 0.0", "len(output)", "None"])
def test_one_mistake_on_every_case_is_said_once(returned):
    metric = f"def score(input, output, expected=None):\n    return {returned}\n"
    rows = [{"text": "x" * n, "label": "y" * n} for n in range(1, 4)]
    report = sj.check(metric, rows, outputs="label", output_column="label")
    errors = [case.error for case in report.cases]
    assert len(set(errors)) == 1, errors  # no value in the sentence
    text = str(report)
    assert text.count(errors[0]) == 2  # the step's summary and the first case; then "the same"
    assert "NoneType" not in text


def test_a_column_typo_names_the_option_and_the_close_column():
    with pytest.raises(UnknownColumn) as typo:
        load_cases(ROWS, outputs="feilds")
    assert str(typo.value) == (
        "outputs: no column 'feilds'. Did you mean 'fields'? The data has: text, fields."
    )
    assert typo.value.for_command().startswith("--outputs: no column 'feilds'. Did you mean")
    assert typo.value.message("fr").startswith("outputs : aucune colonne 'feilds'.")
    back = pickle.loads(pickle.dumps(typo.value))  # crosses to worker processes whole
    assert isinstance(back, DataError) and back.for_command() == typo.value.for_command()


def test_the_magic_names_its_own_option(shell):
    shell.user_ns["rows"] = ROWS
    shell.run_cell(f"%%skynet_metric\n{READS_FIELDS}")
    from IPython.core.error import UsageError

    with pytest.raises(UsageError, match=r"^--output-column: no column 'feild'\. Did you mean"):
        shell.run_line_magic("skynet_check", "--data rows --outputs fields --output-column feild")


names = st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    columns=st.lists(names, min_size=1, max_size=8, unique=True),
    asked=names,
    option=st.sampled_from(["outputs", "inputs", "output_column", "json_columns", "dtype"]),
    lang=st.sampled_from(["en", "fr", "pt"]),
)
def test_a_suggestion_is_always_a_real_column(columns, asked, option, lang):
    if asked in columns:
        return
    refused = UnknownColumn(option, asked, columns)
    assert refused.close is None or refused.close in columns
    said = refused.message(lang)
    command = refused.for_command(lang)
    assert said.startswith(option) and command.startswith("--" + option.replace("_", "-"))
    assert repr(asked) in said and all(column in said for column in columns)
    assert (refused.close is not None) == (said.count("'") > 2)
