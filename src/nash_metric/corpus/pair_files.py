"""Files of pairs in: checked and indexed in one streaming pass, then read chunk by chunk from any pair on.

`open_pairs` (``.csv``/``.tsv``/``.jsonl``/``.parquet`` with a prediction and a reference column; in JSONL and
Parquet a reference cell may be a list) and `open_candidates_references` (bert-score's ``-c cands.txt -r refs.txt``
layout, one text a line, line i of every file is pair i) read the whole input once and hold none of its texts: they
settle the encoding (`textfile.open_text`), check every record, warn about blank texts, count the pairs and record
where every `STRIDE`-th pair starts (its byte offset and line; Parquet: the row groups). `PairSource.chunks(size,
start, stop)` then reads `size` pairs at a time from pair `start` on, so a rank of a multi-process launch reads only
its shard's byte range (Parquet: the row groups its shard overlaps), after at most `STRIDE` - 1 records before it.
Memory holds one chunk of texts, whatever the size of the file.

Bad input raises `InputFileError` located as ``file:line`` (Parquet: ``file: row N``) and naming the field when the
file is opened, before any pair is scored: a row is never dropped, since a skipped row would silently pair every
later prediction with the wrong reference. Texts are kept exactly as given (scoring normalises them itself). A blank
text (an empty CSV field or JSONL string, a blank line of a candidates file) is a text, not an error: it is kept,
scored 0 as bert-score scores it (``blank.py``), and named with its file and line in a ``BlankTextWarning`` (the
first `SHOWN_BLANK` of a file, then a count); a missing field or a null is still an error. A file changed after it
was opened is refused when read again, never misread.

`PairSource.read()` gives the pairs as lists (`PairCorpus`), for inputs that fit in memory. The records are read by
`records` (one dialect per format, one set of ``file:line`` messages); the checks of a record's two cells
(`PairChecker`) are also what the Space's Batch tab checks its uploads with.
pyarrow is imported where it is used, so importing this module stays cheap (``nash --help``).
"""

from __future__ import annotations

import bisect
import itertools
import os
import warnings
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.blank import BlankCount, BlankTextWarning, count_blank_corpus, is_blank
from ..common.io import InputFileError, check_input_file
from .records import (
    Header,
    csv_header,
    csv_records,
    csv_rows,
    jsonl_records,
    open_parquet,
    parquet_columns,
    parquet_records,
    record_error,
)
from .textfile import TextFile, file_stamp, open_text

INPUT_FORMATS = (".csv", ".tsv", ".jsonl", ".parquet")
STRIDE = 1024  # pairs between two recorded starts: reading from pair k parses at most STRIDE - 1 records before it
SHOWN_BLANK = 10  # blank texts of a file named one by one in warnings; the rest are counted in one more
_COLUMN_HINT = "pass --prediction-column/--reference-column to choose others"
NO_PAIRS = "no pairs (the file has no data rows)"
EMPTY = "no pairs (empty file)"

Reference = str | list[str]  # one reference, or a list of them
Chunk = tuple[list[str], list[Reference]]  # predictions and their references


class PairSource(ABC):
    """Pairs in input order, read from any pair on: a checked file, or lists (`PairCorpus`)."""

    sources: list[str]  # the files read, for the summary

    @abstractmethod
    def __len__(self) -> int: ...

    @property
    @abstractmethod
    def multi_reference(self) -> bool:
        """Whether each prediction has a list of references (every row then holds a list)."""

    @property
    @abstractmethod
    def blank(self) -> BlankCount:
        """The blank texts of the whole input, as `blank.count_blank_corpus` counts them."""

    @abstractmethod
    def _pairs(self, start: int, stop: int) -> Iterator[tuple[str, Reference]]: ...

    def pairs(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[str, Reference]]:
        """(prediction, reference) of pairs `start` to `stop` (the end by default), read as they are consumed."""
        stop = len(self) if stop is None else stop
        if not 0 <= start <= stop <= len(self):
            raise ValueError(f"pairs {start} to {stop} are not within the {len(self)} pairs")
        return self._pairs(start, stop)

    def chunks(self, size: int, start: int = 0, stop: int | None = None) -> Iterator[Chunk]:
        """Pairs `start` to `stop` as (predictions, references) of `size` pairs each (the last may hold fewer)."""
        pairs = self.pairs(start, stop)
        while block := list(itertools.islice(pairs, size)):
            yield [p for p, _ in block], [r for _, r in block]

    def read(self) -> PairCorpus:
        """Every pair, in lists."""
        predictions: list[str] = []
        references: list[Any] = []
        for prediction, reference in self.pairs():
            predictions.append(prediction)
            references.append(reference)
        return PairCorpus(predictions, references, list(self.sources))


@dataclass
class PairCorpus(PairSource):
    """Predictions and their references in file order; a reference row is a list when there are several."""

    predictions: list[str]
    references: list[str] | list[list[str]]
    sources: list[str]

    @property
    def multi_reference(self) -> bool:
        return bool(self.references) and isinstance(self.references[0], list)

    @property
    def blank(self) -> BlankCount:
        return count_blank_corpus(self.predictions, self.references)

    def __len__(self) -> int:
        return len(self.predictions)

    def _pairs(self, start: int, stop: int) -> Iterator[tuple[str, Reference]]:
        return zip(self.predictions[start:stop], self.references[start:stop])


# ----------------------------------------------------------------------------------------------------- opening


def open_pairs(path: str | Path, prediction_column: str = "prediction", reference_column: str = "reference",
               encoding: str | None = None) -> PairSource:
    """A ``.csv``/``.tsv``/``.jsonl``/``.parquet`` file of pairs, checked whole and indexed (JSONL/Parquet
    references may be lists); ``encoding`` applies to the text formats."""
    path = Path(path)
    if path.is_dir():  # named as a folder, not as a file without a suffix (`--pairs .`)
        check_input_file(path)
    suffix = path.suffix.lower()
    if suffix not in INPUT_FORMATS:
        raise InputFileError(path, None, f"unsupported format {suffix or '(no suffix)'!r}: use one of "
                             f"{', '.join(INPUT_FORMATS)} (or candidates/references text files, one text a line)")
    if prediction_column == reference_column:
        raise ValueError(f"prediction and reference column are both {prediction_column!r}")
    check_input_file(path)
    columns = (prediction_column, reference_column)
    return ParquetPairs(path, columns) if suffix == ".parquet" else TextPairs(path, columns, encoding)


def open_candidates_references(candidates: str | Path, references: str | Path | Sequence[str | Path],
                               encoding: str | None = None) -> LinePairs:
    """bert-score's ``-c``/``-r`` layout, checked whole and indexed; several references files give lists."""
    reference_paths = [references] if isinstance(references, (str, os.PathLike)) else list(references)
    if not reference_paths:
        raise ValueError("no references file given")
    return LinePairs([Path(candidates), *(Path(p) for p in reference_paths)], encoding)


# ------------------------------------------------------------------------------------------------------ checks


def _cell_problem(value: object, name: str, index: int | None = None) -> str | None:
    """Why ``value`` is no usable text (None if it is); ``index`` locates an element of a reference list."""
    label = repr(name) if index is None else f"{name!r}[{index}]"
    if value is None:
        return f"field {label} is null"
    if not isinstance(value, str):
        return f"field {label} must be a string, got {type(value).__name__}"
    return None  # a blank string is a text (scored 0): `_blank_cells` names it


def _blank_cells(value: str | list[str], name: str) -> list[str]:
    """``blank 'reference' field`` (or ``blank 'reference'[2] field``) for each blank text of a checked cell."""
    if isinstance(value, str):
        return [f"blank {name!r} field"] if is_blank(value) else []
    return [f"blank {name!r}[{index}] field" for index, item in enumerate(value) if is_blank(item)]


class PairChecker:
    """The checks of a record's two cells, the same when a file is opened and when its chunks are read, and the same
    for the Space's Batch tab. ``hint`` ends the missing-field message (how to choose other columns)."""

    def __init__(self, path: Path, columns: tuple[str, str], *, lists_allowed: bool, unit: str,
                 hint: str | None = _COLUMN_HINT) -> None:
        self.path, self.columns, self.lists_allowed, self.unit = path, columns, lists_allowed, unit
        self.hint = f" ({hint})" if hint else ""
        self.first_kind: tuple[int, str] | None = None  # (line or row, "string" | "list") of the first record

    def __call__(self, number: int, record: Mapping[str, Any]) -> tuple[str, Reference]:
        path, unit = self.path, self.unit
        prediction_column, reference_column = self.columns
        for name in self.columns:
            if name not in record:
                raise record_error(path, number, f"missing field {name!r}; fields are {list(record)}{self.hint}", unit)
        prediction, reference = record[prediction_column], record[reference_column]
        if problem := _cell_problem(prediction, prediction_column):
            raise record_error(path, number, problem, unit)
        if self.lists_allowed and isinstance(reference, list):
            kind = "list"
            if not reference:
                raise record_error(path, number, f"field {reference_column!r} is an empty list", unit)
            for index, item in enumerate(reference):
                if problem := _cell_problem(item, reference_column, index):
                    raise record_error(path, number, problem, unit)
        else:
            kind = "string"
            if problem := _cell_problem(reference, reference_column):
                raise record_error(path, number, problem, unit)
        if self.first_kind is None:
            self.first_kind = (number, kind)
        elif kind != self.first_kind[1]:
            first, first_kind = self.first_kind
            raise record_error(path, number, f"field {reference_column!r} is a {kind} but {unit} {first} holds a "
                               f"{first_kind}; every row needs the same kind (one reference, or a list of them)", unit)
        return prediction, reference


@dataclass
class _Blanks:
    """The blank texts a checking pass met in one file: the first `SHOWN_BLANK` named, all counted."""

    path: Path
    unit: str  # "line" or "row"
    shown: list[tuple[int, str]] = field(default_factory=list)  # (line or row, what)
    count: int = 0
    first: int | None = None  # line or row of the first

    def add(self, number: int, found: Iterable[str]) -> None:
        for what in found:
            if len(self.shown) < SHOWN_BLANK:
                self.shown.append((number, what))
            self.count += 1
            self.first = number if self.first is None else self.first

    def warn(self) -> None:
        """One warning per blank text named (``file:line: blank 'prediction' field, ...``), one for the rest."""
        for number, what in self.shown:
            where = f"{self.path}:{number}" if self.unit == "line" else f"{self.path}: {self.unit} {number}"
            warnings.warn(f"{where}: {what}, scored 0 as bert-score does", BlankTextWarning, stacklevel=5)
        if self.count > SHOWN_BLANK:
            warnings.warn(f"{self.path}: {self.count - SHOWN_BLANK} more blank texts (on {self.unit}s after "
                          f"{self.shown[-1][0]}), each scored 0 as bert-score does", BlankTextWarning, stacklevel=5)


class _Tally:
    """What a checking pass counts of a pair file: its pairs, and its blank texts as `count_blank_corpus` would."""

    def __init__(self, path: Path, columns: tuple[str, str], unit: str) -> None:
        self.columns, self.pairs, self.blanks, self.corpus = columns, 0, _Blanks(path, unit), BlankCount()

    def add(self, number: int, prediction: str, reference: Reference) -> None:
        predicted, referenced = _blank_cells(prediction, self.columns[0]), _blank_cells(reference, self.columns[1])
        if predicted or referenced:
            self.blanks.add(number, predicted + referenced)
            self.corpus += BlankCount(len(predicted), len(referenced), self.pairs)
        self.pairs += 1


# ------------------------------------------------------------------------------------------------ text formats


class _Cursor:
    """The lines of a text file from a line start, as csv.reader takes them, knowing where the next line starts."""

    def __init__(self, text: TextFile, offset: int = 0, number: int = 1) -> None:
        self._lines = text.lines(offset, number)
        self.offset, self.number = offset, number

    def __iter__(self) -> _Cursor:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.offset, self.number = line.end, line.number + 1
        return line.text


class _CheckedFile(PairSource):
    """A file of pairs whose records were checked when it was opened (`check`, `_len`, `_blank`)."""

    check: PairChecker
    _len: int
    _blank: BlankCount

    def __len__(self) -> int:
        return self._len

    @property
    def multi_reference(self) -> bool:
        return self.check.first_kind is not None and self.check.first_kind[1] == "list"

    @property
    def blank(self) -> BlankCount:
        return self._blank


class TextPairs(_CheckedFile):
    """A ``.csv``/``.tsv``/``.jsonl`` file of pairs: checked whole when opened, then read from any pair on."""

    def __init__(self, path: Path, columns: tuple[str, str], encoding: str | None) -> None:
        self.path, self.columns, self.sources = path, columns, [str(path)]
        self.text = open_text(path, encoding)
        self.delimiter = {".csv": ",", ".tsv": "\t"}.get(path.suffix.lower())  # None: JSONL
        self.check = PairChecker(path, columns, lists_allowed=self.delimiter is None, unit="line")
        self.starts: list[tuple[int, int]] = []  # (byte offset, line) from which pair k * STRIDE is read first
        cursor = _Cursor(self.text)
        self.header: Header | None = None  # CSV/TSV only
        if self.delimiter is not None:
            self.header = csv_header(path, csv_rows(path, cursor, self.delimiter), EMPTY)
            _require_columns(path, self.header, columns)
        tally = _Tally(path, columns, "line")
        position = (cursor.offset, cursor.number)
        for number, record in self._records(cursor):
            if tally.pairs % STRIDE == 0:
                self.starts.append(position)
            tally.add(number, *self.check(number, record))
            position = (cursor.offset, cursor.number)
        if not tally.pairs:
            raise InputFileError(path, None, NO_PAIRS)
        tally.blanks.warn()
        self._len, self._blank = tally.pairs, tally.corpus

    def _records(self, cursor: _Cursor) -> Iterator[tuple[int, Mapping[str, Any]]]:
        """(line, record) from the cursor on: a JSON object, or a CSV/TSV row's two cells by column."""
        if self.delimiter is None or self.header is None:
            return jsonl_records(self.path, cursor, cursor.number)
        rows = csv_rows(self.path, cursor, self.delimiter, first_line=cursor.number)
        return csv_records(self.path, rows, self.header, self.delimiter, self.columns)

    def _pairs(self, start: int, stop: int) -> Iterator[tuple[str, Reference]]:
        if start == stop:
            return
        offset, number = self.starts[start // STRIDE]
        skip = start % STRIDE
        for line, record in itertools.islice(self._records(_Cursor(self.text, offset, number)), skip,
                                             skip + stop - start):
            yield self.check(line, record)


def _require_columns(path: Path, header: Header, columns: tuple[str, str]) -> None:
    for name in columns:
        if name not in header.names:
            raise InputFileError(path, header.line, f"no column {name!r}; columns are {list(header.names)} "
                                 f"({_COLUMN_HINT})")


# ----------------------------------------------------------------------------------------------------- Parquet


class ParquetPairs(_CheckedFile):
    """A Parquet file of pairs: checked whole when opened, then read by row group from any pair on."""

    def __init__(self, path: Path, columns: tuple[str, str]) -> None:
        self.path, self.columns, self.sources = path, columns, [str(path)]
        self.stamp = file_stamp(path)
        parquet = self._open()
        names = parquet_columns(parquet)
        for name in columns:
            if name not in names:
                raise InputFileError(path, None, f"no column {name!r}; columns are {names} ({_COLUMN_HINT})")
        sizes = [parquet.metadata.row_group(k).num_rows for k in range(parquet.num_row_groups)]
        self.group_starts = [0, *itertools.accumulate(sizes)]  # row (0-based) where each row group starts, and the end
        self.check = PairChecker(path, columns, lists_allowed=True, unit="row")
        tally = _Tally(path, columns, "row")
        for number, record in parquet_records(parquet, columns):
            tally.add(number, *self.check(number, record))
        if not tally.pairs:
            raise InputFileError(path, None, NO_PAIRS)
        tally.blanks.warn()
        self._len, self._blank = tally.pairs, tally.corpus

    def _open(self) -> Any:
        if file_stamp(self.path) != self.stamp:
            raise InputFileError(self.path, None, "changed since it was checked; score a file that is not being "
                                 "written to")
        return open_parquet(self.path)

    def _pairs(self, start: int, stop: int) -> Iterator[tuple[str, Reference]]:
        if start == stop:
            return
        starts = self.group_starts
        first, last = bisect.bisect_right(starts, start) - 1, bisect.bisect_right(starts, stop - 1) - 1
        records = parquet_records(self._open(), self.columns, list(range(first, last + 1)), starts[first])
        for number, record in itertools.islice(records, start - starts[first], stop - starts[first]):
            yield self.check(number, record)


# -------------------------------------------------------------------------------------- candidates/references


@dataclass
class _LineFile:
    """One file of a candidates/references layout, as its checking pass found it."""

    text: TextFile
    lines: int
    starts: list[tuple[int, int]]  # (byte offset, line) of lines k * STRIDE + 1
    blanks: _Blanks
    trailing_blank: int  # blank lines at its end: the usual cause of a line count one too high

    @classmethod
    def open(cls, path: Path, encoding: str | None) -> _LineFile:
        """Lines as bert-score's text-mode reading splits them (``\\n``, ``\\r\\n``, ``\\r``); a blank line is a
        blank text, kept in place (so the pairs stay aligned) and warned about with its line."""
        text = open_text(path, encoding)
        indexed = cls(text, 0, [], _Blanks(path, "line"), 0)
        for line in text.lines():
            if indexed.lines % STRIDE == 0:
                indexed.starts.append((line.start, line.number))
            indexed.lines += 1
            if is_blank(line.text):
                indexed.blanks.add(line.number, ["blank line"])
                indexed.trailing_blank += 1
            else:
                indexed.trailing_blank = 0
        indexed.blanks.warn()
        return indexed

    def texts(self, start: int) -> Iterator[str]:
        """Its lines from line `start` + 1 on, without their endings."""
        offset, number = self.starts[start // STRIDE]
        return itertools.islice((line.text.rstrip("\r\n") for line in self.text.lines(offset, number)),
                                start % STRIDE, None)


class LinePairs(PairSource):
    """Candidates and references files, one text a line: checked whole when opened, then read from any line on."""

    def __init__(self, paths: list[Path], encoding: str | None) -> None:
        self.sources = [str(p) for p in paths]
        self.files = [_LineFile.open(p, encoding) for p in paths]
        counts = [f.lines for f in self.files]
        if len(set(counts)) > 1:
            odd = next(p for p, count in zip(paths, counts) if count != counts[0])
            listing = ", ".join(f"{p} has {f.lines}" + (f" (its last {f.trailing_blank} blank)" if f.trailing_blank
                                                        else "") for p, f in zip(paths, self.files))
            raise InputFileError(odd, None, f"line counts differ ({listing}); every file needs one line per pair")
        if not counts[0]:
            raise InputFileError(paths[0], None, "no pairs (empty file)")

    def __len__(self) -> int:
        return self.files[0].lines

    @property
    def multi_reference(self) -> bool:
        return len(self.files) > 2

    @property
    def blank(self) -> BlankCount:
        firsts = [f.blanks.first - 1 for f in self.files if f.blanks.first is not None]
        return BlankCount(self.files[0].blanks.count, sum(f.blanks.count for f in self.files[1:]),
                          min(firsts) if firsts else None)

    def _pairs(self, start: int, stop: int) -> Iterator[tuple[str, Reference]]:
        rows = itertools.islice(zip(*(f.texts(start) for f in self.files)), stop - start) if start < stop else ()
        for prediction, *references in rows:
            yield prediction, references[0] if len(references) == 1 else references
