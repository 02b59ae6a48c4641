"""A folder holding ``skynet.py``, for ``PYTHONPATH`` (see that file)."""

from pathlib import Path

DIR = str(Path(__file__).resolve().parent)
