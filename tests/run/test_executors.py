"""Evaluating on executors: thread pools, process pools and a real Dask cluster.

The functions under test are defined the way a notebook defines them: a cell's
source run in a ``__main__`` namespace (``notebook_cell``), so they cannot be
imported by name on the workers and must travel by value.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import skynet_jupyter as sj
from skynet_jupyter.core.skynet_import import install_skynet_module
from skynet_jupyter.run.engine import CaseFinished, CaseStarted, Finished
from skynet_jupyter.run.executors import ChunkPlanner, ExecutorError, executor_workers
from tests.conftest import require_module

CELL = """
import time
import skynet
from skynet import observation

def score(input, output, expected=None):
    n = input["n"]
    if n % 7 == 3:
        raise ValueError(f"no rule for case {n}")
    if n % 11 == 5:
        return 0.5  # breaks the contract: no side information
    ok = output == expected["label"]
    seen = observation()
    feedback = "Correct." if ok else f"Expected {expected['label']!r}, got {output!r}."
    scores = {"measured": 1.0 if seen.run_ms is not None else 0.0}
    return (1.0 if ok else 0.0), {"feedback": feedback, "scores": scores}

def run(artifact, input):
    time.sleep(0.005)
    return artifact if input["n"] % 3 else "other"

def spec_score(input, output, expected=None):
    return skynet.reward(SPEC, float(output == expected["label"]), "judged")

SPEC = {"weights": {"accuracy": 1, "speed": 1, "cost": 0}, "speed": {"reference": 1000},
        "cost": {"reference": 0.01}}
"""


def notebook_cell(source: str) -> dict:
    """Run ``source`` as a notebook cell does: in ``__main__``, the helpers importable."""
    install_skynet_module()  # what %load_ext skynet_jupyter does
    namespace = {"__name__": "__main__"}
    exec(compile(source, "<ipython-input-1-cell>", "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def cell() -> dict:
    return notebook_cell(CELL)


def cases(count: int = 24) -> list[dict]:
    return [{"n": n, "label": "billing"} for n in range(count)]


def essence(report) -> list[tuple]:
    """What must not depend on where a case ran (times may)."""
    return [
        (c.index, c.output, c.score, c.feedback, c.scores, c.failed_step, c.error)
        for c in report.cases
    ]


def evaluate_cell(cell: dict, **options):
    return sj.evaluate(
        cell["score"], cases(), outputs="label", run=cell["run"], artifact="billing", **options
    )


@pytest.fixture(scope="module")
def sequential(cell):
    return evaluate_cell(cell, concurrency=1)


def test_the_sequential_run_has_every_kind_of_case(sequential):
    steps = {case.failed_step for case in sequential.cases}
    assert steps == {None, "metric_return_value"}
    assert {case.score for case in sequential.cases} == {0.0, 1.0, None}
    assert any("ValueError: no rule for case 3" in (c.error or "") for c in sequential.cases)
    assert all(c.run_ms >= 5 for c in sequential.cases)


# --- chunks -------------------------------------------------------------------------


def test_chunks_start_small_then_aim_at_the_target():
    planner = ChunkPlanner(workers=2, target=0.25, largest=1000)
    assert planner.next_size(10_000) == 1
    planner.observe(1, 0.001)
    assert planner.next_size(10_000) == 250
    planner.observe(250, 0.0001 * 250)
    assert planner.next_size(10_000) == 454  # moving average of 1 ms and 0.1 ms per case
    for _ in range(4):
        planner.observe(1000, 0.00001 * 1000)
    assert planner.next_size(100_000) == 1000  # capped
    assert planner.next_size(9) == 5  # the tail still spreads over both workers
    assert planner.next_size(1) == 1


def test_worker_counts():
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert executor_workers(pool) == 3


# --- threads --------------------------------------------------------------------------


def test_thread_pool_gives_the_sequential_results(cell, sequential):
    with ThreadPoolExecutor(max_workers=4) as pool:
        report = evaluate_cell(cell, executor=pool)
    assert essence(report) == essence(sequential)
    assert all(c.run_ms >= 5 for c in report.cases)


def test_interrupt_returns_what_finished_and_cancels_the_rest():
    calls = []

    def slow(input, output, expected=None):
        calls.append(input["n"])
        time.sleep(0.02)
        return 1.0, {"feedback": "ok"}

    finished = []

    def listener(event):
        if isinstance(event, CaseFinished):
            finished.append(event.result.index)
            if len(finished) == 4:
                raise KeyboardInterrupt  # what Ctrl-C does in the kernel's thread

    data = [{"n": n, "out": "x"} for n in range(200)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        report = sj.evaluate(slow, data, output_column="out", executor=pool, on_event=listener)
    assert report.interrupted
    assert 4 <= len(report.cases) < 200
    assert len(calls) < 100  # the chunks not yet started were cancelled


def test_events_name_every_case_once():
    events = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        sj.evaluate(
            lambda i, o, e=None: (1.0, {"feedback": "ok"}),
            [{"n": n, "out": "x"} for n in range(50)],
            output_column="out",
            executor=pool,
            on_event=events.append,
        )
    started = [e.index for e in events if isinstance(e, CaseStarted)]
    done = [e for e in events if isinstance(e, CaseFinished)]
    assert sorted(started) == list(range(50))
    assert sorted(e.result.index for e in done) == list(range(50))
    assert [e.done for e in done] == list(range(1, 51))
    assert isinstance(events[-1], Finished)


# --- processes ------------------------------------------------------------------------


@pytest.mark.slow
def test_process_pool_runs_notebook_functions(cell, sequential):
    context = multiprocessing.get_context("spawn")  # nothing inherited: all must travel
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        assert executor_workers(pool) == 2
        report = evaluate_cell(cell, executor=pool)
    assert essence(report) == essence(sequential)


@pytest.mark.slow
def test_a_dead_worker_is_an_executor_error():
    killer = notebook_cell(
        "import os\ndef score(input, output, expected=None):\n    os._exit(3)\n"
    )["score"]
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max_workers=1, mp_context=context) as pool,
        pytest.raises(ExecutorError, match="A worker process died") as caught,
    ):
        sj.evaluate(killer, [{"n": 1, "out": "x"}], output_column="out", executor=pool)
    assert caught.value.cases == [0]


# --- a real Dask cluster ----------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_client():
    distributed = require_module("distributed")
    cluster = distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=":0"
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.slow
def test_dask_gives_the_sequential_results(cell, sequential, dask_client):
    executor = dask_client.get_executor()
    assert executor_workers(executor) == 2
    report = evaluate_cell(cell, executor=executor)
    assert essence(report) == essence(sequential)
    assert all(c.run_ms >= 5 for c in report.cases)  # measured on the workers
    raised = report.cases[3]
    assert raised.traceback == sequential.cases[3].traceback  # the cell's name and line
    assert 'File "<ipython-input-1-cell>", line 9, in score' in raised.traceback


@pytest.mark.slow
def test_dask_metric_from_source_imports_skynet(dask_client):
    source = (
        "from skynet import reward\n"
        "REWARD_SPEC = {'weights': {'accuracy': 1, 'speed': 1, 'cost': 0},\n"
        "               'speed': {'reference': 1000}, 'cost': {'reference': 0.01}}\n"
        "def score(input, output, expected=None):\n"
        "    return reward(REWARD_SPEC, float(output == expected['label']), 'judged')\n"
    )
    metric = sj.load_metric(source)
    options = {"outputs": "label", "output_column": "out"}
    data = [{"label": "a", "out": "a" if n % 2 else "b"} for n in range(10)]
    local = sj.evaluate(metric, data, concurrency=1, **options)
    remote = sj.evaluate(metric, data, executor=dask_client.get_executor(), **options)
    assert essence(remote) == essence(local)
    assert remote.cases[1].score == 0.5  # accuracy 1, speed not measured: 0
    assert "Speed was not measured" in remote.cases[1].feedback


@pytest.mark.slow
def test_dask_notebook_metric_using_the_skynet_module(cell, dask_client):
    # ``spec_score`` refers to the ``skynet`` module itself: it must exist on the
    # worker before the function is read there.
    options = {"outputs": "label", "run": cell["run"], "artifact": "billing"}
    report = sj.evaluate(
        cell["spec_score"], cases(6), executor=dask_client.get_executor(), **options
    )
    assert all(case.passed for case in report.cases)
    assert all(case.scores["speed"] > 0.9 for case in report.cases)  # ~5 ms against 1000 ms


@pytest.mark.slow
def test_dask_time_limits_hold_on_the_workers(dask_client):
    stuck = notebook_cell(
        "import time\n"
        "def score(input, output, expected=None):\n"
        "    if input['n'] == 1:\n"
        "        time.sleep(30)\n"
        "    if input['n'] == 2:\n"
        "        while True:\n"
        "            pass\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )["score"]
    data = [{"n": n, "out": "x"} for n in range(4)]
    started = time.perf_counter()
    report = sj.evaluate(
        stuck, data, output_column="out", timeout=1, executor=dask_client.get_executor()
    )
    elapsed = time.perf_counter() - started
    local = sj.evaluate(stuck, data, output_column="out", timeout=1, concurrency=2)
    assert essence(report) == essence(local)
    assert [c.failed_step for c in report.cases] == [
        None,
        "metric_time_limit",
        "metric_time_limit",
        None,
    ]
    assert elapsed < 5


@pytest.mark.slow
def test_dask_judge_model_travels_with_the_cases(dask_client):
    code = notebook_cell(
        "from skynet import llm\n"
        "def judge(instructions, input):\n"
        "    return 'PASS' if 'billing' in input else 'FAIL'\n"
        "def score(input, output, expected=None):\n"
        "    verdict = llm('PASS or FAIL?', input=output)\n"
        "    return float(verdict == 'PASS'), {'feedback': verdict}\n"
    )
    models = sj.ModelSettings(metric_model=code["judge"])
    data = [{"out": "billing"}, {"out": "other"}]
    report = sj.evaluate(
        code["score"],
        data,
        output_column="out",
        models=models,
        executor=dask_client.get_executor(),
    )
    assert [(c.score, c.feedback, c.model_calls) for c in report.cases] == [
        (1.0, "PASS", 1),
        (0.0, "FAIL", 1),
    ]


@pytest.mark.slow
def test_dask_events_arrive_as_chunks_finish(dask_client):
    code = notebook_cell(
        "import time\n"
        "def score(input, output, expected=None):\n"
        "    time.sleep(0.1)\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )
    seen = []
    report = sj.evaluate(
        code["score"],
        [{"n": n, "out": "x"} for n in range(16)],
        output_column="out",
        executor=dask_client.get_executor(),
        on_event=lambda event: seen.append((time.perf_counter(), event)),
    )
    finished = [at for at, event in seen if isinstance(event, CaseFinished)]
    assert len(finished) == 16
    assert isinstance(seen[-1][1], Finished)
    assert finished[-1] - finished[0] > 0.3  # spread over the run, not all at the end
    assert report.elapsed_s < 2.5  # two workers: about 16 x 0.1 s / 2


@pytest.mark.slow
def test_dask_ctrl_c_stops_the_evaluation(dask_client, ctrl_c):
    code = notebook_cell(
        "import time\n"
        "def score(input, output, expected=None):\n"
        "    time.sleep(0.1)\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )
    data = [{"n": n, "out": "x"} for n in range(60)]
    timer = threading.Timer(0.8, signal.raise_signal, (signal.SIGINT,))
    timer.start()
    try:
        report = sj.evaluate(
            code["score"], data, output_column="out", executor=dask_client.get_executor()
        )
    finally:
        timer.cancel()
    assert report.interrupted
    assert 0 < len(report.cases) < 60
    assert report.elapsed_s < 2.5


@pytest.mark.slow
def test_a_dask_client_is_taken_for_its_executor(dask_client):
    report = sj.evaluate(
        lambda input, output, expected=None: (1.0, {"feedback": "ok"}),
        [{"n": n, "out": "x"} for n in range(5)],
        output_column="out",
        executor=dask_client,
    )
    assert [case.score for case in report.cases] == [1.0] * 5


@pytest.mark.slow
def test_dask_refuses_what_cannot_travel_with_a_sentence(dask_client):
    lock = threading.Lock()

    def score(input, output, expected=None):
        with lock:
            return 1.0, {"feedback": "ok"}

    with pytest.raises(ExecutorError, match="The metric cannot be sent"):
        sj.evaluate(score, [{"out": "x"}], output_column="out", executor=dask_client.get_executor())
