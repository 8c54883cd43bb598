"""Shared readers for sentence corpora: plain text, CSV/TSV and JSONL, with file:line errors.

``read_sentences(path, column=None)`` is what ``nash fit-idf`` and ``nash build-data`` use;
``read_sentence_source`` (``nash calibrate``) also says which column was read, for messages. Supported layouts:

* ``.txt`` (any other text suffix too): one sentence per line (lines end at LF, CRLF or CR, never at U+2028 or
  a form feed inside a sentence); blank lines carry no sentence and are skipped.
* ``.csv`` / ``.tsv``: a header row naming the columns, ``column`` picks one. A header-less file whose
  rows are ``label,sentence`` with a sentiment label (the Financial PhraseBank ``all-data.csv``
  layout) is recognised and read as columns ``label, content``. TSV is read without quote processing.
* ``.jsonl``: one JSON object per line, ``column`` names the field.

With ``column=None`` a file with a single column is read as is, otherwise the first of
``sentence``, ``text``, ``content`` that exists is used. Empty or missing sentences are errors, never
skipped. Files are read as UTF-8; a file that is not valid UTF-8 (the Financial PhraseBank release is
ISO-8859-1) is decoded as Latin-1 with a warning naming the first offending line.

Binary or mostly non-text files are refused (``InputFileError`` naming the first bad line), whatever the
decoding: a line is bad when it holds a NUL, or at least ``MIN_NON_TEXT_CHARS`` non-text characters making up
more than ``MAX_NON_TEXT_SHARE`` of it. Non-text means control characters other than whitespace (Unicode
category Cc less tab, line and page breaks), surrogates (Cs), private-use characters (Co) and U+FFFD (what a
decoder leaves for bytes it could not read). Random bytes are ~25% such characters; real text, even
Windows-1252 text read as Latin-1 (a stray U+0092 for an apostrophe), stays far below 10%.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import re
import stat
import tempfile
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_COLUMNS = ("sentence", "text", "content")
# Financial PhraseBank rows are "label,sentence" without a header.
_FPB_LABELS = {"positive", "negative", "neutral"}
_FPB_HEADER = ["label", "content"]

MAX_NON_TEXT_SHARE = 0.1  # a line with more than this share of non-text characters ...
MIN_NON_TEXT_CHARS = 2  # ... and at least this many is binary (one stray character is a typo, not binary)
# Non-text characters: Cc without whitespace (tab, LF, VT, FF, CR, FS..US, NEL), Cs, Co, U+FFFD (tests pin the set).
_NON_TEXT = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff\ue000-\uf8ff"
                       "\U000f0000-\U000ffffd\U00100000-\U0010fffd\ufffd]")


class InputFileError(ValueError):
    """A problem in an input file, located as ``file:line``."""

    def __init__(self, path: str | Path, line: int | None, message: str):
        self.path, self.line = str(path), line
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {message}")


def read_text(path: str | Path, encoding: str | None = None) -> str:
    """File contents as str: ``encoding`` if given, else UTF-8 with a warned Latin-1 fallback; binary is refused.

    ``textfile.open_text`` applies the same rules to a file too large to hold, block by block.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    raw = path.read_bytes()
    if encoding is not None:
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise not_valid(path, raw[: exc.start].count(b"\n") + 1, encoding, exc) from None
        except LookupError:
            raise unknown_encoding(path, encoding) from None
        check_text(path, text)
        return text
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw.decode("latin-1")
        check_text(path, text, READ_AS_LATIN1)  # binary is an error, not a warned fallback
        warn_latin1(path, raw[: exc.start].count(b"\n") + 1, raw[exc.start])
        return text
    check_text(path, text)
    return text


READ_AS_LATIN1 = " (read as Latin-1: it is not UTF-8)"  # what a binary refusal adds after the Latin-1 fallback


def not_valid(path: str | Path, line: int, encoding: str, exc: UnicodeDecodeError) -> InputFileError:
    return InputFileError(path, line, f"not valid {encoding}: {exc.reason}")


def unknown_encoding(path: str | Path, encoding: str) -> InputFileError:
    return InputFileError(path, None, f"unknown encoding {encoding!r}; give encoding= a codec name Python knows "
                          "('utf-8', 'cp1252', 'latin-1', ...)")


def warn_latin1(path: str | Path, line: int, byte: int, stacklevel: int = 2) -> None:
    """The warning of the Latin-1 fallback, naming the first line that is not UTF-8 and its byte."""
    warnings.warn(f"{path}:{line}: not valid UTF-8 (byte {byte:#04x}); decoding the file as Latin-1 (pass "
                  "encoding= to choose another)", UnicodeWarning, stacklevel=stacklevel + 1)


def check_text(path: str | Path, text: str, decoded: str = "") -> None:
    """Refuse binary or mostly non-text content, naming the first bad line (rule in the module docstring)."""
    if not has_non_text(text):
        return  # the common case: one regex scan, no per-line work
    for number, line in enumerate(_lines(text), start=1):
        check_line(path, number, line, decoded)


def check_line(path: str | Path, number: int, line: str, decoded: str = "") -> None:
    """`check_text` for one line, given without its line ending."""
    bad = _NON_TEXT.findall(line)
    if "\x00" in line:
        problem = f"a NUL byte at column {line.index(chr(0)) + 1}"
    elif len(bad) >= MIN_NON_TEXT_CHARS and len(bad) > MAX_NON_TEXT_SHARE * len(line):
        first = _NON_TEXT.search(line)
        assert first is not None
        problem = (f"{len(bad)} of its {len(line)} characters are control or non-text characters "
                   f"(first U+{ord(first.group()):04X} at column {first.start() + 1})")
    else:
        return
    raise InputFileError(path, number, f"binary or not text{decoded}: {problem}; expected text with one "
                         "sentence (or record) a line")


def has_non_text(text: str) -> bool:
    """Whether ``text`` holds any non-text character (then `check_line` decides line by line)."""
    return _NON_TEXT.search(text) is not None


@dataclass(frozen=True)
class SentenceSource:
    """The sentences of a file and where they came from, for messages like "read 4 sentences from ..."."""

    path: Path
    column: str | None  # the CSV column / JSONL field read; None for one sentence a line
    sentences: list[str]
    lines: list[int]  # where each sentence's record starts (1-based)

    @property
    def where(self) -> str:
        return f"{self.path} (column {self.column!r})" if self.column is not None else str(self.path)


def read_sentence_source(path: str | Path, column: str | None = None, encoding: str | None = None) -> SentenceSource:
    """``read_sentences`` that also says which column was read (the one picked when ``column`` is None)."""
    used, records = _open_sentences(Path(path), column, encoding)
    pairs = list(records)
    if not pairs:
        raise InputFileError(path, None, "no sentences found" + (f" in column {used!r}" if used is not None else ""))
    return SentenceSource(Path(path), used, [s for _, s in pairs], [n for n, _ in pairs])


def iter_sentences(path: str | Path, column: str | None = None,
                   encoding: str | None = None) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, sentence)``; the line number is where the record starts (1-based)."""
    yield from _open_sentences(Path(path), column, encoding)[1]


def read_sentences(path: str | Path, column: str | None = None, encoding: str | None = None) -> list[str]:
    """All sentences of ``path`` in file order (see the module docstring for the formats)."""
    return read_sentence_source(path, column, encoding).sentences


def _open_sentences(path: Path, column: str | None,
                    encoding: str | None) -> tuple[str | None, Iterator[tuple[int, str]]]:
    """The column that will be read (None for plain text) and the ``(line, sentence)`` records."""
    suffix = path.suffix.lower()
    if suffix in (".json", ".parquet", ".arrow"):
        raise InputFileError(path, None, f"unsupported format {suffix!r}: use .txt (one sentence a line), "
                             ".csv/.tsv with a column, or .jsonl with a field")
    if suffix not in (".csv", ".tsv", ".jsonl") and column is not None:
        raise InputFileError(path, None, f"column={column!r} given but a {suffix or 'plain'} file is "
                             "read as one sentence per line; use .csv/.tsv or .jsonl for columns")
    text = read_text(path, encoding)
    if suffix in (".csv", ".tsv"):
        return _open_delimited(path, text, column, "\t" if suffix == ".tsv" else ",")
    if suffix == ".jsonl":
        return _open_jsonl(path, text, column)
    return None, ((n, line.strip()) for n, line in enumerate(_lines(text), start=1) if line.strip())


def _lines(text: str) -> list[str]:
    """Physical lines as an editor numbers them (str.splitlines would also break at U+0085, U+2028, form feed...)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


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
                         "pass column= to choose one")


def csv_rows(path: Path, lines: Iterable[str], delimiter: str,
             first_line: int = 1) -> Iterator[tuple[int, list[str]]]:
    """CSV/TSV records with the line each starts on (quoted fields may span lines); blank lines are no records.

    ``lines`` are the physical lines with their endings (``io.StringIO(text, newline="")``, or a file read line by
    line); ``first_line`` is the number of the first. TSV is read without quote processing; a malformed record
    raises ``InputFileError`` at the line it starts on.
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


def _open_delimited(path: Path, text: str, column: str | None,
                    delimiter: str) -> tuple[str, Iterator[tuple[int, str]]]:
    rows = csv_rows(path, io.StringIO(text, newline=""), delimiter)
    first = next(rows, None)
    if first is None:
        raise InputFileError(path, None, "empty file")
    headerless = len(first[1]) == 2 and first[1][0].strip().lower() in _FPB_LABELS
    header = list(_FPB_HEADER) if headerless else [h.strip() for h in first[1]]
    if len(set(header)) != len(header):
        raise InputFileError(path, first[0], f"duplicate column names in header {header}")
    name = _pick_column(path, header, column, first[0])
    return name, _delimited_values(path, itertools.chain([first] if headerless else [], rows), header, name)


def _delimited_values(path: Path, rows: Iterator[tuple[int, list[str]]], header: list[str],
                      name: str) -> Iterator[tuple[int, str]]:
    index = header.index(name)
    for line, row in rows:
        if len(row) != len(header):
            raise InputFileError(path, line,
                                 f"expected {len(header)} fields ({', '.join(header)}), got {len(row)}")
        value = row[index].strip()
        if not value:
            raise InputFileError(path, line, f"empty {name!r} field")
        yield line, value


def read_json(path: str | Path, text: str | None = None) -> Any:
    """The JSON value of a ``.json`` file (``text``: its contents, already read with ``read_text``'s rules);
    invalid JSON is an ``InputFileError`` naming the file, the line and the column."""
    try:
        return json.loads(read_text(path) if text is None else text)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})") from None


def iter_jsonl_records(path: str | Path, text: str | None = None) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line of a JSONL file; errors name file and line."""
    path = Path(path)
    for number, line in enumerate(_lines(read_text(path) if text is None else text), start=1):
        record = jsonl_record(path, number, line)
        if record is not None:
            yield number, record


def jsonl_record(path: str | Path, number: int, line: str) -> dict | None:
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


def _open_jsonl(path: Path, text: str, column: str | None) -> tuple[str | None, Iterator[tuple[int, str]]]:
    records = iter_jsonl_records(path, text)
    first = next(records, None)
    if first is None:
        return column, iter(())
    name = column if column is not None else _pick_column(path, list(first[1]), None, first[0])
    return name, _jsonl_values(path, itertools.chain([first], records), name)


def _jsonl_values(path: Path, records: Iterator[tuple[int, dict]], name: str) -> Iterator[tuple[int, str]]:
    for number, record in records:
        yield number, string_field(path, number, record, name).strip()


def string_field(path: str | Path, number: int, record: Mapping[str, Any], name: str, why: str = "") -> str:
    """`record[name]` of line `number` of a JSONL file, a non-blank string, or an `InputFileError` saying what is
    wrong there (`why` is added to the empty-field message)."""
    if name not in record:
        raise InputFileError(path, number, f"missing field {name!r}; fields are {list(record)}")
    value = record[name]
    if not isinstance(value, str):
        raise InputFileError(path, number, f"field {name!r} must be a string, got {type(value).__name__}")
    if not value.strip():
        raise InputFileError(path, number, f"empty {name!r} field{why}")
    return value


# -- output paths ------------------------------------------------------------------------------------------------


def check_writable(path: str | os.PathLike[str], option: str | None = None, suffixes: Sequence[str] = (),
                   check: Callable[[Path], object] | None = None) -> Path:
    """`path` checked before the work whose result it is to hold (a model load, a corpus's scoring), so that a bad
    path costs nothing: its suffix one of `suffixes` (where the format depends on it), what `check` (a format's
    own rule) accepts, its folder an existing folder that takes a new file, `path` no folder, and an existing
    file there writable. Nothing is left behind or truncated: a new file is tried as a temporary sibling, an
    existing one opened for appending. The ValueError names `option` as the caller spells it (`--output` on the
    command line, `output=` in Python) before the path.
    """
    out = Path(path).expanduser()
    where = f"{option} {path}" if option else str(path)
    if suffixes and out.suffix.lower() not in suffixes:
        raise ValueError(f"{where}: unsupported format; use one of {', '.join(suffixes)}")
    if check is not None:
        try:
            check(out)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    problem = _why_unwritable(out)
    if problem is not None:
        raise ValueError(f"{where}: cannot write there: {problem}")
    return out


def _why_unwritable(path: Path) -> str | None:
    """Why a file cannot be written at `path`, or None when it can."""
    folder = path.parent
    try:
        if not folder.exists():
            return f"the folder {str(folder)!r} does not exist"
        if not folder.is_dir():
            return f"{str(folder)!r} is not a folder"
        if path.is_dir():
            return "it is a folder"
        if not path.exists():
            descriptor, probe = tempfile.mkstemp(prefix=".nash-write-check-", dir=folder)
            os.close(descriptor)
            os.unlink(probe)
        elif stat.S_ISREG(path.stat().st_mode):
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))  # append: the file is left as it is
        elif not os.access(path, os.W_OK):  # a device or pipe: opening it could block or consume
            return "permission denied"
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
