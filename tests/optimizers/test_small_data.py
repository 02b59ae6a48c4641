"""The optimizer on small data, and its limits (issue 24, items 2, 5 and 7).

Eight tickets, four of which the seed prompt gets wrong.  With the old default split
(30%: two validation cases) both validation cases could be ones the seed already gets
right: the report then said there was "nothing to improve on this data" while the
training cases scored 0 and a later candidate had learned them.  Real ``gepa.optimize``
and the stand-in reflection model of ``test_optimize``; nothing is mocked.
"""

from __future__ import annotations

import _thread
import math

import pytest
from IPython.utils.capture import capture_output

from tests.conftest import require_module

gepa = require_module("gepa")

import skynet_jupyter as sj  # noqa: E402
from skynet_jupyter.i18n import t  # noqa: E402
from skynet_jupyter.optimizers.optimize import split_cases  # noqa: E402
from tests.optimizers.test_optimize import (  # noqa: E402
    SEED,
    TICKETS,
    classify,
    score,
    stand_in,
)

# Two billing and two technical tickets the seed gets wrong, four "other" it gets right.
EIGHT = TICKETS[:2] + TICKETS[4:6] + TICKETS[8:12]
# With this split seed and two validation cases, both are "other" tickets (cases 6, 7 and,
# at seed 6, with four validation cases, all four of them).
ALL_RIGHT_SPLIT = 6
OLD_DEFAULT_FALSE_SPLIT = 7  # two validation cases, both right; four: a useful set
# Only tickets the seed gets right (each twice).
ALL_RIGHT = [row for row in EIGHT if row["label"] == "other"] * 2


def optimize(data=EIGHT, **options):
    settings = dict(
        run=classify,
        artifact=SEED,
        budget=40,
        outputs="label",
        reflection_model=stand_in(),
    )
    settings.update(options)
    return sj.optimize(score, data, **settings)


def test_a_saturated_validation_set_is_not_nothing_to_improve():
    report = optimize(val=2, seed=ALL_RIGHT_SPLIT)
    assert report.val_size == 2 and report.seed_score == 1.0 and not report.improved
    # The training cases the seed was tried on scored below full marks...
    missed = sorted({i for p in report.proposals for i, s in enumerate(p.before) if s < 1})
    assert missed, "the scenario needs training cases the seed gets wrong"
    # ... so the report never says there is nothing to improve,
    assert t("optimize.why_perfect", "en") not in report.advice
    assert "nothing to improve" not in str(report)
    # but that the validation set is too small to tell the candidates apart, and what to do.
    first = report.advice[0]
    assert first.startswith("The seed already scores full marks on each of the 2 validation cases")
    assert "too small to tell the candidates apart" in first and "--val N" in first
    # The candidate that learned the missing labels is named.
    learned = report.candidates[-1]
    assert "refund" in learned.text or "crash" in learned.text
    named = [note for note in report.advice if f"Candidate #{learned.index} " in note]
    assert named and f"report.candidates[{learned.index}].text" in named[0]


def test_nothing_to_improve_only_when_every_case_seen_had_full_marks():
    report = optimize(data=ALL_RIGHT, budget=12)
    assert report.seed_score == 1.0
    assert report.advice[0] == t("optimize.why_perfect", "en")


def test_the_default_split_leaves_a_useful_validation_set_on_small_data():
    cases = sj.load_cases(EIGHT, outputs="label")
    train, validation = split_cases(cases, None, 0, "en")
    assert (len(train), len(validation)) == (4, 4)  # 30% of 8 would be 2
    many = sj.load_cases([dict(EIGHT[n % 8], n=n) for n in range(20)], outputs="label")
    sizes = {n: len(split_cases(many[:n], None, 0, "en")[1]) for n in (2, 3, 5, 6, 8, 10, 20)}
    assert sizes == {2: 1, 3: 1, 5: 2, 6: 3, 8: 4, 10: 4, 20: 6}
    # A count is a count, a fraction a fraction, as given.
    assert len(split_cases(cases, 2, 0, "en")[1]) == 2
    assert len(split_cases(cases, 2.0, 0, "en")[1]) == 2
    assert len(split_cases(cases, 0.25, 0, "en")[1]) == 2
    # On the old default's false split, the default now finds the better text.
    report = optimize(seed=OLD_DEFAULT_FALSE_SPLIT)
    assert report.val_size == 4
    assert report.improved and report.best_score == 1.0
    assert "refund" in report.best_artifact and "crash" in report.best_artifact


def test_magic_val_takes_a_count_and_defaults_to_a_useful_split(shell):
    shell.user_ns.update(eight=[dict(row) for row in EIGHT], classify=classify, prompt=SEED)
    shell.user_ns["reflection"] = stand_in()
    shell.run_cell(
        "%%skynet_metric\n"
        "def score(input, output, expected=None):\n"
        "    ok = output == expected['label']\n"
        "    return (1.0 if ok else 0.0), {'feedback': 'Correct.' if ok else "
        "f\"Expected {expected['label']!r}, got {output!r}.\"}\n"
    ).raise_error()
    line = (
        "--data eight --outputs label --run classify --artifact prompt --budget 12 "
        "--reflection-model reflection"
    )
    with capture_output():
        counted = shell.run_line_magic("skynet_optimize", f"{line} --val 3;")
        default = shell.run_line_magic("skynet_optimize", f"{line};")
    assert (counted.val_size, counted.train_size) == (3, 5)
    assert (default.val_size, default.train_size) == (4, 4)


# --- item 5: limits that are not finite numbers --------------------------------------------


@pytest.mark.parametrize("max_cost", [math.nan, math.inf])
def test_a_max_cost_that_is_not_finite_is_refused_before_anything_runs(max_cost):
    calls = []

    def run(prompt, input):
        calls.append(1)
        return classify(prompt, input)

    with pytest.raises(ValueError, match="max_cost must be a positive, finite number"):
        optimize(run=run, max_cost=max_cost)
    assert calls == []


def test_magic_refuses_a_nan_max_cost(shell):
    shell.user_ns.update(eight=[dict(row) for row in EIGHT], classify=classify, prompt=SEED)
    shell.user_ns["reflection"] = stand_in()
    shell.run_cell(
        "%%skynet_metric\ndef score(input, output, expected=None):\n    return 1.0, 'Fine.'\n"
    ).raise_error()
    result = shell.run_cell(
        "%skynet_optimize --data eight --outputs label --run classify --artifact prompt "
        "--reflection-model reflection --max-cost nan"
    )
    assert type(result.error_in_exec).__name__ == "UsageError"
    assert "max_cost must be a positive, finite number" in str(result.error_in_exec)


# --- item 7: the budget is bounded before GEPA starts ---------------------------------------


def interrupting(instructions, _input):
    _thread.interrupt_main()  # Ctrl-C, should GEPA ever get as far as a proposal
    return "```\nbilling: invoice\n```"


@pytest.mark.parametrize("budget", [100_001, 10**9])
def test_the_budget_is_bounded_before_gepa_starts(ctrl_c, budget):
    calls = []

    def run(prompt, input):
        calls.append(1)
        return classify(prompt, input)

    reflection = sj.StandInModel(interrupting, tag="")
    with pytest.raises(ValueError, match="budget must be a whole number from 1 to 100000"):
        optimize(run=run, budget=budget, reflection_model=reflection)
    assert calls == [] and reflection.calls == []
