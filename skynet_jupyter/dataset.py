"""Cases from a DataFrame, a list of dicts, or a .csv / .jsonl / .json / .parquet file.

The Output columns form ``expected`` (a dict keyed by their names); every
other column is an input unless ``inputs`` names them.  Our cases are our own
dicts: nothing done to a case reaches the caller's data.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .runtime import Observation

SPLIT_COLUMN = "split"


class DataError(ValueError):
    """The data cannot give cases: the message says what is wrong and how to fix it."""


class _NoOutput:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<no output yet>"

    def __reduce__(self) -> str:
        return "NO_OUTPUT"


NO_OUTPUT: Any = _NoOutput()


@dataclass(slots=True)
class Case:
    """One row: ``input`` fields, ``expected`` (or None), and maybe a known output.

    ``measured`` is set when the output came from an earlier run (the kernel's
    cache), so the run's time and cost are known without running it again.
    Cases are read, never changed: the metric gets copies.  (Not frozen only
    because frozen dataclasses are slow to build, and there may be millions.)
    """

    index: int
    input: dict[str, Any]
    expected: dict[str, Any] | None = None
    output: Any = NO_OUTPUT
    measured: Observation | None = field(default=None, compare=False)


def _split_names(value: str | Sequence[str] | None) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [name.strip() for name in value.split(",") if name.strip()]
    return list(value)


def read_rows(data: Any, split: str | None = None) -> list[dict[str, Any]]:
    """The rows of ``data`` as fresh dicts (of the split's rows when ``split`` is given)."""
    if isinstance(data, Mapping) and split is not None and split in data:
        data = data[split]
        split = None
    elif isinstance(data, Mapping) and not _looks_like_row(data):
        names = ", ".join(map(str, data))
        raise DataError(
            f"The data is a dict of {names}; pass split=NAME to pick one of them."
            if split is None
            else f"No split {split!r} in the data: it has {names}."
        )
    if isinstance(data, str | os.PathLike):
        rows = _read_file(Path(data))
    elif hasattr(data, "to_dict") and hasattr(data, "columns"):  # a pandas DataFrame
        rows = data.to_dict("records")
    elif isinstance(data, Sequence) and not isinstance(data, str | bytes):
        rows = []
        for number, row in enumerate(data):
            if type(row) is not dict and not isinstance(row, Mapping):
                raise DataError(
                    f"Row {number} of the data is a {type(row).__name__}, not a dict: "
                    "give a list of dicts (one per case) or a DataFrame."
                )
            rows.append(row)  # only read: load_cases builds fresh dicts
    else:
        raise DataError(
            f"Cannot read cases from a {type(data).__name__}: give a pandas DataFrame, "
            "a list of dicts, or the path of a .csv, .jsonl, .json or .parquet file."
        )
    if split is not None:
        if not rows or not any(SPLIT_COLUMN in row for row in rows):
            raise DataError(
                f"split={split!r} was given but the data has no {SPLIT_COLUMN!r} column: "
                "add one, or leave out the split."
            )
        present = sorted({str(row.get(SPLIT_COLUMN)) for row in rows})
        rows = [row for row in rows if row.get(SPLIT_COLUMN) == split]
        if not rows:
            raise DataError(
                f"No rows in split {split!r}; the splits present are: {', '.join(present)}."
            )
    return rows


def _looks_like_row(data: Mapping[str, Any]) -> bool:
    # A dict of splits maps names to tables; anything else is not ours to guess.
    return not all(
        isinstance(v, str | os.PathLike | list) or hasattr(v, "columns") for v in data.values()
    )


def _read_file(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        raise DataError(f"No data file at {str(path)!r}: check the path.")
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return _read_jsonl(path)
    if suffix == ".json":
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DataError(
                f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}."
            ) from None
        if isinstance(loaded, dict) and isinstance(loaded.get("cases"), list):
            loaded = loaded["cases"]
        if not isinstance(loaded, list) or not all(isinstance(r, dict) for r in loaded):
            raise DataError(f"{path} must hold a JSON list of objects, one per case.")
        return loaded
    if suffix in (".csv", ".tsv"):
        import pandas as pd

        try:
            frame = pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", keep_default_na=False)
        except (pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise DataError(f"Cannot read {path} as CSV: {exc}") from None
        return frame.to_dict("records")
    if suffix == ".parquet":
        import pandas as pd

        try:
            return pd.read_parquet(path).to_dict("records")
        except Exception as exc:
            raise DataError(f"Cannot read {path} as Parquet: {exc}") from None
    raise DataError(
        f"Cannot read {path}: the file type {suffix or '(none)'} is not one of "
        ".csv, .tsv, .jsonl, .json, .parquet."
    )


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(
                    f"{path}, line {number}: not valid JSON ({exc.msg}, column {exc.colno})."
                ) from None
            if not isinstance(row, dict):
                raise DataError(f"{path}, line {number}: each line must be a JSON object.")
            rows.append(row)
    return rows


def load_cases(
    data: Any,
    outputs: str | Sequence[str] | None = None,
    inputs: str | Sequence[str] | None = None,
    split: str | None = None,
    *,
    output_column: str | None = None,
) -> list[Case]:
    """Turn ``data`` into cases.

    ``outputs`` names the Output column(s): they form ``expected``; none gives
    ``expected=None``.  ``inputs`` names the input columns (default: every other
    column but ``output_column`` and the split column).  ``output_column`` holds
    outputs computed beforehand.
    """
    rows = read_rows(data, split)
    if not rows:
        raise DataError("The data has no rows: a check needs at least one case.")
    columns = list(dict.fromkeys(itertools.chain.from_iterable(rows)))  # C-speed, in order
    output_names = _split_names(outputs) or []
    input_names = _split_names(inputs)
    asked = [*output_names, *(input_names or [])]
    if output_column is not None:
        asked.append(output_column)
    for name in asked:
        if name not in columns:
            raise DataError(
                f"Unknown column {name!r}; the data has: {', '.join(map(str, columns))}."
            )
    if input_names is None:
        skip = {*output_names, output_column, SPLIT_COLUMN if split is not None else None}
        input_names = [name for name in columns if name not in skip]
    pick_input = _picker(input_names)
    pick_expected = _picker(output_names) if output_names else None
    return [
        Case(
            index,
            pick_input(row),
            pick_expected(row) if pick_expected is not None else None,
            row.get(output_column) if output_column is not None else NO_OUTPUT,
        )
        for index, row in enumerate(rows)
    ]


def _picker(names: Sequence[str]) -> Any:
    """A function building the dict of ``names`` from a row (one name: a faster literal)."""
    if len(names) == 1:
        (only,) = names
        return lambda row: {only: row.get(only)}
    return lambda row: {name: row.get(name) for name in names}


def pick_cases(
    cases: list[Case], count: int | None, sample: str = "first", seed: int | None = None
) -> list[Case]:
    """The cases a run uses: the first ``count``, or ``count`` at random with ``seed``."""
    if count is None or count >= len(cases):
        return list(cases)
    if count < 1:
        raise ValueError(f"cases must be 1 or more, got {count}.")
    if sample == "first":
        return cases[:count]
    if sample == "random":
        chosen = random.Random(seed).sample(range(len(cases)), count)
        return [cases[i] for i in sorted(chosen)]
    raise ValueError(f"sample must be 'first' or 'random', got {sample!r}.")


EXAMPLES = Path(__file__).parent / "examples"


def load_example(name: str = "tickets") -> Path:
    """The path of an example file shipped with the package (``tickets`` → tickets.csv)."""
    for candidate in (EXAMPLES / name, *EXAMPLES.glob(f"{name}.*")):
        if candidate.is_file():
            return candidate
    known = sorted(p.stem for p in EXAMPLES.iterdir() if p.suffix in (".csv", ".jsonl", ".py"))
    raise DataError(f"No example named {name!r}; the examples are: {', '.join(known)}.")
