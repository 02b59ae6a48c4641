"""Live views of a check or an evaluation, fed by the engine's events.

Interface used by the magics:

    view = LiveView(kind="check", lang="en", metric_name="default", reward_spec=spec)
    view.show()                      # displays itself once, in the current output
    report = check(..., on_event=view.on_event)
    view.finish(report)              # final state (also called by the Finished event)
    view.replace(report)             # re-render in place (the edit loop's re-check)

Built from core ipywidgets (``VBox``, ``HTML``, ``IntProgress``,
``FloatSlider``, ``Dropdown``, ``Output``): no front-end build.  The display
bundle also carries the report's static HTML, so nbconvert and GitHub show
the report where no widget front end exists.

Modules::

    _view.py           LiveView: the check or evaluation view, fed by engine events
    _state.py          what a live view knows: plain data, updated per event
    _html.py           the live view's layout around the case rows of show/case_columns.py
    _reward_view.py    the reward decomposition: stacked bars, weight sliders
    _quality_views.py  QualityView: probe, stability, agreement and compare, live
    _optimize_view.py  OptimizeView: an optimizer run, live
    _align_view.py     AlignView: a judge's alignment with the humans, live
    _race_view.py      RaceView: metrics raced through the optimizer, live, with its chart
    _display.py        how a view is displayed: the widget, then the static copy
    _throttle.py       at most about ten front-end updates a second
    _shared.py         Layout and Style objects that never change, one per kernel
"""

from ._view import LiveView

__all__ = ["LiveView"]
