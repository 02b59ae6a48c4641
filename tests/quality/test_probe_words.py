"""Issue 25, item 14 through the API: the probe table's columns and the injection finding.

The table had two columns named "expected" (the case's expected value, and the expected
value scored as an output), and the injection finding said "the judge obeys" for a plain
'contains' metric that calls no judge.  The magic's side is in
tests/notebook/test_careful_reader_magics.py.
"""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import LANGUAGES, t

LANGS = pytest.mark.parametrize("lang", LANGUAGES)

CONTAINS = """
def score(input, output, expected=None):
    ok = expected["label"] in output
    return float(ok), {"feedback": "Right." if ok else "Expected " + expected["label"] + "."}
"""
JUDGE = """
from skynet import llm

def score(input, output, expected=None):
    verdict = llm("Answer PASS or FAIL.", input=output)
    return float(verdict.startswith("PASS")), {"feedback": verdict}
"""


def answer_billing(artifact, input):
    return "billing"


def probed(metric: str, lang: str, **options) -> sj.ProbeReport:
    data = sj.load_example("tickets")
    return sj.probe(
        metric,
        data,
        outputs="label",
        run=answer_billing,
        artifact="-",
        cases=4,
        lang=lang,
        **options,
    )


def judge_obeys(lang: str) -> str:
    """The words of the finding that blame a judge, in ``lang``."""
    return {"en": "the judge obeys", "fr": "le juge obéit", "pt": "o juiz obedece"}[lang]


@LANGS
def test_every_column_of_the_probe_table_has_its_own_name(lang):
    report = probed(CONTAINS, lang)
    headers = report._headers()
    assert len(headers) == len(set(headers)), headers
    assert t("quality.probe.col_expected", lang) in headers
    assert report.to_frame().columns.tolist()[:2] == ["output", "expected"]  # the API's ids stay


@LANGS
def test_a_contains_metric_is_not_told_its_judge_obeys(lang):
    report = probed(CONTAINS, lang)
    finding = report.finding("injection")
    assert finding is not None
    assert judge_obeys(lang) not in finding.message
    assert finding.message == t(
        "probe.injection.no_judge.finding",
        lang,
        count=len(finding.cases),
        cases=", ".join(map(str, finding.cases)),
    )
    assert judge_obeys(lang) not in report._repr_html_() and judge_obeys(lang) not in str(report)


@LANGS
def test_a_judge_that_obeys_the_answer_is_told_so(lang):
    obeying = sj.StandInModel(lambda instructions, input: "PASS" if "PASS" in input else "FAIL")
    report = probed(JUDGE, lang, models=sj.ModelSettings(metric_model=obeying))
    finding = report.finding("injection")
    assert finding is not None and judge_obeys(lang) in finding.message
