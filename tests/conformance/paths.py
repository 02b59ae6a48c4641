"""Every path a run can take, for the conformance matrix (issue 43): rule x path.

A **path** is a backend (where the cases run, through ``sj.evaluate``) or a tool
(what the user calls, on the default backend).  Each rule's test is parametrized
over :data:`PATHS`, and says, in its own parameter list, why a rule cannot apply to
a path (``not_applicable``): a new backend or tool added here inherits every rule,
or fails the matrix.  (SQLAlchemy's dialect compliance suite is the model: one set
of rules, every backend; a backend declares what it cannot do, never silently.)

One scenario serves every path: support tickets labelled by the task model through
``run`` (a real litellm call to the loopback server, ``tests/openai_server.py``),
scored by a plain exact-match metric, or by a judge where the rule is the judge's.
``use(path, scenario)`` runs it and gives back what the path gives: the tool's
report, or for ``skynet-check`` the finished command (:class:`Command`).
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.model_settings import ModelSettings
from skynet_jupyter.helper.skynet import llm
from tests.align_support import RuleWriter, follow_rules
from tests.cli_support import skynet_check
from tests.openai_server import OpenAIServer
from tests.race_support import INFORMATIVE, TERSE, WEAK_PROMPT, FeedbackReader

BACKENDS = ("threads", "process", "thread-pool", "process-pool", "dask")
TOOLS = (
    "check",
    "evaluate",
    "probe",
    "stability",
    "agreement",
    "compare",
    "optimize",
    "race",
    "align",
    "skynet-check",
)
PATHS = BACKENDS + TOOLS
OPTIMIZERS = ("optimize", "race", "align")  # tools that run many evaluations through GEPA
QUALITY = ("probe", "stability", "agreement", "compare")

KEY = "sk-conformance-LEAKCHECK-5e1f0a"  # a key every rule may carry: never shown
REFUSED = "sk-conformance-REFUSED-77aa01"  # the provider answers 401 to it
MODEL = "openai/gpt-4o-mini"

PROMPT = WEAK_PROMPT
EXACT = TERSE  # the plain metric: exact match with "Correct." / "Wrong."
TEACHING = INFORMATIVE  # the same scores, feedback that teaches (the race's second metric)
JUDGED = '''from skynet import llm

JUDGE = """Answer PASS or FAIL: is this the ticket's label?"""


def score(input, output, expected=None):
    verdict = str(llm(JUDGE, input={"text": input["text"], "answer": output}))
    passed = verdict.strip().upper().startswith("PASS")
    return (1.0 if passed else 0.0), {"feedback": verdict}
'''
RUN_SOURCE = """from skynet import llm


def run(artifact, input):
    return llm(artifact, input["text"]).strip()
"""


def ask(artifact: Any, input: Any) -> str:
    """The run function: the task model labels the ticket (through ``llm()``)."""
    return str(llm(artifact, input["text"])).strip()


def label_by_words(request: Any) -> str:
    """The loopback task model: the first label whose words the prompt gives and the
    ticket contains (as the shipped classifier does), else "other"."""
    text = request.messages[-1]["content"].lower() if request.messages else ""
    prompt = request.messages[0]["content"] if len(request.messages) > 1 else ""
    for line in str(prompt).splitlines():
        label, _, words = line.partition(":")
        if any(word.strip() and word.strip() in str(text) for word in words.split(",")):
            return label.strip()
    return "other"


def tickets(count: int = 12) -> list[dict[str, Any]]:
    """``count`` shipped tickets (their label is the answer) with a human verdict column."""
    import pandas as pd

    rows = pd.read_csv(sj.load_example("tickets")).to_dict("records")[:count]
    return [dict(row, human="pass" if n % 3 else "fail") for n, row in enumerate(rows)]


def served(server: OpenAIServer, key: str | None = KEY, **extra: Any) -> dict[str, Any]:
    """The task model at the loopback server (``key`` None: no key given)."""
    model = {"model": MODEL, "api_base": server.base_url, **extra}
    if key is not None:
        model["api_key"] = key
    return model


@dataclass(frozen=True)
class Scenario:
    """What one rule asks of every path: the metric, the rows, the models, the limits."""

    server: OpenAIServer
    rows: list[dict[str, Any]] = field(default_factory=tickets)
    metric: str = EXACT
    task_model: Any = None  # default: the loopback server with KEY
    metric_model: Any = None  # default: a stand-in that always says PASS
    run: Callable[[Any, Any], Any] = ask
    timeout: float = 60.0
    run_timeout: float = 600.0
    on_event: Callable[[Any], None] | None = None
    max_cost: float | None = None
    pools: Mapping[str, Any] = field(default_factory=dict)
    cwd: Path | None = None  # skynet-check's folder
    env: Mapping[str, str] = field(default_factory=dict)  # skynet-check's environment
    cli_args: tuple[str, ...] = ()  # skynet-check's own options, after the scenario's
    cache_dir: Path | None = None  # the run cache's folder (RunCache(path=...), --cache-dir)
    artifact: str = PROMPT

    def models(self) -> ModelSettings:
        task = served(self.server) if self.task_model is None else self.task_model
        judge = self.metric_model
        if judge is None:
            judge = sj.StandInModel(lambda instructions, input: "PASS", name="pass")
        return ModelSettings(task_model=task, metric_model=judge)

    def but(self, **changes: Any) -> Scenario:
        return replace(self, **changes)


@dataclass(frozen=True)
class Command:
    """A finished ``skynet-check``: its exit code, its output, and the JSON it printed."""

    code: int
    stdout: str
    stderr: str
    folder: Path

    @property
    def report(self) -> dict[str, Any]:
        return dict(json.loads(self.stdout))

    def everything(self) -> str:
        """Every byte it wrote: output, errors, and the files it left (JUnit, annotations)."""
        files = [
            path.read_text(errors="replace")
            for path in self.folder.rglob("*")
            if path.is_file() and path.suffix in (".xml", ".json", ".txt", ".log")
        ]
        return "\n".join([self.stdout, self.stderr, *files])


def backend_options(path: str, pools: Mapping[str, Any]) -> dict[str, Any]:
    """The ``evaluate`` keywords that put the cases on ``path``'s backend."""
    if path == "threads":
        return {"concurrency": 4}
    if path == "process":
        return {"isolation": "process", "concurrency": 2}
    return {"executor": pools[path]}


def use(path: str, scenario: Scenario) -> Any:
    """Run ``scenario`` on ``path``: the report it gives (or raises), or the Command."""
    common: dict[str, Any] = {
        "outputs": "label",
        "run": scenario.run,
        "artifact": scenario.artifact,
        "timeout": scenario.timeout,
        "run_timeout": scenario.run_timeout,
        "models": scenario.models(),
    }
    events: dict[str, Any] = {} if scenario.on_event is None else {"on_event": scenario.on_event}
    if scenario.cache_dir is not None:
        events["run_cache"] = sj.RunCache(path=scenario.cache_dir / "runs.sqlite")
    rows, metric = scenario.rows, scenario.metric
    if path in BACKENDS:
        return sj.evaluate(
            metric, rows, **common, **events, **backend_options(path, scenario.pools)
        )
    if path == "check":
        return sj.check(metric, rows, **common, **events, cases=len(rows))
    if path == "evaluate":
        return sj.evaluate(metric, rows, **common, **events)
    if path == "probe":
        return sj.probe(metric, rows, **common, **events, probes="empty,all_expected")
    if path == "stability":
        return sj.stability(metric, rows, 2, **common, **events)
    if path == "agreement":
        return sj.agreement(metric, rows, labels="human", **common, **events)
    if path == "compare":
        return sj.compare(metric, TEACHING, rows, **common, **events)
    if path in OPTIMIZERS:
        return _optimizer(path, scenario, common, events)
    if path == "skynet-check":
        return _command(scenario)
    raise ValueError(f"no such path: {path}")


def _optimizer(
    path: str, scenario: Scenario, common: dict[str, Any], events: dict[str, Any]
) -> Any:
    money = {} if scenario.max_cost is None else {"max_cost": scenario.max_cost}
    rows, metric = scenario.rows, scenario.metric
    if path == "optimize":
        return sj.optimize(
            metric, rows, budget=20, reflection_model=FeedbackReader(), **common, **events, **money
        )
    if path == "race":
        metrics = {"exact": metric, "teaching": TEACHING}
        return sj.race(
            metrics,
            rows,
            budget=12,
            held_out=5,
            reflection_model=FeedbackReader(),
            **common,
            **events,
            **money,
        )
    judge = JUDGED if metric == EXACT else metric  # align needs a judge's instructions
    models = scenario.models()
    if scenario.metric_model is None:  # the judge that follows the rules in its text
        models = ModelSettings(
            task_model=models.task_model, metric_model=sj.StandInModel(follow_rules, name="j")
        )
    return sj.align(
        judge,
        rows,
        "human",
        budget=8,
        reflection_model=RuleWriter(),
        **{**common, "models": models},
        **events,
        **money,
    )


def _command(scenario: Scenario) -> Command:
    """``skynet-check`` on the scenario, written to files in ``scenario.cwd``."""
    folder = scenario.cwd
    assert folder is not None, "skynet-check needs a folder: Scenario(cwd=tmp_path)"
    (folder / "metric.py").write_text(scenario.metric)
    (folder / "run.py").write_text(textwrap.dedent(RUN_SOURCE))
    (folder / "cases.jsonl").write_text("".join(json.dumps(row) + "\n" for row in scenario.rows))
    (folder / "prompt.txt").write_text(scenario.artifact)
    task = served(scenario.server) if scenario.task_model is None else scenario.task_model
    args = [
        "metric.py",
        "--data",
        "cases.jsonl",
        "--outputs",
        "label",
        "--run",
        "run.py:run",
        "--artifact",
        "prompt.txt",
        "--cases",
        str(len(scenario.rows)),
        "--timeout",
        f"{scenario.timeout:g}",
        "--task-model",
        task["model"],
        "--api-base",
        task["api_base"],
        "--json",
        "--junit-xml",
        "junit.xml",
        *scenario.cli_args,
    ]
    if scenario.cache_dir is not None:
        args += ["--cache-dir", str(scenario.cache_dir)]
    env = dict(scenario.env)
    if "api_key" in task and "OPENAI_API_KEY" not in env:
        env["OPENAI_API_KEY"] = task["api_key"]
    done = skynet_check(*args, cwd=folder, env=env, timeout=300)
    return Command(done.returncode, done.stdout, done.stderr, folder)


def not_applicable(rule: str, reasons: Mapping[str, str]) -> list[Any]:
    """Every path as a parameter; those in ``reasons`` skipped with the reason said (a
    documented exclusion: the matrix prints it, it is never silent)."""
    return [
        pytest.param(
            path,
            id=path,
            marks=[pytest.mark.skip(reason=f"{rule} does not apply: {reasons[path]}")]
            if path in reasons
            else [],
        )
        for path in PATHS
    ]
