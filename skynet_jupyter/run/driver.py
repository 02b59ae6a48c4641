"""One driver for every way of running cases: threads, processes, any executor, Dask.

Each backend knows how to start cases, collect the finished ones and cancel
(:class:`Backend`); what a run does around them is here, once, for every backend:

- the events handed to the caller's listener; a listener that raises stops the
  run and the finished cases ride on :class:`StoppedByListener`;
- a backend that fails (an executor whose worker died, a cluster that went
  away) stops the run the same way: the finished cases ride on
  :class:`BackendFailed`, never lost;
- Ctrl-C: the cases that finished are kept, the run is marked interrupted;
- a configuration problem every case would meet (a model's key missing or
  refused, no model set, a provider refusing every request: :class:`RunStop`)
  stops the run at the first case that finds it: no further case starts, and
  every case not run says so, naming that case;
- the cases nobody ran, and the final order.

Before this module each backend had its own loop, and they drifted: an
executor run did not stop for a refusing provider (issue 34), nor a process
run for a refused key (issue 43).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from ..core.contract import METRIC_RETURN_VALUE, NO_MODEL_HINTS, RUN_FUNCTION
from ..core.dataset import NO_OUTPUT, Case
from ..core.report import MODEL_KEY, NO_MODEL, PROVIDER_REFUSED, CaseResult, RunStop
from ..i18n import current_lang, t
from .one_case import MODEL_KEY_HINT

TICK = 0.1  # how often a backend's wait wakes: bounds event latency and Ctrl-C's delay

OnResult = Callable[[list[int], list[CaseResult]], None]

PROVIDER_HINT = "hint.provider_refused"
_STOPPING_HINTS = frozenset((*NO_MODEL_HINTS.values(), MODEL_KEY_HINT))


def stops_the_run(result: CaseResult) -> bool:
    """Whether no further case should start after ``result``: it found no model set, or
    the model's key missing or refused (every other case would fail the same way)."""
    return result.failed_step is not None and result.hint_id in _STOPPING_HINTS


class StoppedEarly(Exception):
    """The run stopped before its end for a reason outside the cases; ``results`` are the
    cases that finished (in case order), ``error`` what stopped it (also the ``__cause__``),
    ``interrupted`` True when Ctrl-C came while the calls in flight were finishing."""

    def __init__(
        self, error: BaseException, results: list[CaseResult], interrupted: bool = False
    ) -> None:
        super().__init__(f"the run stopped: {type(error).__name__}")
        self.error = error
        self.results = results
        self.interrupted = interrupted


class StoppedByListener(StoppedEarly):
    """The ``on_result`` listener raised: no new case started, the cases in flight finished."""


class BackendFailed(StoppedEarly):
    """The backend itself failed (an executor's worker died, a cluster went away)."""


class Driven(NamedTuple):
    """What a run gives back: the results in case order, whether Ctrl-C stopped it, and
    why it stopped early, if a configuration problem did (:class:`RunStop`)."""

    results: list[CaseResult]
    interrupted: bool
    stop: RunStop | None = None


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
        """Start what may start, wait up to ``TICK``, and hand over what happened.

        An exception raised here is the backend failing: the run stops, keeping what
        finished (:class:`BackendFailed`)."""
        ...

    def stop_starting(self) -> None:
        """No further case starts (the listener failed, a configuration problem); the
        cases in flight finish."""
        ...

    def cancel(self) -> list[CaseResult]:
        """Ctrl-C, or the backend failed: stop everything now; the results that finished
        and were not collected."""
        ...

    def left_over(self) -> list[Case]:
        """The cases no worker took (once the run is over)."""
        ...

    def not_run(self, stop: NotRun | None) -> NotRun | None:
        """Why the cases left over did not run: the run's ``stop`` among this backend's
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


class _Stop:
    """The run-level stop rule, applied to every finished case whatever ran it.

    The first case that finds a configuration problem (:func:`stops_the_run`) stops
    the run; a provider that refused every request stops it too.  Once stopped, the
    cases not run say so and name that case; so do the cases in flight that met the
    same problem without asking the provider (the same missing key, or a key the
    first case's request found refused: the model layer sends a refused key once).
    """

    __slots__ = ("by", "lang", "not_sent", "provider")

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.by: CaseResult | None = None  # the case that found the problem
        self.not_sent: CaseResult | None = None  # a case that met a key refused before
        self.provider: str | None = None  # the sentence of a provider refusing everything

    def see(self, finished: list[CaseResult], backend: Backend) -> bool:
        """Look at a batch's finished cases; True once the run is to stop."""
        if self.by is None:
            for result in finished:
                if result.failed_step is None or not stops_the_run(result):
                    continue
                if result.error == t("case.model_key_not_sent", self.lang):
                    # Another case's request found the key refused: its result names it.
                    self.not_sent = self.not_sent or result
                    continue
                self.by = result
                break
        if self.provider is None:
            self.provider = backend.provider_stop
        return self.by is not None or self.not_sent is not None or self.provider is not None

    def settle(self) -> None:
        """Once the run is over: the case that found the problem, even when only the
        cases that met it after (a key refused before) came back (its own run caught
        the error, say)."""
        if self.by is None and self.not_sent is not None:
            self.by = self.not_sent

    def run_stop(self) -> RunStop | None:
        by = self.by
        if by is not None:
            kind = MODEL_KEY if by.hint_id == MODEL_KEY_HINT else NO_MODEL
            return RunStop(kind, by.index, by.error or "")
        if self.provider is not None:
            return RunStop(PROVIDER_REFUSED, None, self.provider)
        return None

    def not_run(self, runner: object) -> NotRun | None:
        """Why the cases left over were not run, when the run stopped."""
        by = self.by
        if by is not None:
            said = (
                "case.not_run_model_key"
                if by.hint_id == MODEL_KEY_HINT
                else "case.not_run_no_model"
            )
            step = by.failed_step or failing_step(runner)
            return NotRun(step, t(said, self.lang, case=by.index), by.hint_id)
        if self.provider is not None:
            return NotRun(failing_step(runner), self.provider, PROVIDER_HINT)
        return None

    def name_the_first(self, results: list[CaseResult], why: NotRun | None) -> None:
        """The cases that met the stopping problem without asking anyone name the case
        that found it (the same sentence, or the refused key not sent again)."""
        by = self.by
        if by is None or why is None:
            return
        not_sent = t("case.model_key_not_sent", self.lang)
        for result in results:
            if result is by or not stops_the_run(result):
                continue
            if result.error == by.error or result.error == not_sent:
                result.error, result.hint_id = why.reason, by.hint_id


def drive(
    backend: Backend,
    cases: Sequence[Case],
    runner: object,
    on_result: OnResult | None,
    *,
    fill_left_over: bool = True,
) -> Driven:
    """Run ``cases`` on ``backend``: the results in case order, interrupted, and the stop.

    Raises :class:`StoppedByListener` (with the results) when ``on_result`` raised,
    :class:`BackendFailed` when the backend did.  ``runner`` names the step the
    cases left over fail at (:func:`failing_step`).  ``fill_left_over=False``
    leaves out the cases not run because of the stop (a chunk of an executor run:
    its caller's run says why, once, for all of them).
    """
    listener = _Listener(on_result)
    stop = _Stop(getattr(runner, "lang", None) or current_lang())
    results: list[CaseResult] = []
    interrupted = False
    failure: BaseException | None = None
    try:
        backend.start()
        failure = _loop(backend, listener, stop, results)
    except KeyboardInterrupt:
        interrupted = True
        results.extend(backend.cancel())
    finally:
        backend.close()
    stop.settle()
    why = stop.not_run(runner)
    if not interrupted and listener.error is None and failure is None:
        results += _left_over(backend, runner, why, fill_left_over)
    stop.name_the_first(results, why)
    backend.finish(results)
    if interrupted or len(results) != len(cases) or not backend.in_order():
        order = {case.index: position for position, case in enumerate(cases)}
        results.sort(key=lambda r: order[r.index])
    if listener.error is not None:
        raise StoppedByListener(listener.error, results, interrupted) from listener.error
    if failure is not None:
        raise BackendFailed(failure, results, interrupted) from failure
    return Driven(results, interrupted, stop.run_stop())


def _loop(
    backend: Backend, listener: _Listener, stop: _Stop, results: list[CaseResult]
) -> BaseException | None:
    """Collect until the backend is over; the exception it failed with, if it did."""
    stopped = False
    while True:
        try:
            batch = backend.collect()
        except Exception as failed:  # the backend, not a case: keep what finished
            results.extend(backend.cancel())
            return failed
        results.extend(batch.finished)
        told = listener.tell(batch)
        stopping = stop.see(batch.finished, backend)
        if not stopped and (not told or stopping):
            stopped = True
            backend.stop_starting()  # the cases in flight finish (or time out)
        if batch.over:
            return None


def _left_over(
    backend: Backend, runner: object, stop: NotRun | None, fill: bool
) -> list[CaseResult]:
    """The cases nobody ran, each saying why (nothing when every case ran)."""
    left = backend.left_over()
    if not left or (stop is not None and not fill):
        return []
    why = backend.not_run(stop)
    if why is None:  # no reason known: the engine's accounting says they were lost
        return []
    return [not_run_result(case, why.step, why.reason, why.hint_id) for case in left]
