"""Running cases: the engine behind check, evaluate and every measurement.

Modules::

    engine.py     check, evaluate, execute (known outputs too), execute_cases: cases,
                  limits, counting, events
    one_case.py   one case, the hot path (never raises): CaseRunner
    workers.py    watched threads: a case past its limit is abandoned, named
    isolation.py  worker processes, killed when a case runs past its limit
    executors.py  cases on any executor: process pools, Dask
    cache.py      run outputs on disk (sqlite)
"""
