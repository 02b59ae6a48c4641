"""``ShowsItself``: how every report shows itself, written once.

``print(report)`` and terminal IPython show its text, a notebook its HTML.  A
report class says what its text and HTML are (``_text``, ``_html``); this mixin
turns them into ``__str__``, ``_repr_pretty_`` and ``_repr_html_``.  Used by the
check and evaluation reports (``report.py``), the optimizer's report
(``optimizers/report.py``) and the quality reports (``quality/_show.py``).
"""

from __future__ import annotations

from typing import Any


class ShowsItself:
    """Mixin: ``str()`` and IPython's plain display are ``_text()``, the notebook's ``_html()``."""

    __slots__ = ()  # the reports are slotted dataclasses: the mixin adds no __dict__

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # IPython's pretty printer takes the first class in the MRO that defines either
        # _repr_pretty_ or __repr__, and @dataclass gives every class its own __repr__:
        # each report class gets _repr_pretty_ in its own namespace, or the dataclass
        # repr would be shown instead of the report.
        if "_repr_pretty_" not in cls.__dict__:
            cls._repr_pretty_ = ShowsItself._repr_pretty_  # type: ignore[method-assign]

    def _text(self) -> str:  # pragma: no cover - every report defines it
        raise NotImplementedError

    def _html(self) -> str:  # pragma: no cover - every report defines it
        raise NotImplementedError

    def __str__(self) -> str:
        return self._text()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self._text())

    def _repr_html_(self) -> str:
        return self._html()
