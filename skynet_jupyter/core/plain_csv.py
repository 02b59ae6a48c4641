"""CSV and TSV rows read with the standard library, cell for cell as pandas reads them.

Importing pandas costs 300-500 ms, a hundred times what reading a few rows
does; ``skynet-check`` on a 3-row file waited mostly for that.  This reader
gives the rows :func:`.dataset._read_csv` gets from
``pandas.read_csv(path, sep=sep, keep_default_na=False, dtype=str)``, the
header's names as the keys and every cell text exactly as written, and it
answers only where it knows the answer is the same.  Where pandas' reading
is its own, it says None and pandas reads the file, as before:

- the csv module (strict) refuses the text: a character after a closing
  quote (pandas joins it to the field), an unclosed quote (pandas' error is
  the one the user reads), a field past the csv module's size limit;
- a row has more fields than the header (the errors naming it are
  dataset's, from pandas' reading);
- a line holds only blanks (pandas skips it, the csv module reads a field);
- a carriage return that does not end a CRLF line end (after a blank line,
  pandas may drop the next row);
- a header name is empty (pandas names it ``Unnamed: N``);
- the file is not UTF-8 (the error naming the line is dataset's).

What pandas does and this reader does too: a byte order mark is not part of
the first name, blank lines are skipped (before the header too), a shorter
row is padded with empty text, a quoted field keeps its commas, quotes and
line breaks (``\\r\\n`` as written), nothing is stripped or converted.
``tests/core/test_dataset_plain_csv.py`` compares the two readers on
generated files, cell by cell.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

__all__ = ["plain_rows"]


def plain_rows(path: Path, sep: str) -> tuple[list[str], list[dict[str, str]]] | None:
    """The header and the rows of ``path`` (None: pandas must read it; no header: ``[]``)."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:  # pandas' reading names the line and the byte, in its order
        return None
    if text.count("\r") != text.count("\r\n"):  # pandas' ways with a lone \r are its own
        return None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    try:
        lines = [line for line in reader if line]  # [] is a blank line: skipped, as pandas does
    except csv.Error:
        return None
    if not lines:
        return [], []
    header = lines[0]
    width = len(header)
    if not all(header) or any(_blank_line(line) for line in lines):
        return None
    rows = []
    padding = [""] * width
    for line in lines[1:]:
        if len(line) != width:
            if len(line) > width:
                return None
            line = line + padding[len(line) :]
        rows.append(dict(zip(header, line, strict=True)))
    return header, rows


def _blank_line(line: list[str]) -> bool:
    # A line of blanks is one field for the csv module, a line to skip for pandas; a
    # quoted blank field is not skipped by pandas: pandas decides both.
    return len(line) == 1 and line[0] != "" and not line[0].strip()
