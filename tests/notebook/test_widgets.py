"""The live views, in process: state after events, throttling, escaping, sliders, fallback."""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from html import unescape
from typing import Any

import comm
import ipywidgets
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from skynet_jupyter import CaseFinished, CaseStarted, Finished
from skynet_jupyter.core.report import CaseResult
from skynet_jupyter.notebook.widgets import LiveView

WIDGET = "application/vnd.jupyter.widget-view+json"
HOSTILE = '<img src=x onerror="window.__pwned=1">'
SPEC = {
    "weights": {"accuracy": 0.6, "speed": 0.3, "cost": 0.1},
    "accuracy": {},
    "speed": {"reference": 10},
    "cost": {"reference": 0.01},
}
REWARD_METRIC = f"""
from skynet import reward

REWARD_SPEC = {SPEC!r}


def score(input, output, expected=None):
    ok = output == expected["label"]
    return reward(REWARD_SPEC, 1.0 if ok else 0.0, "Correct." if ok else "Wrong label.")
"""


class CountingComm(comm.DummyComm):
    """Sends nothing; counts the messages a view would send to the browser."""

    sent: Counter[str]

    def publish_msg(self, msg_type: str, *args: Any, **kwargs: Any) -> None:
        CountingComm.sent[msg_type] += 1


@pytest.fixture(autouse=True)
def counting_comm(monkeypatch):
    CountingComm.sent = Counter()
    monkeypatch.setattr(comm, "create_comm", CountingComm)
    yield CountingComm.sent
    ipywidgets.Widget.close_all()


def sent() -> int:
    return CountingComm.sent["comm_msg"]


def exact(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}."}


def keyword_run(artifact, case_input):
    return "billing" if "charged" in case_input["text"] else "other"


def feed(view: LiveView, report: sj.CheckReport, *, finish: bool = False) -> None:
    """Replay a report's cases as engine events."""
    total = len(report.cases)
    for done, case in enumerate(report.cases, 1):
        view.on_event(CaseStarted(case.index, total))
        view.on_event(CaseFinished(case, done, total))
    if finish:
        view.on_event(Finished(report))


def reward_report(tickets, **options: Any) -> sj.CheckReport:
    return sj.check(REWARD_METRIC, tickets, outputs="label", run=keyword_run, **options)


def bars(view: LiveView) -> dict[str, float]:
    """The reward each bar shows, by case ("mean" for the mean)."""
    html = view.reward.bars.value
    found = {
        case: float(value)
        for value, case in re.findall(
            r'class="skv-track" data-reward="([\d.]+)" data-case="(\d+)"', html
        )
    }
    mean = re.search(r'data-reward="([\d.]+)" data-mean="1"', html)
    if mean:
        found["mean"] = float(mean.group(1))
    return found


def all_html(view: LiveView) -> str:
    return "".join(
        [view.head.value, view.cases.value, view.reward.bars.value, view.reward.spec_line.value]
    )


# --- the check view --------------------------------------------------------------------


def unbroken(html: str) -> str:
    """``html`` without the <wbr> break points long values carry (layout, not text)."""
    return html.replace("<wbr>", "")


def test_rows_appear_as_cases_finish(tickets):
    report = sj.check(exact, tickets, outputs="label", run=keyword_run)
    view = LiveView(kind="check", metric_name="default")
    view.on_event(CaseStarted(0, 3))
    view.on_event(CaseFinished(report.cases[0], 1, 3))
    view.flush()
    assert 'data-case="0"' in view.cases.value and 'data-case="1"' not in view.cases.value
    assert (view.progress.value, view.progress.max) == (1, 3)
    assert view.progress.description == "1 of 3 cases"
    assert "Running the contract check" in view.head.value
    assert 'data-step="metric_loads" data-status="passed"' in view.head.value
    assert 'data-step="metric_return_value" data-status="pending"' in view.head.value
    for case in report.cases[1:]:
        view.on_event(CaseFinished(case, case.index + 1, 3))
    view.flush()
    assert all(f'data-case="{i}"' in view.cases.value for i in range(3))
    assert "mean score 0.667" in view.cases.value


def test_finish_shows_the_reports_steps_and_is_idempotent(tickets):
    report = sj.check(exact, tickets, outputs="label", run=keyword_run)
    view = LiveView()
    feed(view, report, finish=True)
    assert "Contract check passed" in view.head.value
    for step in report.steps:
        assert f'data-step="{step.id}" data-status="{step.status}"' in view.head.value
    assert view.progress.layout.display == "none"
    before = sent()
    view.finish(report)
    assert sent() == before


def test_a_failing_case_flips_its_step_live_with_reason_and_fix(tickets):
    def nan_on_second(input, output, expected=None):
        if "crashes" in input["text"]:
            return float("nan"), {"feedback": "x"}
        return 1.0, {"feedback": "ok"}

    report = sj.check(nan_on_second, tickets, outputs="label", run=keyword_run)
    view = LiveView()
    feed(view, report)
    view.flush()
    head = view.head.value
    assert 'data-step="metric_return_value" data-status="failed"' in head
    assert "Case 1: The score is NaN" in head
    assert "How to fix" in head and "Return a pair" in head
    assert view.progress.bar_style == "danger"
    failure = re.search(r'data-case-failure="1".*?</tr>', view.cases.value, re.S).group(0)
    assert "failed at Metric return value" in failure


def test_user_code_error_shows_its_trimmed_traceback(tickets):
    def broken(input, output, expected=None):
        return {}["missing"]

    report = sj.check(broken, tickets, outputs="label", run=keyword_run, cases=1)
    view = LiveView()
    feed(view, report, finish=True)
    html = view.cases.value
    assert "Traceback (your code)" in html
    assert "KeyError: &#x27;missing&#x27;" in html
    assert "engine.py" not in html  # our frames are trimmed away


def test_row_cells_measures_and_feedback_exactly_as_the_optimizer_reads_it():
    case = CaseResult(
        0,
        {"text": "x" * 300},
        {"label": "billing"},
        output="billing",
        score=0.5,
        feedback="Line one.\n  Line two, indented.",
        scores={"format": 0.25},
        metric_ms=1.5,
        run_ms=None,
        cost_usd=None,
        judge_cost_usd=0.002,
    )
    report = sj.CheckReport(steps=[], cases=[case])
    view = LiveView()
    view.finish(report)
    html = unbroken(view.cases.value)
    assert "feedback (what the optimizer reads)" in html
    assert "Line one.\n  Line two, indented." in html
    assert re.search(r"<summary><span class=\"skv-cut\">text: &quot;x{60,}…</span>", html)
    assert "x" * 300 in html  # the whole value, one click away
    assert "not measured" in html and "judge cost" in html and "$0.002" in html
    assert 'data-score="format">0.25<' in html


def test_empty_feedback_is_called_out():
    case = CaseResult(0, {"t": "a"}, None, output="b", score=1.0, feedback="")
    view = LiveView()
    view.finish(sj.CheckReport(steps=[], cases=[case]))
    assert "empty feedback" in view.cases.value


# --- escaping ----------------------------------------------------------------------------


def test_every_user_string_is_escaped_in_every_view():
    hostile_case = CaseResult(
        0,
        {"text": HOSTILE},
        {"label": HOSTILE},
        output=HOSTILE,
        score=0.5,
        feedback=HOSTILE,
        scores={HOSTILE: 0.5, "accuracy": 0.5, "speed": 0.5, "cost": 0.5},
        error=HOSTILE,
        traceback=f"Traceback\n{HOSTILE}",
        failed_step="metric_return_value",
    )
    passing = CaseResult(
        1,
        {"t": "<script>alert(1)</script>"},
        None,
        output="<b>x</b>",
        score=0.5,
        feedback="<script>alert(1)</script>",
        scores={"accuracy": 0.5, "speed": 0.5, "cost": 0.5},
    )
    for kind, report_type in (("check", sj.CheckReport), ("eval", sj.EvalReport)):
        report = report_type(
            steps=[], cases=[hostile_case, passing], metric_name=HOSTILE, reward_spec=SPEC
        )
        view = LiveView(kind=kind, metric_name=HOSTILE, reward_spec=SPEC)
        feed(view, report)
        view.flush()
        live = all_html(view)
        view.finish(report)
        for html in (live, all_html(view), view.static_html()):
            assert "<img" not in html and "<script>" not in html and "<b>x" not in html
            assert "&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;" in html


# Over CELL_CHARS (80) or over several lines, a value is drawn as a one-line cut
# with the whole value in a <details>: another path, escaped as carefully.
LONG_HOSTILE = (
    "First line of a long ticket that keeps going well past eighty characters, "
    f"then: {HOSTILE}\n<script>window.__pwned=2</script> and a third line\n" + "x" * 120
)
SHORT_MULTILINE = f"two\n{HOSTILE}"
FOLDED = re.compile(
    r'<details class="skv-more"><summary><span class="skv-cut">([^<]*)</span></summary>'
    r'<div class="skv-full">([^<]*)</div></details>'
)


def test_long_and_multiline_hostile_values_are_escaped_in_every_view():
    assert len(LONG_HOSTILE) > 80 and len(SHORT_MULTILINE) < 80
    failing = CaseResult(
        0,
        {"text": LONG_HOSTILE, "meta": SHORT_MULTILINE},
        {"label": LONG_HOSTILE},
        output=LONG_HOSTILE,
        score=0.0,
        feedback=LONG_HOSTILE,
        error=LONG_HOSTILE,
        traceback=f"Traceback\n{LONG_HOSTILE}",
        failed_step="metric_return_value",
    )
    passing = CaseResult(
        1,
        {"text": SHORT_MULTILINE},
        {"label": SHORT_MULTILINE},
        output=SHORT_MULTILINE,
        score=1.0,
        feedback=SHORT_MULTILINE,
    )
    values = {
        0: [failing.input, failing.output, failing.expected],
        1: [passing.input, passing.output, passing.expected],
    }
    for kind, report_type in (("check", sj.CheckReport), ("eval", sj.EvalReport)):
        report = report_type(steps=[], cases=[failing, passing], metric_name="m")
        view = LiveView(kind=kind, metric_name="m")
        feed(view, report)
        view.flush()
        # <wbr> break points in long values (issue 36) are layout, not text: read without them.
        live = unbroken(all_html(view)), unbroken(view.cases.value)
        view.finish(report)
        static = unbroken(view.static_html())
        for html in (live[0], unbroken(all_html(view)), static):
            assert "<img" not in html and "<script>" not in html
            assert "&lt;script&gt;window.__pwned=2&lt;/script&gt;" in html
        for table in (live[1], unbroken(view.cases.value)):  # the rows fold long values
            for index, case_values in values.items():
                row = re.search(rf'<tr data-case="{index}".*?</tr>', table, flags=re.S)
                assert row, (kind, index)
                folded = FOLDED.findall(row.group(0))
                assert len(folded) == 3, (kind, index)  # input, output, expected
                for (cut, full), value in zip(folded, case_values, strict=True):
                    shown = unescape(cut)
                    assert "\n" not in shown and len(shown) <= 80
                    whole = unescape(full)
                    assert whole == value if isinstance(value, str) else json.loads(whole) == value
        # The static copy (nbconvert, GitHub) cuts each value to one escaped cell.
        for index in values:
            row = re.search(
                rf'<tr data-case="{index}" data-status="\w+"><td[^>]*>.*?</td>'
                rf"((?:<td[^>]*>[^<]*</td>){{3}})",
                static,
            )
            assert row, (kind, index)
            cells = re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))
            assert all(len(unescape(text)) <= 80 for text in cells)


def test_named_score_only_metric_escapes_names_too():
    case = CaseResult(
        0, {"t": "a"}, None, output="b", score=1.0, feedback="ok", scores={HOSTILE: 0.5}
    )
    view = LiveView()
    view.finish(sj.CheckReport(steps=[], cases=[case]))
    assert "<img" not in view.reward.bars.value
    assert "&lt;img" in view.reward.bars.value


# --- the reward decomposition ---------------------------------------------------------


def test_bars_are_the_weighted_parts_summing_to_each_reward(tickets):
    report = reward_report(tickets)
    view = LiveView(reward_spec=SPEC)
    feed(view, report, finish=True)
    shown = bars(view)
    for case in report.cases:
        assert shown[str(case.index)] == pytest.approx(case.score, abs=1e-6)
    assert shown["mean"] == pytest.approx(report.mean_score, abs=1e-6)
    html = view.reward.bars.value
    first = report.cases[0]
    for part, weight in SPEC["weights"].items():
        value = weight * first.scores[part]
        assert f'data-part="{part}" data-value="{value:.6f}"' in html
    assert "run " in html and " ms" in html  # the raw measurement beside the bar


def test_sliders_recompute_every_bar_and_the_mean_without_rerunning(tickets, monkeypatch):
    report = reward_report(tickets)
    view = LiveView(reward_spec=SPEC)
    feed(view, report, finish=True)
    monkeypatch.setattr(sj.run.engine, "run_case", None)  # nothing may run again
    before = sent()
    view.reward.sliders[1].value = 0.0  # speed
    assert sent() - before <= 3  # the slider's echo aside: bars and the spec line, at once
    weights = {"accuracy": 0.6 / 0.7, "speed": 0.0, "cost": 0.1 / 0.7}
    shown = bars(view)
    expected = [sum(weights[p] * c.scores[p] for p in weights) for c in report.cases]
    for case, want in zip(report.cases, expected, strict=True):
        assert shown[str(case.index)] == pytest.approx(want, abs=1e-6)
    assert shown["mean"] == pytest.approx(sum(expected) / len(expected), abs=1e-6)
    line = view.reward.spec_line.value
    assert "&quot;accuracy&quot;: 0.857, &quot;speed&quot;: 0.0, &quot;cost&quot;: 0.143" in line
    assert "as in your metric" not in line
    chosen = view.reward.chosen_spec()
    assert chosen.speed_reference == 10 and chosen.weights["speed"] == 0


def _legend(view: LiveView) -> dict[str, str]:
    """Each legend item's text, by part."""
    html = view.reward.bars.value
    items = re.findall(r'<span data-legend="(\w+)">(.*?)</span>(?=<span data-legend|</div>)', html)
    return {part: " ".join(unescape(re.sub(r"<[^>]+>", "", text)).split()) for part, text in items}


def test_the_legend_gives_the_sliders_numbers_beside_the_weights_they_make(tickets):
    # Issue 25, item 16: the sliders read 0, 1.00 and 0.10; the bars use 0, 0.91 and 0.09.
    report = reward_report(tickets)
    view = LiveView(reward_spec=SPEC)
    feed(view, report, finish=True)
    assert "slider" not in view.reward.bars.value  # the sliders read the spec's own weights
    view.reward.set_weights(0.0, 1.0, 0.1)
    legend = _legend(view)
    assert legend == {
        "accuracy": "accuracy × 0.00",
        "speed": "speed × 0.91 (slider 1.00)",
        "cost": "cost × 0.09 (slider 0.10)",
    }, legend
    # The bars keep the cases in their order: the sliders recompute, they do not re-rank.
    assert list(bars(view)) == [*(str(c.index) for c in report.cases), "mean"]
    view.reward.set_weights(0.6, 0.1, 0.3)  # summing to 1: nothing to add
    assert "slider" not in view.reward.bars.value


def test_the_tutorial_says_what_the_sliders_do():
    from pathlib import Path

    notebook = json.loads(
        (Path(__file__).parents[2] / "notebooks" / "04-accuracy-speed-cost.ipynb").read_text()
    )
    prose = " ".join(
        "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"
    )
    assert "re-rank" not in prose  # the cases keep their order (the test above)
    assert "recompute every bar and the mean" in " ".join(prose.split())


def test_all_zero_weights_say_so_and_reset_restores(tickets):
    report = reward_report(tickets)
    view = LiveView(reward_spec=SPEC)
    view.finish(report)
    drawn = view.reward.bars.value
    view.reward.set_weights(0, 0, 0)
    assert "All REWARD_SPEC weights are 0" in view.reward.spec_line.value
    assert view.reward.bars.value == drawn
    view.reward.set_weights(1, 1, 1)
    assert bars(view)["mean"] != pytest.approx(report.mean_score)
    view.reward.reset.click()
    assert bars(view)["mean"] == pytest.approx(report.mean_score, abs=1e-6)
    assert "as in your metric" in view.reward.spec_line.value


def test_the_spec_can_come_from_the_report_alone(tickets):
    report = reward_report(tickets)
    view = LiveView()  # the magics know the spec; a bare API user may not
    view.finish(report)
    assert view.reward.box.layout.display is None
    assert [s.value for s in view.reward.sliders] == [0.6, 0.3, 0.1]
    assert bars(view)["mean"] == pytest.approx(report.mean_score, abs=1e-6)


def test_unmeasured_parts_say_not_measured(tickets):
    rows = [dict(row, prediction="billing") for row in tickets]
    report = sj.check(REWARD_METRIC, rows, outputs="label", output_column="prediction")
    view = LiveView(reward_spec=SPEC)
    view.finish(report)
    assert "run not measured · cost not measured" in view.reward.bars.value


def test_named_scores_without_a_spec_show_the_named_scores(tickets):
    def named(input, output, expected=None):
        ok = output == expected["label"]
        return float(ok), {"feedback": "f", "scores": {"label": float(ok), "brevity": 0.8}}

    report = sj.check(named, tickets, outputs="label", run=keyword_run)
    view = LiveView()
    feed(view, report, finish=True)
    assert view.reward.box.layout.display is None
    assert view.reward.controls.layout.display == "none"
    html = view.reward.bars.value
    assert "Named scores" in html
    assert 'data-mean-score="brevity"' in html and "<b>0.800</b>" in html
    assert 'data-mean-score="label"' in html and "<b>0.667</b>" in html


def test_a_plain_metric_shows_no_panel(tickets):
    report = sj.check(exact, tickets, outputs="label", run=keyword_run)
    view = LiveView()
    view.finish(report)
    assert view.reward.box.layout.display == "none"


def test_a_repeat_check_opens_few_comms(tickets, counting_comm):
    # Each widget, Layout and Style is a comm: a quick check of a plain metric builds
    # no reward panel, no progress bar, no filter; unchanging layouts are shared.
    plain = sj.check(exact, tickets, outputs="label", run=keyword_run)
    rewarded = reward_report(tickets)
    feed(LiveView(), plain, finish=True)  # the first check: the shared layouts are made
    feed(LiveView(reward_spec=SPEC), rewarded, finish=True)
    counting_comm.clear()
    view = LiveView()
    feed(view, plain, finish=True)
    assert counting_comm["comm_open"] <= 4  # 43 when each widget had its own
    assert view.widget.children == (view.head, view.cases)
    counting_comm.clear()
    view = LiveView(reward_spec=SPEC)
    feed(view, rewarded, finish=True)
    assert counting_comm["comm_open"] <= 15  # the sliders, the bars: 43 before
    assert view.reward.box in view.widget.children
    assert [s.value for s in view.reward.sliders] == [0.6, 0.3, 0.1]


def test_a_reward_panel_is_eight_widgets_and_hiding_swaps_shared_layouts(tickets, counting_comm):
    # Issue 26: the panel's line asking to try other weights is in the bars' HTML, the
    # sliders, reset and spec line share one row, and no box owns a Layout.
    rewarded = reward_report(tickets)
    feed(LiveView(reward_spec=SPEC), rewarded, finish=True)  # the shared layouts are made
    counting_comm.clear()
    view = LiveView(reward_spec=SPEC)
    feed(view, rewarded, finish=True)
    assert counting_comm["comm_open"] == 11  # the view's 3 and the panel's 8: 15 before
    assert "Try other weights (rescaled to sum to 1):" in view.reward.bars.value
    row = view.reward.controls.children
    assert row == (*view.reward.sliders, view.reward.reset, view.reward.spec_line)
    other = LiveView(reward_spec=SPEC)
    assert other.reward.box.layout is view.reward.box.layout
    assert other.reward.controls.layout is view.reward.controls.layout
    # Hidden and shown again: the shared layout with the other display, none made anew.
    counting_comm.clear()
    assert view.reward._show(view.reward.controls, False) == 1
    assert view.reward.controls.layout.display == "none"
    assert other.reward.controls.layout.display is None  # the other view's is untouched
    assert view.reward._show(view.reward.controls, True) == 1
    assert view.reward.controls.layout is other.reward.controls.layout
    assert view.reward.controls.layout.flex_flow == "row wrap"
    assert counting_comm["comm_open"] <= 1  # the hidden layout, made once per kernel
    # The static copy has no sliders, so it does not ask to move them.
    assert "Try other weights" not in view.static_html()


def test_the_redraw_timers_of_every_view_share_one_thread(tickets):
    # A thread started per run cost a quick check about a millisecond.
    import threading

    from skynet_jupyter.notebook.widgets._throttle import Throttle

    lock = threading.RLock()
    ran: list[threading.Thread] = []
    done = threading.Event()

    def flush() -> int:
        ran.append(threading.current_thread())
        if len(ran) == 3:
            done.set()
        return 0

    throttles = [Throttle(flush, lock, gap=0.001) for _ in range(3)]
    for throttle in throttles:
        throttle.poke()
    assert done.wait(10)
    assert len(set(ran)) == 1 and ran[0] is not threading.main_thread()
    cancelled = Throttle(lambda: ran.append(threading.current_thread()) or 0, lock)
    cancelled.poke()
    cancelled.cancel()
    time.sleep(0.1)
    assert len(ran) == 3  # a cancelled redraw does not run


def test_widgets_built_late_take_their_place_and_shared_layouts_outlive_close_all(tickets):
    ipywidgets.Widget.close_all()  # as a kernel's widget manager may: made again, open
    view = LiveView(kind="eval")
    assert all(w.layout.comm is not None for w in view.widget.children)
    view.errors.append_stderr("boom")

    def flaky_run(artifact, case_input):
        if "Lisbon" in case_input["text"]:
            raise RuntimeError("no office data")
        return keyword_run(artifact, case_input)

    report = sj.evaluate(exact, tickets, outputs="label", run=flaky_run)
    view.finish(report)  # a failed case: the step filter shows
    children = view.widget.children
    assert children.index(view.filter) < children.index(view.cases) < children.index(view.errors)
    assert view.filter.layout.display is None


# --- the evaluation view ---------------------------------------------------------------


def test_eval_lists_worst_first_with_running_means_and_a_step_filter(tickets):
    def flaky_run(artifact, case_input):
        if "Lisbon" in case_input["text"]:
            raise RuntimeError("no office data")
        return keyword_run(artifact, case_input)

    report = sj.evaluate(REWARD_METRIC, tickets, outputs="label", run=flaky_run, concurrency=2)
    view = LiveView(kind="eval", reward_spec=SPEC)
    feed(view, report)
    view.flush()
    assert "Evaluation running" in view.head.value
    assert "mean score" in view.cases.value and "1 failed" in view.cases.value
    assert "mean reward" in view.reward.bars.value  # the running decomposition
    view.finish(report)
    order = [int(i) for i in re.findall(r'<tr data-case="(\d+)"', view.cases.value)]
    assert order == [c.index for c in report.worst()]
    assert order[0] == 2  # the failed case first
    values = dict((v, label) for label, v in view.filter.options)
    assert "run_function" in values and "failed at Run function (1)" in values["run_function"]
    view.filter.value = "run_function"
    assert re.findall(r'<tr data-case="(\d+)"', view.cases.value) == ["2"]
    view.filter.value = "passed"
    assert "2" not in re.findall(r'<tr data-case="(\d+)"', view.cases.value)


def test_eval_caps_the_rows_and_says_so():
    cases = [
        CaseResult(i, {"t": str(i)}, None, output="o", score=i / 100, feedback="f")
        for i in range(100)
    ]
    view = LiveView(kind="eval")
    view.finish(sj.EvalReport(steps=[], cases=cases))
    rows = re.findall(r'<tr data-case="(\d+)"', view.cases.value)
    assert rows == [str(i) for i in range(20)]
    assert "Showing 20 of 100 cases." in view.cases.value


# --- throttling ------------------------------------------------------------------------


def test_updates_are_throttled_whatever_the_event_rate():
    spec_case = {"accuracy": 1.0, "speed": 0.5, "cost": 0.5}
    view = LiveView(kind="eval", reward_spec=SPEC)
    total = 10_000
    started = time.perf_counter()
    for i in range(total):
        case = CaseResult(
            i,
            {"t": i},
            None,
            output="o",
            score=0.85,
            feedback="f",
            scores=dict(spec_case),
            run_ms=1.0,
            cost_usd=0.0,
        )
        view.on_event(CaseStarted(i, total))
        view.on_event(CaseFinished(case, i + 1, total))
        if i % 100 == 0:
            time.sleep(0.01)  # about a second of events, in engine-like bursts
    elapsed = time.perf_counter() - started
    live = sent()
    assert live <= 10 * elapsed + 4  # ~10 messages a second (+ the flush in flight)
    assert view._throttle.flushes >= 2  # and it did update while running
    view.finish(sj.EvalReport(steps=[], cases=[]))
    assert sent() - live <= 12  # one final update


def test_the_tail_is_flushed_without_a_new_event(tickets):
    report = sj.check(exact, tickets, outputs="label", run=keyword_run)
    view = LiveView()
    view.on_event(CaseFinished(report.cases[0], 1, 3))
    deadline = time.monotonic() + 2
    while 'data-case="0"' not in view.cases.value and time.monotonic() < deadline:
        time.sleep(0.01)
    assert 'data-case="0"' in view.cases.value


# --- display ---------------------------------------------------------------------------


@pytest.fixture
def shell(monkeypatch):
    # The shell puts its user module in sys.modules["__main__"]: give the real one back.
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])
    return InteractiveShell.instance()


def test_display_is_the_widget_then_its_static_copy(shell, tickets):
    # Two outputs: an export with saved widget state renders the widget view of the
    # first (its scripts from a CDN), so the static report must be an output of its own.
    report = reward_report(tickets)
    view = LiveView(reward_spec=SPEC)
    with capture_output() as cap:
        view.show()
        feed(view, report, finish=True)
    widget, static = cap.outputs[0].data, cap.outputs[1].data
    assert widget[WIDGET]["model_id"] == view.widget.model_id
    assert set(widget) == {WIDGET, "text/plain"} and widget["text/plain"] == ""
    assert "Running the contract check" in static["text/html"] and WIDGET not in static
    assert not any(o.update for o in cap.outputs[:2])
    assert all(o.update for o in cap.outputs[2:]) and len(cap.outputs) == 4  # finished in place
    update_widget, update_static = cap.outputs[2].data, cap.outputs[3].data
    assert update_widget[WIDGET]["model_id"] == view.widget.model_id
    marker = f'<div class="skynet-static" data-skynet-static="{view._static_id}">'
    assert update_static["text/html"].startswith(marker + report._repr_html_())
    assert "Reward decomposition" in update_static["text/html"]  # the bars, without widgets
    assert update_static["text/plain"] == str(report)
    # The rendered widget hides exactly its own static copy (one report on screen).
    rule = f'.jp-OutputArea-child:has([data-skynet-static="{view._static_id}"])'
    assert rule in view.head.value and rule not in update_static["text/html"]


def test_new_run_after_finish_starts_over_and_replace_redraws(tickets):
    first = sj.check(exact, tickets, outputs="label", run=keyword_run)
    view = LiveView()
    feed(view, first, finish=True)
    second = sj.check(exact, tickets, outputs="label", run=keyword_run, cases=1)
    view.on_event(CaseStarted(0, 1))
    view.flush()
    assert "Running the contract check" in view.head.value
    assert 'data-case="1"' not in view.cases.value
    view.on_event(CaseFinished(second.cases[0], 1, 1))
    view.flush()
    assert "Running the contract check" in view.head.value
    assert re.findall(r'<tr data-case="(\d+)"', view.cases.value) == ["0"]
    view.replace(first)
    assert "Contract check passed" in view.head.value
    assert re.findall(r'<tr data-case="(\d+)"', view.cases.value) == ["0", "1", "2"]


def test_callback_errors_are_shown_not_swallowed(tickets):
    view = LiveView(reward_spec=SPEC)
    view.finish(reward_report(tickets))

    def broken() -> int:
        raise RuntimeError("drawing failed")

    view.reward.render = broken  # type: ignore[method-assign]
    view.reward.sliders[0].value = 0.2
    assert "drawing failed" in view.errors.outputs[-1]["text"]


def test_labels_follow_the_language(tickets):
    report = reward_report(tickets, lang="fr")
    view = LiveView(lang="fr", reward_spec=SPEC)
    view.finish(report)
    assert "Décomposition de la récompense" in view.reward.bars.value
    assert "retour (ce que lit l&#x27;optimiseur)" in view.cases.value
    assert view.reward.sliders[0].description == "précision"


def test_the_running_rankings_match_a_full_sort():
    import random

    rng = random.Random(7)
    cases = []
    for i in range(500):
        failed = rng.random() < 0.1
        parts = {"accuracy": rng.random(), "speed": rng.random(), "cost": rng.random()}
        score = None if failed else round(rng.random(), 1)  # ties: the index decides
        cases.append(
            CaseResult(
                i,
                {"t": i},
                None,
                output="o",
                score=score,
                feedback="f",
                scores={} if failed else parts,
                failed_step="run_function" if failed else None,
            )
        )
    rng.shuffle(cases)  # cases finish in any order
    report = sj.EvalReport(steps=[], cases=cases, reward_spec=SPEC)
    view = LiveView(kind="eval", reward_spec=SPEC)
    feed(view, report, finish=True)
    state = view._state
    assert state.select(count=20)[0] == report.worst(20)
    weights = (0.6, 0.3, 0.1)
    brute = sorted(
        (c for c in cases if c.scores),
        key=lambda c: (
            sum(
                w * c.scores[p] for w, p in zip(weights, ("accuracy", "speed", "cost"), strict=True)
            ),
            c.index,
        ),
    )[:10]
    assert [case for case, _ in state.lowest_rewards(weights, 10)] == brute
    assert [case for case, _ in state.lowest_rewards((1.0, 0.0, 0.0), 10)] == sorted(
        (c for c in cases if c.scores), key=lambda c: (c.scores["accuracy"], c.index)
    )[:10]


def test_finish_keeps_the_live_state_of_an_evaluation(tickets):
    report = sj.evaluate(exact, tickets, outputs="label", run=keyword_run, concurrency=3)
    view = LiveView(kind="eval")
    for done, case in enumerate(reversed(report.cases), 1):  # any finishing order
        view.on_event(CaseFinished(case, done, len(report.cases)))
    view.flush()
    state = view._state
    view.finish(report)
    assert view._state is state  # not rebuilt from the report


def test_running_means_match_the_report():
    cases = []
    for i in range(40):
        parts = {"accuracy": i / 40, "speed": 0.5, "cost": (i % 7) / 7}
        if i % 3 == 0:
            parts = {"format": 1.0, **parts}  # reward() puts extra names first
        cases.append(
            CaseResult(
                i,
                {"t": i},
                None,
                output="o",
                score=i / 40,
                feedback="f",
                scores=parts,
                run_ms=float(i),
                cost_usd=None,
            )
        )
    report = sj.EvalReport(steps=[], cases=cases, reward_spec=SPEC)
    view = LiveView(kind="eval", reward_spec=SPEC)
    feed(view, report, finish=True)
    state = view._state
    assert state.mean_named() == pytest.approx(report.mean_scores)
    assert list(state.mean_named()) == list(report.mean_scores)
    assert state.score.mean == pytest.approx(report.mean_score)
    assert "run 19.5 ms · cost not measured" in view.reward.bars.value  # mean raw measures
