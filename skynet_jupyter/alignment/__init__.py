"""Judge alignment: GEPA rewrites an LLM judge's instructions until it agrees with people.

Built on both layers below it: ``quality``'s agreement with human labels (the
measures, the disagreements) and ``optimizers``' drive of the real GEPA (the
recorder, the stops, the reflection model, the proposals view).

Modules::

    align.py          align(): the labelled cases judged, split, and GEPA run on them
    judge_prompt.py   the judge's instructions in the metric's source: found, replaced
    judge_adapter.py  the judge as GEPA reads it: agreement with people, disagreements
    report.py         AlignReport: held-out agreement before and after, save()
    render.py         the alignment's report as text and HTML
"""
