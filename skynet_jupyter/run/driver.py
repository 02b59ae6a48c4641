"""One driver for every way of running cases: threads, processes, any executor, Dask.

Each backend knows how to start cases, collect the finished ones and cancel
(:class:`Backend`); what a run does around them is here, once: the events
handed to the caller's listener, a listener that raises
(:class:`StoppedByListener`), Ctrl-C (the cases that finished are kept), a
provider that refused every request (no further case starts; the cases left
say the provider's sentence), the cases nobody ran, and the final order.
Before this module each backend had its own loop, and they drifted: an
executor run did not stop for a refusing provider (issue 34).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..core.contract import METRIC_RETURN_VALUE, RUN_FUNCTION
from ..core.dataset import NO_OUTPUT, Case
from ..core.report import CaseResult

TICK = 0.1  # how often a backend's wait wakes: bounds event latency and Ctrl-C's delay

OnResult = Callable[[list[int], list[CaseResult]], None]


class StoppedByListener(Exception):
    """The ``on_result`` listener raised: the run stopped; ``results`` are the finished cases.

    ``error`` is what the listener raised (also the ``__cause__``); ``interrupted``
    is True when Ctrl-C came while the calls in flight were finishing.
    """

    def __init__(
        self, error: BaseException, results: list[CaseResult], interrupted: bool = False
    ) -> None:
        super().__init__(f"the event listener raised {type(error).__name__}")
        self.error = error
        self.results = results
        self.interrupted = interrupted


@dataclass(slots=True)
class Batch:
    """What one look at a backend found: cases started, cases finished, and whether it is over."""

    started: list[int] = field(default_factory=list)
    finished: list[CaseResult] = field(default_factory=list)
    over: bool = False


@dataclass(frozen=True, slots=True)
class NotRun:
    """Why the cases nobody ran were not run: the step they fail at, the sentence, the fix."""

    step: str
    reason: str
    hint_id: str | None = None


class Backend(Protocol):
    """Where cases run: a pool of watched threads, worker processes, an executor."""

    @property
    def provider_stop(self) -> str | None:
        """Set (from any thread) when a provider refused every request: its sentence."""
        ...

    def start(self) -> None:
        """Start the first workers: inside the run, so a Ctrl-C while they start is the
        run's, like any other."""
        ...

    def collect(self) -> Batch:
        """Start what may start, wait up to ``TICK``, and hand over what happened."""
        ...

    def stop_starting(self) -> None:
        """No further case starts (the listener failed, a provider refused everything);
        the cases in flight finish."""
        ...

    def cancel(self) -> list[CaseResult]:
        """Ctrl-C: stop everything now; the results that finished and were not collected."""
        ...

    def left_over(self) -> list[Case]:
        """The cases no worker took (once the run is over)."""
        ...

    def not_run(self, provider: NotRun | None) -> NotRun | None:
        """Why the cases left over did not run, ``provider``'s stop among this backend's
        own reasons (in the order this backend ranks them)."""
        ...

    def in_order(self) -> bool:
        """Whether the results came in case order (no sort needed: the hot path)."""
        ...

    def finish(self, results: list[CaseResult]) -> None:
        """Last touches on the results, once the run is over (threads: name a forked case)."""
        ...

    def close(self) -> None:
        """Release what the backend holds (processes, futures); called however the run ends."""
        ...


def failing_step(runner: object) -> str:
    """The step a case that never ran fails at: the run step if there is a run function."""
    return RUN_FUNCTION if getattr(runner, "run", None) is not None else METRIC_RETURN_VALUE


def not_run_result(case: Case, step: str, reason: str, hint_id: str | None = None) -> CaseResult:
    """The result of a case that was never started, saying why (``hint_id``: its own fix)."""
    result = CaseResult(case.index, case.input, case.expected, failed_step=step, error=reason)
    if hint_id is not None:  # not the step's fix: this case's code never ran
        result.hint_id = hint_id
    if case.output is not NO_OUTPUT:
        result.output = case.output
    return result


class _Listener:
    """The caller's ``on_result``: once it raises, it is never called again."""

    __slots__ = ("error", "on_result")

    def __init__(self, on_result: OnResult | None) -> None:
        self.on_result = on_result
        self.error: BaseException | None = None

    def tell(self, batch: Batch) -> bool:
        """Hand ``batch`` on; False when the listener raised just now (Ctrl-C passes through)."""
        on_result = self.on_result
        if on_result is None or not (batch.started or batch.finished):
            return True
        try:
            on_result(batch.started, batch.finished)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            self.error, self.on_result = exc, None
            return False
        return True


def drive(
    backend: Backend, cases: Sequence[Case], runner: object, on_result: OnResult | None
) -> tuple[list[CaseResult], bool]:
    """Run ``cases`` on ``backend``: (results in case order, interrupted).

    Raises :class:`StoppedByListener` (with the results) when ``on_result`` raised.
    ``runner`` names the step the cases left over fail at (:func:`failing_step`).
    """
    listener = _Listener(on_result)
    results: list[CaseResult] = []
    interrupted = False
    try:
        backend.start()
        _loop(backend, listener, results)
    except KeyboardInterrupt:
        interrupted = True
        results.extend(backend.cancel())
    finally:
        backend.close()
    if not interrupted and listener.error is None:
        results += _left_over(backend, runner)
    backend.finish(results)
    if interrupted or len(results) != len(cases) or not backend.in_order():
        order = {case.index: position for position, case in enumerate(cases)}
        results.sort(key=lambda r: order[r.index])
    if listener.error is not None:
        raise StoppedByListener(listener.error, results, interrupted) from listener.error
    return results, interrupted


def _loop(backend: Backend, listener: _Listener, results: list[CaseResult]) -> None:
    stopped = False
    while True:
        batch = backend.collect()
        results.extend(batch.finished)
        told = listener.tell(batch)
        if not stopped and (not told or backend.provider_stop is not None):
            stopped = True
            backend.stop_starting()  # the cases in flight finish (or time out)
        if batch.over:
            return


def _left_over(backend: Backend, runner: object) -> list[CaseResult]:
    """The cases nobody ran, each saying why (nothing when every case ran)."""
    left = backend.left_over()
    if not left:
        return []
    provider = None
    if backend.provider_stop is not None:
        provider = NotRun(failing_step(runner), backend.provider_stop, "hint.provider_refused")
    why = backend.not_run(provider)
    if why is None:  # no reason known: the engine's accounting says they were lost
        return []
    return [not_run_result(case, why.step, why.reason, why.hint_id) for case in left]
