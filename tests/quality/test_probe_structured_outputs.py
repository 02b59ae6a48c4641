"""The ``all_expected`` probe for structured outputs (issue 44, item 16).

For a list-output metric (HoVer's: which titles support a claim) the probe used to pass the
whole expected dict as the output, and then said "An optimizer that produces such an output
meets this error: make score handle it" -- no optimizer can produce a dict there.  The probe
now gives an output of the real output's type (every expected title, as a list), which a
recall-only metric really is gamed by; where the output type cannot hold every expected
value (a number, an object), it is not tried, and the report says why.
"""

from __future__ import annotations

from html import unescape

import skynet_jupyter as sj
from skynet_jupyter.quality.probe import all_expected

ROWS = [
    {"claim": "A was born in B.", "titles": ["A", "B"], "label": "SUPPORTED", "pred": ["A", "B"]},
    {"claim": "C wrote D.", "titles": ["C", "D"], "label": "SUPPORTED", "pred": ["C"]},
    {"claim": "E is in F.", "titles": ["E", "F"], "label": "REFUTED", "pred": ["E", "Z"]},
    {"claim": "G met H.", "titles": ["G", "H"], "label": "SUPPORTED", "pred": ["H"]},
]


def hover_recall(input, output, expected=None):
    """HoVer's retrieval metric: the share of the supporting titles found (recall only)."""
    gold = set(expected["titles"])
    found = gold & set(output)
    missing = sorted(gold - found)
    feedback = f"Missing the titles {missing}." if missing else "Every supporting title found."
    return len(found) / len(gold), {"feedback": feedback}


def probe_hover():
    return sj.probe(hover_recall, ROWS, outputs="titles,label", output_column="pred")


def test_a_list_output_gets_every_expected_title_as_a_list():
    report = probe_hover()
    outputs = [result.output for result in report.results["all_expected"].values()]
    assert outputs and all(output == list("ABCDEFGH") for output in outputs)
    # What a retriever can produce: the recall-only metric is gamed, and the advice fits.
    finding = report.finding("all_expected")
    assert finding is not None and "every expected value" in finding.message
    assert "penalize extra labels" in finding.message
    # No probe output made the metric raise: nothing says "meets this error".
    assert "all_expected" not in report.failures
    assert "meets this error" not in str(report)


def test_the_finding_is_in_the_text_and_the_html():
    report = probe_hover()
    message = report.finding("all_expected").message
    assert message in " ".join(str(report).split())
    assert message in " ".join(unescape(report._repr_html_()).split())


def test_an_output_type_that_cannot_hold_them_is_not_tried_and_said():
    rows = [{"text": f"{n} apples", "count": n, "pred": float(n)} for n in (1, 2, 3)]

    def close(input, output, expected=None):
        gap = abs(output - expected["count"])
        return 1.0 / (1.0 + gap), {"feedback": f"Off by {gap} from {expected['count']}."}

    report = sj.probe(close, rows, outputs="count", output_column="pred")
    assert report.results["all_expected"] == {}
    assert report.cannot_hold == {0: "float", 1: "float", 2: "float"}
    said = (
        "Not tried: all_expected on 3 cases, whose outputs (float) cannot hold every expected "
        "value at once: no optimizer can produce such an output."
    )
    assert said in " ".join(str(report).split())
    assert said in " ".join(unescape(report._repr_html_()).split())
    assert report.finding("all_expected") is None and "all_expected" not in report.failures


def test_the_shapes_of_all_expected():
    expecteds = [{"titles": ["A", "B"], "label": "S"}, {"titles": ["B", "C"], "label": "R"}, None]
    assert all_expected(expecteds, ["x"]) == ["A", "B", "C"]
    assert all_expected(expecteds, ("x",)) == ("A", "B", "C")
    assert all_expected(expecteds, "x") == "A B C S R"
    assert all_expected(expecteds, {"titles": [], "why": "w"}) == {
        "titles": ["A", "B", "C"],
        "why": "w",
    }
    assert all_expected(expecteds, {"label": "S", "n": 1}) == {"label": "S R", "n": 1}
    skip = all_expected(expecteds, 3.0)
    assert all_expected(expecteds, {"other": 1}) is skip
    assert all_expected([{"label": "a"}, {"label": "b"}], ["x"]) == ["a", "b"]
    assert all_expected([None], "x") is skip


def test_a_dict_output_keeps_its_own_keys():
    rows = [
        {"q": "1+1", "answer": "2", "pred": '{"answer": "2", "steps": "one and one"}'},
        {"q": "2+2", "answer": "4", "pred": '{"answer": "5", "steps": "two and two"}'},
    ]

    def contains(input, output, expected=None):
        hit = expected["answer"] in output["answer"]
        return float(hit), {"feedback": "Right." if hit else f"Expected {expected['answer']}."}

    report = sj.probe(contains, rows, outputs="answer", output_column="pred", json_columns=["pred"])
    outputs = {index: r.output for index, r in report.results["all_expected"].items()}
    assert outputs == {
        0: {"answer": "2 4", "steps": "one and one"},
        1: {"answer": "2 4", "steps": "two and two"},
    }
    assert "all_expected" in report.flagged
