"""Issue 25, item 12 through the API: a step's error and the note after it are two sentences.

The magics' side is in tests/notebook/test_careful_reader_magics.py.
"""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import LANGUAGES, sentences, t

EMAILS = [
    {"email": "Meet on 14 March 2024", "date": "2024-03-14"},
    {"email": "See you 2 Jan 2023", "date": "2023-01-02"},
    {"email": "Due 5 May 2022", "date": "2022-05-05"},
]
METRIC = """
def score(input, output, expected=None):
    return float(output == expected["date"]), {"feedback": "Compared."}
"""


def first_line(artifact, input):
    return artifact.splitlines()[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_run_error_ends_before_the_inputs_note(lang):
    report = sj.check(METRIC, EMAILS, outputs="date", run=first_line, artifact=2024, lang=lang)
    (run_step,) = [step for step in report.steps if step.id == "run_function"]
    error = "AttributeError: 'int' object has no attribute 'splitlines'"
    note = t("data.inputs_chosen", lang, columns="email")
    assert run_step.message.endswith(f"{error}. {note}")
    assert f"{error}. {note}" in str(report)


def test_sentences_end_each_part_but_the_last():
    assert (
        sentences("no attribute 'splitlines'", "Inputs: a.")
        == "no attribute 'splitlines'. Inputs: a."
    )
    assert sentences("Done.", "Next") == "Done. Next"
    assert sentences("Why? (see x.)", "", "  ", "Then") == "Why? (see x.) Then"
    assert sentences("", "Only") == "Only"
