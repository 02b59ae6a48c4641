"""Shared fixtures: a fresh IPython shell per test, sample data, paths."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "skynet_jupyter" / "examples"


@pytest.fixture
def tickets() -> list[dict]:
    """Five rows of the example ticket data, as a list of dicts."""
    return [
        {"text": "I was charged twice.", "label": "billing"},
        {"text": "The app crashes on start.", "label": "technical"},
        {"text": "Do you have an office in Lisbon?", "label": "other"},
        {"text": "Please refund my annual plan.", "label": "billing"},
        {"text": "Login fails with error 500.", "label": "technical"},
    ]


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
