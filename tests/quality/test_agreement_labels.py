"""Issue 34, item 5: one name for the human-label column.  ``sj.agreement(...,
labels="col")`` as ``sj.align(..., labels="col")`` says it; ``human=`` is its older name
and still works; both at once is one clear sentence, in the run's language."""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.options import RunOptions
from skynet_jupyter.i18n import t
from skynet_jupyter.quality.agreement import agreement_with
from tests.quality.test_agreement import FROM_OUTPUT, ROWS

VERDICTS = [dict(row, verdict=row.pop("human")) for row in (dict(r) for r in ROWS)]


def test_labels_names_the_human_column_as_align_does() -> None:
    by_labels = sj.agreement(FROM_OUTPUT, VERDICTS, labels="verdict", output_column="answer")
    by_human = sj.agreement(FROM_OUTPUT, VERDICTS, human="verdict", output_column="answer")
    assert by_labels.n == by_human.n == 10
    assert by_labels.kappa == pytest.approx(0.6) == by_human.kappa
    assert by_labels.to_frame().equals(by_human.to_frame())
    assert "verdict" in str(by_labels)


def test_the_column_is_human_when_neither_names_it() -> None:
    report = sj.agreement(FROM_OUTPUT, ROWS, output_column="answer")
    assert report.n == 10 and report.human == "human"


def test_labels_and_human_together_are_refused_in_the_run_language() -> None:
    for lang in ("en", "fr"):
        with pytest.raises(TypeError) as raised:
            sj.agreement(
                FROM_OUTPUT, ROWS, labels="human", human="human", output_column="answer", lang=lang
            )
        assert str(raised.value) == t(
            "quality.agree.labels_twice", lang, labels="human", human="human"
        )


def test_the_magics_twin_takes_labels_too() -> None:
    options = RunOptions.given(output_column="answer", lang="pt")
    report = agreement_with(FROM_OUTPUT, VERDICTS, options, labels="verdict")
    assert report.n == 10 and report.lang == "pt"


def test_a_missing_column_says_labels_names_it() -> None:
    with pytest.raises(sj.DataError, match=r"No column 'nope'.*labels= names the column"):
        sj.agreement(FROM_OUTPUT, ROWS, labels="nope", output_column="answer", lang="en")
