"""Issue 25, item 10, through the API: without the gepa extra, one line with the pip command
that works for how the package was installed.  Through ``%skynet_optimize``: in
tests/notebook/test_said_once_magics.py.
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t
from skynet_jupyter.optimizers import gepa_adapter
from skynet_jupyter.optimizers.gepa_adapter import DISTRIBUTION, GepaMissing, install_command

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


def test_only_an_editable_install_is_installed_again_from_its_folder(tmp_path):
    by_name = "pip install 'skynet-jupyter[gepa]'"
    # `pip install /path/to/clone` (not -e) and a local wheel: both by name.
    local_folder = f'{{"dir_info": {{}}, "url": "file://{tmp_path}"}}'
    assert install_command("gepa", local_folder, cwd=tmp_path) == by_name
    local_wheel = f'{{"archive_info": {{}}, "url": "file://{tmp_path}/skynet_jupyter-0.1.whl"}}'
    assert install_command("gepa", local_wheel, cwd=tmp_path) == by_name
    # direct_url.json that is JSON but not an object, or not JSON: by name, no error.
    for odd in ("[]", "42", '"file:///x"', "{not json"):
        assert install_command("gepa", odd, cwd=tmp_path) == by_name


def test_the_installed_metadata_says_how_the_package_was_installed(tmp_path):
    described = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    # The tests run from a clone installed from its folder: pip wrote direct_url.json.
    assert described, "the package under test is installed from a folder with pip"
    for cwd in (tmp_path, Path.cwd()):
        assert install_command("gepa", cwd=cwd) == install_command("gepa", described, cwd=cwd)


def test_without_installed_metadata_the_package_is_named(monkeypatch):
    monkeypatch.setattr(gepa_adapter, "DISTRIBUTION", "skynet-jupyter-not-installed")
    assert install_command("dspy") == "pip install 'skynet-jupyter-not-installed[dspy]'"


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
