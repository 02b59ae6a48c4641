"""The history's views, found by name: they live a layer up (``runlog/views.py`` imports
``show/``), and a record or a diff, built below the engine, must never import them.

The same plugin lookup as :mod:`skynet_jupyter.core.shows_itself` (no import
statement points up: ``tests/test_layers.py`` counts every one).
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["VIEWS", "views"]

VIEWS = "skynet_jupyter.runlog.views"


def views() -> ModuleType:
    """The module that draws a ``History`` and a ``RunDiff`` as text and HTML."""
    return importlib.import_module(VIEWS)
