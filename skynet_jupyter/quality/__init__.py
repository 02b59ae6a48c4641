"""Is my metric any good?  Measurements beyond the contract check.

- ``probe``: gaming probes (synthetic outputs a good metric must rank low);
- ``stability``: the same outputs scored ``repeats`` times (does the judge flip?);
- ``agreement``: the scores beside a column of human labels;
- ``compare``: two metrics, or two versions of one, on the same outputs.

Plain Python on the engine (``evaluate``): no IPython, no ipywidgets.  Each
report shows itself as text and HTML; the magics add a live view.
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
