"""Batch-tab file handling: strict, size-limited parsing of CSV/JSONL pairs and the CSV download.

Every failure is a ``BatchFileError`` whose message is shown to the user as is, so it names the
line and the column and never leaks a Python traceback. Columns other than the pair are reported, not
silently dropped; the download neutralises spreadsheet formulas in text cells.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .limits import MAX_CHARS, MAX_ROWS, SpaceLimits, format_bytes

MAX_BYTES = SpaceLimits.max_file_bytes  # the default limit
# Accepted (first, second) column names, case-insensitive; the first pair found wins.
COLUMN_PAIRS = (
    ("a", "b"),
    ("prediction", "reference"),
    ("predictions", "references"),
    ("candidate", "reference"),
    ("text_a", "text_b"),
    ("sentence1", "sentence2"),
)
# Cells a spreadsheet would run as a formula (OWASP CSV injection): prefixed with ' in the download.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def limits_text(max_bytes: int = MAX_BYTES) -> str:
    return (
        f"CSV (with a header row) or JSONL (one object a line), at most {format_bytes(max_bytes)}, "
        f"{MAX_ROWS} pairs and {MAX_CHARS} characters per text. Columns: "
        + ", ".join(f"`{a}`/`{b}`" for a, b in COLUMN_PAIRS)
        + "; other columns are ignored (and listed)."
    )


class BatchFileError(ValueError):
    """A user-facing problem with an uploaded file."""


@dataclass(frozen=True)
class PairsFile:
    pairs: list[tuple[str, str]]
    columns: tuple[str, str]  # the pair's column names as spelled in the file
    ignored: tuple[str, ...] = ()  # other columns / keys, in order of appearance


def _pick_columns(names: Sequence[str], where: str) -> tuple[str, str]:
    lowered = {n.strip().lower(): n for n in names if isinstance(n, str)}
    for a, b in COLUMN_PAIRS:
        if a in lowered and b in lowered:
            return lowered[a], lowered[b]
    shown = ", ".join(repr(n) for n in names) or "none"
    wanted = ", ".join(f"{a}/{b}" for a, b in COLUMN_PAIRS)
    raise BatchFileError(f"{where}: no recognised pair of columns (found {shown}); expected one of {wanted}.")


def _check_text(value: Any, where: str, column: str) -> str:
    """The cell as text; a blank one is a text too (scored 0, as bert-score does), a missing or null one is not."""
    if value is None:
        raise BatchFileError(f"{where}: column {column!r} is missing.")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise BatchFileError(f"{where}: column {column!r} must be text, got {type(value).__name__}.")
    text = str(value)
    if len(text) > MAX_CHARS:
        raise BatchFileError(f"{where}: column {column!r} has {len(text)} characters (limit {MAX_CHARS}).")
    return text


def _add(pairs: list[tuple[str, str]], row: Mapping[str, Any], cols: tuple[str, str], where: str) -> None:
    if len(pairs) >= MAX_ROWS:
        raise BatchFileError(f"too many pairs: the limit is {MAX_ROWS}.")
    pairs.append((_check_text(row.get(cols[0]), where, cols[0]), _check_text(row.get(cols[1]), where, cols[1])))


def _parse_csv(text: str) -> PairsFile:
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    extra = object()  # DictReader's key for the fields of a row beyond the header
    reader = csv.DictReader(io.StringIO(text), dialect=dialect, restkey=extra)  # type: ignore[arg-type]
    try:
        header = reader.fieldnames or []
        cols = _pick_columns(header, "header row")
        pairs: list[tuple[str, str]] = []
        for row in reader:
            where = f"line {reader.line_num}"
            if extra in row:
                raise BatchFileError(f"{where}: {len(header) + len(row[extra])} fields, but the header row has "
                                     f"{len(header)}; quote texts that contain the delimiter {dialect.delimiter!r}.")
            if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
                continue  # blank line
            _add(pairs, row, cols, where)
    except csv.Error as err:
        raise BatchFileError(f"not valid CSV: {err}") from None
    return PairsFile(pairs, cols, tuple(n for n in header if n not in cols))


def _parse_jsonl(text: str) -> PairsFile:
    pairs: list[tuple[str, str]] = []
    cols: tuple[str, str] | None = None
    ignored: dict[str, None] = {}  # ordered set
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise BatchFileError(f"line {n}: not valid JSON ({err.msg} at column {err.colno}).") from None
        if not isinstance(row, dict):
            raise BatchFileError(f"line {n}: expected a JSON object, got {type(row).__name__}.")
        cols = cols or _pick_columns(list(row), f"line {n}")
        _add(pairs, row, cols, f"line {n}")
        ignored.update((str(k), None) for k in row if k not in cols)
    return PairsFile(pairs, cols or ("a", "b"), tuple(ignored))


def parse_pairs(path: str | os.PathLike[str] | None, max_bytes: int = MAX_BYTES) -> PairsFile:
    """Read (a, b) pairs from an uploaded ``.csv``/``.tsv``/``.jsonl``/``.json`` file within the limits."""
    if not path:
        raise BatchFileError("no file uploaded: choose a CSV or JSONL file first.")
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".csv", ".tsv", ".jsonl", ".json", ".txt"):
        raise BatchFileError(f"unsupported file type {suffix or '(none)'!r}: upload a .csv or .jsonl file.")
    try:
        size = p.stat().st_size
        if size > max_bytes:  # a second line: the server refuses larger uploads before storing them
            raise BatchFileError(f"file is {format_bytes(size)}; the limit is {format_bytes(max_bytes)}.")
        raw = p.read_bytes()
    except OSError as err:
        raise BatchFileError(f"could not read the uploaded file ({err.strerror or err}).") from None
    if b"\x00" in raw[:4096]:
        raise BatchFileError("this looks like a binary file, not CSV or JSONL text.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise BatchFileError(f"file is not UTF-8 text (bad byte at offset {err.start}).") from None
    if not text.strip():
        raise BatchFileError("the file is empty.")
    looks_json = suffix in (".jsonl", ".json") or text.lstrip().startswith("{")
    parsed = _parse_jsonl(text) if looks_json else _parse_csv(text)
    if not parsed.pairs:
        raise BatchFileError("the file has a header but no pairs.")
    return parsed


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet would evaluate gets a leading ' (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(header: Sequence[str], rows: Sequence[Sequence[Any]], prefix: str = "nash_batch_") -> str:
    """Write the results to a fresh temp file (gradio serves it for download) and return its path."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".csv")
    with os.fdopen(fd, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow([csv_cell(h) for h in header])
        writer.writerows([csv_cell(v) for v in row] for row in rows)
    return name
