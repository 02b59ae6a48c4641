"""The metric as GEPA reads it: a ``GEPAAdapter`` over the engine, and the reflection model.

``to_gepa_adapter(metric, run)`` gives the real ``gepa`` library (the optional
extra ``[gepa]``) what its protocol asks for:

- ``evaluate(batch, candidate, capture_traces)`` runs ``run(artifact, input)``
  with the candidate's text as the artifact and scores every case with the
  metric, through the engine (``execute_cases``): time limits, copies,
  validation, concurrency, the run cache and cost accounting are the
  engine's.  A case that breaks the contract (or whose run raises, or that
  runs out of time) scores 0 and its feedback is the failure, in one
  sentence: the optimizer reads why, and nothing raises.
- ``make_reflective_dataset`` gives, per component, one record per case:
  ``Inputs``, ``Generated Outputs``, ``Feedback`` (exactly as the metric wrote
  it) and ``Score``.  The expected values stay with the metric, as the
  contract says: the reflection model never sees them.

``ReflectionModel`` turns a Skynet model (a litellm string or dict, or a
callable ``(instructions, input) -> str`` such as ``StandInModel``) into
GEPA's language model, ``prompt -> text``, counting its calls and cost.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

from ..core.contract import step_title
from ..core.dataset import Case, DataError, load_cases
from ..core.metric import Metric, load_function, load_metric
from ..core.model_settings import ModelSettings
from ..core.options import RUN_TIMEOUT, Isolation, RunOptions
from ..core.report import CaseResult
from ..i18n import resolve_lang, t
from ..run.engine import Listener, RunCache, execute_cases
from .report import Costs
from .tool_rules import stop_if_the_run_stopped

__all__ = [
    "GepaMissing",
    "ReflectionModel",
    "SkynetGEPAAdapter",
    "failure_feedback",
    "list_price",
    "optimizer_options",
    "options_apart",
    "to_gepa_adapter",
]


DISTRIBUTION = "skynet-jupyter"


class GepaMissing(ImportError):
    """The gepa library is not installed: one sentence with the command that installs it."""


def install_command(extra: str, direct_url: str | None = None, cwd: Path | None = None) -> str:
    """The pip line that adds ``extra`` to this installation of the package.

    An editable install (a clone, ``pip install -e``) takes the extra from its
    folder (``pip install -e '.[gepa]'`` from inside it); an install from an
    index takes it by name.  ``direct_url``: the installation's
    ``direct_url.json`` (PEP 610); by default, read from the installed metadata.
    """
    if direct_url is None:
        try:
            direct_url = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
        except metadata.PackageNotFoundError:
            direct_url = None
    try:
        described = json.loads(direct_url) if direct_url else {}
    except ValueError:
        described = {}
    url = str(described.get("url", "")) if isinstance(described, dict) else ""
    editable = isinstance(described, dict) and (described.get("dir_info") or {}).get("editable")
    if editable and url.startswith("file://"):
        folder = Path(url.removeprefix("file://"))
        here = (cwd or Path.cwd()).resolve()
        where = "." if folder.resolve() == here else str(folder)
        return f"pip install -e '{where}[{extra}]'"
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def import_gepa(lang: str | None = None) -> Any:
    try:
        import gepa
    except ImportError:
        command = install_command("gepa")
        raise GepaMissing(t("optimize.needs_gepa", resolve_lang(lang), command=command)) from None
    return gepa


def list_price(result: CaseResult) -> float:
    """What a case's calls cost at their price, the run's and the judge's, whether they were
    paid now or answered from a cache (a cached case keeps the price it was made at)."""
    return (result.cost_usd or 0.0) + (result.judge_cost_usd or 0.0)


def failure_feedback(result: CaseResult, lang: str) -> str:
    """What the optimizer reads for a case that failed: the step, then why."""
    step = step_title(result.failed_step, lang) if result.failed_step else ""
    return f"{step}: {result.error}" if step else str(result.error or "")


def _plain(value: Any) -> Any:
    """``value`` if it is JSON data, else its text (the reflective records are JSON)."""
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def optimizer_options(
    run_timeout: float | None, isolation: str | None, **options: Any
) -> RunOptions:
    """The optimizer's keywords as checked options: ``run_timeout`` and ``isolation`` None
    (the optimizer's defaults) are the engine's own defaults."""
    return RunOptions.given(
        run_timeout=RUN_TIMEOUT if run_timeout is None else run_timeout,
        isolation=Isolation.THREAD if isolation is None else isolation,
        **options,
    )


def options_apart(
    arguments: Mapping[str, Any], own: Collection[str]
) -> tuple[RunOptions, dict[str, Any]]:
    """A public optimizer function's arguments (its ``locals()``) as checked run options
    and its ``own`` keywords: ``optimize`` and ``align`` declare their keywords in full
    (their signatures are the documentation) and hand them on without listing them twice."""
    run_keywords = {name: value for name, value in arguments.items() if name not in own}
    return optimizer_options(**run_keywords), {name: arguments[name] for name in own}


def numbered_back(results: Sequence[CaseResult], cases: Sequence[Case]) -> list[CaseResult]:
    """The results of ``cases`` run numbered by their place in the batch, in that order and
    numbered as the cases were again."""
    by_place = {result.index: result for result in results}
    ordered = []
    for place, case in enumerate(cases):
        result = by_place[place]
        result.index = case.index
        ordered.append(result)
    return ordered


class SkynetGEPAAdapter:
    """A ``gepa.GEPAAdapter``: candidates are evaluated by the engine, scored by the metric.

    ``component`` names the candidate's text that ``run`` receives as its
    artifact; ``component=None`` gives ``run`` the whole candidate (a dict
    ``{name: text}``, as a DSPy program's run takes it).  Data instances are
    :class:`~skynet_jupyter.Case` objects or rows (dicts) split by
    ``outputs`` / ``inputs`` as in :func:`skynet_jupyter.evaluate`.
    ``spend`` and ``metric_calls`` add up everything evaluated.
    """

    # GEPA's own reflective proposer writes the new text from our records.
    propose_new_texts = None

    def __init__(
        self,
        metric: Metric | Callable[..., Any] | str,
        run: Callable[[Any, Any], Any] | str,
        component: str | None = "prompt",
        *,
        outputs: str | Sequence[str] | None = None,
        inputs: str | Sequence[str] | None = None,
        timeout: float = 60,
        concurrency: int = 8,
        executor: Executor | None = None,
        lang: str | None = None,
        models: ModelSettings | None = None,
        run_cache: RunCache | None = None,
        on_event: Listener | None = None,
        run_timeout: float | None = None,
        isolation: str | None = None,
    ) -> None:
        options = optimizer_options(
            run_timeout,
            isolation,
            run=run,
            outputs=outputs,
            inputs=inputs,
            timeout=timeout,
            concurrency=concurrency,
            executor=executor,
            lang=lang,
            models=models,
        )
        self._start(load_metric(metric), component, options, run_cache, on_event)

    @classmethod
    def with_options(
        cls,
        metric: Metric,
        component: str | None,
        options: RunOptions,
        *,
        run_cache: RunCache | None = None,
        on_event: Listener | None = None,
    ) -> SkynetGEPAAdapter:
        """The adapter of options already checked (``optimize`` passes its own on, as they are)."""
        adapter = cls.__new__(cls)
        adapter._start(metric, component, options, run_cache, on_event)
        return adapter

    def _start(
        self,
        metric: Metric,
        component: str | None,
        options: RunOptions,
        run_cache: RunCache | None,
        on_event: Listener | None,
    ) -> None:
        self.metric = metric
        assert options.run is not None, "the adapter runs every candidate: it needs run"
        # Loaded once ("FILE.py:FUNC" is imported here), not once per batch.
        self.options = replace(options, run=load_function(options.run))
        self.run = self.options.run
        self.component = component
        self.lang = self.options.language
        self.run_cache = RunCache() if run_cache is None else run_cache
        self.on_event = on_event
        self.spend = Costs()  # task and judge; the reflection model counts its own
        self.priced = 0.0  # every case at its price, a call the cache answered included
        self.metric_calls = 0
        self.failed_cases = 0
        self.current_artifact: Any = None  # what run receives in the evaluation under way

    def artifact(self, candidate: Mapping[str, str]) -> Any:
        """What ``run`` receives for ``candidate``."""
        if self.component is None:
            return dict(candidate)
        if self.component not in candidate:
            names = ", ".join(map(repr, candidate)) or t("optimize.no_components", self.lang)
            raise KeyError(
                t("optimize.no_component", self.lang, component=self.component, names=names)
            )
        return candidate[self.component]

    def cases(self, batch: Sequence[Any]) -> list[Case]:
        """The batch as cases (rows are split into input and expected)."""
        if all(isinstance(item, Case) for item in batch):
            return list(batch)
        if any(isinstance(item, Case) for item in batch):
            raise DataError("data.mixed_batch")
        return load_cases(list(batch), self.options.outputs, self.options.inputs)

    def evaluate(
        self, batch: Sequence[Any], candidate: dict[str, str], capture_traces: bool = False
    ) -> Any:
        """Score ``candidate`` on ``batch``: an ``EvaluationBatch`` (never raises for a case)."""
        gepa = import_gepa()
        artifact = self.current_artifact = self.artifact(candidate)
        results = self._score(self.cases(batch), artifact)
        scores, outputs, trajectories, named = [], [], [], []
        for result in results:
            self.spend.add_case(result, ran_now=True)
            self.priced += list_price(result)
            if result.passed and result.score is not None:
                score, feedback = float(result.score), result.feedback or ""
            else:
                score, feedback = 0.0, failure_feedback(result, self.lang)
                self.failed_cases += 1
            scores.append(score)
            outputs.append(result.output)
            named.append(dict(result.scores) if result.passed else {})
            if capture_traces:
                trajectories.append(
                    {
                        "case": result.index,
                        "input": result.input,
                        "output": result.output,
                        "score": score,
                        "feedback": feedback,
                        "scores": dict(result.scores),
                        "failed_step": result.failed_step,
                    }
                )
        self.metric_calls += len(results)
        return gepa.EvaluationBatch(
            outputs=outputs,
            scores=scores,
            trajectories=trajectories if capture_traces else None,
            objective_scores=named if any(named) else None,
        )

    def _score(self, cases: list[Case], artifact: Any) -> list[CaseResult]:
        """Every case scored by the engine, in the order given (each is run: its output is not
        the batch's to give)."""
        # Numbered by place, so the same case twice in a batch is two cases.
        batch = [
            Case(place, dict(case.input), None if case.expected is None else dict(case.expected))
            for place, case in enumerate(cases)
        ]
        report = execute_cases(
            "eval",
            self.metric,
            batch,
            replace(self.options, artifact=artifact),
            on_event=self.on_event,
            run_cache=self.run_cache,
        )
        if report.interrupted or report.stop is not None:
            for result in report.cases:  # what finished was paid for
                self.spend.add_case(result, ran_now=True)
                self.priced += list_price(result)
        if report.interrupted:
            raise KeyboardInterrupt
        stop_if_the_run_stopped(report, cases)  # a key problem: no further GEPA evaluation
        return numbered_back(report.cases, cases)

    def make_reflective_dataset(
        self,
        candidate: dict[str, str],
        eval_batch: Any,
        components_to_update: list[str],
    ) -> dict[str, list[dict[str, Any]]]:
        """Per component: what each case got in, what came out, the feedback, the score."""
        records = [
            {
                "Inputs": _plain(trace["input"]),
                "Generated Outputs": _plain(trace["output"]),
                "Feedback": trace["feedback"],
                "Score": trace["score"],
            }
            for trace in eval_batch.trajectories or []
        ]
        return {name: [dict(record) for record in records] for name in components_to_update}


def to_gepa_adapter(
    metric: Metric | Callable[..., Any] | str,
    run: Callable[[Any, Any], Any] | str,
    component: str | None = "prompt",
    **options: Any,
) -> SkynetGEPAAdapter:
    """A ``gepa.GEPAAdapter`` that scores candidates with ``metric`` through the engine.

    The candidate's ``component`` text is the artifact given to
    ``run(artifact, input)``.  ``options`` are those of
    :func:`skynet_jupyter.evaluate` (``outputs``, ``inputs``, ``timeout``,
    ``run_timeout``, ``isolation``, ``concurrency``, ``executor``, ``lang``,
    ``models``, ``run_cache``, ``on_event``).  Use it with
    ``gepa.optimize(seed_candidate={component: text}, trainset=cases,
    adapter=adapter, reflection_lm=...)``.
    """
    import_gepa()
    return SkynetGEPAAdapter(metric, run, component, **options)


class ReflectionModel:
    """GEPA's reflection language model (``prompt -> text``) from a Skynet model.

    The prompt GEPA writes (the current text and the reflective records) is
    sent as one user message, through the same routing as ``llm()``: a
    litellm model string or dict, or a callable ``(instructions, input)``,
    which receives the prompt as ``instructions`` and ``None`` as input.
    ``total_cost`` (what GEPA's cost stopper reads), ``calls`` and
    ``cost_known`` add up every call; ``prompts`` keeps what was asked.

    Once a call failed, the model is not asked again: the tool stops on it
    (``error``), and GEPA's retry of a failed batched proposal, task by task,
    gets the same error without a request (a refused key is sent once).
    """

    def __init__(self, model: Any) -> None:
        from ..models.llm import check_model

        self.model = check_model(model, "reflection_model")
        self.calls = 0
        self.cost_usd = 0.0
        self.cost_known = True
        self.prompts: list[str] = []
        self.error: BaseException | None = None
        self._lock = threading.Lock()

    @property
    def total_cost(self) -> float:
        return self.cost_usd

    def __call__(self, prompt: str | list[dict[str, Any]]) -> str:
        from ..models.llm import complete

        text = prompt if isinstance(prompt, str) else _messages_text(prompt)
        if self.error is not None:
            raise self.error
        try:
            reply = complete(self.model, text, None)
        except Exception as problem:
            self.error = problem  # GEPA logs and skips a failed proposal: we stop and say why
            raise
        with self._lock:
            self.calls += 1
            self.prompts.append(text)
            if reply.cost_usd is None:
                self.cost_known = False
            else:
                self.cost_usd += reply.cost_usd
        return reply.text

    def __repr__(self) -> str:
        from ..models.llm import describe_model

        return f"<reflection model {describe_model(self.model)}>"


def _messages_text(messages: list[dict[str, Any]]) -> str:
    """The text of chat messages (GEPA sends messages only when records hold images)."""
    parts = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return "\n\n".join(parts)
