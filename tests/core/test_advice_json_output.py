"""The "looks like JSON" advice names the output column (issue 43, F3).

A metric that parses ``expected["answer"]`` itself (``json.loads``) while the output column
holds JSON text gets ``output`` as a string: the fix is ``json_columns=["prediction"]``.
The advice used to name ``answer`` (which breaks the metric: it would ``json.loads`` a
list) and never looked at the output column.  Now the output column is named, alone; once
it is parsed, the Output column is named with a word for a metric that parses it itself.
"""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.contract import FEEDBACK_ADVICE
from skynet_jupyter.i18n import t
from skynet_jupyter.show.render import report_html


def parses_answer_itself(input, output, expected=None):
    want = json.loads(expected["answer"])
    if output == want:
        return 1.0, {"feedback": "Every field found."}
    return 0.0, {"feedback": f"Expected the fields {want}, got {output!r}."}


@pytest.fixture
def cases_csv(tmp_path: Path) -> str:
    path = tmp_path / "cases.csv"
    path.write_text(
        "text,answer,prediction\n"
        '"Ada, ada@example.com","[""name"", ""email""]","[""name"", ""email""]"\n'
        '"Bob","[""name""]","[""name""]"\n'
        '"Cy, cy@example.com, +1 555","[""name"", ""email"", ""phone""]","[""name""]"\n'
    )
    return str(path)


def advice_of(report) -> str:
    return report.step(FEEDBACK_ADVICE).message


def test_the_output_column_is_named_and_the_parsed_column_is_not(cases_csv):
    report = sj.check(parses_answer_itself, cases_csv, outputs="answer", output_column="prediction")
    said = advice_of(report)
    assert (
        "The output column 'prediction' of the CSV/TSV file holds text that looks like JSON "
        '(such as \'["name", "email"]\'): the metric gets output as a string'
    ) in said
    assert "json_columns=['prediction'] (--json-columns prediction)" in said
    assert "'answer'" not in said  # the metric parses it: naming it would break the metric
    # In the text and the HTML views alike.
    assert said in " ".join(str(report).split("\n"))
    assert said in unescape(report_html(report))


def test_the_advice_taken_fixes_the_metric(cases_csv):
    report = sj.check(
        parses_answer_itself,
        cases_csv,
        outputs="answer",
        output_column="prediction",
        json_columns=["prediction"],
    )
    assert [case.score for case in report.cases] == [1.0, 1.0, 0.0]
    said = advice_of(report)
    assert "output column" not in said
    # Now the Output column is named, for a metric that does not parse it itself.
    assert "The column 'answer' of the CSV/TSV file holds text that looks like JSON" in said
    assert "and the metric does not parse it itself (json.loads), pass" in said


def test_outputs_from_a_run_never_name_a_column_as_theirs(cases_csv):
    report = sj.check(
        parses_answer_itself,
        cases_csv,
        outputs="answer",
        inputs="text",
        run=lambda artifact, input: '["name"]',
        artifact="",
    )
    said = advice_of(report)
    assert "output column" not in said and "'prediction'" not in said


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_the_sentence_exists_in_each_language(cases_csv, lang):
    report = sj.check(
        parses_answer_itself,
        cases_csv,
        outputs="answer",
        output_column="prediction",
        lang=lang,
    )
    said = advice_of(report)
    start = t(
        "advice.json_like_output", lang, column="'prediction'", example="X", name="", option=""
    )
    assert start.split("X")[0] in said
    assert "'answer'" not in said
