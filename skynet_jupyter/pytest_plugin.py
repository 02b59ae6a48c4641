"""pytest plugin: a metric author's tests can ``import metric`` (which does
``from skynet import llm``) with nothing of ours imported in the test file.

Registered through the ``pytest11`` entry point, so installing
``skynet-jupyter`` is enough.  Importing the package installs the finder that
provides ``skynet`` when no real one is installed.
"""

from __future__ import annotations

import skynet_jupyter  # noqa: F401 - the import installs the ``skynet`` finder
