"""The persistent run cache: outputs that survive a kernel restart.

Keys are computed in separate processes (a new interpreter is what a kernel
restart gives), the file is shared by concurrent writers, and a damaged file
is a warning and a fresh run.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from skynet_jupyter.run.cache import RunStore, model_identity, output_key

RUN_FILE = textwrap.dedent(
    """
    import re

    TEMPLATE = "Label this: {text}"
    SPACES = re.compile(" +")

    def helper(text):
        return text.lower()

    def run(artifact, input):
        return SPACES.sub(" ", helper(TEMPLATE.format(text=input["text"]))) + artifact
    """
)

KEY_IN_A_NEW_PROCESS = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import runmod
    from skynet_jupyter.run.cache import output_key
    args = json.loads(sys.argv[2])
    print(output_key(runmod.run, args["artifact"], args["input"], args["model"]))
    """
)


def key_elsewhere(folder: Path, artifact: str, input: dict, model: object) -> str:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            KEY_IN_A_NEW_PROCESS,
            str(folder),
            json.dumps({"artifact": artifact, "input": input, "model": model}),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def run_module(tmp_path: Path) -> Path:
    (tmp_path / "runmod.py").write_text(RUN_FILE)
    return tmp_path


def test_a_new_process_names_the_same_output_the_same_way(run_module: Path) -> None:
    model = {"model": "openai/gpt-4o-mini", "api_key": "sk-one", "temperature": 0}
    first = key_elsewhere(run_module, "!", {"text": "Hi"}, model)
    again = key_elsewhere(run_module, "!", {"text": "Hi"}, model)
    assert len(first) == 64 and first == again


def test_what_changes_the_output_changes_the_key(run_module: Path) -> None:
    model = {"model": "openai/gpt-4o-mini", "api_key": "sk-one"}
    base = key_elsewhere(run_module, "!", {"text": "Hi"}, model)
    assert key_elsewhere(run_module, "?", {"text": "Hi"}, model) != base  # artifact
    assert key_elsewhere(run_module, "!", {"text": "Ho"}, model) != base  # input
    other_model = {"model": "openai/gpt-4o", "api_key": "sk-one"}
    assert key_elsewhere(run_module, "!", {"text": "Hi"}, other_model) != base
    # A new API key is the same model: the outputs stay.
    new_key = {"model": "openai/gpt-4o-mini", "api_key": "sk-two"}
    assert key_elsewhere(run_module, "!", {"text": "Hi"}, new_key) == base
    # The run function's code, and the plain data and helpers it reads.
    for old, new in [
        ("+ artifact", "+ artifact + '.'"),
        ("Label this", "Classify this"),
        ("text.lower()", "text.upper()"),
        ('re.compile(" +")', 're.compile(" ")'),  # an object the body reads, not plain data
    ]:
        (run_module / "runmod.py").write_text(RUN_FILE.replace(old, new))
        assert key_elsewhere(run_module, "!", {"text": "Hi"}, model) != base, new
    (run_module / "runmod.py").write_text(RUN_FILE)
    assert key_elsewhere(run_module, "!", {"text": "Hi"}, model) == base


def test_closure_values_are_part_of_the_key() -> None:
    def make(prompt: str):
        def run(artifact, input):
            return prompt + artifact

        return run

    assert output_key(make("a"), "x", {}) == output_key(make("a"), "x", {})
    assert output_key(make("a"), "x", {}) != output_key(make("b"), "x", {})


def test_no_secret_is_part_of_a_model_identity() -> None:
    identity = model_identity(
        {"model": "m", "api_key": "sk-secret", "extra_headers": {"Authorization": "Bearer t"}}
    )
    assert identity == {"model": "m"}
    assert "sk-secret" not in repr(identity)


def test_an_unstable_value_gets_no_key() -> None:
    lock = threading.Lock()
    assert output_key(lambda a, i: a, "x", {"lock": lock}) is None


def test_outputs_survive_reopening_and_concurrent_writers(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "runs.sqlite"
    stores = [RunStore(path) for _ in range(4)]

    def write(number: int) -> None:
        for item in range(50):
            assert stores[number].put(f"{number}-{item}", {"output": item, "by": number})

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reopened = RunStore(path)
    assert len(reopened) == 200
    assert reopened.get("3-49") == {"output": 49, "by": 3}
    assert reopened.get("missing") is None
    assert reopened.size_bytes() > 0
    assert reopened.clear() == 200
    assert len(RunStore(path)) == 0


def test_an_output_that_does_not_pickle_is_not_kept(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    assert store.put("k", (x for x in range(3))) is False
    assert store.get("k") is None


def test_a_corrupt_file_is_a_warning_and_a_miss(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    said: list[str] = []
    store = RunStore(path, warn=said.append)
    assert store.get("k") is None
    assert store.put("k", 1) is False
    assert len(said) == 1
    assert "could not be opened" in said[0] and "runs.sqlite" in said[0]
    store.clear()  # recovers: a fresh file
    assert store.put("k", 1) is True
    assert store.get("k") == 1


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite"
    store = RunStore(path)
    store.put("good", "fine")
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO outputs VALUES ('bad', x'00ff00', 0)")
    assert store.get("bad") is None
    assert store.get("good") == "fine"


def test_a_stand_in_model_keeps_its_identity_as_it_answers() -> None:
    from skynet_jupyter import StandInModel

    model = StandInModel("billing", tag="")
    before = model_identity(model)
    model("Classify.", {"text": "x"})  # records the call in model.calls
    assert model_identity(model) == before
    assert model_identity(StandInModel("other", tag="")) != before


def test_a_global_with_no_stable_form_gives_no_key() -> None:
    namespace: dict = {"LOCK": threading.Lock()}
    exec("def run(artifact, input):\n    with LOCK:\n        return artifact", namespace)
    assert output_key(namespace["run"], "x", {}) is None
