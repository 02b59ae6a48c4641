"""The optimizer preview on the real GEPA, and the DSPy adapter.

Modules::

    optimize.py      optimize(): GEPA on a metric, with a budget and a cost limit
    gepa_adapter.py  to_gepa_adapter: a metric as a GEPA adapter
    dspy_adapter.py  to_dspy_metric, from_dspy_program (optional extra)
    dspy_metric.py   from_dspy_metric: a DSPy/GEPA metric as a Skynet metric
    report.py        OptimizeReport: what it found
    render.py        the optimizer's report as text and HTML
    race.py          race(): metrics raced through GEPA, judged on held-out cases
    race_report.py   RaceReport: the runs, the standings and the verdict
    race_render.py   the race's report as text and HTML, and its chart
    tool_rules.py    the run rules kept by optimize, race and align: a stop, a partial report
"""
