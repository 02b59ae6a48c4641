"""Issue 35: properties of ``sj.align`` over generated inputs (Hypothesis).

- Source rewriting: for generated metric sources (statements, comments and strings
  holding every character ``str.splitlines`` breaks at and Python does not, before
  and after the named assignment, lines ended by \\n, \\r\\n or \\r), the rewrite
  changes exactly the named literal: the rest of the text is the same, the result
  compiles and ``ast``-equals the original but for that literal's value.
- Alignment accounting: for generated labels, splits, seeds and judges (right, wrong,
  raising, unparsable, per version of the instructions), ``.before`` and ``.after``
  measure the same held-out cases, a failure counting as a disagreement; the new text is
  kept only if it agrees more there; and the held-out cases never reach GEPA's training,
  validation or reflection.
"""

from __future__ import annotations

import ast
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.alignment.judge_prompt import find_prompt  # noqa: E402
from tests.align_support import (  # noqa: E402
    BEHAVIOURS,
    VERSION,
    scripted_align,
    split_positions,
)

# Where str.splitlines() breaks a line and Python's tokenizer does not.
ODD_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])

words = st.text(
    alphabet=st.sampled_from(list("aé—«» ;=#'\"x1") + list(ODD_BREAKS)), min_size=0, max_size=12
)
line_words = words.map(lambda w: w.replace("\r", "").replace("\n", ""))


def _string(text: str, form: int) -> str:
    """A literal for ``text``: repr, raw characters in quotes, or triple-quoted."""
    safe = text.replace("\\", "").replace('"', "").replace("'", "")
    return [repr(text), f'"{safe}"', f'"""{safe}\n{safe}"""', f"r'{safe}'", f"u'{safe}'"][form]


@st.composite
def statements(draw: Any) -> str:
    """One line (or a few) of module-level code that does not bind JUDGE."""
    kind = draw(st.integers(0, 6))
    name = draw(st.sampled_from(["STYLE", "OTHER", "x", "NOTE_2"]))
    if kind == 0:
        return f"{name} = {_string(draw(words), draw(st.integers(0, 4)))}"
    if kind == 1:
        return "# " + draw(line_words)
    if kind == 2:
        return "\f"  # a page break alone on its line
    if kind == 3:
        return f"\f{name} = {draw(st.integers(0, 99))}"
    if kind == 4:
        return f"{name} = 1; y = {_string(draw(words), 0)}  # {draw(line_words)}"
    if kind == 5:
        return ""
    return f"def f_{draw(st.integers(0, 9))}():\n    return {_string(draw(words), 0)}"


JUDGE_FORMS = [
    "JUDGE = {lit}",
    "JUDGE: str = {lit}",
    "JUDGE = ({lit}  # the judge\n    {lit2})",
    "z = 'é'; JUDGE = {lit}  # « judge »",
    "\fJUDGE = {lit}",
]


@st.composite
def metric_sources(draw: Any) -> str:
    """A metric's source, with one JUDGE string literal among other code."""
    before = draw(st.lists(statements(), max_size=6))
    after = draw(st.lists(statements(), max_size=6))
    literal = _string(draw(words), draw(st.integers(0, 4)))
    literal2 = _string(draw(words), draw(st.integers(0, 4)))
    judge = draw(st.sampled_from(JUDGE_FORMS)).format(lit=literal, lit2=literal2)
    lines = [*before, judge, *after, "def score(input, output, expected=None):\n    return 1.0"]
    return "".join(line.replace("\n", draw(ENDINGS)) + draw(ENDINGS) for line in lines)


def _rewritten_only_the_judge(old_source: str, new_source: str, text: str) -> None:
    compile(new_source, "<new>", "exec")
    old_tree, new_tree = ast.parse(old_source), ast.parse(new_source)
    assert len(old_tree.body) == len(new_tree.body)
    for old, new in zip(old_tree.body, new_tree.body, strict=True):
        if isinstance(old, ast.Assign | ast.AnnAssign):
            target = old.target if isinstance(old, ast.AnnAssign) else old.targets[0]
            if isinstance(target, ast.Name) and target.id == "JUDGE":
                assert isinstance(new, ast.Assign | ast.AnnAssign) and new.value is not None
                assert ast.literal_eval(new.value) == text
                new.value = old.value
        assert ast.dump(old) == ast.dump(new)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(metric_sources(), st.text(max_size=40))
def test_the_rewrite_changes_exactly_the_named_literal(source: str, text: str) -> None:
    metric = sj.load_metric(source, name="judge")
    prompt = find_prompt(metric, "JUDGE", "en")
    assert prompt.text == metric.module.JUDGE
    new_source = prompt.source_with(text)
    # Only the literal's characters changed ...
    assert new_source[: prompt.start] == source[: prompt.start]
    assert new_source[len(new_source) - (len(source) - prompt.end) :] == source[prompt.end :]
    # ... the result compiles, and is the same program but for that literal's value.
    _rewritten_only_the_judge(source, new_source, text)
    assert text == sj.load_metric(new_source, name="judge").module.JUDGE


# --- alignment accounting -------------------------------------------------------------


@st.composite
def alignments(draw: Any) -> dict[str, Any]:
    count = draw(st.integers(10, 16))
    humans = draw(st.lists(st.sampled_from(["pass", "fail"]), min_size=count, max_size=count))
    humans[draw(st.integers(0, count - 1))] = "pass"
    humans[draw(st.integers(0, count - 1))] = "fail"
    if len(set(humans)) < 2:
        humans[0] = "fail" if humans[1] == "pass" else "pass"
    table = {
        (version, case): draw(st.sampled_from(BEHAVIOURS))
        for version in range(3)
        for case in range(count)
    }
    val = draw(st.sampled_from([None, 3, 0.3, 5]))
    seed = draw(st.integers(0, 5))
    return {"humans": humans, "table": table, "val": val, "seed": seed}


def _accuracy(table: dict[tuple[int, int], str], version: int, cases: list[int]) -> float:
    version = min(version, 2)
    return sum(table[(version, case)] == "right" for case in cases) / len(cases)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(alignments())
def test_before_and_after_measure_the_same_held_out_cases(made: dict[str, Any]) -> None:
    humans, table = made["humans"], made["table"]

    def behave(version: int, case: int) -> str:
        return str(table[(min(max(version, 0), 2), case)])

    report, judge, writer = scripted_align(
        humans, behave, val=made["val"], seed=made["seed"], budget=40
    )
    train, held = split_positions(len(humans), made["val"], made["seed"])
    assert report.train_cases == train and report.held_out_cases == held
    before, after = report.before, report.after
    assert before is not None and after is not None
    # The same held-out cases, each scored or failed (a failure is a disagreement).
    for agreement in (before, after):
        assert set(agreement.labels) == set(held)
        assert set(agreement.scores) | set(agreement.failed) == set(held)
        assert not set(agreement.scores) & set(agreement.failed)
    assert before.accuracy == _accuracy(table, 0, held)
    tried = report.tried
    new_version = 0
    if tried is not None:
        text = next(c.text for c in report.optimization.candidates if c.index == tried)
        found = VERSION.search(text)
        assert found is not None
        new_version = int(found.group(1))
    assert after.accuracy == _accuracy(table, new_version, held)
    # Kept only when it agrees more on the held-out cases.
    better = tried is not None and _accuracy(table, new_version, held) > before.accuracy
    assert report.improved == better
    assert (report.best_prompt != report.seed_prompt) == better
    # The held-out cases never reach GEPA: its training and validation are the training
    # cases; a held-out case is judged once in the first pass and once per held-out check;
    # the reflection model never reads one.
    assert report.optimization.val_cases == train
    checks = len(report.held_out) - 1
    for case in held:
        assert sum(1 for _, c in judge.calls if c == case) == 1 + checks
        assert all(f"reply #{case}:" not in prompt for prompt in writer.prompts)
    assert len(judge.calls) == report.calls
