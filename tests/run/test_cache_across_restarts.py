"""Model replies that survive a kernel restart, through ``evaluate`` and the magics.

A "restart" is a new interpreter (subprocess) or, in the shell, a fresh load of
the extension (a new in-kernel cache): only the file remains.  The task model
is the real litellm asking the loopback OpenAI server, so "the model was not
asked again" is counted at the server, not assumed; the run function logs each
of its calls to a file, because it runs every time (issue 23).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from tests.openai_server import OpenAIServer
from tests.served_models import KEY, asks, served
from tests.shell_support import loaded_shell

RUN = textwrap.dedent(
    """
    import os

    from skynet import llm

    def run(artifact, input):
        with open(os.environ["RUN_LOG"], "a") as log:
            log.write(input["text"] + "\\n")
        return artifact + ":" + llm(artifact, input["text"])
    """
)
METRIC = textwrap.dedent(
    """
    def score(input, output, expected=None):
        ok = output.endswith(expected["label"])
        return (1.0 if ok else 0.0), {"feedback": f"got {output}"}
    """
)
ROWS = [{"text": f"Case {n}", "label": f"case {n}"} for n in range(6)]

EVALUATE = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import skynet_jupyter as sj
    from runmod import run
    path, artifact, model, rows, key, base = sys.argv[2:8]
    report = sj.evaluate(
        sys.argv[1] + "/metric.py", json.loads(rows), outputs="label", run=run,
        artifact=artifact,
        models=sj.ModelSettings(task_model={"model": model, "api_base": base, "api_key": key}),
        run_cache=sj.RunCache(path=path), concurrency=2,
    )
    print(json.dumps([[c.output, c.cached, c.run_ms, c.score, c.cost_usd] for c in report.cases]))
    """
)


def lowered(request) -> str:
    """The server's answer: the user message, lower-cased (what the metric expects)."""
    return request.messages[-1]["content"].lower()


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer(reply=lowered) as running:
        running.delay = 0.02  # each call takes 20 ms or more, when it is made
        yield running


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "runmod.py").write_text(RUN)
    (tmp_path / "metric.py").write_text(METRIC)
    monkeypatch.setenv("RUN_LOG", str(tmp_path / "calls.log"))
    return tmp_path


def calls(folder: Path) -> int:
    log = folder / "calls.log"
    count = len(log.read_text().splitlines()) if log.exists() else 0
    log.unlink(missing_ok=True)
    return count


def command(
    folder: Path,
    server: OpenAIServer,
    artifact: str = "p",
    model: str = "openai/m",
    key: str = KEY,
    rows: list | None = None,
) -> list[str]:
    path = folder / "cache" / "runs.sqlite"
    rows = ROWS if rows is None else rows
    return [
        sys.executable,
        "-c",
        EVALUATE,
        str(folder),
        str(path),
        artifact,
        model,
        json.dumps(rows),
        key,
        server.base_url,
    ]


def evaluate_elsewhere(folder: Path, server: OpenAIServer, **options) -> list:
    done = subprocess.run(
        command(folder, server, **options),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "RUN_LOG": str(folder / "calls.log")},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def evaluate_here(folder: Path, server: OpenAIServer, path: Path | None = None, **options) -> list:
    """As :func:`evaluate_elsewhere`, in this process, with a new cache on the same file."""
    sys.path.insert(0, str(folder))
    try:
        from runmod import run  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(folder))
    model = served(server)
    model["model"] = options.pop("model", model["model"])
    report = sj.evaluate(
        str(folder / "metric.py"),
        options.pop("rows", ROWS),
        outputs="label",
        run=run,
        artifact=options.pop("artifact", "p"),
        models=sj.ModelSettings(task_model=model),
        run_cache=sj.RunCache(path=path or folder / "cache" / "runs.sqlite"),
        concurrency=2,
    )
    return [[c.output, c.cached, c.run_ms, c.score, c.cost_usd] for c in report.cases]


def test_a_second_process_asks_the_model_nothing(folder: Path, server: OpenAIServer) -> None:
    cold = evaluate_here(folder, server, model="openai/m")
    assert asks(server) == len(ROWS) and calls(folder) == len(ROWS)
    assert [cached for _, cached, _, _, _ in cold] == [False] * len(ROWS)
    warm = evaluate_elsewhere(folder, server, key="sk-another-key-0000")  # a new API key
    assert asks(server) == len(ROWS)  # no new request
    assert calls(folder) == len(ROWS)  # run itself runs every time
    assert [cached for _, cached, _, _, _ in warm] == [True] * len(ROWS)
    # The same outputs, scores and costs; the time is the call's when it was made.
    assert [(o, s, c) for o, _, _, s, c in warm] == [(o, s, c) for o, _, _, s, c in cold]
    assert all(ms >= 20 for _, _, ms, _, _ in warm)


def test_a_changed_artifact_or_model_asks_again(folder: Path, server: OpenAIServer) -> None:
    # Each time a new cache on the file: what a new process finds.
    evaluate_here(folder, server)
    assert asks(server) == len(ROWS)
    evaluate_here(folder, server, artifact="q")
    assert asks(server) == 2 * len(ROWS)
    evaluate_here(folder, server, model="openai/other")
    assert asks(server) == 3 * len(ROWS)
    evaluate_here(folder, server)  # the first one's replies are all still there
    assert asks(server) == 3 * len(ROWS)


def test_two_processes_writing_at_once_share_the_file(folder: Path, server: OpenAIServer) -> None:
    rows = [{"text": f"Case {n}", "label": f"case {n}"} for n in range(24)]
    env = {**os.environ, "RUN_LOG": str(folder / "calls.log")}
    writers = [
        subprocess.Popen(
            command(folder, server, rows=part),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for part in (rows[:12], rows[12:])
    ]
    for writer in writers:
        _, errors = writer.communicate(timeout=120)
        assert writer.returncode == 0, errors
    assert asks(server) == 24
    again = evaluate_here(folder, server, rows=rows, model="openai/m")  # a third kernel
    assert asks(server) == 24 and all(cached for _, cached, _, _, _ in again)


def test_a_corrupt_cache_file_warns_and_runs_uncached(folder: Path, server: OpenAIServer) -> None:
    path = folder / "runs.sqlite"
    path.write_bytes(b"garbage" * 500)
    sys.path.insert(0, str(folder))
    try:
        from runmod import run  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(folder))
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        report = sj.evaluate(
            str(folder / "metric.py"),
            ROWS,
            outputs="label",
            run=run,
            artifact="p",
            models=sj.ModelSettings(task_model=served(server)),
            run_cache=sj.RunCache(path=path),
        )
    assert report.passed and report.mean_score == 1.0
    assert asks(server) == len(ROWS)
    warned = [str(w.message) for w in said if "run cache" in str(w.message)]
    assert len(warned) == 1 and str(path) in warned[0]


# --- the magics ------------------------------------------------------------------------


@pytest.fixture
def shell(
    folder: Path, server: OpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[InteractiveShell]:
    """The shared shell run from ``folder`` (runmod.py and metric.py, importable), with rows."""
    monkeypatch.syspath_prepend(str(folder))
    with loaded_shell(folder, monkeypatch) as shell:
        shell.user_ns.update(rows=ROWS, task_model=served(server))
        yield shell


def cell(shell: InteractiveShell, source: str) -> tuple[object, str]:
    with capture_output() as captured:
        result = shell.run_cell(textwrap.dedent(source).lstrip("\n"))
    result.raise_error()
    return result.result, captured.stdout


def restart(shell: InteractiveShell) -> None:
    """What survives a kernel restart here: the files, not the kernel's objects."""
    shell.extension_manager.unload_extension("skynet_jupyter")
    shell.extension_manager.load_extension("skynet_jupyter")
    cell(shell, "%config SkynetMagics.task_model = task_model")
    cell(shell, f"%%skynet_metric\n{METRIC}")


CHECK = "%skynet_check --data rows --outputs label --run runmod.py:run --artifact 'p';"


def test_the_magics_keep_replies_across_a_restart(
    shell: InteractiveShell, folder: Path, server: OpenAIServer
) -> None:
    cell(shell, "%config SkynetMagics.task_model = task_model")
    cell(shell, f"%%skynet_metric\n{METRIC}")
    first, _ = cell(shell, CHECK)
    assert asks(server) == 3
    restart(shell)
    again, _ = cell(shell, CHECK)
    assert asks(server) == 3 and calls(folder) == 6  # run ran; the model was not asked
    assert [c.cached for c in again.cases] == [True] * 3
    assert [c.output for c in again.cases] == [c.output for c in first.cases]
    _, shown = cell(shell, "%skynet_cache")
    assert "3 on disk" in shown and str(folder / ".skynet_cache" / "runs.sqlite") in shown
    assert "3 calls answered from the cache, 0 asked" in shown
    cell(shell, CHECK.replace(";", " --fresh;"))
    assert asks(server) == 6  # --fresh asks again for this call
    _, shown = cell(shell, "%skynet_cache --clear")
    assert shown.strip() == "Run cache cleared: 3 replies forgotten."
    restart(shell)
    cell(shell, CHECK)
    assert asks(server) == 9


def test_cache_dir_none_keeps_replies_in_the_kernel_only(
    shell: InteractiveShell, folder: Path, server: OpenAIServer
) -> None:
    cell(shell, "%config SkynetMagics.cache_dir = None")
    cell(shell, "%config SkynetMagics.task_model = task_model")
    cell(shell, f"%%skynet_metric\n{METRIC}")
    cell(shell, CHECK)
    cell(shell, CHECK)
    assert asks(server) == 3  # the second check used the kernel's cache
    _, shown = cell(shell, "%skynet_cache")
    assert shown.startswith("Run cache (model replies): 3 replies in this kernel; none on disk")
    assert not (folder / ".skynet_cache").exists()


def test_an_entry_from_another_version_is_a_miss(folder: Path, server: OpenAIServer) -> None:
    sys.path.insert(0, str(folder))
    try:
        from runmod import run  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(folder))
    path = folder / "runs.sqlite"
    models = sj.ModelSettings(task_model=served(server))

    def evaluate() -> sj.EvalReport:
        return sj.evaluate(
            str(folder / "metric.py"),
            ROWS,
            outputs="label",
            run=run,
            artifact="p",
            models=models,
            run_cache=sj.RunCache(path=path),
        )

    evaluate()
    assert asks(server) == len(ROWS)
    shapes = ['{"text": 3}', '{"text": "x", "latency_ms": "soon"}', "[1, 2]", "not json"]
    with sqlite3.connect(path) as raw:  # what an older or newer version might have written
        keys = [row[0] for row in raw.execute("SELECT key FROM replies")]
        for number, key in enumerate(keys):
            shape = shapes[number % len(shapes)]
            raw.execute("UPDATE replies SET record = ? WHERE key = ?", (shape, key))
    report = evaluate()
    assert report.passed and not any(case.cached for case in report.cases)
    assert asks(server) == 2 * len(ROWS)
