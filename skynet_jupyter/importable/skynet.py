"""The Skynet helpers for metrics, provided locally by ``skynet_jupyter``.

This folder is not on the import path unless you put it there, so installing
``skynet_jupyter`` never shadows a real ``skynet``.  To make a plain
``python -c "import metric"`` work (scripts, editors, linters)::

    export PYTHONPATH="$(python -m skynet_jupyter.importable)${PYTHONPATH:+:$PYTHONPATH}"

In notebooks, checks and pytest this is not needed: importing
``skynet_jupyter`` (or pytest's plugin) already provides ``skynet``.
"""

from skynet_jupyter.helper.skynet import Observation, llm, observation, reward, service_cost

__all__ = ["Observation", "llm", "observation", "reward", "service_cost"]
__skynet_jupyter__ = True
