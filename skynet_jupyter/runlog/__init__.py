"""Every run remembered: the run log, ``sj.history`` and ``sj.diff`` (issue 46).

(The package is ``runlog``, not ``history``: a subpackage named ``history`` would
replace the function ``sj.history`` as soon as it is imported, since importing a
submodule sets it as an attribute of its parent package.)

Each ``check`` and ``evaluate`` (the magics, ``sj.*``, ``skynet-check``) records a
run in the run log (``.skynet_runs/`` here, ``configure(run_log=...)``,
``SKYNET_RUN_LOG``, an fsspec URL for a shared log); ``history()`` reads it and
``diff()`` compares two runs case by case.  The format is documented and
versioned (``docs/history.md``; :mod:`.schema`).

Everything here needs only the core (and the models' settings): the engine calls
:func:`.recorder.record_run` at the end of a run.  The views (``views.py``, text,
HTML and the chart) sit a layer up, beside ``show/``, and are found by name.

Modules::

    schema.py          the record's format and version; what a reader refuses or skips
    identity.py        a case's identity, the data's fingerprint, a metric's version
    record.py          Draft (a finished run, taken at once) and RunRecord (read back)
    options_record.py  the head's options, totals, steps and origin (git, models)
    read_back.py       a record's report, read back
    location.py        where the log is: log=, configure(), SKYNET_RUN_LOG, .skynet_runs
    store.py           the files: a local folder or an fsspec URL, written atomically
    reading.py         heads for a listing, whole records on demand; damaged ones skipped
    recorder.py        record_run (the engine's call, never raising) and its writer thread
    words.py           word diffs of feedback, the source's unified diff
    run_diff.py        RunDiff and CaseChange: two runs case by case
    diff_export.py     a diff as JSON and as a frame
    api.py             history(), History, diff(), prune, run references (last~1)
    views_lookup.py    the views, found by name
    views.py           History and RunDiff as text and HTML, the chart (a layer up)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import History, diff, history
    from .record import RunRecord
    from .run_diff import RunDiff

__all__ = ["History", "RunDiff", "RunRecord", "diff", "history"]

_WHERE = {
    "History": "api",
    "RunDiff": "run_diff",
    "RunRecord": "record",
    "diff": "api",
    "history": "api",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'skynet_jupyter.runlog' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
