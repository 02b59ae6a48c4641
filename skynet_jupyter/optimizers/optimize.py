"""A short, budgeted run of the real GEPA optimizer, driven by the metric: ``optimize``.

``optimize(metric, data, run=, artifact=, budget=)`` splits the cases into a
training and a validation part, hands GEPA (the ``gepa`` library, the optional
extra ``[gepa]``) the adapter of ``gepa_adapter`` and a reflection model, and
records what GEPA did through its callbacks: every candidate with its parent
and validation score, every proposal with the feedback records the reflection
model read, and what it all cost.  The result is an :class:`OptimizeReport`.

``budget`` is GEPA's ``max_metric_calls``; ``max_cost`` stops on dollars (task,
judge and reflection together).  GEPA checks both between iterations, so a
run ends at most one iteration past them.  Ctrl-C stops the run and keeps
what was found.  When nothing improved, the report says why it likely did
not, from what it saw (the feedback adviser reads the seed's cases).
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..core.dataset import Case, DataError
from ..core.metric import Metric, load_metric
from ..core.model_settings import ModelSettings
from ..core.options import (
    MAX_BUDGET,
    RunOptions,
    finite_number,
    refuse_count,
    speaks_its_options_language,
)
from ..core.report import ADVICE, CaseResult, CheckReport, RunStop
from ..i18n import t
from ..models.settings import ModelNotConfigured, current_settings
from ..run.engine import CaseFinished, RunCache, chosen_cases
from ..show.formats import fmt_score
from .gepa_adapter import ReflectionModel, SkynetGEPAAdapter, import_gepa, options_apart
from .report import (
    Candidate,
    Costs,
    OptimizeEvent,
    OptimizeListener,
    OptimizeReport,
    Proposal,
)
from .tool_rules import ToolStopped, keeping_partial, reflection_stop

__all__ = [
    "Candidate",
    "Costs",
    "OptimizeEvent",
    "OptimizeReport",
    "Proposal",
    "optimize",
]

DEFAULT_MINIBATCH = 3  # GEPA's reflection_minibatch_size when none is given
DEFAULT_VAL = 0.3  # the share of the cases kept to validate when val= is not given
MIN_VAL_CASES = 4  # ... but at least this many (half the cases on smaller data)
PERFECT = 1.0  # GEPA's perfect_score default: a minibatch at full marks is skipped
SHOWN_CASES = 8  # case numbers listed in a sentence

# What sj.optimize sets itself: not accepted again in **options.
_OURS = frozenset(
    {
        "seed_candidate",
        "trainset",
        "valset",
        "adapter",
        "task_lm",
        "evaluator",
        "reflection_lm",
        "max_metric_calls",
        "callbacks",
        "logger",
        "seed",
    }
)


# --- recording what GEPA does ------------------------------------------------------


@dataclass(eq=False)
class _Recorder:
    """GEPA's callbacks, turned into the report (GEPA calls them in this thread)."""

    report: OptimizeReport
    adapter: SkynetGEPAAdapter
    reflection: ReflectionModel
    valset: list[Case]
    listener: OptimizeListener | None
    selected: int | None = None
    parent_scores: list[float] = field(default_factory=list)
    seed_results: list[CaseResult] = field(default_factory=list)
    skipped_perfect: int = 0
    errors: list[BaseException] = field(default_factory=list)
    stop: RunStop | None = None  # a run stopped for a configuration problem: so does GEPA

    # GEPA swallows exceptions raised in callbacks: keep ours to raise after the run (GEPA
    # stops at its next check: a listener that raised ends the run, as in evaluate).
    def _guard(self, action: Callable[[], None]) -> None:
        try:
            action()
        except ToolStopped as stopped:  # the held-out judging of align's relay, say
            self.stop = self.stop or stopped.stop
        except Exception as problem:
            self.errors.append(problem)

    def ended(self, state: Any = None) -> bool:
        """GEPA's stop callback: a listener raised, or a run stopped for a key problem."""
        return bool(self.errors) or self.stop is not None

    def on_error(self, event: Any) -> None:
        # GEPA told to go on after errors (raise_on_exception=False) still stops on a key.
        problem = event["exception"]
        if isinstance(problem, ToolStopped):
            self.stop = self.stop or problem.stop

    def emit(self, kind: str) -> None:
        report = self.report
        spend = self.adapter.spend
        report.cost_usd = _costs(spend, self.reflection)
        report.reflection_calls = self.reflection.calls
        report.failed_cases = self.adapter.failed_cases
        if self.listener is not None:
            self.listener(OptimizeEvent(kind, report))

    def on_engine_event(self, event: Any) -> None:
        if type(event) is CaseFinished:
            self.report.calls += 1
            if self.adapter.current_artifact == self.report.seed_artifact:
                self.seed_results.append(event.result)  # what the adviser reads
            self.emit("case")

    def on_candidate_selected(self, event: Any) -> None:
        self.selected = event["candidate_idx"]

    def on_evaluation_end(self, event: Any) -> None:
        if event["candidate_idx"] is not None:  # the parent, on the minibatch
            self.parent_scores = list(event["scores"])
            return

        def record() -> None:
            proposal = self._open()
            if proposal is not None:
                proposal.after = list(event["scores"])
                self.emit("judged")

        self._guard(record)

    def on_evaluation_skipped(self, event: Any) -> None:
        if event.get("reason") == "all_scores_perfect":
            self.skipped_perfect += 1

    def on_proposal_start(self, event: Any) -> None:
        def record() -> None:
            records = event["reflective_dataset"]
            components = event["components"]
            read = [dict(r) for name in components for r in records.get(name, [])]
            parent_text = _text(event["parent_candidate"], self.report.component)
            proposal = Proposal(
                iteration=event["iteration"],
                parent=self.selected,
                parent_text=parent_text,
                records=read,
                before=list(self.parent_scores),
            )
            self.report.proposals.append(proposal)

        self._guard(record)

    def on_proposal_end(self, event: Any) -> None:
        def record() -> None:
            proposal = self._open()
            if proposal is None:
                return
            new = dict(event["new_instructions"])
            if self.report.component is not None and set(new) == {self.report.component}:
                proposal.text = new[self.report.component]
            else:
                parent = proposal.parent_text
                base = dict(parent) if isinstance(parent, dict) else {}
                proposal.text = {**base, **new}
            self.emit("proposal")

        self._guard(record)

    def on_candidate_rejected(self, event: Any) -> None:
        def record() -> None:
            proposal = self._open()
            if proposal is not None:
                proposal.accepted = False
                self.emit("judged")

        self._guard(record)

    def on_valset_evaluated(self, event: Any) -> None:
        def record() -> None:
            report = self.report
            text = _text(event["candidate"], report.component)
            parents = [p for p in event.get("parent_ids") or [] if p is not None]
            proposal = self._open()
            if proposal is not None and event["candidate_idx"] != 0:
                proposal.accepted = True
                proposal.candidate = event["candidate_idx"]
            scores = {
                self.valset[val_id].index: float(score)
                for val_id, score in event["scores_by_val_id"].items()
            }
            report.candidates.append(
                Candidate(
                    index=event["candidate_idx"],
                    text=text,
                    parent=parents[0] if parents else None,
                    score=float(event["average_score"]),
                    val_scores=scores,
                    records=list(proposal.records) if proposal is not None else [],
                    iteration=event["iteration"],
                    calls=report.calls,
                )
            )
            self.emit("candidate")

        self._guard(record)

    def _open(self) -> Proposal | None:
        """The latest proposal GEPA has not decided on yet."""
        proposals = self.report.proposals
        if proposals and proposals[-1].accepted is None:
            return proposals[-1]
        return None


def _text(candidate: dict[str, str], component: str | None) -> Any:
    return dict(candidate) if component is None else candidate[component]


def _costs(spend: Costs, reflection: ReflectionModel) -> Costs:
    """The adapter's task and judge spend, with the reflection model's added."""
    return dataclasses.replace(
        spend, reflection=reflection.cost_usd, reflection_known=reflection.cost_known
    )


class _Log:
    """GEPA's logger: its lines go to the report, not to the notebook."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def log(self, message: str) -> None:
        self.lines.append(str(message))


class _CostStop:
    """Stops GEPA once the dollars spent reach ``max_cost`` (checked between iterations)."""

    def __init__(self, max_cost: float, spent: Callable[[], float]) -> None:
        self.max_cost = max_cost
        self.spent = spent
        self.fired = False

    def __call__(self, state: Any) -> bool:
        if self.spent() >= self.max_cost:
            self.fired = True
        return self.fired


class _ReflectionStop:
    """Stops GEPA once the reflection model failed (GEPA would log it and go on)."""

    def __init__(self, reflection: ReflectionModel) -> None:
        self.reflection = reflection

    def __call__(self, state: Any) -> bool:
        return self.reflection.error is not None


# --- the entry point -------------------------------------------------------------


def split_cases(
    cases: list[Case], val: float | int | None, seed: int, lang: str | None = None
) -> tuple[list[Case], list[Case]]:
    """(train, validation): ``val`` a fraction (0..1) or a count of validation cases.

    None (the default): ``DEFAULT_VAL`` of the cases, but at least ``MIN_VAL_CASES``
    (half the cases on fewer than twice that): two validation cases the seed already
    gets right cannot tell any candidate from it.
    """
    total = len(cases)
    if total < 2:
        raise DataError(t("optimize.too_few_cases", lang, count=total))
    if val is None:
        count = max(1, round(DEFAULT_VAL * total), min(MIN_VAL_CASES, total // 2))
    elif isinstance(val, bool) or not isinstance(val, int | float):
        raise ValueError(t("optimize.bad_val", lang, value=repr(val)))
    elif isinstance(val, int) and val >= 1:
        count = val
    elif isinstance(val, float) and val >= 1 and val.is_integer():  # 4.0: four cases
        count = int(val)
    elif isinstance(val, float) and 0 < val < 1:
        count = max(1, round(val * total))
    else:
        raise ValueError(t("optimize.bad_val", lang, value=repr(val)))
    count = min(count, total - 1)
    order = list(range(total))
    random.Random(seed).shuffle(order)
    chosen = set(order[:count])
    train = [case for i, case in enumerate(cases) if i not in chosen]
    validation = [case for i, case in enumerate(cases) if i in chosen]
    return train, validation


def check_stops(budget: Any, max_cost: Any, lang: str | None = None) -> None:
    """A budget of 1 to ``MAX_BUDGET`` metric calls, a finite max_cost above zero (or None):
    else a sentence.  ``max_cost=nan`` would never stop the run (nan >= x is false)."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError(t("optimize.bad_budget", lang, value=repr(budget)))
    refuse_count("budget", budget, MAX_BUDGET, lang)
    if max_cost is not None and not (finite_number(max_cost) and max_cost > 0):
        raise ValueError(t("optimize.bad_max_cost", lang, value=repr(max_cost)))


def _gepa_options(options: Mapping[str, Any], lang: str | None = None) -> dict[str, Any]:
    """``options`` checked against ``gepa.optimize``'s own parameters."""
    known = set(inspect.signature(import_gepa().optimize).parameters)
    for name in options:
        if name in _OURS:
            raise TypeError(t("optimize.option_ours", lang, name=name))
        if name not in known:
            raise TypeError(t("optimize.option_unknown", lang, name=name))
    return dict(options)


def chosen_reflection_model(reflection_model: Any, models: ModelSettings | None) -> Any:
    """The reflection model given, else the configured one, else ReflectionModelMissing."""
    model = reflection_model
    if model is None:
        model = current_settings(models).reflection_model
    if model is None:
        raise ReflectionModelMissing()
    _refuse_missing_key(model)
    return model


def _refuse_missing_key(model: Any) -> None:
    """A litellm reflection model without its key is said before GEPA starts: every
    proposal would fail, and the run would end blaming the metric ("nothing improved")."""
    from ..models.credentials import ModelKeyProblem, missing_key
    from ..models.llm import describe_model

    if not isinstance(model, str | Mapping):
        return
    call = {"model": model} if isinstance(model, str) else dict(model)
    missing = missing_key(call)
    if missing is not None:
        problem = ModelKeyProblem(describe_model(model), missing[1])
        problem.role = "reflection"
        raise problem


class ReflectionModelMissing(ModelNotConfigured):
    """No reflection model: ``optimize`` needs one to write new texts."""

    def __init__(self, lang: str | None = None) -> None:
        RuntimeError.__init__(self, t("optimize.no_reflection_model", lang))
        self.role = "reflection"


def optimize(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    *,
    run: Callable[[Any, Any], Any] | str,
    artifact: str | dict[str, str],
    budget: int,
    reflection_model: Any = None,
    val: float | int | None = None,
    max_cost: float | None = None,
    seed: int = 0,
    outputs: str | Sequence[str] | None = None,
    inputs: str | Sequence[str] | None = None,
    split: str | None = None,
    component: str = "prompt",
    timeout: float = 60,
    run_timeout: float | None = None,
    isolation: str | None = None,
    concurrency: int = 8,
    executor: Executor | None = None,
    lang: str | None = None,
    models: ModelSettings | None = None,
    run_cache: RunCache | None = None,
    on_event: OptimizeListener | None = None,
    **options: Any,
) -> OptimizeReport:
    """Run the real GEPA optimizer for ``budget`` metric calls and report what it found.

    ``artifact`` is the seed text given to ``run(artifact, input)`` (or a dict
    ``{name: text}`` of several texts, which ``run`` then receives whole, as
    a DSPy program's run does).  A share ``val`` of the cases (a fraction
    such as 0.3), or that many cases (a whole number: ``val=6``), is kept for
    validation; GEPA proposes from the others.  By default 30% of the cases,
    but at least 4 (half of them on fewer than 8 cases): on small data a
    validation set of two cases the seed already gets right cannot tell a
    better text from it.  ``budget`` is at most 100,000 metric calls.  New texts
    come from ``reflection_model`` (a litellm model, or a callable
    ``(instructions, input) -> str`` such as :class:`StandInModel`, which
    receives GEPA's prompt as ``instructions``), else the configured
    reflection model.  ``max_cost`` stops on dollars.  Other ``options`` go
    to ``gepa.optimize`` (``reflection_minibatch_size=``,
    ``candidate_selection_strategy=``, ``use_merge=`` ...).  Ctrl-C stops the
    run and the report keeps what was found.
    """
    # The engine's rules on the options, now: a bad time limit or isolation is a sentence
    # before GEPA starts, not an error inside its loop.
    checked, own = options_apart(locals(), _OWN_KEYWORDS)
    metric, data = own.pop("metric"), own.pop("data")
    gepa_options = own.pop("options")  # the other keywords go to gepa.optimize
    return optimize_with(metric, data, checked, **own, gepa_options=gepa_options)


# optimize's keywords that are not run options: optimize_with's own, and what it is given.
_OWN_KEYWORDS = (
    "metric",
    "data",
    "budget",
    "reflection_model",
    "val",
    "max_cost",
    "seed",
    "component",
    "run_cache",
    "on_event",
    "options",
)


@speaks_its_options_language
def optimize_with(
    metric: Metric | Callable[..., Any] | str,
    data: Any,
    options: RunOptions,
    *,
    budget: int,
    reflection_model: Any = None,
    val: float | int | None = None,
    max_cost: float | None = None,
    seed: int = 0,
    component: str = "prompt",
    run_cache: RunCache | None = None,
    on_event: OptimizeListener | None = None,
    gepa_options: Mapping[str, Any] | None = None,
) -> OptimizeReport:
    """:func:`optimize` with its run options already checked (``%skynet_optimize`` calls it).

    ``options.artifact`` is the seed; the cases are those ``options`` choose
    from ``data`` (``cases``, ``json_columns``... as for ``evaluate``).
    """
    started = time.perf_counter()
    import_gepa()  # without the library, say so before anything runs
    check_stops(budget, max_cost)
    _seed_candidate(options.artifact, component)  # a bad artifact is said before anything runs
    gepa_options = _gepa_options(gepa_options or {})
    model = chosen_reflection_model(reflection_model, options.models)
    loaded = load_metric(metric)
    train, validation = split_cases(chosen_cases(data, options), val, seed)
    return optimize_cases(
        loaded,
        train,
        validation,
        options,
        budget=budget,
        reflection_model=model,
        max_cost=max_cost,
        seed=seed,
        component=component,
        run_cache=run_cache,
        on_event=on_event,
        gepa_options=gepa_options,
        started=started,
    )


def optimize_cases(
    metric: Metric,
    train: list[Case],
    validation: list[Case],
    options: RunOptions,
    *,
    budget: int,
    reflection_model: Any,
    max_cost: float | None = None,
    seed: int = 0,
    component: str = "prompt",
    run_cache: RunCache | None = None,
    on_event: OptimizeListener | None = None,
    gepa_options: Mapping[str, Any] | None = None,
    started: float | None = None,
    at_list_price: bool = False,
) -> OptimizeReport:
    """One GEPA run on cases already split (``race`` gives every metric the same ones).

    ``options.artifact`` is the seed; ``reflection_model`` the model itself (not
    None); ``gepa_options`` are checked again; ``at_list_price`` is
    :func:`drive_gepa`'s (a race's share buys every run the same work).  The rest
    is :func:`optimize_with`'s.
    """
    started = time.perf_counter() if started is None else started
    artifact = options.artifact
    seed_candidate, adapter_component = _seed_candidate(artifact, component)
    gepa_given = _gepa_options(gepa_options or {})
    reflection = ReflectionModel(reflection_model)
    report = OptimizeReport(
        seed_artifact=artifact,
        budget=budget,
        max_cost=max_cost,
        lang=options.language,
        metric_name=metric.name,
        component=adapter_component,
        train_size=len(train),
        val_size=len(validation),
        val_cases=[case.index for case in validation],
    )
    adapter = SkynetGEPAAdapter.with_options(
        metric, adapter_component, options, run_cache=run_cache
    )
    with keeping_partial(lambda: report):  # an exception leaving carries this report
        recorder = drive_gepa(
            report,
            adapter,
            reflection,
            seed_candidate,
            train,
            validation,
            max_cost=max_cost,
            seed=seed,
            gepa_options=gepa_given,
            on_event=on_event,
            at_list_price=at_list_price,
        )
        report.advice = diagnose(report, recorder, metric, gepa_given)
        report.elapsed_s = time.perf_counter() - started
        report.finished = True
        recorder.emit("finished")
    return report


def _seed_candidate(artifact: Any, component: str) -> tuple[dict[str, str], str | None]:
    """GEPA's seed candidate from the artifact, and the component ``run`` receives (None:
    the whole candidate, for a dict of texts)."""
    if isinstance(artifact, str):
        return {component: artifact}, component
    if (
        isinstance(artifact, dict)
        and artifact
        and all(isinstance(k, str) and isinstance(v, str) for k, v in artifact.items())
    ):
        return dict(artifact), None
    raise TypeError(t("optimize.bad_artifact", type=type(artifact).__name__))


def drive_gepa(
    report: OptimizeReport,
    adapter: Any,
    reflection: ReflectionModel,
    seed_candidate: dict[str, str],
    train: list[Case],
    validation: list[Case],
    *,
    max_cost: float | None,
    seed: int,
    gepa_options: dict[str, Any],
    on_event: OptimizeListener | None,
    at_list_price: bool = False,
) -> _Recorder:
    """Run ``gepa.optimize`` on ``adapter`` for ``report.budget`` metric calls, recording
    in ``report`` what GEPA did and why it stopped (the caller finishes the report).

    ``adapter`` is a GEPA adapter with the ``SkynetGEPAAdapter`` attributes the
    recorder reads: ``spend``, ``failed_cases``, ``current_artifact``, ``on_event``.
    ``gepa_options`` are checked ``gepa.optimize`` options (they gain a minibatch size).
    ``at_list_price``: ``max_cost`` counts every call at its price, one the run cache
    answered included (``adapter.priced``), so a run's share buys the same work
    whatever the cache holds (a race's runs); the report still says what was paid.
    """
    gepa = import_gepa()
    gepa_given = gepa_options
    recorder = _Recorder(report, adapter, reflection, validation, on_event)
    adapter.on_event = recorder.on_engine_event
    cost_stop = None
    if max_cost is not None:
        cost_stop = _CostStop(max_cost, _spent(adapter, reflection, at_list_price))
    stoppers: list[Any] = [_ReflectionStop(reflection), recorder.ended]
    if cost_stop is not None:
        stoppers.append(cost_stop)
    given = gepa_given.pop("stop_callbacks", None)
    if given is not None:
        stoppers.extend(given if isinstance(given, Sequence) else [given])
    gepa_given.setdefault("reflection_minibatch_size", min(DEFAULT_MINIBATCH, len(train)))

    result = None
    try:
        result = gepa.optimize(
            seed_candidate=seed_candidate,
            trainset=train,
            valset=validation,
            adapter=adapter,
            reflection_lm=reflection,
            max_metric_calls=report.budget,
            stop_callbacks=stoppers,
            callbacks=[recorder],
            logger=_Log(report.log),
            seed=seed,
            **gepa_given,
        )
    except KeyboardInterrupt:
        report.stopped = "interrupted"
    except ToolStopped as stopped:  # a run stopped for a key problem: raised out of GEPA
        recorder.stop = recorder.stop or stopped.stop
    if recorder.errors:
        raise recorder.errors[0]
    if result is not None:
        report.calls = max(report.calls, int(getattr(result, "total_metric_calls", 0) or 0))
    _why_it_stopped(report, recorder, reflection, cost_stop)
    return recorder


def _spent(adapter: Any, reflection: ReflectionModel, at_list_price: bool) -> Callable[[], float]:
    """What ``max_cost`` is checked against: what was paid, or every call at its price."""
    if at_list_price:
        return lambda: float(adapter.priced) + reflection.cost_usd
    return lambda: _costs(adapter.spend, reflection).total


def _why_it_stopped(
    report: OptimizeReport,
    recorder: _Recorder,
    reflection: ReflectionModel,
    cost_stop: _CostStop | None,
) -> None:
    """``report.stopped`` (and ``stop``, ``error``) from how GEPA's run ended."""
    report.stop = recorder.stop or reflection_stop(reflection.error, report.lang)
    if report.stop is not None and report.stopped is None:
        report.stopped = report.stop.kind  # what is said is the stop's sentence
    if report.stopped is None:
        if reflection.error is not None:
            report.stopped = "reflection_error"
        elif cost_stop is not None and cost_stop.fired:
            report.stopped = "max_cost"
        else:
            report.stopped = "budget"
    # A proposal the reflection model never wrote (it failed, or Ctrl-C came) is no proposal.
    report.proposals = [p for p in report.proposals if p.text is not None]
    if reflection.error is not None and report.stop is None:  # a stop says its own sentence
        error = _one_line(reflection.error)
        report.error = t("optimize.reflection_failed", report.lang, error=error)


def _one_line(problem: BaseException) -> str:
    """The error on one line, without its closing period: the sentence around it has one."""
    from ..core.secrets import redact

    text = " ".join(redact(str(problem)).split()).rstrip(".")
    return f"{type(problem).__name__}: {text}" if text else type(problem).__name__


# --- why nothing improved -------------------------------------------------------------


def _full_marks(report: OptimizeReport) -> float:
    """Full marks: 1, or the top of another scale seen on validation."""
    return max([PERFECT, *(v for c in report.candidates for v in c.val_scores.values())])


def _seed_missed(report: OptimizeReport, recorder: _Recorder) -> list[int]:
    """The cases (training or validation) the seed was tried on and scored below full marks."""
    full = _full_marks(report)
    return sorted(
        {
            result.index
            for result in recorder.seed_results
            if not result.passed or result.score is None or result.score < full
        }
    )


def _listed(cases: Sequence[int]) -> str:
    shown = ", ".join(map(str, cases[:SHOWN_CASES]))
    return shown + (", …" if len(cases) > SHOWN_CASES else "")


def _validation_saturated(report: OptimizeReport, recorder: _Recorder) -> list[str]:
    """The seed has full marks on every validation case: why nothing could beat it.

    "Nothing to improve" only when every case it was tried on had full marks too;
    otherwise the validation set is too small to tell the candidates apart, and a
    candidate that did better on training is named.
    """
    lang = report.lang
    missed = _seed_missed(report, recorder)
    if not missed:
        return [t("optimize.why_perfect", lang)]
    notes = [t("optimize.why_val_too_small", lang, val=report.val_size, cases=_listed(missed))]
    better = [
        p
        for p in report.proposals
        if p.accepted and p.candidate is not None and sum(p.after or []) > sum(p.before)
    ]
    if better:
        last = better[-1]  # the latest holds what the earlier ones learned
        notes.append(
            t(
                "optimize.why_better_on_training",
                lang,
                candidate=last.candidate,
                before=fmt_score(sum(last.before)),
                after=fmt_score(sum(last.after or [])),
            )
        )
    return notes


def diagnose(
    report: OptimizeReport, recorder: _Recorder, metric: Metric, gepa_options: dict[str, Any]
) -> list[str]:
    """Likely causes, in plain sentences, when no candidate beat the seed (none when a key
    problem stopped the run: the metric is not to blame)."""
    if report.improved or report.seed_score is None or report.stop is not None:
        return []
    lang = report.lang
    notes: list[str] = []
    if report.failed_cases:
        notes.append(t("optimize.why_contract", lang, count=report.failed_cases))
    seed = report.candidates[0]
    if seed.val_scores and min(seed.val_scores.values()) >= PERFECT:
        notes += _validation_saturated(report, recorder)
    elif not report.proposals and report.error is None and report.stopped == "budget":
        minibatch = int(gepa_options.get("reflection_minibatch_size") or DEFAULT_MINIBATCH)
        notes.append(_budget_spent_on_the_seed(report, recorder, minibatch))
    elif report.proposals:
        notes += _proposals_not_better(report)
    feedback = _feedback_advice(recorder, metric, lang)
    return notes if feedback is None else [*notes, feedback]


def _budget_spent_on_the_seed(report: OptimizeReport, recorder: _Recorder, minibatch: int) -> str:
    """The budget ran out before GEPA proposed anything: why, in one sentence."""
    lang = report.lang
    if not recorder.skipped_perfect:
        needed = report.val_size + 2 * minibatch + report.val_size
        return t(
            "optimize.why_budget", lang, budget=report.budget, val=report.val_size, needed=needed
        )
    missed = _seed_missed(report, recorder)
    if not missed:
        return t("optimize.why_perfect", lang)
    return t("optimize.why_sampled_perfect", lang, cases=_listed(missed), count=len(missed))


def _proposals_not_better(report: OptimizeReport) -> list[str]:
    """GEPA proposed texts, and none beat the seed on validation: why."""
    lang = report.lang
    notes: list[str] = []
    rejected = sum(1 for p in report.proposals if p.accepted is False)
    accepted = sum(1 for p in report.proposals if p.accepted)
    if accepted:
        notes.append(t("optimize.why_not_better", lang, count=accepted))
    best = report.best
    full = _full_marks(report)
    missed = sorted(i for i, v in (best.val_scores if best else {}).items() if v < full)
    if missed:
        notes.append(t("optimize.why_unseen", lang, cases=_listed(missed), count=len(missed)))
    elif rejected:
        notes.append(t("optimize.why_rejected", lang, count=rejected))
    return notes


def _feedback_advice(recorder: _Recorder, metric: Metric, lang: str) -> str | None:
    """The contract check's advice on the seed's feedback, when it has some."""
    if not recorder.seed_results:
        return None
    from ..core.advice import advise

    seed_report = CheckReport(
        steps=[],
        cases=[r for r in recorder.seed_results if r.passed],
        lang=lang,
        metric_name=metric.name,
        reward_spec=metric.reward_spec,
    )
    step = advise(seed_report)
    if step is not None and step.status == ADVICE:  # not "no advice"
        return t("optimize.why_feedback", lang, advice=step.message)
    return None
