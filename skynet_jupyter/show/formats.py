"""How every view writes a number: a score, a mean, a change, a share, a time, money.

Written once, so that the same value reads the same in the check and
evaluation views, the quality reports and the optimizer's, live or static,
HTML or text.  A missing value (None, or NaN where a statistic is undefined)
is "—".
"""

from __future__ import annotations

import math

from ..i18n import t

__all__ = [
    "MISSING",
    "fmt_delta",
    "fmt_mean",
    "fmt_mean_delta",
    "fmt_ms",
    "fmt_score",
    "fmt_share",
    "fmt_usd",
    "fmt_weight",
]

MISSING = "—"


def _missing(value: float | None) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def fmt_score(value: float | None) -> str:
    """A case's score, or a statistic of scores (kappa, a spread): 3 significant digits.

    ``1``, ``0.5``, ``0.333``: a score reads as the metric returned it.
    """
    return MISSING if _missing(value) else f"{value:.3g}"


def fmt_mean(value: float | None) -> str:
    """A mean score (a run's, a candidate's on validation) or a reward's parts: 3 decimals.

    ``0.500``: means and the parts of a reward line up in a column.
    """
    return MISSING if _missing(value) else f"{value:.3f}"


def fmt_delta(value: float | None) -> str:
    """A change of score, signed, as precise as a score: ``+0.2``, ``-0.05``."""
    return MISSING if _missing(value) else f"{value:+.3g}"


def fmt_mean_delta(value: float | None) -> str:
    """A change of a mean score, as precise as the mean: ``+0.200``, ``-0.050``, ``0.000``.

    Said at the end of a sentence, ``+0`` would read as a number cut short ("+0.").
    """
    if value is None or _missing(value):
        return MISSING
    return fmt_mean(0.0) if round(value, 3) == 0 else f"{value:+.3f}"


def fmt_share(value: float | None) -> str:
    """A share of the cases: ``25%``."""
    return MISSING if _missing(value) else f"{value:.0%}"


def fmt_weight(value: float) -> str:
    """A reward weight: ``0.70``."""
    return f"{value:.2f}"


def fmt_ms(ms: float | None, lang: str) -> str:
    """A duration: ``12.0 ms`` under a second, ``1.50 s`` from there."""
    if ms is None:
        return t("value.not_measured", lang)
    return f"{ms:.1f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"


def fmt_usd(usd: float | None, lang: str) -> str:
    """Money in dollars, to the millionth and no trailing zeros: ``$0.0012``, ``$0``."""
    if usd is None:
        return t("value.not_measured", lang)
    return f"${usd:.6f}".rstrip("0").rstrip(".") if usd else "$0"
