"""Code run in a fresh Python process (``sys.modules`` without litellm), its last JSON line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def last_json(code: str, *args: str, env: dict[str, str]) -> tuple[dict, str]:
    """Run ``python -c code args`` with ``env`` (and this checkout on PYTHONPATH unless
    ``env`` says); the last line it printed, read as JSON, and its standard error."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), **env},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr
