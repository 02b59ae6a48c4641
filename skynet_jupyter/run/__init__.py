"""Running cases: the engine behind check, evaluate and every measurement.

Modules::

    engine.py     check, evaluate, execute (known outputs too), execute_cases: cases,
                  limits, counting, events; RunCache (the model-call cache's name here)
    one_case.py   one case, the hot path (never raises): CaseRunner
    driver.py     the one loop over every backend: events, a failing listener, Ctrl-C,
                  a provider that refuses everything, cases left over, the order
    workers.py    watched threads: a case past its limit is abandoned, named
    isolation.py  worker processes, killed when a case runs past its limit
    warm_start.py the warm starter: worker processes forked from a process that has
                  already imported what a case needs (litellm too)
    forks.py      a worker's copy made by os.fork in a case: stopped, the case named
    lifeline.py   helper processes end with their parent, and their process group too
    executors.py  cases on any executor: process pools, Dask
"""
