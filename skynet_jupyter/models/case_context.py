"""The current case's context: what ``skynet.llm()`` and ``observation()`` read.

The engine sets :data:`current_case` (a ContextVar) in the thread that runs a
case; the helpers in :mod:`skynet_jupyter.helper.skynet` read it: which
models answer (the case carries them, so Dask workers see the same ones),
whether the run or the metric is calling (``RUN`` / ``METRIC``), and the usage
each phase adds up.  :class:`Observation` is what the run's measurements look
like to the metric.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from ..core.model_settings import ModelSettings
from ..core.observation import NOT_MEASURED, Observation

if TYPE_CHECKING:
    from .call_cache import CallCache
    from .first_contact import FirstContact

__all__ = [
    "METRIC",
    "NOT_MEASURED",
    "RUN",
    "CaseContext",
    "Usage",
    "current_case",
]

RUN = "run"
METRIC = "metric"


class Usage:
    """Model usage added up during one phase of one case (engine-owned, mutable).

    ``retries``: rate-limit (429) answers retried, plus, for a call that failed,
    the retries litellm made before giving up.  ``cached_calls``: calls answered
    from the call cache; ``replayed_ms``: what they took when they were made,
    less the look-up time (so the run's time is what it would be now).
    """

    __slots__ = (
        "cached_calls",
        "calls",
        "cost_known",
        "cost_usd",
        "input_tokens",
        "output_tokens",
        "paid_known",
        "paid_usd",
        "replayed_ms",
        "retries",
        "setup_ms",
        "stand_in_calls",
    )

    def __init__(self) -> None:
        self.calls = 0
        self.cached_calls = 0
        self.replayed_ms = 0.0
        self.setup_ms = 0.0  # litellm's one-time import inside this phase: not its time
        self.retries = 0
        self.stand_in_calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.cost_usd = 0.0
        self.cost_known = True
        self.paid_usd = 0.0  # the calls made now, not answered from the call cache
        self.paid_known = True

    def add(self, input_tokens: int, output_tokens: int, cost_usd: float | None) -> None:
        self.calls += 1
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens
        if cost_usd is None:
            self.cost_known = False
        else:
            self.cost_usd += cost_usd

    @property
    def cost(self) -> float | None:
        return self.cost_usd if self.cost_known else None

    def add_paid(self, cost_usd: float | None) -> None:
        """One call made now (not a cache hit): what it cost this run."""
        if cost_usd is None:
            self.paid_known = False
        else:
            self.paid_usd += cost_usd

    @property
    def paid(self) -> float | None:
        """What this phase's calls cost now (a cache hit is free); None: a price unknown."""
        return self.paid_usd if self.paid_known else None

    def observation(self, run_ms: float) -> Observation:
        """This usage as what ``observation()`` tells the metric, for a run of ``run_ms``.

        A cached reply counts the time its call took when it was made.
        """
        return Observation(
            run_ms=max(run_ms + self.replayed_ms, 0.0),
            cost_usd=self.cost,
            model_calls=self.calls,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            retries=self.retries,
            stand_in_calls=self.stand_in_calls,
            cached_calls=self.cached_calls,
        )


class CaseContext:
    """The per-case state that the helper functions read (engine-owned).

    A worker thread keeps one and calls :meth:`start` for each case: cheaper
    than a new context (and a ContextVar switch) per case.  Usage records are
    made on the first model call of a phase: most cases make none.
    """

    __slots__ = (
        "call_cache",
        "first_contact",
        "hold_clock",
        "judge_usage",
        "models",
        "observation",
        "phase",
        "run_usage",
        "stop_run",
    )

    def __init__(
        self, models: ModelSettings, phase: str = RUN, call_cache: CallCache | None = None
    ) -> None:
        self.models = models
        self.call_cache = call_cache  # where llm() looks a call up first (None: no cache)
        # Set by the run's workers: stop_run(sentence) starts no further case, and the
        # cases left say the sentence (a provider that refuses every request).
        self.stop_run: Callable[[str], None] | None = None
        # Set by the run's workers: with hold_clock(): ... stops the phase's time limit
        # meanwhile (litellm's one-time import at a call the cache could not answer).
        self.hold_clock: Callable[[], AbstractContextManager[None]] | None = None
        # Set by the engine for a run: a model's key is tried once (``first_contact``).
        self.first_contact: FirstContact | None = None
        self.start(phase)

    def start(self, phase: str = RUN) -> None:
        """Forget the previous case.

        ``CaseRunner.score_case`` skips the call when the usages are None and the
        observation is NOT_MEASURED (nothing to forget): a field reset here must be
        looked at there too.
        """
        self.phase = phase
        self.run_usage: Usage | None = None
        self.judge_usage: Usage | None = None
        self.observation = NOT_MEASURED

    def usage(self, judging: bool) -> Usage:
        """The usage record of the judge's or the run's calls (made on first use)."""
        if judging:
            if self.judge_usage is None:
                self.judge_usage = Usage()
            return self.judge_usage
        if self.run_usage is None:
            self.run_usage = Usage()
        return self.run_usage


current_case: ContextVar[CaseContext | None] = ContextVar("skynet_case", default=None)
"""The case running in this thread (None outside a check)."""
