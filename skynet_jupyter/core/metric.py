"""Loading a metric: from a callable, a source string, or a ``metric.py`` path.

Source runs **as its own module**, exactly as Skynet loads ``metric.py``: the
notebook's names are not visible to it.  The call form is read from the
signature of ``score`` and ``REWARD_SPEC`` is validated at once.
"""

from __future__ import annotations

import builtins
import inspect
import io
import linecache
import os
import re
import symtable
import sys
import tokenize
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..i18n import t
from .contract import METRIC_LOADS, METRIC_SIGNATURE, ContractError, short_repr
from .reward import RewardSpec
from .skynet_import import install_skynet_module
from .tracebacks import user_traceback

ScoreFunction = Callable[..., Any]


class Metric:
    """A loaded metric: its ``score``, call form and validated ``REWARD_SPEC``.

    A metric loaded from source pickles as its source (it is rebuilt on the
    other side), so it travels to Dask workers as ``metric.py`` would.
    """

    __slots__ = (
        "arity",
        "first_line",
        "module",
        "name",
        "path",
        "reward_spec",
        "score",
        "source",
    )

    def __init__(
        self,
        score: ScoreFunction,
        *,
        name: str = "default",
        reward_spec: Any = None,
        source: str | None = None,
        path: str | None = None,
        module: types.ModuleType | None = None,
        first_line: int = 1,
    ) -> None:
        self.score = score
        self.first_line = first_line  # the line of its cell the source starts on (2 in a cell)
        self.name = name
        self.arity = _call_arity(score)
        self.reward_spec = None if reward_spec is None else RewardSpec.from_dict(reward_spec)
        self.source = source
        self.path = path
        self.module = module

    @property
    def call_form(self) -> str:
        return "score(input, output, expected)" if self.arity == 3 else "score(input, output)"

    def __call__(self, input: Any, output: Any, expected: Any = None) -> Any:
        if self.arity == 3:
            return self.score(input, output, expected)
        return self.score(input, output)

    def __repr__(self) -> str:
        where = f" from {self.path}" if self.path else ""
        spec = " with REWARD_SPEC" if self.reward_spec else ""
        return f"<Metric {self.name!r}: {self.call_form}{spec}{where}>"

    def __reduce__(self) -> tuple[Any, ...]:
        if self.source is not None:
            return (_from_source, (self.source, self.name, self.path, self.first_line))
        return (_from_callable, (self.score, self.name, self.reward_spec))


def _from_source(source: str, name: str, path: str | None, first_line: int = 1) -> Metric:
    return load_metric(source, name=name, filename=path, first_line=first_line)


def _from_callable(score: ScoreFunction, name: str, spec: RewardSpec | None) -> Metric:
    return Metric(score, name=name, reward_spec=spec)


def _call_arity(score: object) -> int:
    """3 for ``score(input, output, expected)``, 2 for ``score(input, output)``."""
    if not callable(score):
        raise ContractError(METRIC_SIGNATURE, "signature.not_callable", value=short_repr(score))
    try:
        signature = inspect.signature(score)
    except (TypeError, ValueError):
        return 3  # a builtin or C callable: assume the full form
    _refuse_dspy_form(score, signature)
    for arity in (3, 2):
        try:
            signature.bind(*range(arity))
        except TypeError:
            continue
        _check_parameter_names(signature)
        return arity
    raise ContractError(METRIC_SIGNATURE, "signature.wrong", found=f"score{signature}")


_CONTRACT_PARAMETERS = ("input", "output", "expected")
# DSPy's names for metric(example, prediction, trace=None, pred_name=None, pred_trace=None).
_DSPY_EXAMPLE = ("example", "gold")
_DSPY_PREDICTION = ("pred", "prediction")
_DSPY_GEPA_ONLY = ("pred_name", "pred_trace")


def _is_dspy_form(signature: inspect.Signature) -> bool:
    """Whether the parameters are DSPy's, not the contract's.

    DSPy's own names where the contract passes the input and the output
    (``example``/``gold``, then ``pred``/``prediction``), ``trace`` where it
    passes ``expected``, or GEPA's ``pred_name``/``pred_trace`` anywhere.  One of
    ``example`` or ``pred`` alone is a Skynet metric's own choice of name.
    """
    names = list(signature.parameters)
    if any(name in _DSPY_GEPA_ONLY for name in names):
        return True
    positional = [
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    first, second, third = [*positional, "", "", ""][:3]
    return (first in _DSPY_EXAMPLE and second in _DSPY_PREDICTION) or third == "trace"


def _refuse_dspy_form(score: object, signature: inspect.Signature) -> None:
    """A DSPy metric would be called with the input as its example: say so, and the fix.

    Without this it loads as score(input, output, expected), ``trace`` receiving
    the expected value, and fails on the first case (a KeyError on the input).
    """
    if not _is_dspy_form(signature):
        return
    name = getattr(score, "__name__", None)
    function = name if isinstance(name, str) and name.isidentifier() else "metric"
    raise ContractError(
        METRIC_SIGNATURE, "signature.dspy", found=f"{function}{signature}", function=function
    )


def _check_parameter_names(signature: inspect.Signature) -> None:
    """Refuse a contract name in another position: ``score(output, expected)``.

    score is called by position, so there ``output`` would hold the input and
    ``expected`` the output; other names (``score(x, y)``) are the user's choice.
    """
    positional = [
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    for position, name in enumerate(positional[: len(_CONTRACT_PARAMETERS)]):
        if name in _CONTRACT_PARAMETERS and _CONTRACT_PARAMETERS.index(name) != position:
            raise ContractError(
                METRIC_SIGNATURE,
                "signature.misnamed",
                found=f"score{signature}",
                name=name,
                receives=_CONTRACT_PARAMETERS[position],
            )


def load_metric(
    metric: Metric | ScoreFunction | str | os.PathLike[str],
    *,
    name: str = "default",
    filename: str | None = None,
    reward_spec: Any = None,
    first_line: int = 1,
) -> Metric:
    """A :class:`Metric` from a callable, a ``metric.py`` path, or source text.

    Raises :class:`ContractError` at ``metric_loads`` (the source fails to run,
    with the user's traceback), ``metric_signature`` (no usable ``score``, or
    its parameters named in another order than the contract's) or
    ``reward_spec`` (an invalid ``REWARD_SPEC``).  ``first_line``: the line of
    a notebook cell that source text starts on (2, below ``%%skynet_metric``),
    so that errors and tracebacks count lines as the notebook shows them.
    """
    if isinstance(metric, Metric):
        return metric
    if callable(metric) and not isinstance(metric, str):
        spec = reward_spec
        if spec is None:
            spec = getattr(sys.modules.get(getattr(metric, "__module__", "")), "REWARD_SPEC", None)
            if spec is not None and getattr(metric, "__module__", "") == "__main__":
                spec = None  # a notebook's globals are not the metric's module
        return Metric(metric, name=name, reward_spec=spec)
    text = os.fspath(metric)
    if isinstance(metric, os.PathLike) or _names_a_file(text):
        path = Path(text)
        return _load_source(_metric_source(path), name=name, filename=str(path.resolve()))
    return _load_source(text, name=name, filename=filename, first_line=first_line)


def _names_a_file(text: str) -> bool:
    """Whether ``text`` is a path rather than source: an existing path always is.

    One line naming something that exists is a path, whatever its name
    (``metric(1).py``, ``METRIC.PY``, ``metric``); one line ending in ``.py`` in any
    case is a path even when missing (said so, rather than run as source).
    """
    if "\n" in text or not text.strip():
        return False
    try:
        if os.path.lexists(text):
            return True
    except (OSError, ValueError):  # too long for a path, or a NUL byte: source
        return False
    return text.rstrip().lower().endswith(".py")


class SourceFileError(ValueError):
    """A source file cannot be read as Python text; the message names the file and why."""

    def __init__(self, message_id: str, /, **fields: Any) -> None:
        self.message_id = message_id
        self.fields = fields
        super().__init__(self.message())

    def message(self, lang: str | None = None) -> str:
        return t(self.message_id, lang, **self.fields)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_source_error, (self.message_id, self.fields))


def _rebuild_source_error(message_id: str, fields: dict[str, Any]) -> SourceFileError:
    return SourceFileError(message_id, **fields)


_CODING_LINE = re.compile(rb"^[ \t\f]*#.*?coding[:=]", re.MULTILINE)  # PEP 263


def read_source(path: Path) -> str:
    """The text of a Python file, decoded as Python decodes it.

    A PEP 263 coding line or a UTF-8 BOM is honoured, else UTF-8.  Raises
    :class:`SourceFileError` naming the file: missing, a directory, unreadable,
    or not valid text in its encoding.
    """
    shown = str(path)
    if path.is_dir():
        raise SourceFileError("source.directory", path=shown)
    if path.exists() and not path.is_file():  # a pipe or a device: reading could block
        raise SourceFileError("source.not_regular", path=shown)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SourceFileError("source.missing", path=shown) from None
    except OSError as exc:
        raise SourceFileError("source.unreadable", path=shown, error=exc.strerror or exc) from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if _CODING_LINE.search(b"\n".join(data.splitlines()[:2])):  # an unknown coding name
            raise SourceFileError("source.bad_coding", path=shown, error=exc.msg) from None
        encoding = "utf-8"  # no coding line: its first lines are simply not UTF-8
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SourceFileError(
            "source.not_text",
            path=shown,
            encoding=encoding,
            line=line,
            byte=f"0x{data[exc.start]:02x}",
        ) from None


def _metric_source(path: Path) -> str:
    try:
        return read_source(path)
    except SourceFileError as problem:
        if problem.message_id == "source.missing":
            raise ContractError(METRIC_LOADS, "loads.no_file", path=str(path)) from None
        raise ContractError(METRIC_LOADS, problem.message_id, **problem.fields) from None


def _load_source(source: str, *, name: str, filename: str | None, first_line: int = 1) -> Metric:
    install_skynet_module()
    path = filename
    in_cell = first_line > 1
    # A cell's lines are counted as the notebook counts them: its own name, not the file's.
    filename = f"<skynet_metric {name}>" if in_cell or not filename else filename
    module = types.ModuleType("metric")
    module.__file__ = filename
    # Blank lines for the magic's line: line numbers (errors, tracebacks) are the cell's.
    numbered = "\n" * (first_line - 1) + source
    # Tracebacks through the metric show its lines, as for a real file.
    linecache.cache[filename] = (len(numbered), None, numbered.splitlines(True), filename)
    try:
        code = compile(numbered, filename, "exec")
        exec(code, module.__dict__)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _load_failure(exc, filename, in_cell) from None
    score = module.__dict__.get("score")
    if score is None:
        raise ContractError(METRIC_SIGNATURE, "signature.missing")
    metric = Metric(
        score,
        name=name,
        reward_spec=module.__dict__.get("REWARD_SPEC"),
        source=source,
        path=path,
        module=module,
        first_line=first_line,
    )
    return metric


def _load_failure(exc: BaseException, filename: str, in_cell: bool = False) -> ContractError:
    detail = user_traceback(exc)
    if isinstance(exc, NameError) and getattr(exc, "name", None):
        return ContractError(METRIC_LOADS, "loads.name_error", name=exc.name, detail=detail)
    if isinstance(exc, SyntaxError):
        return ContractError(
            METRIC_LOADS,
            "loads.syntax_cell" if in_cell else "loads.syntax",
            line=exc.lineno or 0,
            error=exc.msg,
            detail=detail,
        )
    error = f"{type(exc).__name__}: {short_repr(str(exc))[1:-1]}"
    line = _line_in(exc, filename)
    if line is not None:
        message_id = "loads.raised_line_cell" if in_cell else "loads.raised_line"
        return ContractError(METRIC_LOADS, message_id, line=line, error=error, detail=detail)
    return ContractError(METRIC_LOADS, "loads.raised", error=error, detail=detail)


def undefined_names(metric: Metric) -> list[str]:
    """The names the metric's source uses but never defines, sorted (``[]`` without source).

    The metric runs as its own module, so a notebook variable it uses fails only
    when a case reaches that line: said at registration instead.  Defined means
    bound in the module once it ran (functions, imports, ``from skynet import
    ...``, assignments), a Python builtin, or assigned somewhere under ``global``.
    """
    if metric.source is None or metric.module is None:
        return []
    try:
        table = symtable.symtable(metric.source, "<metric>", "exec")
    except SyntaxError:  # it loaded, so it compiles; symtable is only stricter in odd corners
        return []
    used: set[str] = set()
    bound: set[str] = set(metric.module.__dict__) | set(dir(builtins))
    pending = [table]
    while pending:
        scope = pending.pop()
        pending.extend(scope.get_children())
        module_level = scope.get_type() == "module"
        for symbol in scope.get_symbols():
            name = symbol.get_name()
            if module_level or symbol.is_global():
                if symbol.is_referenced():
                    used.add(name)
                if symbol.is_assigned() or symbol.is_imported():
                    bound.add(name)
    return sorted(used - bound)


def _line_in(exc: BaseException, filename: str) -> int | None:
    """The line of ``filename`` where ``exc`` was raised (its last frame there), if any."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return frames[-1].lineno if frames else None


def load_function(spec: Callable[..., Any] | str) -> Callable[..., Any]:
    """A run function from a callable or ``"path/to/run.py:FUNC"`` (default name ``run``)."""
    if callable(spec):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"run must be a function or 'FILE.py:FUNC', got {short_repr(spec)}.")
    path_text, _, func_name = spec.rpartition(":") if ":" in spec else (spec, "", "run")
    path = Path(path_text)
    if path.is_dir():
        raise FileNotFoundError(f"{path_text!r} is a directory, not a run file (from {spec!r}).")
    if not path.is_file():
        raise FileNotFoundError(f"No run file at {path_text!r} (from {spec!r}).")
    module = types.ModuleType(path.stem)
    module.__file__ = str(path.resolve())
    source = read_source(path)
    install_skynet_module()
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    function: object = module.__dict__.get(func_name or "run")
    if not callable(function):
        defined = [n for n, v in module.__dict__.items() if callable(v) and not n.startswith("_")]
        raise AttributeError(  # name and obj: what was missing, from where (shown translated)
            f"{path_text} defines no function {func_name or 'run'!r}; "
            f"it defines: {', '.join(defined) or 'nothing callable'}.",
            name=func_name or "run",
            obj=module,
        )
    return function
