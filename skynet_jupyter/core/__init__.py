"""The core: what a metric is and what a run of it means. Pure: no IPython, no
threads, no model calls; every other layer builds on it.

Modules::

    contract.py        validate_return: the metric's return-value table; ContractError
    metric.py          Metric and load_metric: a metric file or cell, loaded as Skynet loads it
    reward.py          RewardSpec and the reward's math (accuracy, speed, cost)
    dataset.py         load_cases: cases from frames, files and lists; Case
    plain_csv.py       CSV/TSV rows read as pandas reads them, without importing pandas
    errors.py          DataError: the data cannot give cases
    options.py         RunOptions and Limits: every option of a run, checked once
    keywords.py        the run keywords declared once (TypedDicts), with each function's defaults
    probe_ids.py       PROBES: the gaming probes' ids (the help lists them at %load_ext)
    model_settings.py  ModelSettings: which model answers in the run and in the metric
    observation.py     Observation: what was measured for a case's run
    report.py          CaseResult, Step, CheckReport, EvalReport: what a run found
    compact_record.py  @compact_record: CaseResult's fields declared once, compact
    advice.py          advice on feedback text (what the optimizer will read)
    json_export.py     cases and values as plain JSON, secrets redacted
    secrets.py         redaction: no key, token or password is ever shown
    saving.py          save_source: a metric's source written atomically, never over another
    shows_itself.py    ShowsItself: how every report shows itself (text, HTML)
    inert_text.py      user text shown to a terminal, never obeyed: controls escaped
    tracebacks.py      tracebacks trimmed to the user's own frames
    skynet_import.py   the `import skynet` hook (metric code imports the helper module)
"""
