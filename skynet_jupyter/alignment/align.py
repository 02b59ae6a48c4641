"""Align a judge with the humans: ``align`` rewrites the judge's instructions with GEPA,
from the cases where its verdict and a person's differ.

The judge metric keeps its instructions in a module-level string (``prompt``,
``"JUDGE"`` by default).  ``align`` reads the human labels (column ``labels``,
never given to the metric) and, if given, the humans' reasons (``rationale``);
judges every labelled case once with the old instructions (the outputs come
from ``run`` or ``output_column``, as for ``sj.agreement``); splits the
labelled cases, seeded, into training and held-out cases; then runs the real
GEPA on the training cases only.  A candidate is a text for that string; its
score on a case is whether its verdict agrees with the human label; the
feedback the reflection model reads is the disagreement in words.  The
held-out cases never reach the reflection model: the agreement measured on
them, before and after, is the proof (``AlignReport.before`` / ``.after``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection
from typing import Any, Unpack

from ..core.dataset import Case, DataError
from ..core.keywords import OPTIMIZER, OptimizerKeywords
from ..core.metric import Metric
from ..core.options import RunOptions, speaks_its_options_language
from ..core.report import CheckReport
from ..i18n import current_lang, t
from ..optimizers.gepa_adapter import ReflectionModel, import_gepa
from ..optimizers.optimize import (
    check_stops,
    chosen_reflection_model,
    drive_gepa,
    split_cases,
)
from ..optimizers.report import OptimizeEvent, OptimizeReport
from ..optimizers.tool_rules import keeping_partial
from ..quality import _scoring
from ..quality.agreement import BINARY, human_columns, label_kind, label_value, missing_label
from ..run.engine import RunCache, chosen_cases, execute_cases
from ..show.formats import fmt_score
from ..show.render import show_value
from .judge_adapter import COMPONENT, HumanLabels, JudgeAdapter
from .judge_prompt import JudgePrompt, find_prompt
from .report import AlignEvent, AlignListener, AlignReport, measure

__all__ = ["MIN_LABELS", "align", "align_with"]

MIN_LABELS = 10  # fewer human labels say nothing held-out (MLflow's align asks as many)


@OPTIMIZER.signed
def align(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    labels: str,
    prompt: str = "JUDGE",
    *,
    threshold: float = 0.5,
    rationale: str | None = None,
    reflection_model: Any = None,
    budget: int = 40,
    max_cost: float | None = None,
    val: float | int | None = None,
    seed: int = 0,
    run_cache: RunCache | None = None,
    on_event: AlignListener | None = None,
    **options: Unpack[OptimizerKeywords],
) -> AlignReport:
    """Rewrite the judge's instructions (the metric's string ``prompt``) until it agrees
    with the human labels in column ``labels``, and prove it on held-out cases.

    The outputs judged come from ``run(artifact, input)`` or ``output_column``.
    Pass/fail labels are matched by the verdict (a score at or above
    ``threshold`` is a pass); numeric labels by closeness.  ``rationale`` names
    a column of the humans' reasons, which the reflection model reads beside
    each disagreement.  A share ``val`` of the labelled cases (or that many) is
    held out, by ``seed``; GEPA (``budget`` metric calls, ``max_cost``
    dollars) learns from the others.  New texts come from ``reflection_model``
    (a litellm model, or a callable such as :class:`StandInModel`), else the
    configured one.  Returns an :class:`AlignReport`; ``report.save(path)``
    writes the metric with the new instructions.
    """
    own = {name: value for name, value in locals().items() if name in _OWN_KEYWORDS}
    return align_with(metric, data, OPTIMIZER.options("align", options), **own)


@speaks_its_options_language
def align_with(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    options: RunOptions,
    *,
    labels: str,
    prompt: str = "JUDGE",
    threshold: float = 0.5,
    rationale: str | None = None,
    reflection_model: Any = None,
    budget: int = 40,
    max_cost: float | None = None,
    val: float | int | None = None,
    seed: int = 0,
    run_cache: RunCache | None = None,
    on_event: AlignListener | None = None,
) -> AlignReport:
    """:func:`align` with its run options already checked (``%skynet_align`` calls it)."""
    started = _scoring.clock()
    import_gepa()  # without the library, say so before anything runs
    _refuse_bad_arguments(labels, rationale, threshold, budget, max_cost)
    loaded = _scoring.load(metric, options.language)
    judge_prompt = find_prompt(loaded, prompt, options.language)
    reflection = ReflectionModel(chosen_reflection_model(reflection_model, options.models))
    humans, options = _human_labels(data, options, labels, rationale, float(threshold))
    wanted = [case for case in chosen_cases(data, options) if case.index in humans.labels]
    # Only the cases used (cases=, split=) count: their labels, their range, their refusals.
    humans = humans.only([case.index for case in wanted])
    _enough(humans, humans.labels)

    report = _empty_report(loaded, judge_prompt, humans)  # what an exception carries
    with keeping_partial(lambda: report):
        _tell(on_event, "outputs", report)
        # The old instructions judge every labelled case once: the held-out "before", and
        # the outputs every candidate judges again (run is never called again).
        first = execute_cases("eval", loaded, wanted, options, on_event=None, run_cache=run_cache)
        report.first_pass_calls = len(first.cases)
        if first.interrupted:  # Ctrl-C: what the first pass finished, and no verdict
            return _ended_at_first_pass(report, first, started, on_event)
        if first.stop is not None:  # the judge's key (or model): no GEPA, no verdict
            return _ended_at_first_pass(report, first, started, on_event)
        judged = [r for r in first.cases if _scoring.has_output(r)]
        _enough(humans, [r.index for r in judged])
        known = [Case(r.index, r.input, r.expected, r.output, r.measured) for r in judged]
        train, held = split_cases(known, val, seed)

        report.prompt = judge_prompt
        report.rationale_column = rationale
        report.optimization = _optimization_report(report, loaded, budget, max_cost, train)
        report.train_cases = [case.index for case in train]
        report.held_out_cases = [case.index for case in held]
        report.left_out = tuple(sorted(set(humans.labels) - {r.index for r in judged}))
        by_index = {r.index: r for r in first.cases}
        held_results = [by_index[c.index] for c in held]
        report.held_out[0] = humans.report(loaded.name, held_results, report.lang)

        adapter = JudgeAdapter(judge_prompt, humans, options)
        for result in first.cases:
            adapter.spend.add_case(result)
        _search(report, adapter, reflection, train, held, max_cost, seed, on_event)
        report.elapsed_s = _scoring.clock() - started
    return report


def _ended_at_first_pass(
    report: AlignReport, first: CheckReport, started: float, on_event: AlignListener | None
) -> AlignReport:
    """The alignment ended at its first pass, interrupted (Ctrl-C) or stopped for the
    judge's key (or model): the report says so, with what the first pass cost, and
    nothing more (as optimize's and race's do)."""
    if first.interrupted:
        report.optimization.stopped = "interrupted"
    else:
        assert first.stop is not None
        report.stop = report.optimization.stop = first.stop
        report.optimization.stopped = first.stop.kind
    for result in first.cases:  # what finished was paid for
        report.optimization.cost_usd.add_case(result)
    report.finished = report.optimization.finished = True
    report.elapsed_s = _scoring.clock() - started
    _tell(on_event, "finished", report)
    return report


# align's keywords besides the metric, the data and the run options: align_with's own.
_OWN_KEYWORDS = frozenset(inspect.signature(align_with).parameters) - {"metric", "data", "options"}


def _refuse_bad_arguments(
    labels: str,
    rationale: str | None,
    threshold: float,
    budget: int,
    max_cost: float | None,
) -> None:
    """The align keywords the run options do not check, each refused with one sentence."""
    check_stops(budget, max_cost)
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        raise ValueError(t("quality.agree.threshold", value=threshold))
    for column in (labels, rationale):
        if column is not None and (not isinstance(column, str) or not column):
            raise ValueError(t("align.column_name", value=repr(column)))


def _optimization_report(
    report: AlignReport, metric: Metric, budget: int, max_cost: float | None, train: list[Case]
) -> OptimizeReport:
    """GEPA's report, before it starts: it learns from the training cases only."""
    return OptimizeReport(
        seed_artifact=report.seed_prompt,
        budget=budget,
        max_cost=max_cost,
        lang=report.lang,
        metric_name=metric.name,
        component=COMPONENT,
        train_size=len(train),
        val_size=len(train),  # GEPA keeps what agrees best with the training cases
        val_cases=[case.index for case in train],
    )


def _search(
    report: AlignReport,
    adapter: JudgeAdapter,
    reflection: ReflectionModel,
    train: list[Case],
    held: list[Case],
    max_cost: float | None,
    seed: int,
    on_event: AlignListener | None,
) -> None:
    """Run GEPA on the training cases; judge each new best on the held-out cases."""
    humans, metric_name = adapter.labels, report.metric_name

    def judge_held_out(candidate: int, text: str) -> None:
        results = adapter.judge(held, text, events=False)
        report.held_out_calls += len(results)
        report.held_out[candidate] = humans.report(metric_name, results, report.lang)

    def relay(event: OptimizeEvent) -> None:
        best = report.optimization.best
        if event.kind == "candidate" and best is not None and best.index not in report.held_out:
            judge_held_out(best.index, best.text)  # a new best on the training cases
            _tell(on_event, "held_out", report)
        _tell(on_event, event.kind if event.kind != "finished" else "gepa_done", report)

    recorder = drive_gepa(
        report.optimization,
        adapter,
        reflection,
        {COMPONENT: report.seed_prompt},
        train,
        train,
        max_cost=max_cost,
        seed=seed,
        gepa_options={},
        on_event=relay,
    )
    report.stop = report.optimization.stop  # the judge's or the reflection model's key
    best = report.optimization.best
    unjudged = best is not None and best.index not in report.held_out
    if unjudged and best is not None and not report.interrupted and report.stop is None:
        judge_held_out(best.index, best.text)
    report.advice = _why_not(report)
    report.finished = report.optimization.finished = True
    recorder.emit("finished")  # the costs, once more, then the listener's last event
    _tell(on_event, "finished", report)


def _tell(on_event: AlignListener | None, kind: str, report: AlignReport) -> None:
    if on_event is not None and kind != "gepa_done":
        on_event(AlignEvent(kind, report))


def _empty_report(metric: Metric, prompt: JudgePrompt, humans: HumanLabels) -> AlignReport:
    """The report before GEPA starts (what the live view shows during the first pass)."""
    text, lang = prompt.text, current_lang()
    return AlignReport(
        metric_name=metric.name,
        prompt_name=prompt.name,
        labels_column=humans.column,
        lang=lang,
        kind=humans.kind,
        threshold=humans.threshold,
        seed_prompt=text,
        optimization=OptimizeReport(seed_artifact=text, budget=0, lang=lang),
    )


def _human_labels(
    data: Any, options: RunOptions, column: str, rationale: str | None, threshold: float
) -> tuple[HumanLabels, RunOptions]:
    """The labelled cases' labels (and reasons), and options that never show them."""
    columns = [column] if rationale is None else [column, rationale]
    rows, options = human_columns(data, options, columns)
    labels: dict[int, Any] = {}
    values: dict[int, float] = {}
    reasons: dict[int, str] = {}
    for index, row in rows.items():
        label = row[column]
        if missing_label(label):
            continue
        value = label_value(label)
        if value is None:
            example = show_value(label)
            raise DataError(t("quality.agree.bad_labels", column=column, example=example))
        labels[index], values[index] = label, value
        if rationale is not None and not missing_label(row[rationale]):
            reasons[index] = str(row[rationale]).strip()
    kind = label_kind(values.values())
    return HumanLabels(column, kind, threshold, labels, values, reasons), options


def _enough(humans: HumanLabels, cases: Collection[int]) -> None:
    """Ten labelled ``cases`` or more, not all with the same label: else one sentence."""
    count = len(cases)
    if count < MIN_LABELS:
        raise DataError(
            t("align.too_few_labels", count=count, column=humans.column, least=MIN_LABELS)
        )
    values = {humans.values[case] for case in cases}
    if len(values) == 1:
        (value,) = values
        shown = humans.word(value, current_lang()) if humans.kind == BINARY else fmt_score(value)
        raise DataError(t("align.constant_labels", column=humans.column, value=shown))


def _why_not(report: AlignReport) -> list[str]:
    """Why the held-out agreement did not improve, in plain sentences (none after a key
    problem: the judge is not to blame)."""
    if report.improved or report.before is None or report.stop is not None:
        return []
    lang = report.lang
    notes: list[str] = []
    before = measure(report.before)
    if before is not None and before >= 1.0:
        return [t("align.why_perfect", lang)]
    optimization = report.optimization
    if optimization.improved:
        notes.append(
            t(
                "align.why_overfit",
                lang,
                before=fmt_score(optimization.seed_score),
                after=fmt_score(optimization.best_score),
            )
        )
    elif optimization.proposals:
        notes.append(t("align.why_rejected", lang, count=len(optimization.proposals)))
    elif optimization.stopped == "budget":
        train = len(report.train_cases)
        needed = 2 * train + 6  # the training cases twice, and a minibatch of 3 twice
        notes.append(t("align.why_budget", lang, budget=report.budget, train=train, needed=needed))
    if report.rationale_column is None:
        notes.append(t("align.why_no_rationale", lang))
    return notes
