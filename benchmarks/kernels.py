"""A fresh Jupyter kernel running a notebook's cells: what the benchmarks measure in one."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Sequence


def json_lines_in_kernel(
    cells: Sequence[str | float],
    env: dict[str, str],
    cwd: str | None = None,
    timeout: float = 300.0,
) -> list[dict]:
    """Run ``cells`` in a new ipykernel (a number: the client waits that many seconds, as a
    person between cells); the JSON lines the cells printed, in order.  Its start is not
    counted by anyone: each benchmark times inside the cells, on the kernel's clock."""
    from jupyter_client.manager import KernelManager

    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(cwd=cwd, env=env, stderr=subprocess.DEVNULL)
    client = manager.client()
    client.start_channels()
    found: list[dict] = []

    def output(message: dict) -> None:
        if message["msg_type"] == "stream" and message["content"]["name"] == "stdout":
            found.extend(
                json.loads(line)
                for line in message["content"]["text"].splitlines()
                if line.startswith("{")
            )

    try:
        client.wait_for_ready(timeout=60)
        for cell in cells:
            if isinstance(cell, float | int):
                time.sleep(cell)
                continue
            reply = client.execute_interactive(cell, timeout=timeout, output_hook=output)
            if reply["content"]["status"] != "ok":
                raise SystemExit(f"the kernel refused {cell!r}: {reply['content']}")
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return found
