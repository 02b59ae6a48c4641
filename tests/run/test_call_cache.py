"""The run cache keeps model calls by their request as sent (issue 23).

Real litellm against the loopback OpenAI server; every claim about "asked" or
"not asked" is counted at the server.  ``run`` runs every time: what an edit
changes is exactly the requests it changes, whatever Python code made them.
"""

from __future__ import annotations

import functools
import importlib
import math
import os
import sqlite3
import sys
import textwrap
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm
from skynet_jupyter.models.call_cache import request_key
from skynet_jupyter.models.llm import litellm_arguments
from tests.openai_server import OpenAIServer
from tests.served_models import KEY, asks, served, task_models

ROWS = [{"text": f"ticket {n}", "label": "x"} for n in range(3)]


def fine(input, output, expected=None):
    return 1.0, {"feedback": f"got {output}"}


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as running:
        yield running


def evaluate(run, server, cache, rows=ROWS, **options):
    options.setdefault("models", task_models(server))
    return sj.evaluate(fine, rows, outputs="label", run=run, run_cache=cache, **options)


def sent(server: OpenAIServer, since: int = 0) -> list[str]:
    """The system messages of the requests the server got (``since`` the n-th)."""
    return [r.messages[0]["content"] for r in server.requests[since:]]


# --- the key: the request as sent --------------------------------------------------------


def key(model=None, instructions="Label.", input="x", **options):
    return request_key(
        litellm_arguments(model or {"model": "openai/m"}, instructions, input, options)
    )


def test_what_changes_the_reply_changes_the_key_and_nothing_else_does():
    base = key()
    assert len(base) == 64 and key() == base
    changed = [
        key(instructions="Label!"),
        key(input="y"),
        key(input={"text": "x"}),
        key({"model": "openai/other"}),
        key({"model": "openai/m", "api_base": "http://127.0.0.1:1/v1"}),
        key(temperature=0),
        key(temperature=0.0),
        key(temperature=False),
        key(top_p=0.5),
        key(max_tokens=5),
        key(max_completion_tokens=5),
        key(seed=1),
        key(stop=["\n"]),
        key(response_format={"type": "json_object"}),
        key(tools=[{"type": "function", "function": {"name": "f", "parameters": {}}}]),
        key({"model": "openai/m", "extra_headers": {"anthropic-beta": "x"}}),
    ]
    assert base not in changed and len(set(changed)) == len(changed)  # 0, 0.0, False: three
    # How the call is made, and its credentials, are not what the model answers.
    assert key({"model": "openai/m", "api_key": "sk-first-000000"}) == base
    assert key({"model": "openai/m", "aws_secret_access_key": "abcdefgh"}) == base
    assert key(num_retries=5, timeout=3, metadata={"run": 1}) == base
    with_auth = {"model": "openai/m", "extra_headers": {"Authorization": "Bearer sk-one-000000"}}
    rotated = {"model": "openai/m", "extra_headers": {"Authorization": "Bearer sk-two-000000"}}
    assert key(with_auth) == key(rotated)


def test_odd_values_in_a_request_have_a_key_or_none_never_a_crash():
    assert key(logit_bias={1: 2.0}) is not None
    assert key(seed=np.int64(3)) == key(seed=3)
    assert key(stop={"b", "a"}) == key(stop={"a", "b"})
    assert key(temperature=math.nan) != key(temperature=0.5)
    # An object with no canonical form: the call is made, never kept under a wrong key.
    assert key(client=object()) == key()  # how the call is sent: not in the key
    assert key(extra_body={"x": threading.Lock()}) is None


# --- run runs every time; only changed requests are asked ----------------------------------

PROMPT = "Label the ticket."
CONFIG = {"tone": "plain"}


def helper(text):
    return text.upper()


class Labeller:
    def instructions(self):
        return "Label, version 1."


def test_each_edit_asks_again_exactly_the_calls_whose_request_changed(server, monkeypatch):
    def run(artifact, input, style="short"):
        llm("Always the same.", input["text"])  # never changes: always from the cache
        edited = f"{artifact} {PROMPT} {helper('a')} {CONFIG['tone']} {Labeller().instructions()}"
        return llm(f"{edited} {style}", input["text"])

    cache = sj.RunCache()
    evaluate(run, server, cache, artifact="v1")
    assert asks(server) == 6
    evaluate(run, server, cache, artifact="v1")
    assert asks(server) == 6  # nothing changed: no request

    def edits():
        yield "artifact", lambda: None  # the artifact (the prompt being optimized)
        yield "global", lambda: monkeypatch.setitem(globals(), "PROMPT", "Label it.")
        yield "helper", lambda: monkeypatch.setitem(globals(), "helper", lambda text: text)
        yield "config", lambda: monkeypatch.setitem(CONFIG, "tone", "warm")  # edited in place

        class Labeller2:
            def instructions(self):
                return "Label, version 2."

        yield "class", lambda: monkeypatch.setitem(globals(), "Labeller", Labeller2)
        yield "default", lambda: monkeypatch.setattr(run, "__defaults__", ("long",))

    artifact = "v1"
    for number, (what, edit) in enumerate(edits()):
        if what == "artifact":
            artifact = "v2"
        edit()
        before = asks(server)
        report = evaluate(run, server, cache, artifact=artifact)
        assert asks(server) - before == 3, what  # one call per case: the one that changed
        assert not any(c.cached for c in report.cases), what  # a call was made now
        assert all(c.measured.cached_calls == 1 for c in report.cases), what
        again = evaluate(run, server, cache, artifact=artifact)
        assert asks(server) - before == 3 and all(c.cached for c in again.cases), (what, number)


def test_a_module_constant_edited_on_disk_asks_again_after_a_reload(server, tmp_path, monkeypatch):
    (tmp_path / "prompts_mod.py").write_text('TEMPLATE = "Label: {}"\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("prompts_mod")

    def run(artifact, input):
        return llm(sys.modules["prompts_mod"].TEMPLATE.format(input["text"]), "x")

    cache = sj.RunCache(path=tmp_path / "runs.sqlite")
    evaluate(run, server, cache)
    (tmp_path / "prompts_mod.py").write_text('TEMPLATE = "Classify: {}"\n')
    importlib.invalidate_caches()
    importlib.reload(module)
    evaluate(run, server, sj.RunCache(path=tmp_path / "runs.sqlite"))  # as after a restart
    assert asks(server) == 6
    assert sorted(sent(server, 3)) == [f"Classify: ticket {n}" for n in range(3)]
    sys.modules.pop("prompts_mod", None)


def test_partials_slots_and_closures_over_fresh_lists_each_get_their_own_replies(server):
    def ask(artifact, input, mode):
        return llm(f"mode {mode}", input["text"])

    class Slotted:
        __slots__ = ("word",)

        def __init__(self, word):
            self.word = word

        def __call__(self, artifact, input):
            return llm(self.word, input["text"])

    cache = sj.RunCache()
    runs = [functools.partial(ask, mode="a"), functools.partial(ask, mode="b")]
    runs += [Slotted("one"), Slotted("two")]
    for number in range(4):  # prompt variants made in a loop: lists reused at one address
        variant = [f"variant {number}"]
        runs.append(lambda artifact, input, variant=variant: llm(variant[0], input["text"]))
    outputs = []
    for run in runs:
        outputs.append([c.output for c in evaluate(run, server, cache).cases])
    assert asks(server) == 3 * len(runs)  # none answered with another run's reply
    assert sorted(set(sent(server))) == sorted(
        {"mode a", "mode b", "one", "two"} | {f"variant {n}" for n in range(4)}
    )


def test_numpy_sets_nan_and_objects_in_inputs_artifacts_and_globals_never_break_a_check(server):
    rows = [
        {"text": "a", "label": "x", "embedding": np.arange(4.0), "tags": {"x"}, "n": math.nan},
        {"text": "b", "label": "x", "embedding": np.ones((2, 2)), "tags": set(), "n": 1},
    ]
    table = np.linspace(0, 1, 5)

    def run(artifact, input):
        return llm(
            f"{artifact.shape} {table.sum():.1f}", f"{input['text']} {sorted(input['tags'])}"
        )

    cache = sj.RunCache()
    first = evaluate(run, server, cache, rows=rows, artifact=np.zeros(3))
    again = evaluate(run, server, cache, rows=rows, artifact=np.zeros(3))
    assert first.passed and again.passed
    assert asks(server) == 2 and all(c.cached for c in again.cases)


# --- what is never cached -------------------------------------------------------------------


def test_callables_and_stand_ins_are_always_called_and_never_kept(server):
    asked = []

    def local_model(instructions, input):
        asked.append(input)
        return "local"

    stand_in = sj.StandInModel("offline")
    cache = sj.RunCache()
    run = lambda artifact, input: llm("Label.", input["text"])  # noqa: E731
    for model in (local_model, local_model, stand_in, stand_in):
        report = evaluate(run, server, cache, models=ModelSettings(task_model=model))
        assert not any(c.cached for c in report.cases)
    assert len(asked) == 6 and len(stand_in.calls) == 6 and len(cache) == 0
    assert asks(server) == 0


# --- fresh, and what is kept ------------------------------------------------------------------


def test_fresh_asks_again_and_replaces_the_replies(server, tmp_path):
    path = tmp_path / "runs.sqlite"
    run = lambda artifact, input: llm("Label.", input["text"])  # noqa: E731
    evaluate(run, server, sj.RunCache(path=path))
    server.reply = lambda request: "second answer"
    old = evaluate(run, server, sj.RunCache(path=path))
    assert asks(server) == 3 and [c.output for c in old.cases] == ["Answer from gpt-4o-mini."] * 3
    fresh = evaluate(run, server, sj.RunCache(path=path).fresh())
    assert asks(server) == 6 and not any(c.cached for c in fresh.cases)
    replaced = evaluate(run, server, sj.RunCache(path=path))
    assert asks(server) == 6 and [c.output for c in replaced.cases] == ["second answer"] * 3
    assert KEY not in path.read_bytes().decode("latin-1")  # no secret on disk
    assert sj.RunCache(path=path).clear() == 3 and len(sj.RunCache(path=path)) == 0


def test_fresh_true_is_the_same_as_fresh(server, tmp_path):
    path = tmp_path / "runs.sqlite"
    run = lambda artifact, input: llm("Label.", input["text"])  # noqa: E731
    evaluate(run, server, sj.RunCache(path=path))
    server.reply = lambda request: "second answer"
    fresh = evaluate(run, server, sj.RunCache(path=path, fresh=True))
    assert asks(server) == 6 and not any(c.cached for c in fresh.cases)
    replaced = evaluate(run, server, sj.RunCache(path=path))  # the new replies were kept
    assert asks(server) == 6 and [c.output for c in replaced.cases] == ["second answer"] * 3


def test_a_cached_reply_counts_in_the_reward_as_if_made_now(server):
    server.delay = 0.05
    spec = {
        "weights": {"accuracy": 0.5, "speed": 0.25, "cost": 0.25},
        "speed": {"reference": 1000},
        "cost": {"reference": 0.01},
    }
    model = served(server, input_cost_per_token=0.001, output_cost_per_token=0.002)

    def rewarded(input, output, expected=None):
        from skynet import observation, reward, service_cost

        seen = observation()
        shown = f"{seen.model_calls} {service_cost()} {seen.input_tokens}"
        return reward(spec, 1.0, shown)

    run = lambda artifact, input: llm("Label.", input["text"])  # noqa: E731
    options = dict(outputs="label", run=run, models=ModelSettings(task_model=model))
    cache = sj.RunCache()
    first = sj.evaluate(rewarded, ROWS, run_cache=cache, **options)
    again = sj.evaluate(rewarded, ROWS, run_cache=cache, **options)
    assert asks(server) == 3 and all(c.cached for c in again.cases)
    assert all(c.cost_usd and c.cost_usd > 0 for c in first.cases)
    assert [c.feedback for c in again.cases] == [c.feedback for c in first.cases]
    assert [c.scores["cost"] for c in again.cases] == [c.scores["cost"] for c in first.cases]
    assert all(c.run_ms >= 50 for c in again.cases)  # the call's time then, not the look-up's


# --- files that cannot be used ------------------------------------------------------------


def checked_with(path: Path, server: OpenAIServer) -> tuple[sj.EvalReport, list[str], float]:
    run = lambda artifact, input: llm("Label.", input["text"])  # noqa: E731
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        report = evaluate(run, server, sj.RunCache(path=path))
    warned = [str(w.message) for w in said if "run cache" in str(w.message)]
    return report, warned, time.perf_counter() - started


@pytest.mark.parametrize("shape", ["damaged", "directory", "under a file"])
def test_an_unusable_path_is_one_warning_naming_it_and_an_uncached_check(server, tmp_path, shape):
    path = tmp_path / "runs.sqlite"
    if shape == "damaged":
        path.write_bytes(b"not a database" * 300)
    elif shape == "directory":
        path.mkdir()
    else:
        (tmp_path / "a file").write_text("x")
        path = tmp_path / "a file" / "runs.sqlite"
    report, said, _ = checked_with(path, server)
    assert report.passed and asks(server) == 3
    assert len(said) == 1 and str(path) in said[0] and "made without it" in said[0]


def test_a_locked_file_waits_a_short_bounded_time(server, tmp_path):
    path = tmp_path / "runs.sqlite"
    sj.RunCache(path=path).clear()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("CREATE TABLE held (x)")
    holder.execute("BEGIN EXCLUSIVE")  # another kernel holding the write lock
    try:
        report, said, elapsed = checked_with(path, server)
    finally:
        holder.close()
    assert report.passed and asks(server) == 3
    assert len(said) == 1 and str(path) in said[0] and "locked" in said[0]
    assert elapsed < 15  # one bounded wait (1.5 s), then uncached: not 30 s per call


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_file_is_one_warning(server, tmp_path):
    path = tmp_path / "runs.sqlite"
    sj.RunCache(path=path).clear()
    sqlite3.connect(path).close()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        report, said, _ = checked_with(path, server)
    finally:
        tmp_path.chmod(0o755)
    assert report.passed and asks(server) == 3 and len(said) == 1 and str(path) in said[0]


def test_clear_empties_a_damaged_file_or_an_empty_directory_and_says_what_it_did(shell, tmp_path):
    from IPython.utils.capture import capture_output

    def cleared() -> str:
        with capture_output() as captured:
            shell.run_line_magic("skynet_cache", "--clear")
        return captured.stdout.strip()

    shell.run_line_magic("config", f"SkynetMagics.cache_dir = {str(tmp_path / 'c')!r}")
    path = tmp_path / "c" / "runs.sqlite"
    path.parent.mkdir()
    path.write_bytes(b"damaged" * 100)
    assert cleared() == (
        f"Run cache cleared: {path} could not be read (a damaged file), so it was deleted; "
        "the next check makes a new one."
    )
    assert not path.exists()
    path.mkdir()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shell.run_line_magic("skynet_cache", "")  # shows, never crashes
    assert "was an empty directory, not a cache file, so it was removed" in cleared()
    assert not path.exists()
    path.mkdir()
    (path / "notes.txt").write_text("mine")
    assert "is a directory with files in it" in cleared() and (path / "notes.txt").exists()


# --- measurements that need fresh calls ---------------------------------------------------

JUDGE = textwrap.dedent(
    """
    from skynet import llm

    def score(input, output, expected=None):
        verdict = llm("PASS or FAIL?", str(output))
        return (1.0 if verdict == "PASS" else 0.0), {"feedback": verdict}
    """
)


def test_stability_never_reads_the_judges_cache(server):
    verdicts = iter(["PASS", "FAIL"] * 100)
    server.reply = lambda r: next(verdicts) if r.model == "gpt-4o" else "out"
    cache = sj.RunCache()
    models = task_models(server, judge=True)
    run = lambda artifact, input: llm("Label.", input["text"])  # noqa: E731
    sj.evaluate(JUDGE, ROWS, outputs="label", run=run, models=models, run_cache=cache)
    judged = asks(server, "gpt-4o")
    report = sj.stability(
        JUDGE, ROWS, repeats=3, outputs="label", run=run, models=models, run_cache=cache
    )
    assert asks(server, "gpt-4o") - judged == 3 * len(ROWS)  # every repeat asked the judge
    assert asks(server, "gpt-4o-mini") == len(ROWS)  # the run's calls: from the cache
    assert report.flip_rate > 0
