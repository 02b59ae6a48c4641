"""Issue 36, item 3: the agreement view shows what was judged.  Its advice says "read the
disagreements", so each disagreement shows the case's input and output beside the human
label, the score and the feedback: in the text, the static HTML and the live view,
shortened as the check view shortens them (``…``), escaped, and breakable when long."""

from __future__ import annotations

import re
from typing import Any

import pytest

import skynet_jupyter as sj
from skynet_jupyter.notebook.widgets._quality_views import QualityView
from tests.quality_support import cell, quality_shell, register, widget_outputs

# The score follows the output: an answer in angle brackets is liked, any other is not.
LIKES_BRACKETS = """
def score(input, output, expected=None):
    return (0.9 if output.startswith("<") else 0.2), {"feedback": "Judged."}
"""

HOSTILE_INPUT = '<b>bold</b> & "quoted"'
HOSTILE_OUTPUT = "<img src=x onerror=alert(1)>"
LONG_INPUT = "z" * 300
LONG_OUTPUT = "w" * 500  # one unbroken run: it must wrap, not widen the table
ROWS = [
    {"question": HOSTILE_INPUT, "answer": HOSTILE_OUTPUT, "human": "no"},  # .9 for a fail
    {"question": LONG_INPUT, "answer": LONG_OUTPUT, "human": "yes"},  # .2 for a pass
    {"question": "fine", "answer": "<ok>", "human": "yes"},
    {"question": "also fine", "answer": "plain", "human": "no"},
]

# The check view's cell: 80 characters, the last one the cut mark.
LONG_INPUT_SHOWN = 'question: "' + "z" * 68 + "…"
LONG_OUTPUT_SHOWN = '"' + "w" * 78 + "…"


def agreement(**options: Any) -> sj.AgreementReport:
    return sj.agreement(LIKES_BRACKETS, ROWS, labels="human", output_column="answer", **options)


def _disagreement_html(html: str) -> str:
    return re.search(r'<table class="skq-disagreements">.*?</table>', html).group(0)


def _assert_html_shows_what_was_judged(html: str) -> None:
    table = _disagreement_html(html)
    heads = re.findall(r"<th>(.*?)</th>", table)
    assert heads == ["case", "input", "output", "human label", "score", "feedback"]
    # Escaped, always: no tag of the user's reaches the page.
    assert "<img" not in html and "<b>bold" not in html
    plain = table.replace("<wbr>", "")
    assert "question: &quot;&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;&quot;" in plain
    assert "&quot;&lt;img src=x onerror=alert(1)&gt;&quot;" in plain
    # Long values cut as the check view cuts them, and breakable so that they wrap.
    assert f"<td>{LONG_INPUT_SHOWN.replace(chr(34), '&quot;')}</td>" in plain
    assert f"<td>{LONG_OUTPUT_SHOWN.replace(chr(34), '&quot;')}</td>" in plain
    long_cells = [c for c in re.findall(r"<td>(.*?)</td>", table) if "w" * 10 in c]
    assert len(long_cells) == 1 and "<wbr>" in long_cells[0]
    # The existing columns are still there, row by row.
    rows = re.findall(r"<tr>(.*?)</tr>", table)[1:]
    assert [re.findall(r'<td class="skq-num">(.*?)</td>', row) for row in rows] == [
        ["0", "0.9"],
        ["1", "0.2"],
    ]
    assert all("<td>Judged.</td>" in row for row in rows)


def test_the_text_shows_each_disagreements_input_and_output() -> None:
    lines = agreement(lang="en").text().splitlines()
    start = lines.index("2 disagreements, worst first:")
    assert lines[start:] == [
        "2 disagreements, worst first:",
        "case  human label  score  feedback",
        '0     "no"         0.9    Judged.',
        f'      input: question: "{HOSTILE_INPUT}"',
        f'      output: "{HOSTILE_OUTPUT}"',
        '1     "yes"        0.2    Judged.',
        f"      input: {LONG_INPUT_SHOWN}",
        f"      output: {LONG_OUTPUT_SHOWN}",
    ]
    report = agreement(lang="en")
    assert report.disagreements[0].input == {"question": HOSTILE_INPUT}
    assert report.disagreements[0].output == HOSTILE_OUTPUT


def test_the_text_says_input_and_output_in_the_runs_language() -> None:
    text = agreement(lang="fr").text()
    assert f'      entrée : question: "{HOSTILE_INPUT}"' in text
    assert f'      sortie : "{HOSTILE_OUTPUT}"' in text


def test_the_static_html_shows_them_escaped_cut_and_breakable() -> None:
    _assert_html_shows_what_was_judged(agreement(lang="en").html())


def test_the_live_view_shows_them_too() -> None:
    view = QualityView(kind="agreement", lang="en", metric_name="default")
    report = agreement(lang="en", on_event=view.on_event)
    assert view.report is report
    _assert_html_shows_what_was_judged(view.body.value)
    bundle = view._repr_mimebundle_()
    assert f"      output: {LONG_OUTPUT_SHOWN}" in bundle["text/plain"]
    _assert_html_shows_what_was_judged(bundle["text/html"])
    view.close()


def test_a_secret_in_an_input_is_redacted_as_in_the_check_view() -> None:
    rows = [dict(ROWS[0], question="api_key=sk-abcdefghijklmnop0123"), *ROWS[1:]]
    report = sj.agreement(LIKES_BRACKETS, rows, labels="human", output_column="answer")
    assert "sk-abcdefghijklmnop0123" not in report.text() + report.html()
    assert "[redacted]" in report.text()


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        yield shell


def test_magic_agree_shows_them(shell) -> None:
    register(shell, LIKES_BRACKETS)
    shell.user_ns["judged"] = ROWS
    result, captured = cell(
        shell, "r = %skynet_agree --data judged --output-column answer --labels human"
    )
    result.raise_error()
    _assert_html_shows_what_was_judged(widget_outputs(captured)[-1]["text/html"])
    assert f"      input: {LONG_INPUT_SHOWN}" in str(shell.user_ns["r"])
