"""What a worker process must hold of the model setup its caller made in Python.

A key set the litellm way (``litellm.api_key = ...``, ``litellm.openai_key``...)
lives in the caller's process only: a worker process (``isolation="process"``,
a process pool, a Dask worker) started from a fresh interpreter, or forked
before the key was set, does not have it, and every case there would say the
key is missing (issue 43, K4).  The environment variables travel by themselves
(a worker inherits them); these settings are sent with the run and set in the
worker before its first case.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["carry", "litellm_keys"]


def litellm_keys() -> dict[str, str]:
    """The keys set on litellm in this process (none when litellm was never imported:
    whoever set one imported it first)."""
    litellm = sys.modules.get("litellm")
    if litellm is None:
        return {}
    keys: dict[str, str] = {}
    for name in list(vars(litellm)):
        if name == "api_key" or name.endswith("_key"):
            value = getattr(litellm, name, None)
            if isinstance(value, str) and value.strip():
                keys[name] = value
    return keys


def carry(keys: dict[str, Any] | None) -> None:
    """Set ``keys`` (from :func:`litellm_keys` in the caller) on this process's litellm."""
    if not keys:
        return
    import litellm  # the caller had it imported; a worker making its calls needs it too

    for name, value in keys.items():
        if isinstance(name, str) and isinstance(value, str):
            setattr(litellm, name, value)
