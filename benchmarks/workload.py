"""The data, metric and DSPy twin the benchmarks share: one definition, so every
contender in every script does the same work."""

from __future__ import annotations

from typing import Any

LABELS = ("billing", "technical", "other")


def exact_match(input, output, expected=None):
    """The contract's exact-match metric."""
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}."}


def make_rows(count: int) -> list[dict]:
    """``count`` tickets with a precomputed prediction; one in three is right."""
    return [
        {"text": f"ticket {i}", "label": LABELS[i % 3], "prediction": LABELS[(2 * i) % 3]}
        for i in range(count)
    ]


def dspy_twin(rows: list[dict]) -> tuple[Any, Any] | None:
    """(a DSPy program returning the precomputed outputs, its devset), or None without dspy."""
    try:
        import dspy
    except ImportError:
        return None
    import logging

    logging.getLogger("dspy").setLevel(logging.WARNING)  # no "Average Metric" line per run

    class Precomputed(dspy.Module):
        def __init__(self, outputs: dict[str, str]) -> None:
            super().__init__()
            self.outputs = outputs

        def forward(self, text: str):
            return dspy.Prediction(label=self.outputs[text])

    devset = [dspy.Example(text=r["text"], label=r["label"]).with_inputs("text") for r in rows]
    return Precomputed({row["text"]: row["prediction"] for row in rows}), devset
