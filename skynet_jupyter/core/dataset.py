"""Cases from a DataFrame, a list of dicts, or a .csv / .jsonl / .json / .parquet file.

The Output columns form ``expected`` (a dict keyed by their names); every
other column is an input unless ``inputs`` names them.  Our cases are our own
dicts: nothing done to a case reaches the caller's data.

One rule for the types of CSV/TSV cells: **a cell is text, exactly as
written**, unless you ask otherwise: ``json_columns=`` parses the named
columns' cells as JSON (lists, objects, numbers), ``dtype=`` gives pandas the
type of a column.  Guessing would turn an all-digit ``answer`` column into
integers that a metric comparing text never matches; JSON files (.json,
.jsonl) and Parquet keep the types they store.
"""

from __future__ import annotations

import collections
import csv
import itertools
import json
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, cast

from ..i18n import t
from .errors import DataError as DataError  # its home before core/errors.py
from .errors import UnknownColumn
from .observation import Observation
from .options import Sample, refuse_cases, refuse_sample
from .plain_csv import plain_rows

SPLIT_COLUMN = "split"


class _NoOutput:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<no output yet>"

    def __reduce__(self) -> str:
        return "NO_OUTPUT"


NO_OUTPUT: Any = _NoOutput()


class Cases(list["Case"]):
    """The cases, and what loading them noticed about the data (a plain list otherwise).

    ``default_inputs``: the input columns when ``inputs`` was not given (None
    when it was).  ``json_like``: CSV/TSV columns whose cells look like JSON
    lists or objects but were read as text (not in ``json_columns``).
    """

    default_inputs: tuple[str, ...] | None = None
    json_like: tuple[str, ...] = ()

    def noted(self, items: Iterable[Case]) -> Cases:
        """Other cases, keeping these notes (a sample of the data has the data's notes)."""
        cases = Cases(items)
        cases.default_inputs, cases.json_like = self.default_inputs, self.json_like
        return cases


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


def read_rows(
    data: Any,
    split: str | None = None,
    *,
    dtype: Any = None,
    json_columns: str | Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """The rows of ``data`` as fresh dicts (of the split's rows when ``split`` is given)."""
    return _read(data, split, dtype, _split_names(json_columns) or [])[0]


def _read(
    data: Any, split: str | None, dtype: Any, json_columns: list[str]
) -> tuple[list[dict[str, Any]], tuple[str, ...], bool]:
    """The rows, the CSV/TSV columns that look like JSON but were read as text, and
    whether the rows are a table's, read here (fresh dicts, every one with the
    table's columns in the table's order: :func:`load_cases` may keep them).
    """
    data, split = _chosen_table(data, split)
    rows, table, fresh_table = _table_rows(data, dtype)
    if json_columns:  # before the split, so a bad cell is named by its row in the file
        rows = _parse_json_columns(rows, json_columns, table)
    json_like = _json_like_columns(rows, json_columns) if table is not None else ()
    if split is not None:
        rows = _split_rows(rows, split)
    return rows, json_like, fresh_table


def _chosen_table(data: Any, split: str | None) -> tuple[Any, str | None]:
    """The table to read, and the split still to pick from its rows (None: every row).

    A dict of splits gives the split's own table; a dict that is neither a row nor
    holds the split is refused, naming what it holds.
    """
    if isinstance(data, Mapping) and split is not None and split in data:
        return data[split], None
    if isinstance(data, Mapping) and not _looks_like_row(data):
        names = ", ".join(map(str, data))
        if split is None:
            raise DataError("data.dict_of_splits", names=names)
        raise DataError("data.no_split", split=split, names=names)
    return data, split


def _table_rows(data: Any, dtype: Any) -> tuple[list[Any], Path | None, bool]:
    """The rows of a file, a DataFrame or a list of dicts; the CSV/TSV file they come
    from (None otherwise); whether they are fresh dicts with the table's columns in order.
    """
    if isinstance(data, str | os.PathLike):
        path = Path(data)
        suffix = path.suffix.lower()
        table = path if suffix in (".csv", ".tsv") else None
        # JSON objects may each order their keys their own way: not a fresh table.
        return _read_file(path, dtype), table, suffix in (".csv", ".tsv", ".parquet")
    if hasattr(data, "to_dict") and hasattr(data, "columns"):  # a pandas DataFrame
        _refuse_duplicate_columns(data.columns)
        return _records(data), None, True
    if isinstance(data, Sequence) and not isinstance(data, str | bytes):
        rows = list(data)  # only read: load_cases builds fresh dicts
        if set(map(type, rows)) - {dict}:  # C-speed; the row-by-row check only to name the row
            _refuse_non_dict_row(rows)
        return rows, None, False
    raise DataError("data.unreadable_type", type=type(data).__name__)


def _refuse_non_dict_row(rows: list[Any]) -> None:
    """Name the first row that is not a dict (a Mapping is accepted)."""
    for number, row in enumerate(rows):
        if type(row) is not dict and not isinstance(row, Mapping):
            raise DataError("data.row_not_dict", number=number, type=type(row).__name__)


def _split_rows(rows: list[Any], split: str) -> list[Any]:
    """The rows whose split column holds ``split``; refused when there are none."""
    if not rows or not any(SPLIT_COLUMN in row for row in rows):
        raise DataError("data.no_split_column", split=split, column=SPLIT_COLUMN)
    present = sorted({str(row.get(SPLIT_COLUMN)) for row in rows})
    rows = [row for row in rows if row.get(SPLIT_COLUMN) == split]
    if not rows:
        raise DataError("data.split_empty", split=split, present=", ".join(present))
    return rows


JSON_SAMPLE_ROWS = 1000  # rows read to tell whether a text column holds JSON
JSON_SAMPLE_CELLS = 50  # non-empty cells of a column that must all look like JSON


def _parse_json_columns(
    rows: list[Any], names: list[str], path: Path | None
) -> list[dict[str, Any]]:
    """New rows whose ``names`` cells, when text, are parsed as JSON.

    The caller's rows are never changed: each row is copied first.
    """
    columns = list(dict.fromkeys(itertools.chain.from_iterable(rows)))
    for name in names:
        if name not in columns:
            raise UnknownColumn("json_columns", name, columns)
    parsed = []
    for number, row in enumerate(rows, start=1):
        fresh = dict(row)
        for name in names:
            cell = fresh.get(name)
            if not isinstance(cell, str):
                continue  # already a value (a list in a JSON file, a number in a DataFrame)
            try:
                fresh[name] = json.loads(cell)
            except json.JSONDecodeError as exc:
                fields = dict(column=name, row=number, cell=_shown_cell(cell), error=exc.msg)
                if path is None:
                    raise DataError("data.bad_json_cell", **fields) from None
                raise DataError("data.bad_json_cell_file", path=str(path), **fields) from None
        parsed.append(fresh)
    return parsed


def _shown_cell(cell: str, limit: int = 60) -> str:
    return repr(cell if len(cell) <= limit else cell[:limit] + "…")


def _json_like_columns(rows: list[dict[str, Any]], parsed: list[str]) -> tuple[str, ...]:
    """Text columns whose non-empty cells (a sample) are all JSON lists or objects."""
    seen: dict[str, list[str]] = {}
    for row in itertools.islice(rows, JSON_SAMPLE_ROWS):
        for name, cell in row.items():
            if name in parsed or name == SPLIT_COLUMN:
                continue
            cells = seen.setdefault(name, [])
            if isinstance(cell, str) and cell.strip() and len(cells) < JSON_SAMPLE_CELLS:
                cells.append(cell.strip())
    return tuple(
        name for name, cells in seen.items() if cells and all(_is_json_container(c) for c in cells)
    )


def _is_json_container(text: str) -> bool:
    if (text[0], text[-1]) not in (("[", "]"), ("{", "}")):
        return False
    try:
        return isinstance(json.loads(text), list | dict)
    except ValueError:
        return False


def _refuse_duplicate_columns(columns: Any, path: Path | None = None) -> None:
    """A table whose columns repeat a name loses all but one of them: refuse it."""
    names = [str(name) for name in columns]
    repeated = sorted({name for name in names if names.count(name) > 1}, key=names.index)
    if not repeated:
        return
    shown = ", ".join(repr(name) for name in repeated)
    if path is None:
        raise DataError("data.duplicate_columns", names=shown, count=len(repeated))
    raise DataError("data.duplicate_columns_file", path=str(path), names=shown, count=len(repeated))


def _looks_like_row(data: Mapping[str, Any]) -> bool:
    # A dict of splits maps names to tables; anything else is not ours to guess.
    return not all(
        isinstance(v, str | os.PathLike | list) or hasattr(v, "columns") for v in data.values()
    )


_TABLE_SUFFIXES = (".jsonl", ".json", ".csv", ".tsv", ".parquet")


def _read_file(path: Path, dtype: Any = None) -> list[dict[str, Any]]:
    suffix = _table_suffix(path)
    try:
        if path.stat().st_size == 0:
            raise DataError("data.empty_file", path=str(path))
        return _read_table_file(path, suffix, dtype)
    except PermissionError as exc:
        raise DataError("data.unreadable", path=str(path), error=exc.strerror) from None
    except UnicodeDecodeError:
        raise _not_utf8(path) from None


def _table_suffix(path: Path) -> str:
    """The suffix of a regular file Skynet reads; refused before any read otherwise."""
    shown = str(path)
    if not path.exists():
        raise DataError("data.no_file", path=shown)
    if path.is_dir():
        raise DataError("data.is_directory", path=shown)
    if not path.is_file():  # a pipe or a device: reading it could block
        raise DataError("data.not_regular", path=shown)
    suffix = path.suffix.lower()
    if suffix not in _TABLE_SUFFIXES:
        raise DataError("data.file_type", path=shown, suffix=suffix or "(none)")
    return suffix


def _read_table_file(path: Path, suffix: str, dtype: Any) -> list[dict[str, Any]]:
    if suffix == ".jsonl":
        return _read_jsonl(path)
    if suffix == ".json":
        return _read_json(path)
    if suffix in (".csv", ".tsv"):
        return _read_csv(path, "\t" if suffix == ".tsv" else ",", dtype)
    return _read_parquet(path)


def _not_utf8(path: Path) -> DataError:
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return DataError(
            "data.not_utf8", path=str(path), line=line, byte=f"0x{data[exc.start]:02x}"
        )
    return DataError("data.bad_text", path=str(path))


class _RepeatedKeys(ValueError):
    def __init__(self, names: list[str]) -> None:
        super().__init__(names)
        self.names = names


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if a key repeats (json would keep only the last silently)."""
    row = dict(pairs)
    if len(row) != len(pairs):
        keys = [key for key, _ in pairs]
        raise _RepeatedKeys(sorted({k for k in keys if keys.count(k) > 1}, key=keys.index))
    return row


def _repeated_keys(path: Path, line: int | None, names: list[str]) -> DataError:
    shown = ", ".join(repr(name) for name in names)
    if line is None:
        return DataError("data.duplicate_keys", path=str(path), names=shown, count=len(names))
    return DataError(
        "data.duplicate_keys_line", path=str(path), line=line, names=shown, count=len(names)
    )


def _read_json(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8-sig")
    if not text.strip():
        raise DataError("data.empty_file", path=str(path))
    try:
        loaded = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise DataError(
            "data.bad_json", path=str(path), line=exc.lineno, column=exc.colno, error=exc.msg
        ) from None
    except _RepeatedKeys as exc:
        raise _repeated_keys(path, None, exc.names) from None
    if isinstance(loaded, dict) and isinstance(loaded.get("cases"), list):
        loaded = loaded["cases"]
    if not isinstance(loaded, list) or not all(isinstance(r, dict) for r in loaded):
        raise DataError("data.json_not_list", path=str(path))
    return loaded


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8-sig") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line, object_pairs_hook=_object)
            except json.JSONDecodeError as exc:
                raise DataError(
                    "data.jsonl_bad_line", path=str(path), line=number, error=exc.msg,
                    column=exc.colno,
                ) from None  # fmt: skip
            except _RepeatedKeys as exc:
                raise _repeated_keys(path, number, exc.names) from None
            if not isinstance(row, dict):
                raise DataError("data.jsonl_not_object", path=str(path), line=number)
            rows.append(row)
    if not rows:
        raise DataError("data.empty_file", path=str(path))
    return rows


def _read_csv(path: Path, sep: str, dtype: Any = None) -> list[dict[str, Any]]:
    """The rows of a CSV (TSV) file, refusing what pandas would shift or drop silently.

    Every cell is text as written (an empty cell is ``""``); ``dtype`` (a type,
    or a dict of column -> type) is given to pandas for the columns it names.

    A header that repeats a name (pandas renames the copy ``label.1``) and a row
    with more fields than the header (pandas then takes the first fields as the
    index, so every column holds its neighbour's value) are errors naming them.

    Without ``dtype`` the standard library reads the file, as pandas would
    (:mod:`.plain_csv`), and pandas is not even imported; what only pandas'
    reading says (its errors, its own ways with odd files) is pandas'.
    """
    if dtype is None:
        read = plain_rows(path, sep)
        if read is not None:
            header, rows = read
            if not header:
                raise DataError("data.empty_file", path=str(path))
            _refuse_duplicate_columns(header, path)
            return rows
    return _read_csv_with_pandas(path, sep, dtype)


def _read_csv_with_pandas(path: Path, sep: str, dtype: Any = None) -> list[dict[str, Any]]:
    import pandas as pd

    header = _csv_header(path, sep)
    _refuse_duplicate_columns(header, path)
    types: Any = str
    if isinstance(dtype, Mapping):
        unknown = [name for name in dtype if name not in header]
        if unknown:
            raise UnknownColumn("dtype", unknown[0], header)
        types = {name: dtype.get(name, str) for name in header}
    elif dtype is not None:
        types = dtype
    try:
        frame = pd.read_csv(path, sep=sep, keep_default_na=False, dtype=types)
    except pd.errors.ParserError as exc:
        raise _extra_fields(path, sep, len(header)) or DataError(
            "data.bad_csv", path=str(path), error=str(exc).strip()
        ) from None
    except UnicodeDecodeError:
        raise  # _read_file names the line and the byte
    except (TypeError, ValueError) as exc:  # a dtype the cells do not fit
        raise DataError("data.bad_dtype", path=str(path), error=str(exc).strip()) from None
    if not isinstance(frame.index, pd.RangeIndex):  # rows longer than the header
        raise _extra_fields(path, sep, len(header)) or DataError(
            "data.bad_csv", path=str(path), error="rows have more fields than the header"
        )
    return _records(frame)


def _csv_header(path: Path, sep: str) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        for row in csv.reader(handle, delimiter=sep):
            if row:
                return row
    raise DataError("data.empty_file", path=str(path))


def _extra_fields(path: Path, sep: str, expected: int) -> DataError | None:
    """The first row with more fields than the header, as an error naming its line."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle, delimiter=sep)
            next(reader, None)  # the header
            while True:
                line = reader.line_num + 1  # where the next row starts
                row = next(reader, None)
                if row is None:
                    return None
                if len(row) > expected:
                    return DataError(
                        "data.extra_fields",
                        path=str(path),
                        line=line,
                        found=len(row),
                        expected=expected,
                    )
    except csv.Error:  # a field past the csv module's size limit: say what pandas said
        return None


def _read_parquet(path: Path) -> list[dict[str, Any]]:
    import pandas as pd

    try:
        frame = pd.read_parquet(path)
    except Exception as exc:
        raise DataError("data.bad_parquet", path=str(path), error=exc) from None
    _refuse_duplicate_columns(frame.columns, path)
    return _records(frame)


_NATIVE = frozenset({str, int, float, bool, type(None)})  # what pandas' boxing leaves alone


def _records(frame: Any) -> list[dict[str, Any]]:
    """``frame.to_dict("records")``: the same dicts and values, read a column at a time.

    pandas builds those dicts cell by cell, boxing each cell of an object or
    extension column (text, in pandas 3) in Python: 5-10 µs a row.  Here each
    column is listed once, as ``to_dict`` reads it (``Series`` iteration, or
    ``tolist`` where that is the same values at C speed), and only the cells
    that are not already plain Python values go through pandas' own boxing.
    The keys are the column names: text (a CSV header, Parquet field names),
    where pandas types them as ``Hashable``.
    """
    try:
        import numpy as np
        from pandas.api.extensions import ExtensionDtype
        from pandas.core.arrays.string_ import BaseStringArray

        # A pandas internal, absent from pandas-stubs; the except below covers its absence.
        from pandas.core.dtypes.cast import maybe_box_native  # type: ignore[attr-defined, unused-ignore]
    except ImportError:  # another pandas: its own conversion
        return cast("list[dict[str, Any]]", frame.to_dict("records"))
    names = frame.columns.tolist()
    if not names:
        return cast("list[dict[str, Any]]", frame.to_dict("records"))
    columns = []
    for number, dtype in enumerate(frame.dtypes.values):
        series = frame.iloc[:, number]  # by position, as to_dict reads it
        # Series iteration (what to_dict does) is ``ndarray.item`` per cell for a
        # NumPy array, the array's own iteration otherwise; ``tolist`` gives the
        # same values at C speed for a NumPy array and for text.
        values = getattr(series, "_values", None)
        if isinstance(values, np.ndarray | BaseStringArray):
            cells = values.tolist()
        else:
            cells = list(series)
        if dtype == np.dtype(object) or isinstance(dtype, ExtensionDtype):
            cells = [cell if type(cell) in _NATIVE else maybe_box_native(cell) for cell in cells]
        columns.append(cells)
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def load_cases(
    data: Any,
    outputs: str | Sequence[str] | None = None,
    inputs: str | Sequence[str] | None = None,
    split: str | None = None,
    *,
    output_column: str | None = None,
    json_columns: str | Sequence[str] | None = None,
    dtype: Any = None,
) -> Cases:
    """Turn ``data`` into cases (a list of :class:`Case`, with notes: :class:`Cases`).

    ``outputs`` names the Output column(s): they form ``expected``; none gives
    ``expected=None``.  ``inputs`` names the input columns (default: every other
    column but ``output_column`` and the split column).  ``output_column`` holds
    outputs computed beforehand.

    Cell types: a CSV/TSV cell is **text, exactly as written** (``007`` stays
    ``"007"``, an empty cell is ``""``), unless you ask.  ``json_columns``
    names columns whose cells are JSON (``["name", "email"]`` becomes a list, ``42``
    a number; from any source, text cells only); a cell that is not valid JSON is
    a :class:`DataError` naming the file, the column and the row.  ``dtype`` (a
    type, or a dict of column -> type such as ``{"answer": int}``) is handed to
    pandas for a CSV/TSV file.  JSON files and Parquet keep their own types.
    """
    json_names = _split_names(json_columns) or []
    rows, json_like, fresh_table = _read(data, split, dtype, json_names)
    if not rows:
        if isinstance(data, str | os.PathLike):
            raise DataError("data.no_rows_in_file", path=os.fspath(data))
        raise DataError("data.no_rows")
    columns = list(rows[0])
    # A table's rows all hold its columns, in its order; a list's rows usually hold the
    # same keys: then the first row's are every column, in the order of first appearance.
    if not fresh_table and len(set().union(*rows)) != len(columns):
        columns = list(dict.fromkeys(itertools.chain.from_iterable(rows)))  # C-speed, in order
    output_names = _split_names(outputs) or []
    input_names = _split_names(inputs)
    asked = [("outputs", name) for name in output_names]
    asked += [("inputs", name) for name in input_names or []]
    if output_column is not None:
        asked.append(("output_column", output_column))
    for option, name in asked:
        if name not in columns:
            raise UnknownColumn(option, name, columns)
    defaulted = input_names is None
    if input_names is None:
        skip = {*output_names, output_column, SPLIT_COLUMN if split is not None else None}
        input_names = [name for name in columns if name not in skip]
    if _keeps_rows(fresh_table, columns, input_names):
        cases = _cases_keeping_rows(rows, input_names, output_names, output_column)
    else:
        cases = _made_cases(
            _picked(rows, input_names),
            _picked(rows, output_names) if output_names else itertools.repeat(None),
            _outputs(rows, output_column),
        )
    cases.default_inputs = tuple(input_names) if defaulted else None
    cases.json_like = json_like
    return cases


def inputs_note(cases: Sequence[Case], lang: str | None = None) -> str | None:
    """A sentence naming the columns that became inputs by default (None: ``inputs`` named them)."""
    names = getattr(cases, "default_inputs", None)
    if names is None:
        return None
    shown = ", ".join(map(str, names)) if names else t("data.no_input_columns", lang)
    return t("data.inputs_chosen", lang, columns=shown)


def _keeps_rows(fresh_table: bool, columns: list[str], input_names: list[str]) -> bool:
    """The rows are a table's, read here, and the inputs are its columns in its order, less some.

    Then each row, less its other columns, is the very ``input`` dict the
    row-by-row loop would build: :func:`_cases_keeping_rows` takes them.
    """
    return fresh_table and [name for name in columns if name in input_names] == input_names


def _cases_keeping_rows(
    rows: list[dict[str, Any]],
    input_names: list[str],
    output_names: list[str],
    output_column: str | None,
) -> Cases:
    """The cases of a table read here, each row becoming its case's ``input``.

    The rows are fresh dicts that hold every column of the table in its order
    (``_records``), so the columns that are not inputs are taken out of every
    row in C-speed passes, after ``expected`` and the outputs are read, instead
    of copying the inputs into a new dict per row (0.1 µs a case for one input
    column, 0.9 µs for six: ``benchmarks/README.md``).
    """
    expected: Iterable[dict[str, Any] | None] = (
        _picked(rows, output_names) if output_names else itertools.repeat(None)
    )
    outputs: Iterable[Any] = (
        list(map(itemgetter(output_column), rows))
        if output_column is not None
        else itertools.repeat(NO_OUTPUT)
    )
    for name in [name for name in rows[0] if name not in input_names]:
        collections.deque(map(dict.pop, rows, itertools.repeat(name)), maxlen=0)
    return _made_cases(rows, expected, outputs)


def _outputs(rows: list[Any], output_column: str | None) -> Iterable[Any]:
    """Each row's known output (``row.get``), or NO_OUTPUT for every row."""
    if output_column is None:
        return itertools.repeat(NO_OUTPUT)
    return [row.get(output_column) for row in rows]


def _made_cases(
    inputs: list[dict[str, Any]], expected: Iterable[Any], outputs: Iterable[Any]
) -> Cases:
    """``Case(index, input, expected, output)`` for each input, in order, built lean.

    Each case is the object ``Case(...)`` makes, its slots set here: the
    dataclass's constructor, called through ``type``, was a fifth of reading a
    list of dicts (benchmarks/README.md).  tests/core/test_dataset_lean_cases.py
    holds every field to what ``Case(...)`` sets.
    """
    cases = Cases()
    append = cases.append
    new = object.__new__
    # expected and outputs may repeat one value for ever: the inputs set the length.
    for index, case_input, case_expected, output in zip(
        range(len(inputs)), inputs, expected, outputs, strict=False
    ):
        case = new(Case)
        case.index = index
        case.input = case_input
        case.expected = case_expected
        case.output = output
        case.measured = None
        append(case)
    return cases


def _picked(rows: list[Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """A fresh dict of ``names`` from each row (``row.get``; one name: a faster literal)."""
    if len(names) == 1:
        (only,) = names
        return [{only: row.get(only)} for row in rows]
    return [{name: row.get(name) for name in names} for row in rows]


def pick_cases(
    cases: list[Case], count: int | None, sample: str = "first", seed: int | None = None
) -> list[Case]:
    """The cases a run uses: the first ``count``, or ``count`` at random with ``seed``.

    The data's notes (:class:`Cases`) stay with the cases chosen.
    """

    keep = cases.noted if isinstance(cases, Cases) else list
    if count is None or count >= len(cases):
        return keep(cases)
    refuse_cases(count)
    if refuse_sample(sample) is Sample.FIRST:
        return keep(cases[:count])
    chosen = random.Random(seed).sample(range(len(cases)), count)
    return keep(cases[i] for i in sorted(chosen))


EXAMPLES = Path(__file__).parents[1] / "examples"


def load_example(name: str = "tickets") -> Path:
    """The path of an example file shipped with the package (``tickets`` → tickets.csv)."""
    for candidate in (EXAMPLES / name, *EXAMPLES.glob(f"{name}.*")):
        if candidate.is_file():
            return candidate
    known = sorted(p.stem for p in EXAMPLES.iterdir() if p.suffix in (".csv", ".jsonl", ".py"))
    raise DataError("data.no_example", name=name, known=", ".join(known))
