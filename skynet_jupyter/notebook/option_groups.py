"""Every magic option, declared once, in groups; and the one way a parsed line becomes options.

A group is an ``argument_group`` (its title heads its options in ``%magic?``)
and its ``magic_arguments`` decorators; a magic lists the groups it takes, so
``%skynet_check``, ``%skynet_eval``, the quality magics and ``%skynet_optimize``
share each declaration.  :func:`run_options` turns the parsed line into one
checked :class:`RunOptions`, which the magic hands to the engine as it is.

The rules are :class:`RunOptions`'s (``core/options.py``): the help only
shows their ranges, and a broken rule is a usage error in the magics' words.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from types import MethodType
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import MagicArgumentParser

from ..core.options import (
    CHECK_CASES,
    CHECK_CONCURRENCY,
    EVAL_CONCURRENCY,
    MAX_RUN_TIMEOUT,
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    RUN_TIMEOUT,
    Isolation,
    Kind,
    OptionError,
    RunOptions,
    Sample,
)
from ..i18n import LANGUAGES, t
from .magic_args import Decorator, argument, argument_group, magic_parser
from .names import MISSING, artifact_file, no_file, quoted, unquote

if TYPE_CHECKING:
    from .session import Session

__all__ = [
    "CASES",
    "CHECK_OPTIONS",
    "DATA",
    "EVAL_OPTIONS",
    "LIMITS",
    "OPTIMIZER",
    "OUTPUTS",
    "REPORT",
    "REPORT_LANGUAGE",
    "SAMPLING",
    "TIMEOUTS",
    "WORKERS",
    "LazyParserMagic",
    "lazy_magic_arguments",
    "listed_options",
    "option_group",
    "outputs_group",
    "reflection_option",
    "run_options",
]


def listed_options(*decorators: Decorator) -> Decorator:
    """Apply magic_arguments decorators so that ``%magic?`` lists them in the order given."""

    def apply(func: Any) -> Any:
        for decorate in reversed(decorators):
            func = decorate(func)
        return func

    return apply


class LazyParserMagic:
    # A magic method whose argparse parser, and the help ``%magic?`` shows, are built at
    # first use: the parser when the magic first runs, the help (the parser's
    # format_help, as IPython's ``magic_arguments`` makes it) when it is asked for.
    # ``magic_arguments`` builds both when the class is defined: 18-20 ms of every
    # %load_ext for our ten magics (issue 26).  ``parse_argstring(self.magic, line)``
    # reads ``.parser``; ``%magic?`` reads ``__doc__`` through the bound method.

    def __init__(self, func: Any) -> None:
        self.__wrapped__ = func  # inspect.signature and %magic?? (the source) follow it
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self._parser: MagicArgumentParser | None = None
        self._help: str | None = None

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return self if instance is None else MethodType(self, instance)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__wrapped__(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # IPython's marks on the function: no_var_expand, has_arguments, argcmd_name...
        if name == "__wrapped__":
            raise AttributeError(name)
        return getattr(self.__wrapped__, name)

    @property
    def parser(self) -> MagicArgumentParser:
        if self._parser is None:
            self._parser = _magic_parser(self.__wrapped__)
        return self._parser

    @property
    def __doc__(self) -> str:  # type: ignore[override]
        if self._help is None:
            self._help = self.parser.format_help()
        return self._help


def _magic_parser(func: Any) -> MagicArgumentParser:
    """IPython's ``construct_parser``, but the function keeps its docstring: the help
    is formatted only when ``%magic?`` asks (half of the first check's parser, profiled)."""
    kwds = getattr(func, "argcmd_kwds", {})
    if "description" not in kwds:
        kwds["description"] = func.__doc__
    parser = magic_parser(func.argcmd_name, **kwds)
    group = None
    for decorator in func.decorators[::-1]:  # in the order they appear in the source
        result = decorator.add_to_parser(parser, group)
        if result is not None:
            group = result
    return parser


def lazy_magic_arguments(name: str) -> Decorator:
    """IPython's ``magic_arguments(name)``, the outermost decorator of a magic, but the
    parser and its help are built when the magic is first run or asked for its help."""

    def mark(func: Any) -> LazyParserMagic:
        if not getattr(func, "has_arguments", False):
            func.has_arguments = True
            func.decorators = []
        func.argcmd_name = name
        return LazyParserMagic(func)

    return mark


def option_group(title: str, *arguments: Decorator) -> Decorator:
    """A titled group of options.  Every option sits in a group: an option declared after a
    group would join it (that is how ``magic_arguments`` builds the parser)."""
    return listed_options(argument_group(title), *arguments)


# The ranges as the help shows them; the rules themselves are RunOptions's.
TIMEOUTS = f"{MIN_TIMEOUT:g}..{MAX_TIMEOUT:g}"
_RUN_TIMEOUTS = f"{MIN_TIMEOUT:g}..{MAX_RUN_TIMEOUT:g}"

_METRIC = argument(
    "--metric", metavar="NAME", help="the registered metric to use (default: default)"
)
_DATA = (
    argument(
        "--data",
        metavar="EXPR",
        required=True,
        help="the cases: a notebook variable or expression (DataFrame, list of dicts), "
        "or a .csv/.tsv/.jsonl/.json/.parquet path",
    ),
    argument("--outputs", metavar="COLS", help="Output column(s), comma-separated: form expected"),
    argument("--inputs", metavar="COLS", help="input column(s) (default: every other column)"),
    argument(
        "--json-columns",
        metavar="COLS",
        help="column(s) whose cells are JSON (lists, objects, numbers), comma-separated; "
        "other CSV/TSV cells stay text, as written",
    ),
    argument(
        "--dtype",
        metavar="EXPR",
        help="the types pandas gives CSV/TSV columns: a notebook variable or expression, "
        "e.g. str or \"{'answer': int}\"",
    ),
    argument("--split", metavar="NAME", help="use only this split of the data"),
    argument(
        "--cases",
        metavar="N",
        type=int,
        help=f"how many cases (default: {CHECK_CASES} for %%skynet_check, all for the others)",
    ),
)
CASES = option_group("cases", _METRIC, *_DATA)
# The data's options without --metric: %skynet_race names its metrics with --metrics.
DATA = option_group("cases", *_DATA)

SAMPLING = option_group(
    "sampling",
    argument(
        "--sample",
        choices=tuple(Sample),
        help="which cases --cases takes: the first (default) or a random sample",
    ),
    # Not "seed": %skynet_optimize's --seed is the optimizer's own.
    argument("--seed", dest="sample_seed", metavar="N", type=int, help="seed of --sample random"),
)


def outputs_group(*, optimizer: bool = False) -> Decorator:
    """Where outputs come from; for ``%skynet_optimize`` (``optimizer``), always ``run``."""
    outputs = [
        argument(
            "--run",
            metavar="FUNC",
            required=optimizer,
            help="outputs come from run(artifact, input): a notebook function or FILE.py:FUNC",
        ),
        argument(
            "--artifact",
            metavar="EXPR",
            required=optimizer,
            help="what run receives (%%skynet_optimize: the seed text it improves): "
            "'quoted text' as is, a notebook variable or expression, or a file (its text)",
        ),
    ]
    if not optimizer:
        outputs.append(
            argument(
                "--output-column", metavar="COL", help="outputs already in this column of the data"
            )
        )
    fresh = argument(
        "--fresh",
        action="store_true",
        help="ask the models again instead of using the run cache (new replies replace old)",
    )
    return option_group("outputs", *outputs, fresh)


OUTPUTS = outputs_group()

LIMITS = option_group(
    "limits",
    argument(
        "--timeout",
        metavar="S",
        type=float,
        help=f"metric time limit per call in seconds, {TIMEOUTS} "
        "(default: SkynetMagics.timeout, 60)",
    ),
    argument(
        "--run-timeout",
        metavar="S",
        type=float,
        help=f"run function time limit per case in seconds, {_RUN_TIMEOUTS} "
        f"(default: {RUN_TIMEOUT:g})",
    ),
    argument(
        "--isolation",
        choices=tuple(Isolation),
        help="run cases in threads (default) or in worker processes that are killed "
        "when a case runs past its limit (a call blocked in C is really stopped)",
    ),
)

WORKERS = option_group(
    "workers",
    argument(
        "--concurrency",
        metavar="N",
        type=int,
        help=f"cases run at once (default: SkynetMagics.concurrency, {EVAL_CONCURRENCY})",
    ),
    argument(
        "--executor",
        metavar="EXPR",
        help="a concurrent.futures.Executor to run the cases on (e.g. a Dask client's "
        "get_executor())",
    ),
)

# GEPA's stops, the split and the reflection model: %skynet_optimize and %skynet_align.
OPTIMIZER = option_group(
    "optimizer",
    argument(
        "--budget",
        metavar="N",
        type=int,
        default=40,
        help="metric calls GEPA may make (its max_metric_calls; default 40, at most 100000)",
    ),
    argument("--max-cost", metavar="USD", type=float, help="stop once this many dollars are spent"),
    argument(
        "--val",
        metavar="F|N",
        type=float,
        default=None,
        help="share of the cases kept to validate (0..1), or a whole number of cases (--val 6: "
        "six cases); default 30%% of the cases, but at least 4 (half of them under 8 cases)",
    ),
    argument(
        "--seed",
        metavar="N",
        type=int,
        default=0,
        help="random seed of GEPA and of the training/validation split (default 0)",
    ),
    argument(
        "--reflection-model",
        metavar="EXPR",
        help="the model that writes new texts: a notebook variable, or a litellm model string "
        "(default: SkynetMagics.reflection_model)",
    ),
)

_LANG = argument("--lang", choices=LANGUAGES, help="language of the report")
REPORT_LANGUAGE = option_group("report", _LANG)
REPORT = option_group(
    "report",
    _LANG,
    argument(
        "--no-raise",
        action="store_true",
        help="do not end the cell with an error when the check fails",
    ),
)


# --- the parsed line, as the engine's options -------------------------------------------


def _names(text: str | None) -> str | None:
    return unquote(text) if text else None


def run_options(session: Session, kind: Kind, args: argparse.Namespace) -> RunOptions:
    """The engine's options from a parsed line: checked first, then names resolved.

    ``kind="check"`` is ``%skynet_check`` (3 cases, one at a time); every
    other magic reads them as ``evaluate`` does.  Groups a magic does not take
    keep their defaults.  A broken rule is a usage error in the magics' words
    (``--run``, ``--output-column``).  The options carry the session's language:
    worker processes are told it, they do not inherit the caller's context.
    """
    try:
        given = _given_options(session, kind, args)
        run = _run_function(session, args.run or None)
        artifact = _artifact(session, args.artifact)
        executor = session.executor(args.executor) if getattr(args, "executor", None) else None
        dtype = session.resolve("--dtype", args.dtype, no_file) if args.dtype else None
        return replace(given, run=run, artifact=artifact, executor=executor, dtype=dtype)
    except OptionError as problem:
        raise UsageError(problem.for_magic(session.lang)) from None


def _given_options(session: Session, kind: Kind, args: argparse.Namespace) -> RunOptions:
    """The options as written, checked by RunOptions's rules before any name is looked up."""
    concurrency = getattr(args, "concurrency", None)
    if kind == "check":
        concurrency = CHECK_CONCURRENCY
    elif concurrency is None:
        concurrency = session.concurrency
    return RunOptions.given(
        outputs=_names(args.outputs),
        inputs=_names(args.inputs),
        json_columns=_names(args.json_columns),
        split=_names(args.split),
        run=args.run or None,  # its text for now: the rules come before any lookup
        output_column=_names(getattr(args, "output_column", None)),
        cases=args.cases if args.cases is not None or kind == "eval" else CHECK_CASES,
        sample=getattr(args, "sample", None) or Sample.FIRST,
        seed=getattr(args, "sample_seed", None),
        timeout=args.timeout if args.timeout is not None else session.timeout,
        run_timeout=args.run_timeout if args.run_timeout is not None else RUN_TIMEOUT,
        isolation=args.isolation or Isolation.THREAD,
        concurrency=concurrency,
        lang=session.lang,
        models=session.models,
    )


def _run_function(session: Session, text: str | None) -> Any:
    """``--run``: a notebook function or ``FILE.py:FUNC``; a usage error if not callable."""
    if not text:
        return None
    run = session.resolve("--run", text, session.run_file)
    if not callable(run):
        raise UsageError(t("magic.not_function", text=text, type=type(run).__name__))
    return run


def _artifact(session: Session, text: str | None) -> Any:
    """``--artifact``: quoted text as is, else a notebook name, an expression or a file."""
    if text is None:
        return None
    artifact = quoted(text)
    if artifact is None:
        artifact = session.resolve("--artifact", text, artifact_file)
    return artifact


def reflection_option(session: Session, args: argparse.Namespace) -> Any:
    """``--reflection-model``: a notebook variable (a callable model), else the text is a
    litellm model string; None when not given (the configured one answers)."""
    if not args.reflection_model:
        return None
    return session.resolve(
        "--reflection-model", args.reflection_model, lambda text: text or MISSING
    )


# What %skynet_check takes; %skynet_eval and every measurement built on it add workers.
CHECK_OPTIONS = listed_options(CASES, OUTPUTS, SAMPLING, LIMITS)
EVAL_OPTIONS = listed_options(CHECK_OPTIONS, WORKERS)
