"""``LiveView``: the widget a check or an evaluation shows, fed by engine events."""

from __future__ import annotations

import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_int import ProgressStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ...core.report import FAILED, PASSED, CaseResult, CheckReport, SameErrors
from ...core.reward import PARTS
from ...core.secrets import Redactor
from ...i18n import resolve_lang, t
from ...run.engine import CaseFinished, CaseStarted, Event, Finished
from ...show.case_columns import CaseRow, live_row_html
from ...show.progress_line import progress_text, running_title
from ...show.render import esc, headline, interrupted_line, means_parts
from . import _html
from ._display import ShownTwice, TwoOutputs
from ._reward_view import RewardPanel, reward_html, set_value
from ._shared import layout, style
from ._state import ALL, PENDING, WORST_ROWS, LiveState, as_spec, filter_options
from ._throttle import GAP, LATER, Due, Throttle

CHECK_ROWS = 200  # rows of a check's table (a check has 3 cases unless --cases says more)
EVAL_ROWS = WORST_ROWS  # worst cases listed by an evaluation (the filter narrows them)
HELD_REDRAW = 0.5  # seconds between redraws while a provider's rate limit holds the run


_RATE_LIMIT = __name__.split(".")[0] + ".models.rate_limit"


def waiting() -> int:
    """Calls held back by a provider's rate limit now (``rate_limit.waiting``).

    Read without importing the limiter: until something imported it (a model call, a
    case left behind), no limiter exists and nothing waits.
    """
    limits = sys.modules.get(_RATE_LIMIT)
    return 0 if limits is None else int(limits.waiting())


class LiveView(ShownTwice):
    """A check's or an evaluation's view that updates in place as cases finish.

    ``show()`` displays it once (the widget, plus a static HTML copy of the
    report for places without widgets: nbconvert, GitHub); ``on_event`` is the
    engine listener; ``finish(report)`` draws the final state and refreshes
    the static copy; ``replace(report)`` re-draws from another report.
    Updates reach the browser at most about ten times a second.
    """

    def __init__(
        self,
        *,
        kind: str = "check",
        lang: str | None = "en",
        metric_name: str = "default",
        reward_spec: Any = None,
        gap: float = GAP,
    ) -> None:
        self.kind = kind
        self.lang = resolve_lang(lang)
        self.metric_name = metric_name
        self.reward_spec = as_spec(reward_spec)
        self.report: CheckReport | None = None
        self._lock = threading.RLock()
        self._state = self._fresh_state()
        self._rows: dict[int, tuple[CaseResult, str, str]] = {}
        self._same = SameErrors()  # rows drawn since _rows was last emptied
        self._inbox: deque[CaseResult] = deque()
        self._started = 0  # CaseStarted events of the current run
        self._total = 0
        self._redraw = True  # draw at the next flush even without new events
        self._finished = False
        self._throttle = Throttle(self._flush, self._lock, gap=gap, on_error=self._show_error)
        self._held_timer: Due | None = None
        self._outputs = TwoOutputs()
        self._display_id = self._outputs.widget_id
        self._static_id = self._outputs.static_id
        self._shown = False

        lang = self.lang
        # The head, the cases and the reward bars share one Layout and one Style: each
        # is a comm a kernel's first check opens.
        text = {"layout": layout(width="auto", align_self="stretch"), "style": style(HTMLStyle)}
        self.head = W.HTML(self._head_html(), **text)
        # Built when first needed (a quick run ends before a progress bar would show, a
        # check never shows the filter, errors are rare): every widget is a comm or more,
        # and a repeat check should cost little.
        self._progress: W.IntProgress | None = None
        self._filter: W.Dropdown | None = None
        self._errors: W.Output | None = None
        self.cases = W.HTML(**text)
        self.reward = RewardPanel(lang, self._guard, self.reward_spec, on_built=self._place)
        self.widget = W.VBox(
            self._children(),
            layout=layout(width="100%"),
            _dom_classes=["skynet-view", f"skynet-{kind}"],
        )

    @property
    def progress(self) -> W.IntProgress:
        """The progress bar (built on first use, drawn as the run stands)."""
        return self._progress or self._build_progress()

    def _build_progress(self) -> W.IntProgress:
        want, display = self._progress_wanted()
        self._progress = W.IntProgress(
            min=0,
            **want,
            style=style(ProgressStyle, description_width="initial"),
            # Its own layout: its display toggles.
            layout=W.Layout(width="460px", max_width="100%", display=display),
        )
        self._place()
        return self._progress

    @property
    def filter(self) -> W.Dropdown:
        """The step filter of an evaluation's table (built on first use)."""
        if self._filter is None:
            self._filter = W.Dropdown(
                options=[(t("view.filter_all", self.lang, count=0), ALL)],
                value=ALL,
                description=t("view.filter", self.lang),
                style=style(DescriptionStyle, description_width="initial"),
                layout=W.Layout(display="none", width="auto", align_self="flex-start"),
            )
            self._filter.observe(lambda _: self._guard(self._redraw_cases), names="value")
            self._place()
        return self._filter

    @property
    def errors(self) -> W.Output:
        """Where a drawing or callback error shows (built on the first one)."""
        if self._errors is None:
            self._errors = W.Output(layout=layout())
            self._place()
        return self._errors

    def _children(self) -> list[W.Widget]:
        found = [self.head, self._progress, self._filter, self.cases, self.reward.built]
        return [widget for widget in (*found, self._errors) if widget is not None]

    def _place(self) -> None:
        """Put a widget built later in its place in the view (one comm message)."""
        view = getattr(self, "widget", None)
        if view is not None:
            view.children = self._children()

    # --- the engine's listener --------------------------------------------------

    def on_event(self, event: Event) -> None:
        """Take one engine event; the browser sees it at the next throttled update."""
        kind = type(event)
        if kind is CaseFinished:
            self._inbox.append(event.result)  # type: ignore[union-attr]  # thread-safe
            self._total = event.total  # type: ignore[union-attr]
            if self._throttle.idle:
                self._throttle.poke()
        elif kind is CaseStarted:
            self._started += 1
            self._total = event.total  # type: ignore[union-attr]
            if self._started == 1:  # the steps before the cases have passed: say so
                self._redraw = True
                self._throttle.poke()
        elif kind is Finished:
            self.finish(event.report)  # type: ignore[union-attr]

    def _drain(self) -> None:
        """Move what the events brought into the state (called under the lock)."""
        inbox = self._inbox
        if not inbox and not self._started:
            return
        if self._finished:  # a new run after a finished one: start from an empty state
            self._restart()
        state = self._state
        state.started, state.total = self._started, self._total
        if inbox:
            popleft = inbox.popleft
            state.add_many([popleft() for _ in range(len(inbox))])

    def finish(self, report: CheckReport) -> None:
        """Draw the final state from ``report`` and refresh the static copy (idempotent)."""
        with self._lock:
            if self._finished and report is self.report:
                return
            self._throttle.cancel()
            self._drain()
            self.report = report
            if self._state.holds(report):
                state = self._state
                state.report = report
                state.kind, state.lang = report.kind, report.lang
                state.metric_name = report.metric_name
                state.spec = as_spec(report.reward_spec) or state.spec
            else:
                self._state = LiveState.from_report(report, self.reward_spec)
                self._rows.clear()
            self._finished = True
            self._started = self._total = 0  # the next events belong to a new run
            self._set_filter_options()
            self._redraw = True
            self._throttle.now()
        self._update_display()

    def replace(self, report: CheckReport) -> None:
        """Show another report in place (the edit loop's re-check)."""
        with self._lock:
            self._throttle.cancel()
            self._inbox.clear()
            self._started = self._total = 0
            self._finished = False
            self.report = None
            self._state = LiveState()
            self._rows.clear()
            if self._filter is not None:
                self._filter.value = ALL
        self.finish(report)

    def flush(self) -> int:
        """Send pending changes now; the number of comm messages sent."""
        return self._throttle.now()

    # --- display ----------------------------------------------------------------
    # Two outputs, the widget and its static copy: see ``_display``.

    def _static(self) -> tuple[str, str]:
        """The static copy's HTML and text: the report, or the running title."""
        report = self.report
        if report is None:
            title = running_title(self.kind, self.lang)
            return f'<div class="skynet-report"><i>{esc(title)}</i></div>', title
        return self.static_html(), str(report)

    def static_html(self) -> str:
        """The report's HTML plus the reward bars, for places without widgets."""
        report = self.report
        if report is None:
            return ""
        html = report._repr_html_()
        state = self._state
        if state.has_reward and state.spec is not None:
            weights = tuple(state.spec.weights[part] for part in PARTS)
            # The report's HTML carries the one stylesheet, the bars' rules too.
            html += reward_html(state, weights, static=True)  # type: ignore[arg-type]
        return html

    def close(self) -> None:
        """Stop pending updates and close the widgets."""
        self._throttle.cancel()
        for widget in (self.widget, self.head, self._progress, self._filter, self.cases):
            if widget is not None:
                widget.close()
        if self._errors is not None:
            self._errors.close()
        self.reward.close()

    # --- drawing ----------------------------------------------------------------

    def _fresh_state(self) -> LiveState:
        return LiveState(
            kind=self.kind, lang=self.lang, metric_name=self.metric_name, spec=self.reward_spec
        )

    def _restart(self) -> None:
        """A new run after a finished one: start from an empty state."""
        self._finished = False
        self.report = None
        self._state = self._fresh_state()
        self._rows.clear()
        if self._filter is not None:
            self._filter.value = ALL
            self._filter.layout.display = "none"

    def _guard(self, action: Callable[[], object]) -> None:
        """Run a widget callback; show its error in the view instead of losing it."""
        try:
            with self._lock:
                action()
        except Exception:
            self.errors.append_stderr(traceback.format_exc())

    def _show_error(self, error: BaseException) -> None:
        """A drawing error, shown under the view (the view keeps updating)."""
        from ...core.secrets import redact

        self.errors.append_stderr(redact("".join(traceback.format_exception(error))))

    def _flush(self) -> int:
        if not self._inbox and not self._redraw:
            return 0  # nothing new since the last update
        self._redraw = False
        self._drain()
        state = self._state
        clean = Redactor()  # the secrets gathered once for the whole redraw
        sent = set_value(self.head, self._head_html(clean))
        sent += self._draw_progress()
        sent += set_value(self.cases, self._cases_html(clean))
        sent += self.reward.attach(state)
        sent += self.reward.render()
        # A run still going at its first redraw may wait on a provider: watch for that
        # from now on (a quick check ends first and starts no watching thread).
        self._watch_rate_limit()
        return sent

    def _watch_rate_limit(self, shown: int = 0) -> None:
        # While a provider holds the run back no event arrives: look twice a second, and
        # redraw when the number held back changed, until the run ends.
        def tick(_: Due) -> None:
            held = waiting()
            with self._lock:
                self._held_timer = None
                if self._finished:
                    return
                if held != shown:
                    self._redraw = True
            if held != shown:
                self._throttle.poke()
            self._watch_rate_limit(held)

        with self._lock:
            if self._held_timer is not None or self._finished:
                return
            self._held_timer = LATER.call(HELD_REDRAW, tick)

    def _redraw_cases(self) -> None:
        set_value(self.cases, self._cases_html())

    def _head_html(self, clean: Redactor | None = None) -> str:
        state = self._state
        lang = state.lang
        report = self.report
        if report is None:
            title, status = running_title(state.kind, lang), PENDING
            subtitle = t("report.metric", lang, name=state.metric_name)
            held = waiting()
            if held:  # said even before a first case finishes
                subtitle += " · " + t("view.rate_limited", lang, count=held)
        else:
            title = headline(report)
            status = PASSED if report.passed else FAILED
            subtitle = state.summary()
            if report.interrupted:
                subtitle += " · " + interrupted_line(report)
        head = _html.live_head_html(title, status, subtitle, state.steps(), lang, clean)
        return self._outputs.hide_css() + head

    def _progress_wanted(self) -> tuple[dict[str, Any], str | None]:
        """The progress bar's traits as the run stands, and its ``layout.display``."""
        state = self._state
        total = max(state.total, state.done)
        report = self.report
        if report is None:
            style = "danger" if state.failures else "info"
        else:
            style = "success" if report.passed else "danger"
        if report is None and not total:
            description = t("view.waiting", state.lang)
        elif total or report is None:
            description = progress_text(state.done, total, state.lang)
        else:
            description = ""
        want = {
            "value": state.done,
            "max": max(1, total),
            "description": description,
            "bar_style": style,
        }
        # Once finished, the summary line says how many cases ran; the bar stays
        # only when the run was cut short.
        finished_whole = report is not None and not report.interrupted
        want_display = "none" if finished_whole or (report is not None and not total) else None
        return want, want_display

    def _draw_progress(self) -> int:
        want, want_display = self._progress_wanted()
        if self._progress is None:
            if want_display == "none":
                return 0  # a run that ended before its bar showed: none to build
            self._build_progress()  # drawn as wanted
            return 1  # the view's children
        progress = self._progress
        changed = {k: v for k, v in want.items() if getattr(progress, k) != v}
        sent = 0
        if changed:
            with progress.hold_sync():
                if "max" in changed and changed["max"] < progress.value:
                    progress.value = 0
                for key, value in changed.items():
                    setattr(progress, key, value)
            sent += 1
        if progress.layout.display != want_display:
            progress.layout.display = want_display
            sent += 1
        return sent

    def _cases_html(self, clean: Redactor | None = None) -> str:
        state = self._state
        lang = state.lang
        which = self._filter.value if self._finished and self._filter is not None else ALL
        limit = CHECK_ROWS if state.kind == "check" else EVAL_ROWS
        cases, matching = state.select(which, limit)
        summary = ""
        if self.report is None and state.done:
            summary = _running_summary(state)
        if state.kind != "check" and cases:
            worst = t("report.worst", lang)
            summary = f"{summary} — {worst}" if summary else worst
        note = ""
        if matching > len(cases):
            note = t("view.showing", lang, shown=len(cases), total=matching)
        elif self._finished and not cases and state.done:
            note = t("view.no_cases", lang)
        clean = clean or Redactor()
        return _html.cases_html(
            cases, lang, summary=summary, note=note, row=lambda case: self._row(case, lang, clean)
        )

    def _row(self, case: CaseResult, lang: str, clean: Redactor) -> str:
        # A finished case never changes: its row is drawn once per view state.
        cached = self._rows.get(case.index)
        if cached is None or cached[0] is not case or cached[1] != lang:
            if not self._rows:  # drawn afresh: a repeated failure points to a row drawn now
                self._same = SameErrors()
            row = live_row_html(
                CaseRow(
                    case,
                    lang,
                    clean,
                    same_as=self._same.of(case),
                    cached_said=self._same.cached_said(case),
                    open_traceback=self._state.kind == "check",
                )
            )
            cached = self._rows[case.index] = (case, lang, row)
        return cached[2]

    def _set_filter_options(self) -> None:
        state = self._state
        if state.kind == "check" or not state.failures:
            if self._filter is not None:
                self._filter.layout.display = "none"
            return
        options = filter_options(state)
        keep = self.filter.value if self.filter.value in {v for _, v in options} else ALL
        with self.filter.hold_sync():
            self.filter.options = options
            self.filter.value = keep
        self.filter.layout.display = None


def _running_summary(state: LiveState) -> str:
    lang = state.lang
    parts = [progress_text(state.done, max(state.total, state.done), lang)]
    parts += means_parts(lang, state.score.mean, state.mean_named(), state.score.count, state.done)
    failed = state.failed_count
    if failed:
        parts.append(t("view.failed_count", lang, count=failed))
    return " · ".join(parts)
