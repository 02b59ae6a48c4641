"""A stand-in replies exactly what it is told; reports say which calls it answered.

The docs' judge example (``verdict.startswith("PASS")``) with the documented
offline ``sj.StandInModel("PASS")`` must score like a real PASS, and nothing
may let an offline verdict pass for a real model's.
"""

from __future__ import annotations

import json

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.json_export import json_ready
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.show.render import report_text

DOCS_JUDGE = """
from skynet import llm

def score(input, output, expected=None):
    verdict = llm("Answer PASS or FAIL, then give one sentence of reasons.",
                  input=f"Question: {input['question']}\\nAnswer: {output}")
    ok = verdict.strip().upper().startswith("PASS")
    return (1.0 if ok else 0.0), {"feedback": verdict}
"""
ROWS = [
    {"question": "2+2?", "answer": "4"},
    {"question": "Capital of France?", "answer": "Paris"},
]


@pytest.fixture(autouse=False)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())


def test_the_docs_judge_example_scores_with_the_documented_stand_in(offline: None) -> None:
    sj.configure(metric_model=sj.StandInModel("PASS"))
    report = sj.check(DOCS_JUDGE, ROWS, output_column="answer", lang="en")
    assert report.passed
    assert [case.score for case in report.cases] == [1.0, 1.0]
    assert [case.feedback for case in report.cases] == ["PASS", "PASS"]
    assert [case.stand_in_calls for case in report.cases] == [1, 1]
    text = report_text(report, width=0)
    assert "2 model calls answered by an offline stand-in, not by a real model" in text
    assert "answered by an offline stand-in" in report._repr_html_()
    assert json.loads(json.dumps([json_ready(c) for c in report.cases]))[0]["stand_in_calls"] == 1
    assert report.to_frame()["stand_in_calls"].tolist() == [1, 1]


def test_a_real_model_leaves_no_stand_in_mark(offline: None) -> None:
    sj.configure(metric_model=lambda instructions, input: "PASS. Fine.")
    report = sj.check(DOCS_JUDGE, ROWS, output_column="answer", lang="fr")
    assert report.passed and report.stand_in_calls == 0
    assert "substitut" not in report_text(report, width=0)


# --- a stand-in the run cache keeps (issue 44, item 6) ---------------------------------


def rule(instructions: str, input: object) -> str:
    return "PASS. It answers." if "4" in str(input) or "Paris" in str(input) else "FAIL."


def test_a_cacheable_stand_in_is_kept_and_a_restart_asks_it_nothing(offline, tmp_path) -> None:
    path = tmp_path / "runs.sqlite"
    first = sj.StandInModel(rule, name="rule", cacheable=True)
    kept = sj.check(
        DOCS_JUDGE,
        ROWS,
        output_column="answer",
        models=ModelSettings(metric_model=first),
        run_cache=sj.RunCache(path=path),
    )
    assert len(first.calls) == 2 and [case.cached for case in kept.cases] == [False, False]
    assert len(sj.RunCache(path=path)) == 2  # on disk, as a real model's replies are

    # A restart: a new process has the file, not this kernel's memory nor this stand-in.
    restarted = sj.StandInModel(lambda instructions, input: "never asked", name="rule",
                                cacheable=True)  # fmt: skip
    again = sj.check(
        DOCS_JUDGE,
        ROWS,
        output_column="answer",
        models=ModelSettings(metric_model=restarted),
        run_cache=sj.RunCache(path=path),
    )
    assert restarted.calls == []  # asked nothing
    assert [case.cached for case in again.cases] == [True, True]
    assert [case.feedback for case in again.cases] == [case.feedback for case in kept.cases]
    assert [case.stand_in_calls for case in again.cases] == [1, 1]  # still a stand-in's word
    text = report_text(again, width=0)
    assert "answered by an offline stand-in" in text


def test_a_cacheable_stand_in_is_keyed_on_its_request(offline, tmp_path) -> None:
    from skynet_jupyter.models.call_cache import CallCache
    from skynet_jupyter.models.llm import complete

    cache = CallCache(path=tmp_path / "runs.sqlite")
    model = sj.StandInModel(rule, name="rule", cacheable=True)
    assert complete(model, "Judge.", "2+2 is 4", call_cache=cache).cached is False
    assert complete(model, "Judge.", "2+2 is 4", call_cache=cache).cached is True
    assert complete(model, "Judge it.", "2+2 is 4", call_cache=cache).cached is False  # new words
    assert complete(model, "Judge.", "2+2 is 5", call_cache=cache).cached is False  # new input
    renamed = sj.StandInModel(rule, name="rule, version 2", cacheable=True)
    assert complete(renamed, "Judge.", "2+2 is 4", call_cache=cache).cached is False
    fixed = sj.StandInModel("PASS", name="rule", cacheable=True)  # another fixed answer
    assert complete(fixed, "Judge.", "2+2 is 4", call_cache=cache).cached is False
    assert len(model.calls) == 3
    assert complete(model, "Judge.", "2+2 is 4", call_cache=cache, reuse=False).cached is False
    assert len(model.calls) == 4  # --fresh asks it again
    with pytest.raises(TypeError, match="does not accept them"):
        complete(model, "Judge.", "2+2 is 4", call_cache=cache, temperature=0)


def test_a_stand_in_is_never_cached_unless_asked(offline, tmp_path) -> None:
    model = sj.StandInModel(rule, name="rule")
    for _ in range(2):
        report = sj.check(
            DOCS_JUDGE,
            ROWS,
            output_column="answer",
            models=ModelSettings(metric_model=model),
            run_cache=sj.RunCache(path=tmp_path / "runs.sqlite"),
        )
        assert [case.cached for case in report.cases] == [False, False]
    assert len(model.calls) == 4 and "cacheable" not in repr(model)
    shown = repr(sj.StandInModel(name="x", cacheable=True))
    assert shown == "StandInModel('x', offline, cacheable)"
