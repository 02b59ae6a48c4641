"""The options of a run, checked once: ``RunOptions``.

``check``, ``evaluate``, the quality tools and ``align`` take their options as keyword
arguments (declared once, in ``core/keywords.py``); the magics and ``skynet-check`` parse
theirs from a line.
All of them build one frozen :class:`RunOptions` and hand it on as it is (to
``run.engine.execute``), and every rule on options lives here, in
:meth:`RunOptions.__post_init__`: the time limits' ranges, the isolation and
sampling kinds, how many cases and workers, and "``run`` or
``output_column``, not both, and one of them".  The engine (``execute``) reads
the checked object and checks nothing again.

A broken rule raises :class:`OptionError` (a ``ValueError``; for the outputs
rule an :class:`OutputsError`, also a ``DataError``), whose text is the API's
sentence in the options' language.  The magics and ``skynet-check`` name their
options differently (``--run``, ``--timeout``): :meth:`OptionError.for_magic`
and :meth:`OptionError.for_cli` give the same rule in their words.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar

from ..i18n import language, resolve_lang, t
from .contract import short_repr
from .errors import DataError
from .model_settings import ModelSettings

if TYPE_CHECKING:  # only named in a field's type: concurrent.futures (and logging) stay out
    from concurrent.futures import Executor

__all__ = [
    "CHECK_CASES",
    "CHECK_CONCURRENCY",
    "EVAL_CONCURRENCY",
    "MAX_BUDGET",
    "MAX_CONCURRENCY",
    "MAX_REPEATS",
    "MAX_RUN_TIMEOUT",
    "MAX_SCORINGS",
    "MAX_TIMEOUT",
    "MIN_TIMEOUT",
    "RUN_TIMEOUT",
    "Isolation",
    "Kind",
    "Limits",
    "OptionError",
    "OutputsError",
    "RunOptions",
    "Sample",
    "checked_limits",
    "finite_number",
    "refuse_cases",
    "refuse_count",
    "refuse_sample",
    "speaks_its_options_language",
    "within_seconds",
]

RUN_TIMEOUT = 600.0  # the run function's default limit
CHECK_CASES = 3  # the contract check's cases by default (evaluate: all of them)
EVAL_CONCURRENCY = 8  # cases evaluate runs at once by default
# The check's cases run side by side too (issue 45): a metric that hangs on every case costs
# one time limit, not one per case.  Threads start one worker first and the others only once
# the cases are seen to wait (``run.workers._Ramp``), so a quick metric runs on one thread.
CHECK_CONCURRENCY = EVAL_CONCURRENCY
MIN_TIMEOUT, MAX_TIMEOUT = 1.0, 600.0  # the metric's limit per call
MAX_RUN_TIMEOUT = 86400.0  # a run function may be a long agent; a day is surely a mistake
# Counts a measurement or a search takes, bounded before it starts: generous, but each
# metric call keeps a result in memory (repeats=10**9 once filled a 24 GB machine).
MAX_REPEATS = 1_000  # stability: scorings of the same output
MAX_SCORINGS = 200_000  # metric calls one quality measurement may make (cases x repeats)
MAX_BUDGET = 100_000  # the optimizer's metric calls
MAX_CONCURRENCY = 256  # cases at once (a worker process each with isolation="process")

Kind = Literal["check", "eval"]
RunFunction = Callable[[Any, Any], Any]


@dataclass(frozen=True, slots=True)
class Limits:
    """Time limits in seconds: the metric's (per call) and the run function's."""

    metric: float = 60.0
    run: float = RUN_TIMEOUT

    @classmethod
    def checked(
        cls, timeout: float, run_timeout: float = RUN_TIMEOUT, lang: str | None = None
    ) -> Limits:
        """Limits from user options, each refused with a sentence when out of range."""
        return checked_limits(timeout, run_timeout, lang)


class Isolation(StrEnum):
    """Where cases run: worker threads, or worker processes killed past their limit."""

    THREAD = "thread"
    PROCESS = "process"


class Sample(StrEnum):
    """Which cases a limited run takes: the first ``cases``, or ``cases`` at random."""

    FIRST = "first"
    RANDOM = "random"


class OptionError(ValueError):
    """An option breaks a rule.  ``str()`` is the API's sentence, in the options' language.

    ``message_id`` and ``fields`` give it in any language (:meth:`message`);
    ``option`` is the keyword argument at fault and ``given`` its value.
    """

    def __init__(
        self,
        message_id: str,
        lang: str | None,
        option: str,
        given: object = None,
        /,
        **fields: Any,
    ) -> None:
        self.rule = message_id  # the message id of the rule broken
        self.message_id: str | None = message_id  # as a DataError has it
        self.option = option
        self.given = given
        self.fields = fields
        # Not super(): in OutputsError the next class is DataError, whose __init__ differs.
        ValueError.__init__(self, t(message_id, lang, **fields))

    def message(self, lang: str | None = None) -> str:
        """The API's sentence in ``lang``."""
        return t(self.rule, lang, **self.fields)

    def for_magic(self, lang: str | None = None) -> str:
        """The sentence for a magic's line: its options are ``--run``, ``--output-column``."""
        return t(_MAGIC_WORDS.get(self.rule, self.rule), lang, **self.fields)

    def for_cli(self, lang: str | None = None) -> str:
        """The sentence for ``skynet-check``: names its option and shows the number as typed."""
        if self.option in ("timeout", "run_timeout"):
            return seconds_problem(f"--{self.option.replace('_', '-')}", self.given, lang)
        if self.option == "cases":
            return t("cli.cases_range", lang, value=self.given)
        return self.for_magic(lang)

    def __reduce__(self) -> tuple[Any, ...]:
        # It may cross a process boundary (a worker, Dask) with its fields intact; the value
        # given only when it is a plain one (an executor does not pickle).
        given = self.given if isinstance(self.given, int | float | str) else None
        return (_rebuilt, (type(self), self.rule, self.option, given, self.fields))


class OutputsError(OptionError, DataError):
    """``run`` and ``output_column`` both given, or neither: the data gives no outputs.

    A ``DataError`` as well, as it always was.
    """


def _rebuilt(
    kind: type[OptionError], message_id: str, option: str, given: object, fields: dict[str, Any]
) -> OptionError:
    return kind(message_id, None, option, given, **fields)


# The magics say "--run" where the API says "run=".
_MAGIC_WORDS = {
    "data.both_outputs": "magic.both_outputs",
    "data.no_outputs": "magic.no_outputs",
}


# --- the rules, each once -------------------------------------------------------------


def within_seconds(value: object, low: float, high: float) -> bool:
    """A number of seconds in ``low..high``; NaN, ``True`` and text are not."""
    # bool is an int, but timeout=True is a mistake, not one second.
    return isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high


def seconds_problem(option: str, value: object, lang: str | None, high: float = 0.0) -> str:
    """``skynet-check``'s sentence for a time limit out of range (``--load-timeout`` too)."""
    high = high or (MAX_RUN_TIMEOUT if option == "--run-timeout" else MAX_TIMEOUT)
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    low = f"{MIN_TIMEOUT:g}"
    return t("cli.timeout_range", lang, option=option, low=low, high=f"{high:g}", value=shown)


# The rule each time limit breaks when out of its range.
_SECONDS_RULES = {"timeout": "limits.timeout", "run_timeout": "limits.run_timeout"}


def _refuse_seconds(option: str, value: object, high: float, lang: str) -> None:
    if not within_seconds(value, MIN_TIMEOUT, high):
        low, top = f"{MIN_TIMEOUT:g}", f"{high:g}"
        fields = {"low": low, "high": top, "value": short_repr(value)}
        raise OptionError(_SECONDS_RULES[option], lang, option, value, **fields)


def checked_limits(
    timeout: object, run_timeout: object = RUN_TIMEOUT, lang: str | None = None
) -> Limits:
    """The runner's time limits, each refused with a sentence when out of its range."""
    language = resolve_lang(lang)
    _refuse_seconds("timeout", timeout, MAX_TIMEOUT, language)
    _refuse_seconds("run_timeout", run_timeout, MAX_RUN_TIMEOUT, language)
    assert isinstance(timeout, int | float) and isinstance(run_timeout, int | float)
    return Limits(metric=float(timeout), run=float(run_timeout))


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def refuse_cases(count: object, lang: str | None = None) -> None:
    """``cases``: None (all of them) or a whole number of 1 or more."""
    if count is not None and not _whole(count):
        raise OptionError("limits.cases", lang, "cases", count, value=short_repr(count))


def finite_number(value: object) -> bool:
    """A real number that is not NaN nor infinite (``True`` and text are not numbers here)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def refuse_count(
    option: str, value: object, high: int, lang: str | None = None, *, low: int = 1
) -> None:
    """A count (``repeats``, ``budget``, ...): a whole number in ``low..high``, or a sentence.

    The bound comes before any work: ``repeats=10**9`` would fill the memory first.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        fields = {"option": option, "low": low, "high": high, "value": short_repr(value)}
        raise OptionError("limits.count", lang, option, value, **fields)


def refuse_sample(sample: object, lang: str | None = None) -> Sample:
    """``sample`` as a :class:`Sample`, or an error naming the two kinds."""
    return _member(Sample, sample, "limits.sample", "sample", lang)


_Kind = TypeVar("_Kind", bound=StrEnum)


def _member(
    kind: type[_Kind], value: object, message_id: str, option: str, lang: str | None
) -> _Kind:
    """``value`` as a member of ``kind`` (its string is enough), or the rule's sentence."""
    if isinstance(value, str):
        for member in kind:
            if value == member.value:
                return member
    raise OptionError(message_id, lang, option, value, value=short_repr(value))


# --- the options ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunOptions:
    """Everything ``check``/``evaluate`` need besides the metric, the data, the listener
    and the run cache; checked when made (a bad option never reaches the engine).

    ``isolation`` and ``sample`` may be given as their strings; ``lang`` as None
    (then ``SKYNET_LANG``, then the locale): once made, they are an
    :class:`Isolation`, a :class:`Sample` and a language code.
    """

    outputs: str | Sequence[str] | None = None
    inputs: str | Sequence[str] | None = None
    split: str | None = None
    run: RunFunction | str | None = None
    artifact: Any = None
    output_column: str | None = None
    cases: int | None = None
    sample: Sample = Sample.FIRST
    seed: int | None = None
    json_columns: str | Sequence[str] | None = None
    dtype: Any = None
    timeout: float = 60.0
    run_timeout: float = RUN_TIMEOUT
    isolation: Isolation = Isolation.THREAD
    concurrency: int = 1
    executor: Executor | None = None
    lang: str | None = None
    models: ModelSettings | None = None

    @classmethod
    def given(
        cls,
        *,
        isolation: str = Isolation.THREAD,
        sample: str = Sample.FIRST,
        lang: str | None = None,
        **options: Any,
    ) -> RunOptions:
        """Options from a caller's loose values (``isolation="process"``): checked, typed."""
        language = resolve_lang(lang)
        return cls(
            isolation=_member(Isolation, isolation, "limits.isolation", "isolation", language),
            sample=refuse_sample(sample, language),
            lang=language,
            **options,
        )

    def __post_init__(self) -> None:
        lang = resolve_lang(self.lang)  # an unknown language is the first thing said
        set_field = object.__setattr__  # frozen: only the normalized forms are written
        set_field(self, "lang", lang)
        if not _whole(self.concurrency):
            given = self.concurrency
            raise OptionError("limits.concurrency", lang, "concurrency", given, value=repr(given))
        refuse_count("concurrency", self.concurrency, MAX_CONCURRENCY, lang)
        checked_limits(self.timeout, self.run_timeout, lang)
        isolation = _member(Isolation, self.isolation, "limits.isolation", "isolation", lang)
        set_field(self, "isolation", isolation)
        if self.executor is not None and not callable(getattr(self.executor, "submit", None)):
            shown = short_repr(self.executor)
            raise OptionError("limits.executor_type", lang, "executor", self.executor, value=shown)
        if self.executor is not None and isolation is not Isolation.THREAD:
            raise OptionError("limits.isolation_executor", lang, "executor", self.executor)
        if self.run is not None and self.output_column is not None:
            raise OutputsError("data.both_outputs", lang, "run")
        if self.run is None and self.output_column is None:
            raise OutputsError("data.no_outputs", lang, "run")
        refuse_cases(self.cases, lang)
        set_field(self, "sample", refuse_sample(self.sample, lang))

    @property
    def language(self) -> str:
        """The resolved language code (``lang`` once made)."""
        return self.lang or "en"

    @property
    def limits(self) -> Limits:
        """The runner's time limits."""
        return Limits(metric=float(self.timeout), run=float(self.run_timeout))


_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


def speaks_its_options_language(
    measure: Callable[_Params, _Result],
) -> Callable[_Params, _Result]:
    """``measure``, run in the language of the :class:`RunOptions` it is given.

    The ``*_with`` twins (``probe_with``, ``align_with``, ...) are where a run
    enters with its options checked, from the public function or from a magic:
    the language is set there once, and every sentence made below reads it
    (``i18n.current_lang``) instead of being handed ``lang``.
    """

    @functools.wraps(measure)
    def speaking(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
        options = next(v for v in (*args, *kwargs.values()) if isinstance(v, RunOptions))
        with language(options.language):
            return measure(*args, **kwargs)

    return speaking
