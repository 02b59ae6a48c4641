"""The conformance matrix's shared parts: the loopback provider and the executors."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from skynet_jupyter.models import rate_limit
from tests.conformance.paths import Scenario, label_by_words
from tests.conftest import require_module
from tests.openai_server import OpenAIServer


@pytest.fixture(scope="module")
def running_server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def server(running_server: OpenAIServer) -> OpenAIServer:
    """The loopback provider, answering as a word-matching classifier, nothing recorded."""
    running_server.reset()
    running_server.reply = label_by_words
    return running_server


@pytest.fixture(scope="session")
def pools() -> Iterator[dict[str, Any]]:
    """A thread pool, a process pool and a Dask cluster (two worker processes), made
    once: each backend of the matrix runs on the same ones."""
    require_module("distributed")
    from distributed import Client, LocalCluster

    threads = ThreadPoolExecutor(2)
    processes = ProcessPoolExecutor(2)
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    try:
        yield {"thread-pool": threads, "process-pool": processes, "dask": client}
    finally:
        client.close()
        cluster.close()
        processes.shutdown(cancel_futures=True)
        threads.shutdown(cancel_futures=True)


@pytest.fixture
def scenario(server: OpenAIServer, pools: dict[str, Any], tmp_path, monkeypatch) -> Scenario:
    """The scenario every path runs, in a folder of its own, with no provider key set."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    yield Scenario(server, pools=pools, cwd=tmp_path)
    rate_limit.reset_refusal_timeout()


@pytest.fixture
def ctrl_c():
    """Ctrl-C raises KeyboardInterrupt in the test (as in a kernel), for the test only."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
    assert os.getpid()  # the test process lives on
