"""``import skynet`` anywhere once ``skynet_jupyter`` is imported.

A metric file starts with ``from skynet import llm``.  Inside a check the
engine provides that module; this finder makes the same import work in the
author's own tests, editors and scripts.  It sits at the *end* of
``sys.meta_path``, so it answers only when no installed package is named
``skynet``: a real Skynet install is never shadowed.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence

__all__ = ["install_finder"]


class _SkynetLoader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        from .runtime import new_skynet_module

        return new_skynet_module()

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module is built complete in ``create_module``."""


class SkynetFinder(importlib.abc.MetaPathFinder):
    """Finds ``skynet`` (the helpers) when nothing before it on the path does."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "skynet":
            return None
        return importlib.machinery.ModuleSpec("skynet", _SkynetLoader(), origin="skynet_jupyter")


def install_finder() -> None:
    """Append the finder once (importing the package twice must not add two)."""
    if not any(isinstance(finder, SkynetFinder) for finder in sys.meta_path):
        sys.meta_path.append(SkynetFinder())
