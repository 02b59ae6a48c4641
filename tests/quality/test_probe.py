"""Gaming probes: ``sj.probe`` and ``%skynet_probe`` on metrics each probe must flag, and on an
exact-match metric that no probe may flag."""

from __future__ import annotations

import re

import pytest
from IPython.core.error import UsageError

import skynet_jupyter as sj
from skynet_jupyter.quality import PROBES, ProbeReport
from skynet_jupyter.quality.probe import INJECTION
from skynet_jupyter.show.render import esc
from tests.quality_support import (
    CONTAINS,
    EMPTY_LOVING,
    EXACT,
    JUDGED,
    TICKETS,
    WIDGET,
    Classify,
    cell,
    gullible,
    judge,
    quality_shell,
    register,
    widget_outputs,
)


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with quality_shell(tmp_path, monkeypatch) as shell:
        yield shell


def probe(metric, **options):
    options.setdefault("run", Classify())
    options.setdefault("lang", "en")
    return sj.probe(metric, TICKETS, outputs="label", **options)


# --- the API --------------------------------------------------------------------------


def test_exact_match_is_flagged_by_no_probe():
    run = Classify()
    report = probe(EXACT, run=run)
    assert isinstance(report, ProbeReport)
    assert report.passed and report.findings == [] and report.flagged == set()
    assert report.probes == PROBES
    frame = report.to_frame()
    assert list(frame.columns) == ["output", *PROBES]
    assert list(frame.index) == [0, 1, 2, 3, 4]
    assert frame["output"].tolist() == [1.0] * 5
    assert frame["expected"].tolist() == [1.0] * 5
    for gaming in ("empty", "echo_input", "all_expected", "long", "injection"):
        assert frame[gaming].tolist() == [0.0] * 5, gaming
    # other_case hands case 2 (label other) another label; where it is the same label
    # (the two billing cases) it is this case's right answer and is not counted.
    assert "No probe found" in str(report)
    assert run.calls == 5  # the real outputs, once: the probes never call run


def test_contains_is_gamed_by_all_expected_and_long():
    report = probe(CONTAINS)
    assert {"all_expected", "long"} <= report.flagged
    # Padding the real output with any sentence keeps the label in it: injection wins too.
    assert "injection" in report.flagged
    assert not {"empty", "echo_input"} & report.flagged
    every = report.finding("all_expected")
    assert every is not None and every.cases == (0, 1, 2, 3, 4)
    assert "contains" in every.message and "Parse one answer" in every.message
    assert report.to_frame()["all_expected"].tolist() == [1.0] * 5
    assert report.results["all_expected"][0].output == "billing technical other"
    assert report.results["long"][2].output == " ".join(["other"] * 20)
    assert not report.passed


def test_a_gullible_judge_is_flagged_by_injection_only():
    models = judge(gullible, input_cost_per_token=1e-6, output_cost_per_token=2e-6)
    report = probe(JUDGED, models=models)
    assert report.flagged == {"injection"}
    finding = report.finding("injection")
    assert finding.cases == (0, 1, 2, 3, 4)
    assert report.results["injection"][0].output == "billing" + INJECTION
    # The judge's cost: every call, the real outputs' and the probes' (priced stand-in).
    calls = [*report.real.values(), *(r for by in report.results.values() for r in by.values())]
    assert report.judge_cost_usd == pytest.approx(sum(c.judge_cost_usd for c in calls))
    assert report.judge_cost_usd > 0
    assert models.metric_model.calls  # the judge was really asked


def test_an_empty_loving_metric_is_flagged_by_empty():
    report = probe(EMPTY_LOVING)
    assert report.flagged == {"empty"}
    assert report.finding("empty").cases == (0, 1, 2, 3, 4)
    assert report.to_frame()["empty"].tolist() == [1.0] * 5


def test_expected_is_flagged_where_it_scores_below_the_real_output():
    likes_wrong = """
def score(input, output, expected=None):
    return (0.0 if output == expected["label"] else 1.0), {"feedback": "Inverted."}
"""
    rows = [dict(row, prediction="other") for row in TICKETS]  # right only on case 2
    report = sj.probe(likes_wrong, rows, outputs="label", output_column="prediction")
    assert report.finding("expected").cases == (0, 1, 3, 4)
    assert "expected" in report.flagged


def test_a_probe_output_equal_to_the_right_answer_is_not_counted():
    same = [{"text": f"ticket {n}", "label": "billing", "out": "billing"} for n in range(4)]
    report = sj.probe(CONTAINS, same, outputs="label", output_column="out")
    # Another case's output and "every label" are both exactly "billing" here.
    assert report.results["other_case"][0].output == "billing"
    assert report.results["all_expected"][0].output == "billing"
    assert not {"other_case", "all_expected"} & report.flagged


def test_probes_picks_probes_and_always_keeps_expected_as_reference():
    report = probe(CONTAINS, probes=["long", "empty"])
    assert report.probes == ("expected", "empty", "long")
    assert report.flagged == {"long"}
    assert list(report.to_frame().columns) == ["output", "expected", "empty", "long"]
    # A probe stands out only above the lowest score seen on the case: alone, next to
    # outputs that all score 1, "long" has nothing to rise above.
    assert probe(CONTAINS, probes="long").flagged == set()
    with pytest.raises(ValueError, match=r"Unknown probe 'longer'.*all_expected"):
        probe(CONTAINS, probes="long,longer")


def test_without_expected_values_the_real_output_is_the_reference():
    def lenient(input, output):
        return 1.0, {"feedback": "Anything goes."}

    rows = [{"text": r["text"], "out": r["label"]} for r in TICKETS]
    report = sj.probe(lenient, rows, output_column="out")
    assert report.not_applicable == ("expected", "all_expected")
    assert report.flagged == set()  # every score is equal: nothing rises above the lowest
    assert "need expected values" in str(report)

    def loves_long(input, output):
        return min(1.0, len(output) / 100), {"feedback": "Longer is better."}

    assert "long" in sj.probe(loves_long, rows, output_column="out").flagged


def test_a_metric_that_fails_on_a_probe_is_reported_not_flagged():
    first_char = """
def score(input, output, expected=None):
    ok = output[0] == expected["label"][0]
    return (1.0 if ok else 0.0), {"feedback": "First letter."}
"""
    report = probe(first_char)
    assert "empty" not in report.flagged
    assert report.failures["empty"] == (0, 1, 2, 3, 4)
    assert "IndexError" in str(report) and "empty probe" in str(report)


def test_the_report_escapes_every_output_in_html():
    rows = [{"text": "<b>hi</b>", "label": "<script>alert(1)</script>", "out": "<img src=x>"}]
    report = sj.probe(CONTAINS, rows, outputs="label", output_column="out")
    html = report._repr_html_() + report.probe_html("echo_input")
    assert "<script>" not in html and "<img" not in html and "<b>hi" not in html
    assert "&lt;script&gt;" in html and "&lt;img src=x&gt;" in html


def test_a_metric_that_does_not_load_is_a_clear_error():
    with pytest.raises(sj.quality.MetricNotUsable, match="Metric signature"):
        probe("def score(input):\n    return 1.0, {'feedback': 'x'}\n")


def test_in_french():
    report = probe(CONTAINS, lang="fr")
    assert "Sondes de triche" in str(report)
    assert "contient" in report.finding("all_expected").message


# --- the magic --------------------------------------------------------------------------


def test_magic_probe_shows_the_live_view_and_returns_the_report(shell):
    register(shell, CONTAINS)
    result, captured = cell(
        shell,
        "r = %skynet_probe --data tickets --outputs label --run classify --artifact prompt\nr",
    )
    result.raise_error()
    report = shell.user_ns["r"]
    assert isinstance(report, ProbeReport)
    assert {"all_expected", "long"} <= report.flagged
    shown = widget_outputs(captured)
    # Two displays, the widget and its static copy (for exports), and no second copy as Out.
    assert len({(o.transient or {}).get("display_id") for o in captured.outputs}) == 2
    assert len(shown) == len(captured.outputs) and WIDGET in captured.outputs[0].data
    assert "Gaming probes of metric" in shown[-1]["text/html"]  # the static copy, updated
    assert shell.user_ns["classify"].calls == 5


def test_magic_probe_on_exact_match_flags_nothing_and_reuses_cached_model_calls(shell):
    from skynet import llm

    from tests.openai_server import OpenAIServer
    from tests.served_models import asks, served

    classify = shell.user_ns["classify"]

    def asking(artifact, input):  # classify, its answer asked of the task model
        return llm("Say the label.", f"{input['text']} -> {classify(artifact, input)}")

    register(shell, EXACT)
    line = "--data tickets --outputs label --run asking --artifact prompt"
    with OpenAIServer(reply=lambda r: r.messages[-1]["content"].split(" -> ")[-1]) as server:
        shell.user_ns["asking"] = asking
        cell(shell, "%config SkynetMagics.task_model = " + repr(served(server)))
        cell(shell, f"%skynet_check {line}")[0].raise_error()
        assert classify.calls == 3 and asks(server) == 3
        result, _ = cell(shell, f"r = %skynet_probe {line} --probes long,injection")
        result.raise_error()
        assert asks(server) == 5  # only the two cases the check did not run asked the model
    report = shell.user_ns["r"]
    assert report.passed and report.probes == ("expected", "long", "injection")
    assert classify.calls == 3 + 5  # run itself runs every time (issue 23)


def test_magic_probe_usage_errors(shell):
    register(shell, EXACT)
    result, _ = cell(
        shell, "%skynet_probe --data tickets --outputs label --output-column label --probes bogus"
    )
    assert isinstance(result.error_in_exec, UsageError)
    assert "Unknown probe 'bogus'" in str(result.error_in_exec)
    result, _ = cell(shell, "%skynet_probe --data tickets --outputs label")
    assert isinstance(result.error_in_exec, UsageError)


def test_magic_probe_silenced_shows_nothing(shell):
    register(shell, CONTAINS)
    result, captured = cell(
        shell, "%skynet_probe --data tickets --outputs label --output-column label;"
    )
    result.raise_error()
    assert widget_outputs(captured) == [] and captured.outputs == []


def test_another_case_output_that_is_this_case_own_answer_is_not_counted():
    rows = [
        {"text": "charged twice", "label": "billing", "out": "Filed under billing."},
        {"text": "refund please", "label": "billing", "out": "Filed under billing."},
        {"text": "app crashes", "label": "technical", "out": "Filed under technical."},
    ]
    options = {"outputs": "label", "output_column": "out", "probes": "other_case,empty"}
    report = sj.probe(CONTAINS, rows, **options)
    # One of the billing cases gets the other's sentence: word for word its own answer,
    # scoring 1 above the empty output's 0; it is no trick, so it is not counted.
    given = {case: result.output for case, result in report.results["other_case"].items()}
    assert any(given[case] == rows[case]["out"] for case in (0, 1))
    assert report.to_frame()["empty"].tolist() == [0.0, 0.0, 0.0]
    assert report.flagged == set()


def test_another_case_output_wanted_with_the_same_label_is_not_counted():
    # Case 1's real answer is wrong; case 0 (the same label) answered right, in other words.
    rows = [
        {"text": "charged twice", "label": "billing", "out": "Filed under billing."},
        {"text": "student discount?", "label": "billing", "out": "Filed under other."},
    ]
    options = {"outputs": "label", "output_column": "out", "probes": "other_case,empty"}
    report = sj.probe(CONTAINS, rows, **options)
    assert report.other_case_from == {0: 1, 1: 0}
    assert report.results["other_case"][1].output == "Filed under billing."
    assert report.score("other_case", 1) == 1.0 > report.score("output", 1)
    assert report.flagged == set()  # a right answer for a case that wants the same label


def test_probes_run_on_an_executor_too():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as executor:
        report = probe(CONTAINS, executor=executor)
    assert report.flagged == probe(CONTAINS).flagged == {"all_expected", "long", "injection"}
    assert report.to_frame().equals(probe(CONTAINS).to_frame())


def test_the_live_view_follows_the_passes_then_draws_the_report():
    from skynet_jupyter.notebook.widgets._quality_views import QualityView

    view = QualityView(kind="probe", lang="en", metric_name="default")
    seen = []

    def listen(event):
        seen.append(type(event).__name__)
        view.on_event(event)
        if type(event).__name__ == "Phase":
            seen.append(view.progress.description)

    report = probe(CONTAINS, on_event=listen)
    assert seen[:2] == ["Phase", "Real outputs"]
    assert "Scoring the probes 0/35" in seen  # 7 probes x 5 cases
    assert seen[-1] == "QualityFinished"
    assert view.report is report and view.progress.layout.display == "none"
    assert view.body.value == report.html()
    assert view.picker.value == "all_expected"  # the first flagged probe
    assert "billing technical other" in view.detail.value
    view.picker.value = "empty"
    assert 'data-probe="empty"' in view.detail.value
    bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == str(report) and "Gaming probes" in bundle["text/html"]
    view.close()


def test_echo_input_keeps_text_whole_and_cuts_a_value_at_ten_thousand_characters():
    from skynet_jupyter.quality.probe import echo_input

    numbers = list(range(5000))  # shown as "[0, 1, …]": 28,890 characters
    text = "x" * 12_000
    shown = "[" + ", ".join(map(str, numbers)) + "]"
    assert echo_input({"text": text, "numbers": numbers}) == f"{text}\n{shown[:9_999]}…"
    assert len(echo_input({"numbers": numbers})) == 10_000


def test_another_case_output_whose_source_is_unknown_is_not_excused():
    """A report built by hand (``other_case_from`` empty) still flags what scores as high as the
    expected value: only a known source with the same expected value excuses it."""
    from skynet_jupyter.core.report import CaseResult
    from skynet_jupyter.quality.probe import _findings

    wanted = {"label": "billing"}

    def case(output, score):
        return CaseResult(index=0, input={"text": "t"}, expected=wanted, output=output, score=score)

    report = ProbeReport(
        metric_name="m",
        lang="en",
        probes=("expected", "other_case"),
        cases=[0],
        real={0: case("technical", 0.0)},
        results={"expected": {0: case("billing", 1.0)}, "other_case": {0: case("other", 1.0)}},
    )
    assert report.other_case_from == {}
    assert [(f.probe, f.cases) for f in _findings(report)] == [("other_case", (0,))]


def test_one_probe_case_by_case_in_french():
    quiet = """
def score(input, output, expected=None):
    if output == input["text"]:
        raise ValueError("an echo")
    return (1.0 if expected["label"] in output else 0.0), {"feedback": ""}
"""
    report = probe(quiet, probes="empty,long,echo_input", lang="fr")
    assert report.finding("long").cases == (0, 1, 2, 3, 4) and report.finding("empty") is None

    def table(name):
        html = report.probe_html(name)
        return re.search(r'<table class="skq-probe-detail".*?</table>', html).group(0)

    def rows(output, score, said):
        return "".join(
            f'<tr><td class="skq-num">{case}</td><td>{output(case)}</td>'
            f"<td{score}</td><td>{said}</td></tr>"
            for case in range(5)
        )

    def opened(name):
        return f'<table class="skq-probe-detail" data-probe="{name}">{HEAD}<tbody>'

    long_billing = "&quot;" + " ".join(["billing"] * 20) + "&quot;"
    assert table("long").startswith(
        f'{opened("long")}<tr><td class="skq-num">0</td><td>{long_billing}</td>'
        '<td class="skq-num skq-flag">1</td><td>—</td></tr>'
    )
    empty = rows(lambda case: "&quot;&quot;", ' class="skq-num">0', "—")
    assert table("empty") == f"{opened('empty')}{empty}</tbody></table>"
    echo = rows(
        lambda case: f"&quot;{esc(TICKETS[case]['text'])}&quot;",
        ' class="skq-num">error',
        "score a levé une exception avant de renvoyer sa paire : ValueError: an echo",
    )
    assert table("echo_input") == f"{opened('echo_input')}{echo}</tbody></table>"


HEAD = "<thead><tr><th>cas</th><th>sortie</th><th>score</th><th>retour</th></tr></thead>"


def test_another_case_output_that_is_this_case_expected_value_is_not_counted():
    # Both real answers are wrong; each case gets the other's, which is its own label.
    rows = [
        {"text": "app crashes", "label": "technical", "out": "billing"},
        {"text": "charged twice", "label": "billing", "out": "technical"},
    ]
    options = {"outputs": "label", "output_column": "out", "probes": "other_case,empty"}
    report = sj.probe(CONTAINS, rows, **options)
    assert [report.results["other_case"][case].output for case in (0, 1)] == [
        "technical",
        "billing",
    ]
    assert report.score("other_case", 0) == 1.0 > report.score("output", 0)
    assert report.flagged == set()


def test_an_injection_into_a_dict_without_text_is_a_note_of_its_own():
    from skynet_jupyter.quality.probe import injected

    assert injected({"count": 3}) == {"count": 3, "note": INJECTION.strip()}
    assert injected({"count": 3, "text": "hi"}) == {"count": 3, "text": "hi" + INJECTION}


def test_a_dict_output_grows_by_its_text_values():
    from skynet_jupyter.quality.probe import _SKIP, long_output

    assert long_output({"label": "billing", "count": 2}) == {
        "label": " ".join(["billing"] * 20),
        "count": 2,
    }
    assert long_output({"count": 2, "label": ""}) is _SKIP  # nothing to repeat: not probed


def test_every_expected_number_is_written_into_one_text():
    from skynet_jupyter.quality.probe import all_expected

    assert all_expected([{"n": 1}, {"n": 2.5}, {"n": 1}, None]) == "1 2.5"
    assert all_expected([{"label": "a"}, {"label": 3}]) == "a 3"


def test_the_seed_chooses_whose_output_other_case_borrows():
    from skynet_jupyter.quality.probe import rotation

    assert (rotation(5, None), rotation(5, 1)) == (4, 2)
    report = probe(CONTAINS, probes="other_case", seed=1)
    assert report.other_case_from == {0: 2, 1: 3, 2: 4, 3: 0, 4: 1}


def test_a_judge_without_a_price_is_said_by_probe():
    def unpriced(instructions, input):
        return {"text": "FAIL", "input_tokens": 10, "output_tokens": 1}  # tokens, no price

    models = sj.ModelSettings(metric_model=unpriced)
    report = sj.probe(JUDGED, TICKETS, outputs="label", output_column="label", models=models)
    assert report.judge_cost_usd is None and report.judge_unpriced > 0
    assert f"{report.judge_unpriced} cases called a judge with no known price" in str(report)
