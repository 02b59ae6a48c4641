"""skynet-check's usage errors and data errors in the user's language (en, fr, pt).

argparse writes its own usage errors in English; skynet-check shows them in
French and Portuguese (``--lang``, else ``SKYNET_LANG``), as it does its own
messages and the data errors (``DataError``, by message id).  In English,
argparse's words are shown as argparse writes them.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from skynet_jupyter.i18n import catalog, t
from tests.cli_support import skynet_check
from tests.conftest import EXAMPLES

PACKAGE = Path(__file__).resolve().parents[2] / "skynet_jupyter"


def example(*extra: str, run: str = "run") -> list[str]:
    return [
        str(EXAMPLES / "metric.py"),
        "--data",
        str(EXAMPLES / "tickets.csv"),
        "--outputs",
        "label",
        "--run",
        f"{EXAMPLES / 'classify.py'}:{run}",
        *extra,
    ]


@pytest.mark.parametrize("lang", ["fr", "pt"])
@pytest.mark.parametrize(
    ("args", "message_id", "fields"),
    [
        (
            ["--cases", "two"],
            "cli.args.bad_value",
            dict(option="--cases", type="int", value="'two'"),
        ),
        (
            ["--isolation", "fork"],
            "cli.args.bad_choice",
            dict(option="--isolation", value="'fork'", choices="'thread', 'process'"),
        ),
        (
            ["--output-column", "label"],
            "cli.args.exclusive",
            dict(option="--output-column", other="--run"),
        ),
        (["--bogus"], "cli.args.unknown", dict(names="--bogus")),
        (["--timeout"], "cli.args.needs_value", dict(option="--timeout")),
    ],
)
def test_argparse_errors_in_the_users_language(lang, args, message_id, fields):
    done = skynet_check(*example(*args), "--lang", lang)
    assert done.returncode == 2
    said = t(message_id, lang, **fields)
    assert said in done.stderr, done.stderr
    assert t(message_id, "en", **fields) not in done.stderr  # argparse's English is replaced


def test_a_missing_argument_in_french_by_the_environment():
    done = skynet_check("--outputs", "label", env={"SKYNET_LANG": "fr"})
    assert done.returncode == 2
    assert "skynet-check: erreur : ces arguments sont obligatoires : metric, --data" in done.stderr


def test_english_shows_argparse_as_it_is():
    done = skynet_check(*example("--cases", "two"), "--lang", "en")
    assert done.returncode == 2
    assert "skynet-check: error: argument --cases: invalid int value: 'two'" in done.stderr


def test_a_json_usage_error_is_translated_too():
    done = skynet_check(*example("--isolation", "fork"), "--json", "--lang", "pt")
    assert done.returncode == 2
    document = json.loads(done.stdout)
    assert document["error"] == "usage"
    assert document["message"].startswith("argumento --isolation: escolha inválida 'fork'")


@pytest.mark.parametrize("lang", ["en", "fr", "pt"])
def test_a_missing_run_function_is_named_in_the_users_language(lang):
    done = skynet_check(*example(run="nope"), "--lang", lang)
    assert done.returncode == 2
    path = f"{EXAMPLES / 'classify.py'}"
    expected = t("cli.no_function", lang, path=path, name="'nope'", defined="run")
    assert f"skynet-check: {expected}" in done.stderr, done.stderr


@pytest.mark.parametrize("lang", ["fr", "pt"])
def test_data_errors_in_the_users_language(lang, tmp_path):
    missing = tmp_path / "nope.csv"
    args = example()
    args[2] = str(missing)
    done = skynet_check(*args, "--lang", lang)
    assert done.returncode == 2
    assert t("data.no_file", lang, path=str(missing)) in done.stderr, done.stderr


def test_every_data_error_is_raised_with_a_message_id():
    """A DataError raised with a finished string literal would be English in every language."""
    english = catalog("en")
    literals = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "DataError"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                literals.append((path.name, node.lineno, node.args[0].value))
    assert len(literals) > 20  # the scan finds the raises
    unknown = [found for found in literals if found[2] not in english]
    assert unknown == [], f"DataError raised with a sentence, not a message id: {unknown}"
