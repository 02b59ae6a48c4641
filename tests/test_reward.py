"""REWARD_SPEC: every rule of the contract, the reference formula, and reward()."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter import ContractError, RewardSpec
from skynet_jupyter.reward import component
from skynet_jupyter.runtime import reward

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
    ("changes", "rule"),
    [
        ({"weights__speed": _DELETE}, "spec.weight_missing"),
        ({"weights__accuracy": -0.1}, "spec.negative_weight"),
        ({"weights": {"accuracy": 0, "speed": 0, "cost": 0}}, "spec.weights_all_zero"),
        ({"weights__cost": "0.1"}, "spec.not_number"),
        ({"weights__cost": True}, "spec.not_number"),
        ({"weights__cost": math.nan}, "spec.not_number"),
        ({"weights__latency": 0.1}, "spec.unknown_weight"),
        ({"weights": _DELETE}, "spec.weights_missing"),
        ({"speed__reference": 0}, "spec.reference_not_positive"),
        ({"speed__reference": -5}, "spec.reference_not_positive"),
        ({"cost__reference": "cheap"}, "spec.not_number"),
        ({"speed__reference": _DELETE}, "spec.reference_missing"),
        ({"cost": _DELETE}, "spec.section_missing"),
        ({"speed": 2000}, "spec.section_not_dict"),
        ({"speed__ref": 2000}, "spec.unknown_option"),
        ({"sped": {"reference": 1}}, "spec.unknown_key"),
        ({"accuracy__reference": 0}, "spec.reference_not_positive"),
    ],
)
def test_every_rule_is_checked(changes, rule):
    with pytest.raises(ContractError) as caught:
        RewardSpec.from_dict(with_changes(**changes))
    assert caught.value.step == "reward_spec"
    assert caught.value.message_id == rule


def test_typo_gets_a_suggestion():
    with pytest.raises(ContractError, match="did you mean 'speed'"):
        RewardSpec.from_dict(with_changes(sped={"reference": 1}))


def test_not_a_dict():
    with pytest.raises(ContractError, match="not a dict"):
        RewardSpec.from_dict([1, 2])


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


def test_reward_outside_a_check_marks_speed_and_cost_not_measured():
    value, info = reward(SPEC, 1.0, "Correct.")
    assert value == pytest.approx(0.7)
    assert info["scores"] == {"accuracy": 1.0, "speed": 0.0, "cost": 0.0}
    assert info["feedback"].startswith("Correct. ")
    assert "Speed was not measured" in info["feedback"]
    assert "Cost was not measured" in info["feedback"]


def test_reward_rejects_accuracy_out_of_range():
    with pytest.raises(ValueError, match="between 0 and 1"):
        reward(SPEC, 1.5, "x")
    with pytest.raises(ValueError, match="finite number"):
        reward(SPEC, "high", "x")


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
