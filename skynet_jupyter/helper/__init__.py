"""The ``skynet`` module metric code imports: ``from skynet import llm, reward,
observation, service_cost``.

Modules::

    skynet.py  the module itself: ``import skynet`` gives this very file
"""
