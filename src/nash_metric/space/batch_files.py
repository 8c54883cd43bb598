"""Batch-tab file handling: size-limited reading of CSV/TSV/JSONL pairs, and the CSV download.

The records are read by the reader of ``nash score --pairs`` (`corpus.records.text_records`, and
`corpus.pair_files.PairChecker` for the cells): the same dialect (Python's `csv`, doubled quotes included), the same
checks of a cell and the same ``file:line`` messages, so an upload gives the pairs the command line gives. This
module adds the Space's own rules: the size, pair and character limits, the column pairs it recognises
(`COLUMN_PAIRS`), strict UTF-8, the report of other columns (never silently dropped), and a download that
neutralises spreadsheet formulas in text cells and does not stay on the server for good (`Downloads`). Every
failure is a ``BatchFileError`` whose message is shown to the user as is, never a Python traceback.
"""

from __future__ import annotations

import csv
import itertools
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..common.io import InputFileError, check_text
from ..corpus.pair_files import EMPTY, NO_PAIRS, PairChecker
from ..corpus.records import text_lines, text_records
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
        f"CSV (comma-separated with a header row, as `nash score --pairs` reads it; `.tsv` for tabs) or JSONL (one "
        f"object a line), at most {format_bytes(max_bytes)}, "
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


def _read_pairs(name: str, text: str, delimiter: str | None) -> PairsFile:
    """The pairs of a decoded upload (`delimiter` None: JSONL) read as ``nash score --pairs`` reads a file, within
    the Space's limits; ``name`` (the file's own name) locates the errors."""
    path = Path(name)
    header, records = text_records(path, text_lines(text), delimiter, EMPTY)
    first = next(records, None)
    if first is None:
        raise BatchFileError(f"{name}: {NO_PAIRS}")
    names = list(header.names) if header else list(first[1])  # JSONL: the first object's keys
    columns = _pick_columns(names, f"{name}:{header.line if header else first[0]}")
    check = PairChecker(path, columns, lists_allowed=False, unit="line", hint=None)
    pairs: list[tuple[str, str]] = []
    ignored = dict.fromkeys(n for n in names if n not in columns)  # an ordered set
    for number, record in itertools.chain([first], records):
        if len(pairs) >= MAX_ROWS:
            raise BatchFileError(f"too many pairs: the limit is {MAX_ROWS}.")
        a, b = check(number, record)
        for column, cell in zip(columns, (a, b)):
            if len(cell) > MAX_CHARS:
                raise BatchFileError(f"{name}:{number}: field {column!r} has {len(cell):,} characters "
                                     f"(limit {MAX_CHARS:,}).")
        pairs.append((a, str(b)))  # no lists here: `check` refuses a list reference
        if header is None:
            ignored.update((key, None) for key in record if key not in columns)
    return PairsFile(pairs, columns, tuple(ignored))


def _decoded(path: Path, max_bytes: int) -> str:
    """The upload as text: within the size limit, UTF-8 (a BOM dropped), not binary, not blank."""
    try:
        size = path.stat().st_size
        if size > max_bytes:  # a second line: the server refuses larger uploads before storing them
            raise BatchFileError(f"file is {format_bytes(size)}; the limit is {format_bytes(max_bytes)}.")
        raw = path.read_bytes()
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
    return text


def parse_pairs(path: str | os.PathLike[str] | None, max_bytes: int = MAX_BYTES) -> PairsFile:
    """Read (a, b) pairs from an uploaded ``.csv``/``.tsv``/``.jsonl``/``.json`` file within the limits."""
    if not path:
        raise BatchFileError("no file uploaded: choose a CSV or JSONL file first.")
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".csv", ".tsv", ".jsonl", ".json", ".txt"):
        raise BatchFileError(f"unsupported file type {suffix or '(none)'!r}: upload a .csv or .jsonl file.")
    text = _decoded(p, max_bytes)
    looks_json = suffix in (".jsonl", ".json") or text.lstrip().startswith("{")
    try:
        check_text(p.name, text)  # the command line's rule for binary content, with its message
        return _read_pairs(p.name, text, None if looks_json else "\t" if suffix == ".tsv" else ",")
    except InputFileError as err:  # the reader's own message, located in the file as the user named it
        raise BatchFileError(str(err)) from None


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet would evaluate gets a leading ' (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(header: Sequence[str], rows: Sequence[Sequence[Any]], prefix: str = "nash_batch_",
              directory: str | None = None) -> str:
    """Write the results to a fresh temp file (in `directory`, else the system's temp folder) and return its path."""
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".csv", dir=directory)
    with os.fdopen(fd, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow([csv_cell(h) for h in header])
        writer.writerows([csv_cell(v) for v in row] for row in rows)
    return name


class Downloads:
    """Where the Batch tab's CSVs go. Served, `cache` is gradio's (the download component's
    `move_resource_to_block_cache`): the CSV is written to a folder of its own, copied into gradio's cache, which
    the app's ``delete_cache`` empties once a file is `SpaceLimits.download_seconds` old (and wholly when the server
    stops), and the folder is removed at once, so nothing is left behind. Without a cache (the handlers called
    directly) the CSV is a temp file of the caller's."""

    def __init__(self, cache: Callable[[str], str | None] | None = None) -> None:
        self.cache = cache

    def write(self, header: Sequence[str], rows: Sequence[Sequence[Any]], prefix: str = "nash_batch_") -> str:
        if self.cache is None:
            return write_csv(header, rows, prefix)
        with tempfile.TemporaryDirectory(prefix="nash_download_") as folder:
            cached = self.cache(write_csv(header, rows, prefix, directory=folder))
        if cached is None:  # pragma: no cover - gradio returns a path for a file path
            raise OSError("the download could not be stored")
        return cached
