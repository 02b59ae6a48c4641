"""``import skynet``: the helper module, wherever metric code runs.

A metric file starts with ``from skynet import llm``.  ``import skynet`` gives
:mod:`skynet_jupyter.helper.skynet` itself (a real file: tracebacks and
editors show its path), never a copy.  The hook finds it by its name
(``HELPER_MODULE``), as it is itself found: the core imports no higher layer.

- :func:`install_skynet_module` puts it in ``sys.modules["skynet"]`` (the
  notebook extension, checks, worker processes and Dask workers call it),
  unless some other ``skynet`` is already imported or on the path: a real
  Skynet install, or the user's own ``skynet.py`` or ``skynet/``.  That one is
  never imported here (a user's file runs only when their code imports it)
  and never pushed out of ``sys.modules``; when it lacks the helpers, a check
  that failed says so in one sentence (:func:`shadowing_note`);
- :class:`SkynetFinder`, appended to ``sys.meta_path`` by ``import
  skynet_jupyter``, makes the same import work in the author's own tests,
  editors and scripts.  It sits at the *end* of ``sys.meta_path``, so it
  answers only when no installed package is named ``skynet``: a real Skynet
  install is never shadowed.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence

__all__ = [
    "SkynetFinder",
    "install_finder",
    "install_skynet_module",
    "shadowing_note",
    "uninstall_skynet_module",
]

NAME = "skynet"
HELPERS = ("llm", "reward", "observation", "service_cost")


# The helper module, found by its name when `import skynet` asks for it.  Finding a module
# by name at run time is this hook's whole job (it maps the name `skynet` to this one);
# an import statement here would make the core, which every layer imports, depend on the
# helper layer above it (helper imports models, which import the core).
HELPER_MODULE = __name__.rsplit(".", 2)[0] + ".helper.skynet"


def _helpers() -> types.ModuleType:
    return importlib.import_module(HELPER_MODULE)


class _SkynetLoader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        """The default placeholder: :meth:`exec_module` puts the real module in its place."""

    def exec_module(self, module: types.ModuleType) -> None:
        # The import system returns what sys.modules holds once this returns (a module
        # may replace itself there): the helpers' own module, not a copy of it.
        sys.modules[module.__name__] = _helpers()


class SkynetFinder(importlib.abc.MetaPathFinder):
    """Finds ``skynet`` (the helpers) when nothing before it on the path does."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != NAME:
            return None
        return importlib.machinery.ModuleSpec(NAME, _SkynetLoader(), origin="skynet_jupyter")


def install_finder() -> None:
    """Append the finder once (importing the package twice must not add two)."""
    if not any(isinstance(finder, SkynetFinder) for finder in sys.meta_path):
        sys.meta_path.append(SkynetFinder())


def install_skynet_module() -> types.ModuleType | None:
    """Make ``import skynet`` give the helpers, unless another ``skynet`` comes first.

    The module ``import skynet`` gives (ours, or the one already imported), or
    None when another ``skynet`` is on the path but not imported: finding it
    runs none of its code, and it stays for the code that asks for it.
    """
    existing = sys.modules.get(NAME)
    if existing is not None:
        return existing  # ours, a real Skynet's, or the user's own: never evicted
    if _foreign_spec() is not None:
        return None
    module = _helpers()
    sys.modules[NAME] = module
    return module


def _foreign_spec() -> importlib.machinery.ModuleSpec | None:
    """The spec of a ``skynet`` on the path that is not ours (found, never executed)."""
    try:
        found = importlib.util.find_spec(NAME)
    except (ImportError, ValueError):
        return None
    if found is None or isinstance(found.loader, _SkynetLoader):
        return None
    return found


def shadowing_note(lang: str | None = None) -> str | None:
    """One sentence when the ``skynet`` metric code gets is someone else's, without the helpers."""
    from ..i18n import t

    module = sys.modules.get(NAME)
    if module is not None:
        if getattr(module, "__skynet_jupyter__", False) or all(
            hasattr(module, name) for name in HELPERS
        ):
            return None
        where = getattr(module, "__file__", None) or repr(module)
    else:
        found = _foreign_spec()
        if found is None:
            return None
        where = found.origin or NAME
    return t("skynet.shadowed", lang, path=str(where), helpers=", ".join(HELPERS))


def uninstall_skynet_module() -> None:
    """Undo :func:`install_skynet_module` (only if the module is ours)."""
    module = sys.modules.get(NAME)
    if module is not None and getattr(module, "__skynet_jupyter__", False):
        del sys.modules[NAME]
