"""The optimizer preview: the real ``gepa.optimize`` (and ``dspy.GEPA``) with stand-in models.

Nothing here is mocked: GEPA runs its own loop, its own reflective proposer
writes its own prompt, and the engine scores every case.  The stand-in
reflection model reads that prompt and proposes from the feedback in it, as a
real model would: for every "Expected 'LABEL'" it adds LABEL's keyword to the
prompt.  The same scenarios run through ``sj.optimize`` and ``%skynet_optimize``.
"""

from __future__ import annotations

import _thread
import os
import re

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from skynet_jupyter.optimizers.gepa_adapter import ReflectionModel  # noqa: E402
from skynet_jupyter.optimizers.optimize import ReflectionModelMissing, split_cases  # noqa: E402
from skynet_jupyter.optimizers.render import diff_text, report_html, word_diff  # noqa: E402

# Four tickets per label; the seed prompt knows neither "refund" nor "crash".
TICKETS = (
    [
        {"text": f"{opening} refund {ending}", "label": "billing"}
        for opening, ending in [
            ("Please", "my plan."),
            ("I want a", "now."),
            ("Where is my", "?"),
            ("Need a", "for the duplicate."),
        ]
    ]
    + [
        {"text": f"The {thing} crash {when}", "label": "technical"}
        for thing, when in [
            ("app", "at start."),
            ("export", "every time."),
            ("sync", "since Monday."),
            ("editor", "on save."),
        ]
    ]
    + [
        {"text": text, "label": "other"}
        for text in [
            "Do you have an office in Lisbon?",
            "What are your support hours?",
            "Can I bring my dog?",
            "Is the talk recorded?",
        ]
    ]
)
SEED = "billing: invoice\ntechnical: error"
KEYWORD = {"billing": "refund", "technical": "crash"}
ASKED = re.compile(r"Expected '(\w+)', got")


def classify(prompt, input):
    text = input["text"].lower()
    for line in str(prompt).splitlines():
        label, _, words = line.partition(":")
        if any(w.strip() and w.strip() in text for w in words.split(",")):
            return label.strip()
    return "other"


def feedback_for(input, output, want):
    # Quotes and markup on purpose: the reflection model must read them exactly.
    return f"Expected {want!r}, got {output!r}. The ticket <{input['text']}> & its words matter."


def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct.", "scores": {"exact": 1.0}}
    return 0.0, {"feedback": feedback_for(input, output, want), "scores": {"exact": 0.0}}


def propose(instructions, _input):
    """A stand-in reflection model: from GEPA's prompt, add the keyword of each expected label."""
    current = instructions.split("```", 2)[1].strip("\n")
    lines = [line for line in current.splitlines() if line.strip()]
    for label in sorted(set(ASKED.findall(instructions))):
        word = KEYWORD.get(label)
        if word is None or word in current:
            continue
        for number, line in enumerate(lines):
            if line.startswith(f"{label}:"):
                lines[number] = f"{line}, {word}"
    return "```\n" + "\n".join(lines) + "\n```"


def propose_one(instructions, _input):
    """The same, one label at a time: a run that needs two proposals."""
    labels = sorted(set(ASKED.findall(instructions)))
    for other in labels[1:]:
        instructions = instructions.replace(f"Expected '{other}'", "Was")
    return propose(instructions, _input)


def interrupting_on_second_call() -> sj.StandInModel:
    asked = []

    def answer(instructions, _input):
        asked.append(1)
        if len(asked) == 2:
            _thread.interrupt_main()  # Ctrl-C, as the kernel sends it
        return propose_one(instructions, _input)

    return sj.StandInModel(answer, tag="")


def stand_in(**prices) -> sj.StandInModel:
    return sj.StandInModel(propose, tag="", **prices)


def run_optimize(**options):
    settings = dict(
        run=classify,
        artifact=SEED,
        budget=60,
        outputs="label",
        reflection_model=stand_in(),
        val=0.5,
    )
    settings.update(options)
    return sj.optimize(score, TICKETS, **settings)


# --- the adapter --------------------------------------------------------------------


def test_adapter_follows_gepa_protocol_through_the_engine():
    adapter = sj.to_gepa_adapter(score, classify, outputs="label")
    batch = adapter.evaluate(TICKETS[:2] + TICKETS[8:9], {"prompt": SEED}, capture_traces=True)
    assert isinstance(batch, gepa.EvaluationBatch)
    assert batch.outputs == ["other", "other", "other"]
    assert batch.scores == [0.0, 0.0, 1.0]
    assert batch.objective_scores == [{"exact": 0.0}, {"exact": 0.0}, {"exact": 1.0}]
    assert len(batch.trajectories) == 3
    records = adapter.make_reflective_dataset({"prompt": SEED}, batch, ["prompt"])
    assert list(records) == ["prompt"]
    first = records["prompt"][0]
    assert first == {
        "Inputs": {"text": TICKETS[0]["text"]},
        "Generated Outputs": "other",
        "Feedback": feedback_for(TICKETS[0], "other", "billing"),
        "Score": 0.0,
    }
    assert "billing" not in str(first["Inputs"]), "the expected value stays with the metric"
    assert adapter.metric_calls == 3
    # Without traces, GEPA gets no trajectories.
    assert adapter.evaluate(TICKETS[:1], {"prompt": SEED}).trajectories is None


def test_adapter_turns_contract_failures_into_scores():
    def half_broken(input, output, expected=None):
        if "Lisbon" in input["text"]:
            return 0.5, "not a dict"
        if "hours" in input["text"]:
            raise ValueError("boom in the metric")
        return score(input, output, expected)

    def run(prompt, input):
        if "dog" in input["text"]:
            raise RuntimeError("the run fell over")
        return classify(prompt, input)

    adapter = sj.to_gepa_adapter(half_broken, run, outputs="label", lang="en")
    batch = adapter.evaluate(TICKETS[8:11], {"prompt": SEED}, capture_traces=True)
    assert batch.scores == [0.0, 0.0, 0.0]
    feedback = [trace["feedback"] for trace in batch.trajectories]
    assert feedback[0].startswith(t("step.metric_return_value", "en") + ": ")
    assert "not a dict" in feedback[0]
    assert feedback[1].startswith(t("step.metric_return_value", "en") + ": ")
    assert "boom in the metric" in feedback[1]
    assert feedback[2].startswith(t("step.run_function", "en") + ": ")
    assert "the run fell over" in feedback[2]
    assert adapter.failed_cases == 3


def test_adapter_keeps_the_engine_time_limits():
    import time

    def slow(input, output, expected=None):
        time.sleep(3)
        return 1.0, {"feedback": "Fine."}

    def hangs(prompt, input):
        time.sleep(30)

    adapter = sj.to_gepa_adapter(slow, classify, outputs="label", timeout=1)
    started = time.perf_counter()
    batch = adapter.evaluate(TICKETS[:1], {"prompt": SEED}, capture_traces=True)
    assert batch.scores == [0.0]
    assert batch.trajectories[0]["feedback"].startswith(t("step.metric_time_limit", "en") + ": ")
    stuck = sj.to_gepa_adapter(score, hangs, outputs="label", run_timeout=1)
    batch = stuck.evaluate(TICKETS[:1], {"prompt": SEED}, capture_traces=True)
    assert batch.scores == [0.0]
    assert batch.trajectories[0]["feedback"].startswith(t("step.run_function", "en") + ": ")
    assert time.perf_counter() - started < 20, "neither the metric nor the run is waited for"


def test_adapter_gives_a_dict_candidate_whole_when_component_is_none():
    seen = []

    def run(artifact, input):
        seen.append(artifact)
        return classify(artifact["rules"], input)

    adapter = sj.to_gepa_adapter(score, run, component=None, outputs="label")
    adapter.evaluate(TICKETS[:1], {"rules": SEED, "other": "x"})
    assert seen == [{"rules": SEED, "other": "x"}]
    with pytest.raises(KeyError, match="component"):
        sj.to_gepa_adapter(score, run, component="prompt").evaluate(TICKETS[:1], {"x": "y"})


def test_the_adapter_keeps_every_keyword_it_is_given():
    from concurrent.futures import ThreadPoolExecutor

    from skynet_jupyter.core.model_settings import ModelSettings
    from skynet_jupyter.optimizers.gepa_adapter import SkynetGEPAAdapter
    from skynet_jupyter.run.engine import RunCache

    def listener(event):
        pass

    models, cache = ModelSettings(task_model=stand_in()), RunCache()
    given = {"outputs": "label", "inputs": "text", "timeout": 5, "concurrency": 3, "run_timeout": 7}
    with ThreadPoolExecutor(1) as pool:
        adapter = SkynetGEPAAdapter(
            score, classify, "rules", executor=pool, lang="fr", models=models,
            run_cache=cache, on_event=listener, **given,
        )  # fmt: skip
        kept = adapter.options
        assert {name: getattr(kept, name) for name in given} == given
        assert (kept.executor, kept.language, kept.models) == (pool, "fr", models)
    assert (adapter.component, adapter.lang) == ("rules", "fr")
    assert adapter.run_cache is cache and adapter.on_event is listener
    assert SkynetGEPAAdapter(score, classify, isolation="process").options.isolation == "process"
    default = SkynetGEPAAdapter(score, classify)
    assert (default.component, default.on_event) == ("prompt", None)
    options = default.options
    assert (options.timeout, options.concurrency, options.inputs, options.isolation) == (
        60,
        8,
        None,
        "thread",
    )


def test_reflection_model_routes_like_llm_and_counts_cost():
    model = sj.StandInModel("```\nnew\n```", tag="", output_cost_per_token=0.5)
    reflection = ReflectionModel(model)
    assert reflection("the prompt") == "```\nnew\n```"
    assert model.calls == [("the prompt", None)]
    assert reflection.calls == 1
    said = 3  # the stand-in counts words as tokens: "```", "new", "```"
    assert reflection.total_cost == pytest.approx(0.5 * said)
    with pytest.raises(TypeError, match="reflection_model"):
        ReflectionModel(42)


# --- sj.optimize -----------------------------------------------------------------------


def test_the_reflection_model_reads_the_metric_feedback_verbatim():
    reflection = stand_in()
    report = run_optimize(reflection_model=reflection)
    assert report.proposals, "GEPA proposed nothing"
    assert len(reflection.calls) == report.reflection_calls == len(report.proposals)
    for proposal, (prompt, extra) in zip(report.proposals, reflection.calls, strict=True):
        assert extra is None
        assert proposal.records
        for record in proposal.records:
            case = next(c for c in TICKETS if c["text"] == record["Inputs"]["text"])
            _, info = score(case, record["Generated Outputs"], {"label": case["label"]})
            assert record["Feedback"] == info["feedback"]  # exactly as the metric wrote it
            assert record["Feedback"] in prompt  # and exactly what the model read
        assert proposal.parent_text in prompt


def test_the_executor_given_to_optimize_runs_the_cases():
    from concurrent.futures import ThreadPoolExecutor

    class Counting(ThreadPoolExecutor):
        submitted = 0

        def submit(self, *args, **kwargs):
            self.submitted += 1
            return super().submit(*args, **kwargs)

    with Counting(2) as pool:
        report = run_optimize(budget=8, executor=pool)
    assert report.calls and pool.submitted >= report.calls


def test_optimize_scores_in_worker_processes_when_asked(tmp_path):
    # The metric is a file, as Skynet loads metric.py; each call writes down the process it ran in.
    record = tmp_path / "pids"
    metric = tmp_path / "metric.py"
    metric.write_text(
        "import os\n"
        f"RECORD = {str(record)!r}\n"
        "def score(input, output, expected=None):\n"
        "    with open(RECORD, 'a') as f:\n"
        "        f.write(f'{os.getpid()}\\n')\n"
        "    ok = float(output == expected['label'])\n"
        "    return ok, {'feedback': 'Correct.' if ok else 'Wrong.', 'scores': {'exact': ok}}\n"
    )
    report = sj.optimize(
        str(metric), TICKETS, run=classify, artifact=SEED, budget=8, outputs="label",
        reflection_model=stand_in(), val=0.5, isolation="process", concurrency=2,
    )  # fmt: skip
    pids = {int(line) for line in record.read_text().split()}
    assert report.calls and pids and os.getpid() not in pids


def test_optimize_reads_only_the_split_named():
    seen = set()

    def run(prompt, input):
        seen.add(input["text"])
        return classify(prompt, input)

    rows = [{**row, "split": "test" if place % 2 else "train"} for place, row in enumerate(TICKETS)]
    report = sj.optimize(
        score, rows, run=run, artifact=SEED, budget=8, outputs="label", inputs="text",
        reflection_model=stand_in(), val=0.5, split="test",
    )  # fmt: skip
    assert report.train_size + report.val_size == len(TICKETS) // 2
    assert report.calls and seen <= {row["text"] for row in rows if row["split"] == "test"}


def test_optimize_gives_run_only_the_inputs_named():
    seen = set()

    def run(prompt, input):
        seen.add(tuple(sorted(input)))
        return classify(prompt, input)

    rows = [{**row, "ticket_id": place} for place, row in enumerate(TICKETS)]
    report = sj.optimize(
        score, rows, run=run, artifact=SEED, budget=8, outputs="label", inputs="text",
        reflection_model=stand_in(), val=0.5,
    )  # fmt: skip
    assert report.calls and seen == {("text",)}


def test_optimize_runs_eight_cases_at_a_time_by_default():
    import threading
    import time

    held, peak = threading.Condition(), [0, 0]  # cases running now, the most at once

    def run(prompt, input):
        with held:
            peak[0] += 1
            peak[1] = max(peak)
            held.notify_all()
            held.wait_for(lambda: peak[0] >= 8, timeout=3)  # until eight run side by side
        time.sleep(0.05)  # a ninth worker, if there were one, would start here
        with held:
            peak[0] -= 1
        return classify(prompt, input)

    sj.optimize(
        score, TICKETS * 3, run=run, artifact=SEED, budget=1, outputs="label",
        reflection_model=stand_in(), val=0.5,
    )  # fmt: skip
    assert peak[1] == 8


def test_optimize_stops_a_run_past_its_run_timeout():
    import time

    def slow(prompt, input):
        time.sleep(2.5)
        return classify(prompt, input)

    report = sj.optimize(
        score, TICKETS[:4], run=slow, artifact=SEED, budget=1, outputs="label",
        reflection_model=stand_in(), val=2, run_timeout=1,
    )  # fmt: skip
    assert report.failed_cases == report.calls > 0


def test_a_better_artifact_is_found_when_the_stand_in_proposes_one():
    report = run_optimize()
    assert report.improved
    assert report.component == "prompt"  # a text artifact is the component named "prompt"
    _, val = split_cases(sj.load_cases(TICKETS, outputs="label"), 0.5, 0, "en")
    others = sum(case.expected["label"] == "other" for case in val)
    assert report.seed_score == pytest.approx(others / len(val))  # the seed knows only "other"
    assert report.best_score == 1.0
    assert report.best_artifact == "billing: invoice, refund\ntechnical: error, crash"
    seed, *found = report.candidates
    assert seed.index == 0 and seed.parent is None and seed.records == []
    assert seed.text == SEED
    best = report.best
    assert best in found and best.records, "the best text says which feedback it came from"
    assert best.parent is not None
    assert set(best.val_scores) == set(report.val_cases)
    assert report.val_size + report.train_size == len(TICKETS)
    kept = [p for p in report.proposals if p.accepted]
    assert {p.candidate for p in kept} == {c.index for c in found}
    frame = report.to_frame()
    assert list(frame.columns) == [
        "parent",
        "iteration",
        "score",
        "best",
        "calls",
        "text",
        "records",
    ]
    assert frame.loc[best.index, "best"]
    assert report.advice == []
    assert "Improved" in str(report)


def test_budget_stops_the_run_at_gepa_s_iteration_boundary():
    counted = []

    def counting(input, output, expected=None):
        counted.append(1)
        return 0.0, {"feedback": f"Expected {expected['label']!r}, got {output!r}."}

    report = sj.optimize(
        counting,
        TICKETS,
        run=classify,
        artifact=SEED,
        budget=20,
        outputs="label",
        reflection_model=sj.StandInModel("```\nbilling: invoice\n```", tag=""),
        val=0.5,
    )
    assert report.stopped == "budget"
    assert report.calls == len(counted)
    # GEPA checks the budget between iterations: at most one iteration past it
    # (parent and child on a minibatch of 3, then the validation cases).
    assert 20 <= report.calls <= 20 + 2 * 3 + report.val_size
    longer = sj.optimize(
        counting,
        TICKETS,
        run=classify,
        artifact=SEED,
        budget=60,
        outputs="label",
        reflection_model=sj.StandInModel("```\nbilling: invoice\n```", tag=""),
        val=0.5,
    )
    assert longer.calls >= 60 > report.calls


def test_max_cost_stops_on_dollars_and_splits_the_cost():
    task_calls, judge_calls = [], []

    def task_model(instructions, text):
        task_calls.append(text)
        return sj.ModelReply(classify(instructions, {"text": text}), 10, 1, cost_usd=0.001)

    def judge_model(instructions, text):
        judge_calls.append(text)
        return sj.ModelReply("PASS", 10, 1, cost_usd=0.0005)

    def run(prompt, input):
        from skynet import llm

        return llm(prompt, input["text"])

    def judged(input, output, expected=None):
        from skynet import llm

        llm("Say PASS", output)
        return score(input, output, expected)

    reflection = stand_in(output_cost_per_token=0.01)  # ~ $0.1 per proposal
    report = sj.optimize(
        judged,
        TICKETS,
        run=run,
        artifact=SEED,
        budget=1000,
        max_cost=0.05,
        outputs="label",
        reflection_model=reflection,
        val=0.5,
        models=sj.ModelSettings(task_model=task_model, metric_model=judge_model),
    )
    assert report.stopped == "max_cost"
    assert report.calls < 1000
    assert len(reflection.calls) == 1
    cost = report.cost_usd
    assert cost.total >= 0.05
    assert cost.task == pytest.approx(0.001 * len(task_calls))
    assert cost.judge == pytest.approx(0.0005 * len(judge_calls))
    assert len(judge_calls) == report.calls
    assert cost.reflection > 0.05
    assert cost["total"] == pytest.approx(cost.task + cost.judge + cost.reflection)
    assert cost.known


def test_contract_failures_become_scores_not_crashes():
    def strict(input, output, expected=None):
        if "Lisbon" in input["text"]:
            return "0.5", {"feedback": "Close."}  # a str score breaks the contract
        return score(input, output, expected)

    reflection = stand_in()
    report = sj.optimize(
        strict,
        TICKETS,
        run=classify,
        artifact=SEED,
        budget=60,
        outputs="label",
        reflection_model=reflection,
        val=0.5,
    )
    assert report.failed_cases > 0
    assert report.candidates and report.stopped == "budget"
    failures = [
        r["Feedback"]
        for p in report.proposals
        for r in p.records
        if r["Feedback"].startswith(t("step.metric_return_value", "en"))
    ]
    lisbon_in_train = all(TICKETS[8]["text"] != c for c in report.val_cases)
    if lisbon_in_train and failures:
        assert any(f in prompt for f in failures for prompt, _ in reflection.calls)
    assert (
        any(
            t("optimize.why_contract", "en", count=report.failed_cases) == note
            for note in report.advice
        )
        or report.improved
    )


def test_nothing_improved_says_why_with_the_feedback_adviser():
    def vague(input, output, expected=None):
        return 0.5, {"feedback": "Wrong."}

    report = sj.optimize(
        vague,
        TICKETS,
        run=classify,
        artifact=SEED,
        budget=40,
        outputs="label",
        reflection_model=stand_in(),
        val=0.5,
    )
    assert not report.improved
    assert report.best_artifact == SEED
    text = " ".join(report.advice)
    assert "Wrong." in text  # the adviser names the generic feedback
    assert "0.5" in text  # and the score that never varies
    shown = str(report)
    assert t("optimize.not_improved", "en", seed="0.500", val=report.val_size) in shown


def test_the_shipped_ticket_example_says_which_cases_do_not_carry_over(examples_dir):
    def two_words_of_each_message(instructions, _input):
        # Adds two words of each misclassified message to its expected label's line.
        found = re.findall(
            r"Expected '(\w+)', got '\w+'\. The message was: '([^']*)'", instructions
        )
        current = instructions.split("```", 2)[1].strip("\n")
        lines = current.splitlines()
        for label, message in found:
            words = [w for w in re.findall(r"[a-z]{5,}", message.lower())][:2]
            lines = [
                f"{line}, {', '.join(words)}" if line.startswith(label) else line for line in lines
            ]
        return "```\n" + "\n".join(lines) + "\n```"

    report = sj.optimize(
        examples_dir / "metric.py",
        examples_dir / "tickets.csv",
        outputs="label",
        run=f"{examples_dir / 'classify.py'}:run",
        artifact=(examples_dir / "prompt.txt").read_text(),
        budget=40,
        reflection_model=sj.StandInModel(two_words_of_each_message, tag=""),
    )
    assert (report.train_size, report.val_size) == (21, 9)
    assert report.seed_score == pytest.approx(8 / 9)
    assert not report.improved and report.proposals
    missed = [i for i, v in report.best.val_scores.items() if v < 1]
    assert missed
    assert (
        t("optimize.why_unseen", "en", cases=", ".join(map(str, missed)), count=len(missed))
        in report.advice
    )


def test_a_budget_too_small_to_propose_says_so():
    report = run_optimize(budget=3)
    assert report.proposals == []
    assert report.calls == report.val_size
    assert any(str(report.budget) in note and "budget" in note for note in report.advice)


def test_interrupting_keeps_what_was_found(ctrl_c):
    reflection = interrupting_on_second_call()
    report = run_optimize(reflection_model=reflection)
    assert report.interrupted and report.stopped == "interrupted"
    assert report.finished
    assert len(reflection.calls) == 2
    assert report.candidates[0].text == SEED
    assert report.improved, "the candidate found before Ctrl-C is kept"
    assert report.best_artifact in (
        "billing: invoice, refund\ntechnical: error",
        "billing: invoice\ntechnical: error, crash",
    )
    assert t("optimize.stopped_interrupted", "en", calls=report.calls) in str(report)


def test_a_failing_reflection_model_stops_with_a_sentence():
    def broken(instructions, _input):
        raise sj.ModelCallError("stand-in", "AuthenticationError", "invalid api key", 401, 0)

    report = run_optimize(reflection_model=broken)
    assert report.stopped == "reflection_error"
    assert report.error.startswith("The reflection model failed: ModelCallError")
    assert report.proposals == []
    assert report.calls < 60, "GEPA must not go on spending the budget without proposals"


def test_no_reflection_model_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("SKYNET_REFLECTION_MODEL", raising=False)
    sj.configure(reset=True)
    with pytest.raises(ReflectionModelMissing, match="reflection_model="):
        run_optimize(reflection_model=None)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"budget": 0}, "budget must be"),
        ({"max_cost": -1}, "max_cost must be"),
        ({"val": 1.5}, "val must be"),
        ({"timeout": 0}, "timeout must be between"),
        ({"artifact": 42}, "the artifact must be a str"),
        ({"max_metric_calls": 5}, "set by skynet_jupyter.optimize itself"),
        ({"no_such_option": 1}, "not an option"),
    ],
)
def test_bad_arguments_are_sentences(options, message):
    with pytest.raises((ValueError, TypeError), match=message):
        run_optimize(**options)


def test_other_options_reach_gepa():
    report = run_optimize(reflection_minibatch_size=2, candidate_selection_strategy="current_best")
    assert all(len(p.before) == 2 for p in report.proposals)


def test_split_is_seeded_and_keeps_both_parts():
    cases = sj.load_cases(TICKETS, outputs="label")
    train, val = split_cases(cases, 0.25, 3, "en")
    assert len(val) == 3 and len(train) == 9
    assert split_cases(cases, 0.25, 3, "en") == (train, val)
    assert len(split_cases(cases, 11, 0, "en")[0]) == 1
    with pytest.raises(sj.DataError, match="at least 2 cases"):
        split_cases(cases[:1], 0.3, 0, "en")


def test_the_run_cache_spares_repeated_model_calls():
    from skynet import llm

    from tests.openai_server import OpenAIServer
    from tests.served_models import asks, task_models

    calls = []

    def run(prompt, input):
        calls.append(1)
        llm(prompt, input["text"])  # the request: this text on this case
        return classify(prompt, input)

    cache = sj.RunCache()
    with OpenAIServer() as server:
        models = task_models(server)
        first = run_optimize(run=run, run_cache=cache, models=models)
        asked = asks(server)
        assert asked < first.calls, "the same text on the same case is asked once"
        ran = len(calls)
        run_optimize(run=run, run_cache=cache, models=models)
        assert asks(server) == asked, "a second preview with the same texts asks nothing again"
    assert len(calls) > ran  # run itself runs every time (issue 23)


def test_report_in_french_and_portuguese():
    for lang in ("fr", "pt"):
        report = run_optimize(lang=lang)
        assert report.lang == lang
        text = str(report)
        assert t("optimize.candidates", lang) in text
        assert t("optimize.calls", lang, calls=report.calls, budget=60) in text


# --- rendering ----------------------------------------------------------------------------


def test_word_diff_marks_words_in_and_out():
    assert word_diff("a b c", "a x c") == [("=", "a "), ("-", "b"), ("+", "x"), ("=", " c")]
    assert diff_text("billing: invoice", "billing: invoice, refund") == (
        "billing: invoice{+, refund+}"
    )
    assert diff_text("technical: error", "technical: crash") == "technical: [-error-]{+crash+}"


def test_html_escapes_everything_the_user_wrote():
    hostile = '<img src=x onerror="window.__pwned=1">'

    def metric(input, output, expected=None):
        return 0.0, {"feedback": f"{hostile} expected {expected['label']!r}"}

    def hostile_proposal(instructions, _input):
        return "```\n" + hostile + "\nbilling: refund\n```"

    report = sj.optimize(
        metric,
        TICKETS,
        run=classify,
        artifact=SEED + "\n" + hostile,
        budget=40,
        outputs="label",
        reflection_model=sj.StandInModel(hostile_proposal, tag=""),
        val=0.5,
    )
    html = report_html(report)
    assert report.proposals
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;" in html


# --- %skynet_optimize -----------------------------------------------------------------------


@pytest.fixture
def shell(shell):
    """conftest.py's shell (cwd a temp folder: the run cache lands there, never in the
    repo), with the tickets, the program, the seed prompt and the metric."""
    shell.user_ns.update(
        tickets=TICKETS, classify=classify, seed_prompt=SEED, reflection=stand_in(), score=score
    )
    shell.run_cell(
        "%%skynet_metric\n"
        "def score(input, output, expected=None):\n"
        "    want = expected['label']\n"
        "    if output == want:\n"
        "        return 1.0, {'feedback': 'Correct.'}\n"
        "    return 0.0, {'feedback': f'Expected {want!r}, got {output!r}. <{input[\"text\"]}>'}\n"
    )
    return shell


MAGIC = (
    "--data tickets --outputs label --run classify --artifact seed_prompt "
    "--budget 60 --val 0.5 --reflection-model reflection"
)


def test_magic_runs_the_same_scenario_with_a_live_view(shell):
    with capture_output() as cap:
        report = shell.run_line_magic("skynet_optimize", MAGIC)
    assert isinstance(report, sj.OptimizeReport)
    assert report.improved and report.best_score == 1.0
    assert report.best_artifact == "billing: invoice, refund\ntechnical: error, crash"
    reflection = shell.user_ns["reflection"]
    for proposal, (prompt, _) in zip(report.proposals, reflection.calls, strict=True):
        for record in proposal.records:
            assert record["Feedback"] in prompt
    shown = [o for o in cap.outputs if not o.update]
    # The live view (its widget, then its static copy); the returned report is not shown twice.
    assert len(shown) == 2, "one live view; the returned report is not shown twice"
    assert "application/vnd.jupyter.widget-view+json" in shown[0].data
    bundle = cap.outputs[-1].data  # the view's final state, updated in place
    html = bundle["text/html"]  # the static copy: the feedback read, escaped
    assert any(f"&lt;{case['text']}&gt;" in html for case in TICKETS)
    assert not any(f"<{case['text']}>" in html for case in TICKETS)
    assert (
        t(
            "optimize.improved",
            "en",
            seed=f"{report.seed_score:.3f}",
            best="1.000",
            candidate=report.best.index,
            val=report.val_size,
        )
        in bundle["text/plain"]
    )


def test_magic_live_view_shows_candidates_proposals_and_cost(shell):
    from skynet_jupyter.notebook.widgets._optimize_view import OptimizeView

    seen = []
    original = OptimizeView.on_event

    def spy(self, event):
        original(self, event)
        if event.kind in ("candidate", "proposal"):
            self.flush()
            seen.append((event.kind, self.head.value, self.body.value, self.progress.value))

    OptimizeView.on_event = spy
    try:
        with capture_output():
            report = shell.run_line_magic("skynet_optimize", MAGIC)
    finally:
        OptimizeView.on_event = original
    kinds = [kind for kind, *_ in seen]
    assert "candidate" in kinds and "proposal" in kinds
    # While running: the best so far and the cost so far are in the head.
    _, head, body, calls = seen[0]
    assert "best" in head and "cost" in head
    assert 'data-candidate="0"' in body
    proposal_views = [body for kind, _, body, _ in seen if kind == "proposal"]
    assert "<ins>" in proposal_views[0] and "sko-records" in proposal_views[0]
    assert report.calls >= calls


def test_magic_quiet_with_semicolon_and_usage_errors(shell):
    with capture_output() as cap:
        report = shell.run_line_magic("skynet_optimize", MAGIC + ";")
    assert cap.outputs == [] and report.improved
    with pytest.raises(UsageError, match="budget must be"):
        shell.run_line_magic("skynet_optimize", MAGIC.replace("--budget 60", "--budget 0"))
    with pytest.raises(UsageError, match="no notebook variable or file"):
        shell.run_line_magic("skynet_optimize", MAGIC.replace("seed_prompt", "nowhere"))


def test_magic_interrupt_keeps_the_report(shell, ctrl_c):
    shell.user_ns["reflection"] = interrupting_on_second_call()
    with capture_output() as cap:
        report = shell.run_line_magic("skynet_optimize", MAGIC)
    assert report.interrupted and report.improved
    final = cap.outputs[-1]
    assert final.update  # the view's static copy, finished in place
    assert "Interrupted after" in final.data["text/plain"]


# --- DSPy programs ------------------------------------------------------------------------------


def _dspy_program():
    dspy = require_module("dspy")

    class Ticket(dspy.Signature):
        """Classify the support ticket."""

        text: str = dspy.InputField()
        label: str = dspy.OutputField()

    class Classifier(dspy.Module):
        def __init__(self):
            super().__init__()
            self.classify = dspy.Predict(Ticket)

        def forward(self, text):
            return self.classify(text=text)

    task_lm = dspy.utils.DummyLM(
        {"refund": {"label": "other"}, "crash": {"label": "technical"}, "?": {"label": "other"}}
    )
    return dspy, Classifier(), task_lm


def test_dspy_gepa_reads_the_feedback_through_the_dspy_adapter():
    dspy, program, task_lm = _dspy_program()
    reflection_lm = dspy.utils.DummyLM([{"text": "```\nRefund tickets are billing.\n```"}] * 20)
    examples = [dspy.Example(text=c["text"], label=c["label"]).with_inputs("text") for c in TICKETS]
    optimizer = dspy.GEPA(
        metric=sj.to_dspy_metric(score),
        max_metric_calls=40,
        reflection_lm=reflection_lm,
        num_threads=1,
        use_merge=False,
    )
    with dspy.context(lm=task_lm):
        optimized = optimizer.compile(program, trainset=examples[:8], valset=examples[8:])
    assert isinstance(optimized, dspy.Module)
    prompts = "\n".join(
        str(message.get("content"))
        for entry in reflection_lm.history
        for message in entry.get("messages") or []
    )
    wanted = feedback_for({"text": TICKETS[0]["text"]}, "other", "billing")
    sent = [feedback_for(c, "other", "billing") for c in TICKETS[:4]]
    assert any(text in prompts for text in sent), "the metric's feedback reached the reflection LM"
    assert wanted.startswith("Expected 'billing', got 'other'")


def test_sj_optimize_improves_a_dspy_program_through_from_dspy_program():
    _, program, task_lm = _dspy_program()
    reflection = sj.StandInModel("```\nRefund tickets are billing.\n```", tag="")
    report = sj.optimize(
        score,
        TICKETS,
        run=sj.from_dspy_program(program, lm=task_lm),
        artifact={"classify": "Classify the support ticket."},
        budget=30,
        outputs="label",
        reflection_model=reflection,
        val=0.5,
        concurrency=1,
    )
    assert report.component is None
    assert report.candidates[0].text == {"classify": "Classify the support ticket."}
    assert report.proposals and report.proposals[0].text == {
        "classify": "Refund tickets are billing."
    }
    first_prompt = reflection.calls[0][0]
    for record in report.proposals[0].records:
        assert record["Feedback"] in first_prompt
