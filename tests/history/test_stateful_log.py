"""The run log as a state machine (Hypothesis): writers, readers, prunes and damaged files
interleaved; nothing recorded and not pruned is ever lost, and no damaged file is fatal."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import skynet_jupyter as sj
from skynet_jupyter.runlog.location import LogLocation
from skynet_jupyter.runlog.record import draft
from skynet_jupyter.runlog.recorder import flush, record_run, write_draft
from skynet_jupyter.runlog.store import RunLogWarning

from .support import SOURCE_A, SOURCE_B, Source, case, report

METRICS = ("m1", "m2", "m3")


class RunLogMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._folder = tempfile.TemporaryDirectory()
        self.log = Path(self._folder.name)
        self.kept: dict[str, tuple[str, int]] = {}  # run id -> (metric, cases), not pruned
        self.order: list[str] = []  # ids in the order written
        self.damaged: set[str] = set()  # the files written as damaged (one warning each)

    def teardown(self) -> None:
        flush()
        self._folder.cleanup()

    def _made(self, metric: str, size: int, second: bool):
        cases = [case(i, f"{metric}-{i}", score=0.5 if second else 1.0) for i in range(size)]
        return draft(
            report(cases, name=metric),
            Source(SOURCE_B if second else SOURCE_A, metric),
            None,
            None,
            surface="python",
        )

    @rule(metric=st.sampled_from(METRICS), size=st.integers(0, 4), second=st.booleans())
    def write(self, metric, size, second):
        run_id = write_draft(self._made(metric, size, second), LogLocation(path=self.log))
        self.kept[run_id] = (metric, size)
        self.order.append(run_id)

    @rule(metric=st.sampled_from(METRICS), size=st.integers(101, 103))
    def write_in_the_background(self, metric, size):
        made = self._made(metric, size, False)
        run_id = record_run(made_report(made), Source(SOURCE_A, metric), None, None, log=self.log)
        assert run_id is not None
        flush()
        self.kept[run_id] = (metric, size)
        self.order.append(run_id)

    @rule(data=st.binary(max_size=40), name=st.integers(0, 10**6))
    def damage(self, data, name):
        (self.log / "runs").mkdir(parents=True, exist_ok=True)
        file = f"99990101-000000-{name:08x}.jsonl"
        (self.log / "runs" / file).write_bytes(data)
        self.damaged.add(file)

    @rule(keep=st.integers(0, 3), metric=st.sampled_from((None, *METRICS)))
    def prune(self, keep, metric):
        doomed = []
        for name in {metric} if metric else set(METRICS):
            mine = [i for i in self.order if i in self.kept and self.kept[i][0] == name]
            doomed += _newest_first(self.log, mine)[keep:]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RunLogWarning)
            sj.history(metric, log=self.log).prune(keep)
        for run_id in doomed:
            del self.kept[run_id]

    @invariant()
    def nothing_recorded_is_lost(self):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            found = sj.history(log=self.log, limit=None)
        assert {r.id: (r.metric, r.case_count) for r in found} == self.kept
        assert all(issubclass(w.category, RunLogWarning) for w in said)
        assert sorted(Path(str(w.message).split()[3]).name for w in said) == sorted(self.damaged)


def _newest_first(log: Path, ids: list[str]) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RunLogWarning)
        found = {r.id: r for r in sj.history(log=log, limit=None)} if ids else {}
    return sorted(ids, key=lambda i: (found[i].head["started"], i), reverse=True)


def made_report(made):
    return report(made.cases, name=made.metric_name)


RunLogMachine.TestCase.settings = settings(max_examples=15, stateful_step_count=12, deadline=None)
TestRunLog = RunLogMachine.TestCase
