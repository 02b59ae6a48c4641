"""Is my metric any good?  Measurements beyond the contract check.

- ``probe``: gaming probes (synthetic outputs a good metric must rank low);
- ``stability``: the same outputs scored ``repeats`` times (does the judge flip?);
- ``agreement``: the scores beside a column of human labels;
- ``compare``: two metrics, or two versions of one, on the same outputs.

Plain Python on the engine (``run.engine.execute``): no IPython, no ipywidgets.
Each report shows itself as text and HTML; the magics add a live view.  Each
measurement has a twin taking options already checked (``probe_with``, ...),
which the magics use.

Modules::

    probe.py      gaming probes and their findings: ProbeReport
    stability.py  the same outputs scored again and again: StabilityReport
    agreement.py  scores beside human labels: AgreementReport
    compare.py    two metrics on the same outputs: CompareReport
    _scoring.py   what the four share: scoring known outputs, phases, events
    _show.py      what the four reports share: their text and HTML pages
"""

from __future__ import annotations

from ._scoring import MetricNotUsable, Phase, QualityFinished
from .agreement import AgreementReport, Disagreement, agreement
from .compare import CompareReport, compare
from .probe import PROBES, Finding, ProbeReport, probe
from .stability import StabilityReport, stability

__all__ = [
    "PROBES",
    "AgreementReport",
    "CompareReport",
    "Disagreement",
    "Finding",
    "MetricNotUsable",
    "Phase",
    "ProbeReport",
    "QualityFinished",
    "StabilityReport",
    "agreement",
    "compare",
    "probe",
    "stability",
]
