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
"""

from ._view import LiveView

__all__ = ["LiveView"]
