"""REWARD_SPEC: blending accuracy with the measured speed and cost of a run.

Pure math, no context: ``RewardSpec.from_dict`` validates a spec against every
rule of the contract, ``RewardSpec.parts`` turns measurements into the three
0..1 components and the weighted reward.  ``skynet.reward()`` (in
``helper/skynet.py``) feeds it the current case's measurements, and says what was
not measured (``unmeasured_notes``) in a paragraph of its own after the feedback,
which reaches the optimizer as written (``feedback_with_notes``).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

from .contract import REWARD_SPEC, ContractError, number_problem, short_repr

PARTS = ("accuracy", "speed", "cost")
# Each part's name, as a reward bar or a weight slider says it.
PART_TITLES = {"accuracy": "part.accuracy", "speed": "part.speed", "cost": "part.cost"}
_TOP_KEYS = ("weights", *PARTS)


def component(reference: float, measured: float) -> float:
    """``reference / (reference + measured)``: 1 at zero, 0.5 at the reference."""
    return reference / (reference + measured)


@dataclass(frozen=True, slots=True)
class RewardParts:
    """One case's reward, decomposed.  Components are 0..1, higher is better."""

    accuracy: float
    speed: float
    cost: float
    value: float  # the weighted sum: what score returns
    speed_measured: bool
    cost_measured: bool


@dataclass(frozen=True, slots=True)
class RewardSpec:
    """A validated ``REWARD_SPEC``; ``weights`` are rescaled to sum to 1."""

    weights: Mapping[str, float]
    speed_reference: float
    cost_reference: float
    accuracy_reference: float | None = None

    @classmethod
    def from_dict(cls, spec: object) -> RewardSpec:
        """Validate ``spec`` (the module-level ``REWARD_SPEC``) or raise ContractError."""
        if isinstance(spec, RewardSpec):
            return spec
        if not isinstance(spec, Mapping):
            raise _spec_error("spec.not_dict", type=type(spec).__name__)
        for key in spec:
            if key not in _TOP_KEYS:
                raise _spec_error("spec.unknown_key", key=short_repr(key), hint=_suggest(key))
        return cls(
            weights=_rescaled_weights(spec.get("weights")),
            speed_reference=_reference(spec, "speed", required=True),
            cost_reference=_reference(spec, "cost", required=True),
            accuracy_reference=_reference(spec, "accuracy", required=False),
        )

    @classmethod
    def from_argument(cls, spec: object) -> RewardSpec:
        """``reward()``'s first argument: the REWARD_SPEC dict, validated.

        A number or a string there is the spec forgotten (``reward(1.0, "Good.")``):
        said as such, not as a REWARD_SPEC of the wrong type.
        """
        if not isinstance(spec, Mapping | RewardSpec):
            raise _spec_error(
                "spec.reward_first_argument", value=short_repr(spec), type=type(spec).__name__
            )
        return cls.from_dict(spec)

    def parts(self, accuracy: float, run_ms: float | None, cost_usd: float | None) -> RewardParts:
        """The components and weighted reward for one case's measurements."""
        if self.accuracy_reference is None:
            acc = float(accuracy)
        else:
            acc = component(self.accuracy_reference, float(accuracy))
        speed = 0.0 if run_ms is None else component(self.speed_reference, run_ms)
        cost = 0.0 if cost_usd is None else component(self.cost_reference, cost_usd)
        return RewardParts(
            accuracy=acc,
            speed=speed,
            cost=cost,
            value=self.combine(acc, speed, cost),
            speed_measured=run_ms is not None,
            cost_measured=cost_usd is not None,
        )

    def combine(self, accuracy: float, speed: float, cost: float) -> float:
        w = self.weights
        return w["accuracy"] * accuracy + w["speed"] * speed + w["cost"] * cost

    def with_weights(self, accuracy: float, speed: float, cost: float) -> RewardSpec:
        """The same spec with other weights (rescaled); for trying weights live."""
        total = accuracy + speed + cost
        if total <= 0:
            raise ValueError("At least one weight must be above 0.")
        return RewardSpec(
            weights={"accuracy": accuracy / total, "speed": speed / total, "cost": cost / total},
            speed_reference=self.speed_reference,
            cost_reference=self.cost_reference,
            accuracy_reference=self.accuracy_reference,
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``REWARD_SPEC`` to write for this spec (weights rounded for reading)."""
        accuracy: dict[str, float] = {}
        if self.accuracy_reference is not None:
            accuracy["reference"] = self.accuracy_reference
        return {
            "weights": {part: round(self.weights[part], 3) for part in PARTS},
            "accuracy": accuracy,
            "speed": {"reference": self.speed_reference},
            "cost": {"reference": self.cost_reference},
        }

    def check_accuracy(self, accuracy: object) -> float:
        """The accuracy argument of ``reward()`` as a float, or a clear ValueError."""
        problem = number_problem(accuracy)
        if problem is not None:
            raise ValueError(
                f"reward(): accuracy must be a finite number, got {short_repr(accuracy)}."
            )
        value = float(accuracy)  # type: ignore[arg-type]
        if self.accuracy_reference is None and not 0.0 <= value <= 1.0:
            raise ValueError(
                f"reward(): accuracy must be between 0 and 1, got {value!r}. "
                "To pass an error (lower is better) instead, set "
                "REWARD_SPEC['accuracy']['reference']."
            )
        if self.accuracy_reference is not None and value < 0:
            raise ValueError(
                f"reward(): with accuracy.reference set, accuracy is an error and "
                f"must be 0 or more, got {value!r}."
            )
        return value


def feedback_with_notes(feedback: str, notes: Sequence[str]) -> str:
    """``feedback`` exactly as written, then ``notes`` (added sentences) as a paragraph of
    their own, after a blank line.

    The optimizer reads the feedback as the metric wrote it: a fenced code block at its end
    stays closed before the notes, and a leading indented line keeps its indentation.  An
    empty feedback (blank) gives the notes alone; no notes, the feedback untouched.
    """
    if not notes:
        return feedback
    said = " ".join(notes)
    if not feedback.strip():
        return said
    if feedback.endswith(("\n\n", "\r\n\r\n")):
        return feedback + said
    return feedback + ("\n" if feedback.endswith("\n") else "\n\n") + said


def unmeasured_notes(spec: RewardSpec, parts: RewardParts) -> list[str]:
    """The sentences ``reward()`` adds when a weighted part was not measured (it scores 0)."""
    notes = []
    if not parts.speed_measured and spec.weights["speed"] > 0:
        notes.append("Speed was not measured for this case, so its part of the reward is 0.")
    if not parts.cost_measured and spec.weights["cost"] > 0:
        notes.append("Cost was not measured for this case, so its part of the reward is 0.")
    return notes


def _spec_error(message_id: str, **fields: Any) -> ContractError:
    return ContractError(REWARD_SPEC, message_id, **fields)


def _suggest(key: object) -> str:
    close = difflib.get_close_matches(str(key), _TOP_KEYS, n=1)
    return close[0] if close else "weights"


def _number(value: object, where: str, *, allow_zero: bool) -> float:
    problem = number_problem(value)
    if problem is not None:
        raise _spec_error("spec.not_number", where=where, value=short_repr(value))
    number = float(value)  # type: ignore[arg-type]
    if number < 0 or (number == 0 and not allow_zero):
        message = "spec.negative_weight" if allow_zero else "spec.reference_not_positive"
        raise _spec_error(message, where=where, value=short_repr(value))
    return number


def _rescaled_weights(weights: object) -> dict[str, float]:
    """The ``weights`` section checked (every part, nothing else, not all zero), summing to 1."""
    if not isinstance(weights, Mapping):
        raise _spec_error("spec.weights_missing", value=short_repr(weights))
    raw: dict[str, float] = {}
    for part in PARTS:
        if part not in weights:
            raise _spec_error("spec.weight_missing", part=part)
        raw[part] = _number(weights[part], f"weights.{part}", allow_zero=True)
    for key in weights:
        if key not in PARTS:
            raise _spec_error("spec.unknown_weight", key=short_repr(key))
    total = sum(raw.values())
    if total == 0:
        raise _spec_error("spec.weights_all_zero")
    return {part: raw[part] / total for part in PARTS}


@overload
def _reference(spec: Mapping[str, Any], part: str, *, required: Literal[True]) -> float: ...
@overload
def _reference(spec: Mapping[str, Any], part: str, *, required: Literal[False]) -> float | None: ...
def _reference(spec: Mapping[str, Any], part: str, *, required: bool) -> float | None:
    section = spec.get(part, {} if not required else None)
    if section is None:
        raise _spec_error("spec.section_missing", part=part)
    if not isinstance(section, Mapping):
        raise _spec_error("spec.section_not_dict", part=part, value=short_repr(section))
    for key in section:
        if key != "reference":
            raise _spec_error("spec.unknown_option", part=part, key=short_repr(key))
    if "reference" not in section:
        if required:
            raise _spec_error("spec.reference_missing", part=part)
        return None
    return _number(section["reference"], f"{part}.reference", allow_zero=False)
