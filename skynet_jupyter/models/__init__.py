"""Calling models: which model answers ``llm()`` and how it is asked.

Modules::

    settings.py      configure(), the environment and %config: the settings in force
    llm.py           one model call: litellm or a callable; ModelReply, ModelCallError
    rate_limit.py    one rate limiter per model endpoint, shared by every thread
    stand_in.py      StandInModel, the offline stand-in model
    case_context.py  the current case: its models, phase (run or metric) and usage
    call_cache.py    model calls kept by their request (memory and file): CallCache
    call_store.py    those replies on disk: one sqlite file, shared by processes
    model_names.py   what counts as a model, and its secret-free name in messages
    credentials.py   a model's API key, missing or refused: one sentence, never retried
    call_error.py    ModelCallError: a call that failed at the provider (home: llm)
    litellm_import.py  litellm imported once, warmed up; the offline price map said once
    import_ahead.py  litellm imported in the background once a litellm model is set
    first_contact.py a model's key tried once per run: a refused key is not sent again
    shared_refusals.py  a provider's 429s shared by a run's worker processes
    carried.py       keys set on litellm in Python, carried to worker processes
"""
