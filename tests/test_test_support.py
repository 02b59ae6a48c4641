"""The test suite's own helpers: missing dependencies skip locally and fail in CI."""

from __future__ import annotations

import json

import pytest

from tests.browser_support import require_browser
from tests.conftest import require_module


def test_a_missing_package_skips_locally_and_fails_under_ci(monkeypatch):
    assert require_module("json") is json
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="'no_such_package_for_skynet'"):
        require_module("no_such_package_for_skynet")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set and these tests cannot run"):
        require_module("no_such_package_for_skynet")


def test_a_missing_browser_fails_under_ci(monkeypatch):
    monkeypatch.setattr("tests.browser_support.CHROMIUM", "/nowhere/chromium")
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no Chromium at /nowhere/chromium"):
        require_browser()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="no Chromium"):
        require_browser()
