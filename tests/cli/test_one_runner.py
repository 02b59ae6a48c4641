"""Every test starts skynet-check one way, with one environment rule (issue 34, item 7).

Six helpers with three rules had drifted: one kept the developer's ``SKYNET_TASK_MODEL``,
another their ``SKYNET_LANG``, a third replaced ``PYTHONPATH``.  The rule is
``tests/cli_support.py``'s ``cli_env``; these tests pin what it keeps, removes and sets,
and that no test file starts the command another way.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.cli_support import COMMANDS, SCRIPT, cli_env, skynet_check, skynet_check_command
from tests.conftest import ROOT

# What a developer's shell may hold that must never reach (or change) a test's command.
THEIRS = {
    "SKYNET_LANG": "fr",
    "SKYNET_TASK_MODEL": "openai/theirs",
    "SKYNET_METRIC_MODEL": "openai/theirs",
    "SKYNET_CACHE_DIR": "/tmp/theirs",
    "OPENAI_API_KEY": "sk-theirs",
    "OPENAI_API_BASE": "http://theirs/v1",
    "ANTHROPIC_API_KEY": "sk-ant-theirs",
    "GROQ_API_KEY": "gsk-theirs",
    "MISTRAL_API_BASE": "http://theirs",
}
KEPT = {
    "COVERAGE_PROCESS_START": "/somewhere/pyproject.toml",
    "COV_CORE_SOURCE": "skynet_jupyter",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "HOME": "/home/someone",
}


@pytest.fixture
def developers_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {**THEIRS, **KEPT}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PYTHONPATH", "/their/path")


def test_the_rule_removes_their_settings_and_keys_and_keeps_the_rest(developers_shell):
    env = cli_env()
    assert not set(THEIRS) - {"SKYNET_LANG"} & set(env)
    assert env["SKYNET_LANG"] == "en"
    assert {name: env[name] for name in KEPT} == KEPT
    assert env["PATH"] == os.environ["PATH"]
    assert env["PYTHONPATH"] == os.pathsep.join([str(ROOT), "/their/path"])


def test_a_test_sets_what_it_needs_on_top_and_unsets_what_it_must(developers_shell):
    env = cli_env({"SKYNET_LANG": "pt", "OPENAI_API_KEY": "sk-the-tests"}, unset=["PATH"])
    assert env["SKYNET_LANG"] == "pt" and env["OPENAI_API_KEY"] == "sk-the-tests"
    assert "PATH" not in env


def test_the_command_is_started_the_way_asked():
    assert skynet_check_command() == COMMANDS["module"]
    assert skynet_check_command("script") == [str(SCRIPT)]
    assert skynet_check_command("main")[1] == "-c"
    skynet_check_command().append("changed")
    assert skynet_check_command() == COMMANDS["module"]  # a copy each time


def test_the_command_sees_only_the_rules_environment(developers_shell, tmp_path: Path):
    (tmp_path / "metric.py").write_text(
        "import os\n\n\ndef score(input, output, expected=None):\n"
        "    seen = [n for n in ('SKYNET_TASK_MODEL', 'OPENAI_API_KEY') if n in os.environ]\n"
        "    return 1.0, {'feedback': f\"{os.environ['SKYNET_LANG']} {seen}\"}\n"
    )
    (tmp_path / "cases.csv").write_text("text,label\na,b\n")
    args = ("metric.py", "--data", "cases.csv", "--outputs", "label", "--output-column", "label")
    done = skynet_check(*args, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"feedback": "en []"' in done.stdout


# Ways of starting the command that bypass the runner (its own file excepted).
OTHER_WAYS = re.compile(
    r'"-m",\s*"skynet_jupyter\.cli"|parent\s*/\s*"skynet-check"|'
    r"from skynet_jupyter\.cli import main; sys\.exit\(main\(\)\)"
)


def test_no_test_starts_the_command_another_way():
    found = [
        f"{path.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path.name != "cli_support.py"
        for text in [path.read_text(encoding="utf-8")]
        for match in OTHER_WAYS.finditer(text)
    ]
    assert found == [], "start skynet-check with tests/cli_support.py's skynet_check"
