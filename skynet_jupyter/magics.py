"""Notebook magics: ``%%skynet_metric``, ``%skynet_metric``, ``%skynet_check``, ``%skynet_eval``.

One ``Magics`` class.  Its instance holds the kernel's state: the registered
metrics, the cache of ``run(artifact, input)`` outputs and, per metric, its
last check (re-run on the cached outputs when the metric cell is edited and
run again).  Settings are traitlets, changed with ``%config SkynetMagics.x``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, line_magic, magics_class, no_var_expand
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from traitlets import Any as AnyTrait
from traitlets import Bool, Enum, Float, Int, TraitError, observe, validate

from ._magic_support import (
    CellMark,
    LastCheck,
    ReplayCache,
    lazy_show,
    no_new_run,
    save_source,
    shown_live,
)
from .contract import ContractError
from .dataset import DataError
from .engine import RunCache, check, evaluate
from .i18n import LANGUAGES, resolve_lang, t
from .metric import Metric, load_function, load_metric
from .render import headline
from .report import CheckReport, EvalReport
from .runtime import ModelSettings, configure, install_skynet_module, uninstall_skynet_module
from .tracebacks import user_traceback

__all__ = ["CheckFailed", "SkynetMagics", "load", "unload"]

DEFAULT_NAME = "default"
_MISSING: Any = object()


class CheckFailed(Exception):
    """A check (or evaluation) failed; its report is shown above and kept as ``.report``."""

    def __init__(self, message: str, report: CheckReport) -> None:
        super().__init__(message)
        self.report = report

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


class UserCodeError(Exception):
    """The user's own file failed to load: one sentence, then their own frames."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}", *([self.detail] if self.detail else [])]


# --- options shared by %skynet_check and %skynet_eval -------------------------------


def _options(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Apply magic_arguments decorators so that they list in the order given."""

    def apply(func: Any) -> Any:
        for decorate in reversed(decorators):
            func = decorate(func)
        return func

    return apply


_CASE_OPTIONS = _options(
    argument("--metric", metavar="NAME", help="the registered metric to use (default: default)"),
    argument(
        "--data",
        metavar="EXPR",
        required=True,
        help="the cases: a notebook variable or expression (DataFrame, list of dicts), "
        "or a .csv/.tsv/.jsonl/.json/.parquet path",
    ),
    argument("--outputs", metavar="COLS", help="Output column(s), comma-separated: form expected"),
    argument("--inputs", metavar="COLS", help="input column(s) (default: every other column)"),
    argument("--split", metavar="NAME", help="use only this split of the data"),
    argument(
        "--run",
        metavar="FUNC",
        help="outputs come from run(artifact, input): a notebook function or FILE.py:FUNC",
    ),
    argument(
        "--artifact",
        metavar="EXPR",
        help="what run receives: a notebook variable or expression, or a file (its text)",
    ),
    argument("--output-column", metavar="COL", help="outputs already in this column of the data"),
    argument("--cases", metavar="N", type=int, help="how many cases (check: 3; eval: all)"),
    argument(
        "--timeout",
        metavar="S",
        type=float,
        help="metric time limit per call in seconds, 1..600 (default: SkynetMagics.timeout, 60)",
    ),
    argument("--lang", choices=LANGUAGES, help="language of the report"),
    argument(
        "--no-raise",
        action="store_true",
        help="do not end the cell with an error when the check fails",
    ),
    argument("--fresh", action="store_true", help="call run again instead of using cached outputs"),
)


# --- the magics -----------------------------------------------------------------


@magics_class
class SkynetMagics(Magics):
    """Write a Skynet metric in a cell, check it against the contract, evaluate it."""

    raise_on_failure = Bool(
        True,
        help="End the cell with a one-line error when a check or evaluation fails, so that "
        "Run All and notebook CI stop there (--no-raise turns it off for one call).",
    ).tag(config=True)
    timeout = Float(
        60.0,
        min=1.0,
        max=600.0,
        help="The metric time limit in seconds, per call, 1..600 (--timeout overrides it).",
    ).tag(config=True)
    lang = Enum(
        LANGUAGES,
        default_value=None,
        allow_none=True,
        help="Language of reports and messages: en, fr or pt (default: SKYNET_LANG, then the "
        "locale, then English; --lang overrides it).",
    ).tag(config=True)
    concurrency = Int(
        8, min=1, help="How many cases %skynet_eval runs at once (--concurrency overrides it)."
    ).tag(config=True)
    task_model = AnyTrait(
        None,
        allow_none=True,
        help="The model llm() calls inside run(artifact, input): a litellm model string, a dict "
        "of litellm arguments, or a callable (instructions, input) -> str. Default: "
        "skynet_jupyter.configure(), then SKYNET_TASK_MODEL.",
    ).tag(config=True)
    metric_model = AnyTrait(
        None,
        allow_none=True,
        help="The model llm() calls inside the metric (the judge); default: the reflection "
        "model. Same forms as task_model; SKYNET_METRIC_MODEL.",
    ).tag(config=True)
    reflection_model = AnyTrait(
        None,
        allow_none=True,
        help="The optimizer's reflection model, also the judge when metric_model is not set. "
        "Same forms as task_model; SKYNET_REFLECTION_MODEL.",
    ).tag(config=True)

    @validate("task_model", "metric_model", "reflection_model")
    def _check_model(self, proposal: Any) -> Any:
        value = proposal["value"]
        if value is None:
            return None
        from ._models import check_model, protect_model

        try:  # a dict model is kept in a form whose repr hides its api_key
            return protect_model(check_model(value, f"SkynetMagics.{proposal['trait'].name}"))
        except TypeError as problem:
            raise TraitError(str(problem)) from None

    @observe("task_model", "metric_model", "reflection_model")
    def _configure_models(self, change: Any) -> None:
        # llm() called in a plain cell (outside a check) reads configure(): keep it in step.
        if change["new"] is not None:
            configure(**{change["name"]: change["new"]})

    def __init__(self, shell: Any = None, **kwargs: Any) -> None:
        super().__init__(shell=shell, **kwargs)
        self.metrics: dict[str, Metric] = {}
        self.run_cache = RunCache()
        self.last_checks: dict[str, LastCheck] = {}
        self.installed_skynet = False
        self._cell: CellMark | None = None
        self._on_post_run_cell = self._end_of_cell

    # --- %%skynet_metric / %skynet_metric ---------------------------------------

    @magic_arguments("skynet_metric")
    @argument("name", nargs="?", metavar="NAME", help="the metric's name (default: default)")
    @argument("--save", metavar="PATH", help="cell form: also write the cell to PATH (metric.py)")
    @argument("--force", action="store_true", help="with --save: overwrite a different PATH")
    @argument("--load", metavar="PATH", help="line form: register the metric file PATH")
    @line_cell_magic
    def skynet_metric(self, line: str, cell: str | None = None) -> None:
        """Register a metric: the cell runs as its own module, exactly as metric.py.

        Cell form: the cell defines score(input, output, expected=None) (and
        REWARD_SPEC); it is registered under NAME (default: default), its
        signature and REWARD_SPEC are checked at once, and a summary is shown.
        Names defined elsewhere in the notebook are not visible to it.
        --save PATH writes the cell to PATH; a different existing file is kept
        unless --force. When a metric already checked in this kernel is
        registered again, its last check re-runs on the cached outputs and its
        output updates in place.

        Line form: with no argument, list the registered metrics; with NAME,
        show one; --load PATH [NAME] registers a metric.py file.

        Example::

            %%skynet_metric --save metric.py
            def score(input, output, expected=None):
                if output == expected["label"]:
                    return 1.0, {"feedback": "Correct."}
                return 0.0, {"feedback": f"Expected {expected['label']!r}, got {output!r}."}
        """
        args = parse_argstring(self.skynet_metric, line)
        lang = self._lang()
        name = _unquote(args.name) if args.name else None
        if cell is None:
            if args.save or args.force:
                raise UsageError(t("magic.save_needs_cell", lang))
            if args.load:
                self._register(self._load_file(_unquote(args.load), name or DEFAULT_NAME), lang)
            elif name is not None:
                print(_summary(self._metric(name), lang))
            else:
                print(self._listing(lang))
            return
        if args.load:
            raise UsageError(t("magic.load_in_cell", lang))
        if args.force and not args.save:
            raise UsageError(t("magic.force_needs_save", lang))
        source = cell if cell.endswith("\n") else cell + "\n"
        metric = self._load_source(source, name or DEFAULT_NAME, lang)
        notes = []
        if args.save:
            path = Path(_unquote(args.save)).expanduser()
            saved, note = save_source(path, source, args.force, lang)
            notes.append(note)
            if saved is not None:
                metric.path = str(saved)
        self._register(metric, lang, notes)

    def _load_source(self, source: str, name: str, lang: str) -> Metric:
        try:
            return load_metric(source, name=name)
        except ContractError as problem:
            raise _in_language(problem, lang) from None

    def _load_file(self, path: str, name: str) -> Metric:
        try:
            return load_metric(Path(path).expanduser(), name=name)
        except ContractError as problem:
            raise _in_language(problem, self._lang()) from None

    def _register(self, metric: Metric, lang: str, notes: list[str] | None = None) -> None:
        self.metrics[metric.name] = metric
        lines = [_summary(metric, lang), *(f"  {note}" for note in notes or [])]
        if metric.name in self.last_checks:
            lines.append(f"  {self._recheck(metric, lang)}")
        print("\n".join(lines))

    def _listing(self, lang: str) -> str:
        if not self.metrics:
            return t("magic.list_none", lang)
        head = [t(f"magic.col_{c}", lang) for c in ("name", "call", "spec", "source")]
        rows = [
            [
                name,
                metric.call_form,
                t("magic.yes" if metric.reward_spec is not None else "magic.no", lang),
                metric.path or t("magic.source_cell", lang),
            ]
            for name, metric in self.metrics.items()
        ]
        widths = [max(len(row[i]) for row in [head, *rows]) for i in range(3)]
        return "\n".join(
            "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True))
            + "  "
            + row[3]
            for row in [head, *rows]
        )

    def _recheck(self, metric: Metric, lang: str) -> str:
        """Re-run the metric's last check on cached outputs; a line saying how it went."""
        last = self.last_checks[metric.name]
        options = dict(last.options)
        cache: RunCache = self.run_cache
        if options["run"] is not None:
            cache = ReplayCache(self.run_cache, options["run"])
            options["run"] = no_new_run(t("magic.run_not_repeated", lang))
        try:
            report = check(metric, last.data, run_cache=cache, models=self._models(), **options)
        except (DataError, ValueError, OSError) as problem:
            return t("magic.recheck_failed", lang, name=metric.name, error=problem)
        if last.view is not None:
            last.view.replace(report)
        return t("magic.rechecked", lang, name=metric.name, outcome=_outcome(report))

    # --- %skynet_check / %skynet_eval -----------------------------------------------

    @magic_arguments("skynet_check")
    @_CASE_OPTIONS
    @no_var_expand
    @line_magic
    def skynet_check(self, line: str) -> CheckReport:
        """Run the 3-case contract check on a registered metric, with a live view.

        Outputs come from run(artifact, input) (--run, --artifact) or from a
        column of the data (--output-column). --data, --run and --artifact name
        a notebook variable or expression first, then a file. Outputs of run are
        cached in the kernel, so checking an edited metric does not call run
        again (--fresh does). Returns the CheckReport (r = %skynet_check ...);
        a trailing ';' hides the view. A failed check ends the cell with one
        error line after the report, unless --no-raise or
        %config SkynetMagics.raise_on_failure = False.

        Example::

            %skynet_check --data tickets --outputs label --run classify --artifact prompt
            %skynet_check --data cases.csv --outputs label --run run.py:run --artifact prompt.txt
        """
        line, silenced = _trailing_semicolon(line)
        args = parse_argstring(self.skynet_check, line)
        return self._execute("check", args, silenced)

    @magic_arguments("skynet_eval")
    @_CASE_OPTIONS
    @argument(
        "--concurrency",
        metavar="N",
        type=int,
        help="cases run at once (default: SkynetMagics.concurrency, 8)",
    )
    @argument(
        "--executor",
        metavar="EXPR",
        help="a concurrent.futures.Executor to run the cases on (e.g. a Dask client's "
        "get_executor())",
    )
    @no_var_expand
    @line_magic
    def skynet_eval(self, line: str) -> EvalReport:
        """Evaluate a registered metric on every case (or --cases N), concurrently.

        The same options as %skynet_check, plus --concurrency and --executor.
        Shows progress and the running means; returns the EvalReport (mean
        score, means of named scores, per-case frame with .to_frame(), the
        worst cases first). Ends the cell with one error line when cases fail
        the contract, unless --no-raise.

        Example::

            report = %skynet_eval --data tickets --outputs label --run classify --artifact prompt
            report.to_frame()
        """
        line, silenced = _trailing_semicolon(line)
        args = parse_argstring(self.skynet_eval, line)
        return self._execute("eval", args, silenced)  # type: ignore[return-value]

    def _execute(self, kind: str, args: Any, silenced: bool) -> CheckReport:
        language = self._lang(args.lang)
        name = _unquote(args.metric) if args.metric else DEFAULT_NAME
        metric = self._metric(name)
        data = self._resolve("--data", args.data, _data_file)
        options = self._case_options(kind, args, language)
        engine_options: dict[str, Any] = {}
        if kind == "eval":
            concurrency = args.concurrency
            engine_options["concurrency"] = self.concurrency if concurrency is None else concurrency
            if args.executor:
                engine_options["executor"] = self._executor(args.executor)
        view = None
        listener = None
        if not silenced:
            from .widgets import LiveView

            view = LiveView(
                kind=kind, lang=language, metric_name=metric.name, reward_spec=metric.reward_spec
            )
            listener = lazy_show(view)
        cache = RunCache() if args.fresh else self.run_cache
        run_engine = check if kind == "check" else evaluate
        try:
            report = run_engine(
                metric,
                data,
                on_event=listener,
                run_cache=cache,
                models=self._models(),
                **options,
                **engine_options,
            )
        except (DataError, ValueError) as problem:
            raise UsageError(str(problem)) from None
        if cache is not self.run_cache:
            self.run_cache.store.update(cache.store)
        if kind == "check":  # what the edit loop re-runs when this metric is registered again
            self.last_checks[metric.name] = LastCheck(data, options, view)
        if report.interrupted:
            raise CheckFailed(_outcome(report), report)
        if not report.passed and self.raise_on_failure and not args.no_raise:
            raise CheckFailed(_outcome(report), report)
        if self._cell is None:
            self._cell = CellMark()
        return shown_live(report, self._cell)

    def _case_options(self, kind: str, args: Any, lang: str) -> dict[str, Any]:
        """The engine's keyword arguments from the parsed options (names resolved)."""
        if args.run and args.output_column:
            raise UsageError(t("magic.both_outputs", lang))
        if not args.run and not args.output_column:
            raise UsageError(t("magic.no_outputs", lang))
        run = self._resolve("--run", args.run, self._run_file) if args.run else None
        if run is not None and not callable(run):
            raise UsageError(t("magic.not_function", lang, text=args.run, type=type(run).__name__))
        artifact = None
        if args.artifact is not None:
            artifact = self._resolve("--artifact", args.artifact, _artifact_file)
        return {
            "outputs": _unquote(args.outputs) if args.outputs else None,
            "inputs": _unquote(args.inputs) if args.inputs else None,
            "split": _unquote(args.split) if args.split else None,
            "run": run,
            "artifact": artifact,
            "output_column": _unquote(args.output_column) if args.output_column else None,
            "cases": args.cases if args.cases is not None or kind == "eval" else 3,
            "timeout": args.timeout if args.timeout is not None else self.timeout,
            "lang": lang,
        }

    # --- resolving names ------------------------------------------------------------

    def _metric(self, name: str) -> Metric:
        metric = self.metrics.get(name)
        if metric is not None:
            return metric
        lang = self._lang()
        if not self.metrics:
            raise UsageError(t("magic.no_metric", lang))
        known = ", ".join(self.metrics)
        raise UsageError(t("magic.unknown_metric", lang, name=name, known=known))

    def _resolve(self, option: str, text: str, from_file: Callable[[str], Any]) -> Any:
        """A notebook variable or expression named by ``text``, else a file, else UsageError."""
        text = _unquote(text)
        namespace = self.shell.user_ns
        if text in namespace:
            return namespace[text]
        problem: BaseException | None = None
        try:
            code = compile(text, f"<{option}>", "eval")
        except SyntaxError:
            code = None
        if code is not None:
            try:
                return eval(code, self.shell.user_global_ns, namespace)
            except NameError as exc:
                problem = None if exc.name == text else exc
            except Exception as exc:
                problem = exc
        value = from_file(text)
        if value is not _MISSING:
            return value
        lang = self._lang()
        if problem is not None:
            error = f"{type(problem).__name__}: {problem}"
            raise UsageError(t("magic.eval_failed", lang, option=option, text=text, error=error))
        raise UsageError(t("magic.not_found", lang, option=option, text=text))

    def _run_file(self, text: str) -> Any:
        """``FILE.py:FUNC`` or ``FILE.py`` (function ``run``), if that file exists."""
        path, _, func = (text, "", "run") if text.endswith(".py") else text.rpartition(":")
        if not path.endswith(".py") or not Path(path).expanduser().is_file():
            return _MISSING
        spec = f"{Path(path).expanduser()}:{func or 'run'}"
        try:
            return load_function(spec)
        except (FileNotFoundError, AttributeError) as problem:
            raise UsageError(str(problem)) from None
        except Exception as exc:
            message = t(
                "magic.run_file_failed",
                self._lang(),
                path=path,
                error=f"{type(exc).__name__}: {exc}",
            )
            raise UserCodeError(message, user_traceback(exc)) from None

    def _executor(self, text: str) -> Any:
        executor = self._resolve("--executor", text, lambda _: _MISSING)
        if not callable(getattr(executor, "submit", None)):
            raise UsageError(
                t("magic.not_executor", self._lang(), text=text, type=type(executor).__name__)
            )
        return executor

    # --- settings and cell state ----------------------------------------------------

    def _lang(self, override: str | None = None) -> str:
        return resolve_lang(override or self.lang)

    def _models(self) -> ModelSettings:
        return ModelSettings(
            task_model=self.task_model,
            metric_model=self.metric_model,
            reflection_model=self.reflection_model,
        )

    def _end_of_cell(self, result: Any) -> None:
        if self._cell is not None:
            self._cell.open = False
            self._cell = None


# --- helpers -----------------------------------------------------------------------


def _trailing_semicolon(line: str) -> tuple[str, bool]:
    """The line without a final ';', and whether it had one (it hides the view)."""
    stripped = line.rstrip()
    if stripped.endswith(";"):
        return stripped[:-1], True
    return line, False


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _data_file(text: str) -> Any:
    path = Path(text).expanduser()
    return str(path) if path.exists() else _MISSING


def _artifact_file(text: str) -> Any:
    path = Path(text).expanduser()
    return path.read_text(encoding="utf-8") if path.is_file() else _MISSING


def _in_language(problem: ContractError, lang: str) -> ContractError:
    problem.args = (problem.message(lang),)
    return problem


def _summary(metric: Metric, lang: str) -> str:
    lines = [t("magic.registered", lang, name=metric.name, call=metric.call_form)]
    spec = metric.reward_spec
    if spec is None:
        lines.append(t("spec.none", lang))
    else:
        weights = {part: f"{value:.3g}" for part, value in spec.weights.items()}
        lines.append(t("magic.spec_weights", lang, **weights))
        lines.append(
            t(
                "magic.spec_references",
                lang,
                speed=f"{spec.speed_reference:g}",
                cost=f"{spec.cost_reference:g}",
            )
        )
        if spec.accuracy_reference is not None:
            lines.append(
                t("magic.spec_accuracy_reference", lang, reference=f"{spec.accuracy_reference:g}")
            )
    return "\n  ".join(lines)


def _outcome(report: CheckReport) -> str:
    """One line: the headline, and where it failed first."""
    lang = report.lang
    if report.interrupted:
        done = len(report.cases)
        return t("report.interrupted", lang, done=done, total=report.total_cases)
    failed = report.failed_steps
    if not failed:
        return f"{headline(report)}."
    first = failed[0]
    line = " ".join(f"{headline(report)} — {first.title}: {first.message}".split())
    return line if line.endswith((".", "!", "?", ")")) else line + "."


# --- the extension ---------------------------------------------------------------------


def load(ipython: Any) -> None:
    """Register the magics and the ``skynet`` module (a second call changes nothing)."""
    if "SkynetMagics" in ipython.magics_manager.registry:
        return
    installed = "skynet" not in sys.modules
    install_skynet_module()
    magics = SkynetMagics(shell=ipython)
    magics.installed_skynet = installed and getattr(
        sys.modules.get("skynet"), "__skynet_jupyter__", False
    )
    ipython.register_magics(magics)
    ipython.events.register("post_run_cell", magics._on_post_run_cell)


def unload(ipython: Any) -> None:
    """Remove everything :func:`load` added: the magics, the settings, the ``skynet`` module."""
    magics = ipython.magics_manager.registry.pop("SkynetMagics", None)
    if magics is None:
        return
    for kind, table in magics.magics.items():
        registered = ipython.magics_manager.magics[kind]
        for name, function in table.items():
            if registered.get(name) == function:
                del registered[name]
    if magics in ipython.configurables:
        ipython.configurables.remove(magics)
    with contextlib.suppress(ValueError):
        ipython.events.unregister("post_run_cell", magics._on_post_run_cell)
    magics._end_of_cell(None)
    if magics.installed_skynet:
        uninstall_skynet_module()
