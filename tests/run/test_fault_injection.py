"""Fault injection: every fault in a case ends in that case's failure, never a lost case.

Hostile metrics and run functions, real threads, real worker processes, real
executors (thread and process pools, a Dask cluster), real Ctrl-C, a real
tracer.  The verdict must be right: a report passes only when every case asked
has a result and every case passed every step.
"""

from __future__ import annotations

import _thread
import os
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.dataset import load_cases
from skynet_jupyter.core.report import CaseResult, CheckReport, build_steps
from skynet_jupyter.run import isolation as _isolation
from skynet_jupyter.run import workers as _workers
from skynet_jupyter.run.engine import CaseFinished, Limits, _account
from tests.conftest import require_module
from tests.run.test_executors import notebook_cell


def rows(count: int) -> list[dict]:
    return [{"q": n, "label": "x", "out": "x"} for n in range(count)]


OPTIONS = {"outputs": "label", "output_column": "out"}


def ok(input, output, expected=None):
    return 1.0, {"feedback": "ok"}


class BadStr(Exception):
    def __str__(self):
        raise RuntimeError("no str for you")


class GreedyInfo(dict):
    def get(self, key, default=None):
        raise LookupError("this dict refuses .get")


def assert_honest(report, asked: int) -> None:
    """The two properties the issue asks for, for any report."""
    assert len(report.cases) == asked
    assert sorted(c.index for c in report.cases) == list(range(asked))
    if report.passed:
        assert all(c.passed for c in report.cases)
        assert all(s.status != "failed" for s in report.steps)


# --- false passes and lost cases ----------------------------------------------------


@pytest.mark.parametrize(
    "returned",
    [
        (10**400, {"feedback": "huge"}),
        (1.0, {"feedback": "huge named", "scores": {"style": 10**400}}),
    ],
    ids=["score", "named score"],
)
def test_a_score_too_large_for_a_float_fails_every_case_it_touches(returned):
    report = sj.check(lambda i, o, e=None: returned, rows(5), **OPTIONS)
    assert_honest(report, 3)
    assert not report.passed
    for case in report.cases:
        assert case.failed_step == "metric_return_value"
        assert "too large for a float" in case.error and "OverflowError" in case.error
    # Said once, with the case numbers.
    message = report.step("metric_return_value").message
    assert message.startswith("Cases 0–2 (3): score returned a number too large")
    assert message.count("score returned a number") == 1


def bad_on_case_42(input, output, expected=None):
    if input["q"] == 42:
        return 10**400, {"feedback": "boom"}
    return 1.0, {"feedback": "ok"}


@pytest.mark.parametrize("concurrency", [1, 8])
def test_one_bad_case_among_100_is_reported_and_fails_the_run(concurrency):
    report = sj.evaluate(bad_on_case_42, rows(100), concurrency=concurrency, **OPTIONS)
    assert_honest(report, 100)
    assert not report.passed
    failed = [c for c in report.cases if not c.passed]
    assert [c.index for c in failed] == [42]
    assert "too large for a float" in failed[0].error
    assert report.step("metric_return_value").cases == (42,)


@pytest.mark.parametrize("pool", [ThreadPoolExecutor, ProcessPoolExecutor])
def test_one_bad_case_among_100_on_an_executor(pool):
    code = notebook_cell(
        "def score(input, output, expected=None):\n"
        "    if input['q'] == 42:\n"
        "        return 1.0, {'feedback': 'named', 'scores': {'x': 10**400}}\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )
    with pool(max_workers=2) as executor:
        report = sj.evaluate(code["score"], rows(100), executor=executor, **OPTIONS)
    assert_honest(report, 100)
    assert not report.passed
    assert [c.index for c in report.cases if not c.passed] == [42]


@pytest.mark.slow
def test_one_bad_case_among_100_on_dask():
    distributed = require_module("distributed")
    code = notebook_cell(
        "def score(input, output, expected=None):\n"
        "    if input['q'] == 42:\n"
        "        return 10**400, {'feedback': 'boom'}\n"
        "    return 1.0, {'feedback': 'ok'}\n"
    )
    with (
        distributed.LocalCluster(
            processes=True, n_workers=1, threads_per_worker=2, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        report = sj.evaluate(code["score"], rows(100), executor=client.get_executor(), **OPTIONS)
    assert_honest(report, 100)
    assert [c.index for c in report.cases if not c.passed] == [42]
    assert not report.passed


def test_an_exception_whose_str_raises_is_a_failed_case():
    def metric(input, output, expected=None):
        if input["q"] == 1:
            raise BadStr()
        return 1.0, {"feedback": "ok"}

    report = sj.check(metric, rows(3), **OPTIONS)
    assert_honest(report, 3)
    assert [c.passed for c in report.cases] == [True, False, True]
    assert (
        report.cases[1].error == "score raised before returning: BadStr: <exception str() failed>"
    )
    assert not report.passed


def test_an_info_dict_whose_get_raises_is_a_failed_case():
    report = sj.check(lambda i, o, e=None: (1.0, GreedyInfo(feedback="x")), rows(3), **OPTIONS)
    assert_honest(report, 3)
    assert not report.passed
    assert "(LookupError: this dict refuses .get)" in report.cases[0].error
    assert report.cases[0].failed_step == "metric_return_value"


def test_a_lock_in_the_input_is_a_failed_case_at_each_step_that_copies_it():
    data = [{"q": n, "lock": threading.Lock(), "label": "x", "out": "x"} for n in range(3)]
    report = sj.check(ok, data, **OPTIONS)  # copied for the metric
    assert_honest(report, 3)
    assert not report.passed
    assert report.cases[0].failed_step == "metric_return_value"
    assert "input could not be copied (TypeError: cannot pickle '_thread.lock'" in (
        report.cases[0].error
    )
    ran = sj.check(ok, data, outputs="label", run=lambda a, i: "x")  # copied for run()
    assert_honest(ran, 3)
    assert ran.cases[0].failed_step == "run_function"
    assert "input could not be copied" in ran.cases[0].error
    assert ran.step("metric_return_value").status == "skipped"  # never reached
    # The fix named is about copying, not "Return a pair".
    for failed in (report.step("metric_return_value"), ran.step("run_function")):
        assert failed.hint.startswith("Each case gets its own copy"), failed.hint


def test_a_generator_returned_by_run_is_a_failed_run():
    report = sj.check(ok, rows(3), outputs="label", run=lambda a, i: (c for c in "abc"))
    assert_honest(report, 3)
    assert not report.passed
    case = report.cases[0]
    assert case.failed_step == "run_function"
    assert case.error.startswith("run(artifact, input) returned a value that cannot be copied")
    assert "generator" in case.error


# A metric's behaviour, drawn by hypothesis: anything a hostile metric may do.
BEHAVIOURS = st.sampled_from(
    [
        "ok",
        "huge",
        "huge_named",
        "nan",
        "bad_str",
        "greedy_info",
        "raise",
        "exit",
        "not_pair",
        "keyboard",
        "none",
        "bool",
    ]
)


def behave(kind: str):
    if kind == "ok":
        return 0.5, {"feedback": "fine"}
    if kind == "huge":
        return 10**400, {"feedback": "x"}
    if kind == "huge_named":
        return 0.5, {"feedback": "x", "scores": {"n": -(10**400)}}
    if kind == "nan":
        return float("nan"), {"feedback": "x"}
    if kind == "bad_str":
        raise BadStr()
    if kind == "greedy_info":
        return 0.5, GreedyInfo(feedback="x")
    if kind == "raise":
        raise ValueError("no")
    if kind == "exit":
        raise SystemExit(3)
    if kind == "not_pair":
        return 0.5
    if kind == "keyboard":
        raise GeneratorExit()
    if kind == "none":
        return None
    return True, {"feedback": "x"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=st.lists(BEHAVIOURS, min_size=1, max_size=8), concurrency=st.integers(1, 3))
def test_property_every_case_asked_has_a_result_and_a_pass_is_a_real_pass(plan, concurrency):
    def metric(input, output, expected=None):
        return behave(plan[input["q"]])

    report = sj.evaluate(metric, rows(len(plan)), concurrency=concurrency, **OPTIONS)
    assert_honest(report, len(plan))
    assert report.passed == all(kind == "ok" for kind in plan)


def test_a_report_missing_a_case_cannot_pass_and_says_which():
    cases = load_cases(rows(3), **OPTIONS)
    results = [CaseResult(0, {"q": 0}, {"label": "x"}, "x", 1.0, "ok")]
    results.append(CaseResult(2, {"q": 2}, {"label": "x"}, "x", 1.0, "ok"))
    kept = _account(cases, results, interrupted=False, lang="en")
    assert [r.index for r in kept] == [0, 1, 2]
    assert kept[1].failed_step == "metric_return_value"
    assert kept[1].error.startswith("No result came back for this case")
    steps = build_steps("en", has_spec=False, run_used=False, output_column="out", cases=kept)
    report = CheckReport(steps=steps, cases=kept, total_cases=3)
    assert not report.passed
    assert report.step("metric_return_value").message.startswith("Case 1: No result came back")
    # Even a hand-made report whose steps say nothing cannot pass without all its cases.
    assert not CheckReport(steps=[], cases=results, total_cases=3).passed
    failed = CaseResult(0, {}, None, failed_step="run_function", error="x")
    assert not CheckReport(steps=[], cases=[failed], total_cases=1).passed


# --- steps: "not reached", and one message for many cases ---------------------------


def test_when_run_fails_the_metric_steps_say_not_reached():
    def broken_run(artifact, input):
        raise ConnectionError("model down")

    report = sj.check(ok, rows(3), outputs="label", run=broken_run)
    run_step = report.step("run_function")
    assert run_step.status == "failed"
    said = "Cases 0–2 (3): run(artifact, input) raised ConnectionError: model down"
    assert run_step.message.startswith(said)
    assert run_step.message.count("raised ConnectionError") == 1  # said once
    for step_id in ("metric_return_value", "metric_time_limit"):
        step = report.step(step_id)
        assert step.status == "skipped" and step.message.startswith("Not reached")
    assert not report.passed


def test_when_run_fails_for_some_cases_the_metric_steps_name_them():
    def run(artifact, input):
        if input["q"] in (0, 2):
            raise ConnectionError("model down")
        return "x"

    report = sj.check(ok, rows(4), outputs="label", run=run, cases=4)
    step = report.step("metric_return_value")
    assert step.status == "passed"
    assert step.message == "Not reached for 2 cases (0, 2): run(artifact, input) failed first."
    assert report.step("run_function").cases == (0, 2)


def test_different_messages_are_grouped_and_counted():
    def metric(input, output, expected=None):
        q = input["q"]
        if q % 2:
            raise ValueError("odd")
        raise KeyError(f"even {q}")

    report = sj.evaluate(metric, rows(12), concurrency=1, **OPTIONS)
    message = report.step("metric_return_value").message
    assert message.startswith(
        "Cases 1, 3, 5, 7, 9, 11 (6): score raised before returning: ValueError: odd"
    )
    assert message.count("ValueError: odd") == 1
    assert "Case 0: score raised before returning: KeyError: 'even 0'" in message
    assert "(4 more cases failed here.)" in message  # three groups spelled out, then counted


# --- a failing listener stops the workers --------------------------------------------


class Boom(Exception):
    pass


def listener_failing_at(count: int):
    seen = []

    def listen(event):
        if isinstance(event, CaseFinished):
            seen.append(event)
            if len(seen) == count:
                raise Boom("the view broke")

    return listen


@pytest.mark.parametrize("where", ["threads", "executor", "process"])
def test_a_failing_listener_stops_the_work_and_keeps_the_results(where):
    calls = []
    lock = threading.Lock()

    def slow(input, output, expected=None):
        with lock:
            calls.append(input["q"])
        time.sleep(0.05)
        return 1.0, {"feedback": "ok"}

    options = dict(OPTIONS, concurrency=2)
    if where == "process":
        options["isolation"] = "process"
        slow = notebook_cell(
            "import time\n"
            "def score(input, output, expected=None):\n"
            "    time.sleep(0.05)\n"
            "    return 1.0, {'feedback': 'ok'}\n"
        )["score"]
    pool = ThreadPoolExecutor(max_workers=2) if where == "executor" else None
    if pool is not None:
        options["executor"] = pool
        del options["concurrency"]
    try:
        with pytest.raises(Boom, match="the view broke") as caught:
            sj.evaluate(slow, rows(200), on_event=listener_failing_at(3), **options)
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    report = caught.value.skynet_report
    assert report.interrupted and not report.passed
    assert 3 <= len(report.cases) < 60
    assert all(c.passed for c in report.cases)  # what finished is kept whole
    note = caught.value.__notes__[0]
    assert "on_event listener raised, so the run stopped" in note
    assert f"{len(report.cases)} of 200 cases finished" in note
    if where != "process":
        settled = len(calls)
        time.sleep(0.3)
        assert len(calls) == settled  # nothing runs on after evaluate returned
        assert settled == len(report.cases)  # and every call made is in the report


# --- hung C calls: bounded threads, process isolation --------------------------------


def test_hung_c_calls_leave_a_bounded_number_of_threads_and_say_why():
    release = threading.Event()

    def hangs(input, output, expected=None):
        release.wait(60)  # blocked in C: a thread cannot be stopped here
        return 1.0, {"feedback": "late"}

    before = _workers.blocked_threads()
    try:
        report = sj.evaluate(hangs, rows(40), concurrency=8, timeout=1, **OPTIONS)
        blocked = _workers.blocked_threads()
    finally:
        release.set()
    assert_honest(report, 40)
    assert not report.passed
    assert blocked <= _workers.MAX_BLOCKED_THREADS + 8  # one wave past the bound at most
    timed_out = [c for c in report.cases if (c.error or "").startswith("score took longer")]
    not_run = [c for c in report.cases if (c.error or "").startswith("Not run:")]
    assert len(timed_out) + len(not_run) == 40
    assert len(timed_out) >= 1
    assert len(timed_out) <= max(0, _workers.MAX_BLOCKED_THREADS - before) + 8
    assert 'isolation="process"' in timed_out[0].error  # the hint: processes can be killed
    assert "still blocked" in not_run[0].error and "restart the kernel" in not_run[0].error
    deadline = time.monotonic() + 10
    while _workers.blocked_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _workers.blocked_threads() <= before  # released, they all ended


def test_a_process_thread_limit_ends_the_remaining_cases_with_a_sentence(tmp_path):
    # A real limit: big thread stacks under an address-space limit, in a child process.
    script = tmp_path / "limited.py"
    script.write_text(
        textwrap.dedent(
            """
            import resource, threading
            threading.stack_size(256 * 1024 * 1024)
            import skynet_jupyter as sj

            def address_space():
                for line in open("/proc/self/status"):
                    if line.startswith("VmSize"):
                        return int(line.split()[1]) * 1024

            room = address_space() + 700 * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (room, room))
            release = threading.Event()

            def hangs(input, output, expected=None):
                release.wait(30)
                return 1.0, {"feedback": "late"}

            data = [{"q": n, "label": "x", "out": "x"} for n in range(6)]
            report = sj.evaluate(hangs, data, outputs="label", output_column="out",
                                 timeout=1, concurrency=1)
            print(len(report.cases), report.passed)
            for case in report.cases:
                print(case.error)
            release.set()
            """
        )
    )
    if not os.path.exists("/proc/self/status"):
        pytest.skip("needs /proc to size the address-space limit")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "6 False"
    assert "took longer than the 1 s metric time limit" in lines[1]
    assert any(
        line.startswith("Not run: no thread could be started for it (RuntimeError: can't start")
        for line in lines[2:]
    )


@pytest.mark.slow
@pytest.mark.parametrize("poll", [True, False], ids=["polled", "reader threads"])
def test_process_isolation_kills_a_hung_case_and_goes_on(tmp_path, monkeypatch, poll):
    # Both ways of reading the workers' replies: polled (POSIX) and reader threads (Windows).
    monkeypatch.setattr(_isolation, "POLL_OUTPUTS", poll)
    code = notebook_cell(
        "import os, time\n"
        f"PIDS = {str(tmp_path / 'pid')!r}\n"
        "def score(input, output, expected=None):\n"
        "    if input['q'] == 1:\n"
        "        with open(PIDS, 'w') as f:\n"
        "            f.write(str(os.getpid()))\n"
        "        time.sleep(60)\n"
        "    if input['q'] == 3:\n"
        "        os._exit(7)\n"
        "    print('a print goes to stderr')\n"
        "    return 1.0, {'feedback': f'ran in {os.getpid()}'}\n"
    )
    threads = threading.active_count()
    started = time.perf_counter()
    report = sj.evaluate(
        code["score"], rows(5), timeout=1, concurrency=2, isolation="process", **OPTIONS
    )
    elapsed = time.perf_counter() - started
    assert_honest(report, 5)
    assert elapsed < 30  # far from the 60 s the metric sleeps
    assert [c.passed for c in report.cases] == [True, False, True, False, True]
    assert report.cases[1].error == "score took longer than the 1 s metric time limit."
    assert "ended (exit code 7)" in report.cases[3].error
    assert str(os.getpid()) not in report.cases[0].feedback  # it ran elsewhere
    hung = int((tmp_path / "pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(hung, 0)  # killed and reaped, not left sleeping
    deadline = time.monotonic() + 5
    while threading.active_count() > threads and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= threads


@pytest.mark.slow
def test_process_isolation_with_a_run_function_and_source_metric():
    source = (
        "def score(input, output, expected=None):\n"
        "    ok = output == expected['label']\n"
        "    return float(ok), {'feedback': 'ok' if ok else 'no'}\n"
    )
    run = notebook_cell("def run(artifact, input):\n    return artifact\n")["run"]
    data = [{"q": n, "label": "x" if n % 2 else "y"} for n in range(6)]
    options = {"outputs": "label", "run": run, "artifact": "x", "concurrency": 2}
    isolated = sj.evaluate(source, data, isolation="process", **options)
    threaded = sj.evaluate(source, data, **options)
    assert [c.score for c in isolated.cases] == [c.score for c in threaded.cases]
    assert [c.input for c in isolated.cases] == [c.input for c in threaded.cases]
    assert all(c.run_ms is not None for c in isolated.cases)


def test_isolation_and_run_timeout_are_checked_with_a_sentence():
    with pytest.raises(ValueError, match='isolation must be "thread" or "process", got'):
        sj.check(ok, rows(3), isolation="processes", **OPTIONS)
    with pytest.raises(ValueError, match="run_timeout must be between 1 and 86400 seconds"):
        sj.check(ok, rows(3), run_timeout=0, **OPTIONS)
    with pytest.raises(ValueError, match="run_timeout must be between"):
        sj.check(ok, rows(3), run_timeout=True, **OPTIONS)
    with (
        pytest.raises(ValueError, match="does not combine with an executor"),
        ThreadPoolExecutor(1) as pool,
    ):
        sj.evaluate(ok, rows(3), isolation="process", executor=pool, **OPTIONS)
    with pytest.raises(ValueError, match="entre 1 et 600 secondes"):
        sj.check(ok, rows(3), timeout=0, lang="fr", **OPTIONS)


def test_run_timeout_stops_a_hung_run():
    def hung_run(artifact, input):
        if input["q"] == 0:
            while True:  # a runaway loop in Python: stopped, its thread ends
                pass
        return "x"

    started = time.perf_counter()
    report = sj.check(ok, rows(3), outputs="label", run=hung_run, run_timeout=1)
    assert time.perf_counter() - started < 8
    assert_honest(report, 3)
    assert report.cases[0].failed_step == "run_function"
    assert report.cases[0].error.startswith("run(artifact, input) took longer than 1 s")
    assert [c.passed for c in report.cases[1:]] == [True, True]
    # The same limit through Limits, one case at a time.
    (case, *_) = load_cases(rows(1), outputs="label")
    result = sj.run_case(ok, case, hung_run, limits=Limits(metric=5, run=1))
    assert result.failed_step == "run_function"


def test_limits_hold_with_a_tracer_active():
    """A debugger, coverage or pdb sets a trace function: limits must still hold."""
    release = threading.Event()

    def hangs(input, output, expected=None):
        release.wait(30)
        return 1.0, {"feedback": "late"}

    def tracer(frame, event, arg):
        return tracer

    previous_sys, previous_threading = sys.gettrace(), threading.gettrace()
    sys.settrace(tracer)
    threading.settrace(tracer)
    started = time.perf_counter()
    try:
        report = sj.check(hangs, rows(3), timeout=1, **OPTIONS)
        elapsed = time.perf_counter() - started
    finally:
        sys.settrace(previous_sys)
        threading.settrace(previous_threading)
        release.set()
    assert [c.failed_step for c in report.cases] == ["metric_time_limit"] * 3
    assert elapsed < 12  # about 3 x 1 s; it was 3 x 30 s


def test_ctrl_c_on_an_executor_run_keeps_the_finished_chunks(ctrl_c):
    def slow(input, output, expected=None):
        time.sleep(0.05)
        return 1.0, {"feedback": f"case {input['q']}"}

    timer = threading.Timer(0.8, _thread.interrupt_main)
    timer.start()
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            report = sj.evaluate(slow, rows(400), executor=pool, **OPTIONS)
    finally:
        timer.cancel()
    assert report.interrupted and not report.passed
    assert 2 <= len(report.cases) < 400
    indices = [c.index for c in report.cases]
    assert len(set(indices)) == len(indices)
    assert all(c.passed and c.feedback == f"case {c.index}" for c in report.cases)
    assert f"showing the {len(report.cases)} of 400 cases" in str(report)


def test_the_magics_pass_isolation_and_run_timeout(tmp_path, monkeypatch):
    from IPython.utils.capture import capture_output

    from tests.shell_support import loaded_shell

    with loaded_shell(tmp_path, monkeypatch) as shell:
        shell.user_ns.update(data=rows(3), ok=ok, hung=lambda a, i: time.sleep(30))
        with capture_output():
            shell.run_cell("%%skynet_metric\ndef score(input, output, expected=None):\n"
                           "    return 1.0, {'feedback': 'ok'}\n")  # fmt: skip
            result = shell.run_cell(
                "report = %skynet_check --data data --outputs label --run hung "
                "--run-timeout 1 --isolation process --no-raise"
            )
        assert result.error_in_exec is None
        report = shell.user_ns["report"]
        assert [c.failed_step for c in report.cases] == ["run_function"] * 3
        assert report.cases[0].error == "run(artifact, input) took longer than 1 s and was stopped."


@pytest.mark.slow
def test_process_isolation_sends_notebook_classes_in_the_data_by_value():
    code = notebook_cell(
        "class Box:\n"
        "    def __init__(self, value):\n"
        "        self.value = value\n"
        "def score(input, output, expected=None):\n"
        "    return float(input['box'].value), {'feedback': type(input['box']).__name__}\n"
    )
    data = [{"box": code["Box"](n % 2), "label": "x", "out": "x"} for n in range(4)]
    report = sj.evaluate(code["score"], data, isolation="process", concurrency=1, **OPTIONS)
    assert_honest(report, 4)
    assert [c.score for c in report.cases] == [0.0, 1.0, 0.0, 1.0]
    assert report.passed and report.cases[0].feedback == "Box"


def test_a_runaway_python_loop_is_stopped_without_the_blocked_hint():
    def spins(input, output, expected=None):
        while True:
            pass

    report = sj.check(spins, rows(1), timeout=1, **OPTIONS)
    # Stopped in Python: its thread ended, so process isolation is not suggested.
    assert report.cases[0].error == "score took longer than the 1 s metric time limit."


def test_a_listener_failing_on_the_last_event_still_hands_over_the_whole_report():
    def listen(event):
        if isinstance(event, sj.Finished):
            raise Boom("the view broke at the end")

    with pytest.raises(Boom) as caught:
        sj.check(ok, rows(3), on_event=listen, **OPTIONS)
    report = caught.value.skynet_report
    assert report.passed and len(report.cases) == 3 and not report.interrupted
