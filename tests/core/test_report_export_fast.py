"""``to_frame`` built a column at a time and ``to_dict`` with its fast paths give what the
row-by-row builds gave (issue 26: the same output, faster; ``benchmarks/bench_export.py``)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from skynet_jupyter.core import secrets as _secrets
from skynet_jupyter.core.report import CaseResult, CheckReport
from skynet_jupyter.core.secrets import REDACTED, Redactor


def _row_wise_frame(report: CheckReport) -> pd.DataFrame:
    """The DataFrame as ``to_frame`` built it before: one dict per case."""
    rows = []
    for case in report.cases:
        row = {
            "case": case.index, "input": case.input, "expected": case.expected,
            "output": case.output, "score": case.score, "feedback": case.feedback,
            "passed": case.passed, "failed_step": case.failed_step, "error": case.error,
            "metric_ms": case.metric_ms, "run_ms": case.run_ms, "cost_usd": case.cost_usd,
            "judge_cost_usd": case.judge_cost_usd, "cached": case.cached,
            "retries": case.retries, "stand_in_calls": case.stand_in_calls,
        }  # fmt: skip
        for name, value in case.scores.items():
            row[f"scores.{name}"] = value
        rows.append(row)
    return pd.DataFrame(rows).set_index("case") if rows else pd.DataFrame()


def _mixed_cases() -> list[CaseResult]:
    cases = []
    for i in range(9):
        scores = {"acc": i / 8, "flag": True} if i % 2 else {"other": 0.5, "flag": False}
        if i == 4:
            scores = {}
        cases.append(
            CaseResult(
                i, {"text": f"t{i}", "n": i}, {"label": "x"} if i % 3 else None,
                None if i == 5 else f"out {i}", None if i == 5 else i / 9, "fb", scores, None,
                error="boom" if i == 5 else None, failed_step="run" if i == 5 else None,
                metric_ms=0.1 if i % 2 else None, run_ms=2.0 if i == 1 else None,
                cost_usd=0.001 if i == 2 else None, retries=1 if i == 3 else 0,
            )
        )  # fmt: skip
    return cases


def test_to_frame_is_the_row_wise_frame():
    for cases in (_mixed_cases(), _mixed_cases()[:1], [], [CaseResult(0, {}, None, "o", 1.0)]):
        report = CheckReport(steps=[], cases=cases)
        pd.testing.assert_frame_equal(report.to_frame(), _row_wise_frame(report))


def test_to_dict_keeps_types_redaction_and_odd_values():
    secret = "sk-abcdefghijklmnop1234"
    cases = _mixed_cases()
    cases[0].input = {"text": f"key {secret}", 3: math.inf, "nested": {"deep": [1, "x"]}}
    cases[1].output = math.nan
    cases[2].feedback = f"Bearer {secret}"
    report = CheckReport(steps=[], cases=cases)
    first, second = report.to_dict()["cases"][:2]
    assert first["input"] == {"text": f"key sk-{REDACTED}", "3": None, "nested": {"deep": [1, "x"]}}
    assert second["output"] is None
    assert report.to_dict()["cases"][2]["feedback"] == f"Bearer {REDACTED}"
    assert secret not in repr(report.to_dict())


def test_a_redactor_gives_the_same_answer_the_second_time():
    clean = Redactor(["s3cret-value"])
    for text in ("plain", "token=abcdef123", "it is s3cret-value", "x" * 300 + " api_key=zzzzzz"):
        assert clean(text) == clean(text) == Redactor(["s3cret-value"])(text)
    assert "s3cret-value" not in clean("it is s3cret-value")

    class Odd(str):
        def __hash__(self) -> int:
            raise TypeError("unhashable on purpose")

    assert clean(Odd("token=abcdef123")) == f"token={REDACTED}"


# --- to_dict a column at a time (json_cases) against json_ready case by case ---------


class Label(str):
    """A str subclass with its own __str__ and a hash that refuses: json_value uses neither."""

    def __str__(self) -> str:
        return "never used"

    def __hash__(self) -> int:
        raise TypeError("unhashable on purpose")


class Key(str):
    """A str subclass as a dict key (hashable, equal to the plain str)."""


class Ratio(float):
    pass


class Count(int):
    pass


class Row(dict):
    pass


def _odd_cases(secret: str) -> list[CaseResult]:
    """Every kind of value the fast columns must hand back exactly as json_ready does."""
    looped: dict[str, object] = {"name": "loop"}
    looped["self"] = looped
    inputs: list[dict[object, object]] = [
        {"text": "plain", "n": 3, "flag": True, "none": None, "x": 0.25},
        {"text": f"token {secret}", "n": 2**20000},  # a secret, a big int
        {1: "int key", (2, 3): "tuple key", None: "none key", Key("k"): Label("b")},
        {"a": "str key", Key("a"): "same key as a subclass"},
        {"nested": {"deep": [1, "x", {"k": math.nan}]}, "t": (1, 2)},
        looped,
        Row(text="a dict subclass"),
        {},
        {"api_key": "abcdef123456", "url": "http://bob:hunter2pass@host/x"},
        {"nan": math.nan, "inf": -math.inf, "r": Ratio(0.5), "c": Count(7)},
    ]
    outputs: list[object] = [
        "label", Label("sub"), math.nan, [1, "two", secret], ("a", 1.5), {"k": "v"}, None,
        Ratio(math.inf), 2**20000, b"bytes", Row(x=1), True,
    ]  # fmt: skip
    feedback: list[object] = [
        "Correct.", f"key={secret}", None, Label("fine"), "Bearer abcdefghij123", "",
        "x" * 300 + f" password: {secret}", "keyboard", "ok",
    ]  # fmt: skip
    scores: list[dict[str, object]] = [
        {"accuracy": 1.0, "speed": 0.5}, {"accuracy": math.nan}, {}, {"big": 2**20000},
        {"flag": True, "n": 3}, {Key("acc"): 0.5}, {"acc": Ratio(0.25)},
    ]  # fmt: skip
    cases = []
    for i in range(len(inputs) * len(outputs)):
        failed = i % 5 == 0
        cases.append(
            CaseResult(
                i, inputs[i % len(inputs)], None if i % 4 == 0 else {"label": LABELS[i % 3]},
                outputs[i % len(outputs)], [None, 1.0, math.nan, Ratio(0.5), 2, True][i % 6],
                feedback[i % len(feedback)], scores[i % len(scores)], None,
                error=f"boom: {secret}" if failed else (Label("odd") if i % 7 == 0 else None),
                traceback=f'File "m.py", line 1\n  api_key="{secret}"' if failed else None,
                failed_step="run" if failed else None, metric_ms=math.nan if i == 3 else 0.1,
                run_ms=2.0 if i % 3 else None, retries=i % 2, cached=i % 9 == 0,
            )
        )  # fmt: skip
    return cases


LABELS = ("billing", "technical", "other")


def _exact(value: object) -> object:
    """``value`` with every type and every key order spelled out: ``1 == 1.0 == True`` and
    ``{"a": 1, "b": 2} == {"b": 2, "a": 1}``, but not here.  NaN as its repr (NaN != NaN)."""
    if isinstance(value, dict):
        return (type(value), [(_exact(k), _exact(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value), [_exact(v) for v in value])
    if isinstance(value, float):
        return (type(value), repr(value))
    return (type(value), value)


def _containers(value: object, found: list[object]) -> list[object]:
    """Every dict and list in ``value`` (each once: a dict may hold itself)."""
    if isinstance(value, dict | list) and not any(value is seen for seen in found):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    return found


def _assert_same_cases(cases: list[CaseResult], redact: Redactor) -> list[dict]:
    from skynet_jupyter.core.json_export import json_cases, json_ready

    fast = json_cases(cases, redact)
    slow = [json_ready(case, redact) for case in cases]  # the case-by-case way: the reference
    assert _exact(fast) == _exact(slow)
    # Copies, not the report's own dicts and lists: changing the export changes no case.
    own = {id(c) for case in cases for field in (case.input, case.expected, case.output,
           case.scores) for c in _containers(field, [])}  # fmt: skip
    assert not [c for c in _containers(fast, []) if id(c) in own]
    return fast


def test_json_cases_are_json_ready_case_by_case_on_odd_values():
    secret = "sk-abcdefghijklmnop1234"
    cases = _odd_cases(secret)
    fast = _assert_same_cases(cases, Redactor())
    assert secret not in repr(fast)
    assert "hunter2pass" not in repr(fast)
    # The same with a configured secret (one the patterns do not know).
    registered = "Zq9PLAINlooking77"
    cases[1].input = {"text": f"uses {registered}"}
    cases[2].output = registered
    cases[3].feedback = f"said {registered}"
    cases[4].scores = {registered: 1.0}
    fast = _assert_same_cases(cases, Redactor([registered]))
    assert registered not in repr(fast)


def test_json_cases_take_the_fast_columns_and_still_match(monkeypatch):
    """Plain columns (the fast way) with one odd value in a few runs (the slow way for
    those runs only), runs of 4 cases so that both meet in one report."""
    from skynet_jupyter.core import json_export

    monkeypatch.setattr(json_export, "_RUN", 4)
    cases = [
        CaseResult(i, {"text": f"ticket {i}"}, {"label": LABELS[i % 3]}, LABELS[(2 * i) % 3],
                   float(i % 2), "Correct." if i % 2 else f"Expected {LABELS[i % 3]!r}.",
                   {"accuracy": float(i % 2), "speed": 0.5}, None, metric_ms=0.01)
        for i in range(40)
    ]  # fmt: skip
    _assert_same_cases(cases, Redactor())
    secret = "sk-abcdefghijklmnop1234"
    cases[5].input = {"text": f"my key {secret}"}
    cases[9].output = math.inf
    cases[13].scores = {"accuracy": math.nan, "speed": 0.5}
    cases[17].feedback = f"Bearer {secret}"
    cases[21].expected = None
    cases[25].input = {"text": "ok", "n": 2**20000}
    cases[29].error, cases[29].failed_step = f"boom {secret}", "run"
    cases[33].input = {3: "int key"}
    cases[37].scores = {Key("accuracy"): 1.0, "speed": 0.5}  # a key of a str subclass
    cases[1].expected = {f"label {secret}": "x"}  # a secret in a key
    cases[38].output = ("a", 1.5)  # a tuple: a list in JSON
    cases[2].output = b"bytes"  # its repr
    cases[6].run_ms, cases[10].traceback = 3.0, f"api_key={secret}"  # rare fields, set
    fast = _assert_same_cases(cases, Redactor())
    assert secret not in repr(fast)
    assert fast[9]["output"] is None and fast[13]["scores"]["accuracy"] is None


def test_to_dict_pauses_the_collector_only_while_it_builds(monkeypatch):
    import gc

    from skynet_jupyter.core import json_export

    monkeypatch.setattr(json_export, "_PAUSE_COLLECTOR_FROM", 1)
    states: list[bool] = []

    class Watching(str):  # json_value calls str.__str__ on it: the collector's state then
        pass

    real = json_export.json_value

    def watched(value, redact, depth=0, path=None):
        states.append(gc.isenabled())
        return real(value, redact, depth, path)

    monkeypatch.setattr(json_export, "json_value", watched)
    report = CheckReport(steps=[], cases=[CaseResult(0, {}, None, Watching("o"), 1.0)])
    assert gc.isenabled()
    report.to_dict()
    assert states and not any(states)  # off while the dicts were made
    assert gc.isenabled()  # and on again after
    gc.disable()
    try:
        report.to_dict()
        assert not gc.isenabled()  # one the caller turned off stays off
    finally:
        gc.enable()
    monkeypatch.setattr(json_export, "_json_run", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):  # an error inside the build: the collector comes back
        report.to_dict()
    assert gc.isenabled()


def test_leaves_alone_says_false_whenever_one_text_would_change():
    import itertools
    import random

    registered = "Zq9PLAINlooking77"
    clean = Redactor([registered])
    pieces = ["a", "b", " ", "ke", "y", "to", "ken", "sk", "-", "abcdefgh12", "\u212aey",
              "\u0130", "aİza", "://", "u:pw123456@", "sig", "=", "Zq9PLAIN", "looking77",
              "ghp", "_", "x" * 20, "Bearer ", "é", "\x00"]  # fmt: skip
    rng = random.Random(26)
    texts = ["".join(rng.choices(pieces, k=rng.randint(0, 6))) for _ in range(3000)]
    for size in (1, 2, 3, 5, 40):
        for start in range(0, len(texts), size):
            group = texts[start : start + size]
            if clean.leaves_alone(group):
                assert all(clean(text) == text for text in group), group
            elif size == 1:  # one text alone: only a word or a secret in it says False
                (text,) = group
                lowered = text.lower()
                assert registered in text or any(w in lowered for w in _secrets._MAYBE_SECRET)
    # Repeated texts (joined once each) and unique ones (joined as they come) alike.
    plain = ["billing", "technical", "Correct."] * 200
    assert clean.leaves_alone(plain)
    assert not clean.leaves_alone([*plain, "Bearer abcdefghij"])
    unique = [f"ticket {i}" for i in range(600)]
    assert clean.leaves_alone(unique)
    assert not clean.leaves_alone([*unique, f"see {registered}"])
    assert clean.leaves_alone([])
    assert not clean.leaves_alone(list(itertools.repeat("my api_key: abcdef", 300)))
