"""Rule 6: no secret in any output, on every path.

A key given to a model (in its settings, in the environment, or inside its address as
``user:password@``) never appears in what a path shows or leaves behind: the report's
text, ``repr``, HTML and JSON, the settings' ``repr``, an error message (a refused key
included), the run cache's files and the run log's records, and ``skynet-check``'s
output, JSON, JUnit and GitHub annotations.  One credential rule decides what is a
secret everywhere (``core/secrets.py``): the cache's keys and the display use the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import skynet_jupyter as sj
from tests.conformance.paths import (
    KEY,
    MODEL,
    REFUSED,
    Command,
    not_applicable,
    served,
    use,
)

IN_THE_ADDRESS = "pw-in-the-ADDRESS-9c1d"  # a password inside the model's api_base


def shown(outcome: Any) -> str:
    """Everything a report or a finished command shows: text, repr, HTML, JSON."""
    if isinstance(outcome, Command):
        return outcome.everything()
    parts = [str(outcome), repr(outcome)]
    html = getattr(outcome, "_repr_html_", None)
    if callable(html):
        parts.append(str(html()))
    to_dict = getattr(outcome, "to_dict", None)
    if callable(to_dict):
        parts.append(json.dumps(to_dict(), default=str))
    return "\n".join(parts)


def left_behind(folder: Path) -> bytes:
    """Every byte of every file the path wrote under ``folder`` (cache, run log, reports)."""
    return b"\n".join(path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file())


def recorded(scenario, folder: Path) -> Any:
    """The scenario with the run cache and the run log written under ``folder``."""
    folder.mkdir()
    sj.configure(run_log=str(folder / "runs"))
    return scenario.but(cache_dir=folder / "cache", env={"SKYNET_RUN_LOG": str(folder / "runs")})


@pytest.fixture
def run_log_reset(monkeypatch):
    """The run log's setting as it was before the test (the suite's SKYNET_RUN_LOG decides)."""
    from skynet_jupyter.models import settings

    monkeypatch.setattr(settings._Configured, "run_log", settings.configured_run_log())


def no_secret_in(outcome: Any, folder: Path, *secrets: str) -> None:
    text = shown(outcome)
    files = left_behind(folder)
    for secret in secrets:
        assert secret not in text, f"{secret} shown"
        assert secret.encode() not in files, f"{secret} written to a file"


@pytest.mark.parametrize("path", not_applicable("no secret", {}))
def test_a_key_given_to_the_model_is_never_shown_nor_written(path, scenario, run_log_reset):
    folder = scenario.cwd / "left"
    address = scenario.server.base_url.replace("://", f"://user:{IN_THE_ADDRESS}@", 1)
    model = served(scenario.server, KEY) | {"api_base": address}
    scenario = recorded(scenario, folder).but(task_model=model)
    if path == "skynet-check":  # the key from the environment, as CI gives it
        scenario = scenario.but(env={**scenario.env, "OPENAI_API_KEY": KEY})
    outcome = use(path, scenario)
    assert scenario.server.calls(), "the provider was asked"
    assert KEY not in repr(sj.ModelSettings(task_model=model))
    assert IN_THE_ADDRESS not in repr(sj.ModelSettings(task_model=model))
    no_secret_in(outcome, scenario.cwd, KEY, IN_THE_ADDRESS)


@pytest.mark.parametrize("path", not_applicable("no secret", {}))
def test_a_refused_key_is_not_in_the_sentence_that_says_it_was_refused(
    path, scenario, run_log_reset
):
    scenario.server.reject_keys = {REFUSED}
    outcome = use(path, recorded(scenario, scenario.cwd / "left").but(
        task_model=served(scenario.server, REFUSED)
    ))  # fmt: skip
    text = shown(outcome)
    assert f"The provider refused the API key for {MODEL}" in text  # said, and
    no_secret_in(outcome, scenario.cwd, REFUSED)  # the key itself never shown


@pytest.mark.parametrize(
    "path",
    not_applicable(
        "a key in the environment",
        {
            "skynet-check": "its key always comes from the environment: the first test of "
            "this file is that case"
        },
    ),
)
def test_a_key_taken_from_the_environment_is_never_shown(
    path, scenario, monkeypatch, run_log_reset
):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    folder = scenario.cwd / "left"
    outcome = use(path, recorded(scenario, folder).but(
        task_model=served(scenario.server, key=None)
    ))  # fmt: skip
    assert any(KEY in r.headers.get("authorization", "") for r in scenario.server.calls())
    no_secret_in(outcome, scenario.cwd, KEY)
