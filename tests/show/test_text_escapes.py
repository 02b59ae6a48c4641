"""Raw terminal escapes from feedback never reach a terminal (issue 43, F2).

A model's feedback may hold ``\\x1b[31m`` (recolour), ``\\x1bc`` (clear the screen), a
bidirectional override or a lone surrogate (which fails a UTF-8 ``print``).  ``repr`` and
``skynet-check`` showed them escaped; ``str(report)`` and IPython's plain-text display
(terminal IPython, ``print(report)``) wrote them raw.  Now every text view of a check or
evaluation report shows them as ``repr`` does, with one rule (``core.inert_text.shown``)
that ``skynet-check`` uses too.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.core.interactiveshell import InteractiveShell

import skynet_jupyter as sj
from skynet_jupyter.cli.log_text import log_text
from skynet_jupyter.core.inert_text import shown
from skynet_jupyter.core.report import CaseResult, CheckReport, Step
from skynet_jupyter.show.render import report_text
from tests.conftest import require_module

HOSTILE = "red \x1b[31malert\x1b[0m, clear \x1bc, bell \x07, csi \x9b2J, rtl \u202eevil, \ud83d"
# What a terminal must never get raw: C0 controls but tab and LF, DEL, C1, the line and
# paragraph separators, bidirectional controls and lone surrogates.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def hostile_report() -> CheckReport:
    def score(input, output, expected=None):
        return 0.0, {"feedback": HOSTILE}

    return sj.check(
        score, [{"text": "hello \x1b[2J", "label": "x"}], outputs="label", output_column="label"
    )


def test_str_of_a_report_shows_the_escapes_as_repr_does():
    text = str(hostile_report())
    assert not RAW.search(text)
    assert "red \\x1b[31malert\\x1b[0m, clear \\x1bc, bell \\x07, csi \\x9b2J" in text
    assert "rtl \\u202eevil, \\ud83d" in text
    assert 'text: "hello \\x1b[2J"' in text
    text.encode("utf-8")  # strict: a lone surrogate raw would raise here, as print would


def test_ipython_plain_text_display_shows_the_escapes():
    shell = InteractiveShell.instance()
    data, _ = shell.display_formatter.format(hostile_report())
    plain = data["text/plain"]
    assert not RAW.search(plain)
    assert "\\x1b[31malert" in plain


def test_skynet_check_and_str_say_the_same():
    report = hostile_report()
    assert log_text(report_text(report, width=0)) == report_text(report, width=0)


def test_line_breaks_in_a_value_stay_laid_out_under_their_label():
    report = CheckReport(
        steps=[],
        cases=[CaseResult(0, {"text": "a"}, None, "x", 0.5, "one\ntwo\r\nthree\u2028four")],
    )
    lines = str(report).splitlines()
    at = next(i for i, line in enumerate(lines) if "one" in line)
    assert lines[at].rstrip().endswith("one")
    assert [line.strip() for line in lines[at + 1 : at + 4]] == ["two", "three", "four"]


# --- the property: any text, every text view ---------------------------------------------

BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
NASTY = ["\x1b[31m", "\x1bc", "\x9b", "\x00", "\x07", "\x7f", "\u202e", "\u2066", "\ud83d", "\t"]
ANY_TEXT = st.one_of(
    st.lists(
        st.one_of(
            st.sampled_from(BREAKS + NASTY),
            st.text(max_size=6),
            st.characters(categories=["Cc", "Cs", "Zl", "Zp", "Cf"]),
        ),
        max_size=10,
    ).map("".join),
    st.just(""),
    st.just("x\x1b[1m" * 20_000),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(feedback=ANY_TEXT, value=ANY_TEXT, error=ANY_TEXT, name=ANY_TEXT)
def test_no_text_view_writes_a_raw_control_whatever_the_text(feedback, value, error, name):
    scored = CaseResult(0, {"text": value}, {"label": value}, value, 0.5, feedback)
    scored.scores = {name or "n": 0.5}
    failed = CaseResult(1, {"text": value}, None, value, error=error)
    failed.failed_step = "metric_return_value"
    failed.traceback = f"Traceback:\n  {error}"
    report = CheckReport(
        steps=[Step("metric_return_value", "Metric return value", "failed", error, feedback)],
        cases=[scored, failed],
        metric_name=name,
        total_cases=2,
    )
    for width in (None, 0, 40):
        text = report_text(report, width=width)
        assert not RAW.search(text), repr(RAW.search(text))
        text.encode("utf-8")
    assert shown(str(report)) == str(report)  # already shown: nothing more to escape


# --- every other report: the same rule (issue 44 attack) -----------------------------------

ECHOED = "o \x1b[0m\x07"


def _scored(feedback: str):
    def score(input, output, expected=None):
        return (1.0 if output == expected["label"] else 0.0), {"feedback": feedback}

    return score


def _texts(report) -> list[str]:
    """Each text a report gives a terminal: str(), IPython's plain display, and text()."""
    data, _ = InteractiveShell.instance().display_formatter.format(report)
    texts = [str(report), data["text/plain"]]
    if hasattr(report, "text"):
        texts.append(report.text())
    return texts


def test_the_quality_reports_show_outputs_and_feedback_escaped():
    """Found by the attack on issue 44: the text of sj.probe and sj.compare (and of
    sj.agreement) wrote a model's ESC and BEL raw, so print() or terminal IPython obeyed
    them, while the check's text showed them escaped.  Every quality report's text follows
    the check's rule."""
    rows = [{"t": "v \x1b[2J", "label": "x", "human": i % 2} for i in range(5)]
    a, b = _scored("fa \x1b[31m"), _scored("fb \x1b[2J")
    run = lambda artifact, input: ECHOED  # noqa: E731
    reports = {
        "probe": sj.probe(a, rows, outputs="label", run=run),
        "compare": sj.compare(a, b, rows, outputs="label", run=run),
        "stability": sj.stability(a, rows, outputs="label", run=run),
        "agreement": sj.agreement(a, rows, outputs="label", run=run, labels="human"),
    }
    for kind, report in reports.items():
        for text in _texts(report):
            assert not RAW.search(text), (kind, RAW.search(text))
    for kind in ("probe", "compare", "agreement"):
        assert "\\x1b" in str(reports[kind]), kind  # shown, as repr shows it


def test_the_optimizer_race_and_alignment_reports_show_user_text_escaped():
    """Found by the attack on issue 44: the optimizer's, the race's and the alignment's
    text wrote the reflection model's proposals and the metrics' feedback raw."""
    require_module("gepa")
    from skynet_jupyter.examples.classify import run as classify
    from tests.align_support import JUDGE_METRIC, judge_model, replies
    from tests.race_support import tickets

    hostile = "billing: charge \x1b[2J\x07\ntechnical: crash"
    reflection = sj.StandInModel(lambda instructions, input: f"```\n{hostile}\n```")
    metric = _scored("Wrong \x1b[31m.")
    seed = "billing: charge\ntechnical: crash"
    optimized = sj.optimize(
        metric,
        tickets(),
        outputs="label",
        run=classify,
        artifact=seed,
        reflection_model=reflection,
        budget=20,
    )
    raced = sj.race(
        {"a \x1b[2J": metric, "b": _scored("Wrong.")},
        tickets(),
        outputs="label",
        run=classify,
        artifact=seed,
        reflection_model=reflection,
        budget=20,
        held_out=10,
        repeats=1,
    )
    aligned = sj.align(
        JUDGE_METRIC,
        replies(),
        labels="human",
        output_column="reply",
        rationale="why",
        reflection_model=sj.StandInModel(lambda i, x: "```\nAnswer PASS or FAIL \x1b[2J.\n```"),
        budget=30,
        models=sj.ModelSettings(metric_model=judge_model()),
    )
    for report in (optimized, raced, aligned, raced.verdict()):
        for text in _texts(report):
            assert not RAW.search(text), (type(report).__name__, RAW.search(text))
    for report in (optimized, raced, aligned):
        assert "\\x1b[2J" in str(report), type(report).__name__


def test_the_run_history_and_a_run_diff_show_user_text_escaped(tmp_path, monkeypatch):
    """Found by the attack on issue 44: sj.history() and sj.diff() wrote a metric's name, an
    input, an output and a feedback with their terminal escapes raw."""
    monkeypatch.setenv("SKYNET_RUN_LOG", str(tmp_path))
    rows = [{"t": "v \x1b[2J", "label": "x"}]
    for feedback in ("first \x1b[31m", "second \x1b[32m"):
        metric = sj.load_metric(_scored(feedback), name="m \x1b[2J")
        sj.check(metric, rows, outputs="label", run=lambda artifact, input: ECHOED)
    for report in (sj.history(), sj.diff("last~1", "last")):
        for text in _texts(report):
            assert not RAW.search(text), (type(report).__name__, RAW.search(text))
        assert "\\x1b[2J" in str(report), type(report).__name__
