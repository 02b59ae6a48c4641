"""The run cache finds an output again only for the same run, artifact, input and task model.

What the output of ``run(artifact, input)`` depends on (its code, the values its
closure holds, the artifact, the input, the task model)
must each miss the cache when changed; what it does not depend on (the API key)
must not.  A hit keeps the real run's time and output; a miss runs for real.
Through ``evaluate(run_cache=...)`` and ``RunCache``'s public methods.
"""

from __future__ import annotations

import threading
import types

import pytest

import skynet_jupyter as sj
from skynet_jupyter.models.settings import ModelSettings
from skynet_jupyter.run.engine import RunCache

DATA = [{"q": n, "label": "x"} for n in range(3)]


def echo(input, output, expected=None):
    return 1.0, {"feedback": f"got {output}"}


# Where run functions record their calls: a module, which a key counts by its name
# only, so recording a call does not change the key of the function that records it.
RECORD = types.ModuleType("record")
RECORD.calls = []


@pytest.fixture(autouse=True)
def _fresh_record():
    RECORD.calls = []


class Counting:
    """A run function's calls, recorded (slots: no state of its own in the key)."""

    __slots__ = ("word",)

    def __init__(self, word: str = "out") -> None:
        self.word = word

    @property
    def calls(self) -> list:
        return RECORD.calls

    def __call__(self, artifact, input):
        RECORD.calls.append((artifact, input["q"]))
        return f"{self.word}:{artifact}:{input['q']}"


def make_run(word):
    def run(artifact, input):
        RECORD.calls.append(word)
        return f"{word}:{input['q']}"

    return run


def outputs(report):
    return [c.output for c in report.cases]


def evaluate(run, cache, **options):
    options.setdefault("concurrency", 1)
    return sj.evaluate(echo, DATA, outputs="label", run=run, run_cache=cache, **options)


def test_a_second_evaluation_reuses_every_output_with_the_real_runs_time():
    calls = RECORD.calls
    cache = RunCache()
    first = evaluate(make_run("A"), cache)
    assert calls == ["A"] * 3 and len(cache) == 3
    assert [c.cached for c in first.cases] == [False] * 3
    again = evaluate(make_run("A"), cache)
    assert calls == ["A"] * 3  # no new call
    assert outputs(again) == ["A:0", "A:1", "A:2"]
    assert [c.cached for c in again.cases] == [True] * 3
    assert [c.run_ms for c in again.cases] == [c.run_ms for c in first.cases]
    assert [c.feedback for c in again.cases] == ["got A:0", "got A:1", "got A:2"]


def test_a_closure_over_another_value_runs_again():
    calls = RECORD.calls
    cache = RunCache()
    evaluate(make_run("A"), cache)
    other = evaluate(make_run("B"), cache)
    assert calls == ["A"] * 3 + ["B"] * 3
    assert outputs(other) == ["B:0", "B:1", "B:2"]
    assert not any(c.cached for c in other.cases)


PROMPT = "A"
SETTINGS = {"word": "A"}


def run_reading_globals(artifact, input):
    RECORD.calls.append(PROMPT)
    return f"{PROMPT}{SETTINGS['word']}:{input['q']}"


def test_a_changed_global_the_run_reads_runs_again(monkeypatch):
    # A notebook edits PROMPT (or a settings dict in place) in one cell and re-checks
    # in the next: the outputs of the old prompt must not come back from the cache.
    calls = RECORD.calls
    cache = RunCache()
    evaluate(run_reading_globals, cache)
    again = evaluate(run_reading_globals, cache)
    assert calls == ["A"] * 3 and all(c.cached for c in again.cases)
    monkeypatch.setitem(globals(), "PROMPT", "B")
    other = evaluate(run_reading_globals, cache)
    assert calls == ["A"] * 3 + ["B"] * 3
    assert outputs(other) == ["BA:0", "BA:1", "BA:2"]
    assert not any(c.cached for c in other.cases)
    monkeypatch.setitem(SETTINGS, "word", "C")  # changed in place, same dict
    changed = evaluate(run_reading_globals, cache)
    assert outputs(changed) == ["BC:0", "BC:1", "BC:2"]
    assert not any(c.cached for c in changed.cases)


def test_another_body_runs_again():
    cache = RunCache()
    evaluate(lambda a, i: f"first:{i['q']}", cache)
    other = evaluate(lambda a, i: f"second:{i['q']}", cache)
    assert outputs(other) == ["second:0", "second:1", "second:2"]


def test_another_artifact_runs_again_and_the_same_one_does_not():
    run = Counting()
    cache = RunCache()
    evaluate(run, cache, artifact={"prompt": "v1"})
    evaluate(run, cache, artifact={"prompt": "v2"})
    evaluate(run, cache, artifact={"prompt": "v1"})
    assert [a["prompt"] for a, _ in run.calls] == ["v1"] * 3 + ["v2"] * 3


def test_another_input_runs_again_for_that_case_only():
    run = Counting()
    cache = RunCache()
    evaluate(run, cache)
    data = [{"q": 0, "label": "x"}, {"q": 7, "label": "x"}]
    report = sj.evaluate(echo, data, outputs="label", run=run, run_cache=cache, concurrency=1)
    assert [q for _, q in run.calls] == [0, 1, 2, 7]
    assert [c.cached for c in report.cases] == [True, False]


def test_the_task_model_is_part_of_the_key_and_its_api_key_is_not():
    run = Counting()
    cache = RunCache()
    model = {"model": "openai/gpt-x", "api_key": "sk-first"}
    evaluate(run, cache, models=ModelSettings(task_model=model))
    same_model = {"model": "openai/gpt-x", "api_key": "sk-rotated"}
    hit = evaluate(run, cache, models=ModelSettings(task_model=same_model))
    assert len(run.calls) == 3 and all(c.cached for c in hit.cases)
    other = evaluate(run, cache, models=ModelSettings(task_model="openai/gpt-y"))
    assert len(run.calls) == 6 and not any(c.cached for c in other.cases)
    # The judge's model does not make the run's output.
    judged = ModelSettings(task_model="openai/gpt-y", metric_model="openai/judge")
    assert all(c.cached for c in evaluate(run, cache, models=judged).cases)


def test_keys_directly_name_each_part():
    run = make_run("A")
    base = RunCache.key(run, "art", {"q": 1}, "model-a")
    assert base == RunCache.key(make_run("A"), "art", {"q": 1}, "model-a")
    assert base != RunCache.key(make_run("B"), "art", {"q": 1}, "model-a")
    assert base != RunCache.key(run, "other", {"q": 1}, "model-a")
    assert base != RunCache.key(run, "art", {"q": 2}, "model-a")
    assert base != RunCache.key(run, "art", {"q": 1}, "model-b")
    assert base != RunCache.key(run, "art", {"q": 1})
    # A mutable value in the closure (a list recording calls) counts by identity.
    log: list = []

    def logging_run(artifact, input):
        log.append(input)
        return "x"

    before = RunCache.key(logging_run, "art", {"q": 1})
    log.append("a call")
    assert RunCache.key(logging_run, "art", {"q": 1}) == before
    keyed = {"model": "m", "api_key": "sk-1"}
    assert RunCache.key(run, "art", {"q": 1}, keyed) == RunCache.key(
        run, "art", {"q": 1}, {"model": "m", "api_key": "sk-2"}
    )
    assert "sk-1" not in repr(RunCache.key(run, "art", {"q": 1}, keyed))


def test_an_artifact_with_no_stable_form_is_matched_by_identity_only():
    class Opaque:
        __slots__ = ()

        def __reduce__(self):
            raise TypeError("not picklable")

    run = Counting()
    one, two = Opaque(), Opaque()
    cache = RunCache()
    evaluate(run, cache, artifact=one)
    evaluate(run, cache, artifact=one)
    assert len(run.calls) == 3  # the same object: reused
    evaluate(run, cache, artifact=two)
    assert len(run.calls) == 6  # another object, even if alike: run again


def test_a_failed_run_is_not_kept_and_runs_again():
    calls = RECORD.calls

    def flaky(artifact, input):
        RECORD.calls.append(input["q"])
        if len(RECORD.calls) <= 3 and input["q"] == 1:
            raise ConnectionError("down")
        return f"ok:{input['q']}"

    cache = RunCache()
    first = evaluate(flaky, cache)
    assert [c.failed_step for c in first.cases] == [None, "run_function", None]
    assert len(cache) == 2
    second = evaluate(flaky, cache)
    assert calls == [0, 1, 2, 1]
    assert outputs(second) == ["ok:0", "ok:1", "ok:2"]
    assert [c.cached for c in second.cases] == [True, False, True]
    assert len(cache) == 3


def test_a_cached_output_is_a_copy_the_metric_cannot_change():
    def changes(input, output, expected=None):
        output.append("changed")
        return 1.0, {"feedback": str(len(output))}

    cache = RunCache()
    run = lambda a, i: [i["q"]]  # noqa: E731
    first = sj.evaluate(changes, DATA, outputs="label", run=run, run_cache=cache)
    again = sj.evaluate(changes, DATA, outputs="label", run=run, run_cache=cache)
    assert outputs(first) == [[0], [1], [2]]
    assert outputs(again) == [[0], [1], [2]]
    assert [c.feedback for c in again.cases] == ["2"] * 3 and all(c.cached for c in again.cases)
    again.cases[0].output.append("changed by the user")
    third = sj.evaluate(changes, DATA, outputs="label", run=run, run_cache=cache)
    assert third.cases[0].output == [0]


def test_fresh_runs_everything_again_and_replaces_the_outputs():
    RECORD.word = "A"
    run = lambda a, i: f"{RECORD.word}:{i['q']}"  # noqa: E731
    cache = RunCache()
    evaluate(run, cache)
    RECORD.word = "B"  # a change the key cannot see (a module's attribute, read at call time)
    assert outputs(evaluate(run, cache)) == ["A:0", "A:1", "A:2"]
    fresh = evaluate(run, cache.fresh())
    assert outputs(fresh) == ["B:0", "B:1", "B:2"]
    assert not any(c.cached for c in fresh.cases)
    assert outputs(evaluate(run, cache)) == ["B:0", "B:1", "B:2"]  # replaced
    assert cache.clear() == 3 and len(cache) == 0
    assert not any(c.cached for c in evaluate(run, cache).cases)


def test_outputs_on_disk_are_found_by_another_cache_on_the_same_file(tmp_path):
    path = tmp_path / "runs.sqlite"
    run = Counting("disk")
    writer = RunCache(path=path)
    first = evaluate(run, writer, artifact="art")
    assert len(writer) == 3 and len(run.calls) == 3
    reader = RunCache(path=path)  # as after a kernel restart: nothing in memory
    assert len(reader.store) == 0 and len(reader) == 3
    again = evaluate(run, reader, artifact="art")
    assert len(run.calls) == 3
    assert outputs(again) == ["disk:art:0", "disk:art:1", "disk:art:2"]
    assert [c.cached for c in again.cases] == [True] * 3
    assert [c.run_ms for c in again.cases] == pytest.approx([c.run_ms for c in first.cases])
    # Each part of the key still counts on disk.
    evaluate(run, RunCache(path=path), artifact="other")
    assert len(run.calls) == 6
    evaluate(run, RunCache(path=path), artifact="art", models=ModelSettings(task_model="m2"))
    assert len(run.calls) == 9
    partial = [{"q": 0, "label": "x"}, {"q": 9, "label": "x"}]
    report = sj.evaluate(
        echo, partial, outputs="label", run=run, run_cache=RunCache(path=path), artifact="art"
    )
    assert [c.cached for c in report.cases] == [True, False]
    assert [q for _, q in run.calls[9:]] == [9]


def test_a_cache_without_a_path_keeps_nothing_on_disk(tmp_path):
    cache = RunCache()
    assert cache.disk is None
    evaluate(Counting(), cache)
    assert len(cache) == 3 and list(tmp_path.iterdir()) == []


class SameRepr:
    """Callable objects that look alike (one repr) but answer differently."""

    __slots__ = ("__weakref__", "word")

    def __init__(self, word):
        self.word = word

    def __repr__(self):
        return "SameRepr()"

    def __call__(self, artifact, input):
        RECORD.calls.append(self.word)
        return self.word


def test_callable_objects_that_look_alike_but_differ_are_not_mixed_up():
    cache = RunCache()
    one, two = SameRepr("one"), SameRepr("two")
    lock_artifact = threading.Lock()  # no stable form: the code-and-identity key is used
    first = evaluate(one, cache, artifact=lock_artifact)
    second = evaluate(two, cache, artifact=lock_artifact)
    assert outputs(first) == ["one"] * 3 and outputs(second) == ["two"] * 3
    assert RECORD.calls == ["one"] * 3 + ["two"] * 3
    assert all(c.cached for c in evaluate(one, cache, artifact=lock_artifact).cases)


def test_functions_alike_from_two_modules_are_two_functions():
    source = "def run(artifact, input):\n    return 'same'\n"
    first: dict = {"__name__": "notebook_a"}
    second: dict = {"__name__": "notebook_b"}
    exec(source, first)
    exec(source, second)
    unstable = threading.Lock()  # no stable form: the in-kernel key by code and module
    assert RunCache.key(first["run"], unstable, {"q": 1}) != RunCache.key(
        second["run"], unstable, {"q": 1}
    )
    again: dict = {"__name__": "notebook_a"}
    exec(source, again)
    assert RunCache.key(first["run"], unstable, {"q": 1}) == RunCache.key(
        again["run"], unstable, {"q": 1}
    )


GUARD = threading.Lock()  # read by the models below: they have no stable form


def unstable_model_a(instructions, input):
    with GUARD:
        return "a"


def unstable_model_b(instructions, input):
    with GUARD:
        return "b"


def test_task_models_with_no_stable_form_are_told_apart_by_identity():
    run = make_run("A")
    key_a = RunCache.key(run, "art", {"q": 1}, unstable_model_a)
    assert key_a == RunCache.key(run, "art", {"q": 1}, unstable_model_a)
    assert key_a != RunCache.key(run, "art", {"q": 1}, unstable_model_b)
    assert key_a != RunCache.key(run, "art", {"q": 1}, None)


def test_on_disk_the_same_task_model_finds_its_outputs(tmp_path):
    path = tmp_path / "runs.sqlite"
    run = Counting("m")
    models = ModelSettings(task_model={"model": "openai/m2", "api_key": "sk-a"})
    evaluate(run, RunCache(path=path), artifact="art", models=models)
    rotated = ModelSettings(task_model={"model": "openai/m2", "api_key": "sk-b"})
    again = evaluate(run, RunCache(path=path), artifact="art", models=rotated)
    assert len(run.calls) == 3 and all(c.cached for c in again.cases)
    assert "sk-a" not in path.read_bytes().decode("latin-1")


def test_fresh_on_disk_writes_there_and_clear_forgets_the_disk_too(tmp_path):
    path = tmp_path / "runs.sqlite"
    RECORD.word = "old"
    run = lambda a, i: f"{RECORD.word}:{i['q']}"  # noqa: E731
    evaluate(run, RunCache(path=path))
    RECORD.word = "new"
    evaluate(run, RunCache(path=path).fresh())
    reader = RunCache(path=path)
    assert outputs(evaluate(run, reader)) == ["new:0", "new:1", "new:2"]  # fresh wrote to disk
    empty_memory = RunCache(path=path)
    assert len(empty_memory.store) == 0 and len(empty_memory) == 3
    assert empty_memory.clear() == 3  # counted on disk
    assert len(RunCache(path=path)) == 0
    assert not any(c.cached for c in evaluate(run, RunCache(path=path)).cases)


# --- the globals and the closure a key reads (mutation testing, issue 18) ----------------

CODEC = types.ModuleType("codec_a")
KIND = dict
word_late = "A"


def run_reading_builtins_then_globals(artifact, input):
    # len and str are builtins (not in the module's globals): a global sorted after them counts.
    return f"{len(str(input))}{CODEC.__name__}{KIND.__name__}{word_late}"


def test_each_global_after_a_builtin_counts_modules_and_classes_by_name(monkeypatch):
    run = run_reading_builtins_then_globals
    base = RunCache.key(run, "art", {"q": 1})
    assert base == RunCache.key(run, "art", {"q": 1})
    monkeypatch.setitem(globals(), "word_late", "B")
    assert RunCache.key(run, "art", {"q": 1}) != base
    monkeypatch.setitem(globals(), "word_late", "A")
    assert RunCache.key(run, "art", {"q": 1}) == base
    monkeypatch.setitem(globals(), "CODEC", types.ModuleType("codec_b"))  # another module
    assert RunCache.key(run, "art", {"q": 1}) != base
    monkeypatch.setitem(globals(), "CODEC", types.ModuleType("codec_a"))  # same name: same
    assert RunCache.key(run, "art", {"q": 1}) == base
    monkeypatch.setitem(globals(), "KIND", list)  # another class
    assert RunCache.key(run, "art", {"q": 1}) != base


def closing_over(value):
    def run(artifact, input):
        return f"{value}:{input['q']}"

    return run


def test_a_closure_over_a_container_counts_by_identity_not_contents():
    one, two = ["a"], ["a"]
    assert RunCache.key(closing_over(one), "art", {"q": 1}) != RunCache.key(
        closing_over(two), "art", {"q": 1}
    )
    held = (["a"],)  # a tuple holding a list is not a value either
    run = closing_over(held)
    before = RunCache.key(run, "art", {"q": 1})
    assert {before: "kept"}[before] == "kept"  # a key must be usable in a dict
    held[0].append("recorded call")
    assert RunCache.key(run, "art", {"q": 1}) == before
    assert RunCache.key(closing_over((["a"],)), "art", {"q": 1}) != RunCache.key(
        closing_over((["a"],)), "art", {"q": 1}
    )
    # Plain values count by value: two closures over equal strings or tuples are one run.
    assert RunCache.key(closing_over(("a", 1)), "art", {"q": 1}) == RunCache.key(
        closing_over(("a", 1)), "art", {"q": 1}
    )
