"""One metric for DSPy too: ``to_dspy_metric`` and ``from_dspy_program``.

The contract: "For a DSPy program, the DSPy metric call is adapted to this same
function."  ``to_dspy_metric(metric)`` gives DSPy a metric it can call the way
``dspy.Evaluate`` does, ``(example, pred)`` or ``(example, pred, trace)``, and
the way ``dspy.GEPA`` does, ``(gold, pred, trace, pred_name, pred_trace)``:

- ``input`` is the example's inputs as a dict (``example.with_inputs(...)``
  marks them), ``expected`` its other fields (its labels) as a dict, or None
  when it has none;
- ``output`` is the prediction's one field's value when it has one field
  (``label``), else a dict of its fields (``{"reasoning": ..., "label": ...}``
  for a ``ChainOfThought``);
- it returns ``dspy.Prediction(score=..., feedback=...)``, plus
  ``objective_scores`` (the named ``scores``) when the metric gives any, which
  GEPA tracks per objective.  It is also a ``float`` (its score), so
  ``Evaluate`` averages it at full speed, and its truth is the score's, so
  ``BootstrapFewShot`` keeps only demos that scored.

The metric runs in the caller's thread (DSPy runs its own threads), with the
``skynet`` helpers working: ``llm()`` asks the metric model and
``reward(...)`` works; run time and cost are not measured by DSPy, so a reward
gives those parts 0 and says so in the feedback.  A return value that breaks
the contract raises :class:`DSPyContractError`, a ``ContractError`` whose
message starts with the step ("Metric return value: ..."); an exception raised
by the metric itself reaches DSPy unchanged, with the user's traceback.

What DSPy does not give the metric, said where the user reads it (the
README's DSPy section, tutorial 05): with a ``REWARD_SPEC`` the score through
DSPy is lower than in ``evaluate`` (speed and cost are 0 there, and every
feedback says so), and every predictor of the program reads the same
feedback (the metric is not told which predictor GEPA asks about).

A DSPy metric given here (``metric(example, prediction, trace=None, ...)``)
is refused in one sentence: it is a DSPy metric already (DSPy takes it as it
is; ``from_dspy_metric`` makes it a Skynet metric).  A metric made by
``from_dspy_metric`` gives DSPy the user's own metric back, its answers
unchanged.

``from_dspy_program(program)`` gives the other half: a ``run(artifact,
input)`` for ``check`` / ``evaluate`` / ``%skynet_check --run``, whose output
is shaped as above, so the same metric reads the same ``output`` both ways.
``dspy`` is the optional extra ``[dspy]``; it is imported when first needed.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Mapping
from typing import Any

from ..core.contract import METRIC_SIGNATURE, ContractError, step_title, validate_return
from ..core.metric import Metric, load_metric
from ..core.skynet_import import install_skynet_module
from ..i18n import resolve_lang, t
from ..models.case_context import METRIC, CaseContext, current_case
from ..models.settings import current_settings, settings_version
from ..run.one_case import copy_value
from .dspy_metric import DSPyMetric, import_dspy

__all__ = ["DSPyContractError", "from_dspy_program", "to_dspy_metric"]


class DSPyContractError(ContractError):
    """A contract violation seen through DSPy: the message starts with the step's title."""

    def __init__(self, problem: ContractError, lang: str) -> None:
        fields = problem.fields
        super().__init__(problem.step, problem.message_id, case=problem.case, **fields)
        self.detail = problem.detail
        self.lang = lang

    def __str__(self) -> str:
        title = step_title(self.step, self.lang)
        return t("labelled", self.lang, label=title, text=self.message(self.lang))


@functools.cache
def _score_type() -> type:
    # Built on first use so that importing this module does not import dspy.
    prediction: Any = import_dspy().Prediction  # a class from an untyped library

    class SkynetScore(float, prediction):
        """``dspy.Prediction(score=..., feedback=...)`` that is also its score, a float.

        DSPy adds metric results up (``Evaluate`` re-adds every finished
        example's score at each step of its progress), and a float adds up in
        C where a plain Prediction adds up in Python: with 10,000 examples that
        is the difference between seconds and a minute.  A float is also what
        ``Evaluate``'s table and ``save_as_json`` expect, and its truth is the
        score's.  Fields read and write as on any Prediction; ``float()`` is the
        score it was made with.
        """

        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            value = kwargs["score"] if "score" in kwargs else (args[0] if args else 0.0)
            return float.__new__(cls, value)

        __repr__ = prediction.__repr__
        __str__ = prediction.__str__

    SkynetScore.__module__ = __name__
    SkynetScore.__qualname__ = "SkynetScore"
    return SkynetScore


def __getattr__(name: str) -> Any:
    # ``SkynetScore`` is a module attribute (so its instances pickle), built on first use.
    if name == "SkynetScore":
        return _score_type()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- the metric ------------------------------------------------------------------


_NOT_AN_EXAMPLE = object()


def example_fields(example: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``(input, expected)`` of a ``dspy.Example``: its inputs, and its labels or None."""
    # dspy (untyped) keeps the input names as a set, or None before with_inputs().
    keys: Any = getattr(example, "_input_keys", _NOT_AN_EXAMPLE)
    store = getattr(example, "_store", None)
    if keys is _NOT_AN_EXAMPLE or not isinstance(store, dict):
        if not hasattr(example, "inputs") or not hasattr(example, "items"):
            raise TypeError(
                f"Expected a dspy.Example as the first argument, got {type(example).__name__}."
            )
        keys = set(dict(example.inputs().items()))  # an Example-like object: its public API
        store = dict(example.items())
    if keys is None:
        raise ValueError(
            "The example does not say which fields are inputs: build it with "
            "dspy.Example(...).with_inputs('question', ...) so the rest become `expected`."
        )
    case_input: dict[str, Any] = {}
    labels: dict[str, Any] = {}
    for key, value in store.items():
        if key.startswith("dspy_"):  # DSPy's own bookkeeping (dspy_uuid, dspy_split)
            continue
        (case_input if key in keys else labels)[key] = value
    return case_input, (labels or None)


class _Models:
    """The models ``llm()`` uses, re-read only when a setting or the environment changes."""

    _VARIABLES = ("SKYNET_TASK_MODEL", "SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL")

    def __init__(self) -> None:
        self.key: tuple[Any, ...] = ()
        self.settings: Any = None

    def current(self) -> Any:
        key = (settings_version(), *map(os.environ.get, self._VARIABLES))
        if key != self.key:
            self.settings = current_settings()
            self.key = key
        return self.settings


def prediction_output(prediction: Any) -> Any:
    """What a metric receives as ``output``: the one field's value, else a dict of fields."""
    store = getattr(prediction, "_store", None)
    if isinstance(store, dict):  # a dspy.Prediction (or Example)
        fields = {key: value for key, value in store.items() if not key.startswith("dspy_")}
    elif hasattr(prediction, "items") and not isinstance(prediction, Mapping):
        fields = dict(prediction.items())
    else:
        return prediction  # a program that returns a plain value or a dict
    if len(fields) == 1:
        return next(iter(fields.values()))
    return fields


def to_dspy_metric(metric: Any, *, lang: str | None = None) -> Any:
    """A DSPy metric (for ``dspy.Evaluate`` and ``dspy.GEPA``) from a Skynet metric.

    ``metric`` is anything :func:`skynet_jupyter.load_metric` takes: a ``score``
    function, a :class:`Metric`, a ``metric.py`` path or source text.
    """
    loaded = _load_skynet_metric(metric)
    language = resolve_lang(lang)
    make_score = _score_type()
    install_skynet_module()
    if isinstance(loaded.score, DSPyMetric):
        return _native_metric(loaded.score.metric, loaded)
    score_fn = loaded.score
    full_form = loaded.arity == 3
    models = _Models()

    def dspy_metric(
        example: Any,
        pred: Any,
        trace: Any = None,
        pred_name: str | None = None,
        pred_trace: Any = None,
    ) -> Any:
        case_input, expected = example_fields(example)
        case_input, expected = copy_value(case_input), copy_value(expected)
        output = copy_value(prediction_output(pred))
        ctx = CaseContext(models.current(), phase=METRIC)
        token = current_case.set(ctx)
        try:
            if full_form:
                value = score_fn(case_input, output, expected)
            else:
                value = score_fn(case_input, output)
        finally:
            current_case.reset(token)
        try:
            score, info = validate_return(value)
        except ContractError as problem:
            raise DSPyContractError(problem, language) from None
        named = info.get("scores")
        if named:
            return make_score(
                score=score,
                feedback=info["feedback"],
                objective_scores={name: float(v) for name, v in named.items()},
            )
        return make_score(score=score, feedback=info["feedback"])

    dspy_metric.__name__ = dspy_metric.__qualname__ = getattr(score_fn, "__name__", "score")
    dspy_metric.__doc__ = f"The Skynet metric {loaded.name!r} ({loaded.call_form}) for DSPy."
    dspy_metric.metric = loaded  # type: ignore[attr-defined]
    return dspy_metric


def _load_skynet_metric(metric: Any) -> Metric:
    """The Skynet metric to adapt; a DSPy metric is refused in one sentence, not a KeyError."""
    try:
        return load_metric(metric)
    except ContractError as problem:
        if problem.message_id != "signature.dspy":
            raise
        raise ContractError(METRIC_SIGNATURE, "dspy.already_dspy", **problem.fields) from None


def _native_metric(native: Any, loaded: Metric) -> Any:
    """The DSPy metric that ``from_dspy_metric`` adapted, for DSPy again: its own answers.

    It keeps its own signature (DSPy's GEPA reads it) and runs with the
    ``skynet`` helpers working, as every metric this module gives DSPy does.
    """
    models = _Models()

    @functools.wraps(native)
    def dspy_metric(*args: Any, **kwargs: Any) -> Any:
        token = current_case.set(CaseContext(models.current(), phase=METRIC))
        try:
            return native(*args, **kwargs)
        finally:
            current_case.reset(token)

    dspy_metric.metric = loaded  # type: ignore[attr-defined]
    return dspy_metric


# --- the program -------------------------------------------------------------------


class DSPyProgramRun:
    """``run(artifact, input)``: call a DSPy program on a case's inputs.

    The artifact picks the program that runs:

    - ``None``: ``program`` as given;
    - a ``dspy.Module``: that module instead (e.g. an optimized copy);
    - a string: new instructions for the program's only predictor;
    - a dict ``{predictor name: instructions}``: a GEPA candidate, applied to a
      copy of the program as GEPA does (names from ``program.named_predictors()``).

    The output is shaped for the metric as :func:`to_dspy_metric` shapes it.
    The program's model calls count as the run's (tokens; their price only
    when the provider reports it, else the cost is "not measured": DSPy does
    not tell a thread its calls' price).  Cached answers cost nothing.
    DSPy settings made with ``dspy.context(...)`` around the call to
    :func:`from_dspy_program` hold in the engine's threads too (``dspy.configure``
    holds everywhere); ``lm=`` pins a language model.
    """

    def __init__(self, program: Any, *, lm: Any = None) -> None:
        dspy = import_dspy()
        if not isinstance(program, dspy.Module):
            raise TypeError(
                f"from_dspy_program needs a dspy.Module (e.g. dspy.Predict(...)), "
                f"got {type(program).__name__}."
            )
        from dspy.dsp.utils.settings import thread_local_overrides

        self.program = program
        overrides = dict(thread_local_overrides.get())
        overrides.pop("usage_tracker", None)  # each call tracks its own usage
        if lm is not None:
            overrides["lm"] = lm
        self.overrides = overrides
        self._built: dict[Any, Any] = {}
        self._lock = threading.Lock()

    def __call__(self, artifact: Any, input: Mapping[str, Any]) -> Any:
        from dspy.dsp.utils.settings import thread_local_overrides
        from dspy.utils.usage_tracker import UsageTracker

        program = self.program_for(artifact)
        tracker = UsageTracker()
        overrides = {**thread_local_overrides.get(), **self.overrides, "usage_tracker": tracker}
        token = thread_local_overrides.set(overrides)
        try:
            prediction = program(**input)
        finally:
            thread_local_overrides.reset(token)
            _count_usage(tracker)
        return prediction_output(prediction)

    def program_for(self, artifact: Any) -> Any:
        """The module that runs for ``artifact`` (built once per artifact, then reused)."""
        if artifact is None:
            return self.program
        dspy = import_dspy()
        if isinstance(artifact, dspy.Module):
            return artifact
        if isinstance(artifact, Mapping):
            key: Any = tuple(sorted((str(k), str(v)) for k, v in artifact.items()))
        elif isinstance(artifact, str):
            key = artifact
        else:
            raise TypeError(
                "The artifact for a DSPy program is None, a dspy.Module, instructions "
                "(a string) or a dict {predictor name: instructions}, not "
                f"{type(artifact).__name__}."
            )
        with self._lock:
            built = self._built.get(key)
            if built is None:
                built = self._build(artifact)
                if len(self._built) >= 16:
                    self._built.clear()
                self._built[key] = built
        return built

    def _build(self, artifact: Any) -> Any:
        names = [name for name, _ in self.program.named_predictors()]
        if isinstance(artifact, str):
            if len(names) != 1:
                raise ValueError(
                    f"The program has {len(names)} predictors ({', '.join(names) or 'none'}); "
                    "give the artifact as a dict {predictor name: instructions}."
                )
            candidate = {names[0]: artifact}
        else:
            unknown = [str(name) for name in artifact if name not in names]
            if unknown:
                raise ValueError(
                    f"The artifact names predictor(s) {', '.join(unknown)}, which the program "
                    f"does not have; it has: {', '.join(names) or 'none'}."
                )
            candidate = dict(artifact)
        program = self.program.deepcopy()
        for name, predictor in program.named_predictors():
            if name in candidate:
                predictor.signature = predictor.signature.with_instructions(str(candidate[name]))
        return program

    def __getstate__(self) -> dict[str, Any]:
        # Travels to process pools and Dask workers without its lock and built copies.
        return {"program": self.program, "overrides": self.overrides}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.program = state["program"]
        self.overrides = state["overrides"]
        self._built = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<run(artifact, input) for {type(self.program).__name__}>"


def _count_usage(tracker: Any) -> None:
    """Add the program's model calls to the case's run usage (its cost, when reported)."""
    ctx = current_case.get()
    if ctx is None:
        return
    for entries in tracker.usage_data.values():
        for entry in entries:
            cost = entry.get("cost")
            ctx.usage(False).add(
                int(entry.get("prompt_tokens") or 0),
                int(entry.get("completion_tokens") or 0),
                float(cost)
                if isinstance(cost, int | float) and not isinstance(cost, bool)
                else None,
            )


def from_dspy_program(program: Any, *, lm: Any = None) -> DSPyProgramRun:
    """A ``run(artifact, input)`` that calls the DSPy ``program`` on a case's inputs."""
    return DSPyProgramRun(program, lm=lm)
