"""Issue 25, item 21: what the README and docs/models.md say of ``skynet`` outside a check.

Outside a check ``observation()`` has ``run_ms`` and ``cost_usd`` None and its counts 0 (the
README said "every field None"), and ``llm()`` asks the task model, else the metric model,
else the reflection model (docs/models.md left the fallbacks out).
"""

from __future__ import annotations

import dataclasses

import pytest

import skynet_jupyter as sj
from tests.conftest import ROOT


@pytest.fixture
def models(monkeypatch):
    """``configure()`` for one test: the environment's models out of the way, reset after."""
    for name in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(name, raising=False)
    sj.configure(reset=True)
    yield sj.configure
    sj.configure(reset=True)


def readme_paragraph() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("Outside a check, `observation()`")
    return " ".join(text[start : text.index("\n\n", start)].split())


def test_observation_outside_a_check_is_as_the_readme_says():
    from skynet import observation

    seen = observation()
    fields = {field.name: getattr(seen, field.name) for field in dataclasses.fields(seen)}
    unmeasured = sorted(name for name, value in fields.items() if value is None)
    assert unmeasured == ["cost_usd", "run_ms"]
    assert {name: value for name, value in fields.items() if value is not None} == dict.fromkeys(
        sorted(set(fields) - set(unmeasured)), 0
    )
    said = readme_paragraph()
    assert "(`run_ms` and `cost_usd` are `None`, the counts of model calls, tokens and" in said
    assert "every field `None`" not in said


@pytest.mark.parametrize(
    ("given", "answers"),
    [
        (
            {"task_model": "task", "metric_model": "metric", "reflection_model": "reflection"},
            "task",
        ),
        ({"metric_model": "metric", "reflection_model": "reflection"}, "metric"),
        ({"reflection_model": "reflection"}, "reflection"),
    ],
)
def test_llm_outside_a_check_asks_the_first_model_set(models, given, answers):
    from skynet import llm

    models(**{role: sj.StandInModel(name) for role, name in given.items()})
    assert llm("Who answers?") == answers


def test_the_docs_name_the_fallbacks_outside_a_check():
    table = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    (row,) = [line for line in table.splitlines() if line.startswith("| outside a check")]
    order = [row.index(f"**{role} model**") for role in ("task", "metric", "reflection")]
    assert order == sorted(order)
    assert "else the metric model, else the reflection model" in readme_paragraph()
