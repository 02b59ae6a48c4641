"""``%skynet_history [NAME]`` and ``%skynet_diff A B``: the run log in the notebook.

One ``Magics`` class, registered beside ``SkynetMagics`` by ``%load_ext`` (and
removed by ``%unload_ext``).  Each magic parses its line and calls the public
function (``sj.history``, ``sj.diff``); ``%skynet_history`` shows its live view
(the chart, read again after every cell) and returns the ``History``,
``%skynet_diff`` returns the ``RunDiff``, which shows itself (regressions first).
A value is shown once in its cell: the live view is the display.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, magics_class

from ..i18n import LANGUAGES, language, t
from .magic_args import argument, line_magic, no_var_expand, parse_line
from .names import unquote
from .option_groups import lazy_magic_arguments

if TYPE_CHECKING:
    from ..runlog.api import History
    from ..runlog.run_diff import RunDiff
    from .history_view import LiveHistories

__all__ = ["HistoryMagics", "load_history", "unload_history"]


@magics_class
class HistoryMagics(Magics):
    """The run log: every check and evaluation, remembered and compared."""

    def __init__(
        self, shell: Any = None, session_lang: Callable[[], str | None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(shell=shell, **kwargs)  # type: ignore[no-untyped-call, unused-ignore]  # IPython 8 leaves it unannotated
        self._live: LiveHistories | None = None  # made with the first live view
        # SkynetMagics.lang (%config), read live: the views speak the notebook's language.
        self._session_lang = session_lang or (lambda: None)

    @lazy_magic_arguments("skynet_history")
    @argument("name", nargs="?", metavar="NAME", help="only this metric's runs")
    @argument("--data", metavar="FINGERPRINT", help="only runs on this data (its fingerprint)")
    @argument("--log", metavar="PATH", help="the run log to read (default: the configured one)")
    @argument("--limit", type=int, default=50, help="the newest N runs (default 50)")
    @argument("--prune", metavar="N", type=int, help="remove all but each metric's newest N runs")
    @argument("--lang", choices=LANGUAGES, help="the language of the view")
    @no_var_expand
    @line_magic
    def skynet_history(self, line: str) -> History | None:
        """Show the run history: a chart of mean score and pass rate per metric version.

        Every %skynet_check and %skynet_eval (and sj.check, sj.evaluate, skynet-check)
        is recorded in the run log (.skynet_runs here; configure(run_log=...) or
        SKYNET_RUN_LOG elsewhere). NAME shows one metric's runs. The view reads the
        log again after each cell (and on Refresh). --prune N removes all but each
        metric's newest N runs. Returns the History (h = %skynet_history; h[0] is the
        last run, h.to_frame() a table).

        Example::

            %skynet_history
            h = %skynet_history default --limit 20
        """
        line, silenced = _trailing_semicolon(line)
        args = parse_line(self.skynet_history, line)
        with language(args.lang or self._session_lang()) as lang:
            found = _read(args)
            if args.prune is not None:
                self._prune(found, args.prune)
                return None
            if silenced:
                read: History = found()
                return read
            return self._show(found, lang)

    def _prune(self, read: Any, keep: int) -> None:
        history = read()
        try:
            removed = history.prune(keep)
        except ValueError as problem:
            raise UsageError(str(problem)) from None
        where = history.location.shown if history.location is not None else ""
        print(t("history.pruned", count=removed, keep=keep, where=where))

    def _show(self, read: Any, lang: str) -> History:
        try:
            import ipywidgets  # noqa: F401  # the live view needs it; the text view does not
        except ImportError:
            return read()  # type: ignore[no-any-return]
        from .history_view import LiveHistories, LiveHistory

        view = LiveHistory(read, lang)
        view.show()
        if self._live is None:
            self._live = LiveHistories()
            shell: Any = self.shell  # IPython's Magics declares it None until it has one
            shell.events.register("post_run_cell", self._live.after_cell)
        self._live.add(view)
        return _shown_in_this_cell(view.history, self.shell)

    @lazy_magic_arguments("skynet_diff")
    @argument("a", metavar="A", help="a run id (or its start), or last~1")
    @argument("b", metavar="B", help="a run id (or its start), or last")
    @argument("--metric", metavar="NAME", help="whose last / last~N (default: the newest run's)")
    @argument("--allow-different-data", action="store_true", help="compare the shared cases")
    @argument("--log", metavar="PATH", help="the run log to read (default: the configured one)")
    @argument("--lang", choices=LANGUAGES, help="the language of the diff")
    @no_var_expand
    @line_magic
    def skynet_diff(self, line: str) -> RunDiff:
        """Compare two runs case by case: regressions first, then improvements.

        A and B are run ids (or a unique start of one; %skynet_history lists them),
        or last / last~1 / last~N: the last runs of --metric (default: the metric of
        the newest run). Shows the regressions (pass -> fail, or a lower score), the
        improvements, the cases whose feedback changed (a word diff), added and
        removed cases, the changes of pass rate, mean score, cost and time, and the
        metric's source diff. Runs on different data are refused unless
        --allow-different-data. Returns the RunDiff.

        Example::

            %skynet_diff last~1 last
            d = %skynet_diff 20261206-0412 last --metric strict
        """
        from ..runlog.api import UnknownRun, diff
        from ..runlog.run_diff import DifferentData
        from ..runlog.store import RunLogUnreachable

        line, _silenced = _trailing_semicolon(line)
        args = parse_line(self.skynet_diff, line)
        with language(args.lang or self._session_lang()):
            try:
                return diff(
                    unquote(args.a),
                    unquote(args.b),
                    allow_different_data=args.allow_different_data,
                    metric=None if args.metric is None else unquote(args.metric),
                    log=None if args.log is None else unquote(args.log),
                )
            except (UnknownRun, DifferentData, RunLogUnreachable, TypeError) as problem:
                raise UsageError(str(problem)) from None


def _read(args: Any) -> Any:
    """The history the line asks for, read now and again on each refresh."""
    from ..runlog.api import history
    from ..runlog.store import RunLogUnreachable

    name = None if args.name is None else unquote(args.name)
    data = None if args.data is None else unquote(args.data)
    log = None if args.log is None else unquote(args.log)
    if args.limit is not None and args.limit < 1:
        raise UsageError(t("history.bad_limit", value=repr(args.limit)))

    def read() -> History:
        try:
            return history(name, data=data, log=log, limit=args.limit)
        except (TypeError, ValueError, RunLogUnreachable) as problem:
            raise UsageError(str(problem)) from None

    read()  # a bad --log is said now, once
    return read


def _trailing_semicolon(line: str) -> tuple[str, bool]:
    stripped = line.rstrip()
    if stripped.endswith(";"):
        return stripped[:-1], True
    return line, False


def _shown_in_this_cell(history: History, shell: Any) -> History:
    """``history`` as this cell's Out sees it: its live view shows it already."""
    from ..runlog.api import History

    class ShownHistory(History):
        __slots__ = ("_count",)
        _count: int | None

        def _ipython_display_(self) -> None:
            if getattr(shell, "execution_count", None) == self._count:
                return  # the cell that made it shows its live view
            from IPython.display import display

            plain = History(
                self.runs,
                location=self.location,
                metric=self.metric,
                data=self.data,
                total=self.total,
                lang=self.lang,
            )
            display(plain)  # type: ignore[no-untyped-call, unused-ignore]  # IPython's display

    shown = ShownHistory(
        history.runs,
        location=history.location,
        metric=history.metric,
        data=history.data,
        total=history.total,
        lang=history.lang,
    )
    shown._count = getattr(shell, "execution_count", None)
    return shown


# --- registered by %load_ext ------------------------------------------------------------

_loaded: weakref.WeakKeyDictionary[Any, HistoryMagics] = weakref.WeakKeyDictionary()


def load_history(ipython: Any, session_lang: Callable[[], str | None]) -> None:
    """Register %skynet_history and %skynet_diff (a second call changes nothing);
    ``session_lang`` reads ``SkynetMagics.lang``."""
    if ipython in _loaded:
        return
    magics = HistoryMagics(shell=ipython, session_lang=session_lang)
    ipython.register_magics(magics)
    _loaded[ipython] = magics


def unload_history(ipython: Any, unregister: Callable[[Any, Any], None]) -> None:
    """Remove what :func:`load_history` added (``unregister`` undoes ``register_magics``,
    as ``%unload_ext`` does for SkynetMagics), the live views' refresh too."""
    history = _loaded.pop(ipython, None)  # HistoryMagics, not the session's SkynetMagics
    if history is None:
        return
    unregister(ipython, history)
    if history._live is not None:
        with contextlib.suppress(ValueError):
            ipython.events.unregister("post_run_cell", history._live.after_cell)
