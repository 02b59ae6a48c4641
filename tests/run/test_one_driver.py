"""One driver for every backend (issue 34, item 1): a refusing provider stops them all alike.

An endpoint that answers every request with HTTP 429 (the loopback server's
``[[status=429]]``): past the refusal limit the run stops, the case that met
it says the provider's sentence, and the cases nobody started say "Not run"
with it, whether the cases ran on watched threads, in worker processes, on a
thread pool, on a process pool or on a Dask cluster.  Before the one driver an
executor run went on: every case made its own requests and failed on its own.
The functions are defined as a notebook cell defines them, so they travel by value.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

import skynet_jupyter as sj
from skynet_jupyter import ModelSettings
from skynet_jupyter.models import rate_limit as _rate_limit
from tests.conftest import require_module
from tests.openai_server import OpenAIServer
from tests.run.test_executors import notebook_cell

KEY = "sk-provider-0123456789abcdef"
CASES = 16
REFUSAL_TIMEOUT = 0.6  # seconds of nothing but 429s before the provider counts as refusing

CELL = """
from skynet import llm

def answered(input, output, expected=None):
    return 1.0, {"feedback": "Answered."}

def ask(artifact, case):
    return llm("Label the support ticket.", case["text"])
"""


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    """A fresh server per test: a new port, so new endpoints and new limiters."""
    with OpenAIServer() as fresh:
        fresh.retry_after_ms = 150
        yield fresh


@pytest.fixture
def short_refusal() -> Iterator[float]:
    sj.configure(refusal_timeout=REFUSAL_TIMEOUT)
    yield REFUSAL_TIMEOUT
    sj.configure(refusal_timeout=_rate_limit.REFUSAL_TIMEOUT)


@pytest.fixture(scope="module")
def dask_executor() -> Iterator[Executor]:
    distributed = require_module("distributed")
    cluster = distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    yield client.get_executor()
    client.close()
    cluster.close()


@contextmanager
def options_for(backend: str, request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    """The evaluate keywords that run the cases on ``backend``."""
    if backend in ("thread", "process"):
        yield {"concurrency": 2, "isolation": backend}
    elif backend == "thread_pool":  # the issue's own case
        with ThreadPoolExecutor(4) as pool:
            yield {"executor": pool}
    elif backend == "process_pool":
        spawn = multiprocessing.get_context("spawn")  # nothing inherited: the limit must travel
        with ProcessPoolExecutor(2, mp_context=spawn) as pool:
            yield {"executor": pool}
    else:
        yield {"executor": request.getfixturevalue("dask_executor")}


BACKENDS = [
    "thread",
    "process",
    "thread_pool",
    pytest.param("process_pool", marks=pytest.mark.slow),
    pytest.param("dask", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_provider_that_refuses_everything_stops_every_backend(
    backend: str, server: OpenAIServer, short_refusal: float, request: pytest.FixtureRequest
) -> None:
    code = notebook_cell(CELL)
    refused = [{"text": f"[[status=429]] ticket {i}", "label": "billing"} for i in range(CASES)]
    model = {"model": "openai/gpt-4o-mini", "api_base": server.base_url, "api_key": KEY}

    with options_for(backend, request) as options:
        report = sj.evaluate(
            code["answered"],
            refused,
            outputs="label",
            run=code["ask"],
            models=ModelSettings(task_model=model),
            **options,
        )

    assert [case.index for case in report.cases] == list(range(CASES))
    assert not report.passed and not any(case.passed for case in report.cases)
    said = [case.error or "" for case in report.cases]
    assert all("refused every request" in error for error in said)
    assert all(case.failed_step == "run_function" for case in report.cases)
    assert KEY not in " ".join(said)
    # The run stopped: the cases nobody started say so, with the provider's fix.
    not_run = [case for case in report.cases if "not run" in (case.error or "").lower()]
    assert not_run, said
    assert all(case.hint_id == "hint.provider_refused" for case in not_run)
    assert "configure(refusal_timeout=" in said[-1]
    # Far fewer requests than 16 cases x 9 attempts each: no case started after the stop.
    assert len(server.calls()) < CASES * (_rate_limit.RATE_LIMIT_RETRIES + 1) // 4


# --- the run's language reaches the cases wherever they run (issue 34, item 3) ----------

SPEAKER = """
from skynet_jupyter.i18n import current_lang

def speaks(input, output, expected=None):
    return 1.0, {"feedback": current_lang()}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_backend_runs_its_cases_in_the_runs_language(
    backend: str, request: pytest.FixtureRequest
) -> None:
    code = notebook_cell(SPEAKER)
    rows = [{"n": n, "out": "x"} for n in range(6)]
    with options_for(backend, request) as options:
        report = sj.evaluate(code["speaks"], rows, output_column="out", lang="pt", **options)
    assert [case.feedback for case in report.cases] == ["pt"] * 6


SLOW_CELL = """
import time

def logged(input, output, expected=None):
    time.sleep(0.6 if input["n"] else 0.05)  # case 0 ends first; the others are in flight
    with open(input["log"], "a") as log:
        log.write(f"{input['n']}\\n")
    return 1.0, {"feedback": "Logged."}
"""


class ListenerFailed(Exception):
    pass


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failing_listener_keeps_every_case_that_ran_on_every_backend(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    # The cases in flight finish; a case the metric scored is never dropped from the
    # report (a Dask chunk cancelled while it ran used to lose its cases).
    code = notebook_cell(SLOW_CELL)
    log = tmp_path / "scored.txt"
    log.write_text("")
    rows = [{"n": n, "log": str(log), "out": "x"} for n in range(8)]

    def fail_on_first_result(event: Any) -> None:
        if type(event).__name__ == "CaseFinished":
            raise ListenerFailed

    with options_for(backend, request) as options, pytest.raises(ListenerFailed) as failed:
        sj.evaluate(
            code["logged"], rows, output_column="out", on_event=fail_on_first_result, **options
        )
    kept = [case.index for case in failed.value.skynet_report.cases]
    time.sleep(1.5)  # a chunk cancelled while it ran (the bug) still scores its cases
    scored = sorted(int(line) for line in log.read_text().split())
    assert kept == sorted(kept) and 0 in kept
    assert set(scored) <= set(kept), (scored, kept)


class Frozen(Exception):
    """An exception that refuses every attribute (a strict ``__setattr__``)."""

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Frozen is read-only ({name})")


@pytest.mark.parametrize("backend", ["thread", "process", "thread_pool"])
def test_a_listeners_exception_that_takes_no_note_is_raised_as_it_is(
    backend: str, request: pytest.FixtureRequest
) -> None:
    def refuse(event: Any) -> None:
        if type(event).__name__ == "CaseFinished":
            raise Frozen("the listener failed")

    def steady(input: Any, output: Any, expected: Any = None) -> Any:
        return 1.0, {"feedback": "Fine."}

    rows = [{"n": n, "out": "x"} for n in range(3)]
    with options_for(backend, request) as options, pytest.raises(Frozen, match="the listener"):
        sj.evaluate(steady, rows, output_column="out", on_event=refuse, **options)
