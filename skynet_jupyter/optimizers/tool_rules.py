"""The rules every optimizer tool keeps (``optimize``, ``race``, ``align``), written once.

Issue 43 asks each rule to hold on every path.  The engine keeps them for one
run of cases; a tool makes many runs (GEPA's minibatches, a race's metrics and
seeds, the referee's held-out scoring, align's first pass), and these are the
rules between them, which the three tools go through:

- **A configuration problem stops the tool** (rule 1).  A run that stopped for a
  model's key, missing or refused, or for no model (the engine's
  ``CheckReport.stop``, a :class:`RunStop`) ends the tool at once: the adapter
  raises :class:`ToolStopped` out of GEPA's loop (:func:`stop_if_the_run_stopped`),
  no further iteration, metric, seed or run starts, and the tool's report keeps
  the stop as ``.stop``.  Its head is then ``stop.sentence``, with no verdict: the
  metric is not to blame.  A reflection model whose key is missing or refused is
  one too (:func:`reflection_stop`); it is asked once, never again in that call.
- **Nothing finished is lost** (rule 3).  An exception that leaves a tool (a
  listener that raised, an executor that failed) carries the tool's own partial
  report as ``.skynet_report`` (:func:`keeping_partial`), in place of the report of
  the engine's run that was under way, with every finished run in it.
- **Money** (rule 5).  Where the race splits its ``max_cost``, every run gets the
  same share, fixed before the first run, with the referee's scoring kept apart
  (:func:`split_max_cost`); a tool that went past its ``max_cost`` says by how
  much and why (:func:`past_max_cost`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..core.dataset import Case
from ..core.report import MODEL_KEY, NO_MODEL, CheckReport, RunStop
from ..i18n import t
from ..show.formats import fmt_usd

__all__ = [
    "STOPPED_BY_ERROR",
    "ToolStopped",
    "keeping_partial",
    "past_max_cost",
    "reflection_stop",
    "run_stop",
    "split_max_cost",
    "stop_if_the_run_stopped",
]

# A report's ``stopped`` when an exception ended its tool (it rides on the exception).
STOPPED_BY_ERROR = "error"

# Money is compared with this much slack: a sum of float prices is not exact.
_CENT_SLACK = 1e-9


class ToolStopped(Exception):
    """A run of the tool stopped for a configuration problem: the tool stops too.

    Raised from an adapter's evaluation inside GEPA's loop (GEPA raises what its
    adapter raises), and caught by the tool, which keeps ``stop`` on its report.
    It never leaves a tool.
    """

    def __init__(self, stop: RunStop) -> None:
        super().__init__(stop.sentence)
        self.stop = stop


def run_stop(report: CheckReport, batch: Sequence[Case] | None = None) -> RunStop | None:
    """Why the engine's run stopped before its last case (None: it did not), its case
    numbered as the tool numbers it: ``batch`` are the cases the run was given, when
    the run numbered them by their place in it (GEPA's minibatches are)."""
    stop = report.stop
    if stop is None or batch is None or stop.case is None or not 0 <= stop.case < len(batch):
        return stop
    return RunStop(stop.kind, batch[stop.case].index, stop.sentence)


def stop_if_the_run_stopped(report: CheckReport, batch: Sequence[Case] | None = None) -> None:
    """Raise :class:`ToolStopped` when the engine's run stopped for a configuration problem."""
    stop = run_stop(report, batch)
    if stop is not None:
        raise ToolStopped(stop)


def reflection_stop(error: BaseException | None, lang: str) -> RunStop | None:
    """The reflection model's failure as a stop, when it is a configuration problem (its key
    missing or refused, no model): GEPA can write nothing, whatever the metric says."""
    from ..models.credentials import ModelKeyProblem
    from ..models.settings import ModelNotConfigured

    if isinstance(error, ModelKeyProblem):
        return RunStop(MODEL_KEY, None, error.sentence(lang))
    if isinstance(error, ModelNotConfigured):
        return RunStop(NO_MODEL, None, str(error))
    return None


# --- rule 3: the partial report rides on the exception ---------------------------------


@contextlib.contextmanager
def keeping_partial(report: Callable[[], Any]) -> Iterator[None]:
    """Any exception leaving the block carries ``report()`` (the tool's report so far) as
    ``.skynet_report``, replacing the engine's report of the run that was under way."""
    try:
        yield
    except Exception as error:
        keep_partial(error, report())
        raise


def keep_partial(error: BaseException, report: Any) -> None:
    """Put ``report`` on ``error`` as ``.skynet_report``, marked as ended by it, and say so."""
    _mark_ended(report)
    # An exception type that refuses new attributes is raised as it is: the error itself
    # is what the caller must see.
    with contextlib.suppress(AttributeError, TypeError):
        error.skynet_report = report  # type: ignore[attr-defined]
        notes = getattr(error, "__notes__", None)
        if isinstance(notes, list):  # the engine's (or an inner tool's) note names its own
            notes[:] = [note for note in notes if ".skynet_report" not in str(note)]
        tool = type(report).__name__
        error.add_note(t("tool.partial_report", getattr(report, "lang", None), report=tool))


def _mark_ended(report: Any) -> None:
    """The report is no longer running: ended by the error (unless it had ended already)."""
    ended = getattr(report, "optimization", None)  # an alignment ends with its GEPA run
    for part in (report, ended):
        if part is None or part.finished:  # a listener that raised at "finished": it had
            continue
        fields = getattr(part, "__dataclass_fields__", {})
        if "stopped" in fields and part.stopped is None:  # AlignReport's is its GEPA run's
            part.stopped = STOPPED_BY_ERROR
        part.finished = True


# --- rule 5: money --------------------------------------------------------------------------


def split_max_cost(max_cost: float | None, runs: int, kept_apart: float = 0.0) -> float | None:
    """Each of ``runs`` runs' equal share of ``max_cost``, once ``kept_apart`` (money the
    tool needs besides the runs: the referee's held-out scoring) is set aside; None
    without a ``max_cost``, 0 when nothing is left for the runs."""
    if max_cost is None or runs < 1:
        return None
    return max(0.0, max_cost - kept_apart) / runs


def past_max_cost(spent: float, max_cost: float | None, lang: str, why: str) -> str | None:
    """The sentence a tool says when it spent more than ``max_cost``: by how much, and
    ``why`` (a sentence of the tool's own); None when it stayed within it."""
    if max_cost is None or spent <= max_cost * (1 + _CENT_SLACK):
        return None
    return t(
        "tool.past_max_cost",
        lang,
        spent=fmt_usd(spent, lang),
        max_cost=fmt_usd(max_cost, lang),
        past=fmt_usd(spent - max_cost, lang),
        why=why,
    )
