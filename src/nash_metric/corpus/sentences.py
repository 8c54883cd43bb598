"""Sentence files: a one-column record file (`records`), or plain text with one sentence a line.

``read_sentences(path, column=None)`` is what ``nash fit-idf`` and ``nash build-data`` read; `read_sentence_source`
(``nash calibrate``, `calibrate_file`) also says which column was read, for messages. The layouts:

* ``.txt`` (any suffix but the record formats): one sentence per line (lines end at LF, CRLF or CR, never at U+2028
  or a form feed inside a sentence); blank lines carry no sentence and are skipped.
* ``.csv`` / ``.tsv``: a header row naming the columns, ``column`` picks one. A header-less file whose rows are
  ``label,sentence`` with a sentiment label (the Financial PhraseBank ``all-data.csv`` layout) is recognised and read
  as columns ``label, content``.
* ``.jsonl``: one JSON object per line, ``column`` names the field.
* ``.parquet``: ``column`` names a string column (the ``parquet`` extra).

With ``column=None`` a file with a single column is read as is, otherwise the first of ``sentence``, ``text``,
``content`` that exists is used. Empty or missing sentences are errors, never skipped. A text file is read by
`common.io.read_text`: UTF-8, else Latin-1 with a warning naming the first offending line; binary is refused.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..common.defaults import CALIBRATION_PAIRS
from ..common.io import InputFileError, check_input_file, read_text
from .records import (
    DELIMITERS,
    RECORD_FORMATS,
    Header,
    csv_records,
    csv_rows,
    header_of,
    jsonl_records,
    open_parquet,
    parquet_columns,
    parquet_records,
    string_field,
    text_lines,
)

if TYPE_CHECKING:
    from ..calibration.threshold import Calibration, MentionEncoder

DEFAULT_COLUMNS = ("sentence", "text", "content")
# Financial PhraseBank rows are "label,sentence" without a header.
_FPB_LABELS = {"positive", "negative", "neutral"}
_FPB_HEADER = ("label", "content")
_UNSUPPORTED = (".json", ".arrow")


@dataclass(frozen=True)
class SentenceSource:
    """The sentences of a file and where they came from, for messages like "read 4 sentences from ..."."""

    path: Path
    column: str | None  # the CSV column / JSONL field / Parquet column read; None for one sentence a line
    sentences: list[str]
    lines: list[int]  # where each sentence's record starts (1-based; Parquet: its row)

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
    if suffix in _UNSUPPORTED:
        raise InputFileError(path, None, f"unsupported format {suffix!r}: use .txt (one sentence a line), "
                             ".csv/.tsv or .parquet with a column, or .jsonl with a field")
    if suffix not in RECORD_FORMATS and column is not None:
        raise InputFileError(path, None, f"column={column!r} given but a {suffix or 'plain'} file is "
                             "read as one sentence per line; use .csv/.tsv, .jsonl or .parquet for columns")
    if suffix == ".parquet":
        check_input_file(path)
        return _parquet_sentences(path, column)
    text = read_text(path, encoding)
    if suffix in DELIMITERS:
        return _delimited_sentences(path, text, column, DELIMITERS[suffix])
    if suffix == ".jsonl":
        return _jsonl_sentences(path, text, column)
    return None, ((n, line.strip()) for n, line in enumerate(text_lines(text), start=1) if line.strip())


def pick_column(path: Path, names: Sequence[str], column: str | None, line: int | None) -> str:
    """`column` if the record has it, else the only column, else the first of `DEFAULT_COLUMNS` it has."""
    if column is not None:
        if column not in names:
            raise InputFileError(path, line, f"no column {column!r}; columns are {list(names)}")
        return column
    if len(names) == 1:
        return names[0]
    for name in DEFAULT_COLUMNS:
        if name in names:
            return name
    raise InputFileError(path, line, f"several columns {list(names)} and none of {list(DEFAULT_COLUMNS)}: "
                         "pass column= to choose one")


def _delimited_sentences(path: Path, text: str, column: str | None,
                         delimiter: str) -> tuple[str, Iterator[tuple[int, str]]]:
    rows = csv_rows(path, text_lines(text), delimiter)
    first = next(rows, None)
    if first is None:
        raise InputFileError(path, None, "empty file")
    headerless = len(first[1]) == 2 and first[1][0].strip().lower() in _FPB_LABELS
    header = Header(first[0], _FPB_HEADER) if headerless else header_of(path, first[0], first[1])
    name = pick_column(path, header.names, column, header.line)
    records = csv_records(path, itertools.chain([first] if headerless else [], rows), header, delimiter, [name])
    return name, _values(path, records, name)


def _values(path: Path, records: Iterator[tuple[int, dict[str, str]]], name: str) -> Iterator[tuple[int, str]]:
    for line, record in records:
        value = record[name].strip()
        if not value:
            raise InputFileError(path, line, f"empty {name!r} field")
        yield line, value


def _jsonl_sentences(path: Path, text: str, column: str | None) -> tuple[str | None, Iterator[tuple[int, str]]]:
    records = jsonl_records(path, text_lines(text))
    first = next(records, None)
    if first is None:
        return column, iter(())
    name = column if column is not None else pick_column(path, list(first[1]), None, first[0])
    return name, ((n, string_field(path, n, record, name).strip())
                  for n, record in itertools.chain([first], records))


def _parquet_sentences(path: Path, column: str | None) -> tuple[str, Iterator[tuple[int, str]]]:
    parquet = open_parquet(path)
    name = pick_column(path, parquet_columns(parquet), column, None)
    return name, ((n, string_field(path, n, record, name, unit="row").strip())
                  for n, record in parquet_records(parquet, [name]))


# ------------------------------------------------------------------------------------------------- calibration


def calibrate_file(
    scorer: MentionEncoder,
    path: str | Path,
    column: str | None = None,
    n_pairs: int = CALIBRATION_PAIRS,
    seed: int = 0,
    encoding: str | None = None,
    show_progress: bool = False,
) -> Calibration:
    """`calibration.threshold.calibrate_threshold` on the sentences of a file (`read_sentence_source` formats).

    Errors name the file and the column read; the result's `corpus` says which file and column it came from.
    """
    from ..calibration.threshold import TooFewNumbersError, check_n_pairs, check_seed, tau_from_vectors

    check_n_pairs(n_pairs, "n_pairs (--pairs)")
    check_seed(seed)
    source = read_sentence_source(path, column, encoding)
    texts = sorted(set(source.sentences))
    vectors = scorer.mention_vectors(texts, show_progress=show_progress)
    try:
        return tau_from_vectors(vectors, n_pairs, seed, source.where)
    except TooFewNumbersError as exc:  # the same check, told with what was read from the file
        column_hint = " (pass --column to read another)" if source.column is not None else ""
        raise TooFewNumbersError(
            f"{source.where}: read {len(source.sentences)} sentences ({exc.distinct} distinct), {exc.found} with a "
            f"scorable number; calibrating tau = mu + sigma needs at least {exc.minimum} (fewer give a noise "
            f"estimate): add sentences with numbers{column_hint}",
            exc.found, exc.distinct, exc.minimum) from None
