"""Layout and Style objects that never change, one of each per kernel, shared by views.

Each ipywidgets ``Layout`` or ``Style`` is a model with its own comm: a view that
built its own for every widget opened dozens of comms per check.  Only objects
nobody mutates are shared here; a widget whose ``layout.display`` toggles keeps
its own ``Layout``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import ipywidgets as W

_Model = TypeVar("_Model", bound=W.Widget)
_made: dict[str, W.Widget] = {}


def shared(key: str, make: Callable[[], _Model]) -> _Model:
    """The object ``make`` builds, made once per kernel (again if it was closed)."""
    found = _made.get(key)
    if found is None or found.comm is None:  # closed (``Widget.close_all()``): make anew
        found = _made[key] = make()
    return cast("_Model", found)  # ipywidgets has no types: what `make` built, by its key


def layout(**traits: object) -> W.Layout:
    """A shared ``Layout`` with ``traits``; never set an attribute on it."""
    return shared(f"layout:{_key(traits)}", lambda: W.Layout(**traits))


def style(kind: Callable[..., _Model], **traits: object) -> _Model:
    """A shared style of ``kind`` (``HTMLStyle``, ``SliderStyle``...) with ``traits``."""

    return shared(f"style:{kind.__name__}:{_key(traits)}", lambda: kind(**traits))


def _key(traits: dict[str, object]) -> str:
    return ",".join(f"{name}={value!r}" for name, value in sorted(traits.items()))
