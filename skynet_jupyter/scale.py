"""Running cases on any ``concurrent.futures.Executor`` (threads, processes, Dask).

Cases travel in chunks; each chunk runs under the same watched workers as a
local run, on whichever machine the executor picks, so time limits, errors
and measurements behave the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor, as_completed
from typing import Any

from .dataset import Case
from .report import CaseResult


def _run_chunk(runner: Any, cases: Sequence[Case]) -> list[CaseResult]:
    from .engine import _supervise

    results, _ = _supervise(runner, cases, concurrency=1, on_result=None)
    return results


def chunk_size(total: int, workers_hint: int = 8) -> int:
    """Enough chunks to balance the load (4 per worker), few enough to keep overhead low."""
    return max(1, min(256, -(-total // (workers_hint * 4))))


def run_on_executor(
    executor: Executor,
    runner: Any,
    cases: Sequence[Case],
    *,
    on_result: Callable[[list[int], list[CaseResult]], None] | None,
) -> tuple[list[CaseResult], bool]:
    """Run ``cases`` on ``executor``; (results in case order, interrupted)."""
    size = chunk_size(len(cases))
    futures = [
        executor.submit(_run_chunk, runner, list(cases[start : start + size]))
        for start in range(0, len(cases), size)
    ]
    results: list[CaseResult] = []
    interrupted = False
    try:
        for future in as_completed(futures):
            chunk = future.result()
            results.extend(chunk)
            if on_result is not None:
                on_result([r.index for r in chunk], chunk)
    except KeyboardInterrupt:
        interrupted = True
        for future in futures:
            future.cancel()
    order = {case.index: position for position, case in enumerate(cases)}
    results.sort(key=lambda r: order[r.index])
    return results, interrupted
