"""Shared readers for sentence corpora: plain text, CSV/TSV and JSONL, with file:line errors.

``read_sentences(path, column=None)`` is what ``nash calibrate`` and ``nash build-data`` use.
Supported layouts:

* ``.txt`` (any other text suffix too): one sentence per line; blank lines carry no sentence and are skipped.
* ``.csv`` / ``.tsv``: a header row naming the columns, ``column`` picks one. A header-less file whose
  rows are ``label,sentence`` with a sentiment label (the Financial PhraseBank ``all-data.csv``
  layout) is recognised and read as columns ``label, content``. TSV is read without quote processing.
* ``.jsonl``: one JSON object per line, ``column`` names the field.

With ``column=None`` a file with a single column is read as is, otherwise the first of
``sentence``, ``text``, ``content`` that exists is used. Empty or missing sentences are errors, never
skipped. Files are read as UTF-8; a file that is not valid UTF-8 (the Financial PhraseBank release is
ISO-8859-1) is decoded as Latin-1 with a warning naming the first offending line.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import warnings
from collections.abc import Iterator
from pathlib import Path

DEFAULT_COLUMNS = ("sentence", "text", "content")
# Financial PhraseBank rows are "label,sentence" without a header.
_FPB_LABELS = {"positive", "negative", "neutral"}
_FPB_HEADER = ["label", "content"]


class InputFileError(ValueError):
    """A problem in an input file, located as ``file:line``."""

    def __init__(self, path: str | Path, line: int | None, message: str):
        self.path, self.line = str(path), line
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")


def read_text(path: str | Path, encoding: str | None = None) -> str:
    """File contents as str: ``encoding`` if given, else UTF-8 with a warned Latin-1 fallback."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    raw = path.read_bytes()
    if encoding is not None:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise InputFileError(path, line, f"not valid {encoding}: {exc.reason}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        warnings.warn(f"{path}:{line}: not valid UTF-8 (byte {raw[exc.start]:#04x}); decoding the file as "
                      "Latin-1 (pass encoding= to choose another)", UnicodeWarning, stacklevel=2)
        return raw.decode("latin-1")


def iter_sentences(path: str | Path, column: str | None = None,
                   encoding: str | None = None) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, sentence)``; the line number is where the record starts (1-based)."""
    path = Path(path)
    suffix = path.suffix.lower()
    text = read_text(path, encoding)
    if suffix in (".csv", ".tsv"):
        yield from _iter_delimited(path, text, column, "\t" if suffix == ".tsv" else ",")
    elif suffix == ".jsonl":
        yield from _iter_jsonl(path, text, column)
    elif suffix in (".json", ".parquet", ".arrow"):
        raise InputFileError(path, None, f"unsupported format {suffix!r}: use .txt (one sentence a line), "
                             ".csv/.tsv with a column, or .jsonl with a field")
    else:
        if column is not None:
            raise InputFileError(path, None, f"column={column!r} given but a {suffix or 'plain'} file is "
                                 "read as one sentence per line; use .csv/.tsv or .jsonl for columns")
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                yield number, line.strip()


def read_sentences(path: str | Path, column: str | None = None, encoding: str | None = None) -> list[str]:
    """All sentences of ``path`` in file order (see the module docstring for the formats)."""
    sentences = [s for _, s in iter_sentences(path, column, encoding)]
    if not sentences:
        raise InputFileError(path, None, "no sentences found")
    return sentences


def _pick_column(path: Path, names: list[str], column: str | None, line: int) -> str:
    if column is not None:
        if column not in names:
            raise InputFileError(path, line, f"no column {column!r}; columns are {names}")
        return column
    if len(names) == 1:
        return names[0]
    for name in DEFAULT_COLUMNS:
        if name in names:
            return name
    raise InputFileError(path, line, f"several columns {names} and none of {list(DEFAULT_COLUMNS)}: "
                         "pass column= (--column)")


def _csv_rows(path: Path, text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """Rows with the line each starts on (quoted fields may span lines)."""
    quoting = csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, quoting=quoting, strict=True)
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputFileError(path, start, f"CSV error: {exc}") from None
        if row and not (len(row) == 1 and not row[0].strip()):  # a blank line is no record
            yield start, row


def _iter_delimited(path: Path, text: str, column: str | None, delimiter: str) -> Iterator[tuple[int, str]]:
    rows = _csv_rows(path, text, delimiter)
    first = next(rows, None)
    if first is None:
        raise InputFileError(path, None, "empty file")
    headerless = len(first[1]) == 2 and first[1][0].strip().lower() in _FPB_LABELS
    header = list(_FPB_HEADER) if headerless else [h.strip() for h in first[1]]
    if len(set(header)) != len(header):
        raise InputFileError(path, first[0], f"duplicate column names in header {header}")
    name = _pick_column(path, header, column, first[0])
    index = header.index(name)
    for line, row in itertools.chain([first] if headerless else [], rows):
        if len(row) != len(header):
            raise InputFileError(path, line,
                                 f"expected {len(header)} fields ({', '.join(header)}), got {len(row)}")
        value = row[index].strip()
        if not value:
            raise InputFileError(path, line, f"empty {name!r} field")
        yield line, value


def iter_jsonl_records(path: str | Path, text: str | None = None) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line of a JSONL file; errors name file and line."""
    path = Path(path)
    for number, line in enumerate((read_text(path) if text is None else text).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputFileError(path, number, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(record, dict):
            raise InputFileError(path, number, f"expected a JSON object, got {type(record).__name__}")
        yield number, record


def _iter_jsonl(path: Path, text: str, column: str | None) -> Iterator[tuple[int, str]]:
    name = column
    for number, record in iter_jsonl_records(path, text):
        if name is None:
            name = _pick_column(path, list(record), None, number)
        if name not in record:
            raise InputFileError(path, number, f"missing field {name!r}; fields are {list(record)}")
        value = record[name]
        if not isinstance(value, str):
            raise InputFileError(path, number, f"field {name!r} must be a string, got {type(value).__name__}")
        if not value.strip():
            raise InputFileError(path, number, f"empty {name!r} field")
        yield number, value.strip()
