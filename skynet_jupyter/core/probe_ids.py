"""The gaming probes' ids: the words ``probe(probes=...)`` and ``%skynet_probe --probes`` take.

Here, below the quality layer, so that the magic's help can list them at
``%load_ext`` without importing the measurements (issue 26: a fast load);
``skynet_jupyter.quality.PROBES`` is this tuple.
"""

from __future__ import annotations

__all__ = ["PROBES"]

PROBES = ("expected", "empty", "echo_input", "other_case", "all_expected", "long", "injection")
"""Every probe id, in the order reports show them."""
