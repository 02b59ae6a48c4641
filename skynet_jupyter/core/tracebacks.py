"""Tracebacks trimmed to the user's own frames (their metric, their run function)."""

from __future__ import annotations

import os
import traceback

# The whole package is plumbing, from its root (this file is in core/).
_OURS = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_PLUMBING = (
    _OURS,
    os.sep + "threading.py",
    os.sep + "concurrent" + os.sep,
)


def _is_user_frame(filename: str) -> bool:
    return not any(part in filename or filename.startswith(part) for part in _PLUMBING)


def user_traceback(exc: BaseException, *, limit: int = 20) -> str:
    """The traceback of ``exc`` without our frames, ending with the exception line."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if _is_user_frame(f.filename)]
    if len(frames) > limit:  # runaway recursion: the first and last frames tell enough
        frames = frames[: limit // 2] + frames[-limit // 2 :]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip()
