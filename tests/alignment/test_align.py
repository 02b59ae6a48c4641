"""Aligning a judge with the humans: the real ``gepa.optimize`` rewrites the judge's
instructions, with stand-in models.

The stand-in judge follows the rules written in its instructions; the humans
follow one more (never ask for the password).  The stand-in reflection model
reads GEPA's prompt and writes a rule for each phrase a human's reason quotes
beside a disagreement, as a real model would do with more sense.  Nothing is
mocked: GEPA runs its loop, the engine scores every case.
"""

from __future__ import annotations

import ast
import math

import pytest

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.alignment.judge_prompt import PromptNotFound, string_literal  # noqa: E402
from skynet_jupyter.alignment.render import align_html  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from tests.align_support import (  # noqa: E402
    JUDGE_METRIC,
    PASSWORD_REASON,
    RuleWriter,
    judge_model,
    replies,
)

NEW_RULE = '- FAIL if the reply contains "your password".'


def aligned(data=None, **options):
    writer = options.pop("writer", None) or RuleWriter()
    judge = options.pop("judge", None) or judge_model()
    settings = dict(
        labels="human",
        output_column="reply",
        rationale="why",
        reflection_model=sj.StandInModel(writer),
        budget=60,
        models=sj.ModelSettings(metric_model=judge),
    )
    settings.update(options)
    report = sj.align(JUDGE_METRIC, replies() if data is None else data, **settings)
    return report, writer, judge


def test_held_out_agreement_improves_where_the_instructions_miss_a_rule():
    report, _, _ = aligned()
    assert isinstance(report, sj.AlignReport)
    before, after = report.before, report.after
    assert isinstance(before, sj.AgreementReport) and isinstance(after, sj.AgreementReport)
    assert before.accuracy < 1.0 and after.accuracy == 1.0
    assert after.kappa > before.kappa or math.isnan(before.kappa)
    assert report.improved
    assert NEW_RULE in report.best_prompt and report.best_prompt.startswith(
        "You review a support agent's reply"
    )
    # The held-out proof: both parts of a seeded split, the held-out cases measured apart.
    labelled = set(range(len(replies())))
    assert set(report.train_cases) | set(report.held_out_cases) == labelled
    assert not set(report.train_cases) & set(report.held_out_cases)
    assert set(before.scores) == set(after.scores) == set(report.held_out_cases)
    assert report.flips and all(flip.fixed for flip in report.flips)
    assert {flip.case for flip in report.flips} == {
        d.case for d in before.disagreements
    }  # every held-out disagreement was fixed, none was made
    again, _, _ = aligned()
    assert again.held_out_cases == report.held_out_cases
    other, _, _ = aligned(seed=3)
    assert other.held_out_cases != report.held_out_cases
    # What it took, judge and reflection apart; a word diff of the new instructions.
    assert report.calls == report.first_pass_calls + report.optimization.calls + (
        report.held_out_calls
    )
    assert report.reflection_calls >= 1
    text = str(report)
    assert "{+" + NEW_RULE + "+}" in text
    assert t("align.binary", "en", accuracy="1", kappa="1") in text


def test_the_reflection_model_read_the_disagreements_and_reasons_verbatim():
    report, writer, _ = aligned()
    prompts = "\n".join(writer.prompts)
    assert writer.prompts and len(writer.prompts) == report.reflection_calls
    read = [record for proposal in report.optimization.proposals for record in proposal.records]
    assert read
    for record in read:
        assert record["Feedback"] in prompts  # the records GEPA showed it, word for word
    missed = [r for r in read if PASSWORD_REASON in r["Feedback"]]
    assert missed
    # The judge's own words, what the human said, and the human's reason.
    verdict = "PASS. The reply breaks none of my rules."
    wanted = (
        t("align.fb_disagree", "en", judge="pass", score="1", human="fail", feedback=verdict)
        + " "
        + t("align.fb_reason", "en", rationale=PASSWORD_REASON)
    )
    assert any(r["Feedback"] == wanted for r in missed)
    assert wanted in prompts
    # The held-out cases never reach the reflection model.
    rows = replies()
    for case in report.held_out_cases:
        assert rows[case]["reply"] not in prompts


def test_without_the_humans_reasons_nothing_improves_and_the_report_says_why():
    report, writer, _ = aligned(replies(with_reasons=False), rationale=None)
    assert PASSWORD_REASON not in "\n".join(writer.prompts)
    assert not report.improved
    assert report.best_prompt == report.seed_prompt
    assert report.after.accuracy == report.before.accuracy
    assert t("align.why_no_rationale", "en") in report.advice
    assert t("align.why_no_rationale", "en") in str(report)


def test_the_budget_stops_the_run():
    short, _, _ = aligned(budget=20)
    assert short.stopped == "budget"
    # GEPA checks the budget between iterations: at most one iteration past it
    # (parent and child on a minibatch of 3, then the training cases it validates on).
    train = len(short.train_cases)
    assert 20 <= short.optimization.calls <= 20 + train + 2 * 3 + train
    longer, _, _ = aligned(budget=80)
    assert longer.optimization.calls > short.optimization.calls


def test_max_cost_stops_on_dollars_judge_and_reflection_apart():
    priced_judge = sj.StandInModel(
        judge_model().answer, input_cost_per_token=0.000001, name="priced judge"
    )
    writer = RuleWriter()
    reflection = sj.StandInModel(writer, output_cost_per_token=0.01)
    report = sj.align(
        JUDGE_METRIC,
        replies(),
        labels="human",
        output_column="reply",
        rationale="why",
        reflection_model=reflection,
        budget=10_000,
        max_cost=0.05,
        models=sj.ModelSettings(metric_model=priced_judge),
    )
    assert report.stopped == "max_cost"
    assert report.optimization.calls < 10_000
    cost = report.cost_usd
    assert cost.total >= 0.05
    assert cost.judge > 0 and cost.reflection > 0 and cost.task == 0
    judged = len(priced_judge.calls)
    assert judged == report.calls  # every judge call counted, the held-out checks too
    assert str(report).count("$") >= 3


def test_save_writes_the_metric_with_only_the_named_string_changed(tmp_path):
    report, _, _ = aligned()
    path = tmp_path / "aligned_metric.py"
    saved = report.save(path)
    assert saved == path.resolve()
    text = path.read_text(encoding="utf-8")
    old_tree, new_tree = ast.parse(JUDGE_METRIC), ast.parse(text)
    assert len(old_tree.body) == len(new_tree.body)
    for old, new in zip(old_tree.body, new_tree.body, strict=True):
        if isinstance(old, ast.Assign) and old.targets[0].id == "JUDGE":
            assert ast.literal_eval(new.value) == report.best_prompt
        else:
            assert ast.dump(old) == ast.dump(new)
    # Only the literal's characters changed: the rest of the file is byte for byte the same.
    start = JUDGE_METRIC.index('"""')
    end = JUDGE_METRIC.index('"""', start + 3) + 3
    assert text.startswith(JUDGE_METRIC[:start]) and text.endswith(JUDGE_METRIC[end:])
    loaded = sj.load_metric(path)
    assert report.best_prompt == loaded.module.JUDGE
    assert loaded.module.OTHER_TEXT == "not the instructions"
    # The same file again is no change; another file is kept unless force.
    assert report.save(path) == path.resolve()
    other = tmp_path / "other.py"
    other.write_text("# mine\n", encoding="utf-8")
    with pytest.raises(FileExistsError, match="force=True"):
        report.save(other)
    assert other.read_text(encoding="utf-8") == "# mine\n"
    report.save(other, force=True)
    assert other.read_text(encoding="utf-8") == text
    link = tmp_path / "link.py"
    link.symlink_to(other)
    with pytest.raises(FileExistsError, match="symbolic link"):
        report.save(link, force=True)


def test_the_aligned_metric_is_new_and_the_users_is_untouched():
    metric = sj.load_metric(JUDGE_METRIC, name="judge")
    old_text = metric.module.JUDGE
    judge = judge_model()
    report = sj.align(
        metric,
        replies(),
        labels="human",
        output_column="reply",
        rationale="why",
        reflection_model=sj.StandInModel(RuleWriter()),
        budget=60,
        models=sj.ModelSettings(metric_model=judge),
    )
    assert report.improved
    assert old_text == metric.module.JUDGE and metric.source == JUDGE_METRIC
    aligned_metric = report.metric
    assert aligned_metric.module is not metric.module
    assert report.best_prompt == aligned_metric.module.JUDGE
    assert aligned_metric.name == "judge"
    check = sj.check(
        aligned_metric,
        replies()[:3],
        output_column="reply",
        inputs="question",
        models=sj.ModelSettings(metric_model=judge),
    )
    assert check.passed


def test_too_few_or_constant_labels_are_a_sentence_not_a_run():
    judge = judge_model()
    rows = replies()
    for row in rows[9:]:
        row["human"] = None  # unlabelled: left out
    with pytest.raises(sj.DataError) as few:
        aligned(rows, judge=judge)
    assert str(few.value) == t("align.too_few_labels", "en", count=9, column="human", least=10)
    same = replies()
    for row in same:
        row["human"] = "pass"
    with pytest.raises(sj.DataError) as constant:
        aligned(same, judge=judge)
    assert str(constant.value) == t("align.constant_labels", "en", column="human", value="pass")
    assert judge.calls == []  # refused before any judge call


def test_a_metric_without_the_named_string_is_a_clear_error():
    with pytest.raises(PromptNotFound) as missing:
        aligned(prompt="INSTRUCTIONS")
    assert str(missing.value) == t(
        "align.no_prompt", "en", prompt="INSTRUCTIONS", known="JUDGE, OTHER_TEXT"
    )
    built = JUDGE_METRIC.replace('JUDGE = """', 'JUDGE = f"""', 1)
    with pytest.raises(PromptNotFound, match="not one string literal"):
        sj.align(
            built,
            replies(),
            labels="human",
            output_column="reply",
            reflection_model=sj.StandInModel("x"),
        )
    with pytest.raises(PromptNotFound, match="no source to rewrite"):
        sj.align(
            lambda input, output: (1.0, {"feedback": "ok"}),
            replies(),
            labels="human",
            output_column="reply",
            reflection_model=sj.StandInModel("x"),
        )
    with pytest.raises(sj.DataError, match="nope"):
        aligned(labels="nope")


def test_the_report_speaks_french_and_portuguese_and_escapes_html():
    rows = replies()
    for row in rows:
        if row["why"] == PASSWORD_REASON:
            row["why"] = "<i>Never</i> " + PASSWORD_REASON  # read beside each disagreement
    report, _, _ = aligned(rows)
    assert report.improved
    html = align_html(report)
    assert "&lt;i&gt;Never&lt;/i&gt;" in html and "<i>Never" not in html
    for lang in ("fr", "pt"):  # the stand-in reads English: nothing improves, said in lang
        translated, _, _ = aligned(lang=lang, budget=20)
        text = str(translated)
        assert t("align.held_out", lang) in text and t("align.before", lang) in text
        assert t("align.fb_reason", lang, rationale=PASSWORD_REASON) in text


def test_string_literal_keeps_triple_quotes_when_they_read_back_the_same():
    assert string_literal("a\nb", '"""x"""') == '"""a\nb"""'
    assert ast.literal_eval(string_literal('ends with "', '"""x"""')) == 'ends with "'
    assert ast.literal_eval(string_literal("back\\slash", '"""x"""')) == "back\\slash"
    assert string_literal("one line", "'x'") == "'one line'"


def test_numeric_labels_are_matched_by_closeness_and_measured_by_rank():
    rows = replies()
    for row in rows:  # a 1..5 scale: good 5, rude 1, password requests 2
        row["human"] = {"Helpful.": 5, "Rude.": 1}.get(row["why"], 2)
    report, _, _ = aligned(rows, budget=30)
    assert report.kind == "numeric"
    assert report.before.spearman is not None and report.before.accuracy is None
    records = [r for p in report.optimization.proposals for r in p.records]
    assert records
    # The label rescaled over the labels' range: 2 on 1..5 is 0.25; a pass (1) is 0.25 close.
    numeric = t(
        "align.fb_numeric",
        "en",
        score="1",
        human=2,
        closeness="0.25",
        feedback="PASS. The reply breaks none of my rules.",
    )
    assert any(r["Feedback"].startswith(numeric) for r in records)
    assert t("align.numeric", "en", spearman="", pearson="").split(" ")[0] in str(report)


def test_outputs_from_run_are_made_once_and_judged_again():
    rows = replies()
    answers = {row["question"]: row["reply"] for row in rows}
    calls = []

    def answer(artifact, input):
        calls.append(input["question"])
        return answers[input["question"]]

    for row in rows:
        del row["reply"]
    report, _, judge = aligned(rows, output_column=None, run=answer, artifact="be kind")
    assert report.improved
    assert sorted(calls) == sorted(answers)  # each case's output made once, by run
    assert len(judge.calls) == report.calls > len(rows)  # ... and judged again and again
