"""litellm, imported once per process, when a model call first needs it (issue 37).

``import skynet_jupyter`` never imports litellm: it takes seconds.  A check
imports it before its first case when its calls will be made (``warm_up``), the
first call a run cache cannot answer imports it otherwise, and
``import_ahead`` imports it in the background once a litellm model is
configured.  Whoever comes first imports it; the others wait for the rest of
that one import (:func:`warm_up` holds a lock while it works), never start a
second.

Two things we do to litellm, both said in ``docs/models.md``:

- ``litellm.suppress_debug_info = True``: no "Give Feedback / Get Help" lines
  printed into notebook cells at each provider error;
- a first call answered by litellm itself (``mock_response``: no request, no
  cost) loads what a real first call would load lazily, unless the user has set
  litellm logging callbacks it would reach.

We never set ``LITELLM_LOCAL_MODEL_COST_MAP``.  When litellm could not download
its price map (offline) and fell back to the copy it ships with, its import
waited for that attempt: :func:`price_map_fallback` says so once, and the first
report names the variable that skips it.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["imported_litellm", "is_ready", "litellm_models", "price_map_fallback", "warm_up"]


class _State:
    warming = threading.Lock()  # held by whoever warms up; the others wait for it
    ready = False  # imported and warmed up, in this process
    broken: str | None = None  # why litellm failed to load once: said again, not retried
    fallback_s: float | None = None  # the import that fell back to the bundled price map
    told = False


def imported_litellm() -> Any:
    """litellm, imported now if it is not yet (waiting for an import under way)."""
    if _State.broken is not None:  # tried once: seconds per call to fail the same way
        raise ImportError(_State.broken)  # a new one each time: no traceback piling up
    fresh = "litellm" not in sys.modules
    started = time.perf_counter()
    try:
        import litellm
    except ImportError as problem:
        if problem.name == "litellm":
            raise ImportError(
                "A litellm model needs litellm: pip install 'skynet-jupyter[llm]' "
                "(or use a callable model, such as skynet_jupyter.StandInModel, offline)."
            ) from None
        _State.broken = _not_importable(problem)
        raise ImportError(_State.broken) from problem
    except Exception as problem:  # litellm's own code failed while it loaded
        _State.broken = _not_importable(problem)
        raise ImportError(_State.broken) from problem
    if fresh:
        _note_price_map(time.perf_counter() - started)
    litellm.suppress_debug_info = True  # no "Give Feedback / Get Help" prints in notebooks
    return litellm


def _not_importable(problem: BaseException) -> str:
    missing = getattr(problem, "name", None) if isinstance(problem, ImportError) else None
    what = f"it needs {missing!r}, which is missing" if missing else repr(problem)
    return (
        f"litellm is installed but could not be imported ({what}). Reinstall it with what it "
        "needs: pip install --force-reinstall 'skynet-jupyter[llm]'."
    )


def litellm_models(models: Iterable[Any]) -> list[Any]:
    """The litellm models among ``models``: model strings and dicts of litellm arguments."""
    return [model for model in models if isinstance(model, str | Mapping)]


def is_ready() -> bool:
    """Whether litellm is imported and warmed up in this process."""
    return _State.ready


def warm_up(*models: Any) -> None:
    """Import litellm now if one of ``models`` is a litellm model (once per process).

    Called before a case's timed phases, so the one-time import (seconds) counts
    neither toward the first case's run time nor toward the metric time limit.
    A second caller (another thread) waits for the first one's work to end.
    """
    if _State.ready or not litellm_models(models):
        return
    with _State.warming:
        if _State.ready:
            return
        try:
            litellm = imported_litellm()
        except Exception:  # not installed, or broken: llm() says so when a call needs it
            return
        with contextlib.suppress(Exception):
            importlib.import_module("httpcore")  # the HTTP client's transport, loaded lazily
            hooks = ("callbacks", "success_callback", "failure_callback", "input_callback")
            if not any(getattr(litellm, name, None) for name in hooks):
                # litellm's own offline answer (no request, no cost) loads what its first
                # call loads lazily; skipped when the user has logging hooks it would reach.
                litellm.completion(
                    model="openai/gpt-4o-mini",
                    messages=[{"role": "user", "content": "warm up"}],
                    mock_response="ok",
                )
        _State.ready = True


def price_map_fallback() -> float | None:
    """Once per process: the seconds of an import that could not download the price map.

    None when the import used the bundled map as told (``LITELLM_LOCAL_MODEL_COST_MAP``),
    downloaded it, has not happened, or was already said.
    """
    seconds = _State.fallback_s
    if seconds is None or _State.told:
        return None
    _State.told = True
    return seconds


def _note_price_map(seconds: float) -> None:
    with contextlib.suppress(Exception):  # an older or newer litellm: nothing to say
        from litellm.litellm_core_utils.get_model_cost_map import (
            get_model_cost_map_source_info,
        )

        source = get_model_cost_map_source_info()
        if source.get("fallback_reason") and not source.get("is_env_forced"):
            _State.fallback_s = seconds
