"""The run keywords, declared once: what ``check``, ``evaluate``, the quality tools and
``align`` take besides their own arguments.

Each public function used to write out the same sixteen keyword parameters,
and the copies drifted (a default here, a missing option there).  Now each
takes ``**options: Unpack[...]`` of one of the ``TypedDict`` below (as
inspect_ai's ``GenerateConfigArgs`` does), so a type checker knows every
keyword and its type, and a :class:`Keywords` object gives the function its
defaults, its full signature (``help(check)``, ``check?`` and IPython's
keyword completion read ``__signature__``) and Python's own sentence for a
keyword it does not take, with the nearest one.  The rules on the values stay
in :class:`~skynet_jupyter.core.options.RunOptions`.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from ..i18n import resolve_lang, t
from .model_settings import ModelSettings
from .options import CHECK_CASES, CHECK_CONCURRENCY, EVAL_CONCURRENCY, RunOptions

if TYPE_CHECKING:  # only named in a type: concurrent.futures stays out of the import
    from concurrent.futures import Executor

__all__ = [
    "CHECK",
    "EVALUATE",
    "OPTIMIZER",
    "CaseKeywords",
    "CheckKeywords",
    "EvalKeywords",
    "Keywords",
    "OptimizerKeywords",
]


class CaseKeywords(TypedDict, total=False):
    """Which cases, where their outputs come from, and the limits they run under."""

    outputs: str | Sequence[str] | None
    inputs: str | Sequence[str] | None
    split: str | None
    run: Callable[[Any, Any], Any] | str | None
    artifact: Any
    output_column: str | None
    cases: int | None
    json_columns: str | Sequence[str] | None
    dtype: Any
    timeout: float
    run_timeout: float
    isolation: str
    lang: str | None
    models: ModelSettings | None


class SamplingKeywords(TypedDict, total=False):
    """Which of the cases a limited run takes (the optimizers' ``seed`` is GEPA's own)."""

    sample: str
    seed: int | None


class WorkerKeywords(TypedDict, total=False):
    """How many cases run at once, or the executor they run on."""

    concurrency: int
    executor: Executor | None


class CheckKeywords(CaseKeywords, SamplingKeywords, total=False):
    """``check``'s run keywords (its cases run side by side, as many as it has)."""


class EvalKeywords(CheckKeywords, WorkerKeywords, total=False):
    """``evaluate``'s run keywords, and probe's, stability's, agreement's and compare's."""


class OptimizerKeywords(CaseKeywords, WorkerKeywords, total=False):
    """``align``'s run keywords (its ``seed`` splits the labels and seeds GEPA)."""


_Function = TypeVar("_Function", bound=Callable[..., Any])

# Every RunOptions field's own default: a Keywords object names only where it differs.
_FIELD_DEFAULTS = {
    field.name: field.default for field in fields(RunOptions) if field.default is not MISSING
}


@dataclass(frozen=True)
class Keywords:
    """One family of run keywords (``declared``) with a function's defaults for them."""

    declared: type
    defaults: Mapping[str, Any]

    @property
    def names(self) -> tuple[str, ...]:
        """The keywords, in the order the signature shows them."""
        return tuple(self.declared.__annotations__)

    def options(self, function: str, given: Mapping[str, object]) -> RunOptions:
        """``given`` (a call's ``**options``) as checked options, these defaults filled in.

        A keyword the family does not declare is refused as Python refuses one,
        naming ``function`` (the one the user called) and the nearest keyword.
        """
        for name in given:
            if name not in self.declared.__annotations__:
                raise TypeError(self.unknown(function, name, given.get("lang")))
        return RunOptions.given(**{**self.defaults, **given})

    def unknown(self, function: str, name: str, lang: object = None) -> str:
        """Python's own sentence for an unexpected keyword, with the nearest one if close."""
        language = resolve_lang(lang if isinstance(lang, str) else None)
        close = difflib.get_close_matches(name, sorted(self.names), n=1)
        hint = t("magic.did_you_mean", language, name=close[0]) if close else ""
        return t("options.unknown_keyword", language, function=function, name=name) + hint

    def signed(self, function: _Function) -> _Function:
        """``function`` with the signature it really has: its ``**options`` spelled out,
        each keyword with its type and default (a decorator; the function is unchanged)."""
        own = inspect.signature(function)
        kept = [p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
        taken = {parameter.name for parameter in kept}
        spelled = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=_shown(self.defaults.get(name, _FIELD_DEFAULTS.get(name))),
                annotation=_written(annotation),
            )
            for name, annotation in self.declared.__annotations__.items()
            if name not in taken
        ]
        positional = [p for p in kept if p.kind is not p.KEYWORD_ONLY]
        keyword_only = [p for p in kept if p.kind is p.KEYWORD_ONLY]
        function.__signature__ = own.replace(  # type: ignore[attr-defined]
            parameters=[*positional, *spelled, *keyword_only]
        )
        return function


def _shown(default: Any) -> Any:
    """A default as the user writes it: ``"thread"``, not ``<Isolation.THREAD: 'thread'>``."""
    return default.value if isinstance(default, StrEnum) else default


def _written(annotation: Any) -> Any:
    """An annotation as the source wrote it (a TypedDict keeps it as a ``ForwardRef``)."""
    return getattr(annotation, "__forward_arg__", annotation)


CHECK = Keywords(CheckKeywords, {"cases": CHECK_CASES, "concurrency": CHECK_CONCURRENCY})
EVALUATE = Keywords(EvalKeywords, {"concurrency": EVAL_CONCURRENCY})
OPTIMIZER = Keywords(OptimizerKeywords, {"concurrency": EVAL_CONCURRENCY})
