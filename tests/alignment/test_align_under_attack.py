"""Issue 35, "Trust under attack": ``sj.align`` rewrites the string it names and nothing
else, measures the old and the new instructions on the same held-out cases (a case the
judge fails on is a disagreement), and refuses labels that never differ among the cases
it uses before any judge call.

The scripted judge (``tests/align_support.py``) answers each case as its test says, per
version of its instructions; the stand-in reflection model proposes the next version.
"""

from __future__ import annotations

import ast
import math
from typing import Any

import pytest

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.alignment.align import MIN_LABELS  # noqa: E402
from skynet_jupyter.alignment.judge_adapter import HumanLabels  # noqa: E402
from skynet_jupyter.alignment.judge_prompt import (  # noqa: E402
    PromptNotFound,
    find_prompt,
    string_literal,
)
from skynet_jupyter.alignment.report import measure  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from tests.align_support import (  # noqa: E402
    SCRIPTED_METRIC,
    scripted_align,
    split_positions,
)

HUMANS = ["pass", "fail"] * 10  # 20 labelled cases, both kinds everywhere
SEED_TEXT = "Answer PASS or FAIL. Version 0."
NEW_TEXT = "Answer PASS or FAIL. Version 1."


def learns_on(train: list[int], held: dict[int, tuple[str, str]]) -> Any:
    """A judge whose new text is right on every training case (the old one wrong), and
    on held-out case ``c`` answers ``held[c]`` (old, new); right where not said."""

    def behave(version: int, case: int) -> str:
        if case in train:
            return "right" if version >= 1 else "wrong"
        old, new = held.get(case, ("right", "right"))
        return old if version == 0 else new

    return behave


def metric_with_judge(judge_line: str, before: str = "", after: str = "") -> str:
    """The scripted metric with its ``JUDGE = ...`` line written as given."""
    text = SCRIPTED_METRIC.replace('JUDGE = "Answer PASS or FAIL. Version 0."', judge_line)
    head, tail = text.split(judge_line, 1)
    return head + before + judge_line + after + tail


def rewritten_only_the_judge(old_source: str, new_source: str, text: str) -> None:
    """``new_source`` compiles and is ``old_source`` but for the value of JUDGE's literal."""
    compile(new_source, "<new>", "exec")
    old_tree, new_tree = ast.parse(old_source), ast.parse(new_source)
    assert len(old_tree.body) == len(new_tree.body)
    for old, new in zip(old_tree.body, new_tree.body, strict=True):
        target = getattr(old, "target", None) or (getattr(old, "targets", None) or [None])[0]
        if isinstance(target, ast.Name) and target.id == "JUDGE":
            assert isinstance(new, ast.Assign | ast.AnnAssign)
            assert ast.literal_eval(new.value) == text  # type: ignore[arg-type]
            new.value = old.value  # type: ignore[union-attr]
        assert ast.dump(old) == ast.dump(new)


# --- 1. save rewrites the named string, wherever Python's lines differ from splitlines ----

PAGE_BREAKS = ["\f", "# a section\x1c\n", "# \x1d\n", "# \x1e\n", "# \x85\n", "# \u2028\n"]
PAGE_BREAKS += ["# \u2029\n", "# \x0b\n", 'NOTE = "a\x0bb\x85c\u2028"\n']


@pytest.mark.parametrize("page_break", PAGE_BREAKS)
def test_item1_a_line_break_python_does_not_count_moves_no_rewrite(page_break, tmp_path):
    style = 'STYLE = "Keep replies short!!"\n'
    source = metric_with_judge(
        'JUDGE = "Answer PASS or FAIL. Version 0."', before=page_break + "\n" + style
    )
    path = tmp_path / "judge_metric.py"
    path.write_text(source, encoding="utf-8", newline="")
    train, held = split_positions(20, 6, 0)
    behave = learns_on(train, {held[0]: ("wrong", "right")})
    report, _, _ = scripted_align(HUMANS, behave, metric=str(path), val=6)
    assert report.improved and report.best_prompt == NEW_TEXT
    assert report.prompt is not None and report.prompt.source[report.prompt.start :].startswith(
        '"Answer PASS or FAIL. Version 0."'
    )
    assert report.optimization.improved  # the candidates really were the judge's text
    saved = tmp_path / "saved.py"
    report.save(saved)
    text = saved.read_bytes().decode("utf-8")
    assert style in text
    rewritten_only_the_judge(source, text, report.best_prompt)


def test_item1_the_issues_metric_saves_style_untouched_when_the_lengths_differ(tmp_path):
    source = metric_with_judge(
        'JUDGE = "Answer PASS or FAIL. Version 0."',
        before='\f\nSTYLE = "Keep replies short, please, and kind!!"\n',
    )
    train, held = split_positions(20, 6, 0)
    report, _, _ = scripted_align(
        HUMANS, learns_on(train, {held[0]: ("wrong", "right")}), metric=source, val=6
    )
    assert report.improved and report.best_prompt == NEW_TEXT
    path = tmp_path / "aligned.py"
    report.save(path)
    text = path.read_text(encoding="utf-8")
    assert 'STYLE = "Keep replies short, please, and kind!!"' in text
    rewritten_only_the_judge(source, text, NEW_TEXT)
    assert sj.load_metric(path).module.JUDGE == NEW_TEXT


JUDGE_FORMS = {
    "annotated": 'JUDGE: str = "Answer PASS or FAIL. Version 0."',
    "implicit concatenation": 'JUDGE = ("Answer PASS or FAIL. "  # two parts\n    "Version 0.")',
    "triple-quoted": 'JUDGE = """Answer PASS or FAIL. Version 0."""',
    "raw": "JUDGE = r'Answer PASS or FAIL. Version 0.'",
    "unicode prefix": "JUDGE = u'''Answer PASS or FAIL. Version 0.'''",
    "after a statement": 'X = "é"; JUDGE = "Answer PASS or FAIL. Version 0."  # é',
    "in an if": 'if True:\n    JUDGE = "Answer PASS or FAIL. Version 0."',
    "among annotated others": 'COUNT: int = 3\nJUDGE: str = "Answer PASS or FAIL. Version 0."',
    "after a decorated function": (
        '@(lambda f: f)\ndef helper():\n    return "x"\n\n\n'
        'JUDGE = "Answer PASS or FAIL. Version 0."'
    ),
    "carriage returns": 'X = 1\rY = "ü"\r\nJUDGE = "Answer PASS or FAIL. Version 0."',
}


@pytest.mark.parametrize("form", list(JUDGE_FORMS))
def test_item1_every_form_of_one_string_literal_is_found_and_rewritten(form):
    source = metric_with_judge(JUDGE_FORMS[form])
    prompt = find_prompt(sj.load_metric(source, name="judge"), "JUDGE", "en")
    assert prompt.text == SEED_TEXT
    for text in (NEW_TEXT, "Réponds PASS ou FAIL — « juste ».\n\u2028ok", 'a """ b \\ c'):
        new_source = prompt.source_with(text)
        assert new_source.startswith(source[: prompt.start])
        assert new_source.endswith(source[prompt.end :])
        if form != "in an if":
            rewritten_only_the_judge(source, new_source, text)
        assert text == sj.load_metric(new_source, name="judge").module.JUDGE


def test_planted_the_literals_end_is_counted_in_bytes_for_a_non_ascii_prompt(tmp_path):
    prompt_line = 'JUDGE = "Réponds PASS ou FAIL — Version 0."  # « juge »'
    source = metric_with_judge(prompt_line).replace(
        '"Answer PASS or FAIL. Version 0."', '"Réponds PASS ou FAIL — Version 0."'
    )
    found = find_prompt(sj.load_metric(source, name="judge"), "JUDGE", "en")
    assert source[found.start : found.end] == '"Réponds PASS ou FAIL — Version 0."'
    train, held = split_positions(20, 6, 0)
    report, _, _ = scripted_align(
        HUMANS, learns_on(train, {held[0]: ("wrong", "right")}), metric=source, val=6
    )
    assert report.improved
    path = tmp_path / "aligned.py"
    report.save(path)
    text = path.read_text(encoding="utf-8")
    assert text.count("# « juge »") == 1
    rewritten_only_the_judge(source, text, NEW_TEXT)


def test_planted_an_annotated_assignment_is_found_and_saved(tmp_path):
    source = metric_with_judge('JUDGE: str = "Answer PASS or FAIL. Version 0."')
    train, held = split_positions(20, 6, 0)
    report, _, _ = scripted_align(
        HUMANS, learns_on(train, {held[0]: ("wrong", "right")}), metric=source, val=6
    )
    assert report.improved
    path = tmp_path / "aligned.py"
    report.save(path)
    assert 'JUDGE: str = "Answer PASS or FAIL. Version 1."' in path.read_text(encoding="utf-8")


NOT_PLAIN = {
    'JUDGE = f"Answer {1}"': "an f-string",
    'JUDGE = b"Answer"': 'bytes (b"...")',
    "JUDGE = 42": "the value 42",
    "JUDGE: str": "declared without a value",
    "def JUDGE():\n    return 'x'": "a function",
    "class JUDGE:\n    pass": "a class",
    "from os import sep as JUDGE": "an imported name",
    'JUDGE = "a"\nJUDGE += "b"': "changed after it is assigned (line 4)",
    'JUDGE = "a"\ndef f():\n    global JUDGE\n    JUDGE = "b"': (
        "changed after it is assigned (line 5)"
    ),
    'JUDGE, OTHER = "a", "b"': "an expression or another binding (line 3)",
    'for JUDGE in ["a"]:\n    pass': "an expression or another binding (line 3)",
    'JUDGE = OTHER = "a"': "an expression or another binding (line 3)",
    'JUDGE = "a"\nglobals()["JUDGE"] = "b"': "another value once the metric's module has run",
}


@pytest.mark.parametrize("line", list(NOT_PLAIN))
def test_item1_a_name_that_is_not_one_plain_string_literal_is_one_sentence(line):
    source = metric_with_judge(line).replace("llm(JUDGE,", "llm(str(JUDGE),")
    with pytest.raises(PromptNotFound) as refused:
        find_prompt(sj.load_metric(source, name="judge"), "JUDGE", "en")
    assert str(refused.value) == t("align.prompt_is", "en", prompt="JUDGE", what=NOT_PLAIN[line])
    assert "not one string literal" in str(refused.value)
    for lang in ("fr", "pt"):
        with pytest.raises(PromptNotFound) as translated:
            find_prompt(sj.load_metric(source, name="judge"), "JUDGE", lang)
        assert str(translated.value).startswith("JUDGE ")


def test_an_instruction_built_from_other_values_is_one_sentence():
    source = metric_with_judge('JUDGE = "Answer " + "PASS"')
    with pytest.raises(PromptNotFound) as refused:
        find_prompt(sj.load_metric(source, name="judge"), "JUDGE", "en")
    assert str(refused.value) == t("align.not_literal", "en", prompt="JUDGE")


def test_a_name_not_bound_at_all_lists_the_strings_there_are():
    source = metric_with_judge('JUDGE = "x"').replace('JUDGE = "x"', 'OTHER = "x"')
    source = source.replace("llm(JUDGE,", "llm(OTHER,")
    with pytest.raises(PromptNotFound) as missing:
        find_prompt(sj.load_metric(source, name="judge"), "JUDGE", "en")
    assert str(missing.value) == t("align.no_prompt", "en", prompt="JUDGE", known="OTHER")


def test_string_literal_keeps_a_u_prefix_and_reads_back_every_text():
    assert string_literal("new", "u'old'") == "u'new'"
    assert string_literal("new", 'r"old"') == '"new"'
    assert string_literal("it's", "'old'") == '"it\'s"'
    assert string_literal('say "hi"', '"old"') == "'say \"hi\"'"
    assert string_literal("a\nb", 'R"""x"""') == '"""a\nb"""'
    assert string_literal("a\u2028b\nc", '"""x"""') == repr("a\u2028b\nc")
    for text in ["\r", "a\r\nb", "\x00", "'''", '"""', "\\", "é\u2028\x85\f\x0b", "x" * 100_000]:
        for like in ['"x"', '"""x"""', "'''x'''", "u'x'", "r'x'"]:
            assert ast.literal_eval(string_literal(text, like)) == text


def test_item3_constant_numeric_labels_are_said_with_their_value():
    rows = [{"reply": f"reply #{i}: a reply", "human": 3} for i in range(12)]
    with pytest.raises(sj.DataError) as constant:
        sj.align(
            SCRIPTED_METRIC,
            rows,
            labels="human",
            output_column="reply",
            reflection_model=sj.StandInModel("x"),
        )
    assert str(constant.value) == t("align.constant_labels", "en", column="human", value="3")


# --- 2. a held-out case the judge fails on is a disagreement, never left out ------------


def test_item2_held_out_failures_of_the_new_judge_count_as_disagreements(tmp_path):
    train, held = split_positions(20, 6, 0)
    # The old judge: right on 4 of the 6 held-out cases.  The new one: right on 2, and
    # on the other 4 it replies unparsably (the metric raises) or the call fails.
    script = {
        held[0]: ("right", "right"),
        held[1]: ("right", "right"),
        held[2]: ("right", "unparsable"),
        held[3]: ("right", "raising"),
        held[4]: ("wrong", "unparsable"),
        held[5]: ("wrong", "raising"),
    }
    report, _, _ = scripted_align(HUMANS, learns_on(train, script), val=6)
    before, after = report.before, report.after
    assert before is not None and after is not None
    assert report.tried is not None  # GEPA did find the new text best on the training cases
    assert before.accuracy == pytest.approx(4 / 6)
    assert after.accuracy == pytest.approx(2 / 6)
    assert set(before.labels) == set(after.labels) == set(report.held_out_cases) == set(held)
    assert set(after.failed) == {held[2], held[3], held[4], held[5]}
    assert not report.improved
    assert report.best_prompt == SEED_TEXT
    broken = {flip.case for flip in report.flips if not flip.fixed}
    assert broken == {held[2], held[3]}
    assert all(math.isnan(flip.after) for flip in report.flips)
    path = tmp_path / "kept.py"
    report.save(path)
    assert path.read_text(encoding="utf-8") == SCRIPTED_METRIC
    assert "1 on 6" not in str(report)


def test_item2_old_judge_failures_count_against_it_too():
    train, held = split_positions(20, 6, 0)
    script = {held[0]: ("raising", "right"), held[1]: ("unparsable", "right")}
    report, _, _ = scripted_align(HUMANS, learns_on(train, script), val=6)
    assert report.before is not None and report.after is not None
    assert report.before.accuracy == pytest.approx(4 / 6)
    assert report.after.accuracy == 1.0
    assert report.improved and report.best_prompt == NEW_TEXT
    assert {flip.case for flip in report.flips if flip.fixed} == {held[0], held[1]}


# --- 3. "labels all the same" is judged on the cases used, before any judge call ---------


def test_item3_constant_labels_among_the_cases_used_are_refused_before_any_call():
    humans = ["pass"] * 10 + ["fail"] * 10
    with pytest.raises(sj.DataError) as constant:
        scripted_align(humans, lambda v, c: "right", cases=10)
    assert str(constant.value) == t("align.constant_labels", "en", column="human", value="pass")
    calls: list[int] = []

    def counted(version: int, case: int) -> str:
        calls.append(case)
        return "right"

    with pytest.raises(sj.DataError):
        scripted_align(humans, counted, cases=10)
    assert calls == []  # refused before any judge call


# --- the planted wrong changes ------------------------------------------------------------


def test_planted_the_held_out_part_is_the_splits_smaller_part():
    train, held = split_positions(20, 6, 0)
    report, _, _ = scripted_align(HUMANS, learns_on(train, {}), val=6)
    assert report.held_out_cases == held and report.train_cases == train
    assert len(report.held_out_cases) == 6
    assert report.optimization.train_size == 14


def test_planted_gepa_never_judges_the_held_out_cases():
    train, held = split_positions(20, 6, 0)
    report, judge, writer = scripted_align(
        HUMANS, learns_on(train, {held[0]: ("wrong", "right")}), val=6
    )
    checks = len(report.held_out) - 1  # held-out checks besides the first pass
    assert checks >= 1
    for case in held:
        assert sum(1 for _, c in judge.calls if c == case) == 1 + checks
        assert all(f"reply #{case}:" not in prompt for prompt in writer.prompts)
    assert len(judge.calls) == report.calls


def test_planted_a_held_out_tie_keeps_the_old_instructions():
    train, held = split_positions(20, 6, 0)
    # Old and new each right on 4 of 6 held-out cases, not the same ones.
    script = {held[0]: ("wrong", "right"), held[1]: ("right", "wrong")}
    script |= {held[2]: ("wrong", "wrong")}
    report, _, _ = scripted_align(HUMANS, learns_on(train, script), val=6)
    assert report.before is not None and report.after is not None
    assert report.before.accuracy == report.after.accuracy == pytest.approx(4 / 6)
    assert report.tried is not None
    assert not report.improved and report.best_prompt == SEED_TEXT


def test_planted_accuracy_not_kappa_is_the_headline_for_pass_fail_labels():
    train, held = split_positions(20, 6, 0)
    humans = list(HUMANS)
    for case in held:
        humans[case] = "pass"
    humans[held[0]] = "fail"
    # Old: says pass everywhere held-out (accuracy 5/6, kappa 0); new: right on the fail,
    # wrong on two passes (accuracy 4/6, kappa 1/3).  Accuracy says: no better.
    script = {held[0]: ("wrong", "right"), held[1]: ("right", "wrong")}
    script |= {held[2]: ("right", "wrong")}
    report, _, _ = scripted_align(humans, learns_on(train, script), val=6)
    before, after = report.before, report.after
    assert before is not None and after is not None
    assert before.accuracy == pytest.approx(5 / 6) and after.accuracy == pytest.approx(4 / 6)
    assert after.kappa > before.kappa
    assert measure(before) == before.accuracy
    assert not report.improved and report.best_prompt == SEED_TEXT


def test_planted_exactly_the_minimum_number_of_labels_is_enough():
    humans = ["pass", "fail"] * (MIN_LABELS // 2)
    assert len(humans) == MIN_LABELS
    report, _, _ = scripted_align(humans, lambda v, c: "right", budget=20)
    assert len(report.train_cases) + len(report.held_out_cases) == MIN_LABELS
    with pytest.raises(sj.DataError):
        scripted_align(humans[:-1], lambda v, c: "right", budget=20)


def test_planted_a_score_equal_to_the_threshold_is_a_pass():
    labels = HumanLabels("human", "binary", 0.5, {0: "pass", 1: "fail"}, {0: 1.0, 1: 0.0})
    assert labels.agreement(0, 0.5) == 1.0 and labels.agreement(1, 0.5) == 0.0
    source = SCRIPTED_METRIC.replace("PASS_SCORE = 1.0", "PASS_SCORE = 0.5")
    report, _, _ = scripted_align(
        HUMANS, lambda v, c: "right", metric=source, val=6, threshold=0.5, budget=20
    )
    assert report.optimization.seed_score == 1.0  # GEPA read every pass as a pass
    assert report.before is not None and report.before.accuracy == 1.0
    records = [r for p in report.optimization.proposals for r in p.records]
    assert all("where the human said" not in r["Feedback"] for r in records)


# --- hostile use --------------------------------------------------------------------------


def test_the_metric_file_changed_on_disk_between_align_and_save(tmp_path):
    path = tmp_path / "judge_metric.py"
    path.write_text(SCRIPTED_METRIC, encoding="utf-8")
    train, held = split_positions(20, 6, 0)
    report, _, _ = scripted_align(
        HUMANS, learns_on(train, {held[0]: ("wrong", "right")}), metric=str(path), val=6
    )
    assert report.improved
    # The user adds a line above the instructions meanwhile: saving keeps it.
    edited = "# reviewed on Monday\nEXTRA = 'é'\n" + SCRIPTED_METRIC
    path.write_text(edited, encoding="utf-8")
    report.save(path, force=True)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# reviewed on Monday\nEXTRA = 'é'\n")
    rewritten_only_the_judge(edited, text, NEW_TEXT)
    # The user rewrote the instructions themselves: not overwritten without force.
    theirs = edited.replace("Version 0.", "Version 9.")
    path.write_text(theirs, encoding="utf-8")
    with pytest.raises(FileExistsError, match="changed since"):
        report.save(path)
    assert path.read_text(encoding="utf-8") == theirs


def test_a_prompt_name_that_is_not_a_name_is_a_sentence():
    for name in (3, None, "", "not a name", "JUDGE\n"):
        with pytest.raises(PromptNotFound, match="prompt= names"):
            scripted_align(HUMANS, lambda v, c: "right", prompt=name)


def test_a_huge_prompt_is_found_and_rewritten(tmp_path):
    huge = "Answer PASS or FAIL. Version 0. " + "Be fair — é. " * 50_000
    source = SCRIPTED_METRIC.replace('"Answer PASS or FAIL. Version 0."', repr(huge))
    prompt = find_prompt(sj.load_metric(source, name="judge"), "JUDGE", "en")
    assert prompt.text == huge
    rewritten_only_the_judge(source, prompt.source_with(huge + "!"), huge + "!")
