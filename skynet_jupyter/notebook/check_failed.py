"""``CheckFailed``: what ends a cell whose check (or evaluation) failed, after its report."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.report import CheckReport

__all__ = ["CheckFailed"]


class CheckFailed(Exception):
    """A check (or evaluation) failed; its report is shown above and kept as ``.report``."""

    def __init__(self, message: str, report: CheckReport) -> None:
        super().__init__(message)
        self.report = report

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]
