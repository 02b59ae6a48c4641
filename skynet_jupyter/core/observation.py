"""What was measured for a case's run: :class:`Observation`, read by ``observation()``."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NOT_MEASURED", "Observation"]


@dataclass(frozen=True, slots=True)
class Observation:
    """What was measured for the current case's ``run(artifact, input)`` call.

    ``None`` means "not measured": no run function (outputs came from the
    data), or a model call whose price is unknown (for ``cost_usd``).
    """

    run_ms: float | None = None
    cost_usd: float | None = None
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    retries: int = 0  # rate-limit answers retried during the run
    stand_in_calls: int = 0  # model calls an offline stand-in answered
    cached_calls: int = 0  # model calls answered from the call cache (counted as made now)

    @property
    def all_cached(self) -> bool:
        """Every model call of the run was answered from the call cache (and there was one)."""
        return self.model_calls > 0 and self.cached_calls == self.model_calls


NOT_MEASURED = Observation()
