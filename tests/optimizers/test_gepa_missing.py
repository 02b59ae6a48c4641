"""Issue 25, item 10, through the API: without the gepa extra, one line with the pip command
that works for how the package was installed.  Through ``%skynet_optimize``: in
tests/notebook/test_said_once_magics.py.
"""

from __future__ import annotations

import sys

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t
from skynet_jupyter.optimizers.gepa_adapter import GepaMissing, install_command

EMAILS = [{"email": "Meet on 14 March 2024", "date": "2024-03-14"}]


def extract(artifact, input):
    return input["email"][-4:]


def test_install_command_follows_how_the_package_was_installed(tmp_path):
    editable = f'{{"dir_info": {{"editable": true}}, "url": "file://{tmp_path}"}}'
    assert install_command("gepa", editable, cwd=tmp_path) == "pip install -e '.[gepa]'"
    elsewhere = install_command("gepa", editable, cwd=tmp_path.parent)
    assert elsewhere == f"pip install -e '{tmp_path}[gepa]'"
    assert install_command("gepa", "") == "pip install 'skynet-jupyter[gepa]'"
    wheel = '{"archive_info": {}, "url": "https://example.org/skynet_jupyter-0.1.0.whl"}'
    assert install_command("gepa", wheel) == "pip install 'skynet-jupyter[gepa]'"


def test_optimize_without_gepa_through_the_api(monkeypatch):
    monkeypatch.setitem(sys.modules, "gepa", None)
    with pytest.raises(GepaMissing) as raised:
        sj.optimize(
            'def score(input, output, expected=None):\n    return 1.0, {"feedback": "ok"}\n',
            EMAILS,
            outputs="date",
            run=extract,
            artifact="dates",
            budget=10,
            reflection_model="openai/gpt-4o-mini",
            lang="pt",
        )
    assert str(raised.value) == t("optimize.needs_gepa", "pt", command=install_command("gepa"))
