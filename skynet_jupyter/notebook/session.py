"""The session: what a magic's work needs from the kernel, as one typed object.

The work behind the magics (``option_groups.run_options``, ``quality_magics``,
``optimize_magic``, ``align_magic``) receives the parsed line and a
:class:`Session`, never the ``Magics`` object, as jupysql's command router
hands each command its arguments and the user namespace: the notebook's
names, the run's language, the models, the run cache, the registered metrics,
the ``%config`` defaults and "show once in this cell".  ``SkynetMagics`` makes
one per magic call (``magics.py``), inside ``with language(...)``.

:func:`call_showing` is the one resolve → view → call skeleton's last two
steps, which every magic shares: the live view is shown at the first event,
closed on any error, and the errors a user can fix end the magic as one
``UsageError`` line, the same in every magic.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from IPython.core.error import UsageError

from ..core.errors import DataError
from ..core.model_settings import ModelSettings
from ..i18n import current_lang, t
from ..models.settings import ModelNotConfigured
from . import names
from .cell_display import CellMark, lazy_show, shown_once

if TYPE_CHECKING:
    from ..core.metric import Metric
    from ..run.engine import RunCache

__all__ = ["LiveDisplay", "Session", "call_showing", "find_metric", "usage_sentence"]

R = TypeVar("R")
Listener = Callable[[Any], None]


class LiveDisplay(Protocol):
    """A magic's live view: shown at its first event, fed the events, closed on an error."""

    def show(self) -> None: ...

    def on_event(self, event: Any) -> None: ...

    def close(self) -> None: ...


class Session:
    """The kernel as a magic's work sees it (made per call by ``SkynetMagics``)."""

    __slots__ = (
        "_cache",
        "_cell",
        "_metrics",
        "_previous",
        "concurrency",
        "global_ns",
        "lang",
        "models",
        "timeout",
        "user_ns",
    )

    def __init__(
        self,
        *,
        user_ns: dict[str, Any],
        global_ns: dict[str, Any] | None,
        lang: str,
        models: ModelSettings,
        run_cache: Callable[[], RunCache],
        metrics: Mapping[str, Metric],
        previous_metrics: Mapping[str, Metric],
        timeout: float,
        concurrency: int,
        cell: Callable[[], CellMark],
    ) -> None:
        self.user_ns = user_ns  # where an option's name is looked up first
        self.global_ns = global_ns  # an expression's globals, as IPython runs a cell
        self.lang = lang  # the run's language, already set by ``language()``
        self.models = models
        self.timeout = timeout  # the %config defaults an option overrides
        self.concurrency = concurrency
        # Called, not held: the cache is made (and the engine imported) at its first use,
        # and the cell's mark is the one open while this cell runs.
        self._cache = run_cache
        self._cell = cell
        self._metrics = metrics
        self._previous = previous_metrics

    # --- the registered metrics ------------------------------------------------------

    def metric(self, text: str | None) -> Metric:
        """The registered metric ``text`` names (quotes allowed); the default one for None."""
        return self.metric_named(names.unquote(text) if text else names.DEFAULT_NAME)

    def metric_named(self, name: str) -> Metric:
        """The metric registered as ``name``, exactly; a usage error naming those there are."""
        return find_metric(self._metrics, name)

    def metric_names(self) -> list[str]:
        """The registered metrics' names, in the order registered."""
        return list(self._metrics)

    def previous_metric(self, name: str) -> Metric | None:
        """The version of ``name`` registered before its last edit, if any."""
        return self._previous.get(name)

    # --- what an option names ----------------------------------------------------------

    def resolve(self, option: str, text: str, from_file: Callable[[str], Any]) -> Any:
        """What ``text`` names in the notebook, else a file (:func:`names.resolve`)."""
        with as_usage_error():
            return names.resolve(option, text, from_file, self.user_ns, self.global_ns)

    def run_file(self, text: str) -> Any:
        """``FILE.py:FUNC`` or ``FILE.py`` (function ``run``), if that file exists."""
        with as_usage_error():
            return names.run_file(text)

    def executor(self, text: str) -> Any:
        """The ``concurrent.futures.Executor`` ``text`` names."""
        with as_usage_error():
            return names.executor(text, self.user_ns, self.global_ns)

    # --- the run cache and the cell ------------------------------------------------------

    def run_cache(self, *, fresh: bool = False) -> RunCache:
        """The kernel's run cache; ``fresh``: one that asks the models again (``--fresh``)."""
        cache = self._cache()
        return cache.fresh() if fresh else cache

    def shown_once(self, report: R) -> R:
        """``report`` as this cell's Out sees it: the cell's live view already shows it."""
        return shown_once(report, self._cell())


def find_metric(metrics: Mapping[str, Metric], name: str) -> Metric:
    """The metric registered as ``name``; a usage error naming those there are."""
    metric = metrics.get(name)
    if metric is not None:
        return metric
    if not metrics:
        raise UsageError(t("magic.no_metric"))
    raise UsageError(t("magic.unknown_metric", name=name, known=", ".join(metrics)))


@contextmanager
def as_usage_error() -> Iterator[None]:
    """An option naming nothing usable ends the magic as IPython's UsageError."""
    try:
        yield
    except names.UnusableName as problem:
        raise UsageError(str(problem)) from None


# --- the skeleton ------------------------------------------------------------------------


def call_showing(view: LiveDisplay | None, call: Callable[[Listener | None], R]) -> R:
    """``call(listener)`` with ``view`` shown at its first event; what every magic runs.

    On any error the view is closed (a half-drawn view must not stay above the error
    line), and an error the user can fix (:func:`usage_sentence`) ends the magic as one
    ``UsageError`` line; any other error is raised as it is.
    """
    listener = None if view is None else lazy_show(view)
    try:
        return call(listener)
    except BaseException as problem:
        if view is not None:
            view.close()
        sentence = usage_sentence(problem)
        if sentence is None:
            raise
        raise UsageError(sentence) from None


def usage_sentence(problem: BaseException) -> str | None:
    """The one line a magic ends with for ``problem``, or None when it is not the user's to fix.

    The union of what the magics caught before they shared this skeleton: bad data
    (in the run's language), a broken rule of the options (``ValueError``,
    ``TypeError``: an unknown optimizer keyword), no model for a role, no gepa.
    """
    if isinstance(problem, DataError):  # an option named as the magic's: --outputs
        return problem.for_command(current_lang())
    if isinstance(problem, (ValueError, TypeError, ModelNotConfigured)) or _is_gepa_missing(
        problem
    ):
        return str(problem)
    return None


def _is_gepa_missing(problem: BaseException) -> bool:
    # Read from sys.modules, not imported: GepaMissing can only have been raised once the
    # optimizer module is loaded, and %load_ext must not load it (issue 26).
    adapter = sys.modules.get("skynet_jupyter.optimizers.gepa_adapter")
    return adapter is not None and isinstance(problem, adapter.GepaMissing)
