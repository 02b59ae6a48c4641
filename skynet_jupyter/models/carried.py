"""What a worker process must hold of the model setup its caller made in Python.

A key set the litellm way (``litellm.api_key = ...``, ``litellm.openai_key``...)
lives in the caller's process only: a worker process (``isolation="process"``,
a process pool, a Dask worker) started from a fresh interpreter, or forked
before the key was set, does not have it, and every case there would say the
key is missing (issue 43, K4).  A provider key put in the environment after the
pool or the cluster started (``os.environ["OPENAI_API_KEY"] = ...`` in a later
cell) is missing there for the same reason.  Both are sent with the run and set in
the worker before its first case; they are remembered as secrets on both sides, so
that no output shows them.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from ..core.secrets import remember_secrets

__all__ = ["carry", "environment_keys", "keys_to_carry", "litellm_keys"]

_ENVIRONMENT = "env:"  # a carried name that is an environment variable
# The provider keys litellm reads from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY,
# AZURE_API_KEY...): those only, not every secret the caller's environment holds.
_PROVIDER_KEY_ENDINGS = ("_API_KEY", "_API_TOKEN")
# The environment variables a run set here, each with the worker's own value it replaced
# (None: it had none): a key the caller has since removed gives the worker its own back.
_replaced: dict[str, str | None] = {}


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


def environment_keys() -> dict[str, str]:
    """The provider keys of this process's environment, to be set in a worker that
    started before they were."""
    return {
        _ENVIRONMENT + name: value
        for name, value in os.environ.items()
        if name.upper().endswith(_PROVIDER_KEY_ENDINGS) and value.strip()
    }


def keys_to_carry() -> dict[str, str]:
    """Every key a worker needs of its caller's setup: litellm's and the environment's."""
    keys = {**environment_keys(), **litellm_keys()}
    for value in keys.values():
        remember_secrets({"api_key": value})  # hidden here too, as a configured model's
    return keys


def carry(keys: dict[str, Any] | None) -> None:
    """Set ``keys`` (from :func:`keys_to_carry` in the caller) in this process: on litellm,
    and in the environment, where a key a run set before and the caller no longer has
    is removed (the worker's own value, if it had one, is back)."""
    keys = keys or {}
    usable = {n: v for n, v in keys.items() if isinstance(n, str) and isinstance(v, str)}
    for value in usable.values():
        remember_secrets({"api_key": value})
    on_litellm = {n: v for n, v in usable.items() if not n.startswith(_ENVIRONMENT)}
    carried = {
        n.removeprefix(_ENVIRONMENT): v for n, v in usable.items() if n.startswith(_ENVIRONMENT)
    }
    for name in [name for name in _replaced if name not in carried]:
        own = _replaced.pop(name)
        if own is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = own
    for name, value in carried.items():
        _replaced.setdefault(name, os.environ.get(name))
        os.environ[name] = value
    if not on_litellm:
        return
    import litellm  # the caller had it imported; a worker making its calls needs it too

    for name, value in on_litellm.items():
        setattr(litellm, name, value)
