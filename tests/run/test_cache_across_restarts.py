"""Run outputs that survive a kernel restart, through ``evaluate`` and the magics.

A "restart" is a new interpreter (subprocess) or, in the shell, a fresh load of
the extension (a new in-kernel cache): only the file remains.  The run
function logs each call to a file, so "the task model was not called again"
is counted, not assumed.
"""

from __future__ import annotations

import json
import os
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
from tests.shell_support import loaded_shell

RUN = textwrap.dedent(
    """
    import os, time

    def run(artifact, input):
        with open(os.environ["RUN_LOG"], "a") as log:
            log.write(input["text"] + "\\n")
        time.sleep(0.01)
        return artifact + ":" + input["text"].lower()


    class Model:
        # A task model object: its name matters to the outputs, its key does not.
        def __init__(self, name, api_key):
            self.name, self.api_key = name, api_key

        def __call__(self, instructions, input=None):
            return self.name
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
    from runmod import Model, run
    artifact, model = sys.argv[3], Model(sys.argv[4], api_key=sys.argv[6])
    report = sj.evaluate(
        sys.argv[1] + "/metric.py", json.loads(sys.argv[5]), outputs="label", run=run,
        artifact=artifact, models=sj.ModelSettings(task_model=model),
        run_cache=sj.RunCache(path=sys.argv[2]), concurrency=2,
    )
    print(json.dumps([[c.output, c.cached, c.run_ms, c.score] for c in report.cases]))
    """
)


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


def evaluate_elsewhere(
    folder: Path, artifact: str = "p", model: str = "openai/m", key: str = "sk-1"
) -> list:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            EVALUATE,
            str(folder),
            str(folder / "cache" / "runs.sqlite"),
            artifact,
            model,
            json.dumps(ROWS),
            key,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "RUN_LOG": str(folder / "calls.log")},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_second_process_finds_the_outputs(folder: Path) -> None:
    cold = evaluate_elsewhere(folder)
    assert calls(folder) == len(ROWS)
    assert [cached for _, cached, _, _ in cold] == [False] * len(ROWS)
    warm = evaluate_elsewhere(folder, key="sk-2")  # a new API key: same model, same outputs
    assert calls(folder) == 0
    assert [cached for _, cached, _, _ in warm] == [True] * len(ROWS)
    # The same outputs, scores and the original run's time.
    assert [(o, ms, s) for o, _, ms, s in warm] == [(o, ms, s) for o, _, ms, s in cold]
    assert all(ms >= 10 for _, _, ms, _ in warm)


def test_a_changed_artifact_or_model_runs_again(folder: Path) -> None:
    evaluate_elsewhere(folder)
    assert calls(folder) == len(ROWS)
    evaluate_elsewhere(folder, artifact="q")
    assert calls(folder) == len(ROWS)
    evaluate_elsewhere(folder, model="openai/other")
    assert calls(folder) == len(ROWS)
    evaluate_elsewhere(folder)  # the first one's outputs are all still there
    assert calls(folder) == 0


def test_a_corrupt_cache_file_warns_and_runs_fresh(folder: Path) -> None:
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
            run_cache=sj.RunCache(path=path),
        )
    assert report.passed and report.mean_score == 1.0
    assert calls(folder) == len(ROWS)
    assert [str(w.message) for w in said if "run cache" in str(w.message)]


# --- the magics ------------------------------------------------------------------------


@pytest.fixture
def shell(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[InteractiveShell]:
    """The shared shell run from ``folder`` (runmod.py and metric.py, importable), with rows."""
    monkeypatch.syspath_prepend(str(folder))
    with loaded_shell(folder, monkeypatch) as shell:
        shell.user_ns.update(rows=ROWS)
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


CHECK = "%skynet_check --data rows --outputs label --run runmod.py:run --artifact 'p';"


def test_the_magics_keep_outputs_across_a_restart(shell: InteractiveShell, folder: Path) -> None:
    cell(shell, f"%%skynet_metric\n{METRIC}")
    first, _ = cell(shell, CHECK)
    assert calls(folder) == 3
    restart(shell)
    cell(shell, f"%%skynet_metric\n{METRIC}")
    again, _ = cell(shell, CHECK)
    assert calls(folder) == 0
    assert [c.cached for c in again.cases] == [True] * 3
    assert [c.output for c in again.cases] == [c.output for c in first.cases]
    _, shown = cell(shell, "%skynet_cache")
    assert "3 on disk" in shown and str(folder / ".skynet_cache" / "runs.sqlite") in shown
    cell(shell, CHECK.replace(";", " --fresh;"))
    assert calls(folder) == 3  # --fresh runs again for this call
    _, shown = cell(shell, "%skynet_cache --clear")
    assert shown.strip() == "Run cache cleared: 3 outputs forgotten."
    restart(shell)
    cell(shell, f"%%skynet_metric\n{METRIC}")
    cell(shell, CHECK)
    assert calls(folder) == 3


def test_cache_dir_none_keeps_outputs_in_the_kernel_only(
    shell: InteractiveShell, folder: Path
) -> None:
    cell(shell, "%config SkynetMagics.cache_dir = None")
    cell(shell, f"%%skynet_metric\n{METRIC}")
    cell(shell, CHECK)
    cell(shell, CHECK)
    assert calls(folder) == 3  # the second check used the kernel's cache
    _, shown = cell(shell, "%skynet_cache")
    assert shown.startswith("Run cache: 3 outputs in this kernel; none on disk")
    assert not (folder / ".skynet_cache").exists()


def test_an_entry_from_another_version_is_a_miss(folder: Path) -> None:
    from skynet_jupyter.run.cache import RunStore

    sys.path.insert(0, str(folder))
    try:
        from runmod import run  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(folder))
    path = folder / "runs.sqlite"
    cache = sj.RunCache(path=path)
    sj.evaluate(
        str(folder / "metric.py"), ROWS, outputs="label", run=run, artifact="p", run_cache=cache
    )
    assert calls(folder) == len(ROWS)
    store = RunStore(path)
    keys = [row[0] for row in store._connection().execute("SELECT key FROM outputs")]
    shapes = [("p:case", "not fields"), ("p:case", {"run_ms": "soon"}), "not a pair"]
    for number, key in enumerate(keys):  # what an older or newer version might have written
        assert store.put(key, shapes[number % len(shapes)])
    report = sj.evaluate(
        str(folder / "metric.py"),
        ROWS,
        outputs="label",
        run=run,
        artifact="p",
        run_cache=sj.RunCache(path=path),
    )
    assert report.passed and not any(case.cached for case in report.cases)
    assert calls(folder) == len(ROWS)
