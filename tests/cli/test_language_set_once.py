"""skynet-check's language is set once where the command enters (issue 34, item 3).

``main`` sets it (``--lang``, else ``SKYNET_LANG``, else the locale) for everything
below; the child process, which starts outside that context, sets it again from
the job it is given.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import skynet_jupyter.cli.each_metric as each_metric
from skynet_jupyter.cli import child, main
from skynet_jupyter.cli.job import job_from
from skynet_jupyter.cli.parse import parse
from skynet_jupyter.i18n import current_lang, language, t

MINIMAL = ["m.py", "--data", "d.csv", "--run", "r.py"]


@pytest.fixture
def language_seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The language ``check_each`` runs in, once per call of ``main``."""
    seen: list[str] = []

    def check_each(args: Any) -> int:
        seen.append(current_lang())
        return 0

    monkeypatch.setattr(each_metric, "check_each", check_each)
    monkeypatch.delenv("SKYNET_LANG", raising=False)
    return seen


def test_main_sets_lang_for_everything_below_it(language_seen: list[str]) -> None:
    assert main([*MINIMAL, "--lang", "fr"]) == 0
    assert language_seen == ["fr"]
    assert current_lang() == "en"  # only for the command: nothing left set after it


def test_main_without_lang_speaks_skynet_lang(
    language_seen: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKYNET_LANG", "pt")
    assert main(MINIMAL) == 0
    assert language_seen == ["pt"]


def test_lang_given_to_the_command_wins_over_an_enclosing_run(language_seen: list[str]) -> None:
    with language("pt"):
        main([*MINIMAL, "--lang", "fr"])
        main(MINIMAL)  # none given: the enclosing run's
    assert language_seen == ["fr", "pt"]


def test_the_child_speaks_the_jobs_language_outside_any_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new process has no language context: the job, pickled to it, says the language."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the child puts the user's folders first
    (tmp_path / "m.py").write_text(
        "def score(example, output):\n    return 1.0, {'feedback': ''}\n"
    )
    (tmp_path / "d.csv").write_text("q,label\na,b\n")
    (tmp_path / "r.py").write_text("def other(artifact, input):\n    return ''\n")
    job = job_from(parse(["m.py", "--data", "d.csv", "--run", "r.py:go", "--lang", "fr"]), "fr")
    sent: list[dict[str, Any]] = []

    answer = child._check(job, sent.append)

    defined = "other"
    expected = t("cli.no_function", "fr", path="r.py", name="'go'", defined=defined)
    assert answer == {"event": "usage", "message": expected}
    assert sent == [{"event": "loading", "path": "r.py"}]
    assert current_lang() == "en"


def test_a_usage_problem_and_its_junit_suite_speak_the_commands_lang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing below ``main`` is handed the language: the job, the sentence and the JUnit
    file read the command's."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SKYNET_LANG", raising=False)
    argv = ["a.py", "b.py", "--data", "d.csv", "--run", "r.py", "--json", "--junit-xml", "r.xml"]

    assert (
        main([*argv, "--lang", "fr"]) == 2
    )  # --json is one document: refused before any child starts

    refused = t("cli.json_one_metric", "fr", count=2)
    assert f"skynet-check: {refused}" in capsys.readouterr().err
    junit = (tmp_path / "r.xml").read_text(encoding="utf-8")
    assert t("step.metric_loads", "fr") in junit
    assert t("step.metric_loads", "en") not in junit
