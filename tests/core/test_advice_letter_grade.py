"""A letter grade as the score gets advice that can work (issue 44, item 17).

A judge that answers 'A' to 'F' and a metric that returns the letter: the advice used to be
"return an int or a float (for example float(x))", and ``float("C")`` raises.  It now names
a mapping of the user's own, with the letter's place in it; ``float()`` is said only for
text that holds a number.  Read in the text report and the HTML, in each language.
"""

from __future__ import annotations

from html import unescape

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import METRIC_RETURN_VALUE, validate_return
from skynet_jupyter.core.report import FAILED
from skynet_jupyter.show.render import report_html


def letter_grade(input, output, expected=None):
    return "C", {"feedback": "Half of the fields are right."}


ROWS = [{"text": "a", "label": "a"}]
MAPPING = {
    "en": "such as GRADES = {'A': 1.0, 'B': 0.75, 'C': 0.5, 'D': 0.25, 'F': 0.0}, then return",
    "fr": "comme NOTES = {'A': 1.0, 'B': 0.75, 'C': 0.5, 'D': 0.25, 'F': 0.0}, puis renvoyez",
    "pt": "como NOTAS = {'A': 1.0, 'B': 0.75, 'C': 0.5, 'D': 0.25, 'F': 0.0}, e depois devolva",
}


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_the_letter_gets_a_mapping_not_float_of_it(lang):
    report = sj.check(letter_grade, ROWS, outputs="label", output_column="label", lang=lang)
    step = report.step(METRIC_RETURN_VALUE)
    assert step.status == FAILED
    error = report.cases[0].error
    assert "'C'" in error and MAPPING[lang] in error
    assert "float(x)" not in error  # float("C") raises: never the advice for a letter
    for shown in (" ".join(str(report).split()), " ".join(unescape(report_html(report)).split())):
        assert MAPPING[lang] in shown
        assert "float(x)" not in shown


def test_the_mapping_named_works_on_the_letter():
    # The sentence's own mapping, run: it turns the letter into a score the contract takes.
    grades = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25, "F": 0.0}
    assert validate_return((grades["C"], {"feedback": "ok"})) == (0.5, {"feedback": "ok"})
    with pytest.raises(ValueError):
        float("C")
