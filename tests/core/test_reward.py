"""REWARD_SPEC: every rule of the contract, the reference formula, and reward()."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter import ContractError, RewardSpec
from skynet_jupyter.core.reward import component, feedback_with_notes
from skynet_jupyter.helper.skynet import reward

SPEC = {
    "weights": {"accuracy": 0.7, "speed": 0.2, "cost": 0.1},
    "accuracy": {},
    "speed": {"reference": 2000},
    "cost": {"reference": 0.01},
}


def with_changes(**changes):
    spec = {key: dict(value) for key, value in SPEC.items()}
    for path, value in changes.items():
        section, _, key = path.partition("__")
        if value is _DELETE:
            if key:
                del spec[section][key]
            else:
                del spec[section]
        elif key:
            spec[section][key] = value
        else:
            spec[section] = value
    return spec


_DELETE = object()


def test_contract_example_is_valid_and_rescaled():
    spec = RewardSpec.from_dict(SPEC)
    assert spec.weights == pytest.approx({"accuracy": 0.7, "speed": 0.2, "cost": 0.1})
    assert spec.speed_reference == 2000 and spec.cost_reference == 0.01
    doubled = RewardSpec.from_dict(with_changes(weights={"accuracy": 7, "speed": 2, "cost": 1}))
    assert doubled.weights == pytest.approx(spec.weights)


@pytest.mark.parametrize(
    ("changes", "rule", "fields"),
    [
        ({"weights__speed": _DELETE}, "spec.weight_missing", {"part": "speed"}),
        (
            {"weights__accuracy": -0.1},
            "spec.negative_weight",
            {"where": "weights.accuracy", "value": "-0.1"},
        ),
        ({"weights": {"accuracy": 0, "speed": 0, "cost": 0}}, "spec.weights_all_zero", {}),
        ({"weights__cost": "0.1"}, "spec.not_number", {"where": "weights.cost", "value": "'0.1'"}),
        ({"weights__cost": True}, "spec.not_number", {"where": "weights.cost", "value": "True"}),
        ({"weights__cost": math.nan}, "spec.not_number", {"where": "weights.cost", "value": "nan"}),
        ({"weights__latency": 0.1}, "spec.unknown_weight", {"key": "'latency'"}),
        ({"weights": _DELETE}, "spec.weights_missing", {"value": "None"}),
        ({"weights": [0.7, 0.2, 0.1]}, "spec.weights_missing", {"value": "[0.7, 0.2, 0.1]"}),
        (
            {"speed__reference": 0},
            "spec.reference_not_positive",
            {"where": "speed.reference", "value": "0"},
        ),
        (
            {"speed__reference": -5},
            "spec.reference_not_positive",
            {"where": "speed.reference", "value": "-5"},
        ),
        (
            {"cost__reference": "cheap"},
            "spec.not_number",
            {"where": "cost.reference", "value": "'cheap'"},
        ),
        ({"speed__reference": _DELETE}, "spec.reference_missing", {"part": "speed"}),
        ({"cost": _DELETE}, "spec.section_missing", {"part": "cost"}),
        ({"speed": 2000}, "spec.section_not_dict", {"part": "speed", "value": "2000"}),
        ({"speed__ref": 2000}, "spec.unknown_option", {"part": "speed", "key": "'ref'"}),
        ({"sped": {"reference": 1}}, "spec.unknown_key", {"key": "'sped'", "hint": "speed"}),
        ({"zzz": 1}, "spec.unknown_key", {"key": "'zzz'", "hint": "weights"}),
        (
            {"accuracy__reference": 0},
            "spec.reference_not_positive",
            {"where": "accuracy.reference", "value": "0"},
        ),
    ],
)
def test_every_rule_is_checked(changes, rule, fields):
    with pytest.raises(ContractError) as caught:
        RewardSpec.from_dict(with_changes(**changes))
    assert caught.value.step == "reward_spec"
    assert caught.value.message_id == rule
    assert caught.value.fields == fields  # the sentence names the key and the value


def test_typo_gets_a_suggestion():
    with pytest.raises(ContractError, match="did you mean 'speed'"):
        RewardSpec.from_dict(with_changes(sped={"reference": 1}))


def test_not_a_dict():
    with pytest.raises(ContractError, match=r"^REWARD_SPEC is a list, not a dict\.$"):
        RewardSpec.from_dict([1, 2])
    spec = RewardSpec.from_dict(SPEC)
    assert RewardSpec.from_dict(spec) is spec


def test_the_accuracy_section_is_optional_and_weights_keep_the_raw_proportions():
    raw = {"accuracy": 7, "speed": 2, "cost": 1}
    spec = RewardSpec.from_dict(with_changes(accuracy=_DELETE, weights=raw))
    assert spec.accuracy_reference is None
    total = sum(raw.values())
    assert {part: spec.weights[part] * total for part in raw} == pytest.approx(raw)
    assert spec.weights == pytest.approx({"accuracy": 0.7, "speed": 0.2, "cost": 0.1})


def test_component_is_one_at_zero_half_at_reference():
    assert component(2000, 0) == 1.0
    assert component(2000, 2000) == 0.5
    assert component(0.01, 0.03) == pytest.approx(0.25)


@given(
    st.floats(min_value=1e-6, max_value=1e6),
    st.floats(min_value=0, max_value=1e9),
    st.floats(min_value=0, max_value=1e9),
)
def test_component_is_in_unit_interval_and_falls(reference, a, b):
    low, high = sorted((a, b))
    assert 0.0 <= component(reference, high) <= component(reference, low) <= 1.0


weights = st.floats(min_value=0, max_value=100)


@given(weights, weights, weights, st.floats(0, 1), st.floats(0, 1e6) | st.none(), st.floats(0, 10))
def test_reward_is_the_weighted_sum_of_its_parts(wa, ws, wc, accuracy, run_ms, cost):
    if wa + ws + wc == 0:
        return
    spec = RewardSpec.from_dict(with_changes(weights={"accuracy": wa, "speed": ws, "cost": wc}))
    parts = spec.parts(accuracy, run_ms, cost)
    w = spec.weights
    assert sum(w.values()) == pytest.approx(1.0)
    assert parts.value == pytest.approx(
        w["accuracy"] * parts.accuracy + w["speed"] * parts.speed + w["cost"] * parts.cost
    )
    assert -1e-9 <= parts.value <= 1 + 1e-9
    if run_ms is None:
        assert parts.speed == 0 and not parts.speed_measured


def test_accuracy_reference_turns_an_error_into_a_component():
    spec = RewardSpec.from_dict(with_changes(accuracy={"reference": 4.0}))
    assert spec.parts(4.0, 0, 0).accuracy == 0.5
    assert spec.parts(0.0, 0, 0).accuracy == 1.0


def test_with_weights_and_to_dict_round_trip():
    spec = RewardSpec.from_dict(SPEC).with_weights(1, 1, 0)
    again = RewardSpec.from_dict(spec.to_dict())
    assert again.weights == pytest.approx({"accuracy": 0.5, "speed": 0.5, "cost": 0.0})


@pytest.mark.parametrize(
    ("raw", "rescaled"),
    [
        ((1, 1, 2), (0.25, 0.25, 0.5)),
        ((0.2, 0.1, 0.1), (0.5, 0.25, 0.25)),  # a sum below 1 is scaled up
        ((6, 0, 0), (1.0, 0.0, 0.0)),
        ((0, 0, 0.5), (0.0, 0.0, 1.0)),
    ],
)
def test_with_weights_rescales_and_keeps_everything_else(raw, rescaled):
    spec = RewardSpec.from_dict(with_changes(accuracy={"reference": 4.0}))
    changed = spec.with_weights(*raw)
    assert dict(changed.weights) == pytest.approx(
        dict(zip(("accuracy", "speed", "cost"), rescaled, strict=True))
    )
    assert {part: changed.weights[part] * sum(raw) for part in changed.weights} == pytest.approx(
        dict(zip(("accuracy", "speed", "cost"), raw, strict=True))
    )
    assert (changed.speed_reference, changed.cost_reference) == (2000, 0.01)
    assert changed.accuracy_reference == 4.0
    assert spec.weights == pytest.approx({"accuracy": 0.7, "speed": 0.2, "cost": 0.1})  # unchanged
    assert changed.combine(1.0, 0.5, 0.0) == pytest.approx(rescaled[0] + 0.5 * rescaled[1])


def test_with_weights_refuses_all_zero():
    spec = RewardSpec.from_dict(SPEC)
    with pytest.raises(ValueError, match=r"^At least one weight must be above 0\.$"):
        spec.with_weights(0, 0, 0)


def test_to_dict_is_the_spec_to_write_rounded_for_reading():
    spec = RewardSpec.from_dict(with_changes(accuracy={"reference": 4.0})).with_weights(1, 1, 1)
    assert spec.to_dict() == {
        "weights": {"accuracy": 0.333, "speed": 0.333, "cost": 0.333},
        "accuracy": {"reference": 4.0},
        "speed": {"reference": 2000},
        "cost": {"reference": 0.01},
    }
    assert RewardSpec.from_dict(SPEC).to_dict()["accuracy"] == {}


def test_reward_outside_a_check_marks_speed_and_cost_not_measured():
    value, info = reward(SPEC, 1.0, "Correct.")
    assert value == pytest.approx(0.7)
    assert info["scores"] == {"accuracy": 1.0, "speed": 0.0, "cost": 0.0}
    assert info["feedback"].startswith("Correct.\n\n")  # the notes: a paragraph of their own
    assert "Speed was not measured" in info["feedback"]
    assert "Cost was not measured" in info["feedback"]


def test_reward_rejects_accuracy_out_of_range():
    with pytest.raises(ValueError) as caught:
        reward(SPEC, 1.5, "x")
    assert str(caught.value) == (
        "reward(): accuracy must be between 0 and 1, got 1.5. To pass an error (lower is "
        "better) instead, set REWARD_SPEC['accuracy']['reference']."
    )
    with pytest.raises(
        ValueError, match=r"^reward\(\): accuracy must be a finite number, got 'high'\.$"
    ):
        reward(SPEC, "high", "x")
    with pytest.raises(ValueError, match=r"between 0 and 1, got -0\.5\."):
        reward(SPEC, -0.5, "x")


def test_with_an_accuracy_reference_accuracy_is_an_error_of_0_or_more():
    spec = with_changes(accuracy={"reference": 4.0})
    assert reward(spec, 0.0, "x")[1]["scores"]["accuracy"] == 1.0
    assert reward(spec, 0.5, "x")[1]["scores"]["accuracy"] == pytest.approx(4 / 4.5)
    assert reward(spec, 12.0, "x")[1]["scores"]["accuracy"] == pytest.approx(0.25)
    with pytest.raises(ValueError) as caught:
        reward(spec, -1, "x")
    assert str(caught.value) == (
        "reward(): with accuracy.reference set, accuracy is an error and must be 0 or more, "
        "got -1.0."
    )


REWARD_METRIC = """
from skynet import reward, observation, service_cost

REWARD_SPEC = {
    "weights": {"accuracy": 0.7, "speed": 0.2, "cost": 0.1},
    "accuracy": {},
    "speed": {"reference": 2000},
    "cost": {"reference": 0.01},
}

def score(input, output, expected=None):
    ok = output == expected["label"]
    seen = observation()
    assert service_cost() == seen.cost_usd
    return reward(REWARD_SPEC, 1.0 if ok else 0.0, "Correct." if ok else "Wrong label.")
"""


def test_reward_in_a_check_uses_the_measured_run(tickets):
    def run(artifact, case_input):
        time.sleep(0.02)
        return "billing"

    report = sj.check(REWARD_METRIC, tickets, outputs="label", run=run)
    assert report.passed, report
    first = report.cases[0]
    assert first.run_ms >= 20
    speed = component(2000, first.run_ms)
    assert first.scores["speed"] == pytest.approx(speed)
    assert first.scores["cost"] == 1.0  # no model calls: measured, zero cost
    assert first.score == pytest.approx(0.7 * 1.0 + 0.2 * speed + 0.1 * 1.0)
    assert first.feedback == "Correct."
    assert report.cases[1].scores["accuracy"] == 0.0


def test_reward_with_outputs_from_the_data_says_speed_and_cost_were_not_measured(tickets):
    rows = [dict(row, prediction=row["label"]) for row in tickets]
    report = sj.check(REWARD_METRIC, rows, outputs="label", output_column="prediction")
    first = report.cases[0]
    assert first.scores == {"accuracy": 1.0, "speed": 0.0, "cost": 0.0}
    assert "Speed was not measured" in first.feedback
    assert first.score == pytest.approx(0.7)


# --- the feedback reaches the optimizer as written (issue 43, F1) -----------------------------

SPEED_NOTE = "Speed was not measured for this case, so its part of the reward is 0."
COST_NOTE = "Cost was not measured for this case, so its part of the reward is 0."
FENCED = 'The output is not valid JSON:\n\n```json\n{"name": "Ada",}\n```'
INDENTED = "    return total / count\nThe line above divides by zero when count is 0."


def test_a_fenced_code_block_at_the_end_stays_closed_before_the_note():
    _, info = reward(SPEC, 0.0, FENCED)
    assert info["feedback"] == f"{FENCED}\n\n{SPEED_NOTE} {COST_NOTE}"
    assert info["feedback"].split("```")[-1].strip() == f"{SPEED_NOTE} {COST_NOTE}"


def test_a_leading_indented_code_line_keeps_its_indentation():
    _, info = reward(SPEC, 0.0, INDENTED)
    assert info["feedback"].startswith("    return total / count\n")


def test_trailing_line_breaks_are_kept_and_the_note_still_follows_a_blank_line():
    for written in ("Wrong label.\n", "Wrong label.\n\n", "Wrong label.  "):
        _, info = reward(SPEC, 0.0, written)
        text = info["feedback"]
        assert text.startswith(written)
        assert "\n\n" in text[len(written.rstrip()) :]
        assert text.endswith(COST_NOTE)


def test_blank_feedback_gives_the_notes_alone_and_nothing_added_keeps_it_as_is():
    assert reward(SPEC, 1.0, "")[1]["feedback"] == f"{SPEED_NOTE} {COST_NOTE}"
    assert reward(SPEC, 1.0, "  \n")[1]["feedback"] == f"{SPEED_NOTE} {COST_NOTE}"
    only_accuracy = {**SPEC, "weights": {"accuracy": 1, "speed": 0, "cost": 0}}
    assert reward(only_accuracy, 1.0, INDENTED)[1]["feedback"] == INDENTED
    assert reward(only_accuracy, 1.0, " padded ")[1]["feedback"] == " padded "


def test_through_to_dspy_metric_the_optimizer_reads_the_feedback_as_written():
    dspy = pytest.importorskip("dspy")
    source = f"""
from skynet import reward
REWARD_SPEC = {SPEC!r}
def score(input, output, expected=None):
    return reward(REWARD_SPEC, 0.0, {FENCED!r})
"""
    metric = sj.to_dspy_metric(sj.load_metric(source))
    example = dspy.Example(text="t", label="billing").with_inputs("text")
    said = metric(example, dspy.Prediction(label="other"))
    assert said.feedback.startswith(FENCED + "\n\n")
    assert said.feedback.endswith(COST_NOTE)


# Any text: every Unicode line break, control characters, surrogates, huge and empty.
BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
ANY_TEXT = st.one_of(
    st.text(),
    st.lists(
        st.one_of(st.sampled_from(BREAKS), st.text(max_size=5), st.characters()), max_size=12
    ).map("".join),
    st.just("x" * 200_000),
    st.just(""),
)


@given(feedback=ANY_TEXT, notes=st.lists(st.text(min_size=1), max_size=2))
def test_any_feedback_is_kept_as_written_and_notes_are_a_paragraph_after_it(feedback, notes):
    text = feedback_with_notes(feedback, notes)
    if not notes:
        assert text == feedback
    elif not feedback.strip():
        assert text == " ".join(notes)
    else:
        assert text.startswith(feedback)
        assert text.endswith(" ".join(notes))
        between = text[len(feedback) : len(text) - len(" ".join(notes))]
        assert between in ("", "\n", "\n\n")
        assert (feedback + between).endswith(("\n\n", "\r\n\r\n", "\r\n\n"))  # a blank line
