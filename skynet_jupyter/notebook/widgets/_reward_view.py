"""The reward decomposition: stacked bars, weight sliders, the weights to write.

The bars are recomputed in Python from the components each case stored
(``scores["accuracy"|"speed"|"cost"]``), so moving a slider re-runs nothing.
Without a reward spec the same panel shows the named scores instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W
from ipywidgets.widgets.widget_button import ButtonStyle
from ipywidgets.widgets.widget_int import SliderStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ...core.reward import PART_TITLES, PARTS, RewardSpec
from ...i18n import t
from ...show.render import esc
from . import _html
from ._shared import layout, style
from ._state import LOWEST_BARS, LiveState, components

CHECK_BARS = 50  # cases with a bar in a check (all of a normal 3-case check)
EVAL_BARS = LOWEST_BARS  # lowest rewards listed in an evaluation
_BUILT = frozenset(("bars", "sliders", "reset", "spec_line", "controls", "box"))
# The controls' row: the sliders and the reset button wrap, never squeezed (in a narrow
# output each slider keeps a usable track); the spec line below them takes a whole line.
_ROW = {"flex_flow": "row wrap", "align_items": "center"}


def set_value(widget: W.Widget, value: object) -> int:
    """Set ``widget.value`` when it differs; the number of comm messages that costs."""
    if widget.value == value:
        return 0
    widget.value = value
    return 1


class RewardPanel:
    """Bars and sliders for one view (``box`` is the widget to place).

    Without a reward spec at creation the widgets are built when first needed (a
    plain metric's check never needs them): ``built`` is the box once built, else
    None, and ``on_built`` is told when that happens so the view can place it.

    Every widget is a comm the kernel opens at each check, so the panel is eight:
    ``bars`` (the title, the bars, the legend, and the line that asks to try other
    weights, in one HTML), the three ``sliders``, ``reset``, ``spec_line``, the
    ``controls`` row holding those four and the spec line, and the ``box``.
    Layouts are shared (``_shared``): showing or hiding a box swaps its layout for
    the shared one with the other ``display``.
    """

    # Built by ``_build`` (on first access, through ``__getattr__``).
    bars: W.HTML
    sliders: list[W.FloatSlider]
    reset: W.Button
    spec_line: W.HTML
    controls: W.HBox
    box: W.VBox

    def __init__(
        self,
        lang: str,
        guard: Callable[[Callable[[], object]], None],
        spec: RewardSpec | None = None,
        on_built: Callable[[], None] | None = None,
    ) -> None:
        self.lang = lang
        self._guard = guard
        self.state: LiveState | None = None
        self.spec = spec
        self._quiet = False
        self._on_built = on_built
        self.built: W.VBox | None = None
        if spec is not None:  # it will show: shaped at creation, no update messages
            self._build()

    def __getattr__(self, name: str) -> object:
        if name in _BUILT and self.__dict__.get("built") is None and "lang" in self.__dict__:
            self._build()
            return self.__dict__[name]
        raise AttributeError(name)

    def _build(self) -> None:
        spec, lang = self.spec, self.lang
        start = self._spec_weights() if spec is not None else (0.0, 0.0, 0.0)
        shown = spec is not None
        html_style = style(HTMLStyle)
        self.bars = W.HTML(
            self._prompt_html() if spec is not None else "",
            layout=layout(width="auto", align_self="stretch"),
            style=html_style,
        )
        self.sliders = [
            W.FloatSlider(
                value=round(weight, 4),
                min=0.0,
                max=1.0,
                step=0.01,
                description=t(PART_TITLES[part], lang),
                readout_format=".2f",
                continuous_update=True,
                style=style(SliderStyle, description_width="initial"),
                layout=layout(width="300px", max_width="100%", flex="0 0 auto"),
                _dom_classes=[f"skynet-weight-{part}"],
            )
            for part, weight in zip(PARTS, start, strict=True)
        ]
        for slider in self.sliders:
            slider.observe(self._moved, names="value")
        self.reset = W.Button(
            description=t("view.reset", lang),
            icon="undo",
            layout=layout(width="auto"),
            style=style(ButtonStyle),
            tooltip=t("view.weights_same", lang),
        )
        self.reset.on_click(lambda _: self._guard(self.restore))
        self.spec_line = W.HTML(
            self.spec_line_html(start) if spec is not None else "",
            layout=layout(width="100%"),  # a line of its own, under the sliders
            style=html_style,
        )
        self.controls = W.HBox(
            [*self.sliders, self.reset, self.spec_line], layout=_box_layout(_ROW, shown)
        )
        self.box = W.VBox(
            [self.bars, self.controls],
            layout=_box_layout({}, shown),
            _dom_classes=["skynet-reward"],
        )
        self.built = self.box
        if self._on_built is not None:
            self._on_built()

    def close(self) -> None:
        if self.built is None:
            return
        for widget in (*self.sliders, self.reset, self.spec_line, self.bars):
            widget.close()
        self.controls.close()
        self.box.close()

    # --- weights ----------------------------------------------------------------

    def weights(self) -> tuple[float, float, float] | None:
        """The slider weights rescaled to sum to 1 (None when all are 0)."""
        if self.built is None and self.spec is None:
            return None  # no spec, no sliders: nothing to build for
        raw = [slider.value for slider in self.sliders]
        total = sum(raw)
        if total <= 0:
            return None
        return (raw[0] / total, raw[1] / total, raw[2] / total)

    def _spec_weights(self) -> tuple[float, float, float]:
        assert self.spec is not None
        return tuple(self.spec.weights[part] for part in PARTS)  # type: ignore[return-value]

    def chosen_spec(self) -> RewardSpec | None:
        """The reward spec with the weights the sliders show (what to write)."""
        weights = self.weights()
        if self.spec is None or weights is None:
            return None
        return self.spec.with_weights(*weights)

    def set_weights(self, accuracy: float, speed: float, cost: float) -> None:
        """Move the three sliders at once (one recomputation)."""
        self._quiet = True
        try:
            for slider, value in zip(self.sliders, (accuracy, speed, cost), strict=True):
                slider.value = value
        finally:
            self._quiet = False
        self.render()

    def restore(self) -> None:
        if self.spec is not None:
            self.set_weights(*self._spec_weights())

    def _moved(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self._guard(self.render)

    # --- drawing ----------------------------------------------------------------

    def attach(self, state: LiveState) -> int:
        """Show ``state``; a new spec resets the sliders to its weights."""
        self.state = state
        sent = 0
        if state.spec is not None and state.spec != self.spec:
            self.spec = state.spec
            self._quiet = True
            try:
                for slider, value in zip(self.sliders, self._spec_weights(), strict=True):
                    sent += set_value(slider, round(value, 4))
            finally:
                self._quiet = False
        return sent

    def render(self) -> int:
        """Redraw from the stored components; the comm messages it sent."""
        state = self.state
        if state is None:
            return 0
        sent = 0
        if state.has_reward or (state.spec is not None and not state.named):
            sent += self._show(self.box, True) + self._show(self.controls, True)
            weights = self.weights()
            if weights is not None:
                sliders = tuple(slider.value for slider in self.sliders)
                drawn = reward_html(state, weights, sliders=sliders) + self._prompt_html()
                sent += set_value(self.bars, drawn)
            sent += set_value(self.spec_line, self.spec_line_html(weights))
        elif state.named:
            sent += self._show(self.box, True) + self._show(self.controls, False)
            # A check lists each case; an evaluation's table already has them, so means only.
            rows = state.select(count=CHECK_BARS)[0] if state.kind == "check" else []
            sent += set_value(
                self.bars, _html.named_panel_html(rows, state.mean_named(), state.lang)
            )
        elif self.built is not None:  # a plain metric never builds the panel
            sent += self._show(self.box, False)
        return sent

    def _show(self, widget: W.Box, visible: bool) -> int:
        """Show or hide the box or the controls: their shared layout with that ``display``."""
        want = None if visible else "none"
        if widget.layout.display == want:
            return 0
        widget.layout = _box_layout(_ROW if widget is self.controls else {}, visible)
        return 1

    def _prompt_html(self) -> str:
        """The line under the bars that asks to move the sliders (live only: no sliders
        in the static copy)."""
        lang = self.state.lang if self.state is not None else self.lang
        text = esc(t("view.try_weights", lang))
        return f'<div class="skv" style="font-size:12px;margin:8px 0 4px">{text}</div>'

    def spec_line_html(self, weights: tuple[float, float, float] | None) -> str:
        lang = self.state.lang if self.state is not None else self.lang
        if weights is None:
            return f'<div class="skv skv-fail">{esc(t("spec.weights_all_zero", lang))}</div>'
        same = all(abs(a - b) < 5e-4 for a, b in zip(weights, self._spec_weights(), strict=True))
        return _html.spec_line_html(weights, same, lang)


def _box_layout(traits: dict[str, str], visible: bool) -> W.Layout:
    """The shared layout with ``traits``, shown or hidden (never mutated: swapped)."""
    return layout(**traits) if visible else layout(**traits, display="none")


def reward_html(
    state: LiveState,
    weights: tuple[float, float, float],
    *,
    static: bool = False,
    sliders: tuple[float, float, float] | None = None,
) -> str:
    """Title, legend, one bar per case (a check) or the lowest ones (an evaluation), the mean.

    ``sliders``: the numbers the sliders read, shown in the legend beside the rescaled
    weights they give when they differ."""
    lang = state.lang
    parts = [] if static else [_html.STYLE]
    parts.append('<div class="skv skv-reward-box">')
    parts.append(f'<div class="skv-rh">{esc(t("view.reward_title", lang))}</div>')
    parts.append(f'<div class="skv-notes">{esc(t("view.reward_help", lang))}</div>')
    parts.append(_html.legend_html(weights, lang, sliders))
    rows = []
    if state.kind == "check":
        cases, _ = state.select(count=CHECK_BARS)
        for case in cases:
            found = components(case)
            if found is None:
                rows.append(_html.no_reward_row(case, lang))
            else:
                rows.append(_bar(case.index, found, case.run_ms, case.cost_usd, weights, lang))
    else:
        lowest = state.lowest_rewards(weights, EVAL_BARS)
        if lowest:
            parts.append(f'<div class="skv-notes">{esc(t("view.lowest", lang))}</div>')
        for case, found in lowest:
            rows.append(_bar(case.index, found, case.run_ms, case.cost_usd, weights, lang))
    mean = state.mean_parts
    if mean is not None:
        raw = _html.raw_measures(state.run_ms.mean, state.cost_usd.mean, lang)
        count = t("view.over_cases", lang, count=state.parts[0].count)
        label = f"{t('view.mean_reward', lang)} ({count})"
        rows.append(_html.reward_bar_html(label, mean, weights, raw, lang, mean=True))
    parts.append(f'<div class="skv-bars">{"".join(rows)}</div></div>')
    return "".join(parts)


def _bar(
    index: int,
    found: tuple[float, float, float],
    run_ms: float | None,
    cost_usd: float | None,
    weights: tuple[float, float, float],
    lang: str,
) -> str:
    raw = _html.raw_measures(run_ms, cost_usd, lang)
    label = f"{t('col.case', lang)} {index}"
    return _html.reward_bar_html(label, found, weights, raw, lang, case=index)
