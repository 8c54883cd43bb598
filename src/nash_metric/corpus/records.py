"""Records in: the one reader of CSV/TSV, JSONL and Parquet records, with ``file:line`` errors that name the field.

Every reader of a record file goes through here: files of pairs (`pair_files`), sentence files (`sentences`), the
JSONL of `nash check --jsonl`, the benchmarks' JSONL sources and the Space's Batch tab. One dialect each:

* CSV (``","``) and TSV (``"\\t"``): Python's `csv` (doubled quotes; TSV without quote processing), a header row
  naming the columns (`csv_header`: names stripped, a repeated name refused), every row as wide as the header
  (`csv_records`); a quoted field may span lines, and a record is located at the line it starts on. A blank line
  is no record.
* JSONL: one JSON object a line (`jsonl_records`); a blank line is no record.
* Parquet: rows by record batch (`parquet_records`), located as ``file: row N`` (`record_error`); pyarrow is
  imported where it is used (the ``parquet`` extra), so importing this module stays cheap (``nash --help``).

The text under a text format is read by `common.io.read_text` (held whole) or `textfile.open_text` (block by
block); the readers here take its lines with their endings (`text_lines`), so both give the same records.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common.extras import require
from ..common.io import InputFileError

RECORD_FORMATS = (".csv", ".tsv", ".jsonl", ".parquet")
DELIMITERS = {".csv": ",", ".tsv": "\t"}  # the text formats with columns; JSONL has none
PARQUET_BATCH = 1024  # rows a Parquet read decodes at a time
EMPTY = "empty file"


def text_lines(text: str) -> Iterator[str]:
    """The physical lines of a whole text with their endings (LF, CRLF or CR, as an editor numbers them; never
    U+2028 or a form feed), as the readers here take them."""
    return iter(io.StringIO(text, newline=""))


def record_error(path: str | Path, number: int, message: str, unit: str = "line") -> InputFileError:
    """An error at a text line (``file:N: ...``) or a Parquet row (``file: row N: ...``, ``.line`` = N)."""
    if unit == "line":
        return InputFileError(path, number, message)
    error = InputFileError(path, None, f"{unit} {number}: {message}")
    error.line = number
    return error


# -------------------------------------------------------------------------------------------------- CSV / TSV


def csv_rows(path: str | Path, lines: Iterable[str], delimiter: str,
             first_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    """CSV/TSV records with the line each starts on (quoted fields may span lines); blank lines are no records.

    ``lines`` are the physical lines with their endings (`text_lines`, or a file read line by line); ``first_line``
    is the number of the first. TSV is read without quote processing; a malformed record raises `InputFileError`
    at the line it starts on.
    """
    quoting = csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL
    reader = csv.reader(lines, delimiter=delimiter, quoting=quoting, strict=True)
    while True:
        start = first_line + reader.line_num
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputFileError(path, start, f"CSV error: {exc}") from None
        if row and not (len(row) == 1 and not row[0].strip()):  # a blank line is no record
            yield start, row


@dataclass(frozen=True)
class Header:
    """The header row of a CSV/TSV file: the line it is on and its column names, stripped."""

    line: int
    names: tuple[str, ...]


def csv_header(path: str | Path, rows: Iterator[tuple[int, list[str]]], empty: str = EMPTY) -> Header:
    """The first record of `rows` (`csv_rows`) as the header; an empty file (``empty`` says so) or a repeated name
    is refused."""
    first = next(rows, None)
    if first is None:
        raise InputFileError(path, None, empty)
    return header_of(path, first[0], first[1])


def header_of(path: str | Path, line: int, names: Sequence[str]) -> Header:
    """`names` (stripped) as the header on `line`; a repeated name is refused."""
    stripped = [name.strip() for name in names]
    if len(set(stripped)) != len(stripped):
        raise InputFileError(path, line, f"duplicate column names in header {stripped}")
    return Header(line, tuple(stripped))


def csv_records(path: str | Path, rows: Iterable[tuple[int, list[str]]], header: Header, delimiter: str,
                columns: Sequence[str] | None = None) -> Iterator[tuple[int, dict[str, str]]]:
    """(line, {column: cell}) of each row after the header, of `columns` (None: all); a row of another width than
    the header is refused at its line, since its cells could not be told apart."""
    picks = [(name, header.names.index(name)) for name in (header.names if columns is None else columns)]
    width = len(header.names)
    for number, row in rows:
        if len(row) != width:
            # Too many fields in a CSV is mostly an unquoted comma in a text.
            hint = "; quote a text that contains a comma" if delimiter == "," and len(row) > width else ""
            raise InputFileError(path, number, f"expected {width} fields ({', '.join(header.names)}), "
                                 f"got {len(row)}{hint}")
        yield number, {name: row[index] for name, index in picks}


# ------------------------------------------------------------------------------------------------------ JSONL


def jsonl_record(path: str | Path, number: int, line: str) -> dict[str, Any] | None:
    """The object on one line of a JSONL file (None for a blank line); errors name file and line."""
    if not line.strip():
        return None
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, number, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(record, dict):
        raise InputFileError(path, number, f"expected a JSON object, got {type(record).__name__}")
    return record


def jsonl_records(path: str | Path, lines: Iterable[str],
                  first_line: int = 1) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, object) of each non-blank line of a JSONL text: ``lines`` with their endings (`text_lines`, or a file
    read line by line), the first numbered `first_line`."""
    for number, line in enumerate(lines, start=first_line):
        if (record := jsonl_record(path, number, line.rstrip("\r\n"))) is not None:
            yield number, record


# ------------------------------------------------------------------------------------------ a whole text file


def text_records(path: str | Path, lines: Iterable[str], delimiter: str | None,
                 empty: str = EMPTY) -> tuple[Header | None, Iterator[tuple[int, dict[str, Any]]]]:
    """The header (None for JSONL) and the records of a whole CSV (``","``), TSV (``"\\t"``) or JSONL (None) text:
    ``lines`` are its lines with their endings (`text_lines`), ``path`` names it in errors."""
    if delimiter is None:
        return None, jsonl_records(path, lines)
    rows = csv_rows(path, lines, delimiter)
    header = csv_header(path, rows, empty)
    return header, csv_records(path, rows, header, delimiter)


def string_field(path: str | Path, number: int, record: Mapping[str, Any], name: str, why: str = "",
                 unit: str = "line") -> str:
    """`record[name]` of record `number` (a line, or a Parquet row), a non-blank string, or an `InputFileError`
    saying what is wrong there (`why` is added to the empty-field message)."""
    if name not in record:
        raise record_error(path, number, f"missing field {name!r}; fields are {list(record)}", unit)
    value = record[name]
    if not isinstance(value, str):
        raise record_error(path, number, f"field {name!r} must be a string, got {type(value).__name__}", unit)
    if not value.strip():
        raise record_error(path, number, f"empty {name!r} field{why}", unit)
    return value


# ---------------------------------------------------------------------------------------------------- Parquet


def require_parquet(path: str | Path) -> None:
    """A Parquet file is read and written with pyarrow, the ``parquet`` extra: said before any work when it is
    missing (`common.extras.MissingExtraError`); other paths need nothing."""
    if Path(path).suffix.lower() == ".parquet":
        require("parquet", f"a Parquet file ({path})")


def open_parquet(path: str | Path) -> Any:
    """A `pyarrow.parquet.ParquetFile`, or an `InputFileError` when `path` is not a readable Parquet file."""
    require("parquet", f"a Parquet file ({path})")
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputFileError(path, None, f"not a readable Parquet file: {exc}") from None


def parquet_columns(parquet: Any) -> list[str]:
    """The column names of an open Parquet file."""
    return list(parquet.schema_arrow.names)


def parquet_records(parquet: Any, columns: Sequence[str], groups: list[int] | None = None,
                    before: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
    """(1-based row, {column: value}) of `columns` in the row groups `groups` (all: None), whose first row follows
    row `before`."""
    number = before
    for batch in parquet.iter_batches(batch_size=PARQUET_BATCH, row_groups=groups, columns=list(columns)):
        cells = [batch.column(name).to_pylist() for name in columns]
        for values in zip(*cells):
            number += 1
            yield number, dict(zip(columns, values))
