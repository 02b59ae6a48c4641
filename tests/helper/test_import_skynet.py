"""``import skynet`` outside the notebook: scripts, the author's own pytest, editors.

Each scenario runs in a fresh interpreter (a subprocess), because what is on
``sys.path`` and in ``sys.modules`` at start-up is exactly what is tested.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm, observation, reward
from skynet_jupyter.models import settings as model_settings
from skynet_jupyter.models.case_context import NOT_MEASURED

METRIC = textwrap.dedent(
    """
    from skynet import llm, observation, reward

    REWARD_SPEC = {
        "weights": {"accuracy": 0.8, "speed": 0.1, "cost": 0.1},
        "accuracy": {},
        "speed": {"reference": 2000},
        "cost": {"reference": 0.01},
    }

    def score(input, output, expected=None):
        ok = output == expected["label"]
        return reward(REWARD_SPEC, 1.0 if ok else 0.0, "Correct." if ok else "Wrong label.")
    """
)

AUTHOR_TEST = textwrap.dedent(
    """
    from skynet import observation

    import metric


    def test_right_label_scores_its_accuracy_part():
        value, info = metric.score({"text": "x"}, "billing", {"label": "billing"})
        assert info["scores"]["accuracy"] == 1.0
        assert "Speed was not measured" in info["feedback"]
        assert value == 0.8


    def test_outside_a_check_nothing_is_measured():
        assert observation().run_ms is None
    """
)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTEST_ADDOPTS"}}
    env.update(extra)
    return env


def _python(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_importing_the_package_makes_skynet_importable(tmp_path: Path) -> None:
    done = _python(
        [
            "-c",
            "import skynet_jupyter, skynet; from skynet import llm, reward, observation, "
            "service_cost; print(skynet.llm.__module__, skynet.__file__)",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    module, path = done.stdout.split()
    assert module == "skynet_jupyter.helper.skynet"
    assert Path(path).is_file()  # tracebacks and editors can open it
    assert Path(path).name == "skynet.py"  # `skynet` is that real module, not a copy


def test_without_the_package_skynet_is_not_there(tmp_path: Path) -> None:
    # Installing skynet_jupyter ships no top-level `skynet`: nothing is shadowed.
    done = _python(["-c", "import skynet"], tmp_path)
    assert done.returncode == 1
    assert "No module named 'skynet'" in done.stderr


def test_plain_pytest_imports_a_metric_file_with_no_import_of_ours(tmp_path: Path) -> None:
    (tmp_path / "metric.py").write_text(METRIC)
    (tmp_path / "test_metric.py").write_text(AUTHOR_TEST)
    assert "skynet_jupyter" not in AUTHOR_TEST
    done = _python(["-m", "pytest", "-q", "-p", "no:cacheprovider"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_the_documented_one_liner_makes_plain_python_import_a_metric(tmp_path: Path) -> None:
    (tmp_path / "metric.py").write_text(METRIC)
    folder = _python(["-m", "skynet_jupyter.importable"], tmp_path)
    assert folder.returncode == 0, folder.stderr
    done = _python(
        ["-c", "import metric; print(metric.score({}, 'a', {'label': 'a'})[1]['scores'])"],
        tmp_path,
        PYTHONPATH=folder.stdout.strip(),
    )
    assert done.returncode == 0, done.stderr
    assert "'accuracy': 1.0" in done.stdout


@pytest.mark.parametrize("has_helpers", [True, False])
def test_an_installed_skynet_is_never_shadowed(tmp_path: Path, has_helpers: bool) -> None:
    real = tmp_path / "site" / "skynet"
    real.mkdir(parents=True)
    body = "ORIGIN = 'real'\n"
    if has_helpers:
        body += "def llm(*a, **k): return 'real'\nreward = observation = service_cost = llm\n"
    (real / "__init__.py").write_text(body)
    done = _python(
        ["-c", "import skynet_jupyter, skynet; print(skynet.ORIGIN)"],
        tmp_path,
        PYTHONPATH=str(tmp_path / "site"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "real"


def test_helpers_outside_a_check(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    assert observation() is NOT_MEASURED
    value, info = reward(
        {
            "weights": {"accuracy": 1, "speed": 1, "cost": 0},
            "speed": {"reference": 100},
            "cost": {"reference": 0.01},
        },
        1.0,
        "Good.",
    )
    assert value == 0.5  # accuracy 1.0 at half the weight; speed not measured scores 0
    assert info["feedback"] == (  # the feedback as written; the note, its own paragraph
        "Good.\n\nSpeed was not measured for this case, so its part of the reward is 0."
    )
    heard: list[tuple[str, object]] = []

    def judge(instructions: str, input: object) -> str:
        heard.append((instructions, input))
        return "PASS"

    # configure() is process-wide: start from nothing, restored after the test.
    monkeypatch.setattr(model_settings._Configured, "settings", ModelSettings())
    # A metric's own unit test configures only a metric model: that one answers.
    sj.configure(metric_model=judge)
    assert llm("Answer PASS or FAIL.", input="2+2=4") == "PASS"
    assert heard == [("Answer PASS or FAIL.", "2+2=4")]
