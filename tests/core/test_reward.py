"""REWARD_SPEC: every rule of the contract, the reference formula, and reward()."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter import ContractError, RewardSpec
from skynet_jupyter.core.reward import component
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
    assert info["feedback"].startswith("Correct. ")
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
