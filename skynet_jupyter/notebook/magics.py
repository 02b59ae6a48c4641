"""Notebook magics: ``%%skynet_metric``, ``%skynet_metric``, ``%skynet_check``, ``%skynet_eval``.

One ``Magics`` class.  Its instance holds the kernel's state: the registered
metrics, the run cache (the replies of the model calls made through
``llm()``) and, per metric, its last check (its outputs replayed when the
metric cell is edited and run again).
Settings are traitlets, changed with ``%config SkynetMagics.x``.
"""

from __future__ import annotations

import contextlib
import sys
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from IPython.core.error import UsageError
from IPython.core.magic import Magics, magics_class
from traitlets import Any as AnyTrait
from traitlets import Bool, Enum, Float, Int, TraitError, Unicode, observe, validate

from ..core.contract import ContractError
from ..core.errors import DataError
from ..core.model_settings import ModelSettings
from ..core.options import EVAL_CONCURRENCY, MAX_TIMEOUT, MIN_TIMEOUT, Kind
from ..core.skynet_import import install_skynet_module, uninstall_skynet_module
from ..i18n import LANGUAGES, current_lang, language, surface, t
from ..models import import_ahead
from ..models.settings import settings_changed, use_session_settings
from .align_magic import ALIGN_OPTIONS, run_align
from .cell_display import CellMark
from .check_failed import CheckFailed
from .history_magics import load_history, unload_history
from .magic_args import Decorator, argument, line_cell_magic, line_magic, no_var_expand, parse_line
from .names import DEFAULT_NAME, data_file, unquote
from .optimize_magic import OPTIMIZE_OPTIONS, run_optimize
from .option_groups import (
    CHECK_OPTIONS,
    EVAL_OPTIONS,
    REPORT,
    TIMEOUTS,
    lazy_magic_arguments,
    listed_options,
    run_options,
)
from .quality_magics import (
    AGREE_OPTIONS,
    COMPARE_OPTIONS,
    PROBE_OPTIONS,
    STABILITY_OPTIONS,
    run_quality,
)
from .race_magic import RACE_OPTIONS, run_race
from .save import save_source
from .session import LiveDisplay, Session, call_showing, find_metric

# What a check needs (the engine, the reports, the optimizers) is imported when a magic
# runs, not at %load_ext, which stays cheap in every kernel (issue 26).
if TYPE_CHECKING:
    import argparse

    from ..alignment.report import AlignReport
    from ..core.metric import Metric
    from ..core.report import CheckReport, EvalReport
    from ..optimizers.optimize import OptimizeReport
    from ..optimizers.race_report import RaceReport
    from ..run.engine import RunCache
    from ..show.progress_line import ProgressLine
    from .replay import LastCheck

__all__ = ["CheckFailed", "SkynetMagics", "load", "unload"]


# --- the magics -----------------------------------------------------------------


R = TypeVar("R")
Work = Callable[[Session, "argparse.Namespace", bool], R]  # a magic's work, once parsed


def _quality_magic(name: str, own_options: Decorator) -> Decorator:
    """What every metric-quality magic is: %skynet_eval's options, its own, the report's."""
    return listed_options(
        lazy_magic_arguments(name), EVAL_OPTIONS, own_options, REPORT, no_var_expand, line_magic
    )


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
        min=MIN_TIMEOUT,
        max=MAX_TIMEOUT,
        help=f"The metric time limit in seconds, per call, {TIMEOUTS} (--timeout overrides it).",
    ).tag(config=True)
    lang = Enum(
        LANGUAGES,
        default_value=None,
        allow_none=True,
        help="Language of reports and messages: en, fr or pt (default: SKYNET_LANG, then the "
        "locale, then English; --lang overrides it).",
    ).tag(config=True)
    concurrency = Int(
        EVAL_CONCURRENCY,
        min=1,
        help="How many cases %skynet_eval runs at once (--concurrency overrides it).",
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

    cache_dir = Unicode(
        ".skynet_cache",
        allow_none=True,
        help="Folder (relative to the working directory) where the replies of model calls "
        "made through llm() (task model and judge) are kept across kernel restarts, in "
        "runs.sqlite; None keeps them in the kernel only. run(artifact, input) runs every "
        "time; --fresh asks the models again for one call; %skynet_cache shows the entries, "
        "size and hits, and --clear empties it.",
    ).tag(config=True)

    @validate("task_model", "metric_model", "reflection_model")
    def _check_model(self, proposal: Any) -> Any:
        value = proposal["value"]
        if value is None:
            return None
        from ..core.secrets import protect_model
        from ..models.llm import check_model

        try:  # a dict model is kept in a form whose repr hides its api_key
            return protect_model(check_model(value, f"SkynetMagics.{proposal['trait'].name}"))
        except TypeError as problem:
            raise TraitError(str(problem)) from None

    @observe("task_model", "metric_model", "reflection_model")
    def _models_changed(self, change: Any) -> None:
        # llm() in a plain cell reads these live (model_settings.use_session_settings, set by
        # load()); nothing is copied into configure(), so None really unsets a model.
        settings_changed()

    def __init__(self, shell: Any = None, **kwargs: Any) -> None:
        super().__init__(shell=shell, **kwargs)  # type: ignore[no-untyped-call, unused-ignore]  # IPython 8's Magics.__init__ is unannotated, 9's is not
        self.metrics: dict[str, Metric] = {}
        self.previous_metrics: dict[str, Metric] = {}  # %skynet_compare NAME: the last version
        self._run_cache: RunCache | None = None  # made at its first use: see run_cache
        self._cache_path: Path | None = None
        self._open_cache_dir()
        self.last_checks: dict[str, LastCheck] = {}
        self.installed_skynet = False
        self._cell: CellMark | None = None
        self._on_post_run_cell = self._end_of_cell

    @observe("cache_dir")
    def _cache_dir_changed(self, change: Any) -> None:
        self._open_cache_dir()

    def _open_cache_dir(self) -> None:
        folder = self.cache_dir
        # Resolved now: a later os.chdir in the notebook must not move the cache.
        path = None if folder is None else Path(folder).expanduser().resolve() / "runs.sqlite"
        self._cache_path = path
        if self._run_cache is not None:
            self._run_cache.use_file(path)

    @property
    def run_cache(self) -> RunCache:
        """The kernel's run cache (model replies, in memory and in ``cache_dir``).

        Made, and its file opened, at its first use: the engine it comes with is
        not imported at ``%load_ext``.
        """
        if self._run_cache is None:
            from ..run.engine import RunCache

            self._run_cache = RunCache()
            self._run_cache.use_file(self._cache_path)
        return self._run_cache

    # --- %%skynet_metric / %skynet_metric ---------------------------------------

    @lazy_magic_arguments("skynet_metric")
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
        Names defined elsewhere in the notebook are not visible to it: a warning
        names any the cell uses.
        --save PATH writes the cell to PATH, replacing what %%skynet_metric saved
        there for the same metric (edit, run, saved; also after a restart or from
        another notebook); a file anyone else changed is kept, and the cell ends in
        error naming the change, unless --force. When a metric
        already checked in this kernel is
        registered again, its last check is replayed: the edited metric scores
        that check's outputs (run is not called) and its output updates in place.

        Line form: with no argument, list the registered metrics; with NAME,
        show one; --load PATH [NAME] registers a metric.py file.

        Example::

            %%skynet_metric --save metric.py
            def score(input, output, expected=None):
                if output == expected["label"]:
                    return 1.0, {"feedback": "Correct."}
                return 0.0, {"feedback": f"Expected {expected['label']!r}, got {output!r}."}
        """
        args = parse_line(self.skynet_metric, line)
        # no --lang: the setting, SKYNET_LANG, the locale; a replayed check is the notebook's
        with language(self.lang), surface("notebook"):
            if cell is None:
                self._metric_line(args)
            else:
                self._metric_cell(args, cell)

    def _metric_line(self, args: argparse.Namespace) -> None:
        """``%skynet_metric``: list the metrics, show one, or register a file (--load)."""
        name = unquote(args.name) if args.name else None
        if args.save or args.force:
            raise UsageError(t("magic.save_needs_cell"))
        if args.load:
            self._register(self._load_file(unquote(args.load), name or DEFAULT_NAME))
        elif name is not None:
            print(_summary(find_metric(self.metrics, name)))
        else:
            print(self._listing())

    def _metric_cell(self, args: argparse.Namespace, cell: str) -> None:
        """``%%skynet_metric``: register the cell (and write it with --save)."""
        name = unquote(args.name) if args.name else None
        if args.load:
            raise UsageError(t("magic.load_in_cell"))
        if args.force and not args.save:
            raise UsageError(t("magic.force_needs_save"))
        source = cell if cell.endswith("\n") else cell + "\n"
        metric = self._load_source(source, name or DEFAULT_NAME)
        notes: list[str] = []
        if args.save:
            path = Path(unquote(args.save)).expanduser()
            try:
                saved, note = save_source(path, source, args.force, metric.name)
            except UsageError as refused:  # the cell's code is kept; the cell ends in error
                self._register(metric, notes, quietly=True)  # the error says it is
                _warn_undefined(metric)
                if _is_file(path):  # the file kept holds the other metric
                    kept = t("magic.registered_not_saved", name=metric.name, path=str(path))
                else:  # a directory, a pipe, nothing: it holds no metric
                    kept = t("magic.registered_nothing_saved", name=metric.name)
                raise UsageError(f"{refused} {kept}") from None
            notes.append(note)
            metric.path = str(saved)
        self._register(metric, notes)
        _warn_undefined(metric)

    def _load_source(self, source: str, name: str) -> Metric:
        from ..core.metric import load_metric  # at the first metric, not at %load_ext

        try:
            # The cell's body starts below the %%skynet_metric line: its line 2.
            return load_metric(source, name=name, first_line=2)
        except ContractError as problem:
            raise _in_language(problem) from None

    def _load_file(self, path: str, name: str) -> Metric:
        from ..core.metric import load_metric

        try:
            return load_metric(Path(path).expanduser(), name=name)
        except ContractError as problem:
            raise _in_language(problem) from None

    def _register(
        self, metric: Metric, notes: list[str] | None = None, *, quietly: bool = False
    ) -> None:
        earlier = self.metrics.get(metric.name)
        if earlier is not None and earlier.source != metric.source:
            self.previous_metrics[metric.name] = earlier
        self.metrics[metric.name] = metric
        if quietly:
            return
        lines = [_summary(metric), *(f"  {note}" for note in notes or [])]
        if metric.name in self.last_checks:
            lines.append(f"  {self._recheck(metric)}")
        print("\n".join(lines))

    def _listing(self) -> str:
        if not self.metrics:
            return t("magic.list_none")
        columns = ("magic.col_name", "magic.col_call", "magic.col_spec", "magic.col_source")
        head = [t(column) for column in columns]
        rows = [
            [
                name,
                metric.call_form,
                t("magic.yes" if metric.reward_spec is not None else "magic.no"),
                metric.path or t("magic.source_cell"),
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

    def _recheck(self, metric: Metric) -> str:
        """Re-run the metric's last check on cached outputs; a line saying how it went."""
        last = self.last_checks[metric.name]
        from ..run.engine import execute

        options = replace(last.options, models=self._models())
        try:
            report = execute(
                "check",
                metric,
                last.data,
                options,
                on_event=None,
                run_cache=self.run_cache,
                known_outputs=last.known_outputs(),
                record=True,  # an edit replayed is a check of the new version: in the run log
            )
        except (DataError, ValueError, OSError) as problem:
            return t("magic.recheck_failed", name=metric.name, error=problem)
        if last.view is not None:
            last.view.replace(report)
        return t("magic.rechecked", name=metric.name, outcome=_outcome(report))

    # --- %skynet_check / %skynet_eval -----------------------------------------------

    @lazy_magic_arguments("skynet_check")
    @CHECK_OPTIONS
    @REPORT
    @no_var_expand
    @line_magic
    def skynet_check(self, line: str) -> CheckReport:
        """Run the 3-case contract check on a registered metric, with a live view.

        Outputs come from run(artifact, input) (--run, --artifact) or from a
        column of the data (--output-column). --data, --run and --artifact name
        a notebook variable or expression first, then a file. run runs every
        time; its model calls (and the judge's) are answered from the run cache
        when the same request was made before, with their original time and
        cost (--fresh asks again). Returns the CheckReport (r = %skynet_check ...);
        a trailing ';' hides the view. A failed check ends the cell with one
        error line after the report, unless --no-raise or
        %config SkynetMagics.raise_on_failure = False.

        Example::

            %skynet_check --data tickets --outputs label --run classify --artifact prompt
            %skynet_check --data cases.csv --outputs label --run run.py:run --artifact prompt.txt
        """
        return self._work(self.skynet_check, line, self._checking("check"))

    @lazy_magic_arguments("skynet_eval")
    @EVAL_OPTIONS
    @REPORT
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
        # execute("eval", ...) makes an EvalReport; the engine's signature says CheckReport.
        return cast("EvalReport", self._work(self.skynet_eval, line, self._checking("eval")))

    @lazy_magic_arguments("skynet_optimize")
    @OPTIMIZE_OPTIONS
    @no_var_expand
    @line_magic
    def skynet_optimize(self, line: str) -> OptimizeReport:
        """Preview the optimizer: a short, budgeted run of the real GEPA, driven by the metric.

        GEPA improves --artifact (the text run(artifact, input) receives) for
        --budget metric calls (default 40; --max-cost USD also stops it),
        learning from a share of the cases and validating on the rest (--val F
        or --val N cases; default 30%, at least 4). New texts come from the
        reflection model (--reflection-model,
        else SkynetMagics.reflection_model). The live view shows each
        candidate's score as it is evaluated, the best so far, for each
        proposal the feedback the reflection model read and a word diff of
        the new text, and the cost so far. Interrupting keeps what was found.
        Returns the OptimizeReport (.best_artifact, .candidates, .to_frame()).

        Example::

            r = %skynet_optimize --data tickets --outputs label --run classify --artifact prompt
            r.best_artifact
        """
        return self._work(self.skynet_optimize, line, run_optimize)

    @lazy_magic_arguments("skynet_race")
    @RACE_OPTIONS
    @no_var_expand
    @line_magic
    def skynet_race(self, line: str) -> RaceReport:
        """Race metrics through the optimizer: whose feedback teaches GEPA best?

        Each registered metric of --metrics runs the real GEPA from the same
        --artifact, on the same training and validation cases (--val), with the
        same --budget (metric calls per run), reflection model and seeds
        (--repeats N: seeds --seed, --seed + 1...). A held-out share of the
        cases (--held-out F or N; default 30%, at least 5) never reaches GEPA;
        each run's best artifact and the seed are scored there by one referee
        (--referee NAME, default the first metric). The live view charts each
        metric's best validation score against the calls spent; the report
        gives each metric's held-out score as mean and range, and the winner
        and its margin, or a tie and why. --max-cost USD bounds the whole race.
        Returns the RaceReport (.winner, .entries, .standings, .to_frame()).

        Example::

            %skynet_metric --load informative.py a
            %skynet_metric --load terse.py b
            r = %skynet_race --metrics a,b --data tickets --outputs label --run run --artifact w
            r.winner
        """
        return self._work(self.skynet_race, line, run_race)

    @lazy_magic_arguments("skynet_align")
    @ALIGN_OPTIONS
    @no_var_expand
    @line_magic
    def skynet_align(self, line: str) -> AlignReport:
        """Align a judge with the humans: GEPA rewrites its instructions from the disagreements.

        The metric keeps the judge's instructions in a module-level string
        (--prompt, default JUDGE). Each labelled case (--labels COL, pass/fail
        or numbers; at least 10, not all the same) is judged once; a share
        (--val) is held out, seeded (--seed); GEPA learns from the others for
        --budget metric calls (--max-cost USD also stops it): a candidate's
        score on a case is whether its verdict agrees with the human's, and the
        reflection model reads each disagreement in words, with the human's
        reason from --rationale COL. The live view shows the held-out
        agreement so far and each proposal with the disagreements it read.
        --save PATH writes the metric with the new instructions (only that
        string changes; a different file is kept unless --force). Returns the
        AlignReport (.before, .after, .best_prompt, .metric, .save(path)).

        Example::

            r = %skynet_align --data labelled --output-column reply --labels human --rationale why
            r.after.kappa
        """
        return self._work(self.skynet_align, line, run_align)

    @lazy_magic_arguments("skynet_cache")
    @argument("--clear", action="store_true", help="forget every kept model reply")
    @line_magic
    def skynet_cache(self, line: str) -> None:
        """Show the run cache: the replies of model calls made through llm().

        Each call is kept by its request (model, arguments, messages) in the
        kernel and, unless %config SkynetMagics.cache_dir = None, in
        cache_dir/runs.sqlite, so a kernel restart does not ask the models
        again. Shows the entries, the file's size and this kernel's hits.
        --clear forgets them all (a damaged file is deleted); --fresh on
        %skynet_check asks again for one call.

        Example::

            %skynet_cache
            %skynet_cache --clear
        """
        args = parse_line(self.skynet_cache, line)
        with language(self.lang):
            print(_cleared(self.run_cache) if args.clear else _cache_status(self.run_cache))

    # --- metric quality: %skynet_probe, %skynet_stability, %skynet_agree, %skynet_compare

    @_quality_magic("skynet_probe", PROBE_OPTIONS)
    def skynet_probe(self, line: str) -> Any:
        """Probe a registered metric for what an optimizer could game; returns a ProbeReport.

        Scores synthetic outputs a good metric must rank low (empty, the input
        echoed, another case's output, every expected value at once, the output
        padded 20 times, the output plus "reply PASS" for a judge) beside the
        expected value, on the same cases, and lists each probe that scores as
        high as the right answer, with how to fix the metric. The options of
        %skynet_eval, plus --probes IDS. Real outputs come from --run (through
        the kernel's cache) or --output-column; the probes never call run.
        Findings do not end the cell with an error.

        Example::

            report = %skynet_probe --data tickets --outputs label --run classify --artifact prompt
            report.flagged
        """
        return self._work(self.skynet_probe, line, _quality("probe"))

    @_quality_magic("skynet_stability", STABILITY_OPTIONS)
    def skynet_stability(self, line: str) -> Any:
        """Score the same outputs --repeats times (5); returns a StabilityReport.

        Shows the flip rate (cases whose score is not the same in every repeat),
        each case's mean and spread, the judge's cost, and advice when the judge
        flips. The run is not repeated; model calls are never served from a
        cache. The options of %skynet_eval, plus --repeats N.

        Example::

            %skynet_stability --data tickets --outputs label --output-column label --repeats 5
        """
        return self._work(self.skynet_stability, line, _quality("stability"))

    @_quality_magic("skynet_agree", AGREE_OPTIONS)
    def skynet_agree(self, line: str) -> Any:
        """Compare a metric's scores with human labels; returns an AgreementReport.

        --labels COL names the column of human labels (never given to the
        metric); --human COL, its first name, is the same option.
        Pass/fail labels give accuracy, Cohen's kappa and the confusion table (a
        score at or above --threshold, 0.5, is a pass); numeric labels give
        Spearman and Pearson. The disagreements are listed worst first.

        Example::

            %skynet_agree --data labelled --outputs label --output-column prediction --labels ok
        """
        return self._work(self.skynet_agree, line, _quality("agree"))

    @_quality_magic("skynet_compare", COMPARE_OPTIONS)
    def skynet_compare(self, line: str) -> Any:
        """Two metrics on the same outputs, side by side; returns a CompareReport.

        NAME_A NAME_B: two registered metrics. One NAME: the version of that
        metric registered before the last %%skynet_metric edit, and the current
        one. The run is called once per case (or the outputs come from
        --output-column); shows per-case scores and feedback, what changed, the
        mean change (b - a), and both reward decompositions when both metrics
        define REWARD_SPEC.

        Example::

            %skynet_compare strict lenient --data tickets --outputs label --output-column label
            %skynet_compare default --data tickets --outputs label --run classify --artifact prompt
        """
        return self._work(self.skynet_compare, line, _quality("compare"))

    # --- the session and the skeleton every magic runs -----------------------------------

    def _work(self, magic: Any, line: str, work: Work[R]) -> R:
        """Parse ``line`` for ``magic``, then ``work(session, args, silenced)`` in its language.

        The run's language is set here, once (``--lang``, else ``SkynetMagics.lang``,
        SKYNET_LANG, the locale); everything below reads it from the context.
        """
        line, silenced = _trailing_semicolon(line)
        args = parse_line(magic, line)
        with self._session(getattr(args, "lang", None)) as session:
            return work(session, args, silenced)

    @contextlib.contextmanager
    def _session(self, lang: str | None) -> Iterator[Session]:
        """The kernel as the magics' work sees it, speaking ``lang`` (or the setting's)."""
        shell: Any = self.shell  # IPython's Magics declares it None until an instance has one
        with language(lang or self.lang) as code, surface("notebook"):
            yield Session(
                user_ns=shell.user_ns,
                global_ns=shell.user_global_ns,
                lang=code,
                models=self._models(),
                run_cache=lambda: self.run_cache,
                metrics=self.metrics,
                previous_metrics=self.previous_metrics,
                timeout=self.timeout,
                concurrency=self.concurrency,
                cell=self._this_cell,
            )

    def _checking(self, kind: Kind) -> Work[CheckReport]:
        """The work of %skynet_check (``kind="check"``) or %skynet_eval."""

        def work(session: Session, args: argparse.Namespace, silenced: bool) -> CheckReport:
            return self._execute(session, kind, args, silenced)

        return work

    def _execute(
        self, session: Session, kind: Kind, args: argparse.Namespace, silenced: bool
    ) -> CheckReport:
        from ..run.engine import execute
        from .replay import LastCheck, run_outputs

        metric = session.metric(args.metric)
        data = session.resolve("--data", args.data, data_file)
        options = run_options(session, kind, args)
        progress = _progress_line(kind) if not silenced and _in_terminal(self.shell) else None
        live = None if silenced or progress is not None else _live_view(kind, metric)
        view: LiveDisplay | None = _ProgressView(progress) if progress is not None else live
        cache = session.run_cache(fresh=args.fresh)
        # In a terminal, a print from the metric or the run erases the progress line first.
        with progress.erasing() if progress is not None else contextlib.nullcontext():
            report: CheckReport = call_showing(
                view,
                lambda listener: execute(
                    kind, metric, data, options, on_event=listener, run_cache=cache, record=True
                ),
            )
        if progress is not None:
            progress.clear()
        if kind == "check":  # what the edit loop re-runs when this metric is registered again
            outputs = run_outputs(report) if options.run is not None else {}
            self.last_checks[metric.name] = LastCheck(data, options, live, outputs)
        if report.interrupted or (
            not report.passed and self.raise_on_failure and not args.no_raise
        ):
            if progress is not None:  # no live view showed it: the report, then the error
                print(report)
            raise CheckFailed(_outcome(report), report)
        return report if progress is not None else session.shown_once(report)

    # --- settings and cell state ----------------------------------------------------

    def _models(self) -> ModelSettings:
        return ModelSettings(
            task_model=self.task_model,
            metric_model=self.metric_model,
            reflection_model=self.reflection_model,
        )

    def _this_cell(self) -> CellMark:
        """The mark of the cell running now: open until the cell ends (``_end_of_cell``)."""
        if self._cell is None:
            self._cell = CellMark()
        return self._cell

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


def _quality(kind: str) -> Work[Any]:
    """The work of a metric-quality magic (``quality_magics.run_quality``)."""

    def work(session: Session, args: argparse.Namespace, silenced: bool) -> Any:
        return run_quality(session, kind, args, silenced)

    return work


def _progress_line(kind: Kind) -> ProgressLine:
    """Terminal IPython has no widgets: a progress line, erased before the report (which
    the cell's Out prints as text, wrapped to the terminal's width)."""
    from ..show.progress_line import ProgressLine, running_title

    line = ProgressLine(running_title(kind, current_lang()), current_lang())
    line.show()
    return line


class _ProgressView:
    """The terminal's progress line as the skeleton's view (shown as soon as it is made)."""

    def __init__(self, line: ProgressLine) -> None:
        self.line = line

    def show(self) -> None:
        pass  # already shown: the line says the run started before its first event

    def on_event(self, event: Any) -> None:
        self.line.on_event(event)

    def close(self) -> None:
        self.line.clear()


def _live_view(kind: Kind, metric: Metric) -> Any:
    """The live view of %skynet_check or %skynet_eval (its widgets are imported now)."""
    from .widgets import LiveView

    return LiveView(
        kind=kind, lang=current_lang(), metric_name=metric.name, reward_spec=metric.reward_spec
    )


def _cache_status(cache: RunCache) -> str:
    """What %skynet_cache says: the entries in the kernel and on disk, the hits and misses."""
    memory, hits, misses = len(cache.store), cache.hits, cache.misses
    if cache.disk is None:
        return t("magic.cache_off", memory=memory, hits=hits, misses=misses)
    size = cache.disk.size_bytes()
    return t(
        "magic.cache_status",
        memory=memory,
        disk=len(cache.disk),
        path=cache.disk.path,
        size=f"{size / 1024:.0f} KiB" if size < 1024 * 1024 else f"{size / 2**20:.1f} MiB",
        hits=hits,
        misses=misses,
    )


def _cleared(cache: RunCache) -> str:
    """Empty ``cache`` and say what was done, to the file too (a damaged one, a directory)."""
    done = cache.empty()
    path = None if cache.disk is None else cache.disk.path
    if done.kept_directory:
        return t("magic.cache_kept_directory", path=path)
    if done.removed == "directory":
        return t("magic.cache_cleared_directory", path=path)
    if done.removed == "damaged":
        return t("magic.cache_cleared_damaged", path=path)
    return t("magic.cache_cleared", count=done.count)


def _in_language(problem: ContractError) -> ContractError:
    """The contract error, its message in the run's language."""
    problem.args = (problem.message(current_lang()),)
    return problem


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (through a link), one skynet-check can read."""
    try:
        return path.is_file()
    except OSError:  # a folder on the way that cannot be read
        return False


def _warn_undefined(metric: Metric) -> None:
    """Warn (on stderr: a notebook shows it as a warning) of what the cell uses but does not
    define, a notebook name say: the check would fail where the metric uses it."""
    from ..core.metric import undefined_names

    missing = undefined_names(metric)
    if missing:
        shown = ", ".join(repr(name) for name in missing)
        said = t("magic.undefined_names", names=shown, count=len(missing))
        print(t("labelled", label=t("magic.warning"), text=said), file=sys.stderr)


def _summary(metric: Metric) -> str:
    lines = [t("magic.registered", name=metric.name, call=metric.call_form)]
    spec = metric.reward_spec
    if spec is None:
        lines.append(t("spec.none"))
    else:
        weights = {part: f"{value:.3g}" for part, value in spec.weights.items()}
        lines.append(t("magic.spec_weights", **weights))
        lines.append(
            t(
                "magic.spec_references",
                speed=f"{spec.speed_reference:g}",
                cost=f"{spec.cost_reference:g}",
            )
        )
        if spec.accuracy_reference is not None:
            lines.append(
                t("magic.spec_accuracy_reference", reference=f"{spec.accuracy_reference:g}")
            )
    return "\n  ".join(lines)


def _in_terminal(shell: Any) -> bool:
    """Terminal IPython (no kernel, so no widgets and no display updates in place)."""
    # Terminal IPython's shell class is imported by the time its shell exists; importing
    # it in a kernel (prompt_toolkit: ~95 ms) only to answer no would slow the first check.
    terminal = sys.modules.get("IPython.terminal.interactiveshell")
    return terminal is not None and isinstance(shell, terminal.TerminalInteractiveShell)


def _outcome(report: CheckReport) -> str:
    """One line: the headline, and where it failed first."""
    from ..show.render import headline, interrupted_line

    lang = report.lang
    if report.interrupted:
        return interrupted_line(report)
    failed = report.failed_steps
    if not failed:
        return f"{headline(report)}."
    first = failed[0]
    reason = t("labelled", lang, label=first.title, text=first.message)
    line = " ".join(f"{headline(report)} — {reason}".split())
    return line if line.endswith((".", "!", "?", ")")) else line + "."


# --- the extension ---------------------------------------------------------------------


# The magics each shell loaded: load() and unload() read this, never IPython's registry.
_loaded: weakref.WeakKeyDictionary[Any, SkynetMagics] = weakref.WeakKeyDictionary()


def load(ipython: Any) -> None:
    """Register the magics and the ``skynet`` module (a second call changes nothing)."""
    if ipython in _loaded:
        return
    installed = "skynet" not in sys.modules
    install_skynet_module()
    magics = SkynetMagics(shell=ipython)  # IPython's Magics adds it to ipython.configurables
    magics.installed_skynet = installed and getattr(
        sys.modules.get("skynet"), "__skynet_jupyter__", False
    )
    ipython.register_magics(magics)
    ipython.events.register("post_run_cell", magics._on_post_run_cell)
    import_ahead.watch_session_cache(lambda: magics._cache_path)
    use_session_settings(magics._models)
    _loaded[ipython] = magics
    load_history(ipython, lambda: magics.lang)  # %skynet_history, %skynet_diff (issue 46)


def unload(ipython: Any) -> None:
    """Remove everything :func:`load` added: the magics, the settings, the ``skynet`` module."""
    magics = _loaded.pop(ipython, None)
    if magics is None:
        return
    _unregister(ipython, magics)
    unload_history(ipython, _unregister)
    with contextlib.suppress(ValueError):
        ipython.events.unregister("post_run_cell", magics._on_post_run_cell)
    magics._end_of_cell(None)
    use_session_settings(None)
    import_ahead.watch_session_cache(None)
    if magics.installed_skynet:
        uninstall_skynet_module()


def _unregister(ipython: Any, magics: SkynetMagics) -> None:
    """Undo ``ipython.register_magics(magics)``, and the ``configurables`` entry it came with.

    IPython (8.x) offers ``register_magics`` but no inverse.  So, only for what is
    ours (a magic of the same name registered since by someone else stays): the
    magics manager's public traits ``magics`` and ``registry`` are given new values
    without our entries (assigned, as any trait, never edited in place), and the
    instance that IPython's ``Magics`` constructor appended to the shell's
    ``configurables`` (what ``%config`` reads) is taken out again.
    """
    manager = ipython.magics_manager
    ours = cast("dict[str, dict[str, Any]]", magics.magics)  # IPython's Magics declares None
    manager.magics = {
        kind: {
            name: function
            for name, function in table.items()
            if name not in ours.get(kind, {}) or function != ours[kind][name]
        }
        for kind, table in manager.magics.items()
    }
    manager.registry = {name: held for name, held in manager.registry.items() if held is not magics}
    with contextlib.suppress(ValueError):
        ipython.configurables.remove(magics)
