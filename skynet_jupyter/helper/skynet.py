"""The ``skynet`` helper module: ``llm``, ``reward``, ``observation``, ``service_cost``.

Metric code does ``from skynet import llm, reward, observation, service_cost``:
``import skynet`` gives this very module (``sys.modules["skynet"]`` is
``skynet_jupyter.helper.skynet``, installed by ``core/skynet_import.py``), so
tracebacks and editors show this file.  Inside a check those names read the
current case's context (``case_context.current_case``, set by the engine in
the thread that runs the case): ``llm()`` called from ``run(artifact, input)``
goes to the task model and counts toward the run's cost; called from the
metric it goes to the metric model (default: the reflection model) and counts
apart, as the judge's cost.  With a run cache (``RunCache``) a litellm call
already made is answered from it, with the time, tokens and cost it had.

This module's namespace *is* the ``skynet`` module users see: it holds the
helpers and little else.
"""

from __future__ import annotations

import time as _time
from typing import Any

from ..core.observation import NOT_MEASURED, Observation
from ..core.reward import RewardSpec, feedback_with_notes, unmeasured_notes
from ..models.case_context import METRIC, current_case
from ..models.credentials import ModelKeyProblem
from ..models.settings import ModelNotConfigured, current_settings

__all__ = ["Observation", "llm", "observation", "reward", "service_cost"]

__skynet_jupyter__ = True  # provided by skynet_jupyter, not a real Skynet install


def llm(instructions: str, input: Any = None, **options: Any) -> str:
    """Ask a model: the task model inside ``run``, the metric model inside ``score``.

    ``instructions`` are the system message, ``input`` the user message (data is
    sent as JSON).  ``options`` (``temperature=0``, ``max_tokens=...``,
    ``num_retries=...``) go to litellm.  Returns the model's text.  Outside a
    check, the task model answers (the metric model when no task model is set).
    A provider error raises ``ModelCallError`` with the provider's message
    (secrets redacted).
    """
    from ..models import llm as _llm  # litellm itself is imported at the first litellm call

    ctx = current_case.get()
    settings = ctx.models if ctx is not None else current_settings()
    judging = ctx is not None and ctx.phase == METRIC
    model = settings.judge_model if judging else settings.task_model
    if model is None and ctx is None:
        # Outside a check (a metric's own unit test, say) any configured model answers.
        model = settings.judge_model
    if model is None:
        raise ModelNotConfigured("metric" if judging else "task")
    usage = None if ctx is None else ctx.usage(judging)
    cache = None if ctx is None else ctx.call_cache
    started = _time.perf_counter()
    try:
        if cache is None:
            reply = _llm.complete(model, instructions, input, **options)
        else:
            reuse = cache.judge_reads if judging else cache.reads
            reply = _llm.complete(
                model, instructions, input, call_cache=cache, reuse=reuse, **options
            )
    except ModelKeyProblem as problem:  # a configuration problem of this role's model
        problem.role = "metric" if judging else "task"
        raise
    except _llm.ModelCallError as error:
        if usage is not None:
            usage.retries += error.retries
            if error.kind == "Timeout":
                usage.cost_known = False  # the provider may have done, and billed, the work
        raise
    if usage is not None:
        _count(usage, reply, started)
    return reply.text


def _count(usage: Any, reply: Any, started: float) -> None:
    """Add one reply to the case's usage of this role's model."""
    usage.add(reply.input_tokens, reply.output_tokens, reply.cost_usd)
    if not reply.cached:
        usage.add_paid(reply.cost_usd)
    # litellm's import, at a process's first call, is not the model's time: left out.
    usage.replayed_ms -= reply.setup_ms
    usage.setup_ms += reply.setup_ms
    usage.retries += reply.retries
    if reply.stand_in:
        usage.stand_in_calls += 1
    if reply.cached and reply.latency_ms is not None:
        # Counted as if asked now: the call's time then, instead of the look-up's.
        usage.cached_calls += 1
        usage.replayed_ms += reply.latency_ms - (_time.perf_counter() - started) * 1000.0


def observation() -> Observation:
    """The current case's measurements (all "not measured" outside a check)."""
    ctx = current_case.get()
    return NOT_MEASURED if ctx is None else ctx.observation


def service_cost() -> float | None:
    """The US-dollar cost of the model calls made by this case's run, or None."""
    return observation().cost_usd


def reward(
    spec: Any, accuracy: float, feedback: str = "", *, scores: dict[str, float] | None = None
) -> tuple[float, dict[str, Any]]:
    """Blend ``accuracy`` with the case's measured speed and cost per ``spec``.

    Returns what ``score`` should return: the weighted reward and side
    information whose ``"scores"`` hold the three 0..1 components (plus any
    extra named ``scores``).  A part that was not measured scores 0, and a sentence
    saying so follows the feedback (kept as written) as a paragraph of its own.
    """
    parsed = RewardSpec.from_argument(spec)
    value = parsed.check_accuracy(accuracy)
    seen = observation()
    parts = parsed.parts(value, seen.run_ms, seen.cost_usd)
    # The feedback as written; what was not measured, a paragraph of its own after it.
    text = feedback_with_notes(str(feedback), unmeasured_notes(parsed, parts))
    named = dict(scores or {})
    named.update(accuracy=parts.accuracy, speed=parts.speed, cost=parts.cost)
    return parts.value, {"feedback": text, "scores": named}
