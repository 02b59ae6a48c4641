"""What ``check``/``evaluate`` hand back: one result per case asked, the events in order,
the run step's note on inputs, the limits' sentences, the report's fields.

A result that goes missing on the way (a worker, an executor) becomes a failed
case saying so, never a shorter report that passes; a duplicate never counts
twice.  Through ``check``, ``evaluate`` (with a thread-pool executor that loses
or repeats a result) and the report's fields.
"""

from __future__ import annotations

import inspect
from concurrent.futures import ThreadPoolExecutor

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.dataset import load_cases, pick_cases
from skynet_jupyter.core.metric import Metric
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.i18n import t
from skynet_jupyter.run.engine import CaseFinished, CaseStarted, Finished, RunCache
from tests.openai_server import OpenAIServer
from tests.served_models import asks, task_models

ROWS = [{"q": n, "label": "x", "out": "x"} for n in range(4)]


def exact(input, output, expected=None):
    return float(output == expected["label"]), {"feedback": f"{output} for {input['q']}"}


class Lossy(ThreadPoolExecutor):
    """A thread pool whose chunks come back without case ``drop`` and with ``repeat`` twice."""

    def __init__(self, drop=(), repeat=()):
        super().__init__(max_workers=1)
        self.drop, self.repeat = set(drop), set(repeat)

    def submit(self, fn, /, *args, **kwargs):
        def altered():
            results, seconds, *rest = fn(*args, **kwargs)  # rest: a provider's stop, if any
            kept = []
            for result in results:
                if result.index in self.drop:
                    continue
                kept.append(result)
                if result.index in self.repeat:
                    twin = type(result)(result.index, result.input, result.expected, "twin")
                    twin.failed_step, twin.error = "metric_return_value", "a twin"
                    kept.append(twin)
            return kept, seconds, *rest

        return super().submit(altered)


# --- one result per case asked ---------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_result_lost_on_the_way_is_a_failed_case_saying_so(lang):
    with Lossy(drop={2}) as pool:
        report = sj.evaluate(
            exact, ROWS, outputs="label", output_column="out", executor=pool, lang=lang
        )
    assert [c.index for c in report.cases] == [0, 1, 2, 3]
    assert [c.passed for c in report.cases] == [True, True, False, True]
    lost = report.cases[2]
    assert lost.failed_step == "metric_return_value"
    assert lost.error == t("case.lost", lang)
    assert (lost.input, lost.expected, lost.output) == ({"q": 2}, {"label": "x"}, "x")
    assert not report.passed and report.total_cases == 4
    assert report.step("metric_return_value").status == "failed"
    if lang == "en":
        assert lost.error.startswith("No result came back for this case")


def test_a_lost_case_that_had_no_output_yet_shows_none():
    with Lossy(drop={0}) as pool:
        report = sj.evaluate(exact, ROWS[:2], outputs="label", run=lambda a, i: "x", executor=pool)
    assert report.cases[0].error == t("case.lost", "en")
    assert report.cases[0].output is None  # never the "no output yet" marker
    assert report.cases[1].passed


def test_a_result_that_comes_back_twice_counts_once_the_first():
    with Lossy(repeat={1}) as pool:
        report = sj.evaluate(exact, ROWS, outputs="label", output_column="out", executor=pool)
    assert [c.index for c in report.cases] == [0, 1, 2, 3]
    assert [c.output for c in report.cases] == ["x"] * 4
    assert report.passed and report.mean_score == 1.0


def test_as_many_results_as_cases_but_not_the_same_cases_is_still_accounted():
    # Case 2 lost and case 1 twice: the count matches, the cases do not.
    with Lossy(drop={2}, repeat={1}) as pool:
        report = sj.evaluate(exact, ROWS, outputs="label", output_column="out", executor=pool)
    assert [c.index for c in report.cases] == [0, 1, 2, 3]
    assert [c.output for c in report.cases] == ["x", "x", "x", "x"]
    assert report.cases[1].passed and report.cases[1].error is None  # the first of the two
    assert report.cases[2].error == t("case.lost", "en")
    assert not report.passed


def test_results_come_back_in_case_order_whatever_order_they_finish_in():
    import time

    def slow_first(input, output, expected=None):
        time.sleep(0.3 if input["q"] == 0 else 0.0)
        return 1.0, {"feedback": str(input["q"])}

    report = sj.evaluate(slow_first, ROWS, outputs="label", output_column="out", concurrency=4)
    assert [c.index for c in report.cases] == [0, 1, 2, 3]
    assert [c.feedback for c in report.cases] == ["0", "1", "2", "3"]


# --- events ------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["check", "evaluate", "executor"])
def test_events_come_in_order_and_the_last_one_carries_the_report(where):
    events = []
    options = {"outputs": "label", "output_column": "out", "on_event": events.append}
    if where == "check":
        report = sj.check(exact, ROWS, cases=3, **options)
        total = 3
    elif where == "evaluate":
        report = sj.evaluate(exact, ROWS, concurrency=1, **options)
        total = 4
    else:
        with ThreadPoolExecutor(1) as pool:
            report = sj.evaluate(exact, ROWS, executor=pool, **options)
        total = 4
    started = [e for e in events if isinstance(e, CaseStarted)]
    finished = [e for e in events if isinstance(e, CaseFinished)]
    assert sorted(e.index for e in started) == list(range(total))
    assert all(e.total == total for e in started + finished)
    assert [e.done for e in finished] == list(range(1, total + 1))
    assert sorted(e.result.index for e in finished) == list(range(total))
    assert isinstance(events[-1], Finished) and events[-1].report is report
    assert sum(isinstance(e, Finished) for e in events) == 1
    # Each case is said to start before it is said to finish.
    for event in finished:
        start = next(
            i for i, e in enumerate(events) if e in started and e.index == event.result.index
        )
        assert start < events.index(event)


def test_a_listener_failing_on_the_last_event_keeps_the_whole_report():
    class Refuses(Exception):
        pass

    def listener(event):
        if isinstance(event, Finished):
            raise Refuses("the view closed")

    with pytest.raises(Refuses) as raised:
        sj.check(exact, ROWS, outputs="label", output_column="out", on_event=listener)
    report = raised.value.skynet_report
    assert [c.index for c in report.cases] == [0, 1, 2] and report.passed


def test_a_metric_that_does_not_load_still_ends_with_the_finished_event():
    events = []
    report = sj.check(
        "def scor(input, output):\n    return 1.0, {'feedback': 'x'}\n",
        ROWS,
        outputs="label",
        output_column="out",
        on_event=events.append,
        lang="fr",
    )
    assert [type(e) for e in events] == [Finished] and events[0].report is report
    assert not report.passed and report.cases == [] and report.total_cases == 3
    assert report.lang == "fr"
    failed = [s for s in report.steps if s.status == "failed"]
    assert failed and failed[0].id not in ("run_function",)
    assert all(s.status in ("skipped", "failed") for s in report.steps if s.id == "run_function")


# --- the report's own fields --------------------------------------------------------------


def test_the_report_names_the_metric_and_its_reward_and_measures_its_time():
    metric = Metric(exact, name="exact match")
    report = sj.evaluate(metric, ROWS, outputs="label", output_column="out", concurrency=1)
    assert report.metric_name == "exact match"
    assert report.reward_spec is None
    assert 0 <= report.elapsed_s < 60
    assert report.interrupted is False and report.total_cases == 4
    assert isinstance(report, sj.EvalReport)
    assert not isinstance(
        sj.check(metric, ROWS, outputs="label", output_column="out"), sj.EvalReport
    )


def test_a_run_function_counts_as_used_and_its_step_passes():
    report = sj.check(exact, ROWS, outputs="label", run=lambda a, i: "x")
    assert report.step("run_function").status == "passed"
    given = sj.check(exact, ROWS, outputs="label", output_column="out")
    assert given.step("run_function").status != "failed"
    assert [c.output for c in given.cases] == ["x"] * 3


# --- the run step names the columns that became inputs -------------------------------------


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_run_step_names_the_inputs_chosen_by_default(lang):
    rows = [{"q": n, "context": "c", "label": "x"} for n in range(3)]
    report = sj.check(exact, rows, outputs="label", run=lambda a, i: "x", lang=lang)
    note = t("data.inputs_chosen", lang, columns="q, context")
    step = report.step("run_function")
    assert step.status == "passed" and step.message == note  # the note alone, no stray space
    assert step.message.count(note) == 1
    assert report.step("metric_return_value").message.count(note) == 0
    if lang == "en":
        assert "Inputs (every column but the Output ones): q, context." in step.message


def test_named_inputs_or_given_outputs_add_no_note():
    rows = [{"q": n, "context": "c", "label": "x", "out": "x"} for n in range(3)]
    named = sj.check(exact, rows, outputs="label", inputs="q", run=lambda a, i: "x")
    assert "Inputs (every column" not in named.step("run_function").message
    given = sj.check(exact, rows, outputs="label", output_column="out")
    assert all("Inputs (every column" not in s.message for s in given.steps)


def test_the_note_follows_the_run_steps_own_message_when_it_has_one():
    rows = [{"q": n, "label": "x"} for n in range(3)]

    def run(artifact, input):
        raise ConnectionError("down")

    report = sj.check(exact, rows, outputs="label", run=run)
    message = report.step("run_function").message
    note = t("data.inputs_chosen", "en", columns="q")
    assert message.endswith(" " + note)
    assert "ConnectionError: down" in message.removesuffix(note)


# --- limits and isolation: refused with a sentence -----------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "shown"),
    [
        ("timeout", 0.5, "0.5"),
        ("timeout", 600.5, "600.5"),
        ("timeout", True, "True"),
        ("timeout", "10", "'10'"),
        ("run_timeout", 0.99, "0.99"),
        ("run_timeout", 86401, "86401"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("entry", [sj.check, sj.evaluate])
def test_a_limit_out_of_range_is_refused_with_its_range(entry, option, value, shown, lang):
    with pytest.raises(ValueError) as refused:
        entry(exact, ROWS, outputs="label", output_column="out", lang=lang, **{option: value})
    high = "600" if option == "timeout" else "86400"
    message_id = "limits.timeout" if option == "timeout" else "limits.run_timeout"
    assert str(refused.value) == t(message_id, lang, low="1", high=high, value=shown)
    if lang == "en" and option == "timeout":
        assert str(refused.value) == (
            "timeout must be between 1 and 600 seconds (the metric time limit), got " + shown + "."
        )


@pytest.mark.parametrize(
    ("option", "value"),
    [("timeout", 1), ("timeout", 600), ("run_timeout", 1), ("run_timeout", 86400)],
)
def test_the_ends_of_each_range_are_accepted(option, value):
    report = sj.check(exact, ROWS, outputs="label", output_column="out", **{option: value})
    assert report.passed and len(report.cases) == 3


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_unknown_isolation_is_refused_by_name(lang):
    with pytest.raises(ValueError) as refused:
        sj.check(exact, ROWS, outputs="label", output_column="out", isolation="fork", lang=lang)
    assert str(refused.value) == t("limits.isolation", lang, value="'fork'")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_process_isolation_with_an_executor_is_refused(lang):
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError) as refused:
        sj.evaluate(
            exact,
            ROWS,
            outputs="label",
            output_column="out",
            executor=pool,
            isolation="process",
            lang=lang,
        )
    assert str(refused.value) == t("limits.isolation_executor", lang)


def test_thread_isolation_with_an_executor_runs_there():
    with ThreadPoolExecutor(2) as pool:
        report = sj.evaluate(
            exact, ROWS, outputs="label", output_column="out", executor=pool, isolation="thread"
        )
    assert report.passed and len(report.cases) == 4


# --- data options reach the loader ------------------------------------------------------------


def test_json_columns_and_dtype_reach_the_loader(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text('q,meta,label,out\n7,"{""k"": [1, 2]}",x,x\n')
    seen = []

    def metric(input, output, expected=None):
        seen.append(input)
        return 1.0, {"feedback": "ok"}

    for entry in (sj.check, sj.evaluate):
        entry(
            metric,
            str(path),
            outputs="label",
            output_column="out",
            json_columns="meta",
            dtype={"q": int},
        )
    assert seen == [{"q": 7, "meta": {"k": [1, 2]}}] * 2
    seen.clear()
    sj.check(metric, str(path), outputs="label", output_column="out")
    assert seen == [{"q": "7", "meta": '{"k": [1, 2]}'}]


def test_a_run_cache_keeps_only_model_calls_made_through_llm():
    # Issue 23: what is kept is each litellm call, not run's output.
    cache = RunCache()
    sj.evaluate(exact, ROWS, outputs="label", output_column="out", run_cache=cache)
    assert len(cache) == 0  # outputs from the data, a metric with no model call: nothing
    sj.evaluate(exact, ROWS, outputs="label", run=lambda a, i: "x", run_cache=cache)
    assert len(cache) == 0  # a run that asks no model: nothing to keep
    with OpenAIServer() as server:
        asking = lambda a, i: llm("Say x.", str(i["q"]))  # noqa: E731
        models = task_models(server)
        sj.evaluate(exact, ROWS, outputs="label", run=asking, run_cache=cache, models=models)
    assert len(cache) == 4 and asks(server) == 4


def test_a_listener_failing_mid_run_stops_it_and_keeps_what_finished():
    class Stop(Exception):
        pass

    seen = []

    def listener(event):
        if isinstance(event, CaseFinished):
            seen.append(event.result.index)
            raise Stop("enough")

    with pytest.raises(Stop) as raised:
        sj.evaluate(
            exact, ROWS, outputs="label", output_column="out", concurrency=1, on_event=listener
        )
    report = raised.value.skynet_report
    assert report.interrupted is True and report.total_cases == 4
    assert seen == [0]  # no event after the one that raised
    # What finished is kept, in order (results arrive in batches: maybe more than seen).
    done = len(report.cases)
    assert 1 <= done <= 4 and [c.index for c in report.cases] == list(range(done))
    assert all(c.passed for c in report.cases)  # stopped, not "lost"
    note = t("engine.listener_failed", "en", done=done, total=4)
    assert raised.value.__notes__ == [note]


def test_a_listener_failing_on_a_metric_that_does_not_load_keeps_that_report():
    class Refuses(Exception):
        pass

    def listener(event):
        raise Refuses("no")

    with pytest.raises(Refuses) as raised:
        sj.check("x = 1\n", ROWS, outputs="label", output_column="out", on_event=listener)
    assert raised.value.skynet_report.cases == []
    assert not raised.value.skynet_report.passed


def test_the_documented_defaults():
    check, evaluate = inspect.signature(sj.check), inspect.signature(sj.evaluate)
    assert check.parameters["timeout"].default == 60
    assert check.parameters["cases"].default == 3
    assert evaluate.parameters["timeout"].default == 60
    assert evaluate.parameters["concurrency"].default == 8
    assert evaluate.parameters["cases"].default is None
    assert check.parameters["run_timeout"].default == evaluate.parameters["run_timeout"].default
    assert check.parameters["run_timeout"].default == 600


@pytest.mark.parametrize("entry", [sj.check, sj.evaluate])
def test_a_random_sample_is_the_seeds_sample(entry):
    rows = [{"q": n, "label": "x", "out": "x"} for n in range(30)]
    cases = load_cases(rows, outputs="label", output_column="out")
    for seed in (1, 2):
        report = entry(
            exact,
            rows,
            outputs="label",
            output_column="out",
            cases=4,
            sample="random",
            seed=seed,
        )
        picked = [c.index for c in pick_cases(cases, 4, "random", seed)]
        assert [c.index for c in report.cases] == picked
    assert [c.index for c in pick_cases(cases, 4, "random", 1)] != [
        c.index for c in pick_cases(cases, 4, "random", 2)
    ]


class Sealed(Exception):
    """An exception that takes no new attribute (as some C extensions' do)."""

    def __init__(self, message, refusal):
        super().__init__(message)
        object.__setattr__(self, "_refusal", refusal)

    def __setattr__(self, name, value):
        raise self._refusal(f"{type(self).__name__} takes no attribute {name!r}")


@pytest.mark.parametrize("refusal", [AttributeError, TypeError])
def test_a_listener_exception_that_takes_no_report_is_still_the_one_raised(refusal):
    def listener(event):
        if isinstance(event, Finished):
            raise Sealed("the view closed", refusal)

    with pytest.raises(Sealed, match="the view closed"):
        sj.check(exact, ROWS, outputs="label", output_column="out", on_event=listener)


def test_a_run_function_named_by_file_and_name_is_loaded_and_run(tmp_path):
    (tmp_path / "pipeline.py").write_text(
        "def answer(artifact, input):\n    return f'{artifact}:{input[\"q\"]}'\n"
    )
    report = sj.check(
        lambda i, o, e=None: (1.0, {"feedback": o}),
        ROWS,
        outputs="label",
        run=f"{tmp_path / 'pipeline.py'}:answer",
        artifact="A",
    )
    assert [c.output for c in report.cases] == ["A:0", "A:1", "A:2"]
    assert report.step("run_function").status == "passed"


def test_evaluate_runs_eight_cases_at_a_time_by_default():
    import threading

    meet = threading.Barrier(8, timeout=30)  # eight at once, or this breaks
    guard = threading.Lock()
    active = [0]
    most = [0]

    def crowded(input, output, expected=None):
        with guard:
            active[0] += 1
            most[0] = max(most[0], active[0])
        try:
            meet.wait()
        finally:
            with guard:
                active[0] -= 1
        return 1.0, {"feedback": "met"}

    rows = [{"q": n, "label": "x", "out": "x"} for n in range(16)]
    report = sj.evaluate(crowded, rows, outputs="label", output_column="out")
    assert report.passed and len(report.cases) == 16
    assert most[0] == 8


# --- what the report keeps from the run (mutation testing, issue 18) ---------------------


def test_a_metric_that_does_not_load_is_told_in_the_options_language():
    report = sj.check("def nope(:\n", ROWS, outputs="label", output_column="out", lang="fr")
    assert [(s.id, s.status) for s in report.steps][:2] == [
        ("metric_loads", "failed"),
        ("metric_signature", "skipped"),
    ]
    assert report.step("metric_loads").message == (
        "La métrique contient une erreur de syntaxe à la ligne 1 : invalid syntax."
    )
    assert report.step("metric_signature").message == (
        "Étape non atteinte : une étape précédente a échoué."
    )


def test_events_come_from_worker_processes_too():
    events = []
    report = sj.check(
        exact,
        ROWS,
        outputs="label",
        output_column="out",
        cases=2,
        isolation="process",
        on_event=events.append,
    )
    finished = [e for e in events if isinstance(e, CaseFinished)]
    assert sorted(e.result.index for e in finished) == [0, 1]
    assert [e.done for e in finished] == [1, 2] and all(e.total == 2 for e in finished)
    assert sorted(e.index for e in events if isinstance(e, CaseStarted)) == [0, 1]
    assert events[-1] == Finished(report) and report.passed


def test_the_report_keeps_the_metrics_reward_spec():
    spec = (
        "from skynet import reward\n"
        "REWARD_SPEC = {'weights': {'accuracy': 1, 'speed': 0, 'cost': 0},\n"
        "               'speed': {'reference': 1}, 'cost': {'reference': 1}}\n"
        "def score(input, output, expected=None):\n"
        "    return reward(REWARD_SPEC, 1.0, 'Correct.')\n"
    )
    report = sj.check(spec, ROWS, outputs="label", output_column="out", cases=1)
    assert report.reward_spec is not None
    assert report.reward_spec.to_dict()["weights"] == {"accuracy": 1.0, "speed": 0.0, "cost": 0.0}


def test_the_advice_says_when_a_csv_column_looks_like_json(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text('q,label\n"{""a"": 1}",x\n"{""a"": 2}",y\n', encoding="utf-8")
    report = sj.check(
        lambda i, o, e=None: (1.0, {"feedback": "Fine."}),
        str(path),
        outputs="label",
        output_column="label",
    )
    advice = report.step("feedback_advice").message
    assert advice.startswith(
        "The column 'q' of the CSV/TSV file holds text that looks like JSON (such as '{\"a\": 1}')"
    )


def test_the_note_on_a_listeners_exception_is_in_the_reports_language():
    class Stop(Exception):
        pass

    def listener(event):
        if isinstance(event, CaseFinished):
            raise Stop("enough")

    with pytest.raises(Stop) as raised:
        sj.check(exact, ROWS, outputs="label", output_column="out", lang="fr", on_event=listener)
    done = len(raised.value.skynet_report.cases)
    assert raised.value.__notes__ == [t("engine.listener_failed", "fr", done=done, total=3)]
    assert raised.value.__notes__ != [t("engine.listener_failed", "en", done=done, total=3)]


def judged(input, output, expected=None):
    from skynet_jupyter.helper.skynet import llm

    verdict = llm("PASS or FAIL?", input=str(output))
    return (1.0 if verdict.startswith("PASS") else 0.0), {"feedback": verdict, "seen": output}


def test_a_judged_case_with_given_outputs_passes_with_its_feedback():
    from skynet_jupyter.core.model_settings import ModelSettings

    models = ModelSettings(metric_model=sj.StandInModel("PASS"))
    report = sj.check(judged, ROWS, outputs="label", output_column="out", cases=2, models=models)
    assert [(c.error, c.score, c.feedback) for c in report.cases] == [(None, 1.0, "PASS")] * 2
    assert [(c.run_ms, c.cost_usd, c.model_calls) for c in report.cases] == [(None, None, 1)] * 2


def test_a_measured_run_keeps_the_metrics_whole_answer():
    def answers(input, output, expected=None):
        return 1.0, {"feedback": "Fine.", "seen": output}

    report = sj.check(answers, ROWS, outputs="label", run=lambda a, i: "x", cases=1)
    (case,) = report.cases
    assert case.error is None and case.run_ms is not None
    assert case.info == {"feedback": "Fine.", "seen": "x"}
