"""Files in and out for corpus scoring (``nash score --pairs``): pairs read, per-pair rows written, a summary.

Inputs are ``.csv``/``.tsv``/``.jsonl``/``.parquet`` files with a prediction and a reference column
(``read_pairs``), or bert-score's ``-c cands.txt -r refs.txt`` layout, one text a line
(``read_candidates_references``). Bad input raises ``InputFileError`` located as ``file:line`` (Parquet:
``file: row N``) and naming the field: a row is never dropped, since a skipped row would silently pair every
later prediction with the wrong reference. Texts are kept exactly as given (scoring normalises them itself).
A blank text (an empty CSV field or JSONL string, a blank line of a candidates file) is a text, not an error:
it is kept, scored 0 as bert-score scores it (``blank.py``), and named with its file and line in a
``BlankTextWarning``; a missing field or a null is still an error.

Outputs stream through ``RowWriter`` chunk by chunk so that memory stays bounded on large corpora, with floats
written so that they read back bit for bit (``read_rows``). ``corpus_summary`` gives the corpus means with
percentile bootstrap intervals.

numpy and pyarrow are imported where they are used, so importing this module stays cheap (``nash --help``).
"""

from __future__ import annotations

import csv
import json
import os
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .blank import BlankTextWarning, is_blank
from .io import InputFileError, _csv_rows, iter_jsonl_records, read_text

if TYPE_CHECKING:
    import numpy as np

INPUT_FORMATS = (".csv", ".tsv", ".jsonl", ".parquet")
OUTPUT_FORMATS = (".jsonl", ".csv", ".tsv", ".parquet")
# Corpus means with intervals: each channel's F, and the precision and recall of NASH and of the baseline.
# The share of pairs whose prediction states a figure the reference does not support (a 0/1 column per pair).
UNSUPPORTED_RATE = "pairs_with_unsupported_numbers"
SUMMARY_FIELDS = ("nash", "nash_precision", "nash_recall", "text_similarity", "numeric_similarity",
                  "numeric_precision", "numeric_recall", "numeric_support", UNSUPPORTED_RATE, "alpha",
                  "baseline", "baseline_precision", "baseline_recall")
_COLUMN_HINT = "pass --prediction-column/--reference-column to choose others"
_BOOTSTRAP_BLOCK = 8_000_000  # pair indices drawn at a time (64 MB of int64), whatever the corpus size
_INT = re.compile(r"[+-]?\d+")
SHOWN_BLANK = 10  # blank texts of a file named one by one in warnings; the rest are counted in one more


@dataclass
class PairCorpus:
    """Predictions and their references in file order; a reference row is a list when there are several."""

    predictions: list[str]
    references: list[str] | list[list[str]]
    sources: list[str]

    @property
    def multi_reference(self) -> bool:
        """Whether each prediction has a list of references (every row then holds a list)."""
        return bool(self.references) and isinstance(self.references[0], list)

    def __len__(self) -> int:
        return len(self.predictions)


# ----------------------------------------------------------------------------------------------------- inputs


def read_pairs(path: str | Path, prediction_column: str = "prediction", reference_column: str = "reference",
               encoding: str | None = None) -> PairCorpus:
    """Pairs from a ``.csv``/``.tsv``/``.jsonl``/``.parquet`` file (JSONL/Parquet references may be lists)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in INPUT_FORMATS:
        raise InputFileError(path, None, f"unsupported format {suffix or '(no suffix)'!r}: use one of "
                             f"{', '.join(INPUT_FORMATS)} (or candidates/references text files, one text a line)")
    if prediction_column == reference_column:
        raise ValueError(f"prediction and reference column are both {prediction_column!r}")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    columns = (prediction_column, reference_column)
    if suffix == ".parquet":
        return _collect_pairs(path, _parquet_records(path, columns), columns, lists_allowed=True, unit="row")
    text = read_text(path, encoding)
    if suffix == ".jsonl":
        return _collect_pairs(path, iter_jsonl_records(path, text), columns, lists_allowed=True, unit="line")
    records = _delimited_records(path, text, "\t" if suffix == ".tsv" else ",", columns)
    return _collect_pairs(path, records, columns, lists_allowed=False, unit="line")


def read_candidates_references(candidates: str | Path, references: str | Path | Sequence[str | Path],
                               encoding: str | None = None) -> PairCorpus:
    """bert-score's ``-c``/``-r`` layout: line i of every file is pair i; several references files → lists."""
    reference_paths = [references] if isinstance(references, (str, os.PathLike)) else list(references)
    if not reference_paths:
        raise ValueError("no references file given")
    paths = [Path(candidates), *(Path(p) for p in reference_paths)]
    texts = [_text_lines(p, encoding) for p in paths]
    counts = [len(lines) for lines in texts]
    if len(set(counts)) > 1:
        odd = next(p for p, count in zip(paths, counts) if count != counts[0])
        listing = ", ".join(f"{p} has {count}" + _blank_tail(lines) for p, count, lines in zip(paths, counts, texts))
        raise InputFileError(odd, None, f"line counts differ ({listing}); every file needs one line per pair")
    if not counts[0]:
        raise InputFileError(paths[0], None, "no pairs (empty file)")
    refs: list[str] | list[list[str]] = texts[1] if len(texts) == 2 else [list(row) for row in zip(*texts[1:])]
    return PairCorpus(texts[0], refs, [str(p) for p in paths])


def _text_lines(path: Path, encoding: str | None) -> list[str]:
    """Lines as bert-score's text-mode reading splits them (``\\n``, ``\\r\\n``, ``\\r``).

    A blank line is a blank text, kept in place (so the pairs stay aligned) and warned about with its line.
    """
    text = read_text(path, encoding)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":  # the final newline ends the last line rather than starting another
        lines.pop()
    _warn_blank(path, [(number, "blank line") for number, line in enumerate(lines, start=1) if is_blank(line)],
                "line", "lines")
    return lines


def _blank_tail(lines: list[str]) -> str:
    """`` (its last N blank)`` when a file ends in blank lines: the usual cause of a line count one too high."""
    n = next((k for k, line in enumerate(reversed(lines)) if not is_blank(line)), len(lines))
    return f" (its last {n} blank)" if n else ""


def _warn_blank(path: Path, found: list[tuple[int, str]], unit: str, plural: str) -> None:
    """One warning per blank text of a file (``file:line: blank 'prediction' field, ...``), the first few named."""
    for number, what in found[:SHOWN_BLANK]:
        where = f"{path}:{number}" if unit == "line" else f"{path}: {unit} {number}"
        warnings.warn(f"{where}: {what}, scored 0 as bert-score does", BlankTextWarning, stacklevel=4)
    if len(found) > SHOWN_BLANK:
        warnings.warn(f"{path}: {len(found) - SHOWN_BLANK} more blank texts (on {plural} after "
                      f"{found[SHOWN_BLANK - 1][0]}), each scored 0 as bert-score does", BlankTextWarning,
                      stacklevel=4)


def _fail(path: Path, number: int, message: str, unit: str) -> InputFileError:
    """An error at a text line (``file:N: ...``) or a Parquet row (``file: row N: ...``, ``.line`` = N)."""
    if unit == "line":
        return InputFileError(path, number, message)
    error = InputFileError(path, None, f"{unit} {number}: {message}")
    error.line = number
    return error


def _cell_problem(value: object, name: str, index: int | None = None) -> str | None:
    """Why ``value`` is no usable text (None if it is); ``index`` locates an element of a reference list."""
    label = repr(name) if index is None else f"{name!r}[{index}]"
    if value is None:
        return f"field {label} is null"
    if not isinstance(value, str):
        return f"field {label} must be a string, got {type(value).__name__}"
    return None  # a blank string is a text (scored 0): `_blank_cells` warns about it


def _blank_cells(value: object, name: str) -> list[str]:
    """``blank 'reference' field`` (or ``blank 'reference'[2] field``) for each blank text of a checked cell."""
    if isinstance(value, str):
        return [f"blank {name!r} field"] if is_blank(value) else []
    return [f"blank {name!r}[{index}] field" for index, item in enumerate(value) if is_blank(item)]


def _collect_pairs(path: Path, records: Iterable[tuple[int, Mapping[str, Any]]], columns: tuple[str, str], *,
                   lists_allowed: bool, unit: str) -> PairCorpus:
    """Check every record's two cells and gather them; all reference cells must be the same kind."""
    prediction_column, reference_column = columns
    predictions: list[str] = []
    references: list[Any] = []
    first_kind: tuple[int, str] | None = None  # (line or row, "string" | "list") of the first record
    blank: list[tuple[int, str]] = []  # (line or row, what) of every blank text, warned about once read
    for number, record in records:
        for name in columns:
            if name not in record:
                raise _fail(path, number, f"missing field {name!r}; fields are {list(record)} ({_COLUMN_HINT})", unit)
        prediction, reference = record[prediction_column], record[reference_column]
        if problem := _cell_problem(prediction, prediction_column):
            raise _fail(path, number, problem, unit)
        if lists_allowed and isinstance(reference, list):
            kind = "list"
            if not reference:
                raise _fail(path, number, f"field {reference_column!r} is an empty list", unit)
            for index, item in enumerate(reference):
                if problem := _cell_problem(item, reference_column, index):
                    raise _fail(path, number, problem, unit)
        else:
            kind = "string"
            if problem := _cell_problem(reference, reference_column):
                raise _fail(path, number, problem, unit)
        if first_kind is None:
            first_kind = (number, kind)
        elif kind != first_kind[1]:
            raise _fail(path, number, f"field {reference_column!r} is a {kind} but {unit} {first_kind[0]} holds a "
                        f"{first_kind[1]}; every row needs the same kind (one reference, or a list of them)", unit)
        blank += [(number, what) for what in _blank_cells(prediction, prediction_column)
                  + _blank_cells(reference, reference_column)]
        predictions.append(prediction)
        references.append(reference)
    if not predictions:
        raise InputFileError(path, None, "no pairs (the file has no data rows)")
    _warn_blank(path, blank, unit, f"{unit}s")
    return PairCorpus(predictions, references, [str(path)])


def _delimited_records(path: Path, text: str, delimiter: str,
                       columns: tuple[str, str]) -> Iterator[tuple[int, dict[str, str]]]:
    """CSV/TSV rows as ``{column: cell}`` for the wanted columns, with the line each record starts on."""
    rows = _csv_rows(path, text, delimiter)
    first = next(rows, None)
    if first is None:
        raise InputFileError(path, None, "no pairs (empty file)")
    header_line, header = first[0], [name.strip() for name in first[1]]
    if len(set(header)) != len(header):
        raise InputFileError(path, header_line, f"duplicate column names in header {header}")
    for name in columns:
        if name not in header:
            raise InputFileError(path, header_line, f"no column {name!r}; columns are {header} ({_COLUMN_HINT})")
    picks = [(name, header.index(name)) for name in columns]
    for line, row in rows:
        if len(row) != len(header):
            raise InputFileError(path, line, f"expected {len(header)} fields ({', '.join(header)}), got {len(row)}")
        yield line, {name: row[index] for name, index in picks}


def _parquet_records(path: Path, columns: tuple[str, str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Parquet rows as ``{column: value}`` (1-based row numbers), read batch by batch."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputFileError(path, None, f"not a readable Parquet file: {exc}") from None
    names = parquet.schema_arrow.names
    for name in columns:
        if name not in names:
            raise InputFileError(path, None, f"no column {name!r}; columns are {names} ({_COLUMN_HINT})")
    number = 0
    for batch in parquet.iter_batches(columns=list(columns)):
        cells = [batch.column(name).to_pylist() for name in columns]
        for values in zip(*cells):
            number += 1
            yield number, dict(zip(columns, values))


# ---------------------------------------------------------------------------------------------------- outputs


class RowWriter:
    """Writes per-pair rows to ``.jsonl``/``.csv``/``.tsv``/``.parquet`` one chunk at a time (bounded memory).

    Floats are written exactly (their ``repr``; Parquet float64), so ``read_rows`` gives back the same bits.
    CSV and TSV are written with the csv module's minimal quoting (a text with a tab, quote or newline is quoted).
    """

    def __init__(self, path: str | Path, columns: Sequence[str]) -> None:
        self.path = Path(path)
        self.columns = list(columns)
        self.format = self.path.suffix.lower()
        if self.format not in OUTPUT_FORMATS:
            raise ValueError(f"{self.path}: unsupported output format {self.format or '(no suffix)'!r}; "
                             f"use one of {', '.join(OUTPUT_FORMATS)}")
        if not self.columns or len(set(self.columns)) != len(self.columns):
            raise ValueError(f"columns must be non-empty and distinct, got {self.columns}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.rows_written = 0
        self._closed = False
        self._parquet: Any = None  # pyarrow.parquet.ParquetWriter, opened on the first chunk (it fixes the types)
        self._file = None if self.format == ".parquet" else self.path.open("w", encoding="utf-8", newline="")
        if self.format in (".csv", ".tsv"):
            self._csv = csv.writer(self._file, delimiter="\t" if self.format == ".tsv" else ",")
            self._csv.writerow(self.columns)

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def write(self, rows: Mapping[str, Sequence | np.ndarray]) -> None:
        """Append one chunk: a mapping with exactly the writer's columns, all of the same length."""
        if self._closed:
            raise ValueError(f"{self.path}: write after close")
        if set(rows) != set(self.columns):
            missing, extra = sorted(set(self.columns) - set(rows)), sorted(set(rows) - set(self.columns))
            raise ValueError(f"chunk columns differ from {self.columns}: missing {missing}, unexpected {extra}")
        data = [_python_values(rows[name], name) for name in self.columns]
        lengths = {name: len(values) for name, values in zip(self.columns, data)}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"columns of unequal length in one chunk: {lengths}")
        count = len(data[0])
        if not count:
            return
        if self.format == ".jsonl":
            self._file.writelines(json.dumps(dict(zip(self.columns, row)), ensure_ascii=False) + "\n"
                                  for row in zip(*data))
        elif self.format in (".csv", ".tsv"):
            self._csv.writerows(zip(*([repr(v) if isinstance(v, float) else v for v in values] for values in data)))
        else:
            self._write_parquet(data, count)
        self.rows_written += count

    def _write_parquet(self, data: list[list], count: int) -> None:
        """One row group per chunk; the first chunk fixes the column types (float64, int64, string...)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._parquet is None:
            arrays = [pa.array(values) for values in data]
            schema = pa.schema([(name, array.type) for name, array in zip(self.columns, arrays)])
            self._parquet = pq.ParquetWriter(self.path, schema)
        else:
            schema = self._parquet.schema
            arrays = []
            for name, values in zip(self.columns, data):
                try:
                    arrays.append(pa.array(values, type=schema.field(name).type))
                except (pa.ArrowException, TypeError) as exc:
                    raise ValueError(f"column {name!r} does not fit its type {schema.field(name).type} "
                                     f"(set by the first chunk): {exc}") from None
        table = pa.Table.from_arrays(arrays, schema=schema)
        self._parquet.write_table(table, row_group_size=count)

    def close(self) -> None:
        """Flush and close (idempotent); a Parquet file that got no rows is written with untyped columns."""
        if self._closed:
            return
        self._closed = True
        if self._file is not None:
            self._file.close()
        elif self._parquet is not None:
            self._parquet.close()
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(pa.table({name: pa.nulls(0) for name in self.columns}), self.path)


def _python_values(values: Any, name: str) -> list:
    """A chunk column as a list of Python values: json and csv cannot take numpy scalars."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"column {name!r} must be a sequence of values, got {type(values).__name__}")
    if hasattr(values, "tolist"):  # numpy array
        return values.tolist()
    if hasattr(values, "to_pylist"):  # pyarrow array
        return values.to_pylist()
    return [v.item() if hasattr(v, "dtype") and hasattr(v, "item") else v for v in values]


def read_rows(path: str | Path) -> dict[str, list]:
    """What ``RowWriter`` wrote, as ``{column: values}``; CSV/TSV columns that are all ints or floats are parsed."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pydict()
    if suffix == ".jsonl":
        records = [record for _, record in iter_jsonl_records(path)]
        names = list(dict.fromkeys(key for record in records for key in record))
        return {name: [record.get(name) for record in records] for name in names}
    if suffix in (".csv", ".tsv"):
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle, delimiter="\t" if suffix == ".tsv" else ",", strict=True))
        if not rows:
            return {}
        header, body = rows[0], rows[1:]
        for number, row in enumerate(body, start=2):
            if len(row) != len(header):
                raise InputFileError(path, None, f"record {number} has {len(row)} fields, the header {len(header)}")
        return {name: _parse_column([row[i] for row in body]) for i, name in enumerate(header)}
    raise ValueError(f"{path}: unsupported format {suffix or '(no suffix)'!r}; use one of {', '.join(OUTPUT_FORMATS)}")


def _parse_column(cells: list[str]) -> list:
    """Ints if every non-empty cell is an int, else floats if every one is a float, else the strings."""
    filled = [cell for cell in cells if cell != ""]
    if not filled:
        return cells
    if all(_INT.fullmatch(cell) for cell in filled):
        return [int(cell) if cell != "" else None for cell in cells]
    try:
        return [float(cell) if cell != "" else None for cell in cells]
    except ValueError:
        return cells


# ---------------------------------------------------------------------------------------------------- summary


def corpus_summary(columns: Mapping[str, np.ndarray], *, n_unscored: int, hashcode: str,
                   fields: Sequence[str] = SUMMARY_FIELDS, n_resamples: int = 1000, seed: int = 0,
                   confidence: float = 0.95) -> dict:
    """Corpus means with percentile bootstrap intervals (the same resampled pairs for every field)."""
    import numpy as np

    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")
    missing = [name for name in fields if name not in columns]
    if missing:
        raise ValueError(f"no column {missing}; columns are {list(columns)}")
    arrays = [np.asarray(columns[name], dtype=np.float64) for name in fields]
    shapes = {name: array.shape for name, array in zip(fields, arrays)}
    if any(array.ndim != 1 for array in arrays) or len(set(shapes.values())) > 1:
        raise ValueError(f"summary columns must be 1-D and of equal length, got shapes {shapes}")
    n = len(arrays[0]) if arrays else 0
    if n == 0:
        raise ValueError("no pairs to summarise")
    means = [float(array.mean()) for array in arrays]
    if n == 1:
        bounds = [(m, m) for m in means]
    else:
        draws = _bootstrap_means(arrays, n_resamples, np.random.default_rng(seed))
        tail = (1 - confidence) / 2
        bounds = [(float(lo), float(hi)) for lo, hi in np.quantile(draws, [tail, 1 - tail], axis=1).T]
    return {
        "pairs": n,
        "unscored_numbers": int(n_unscored),
        "hashcode": hashcode,
        "bootstrap": {"resamples": n_resamples, "seed": seed, "confidence": confidence},
        "fields": {name: {"mean": m, "low": lo, "high": hi} for name, m, (lo, hi) in zip(fields, means, bounds)},
    }


def _bootstrap_means(arrays: list[np.ndarray], n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Means of each array over resampled pair indices, shape (fields, resamples); ≤ _BOOTSTRAP_BLOCK indices held."""
    import numpy as np

    n = len(arrays[0])
    draws = np.empty((len(arrays), n_resamples))
    if n <= _BOOTSTRAP_BLOCK:  # several whole resamples per block
        per_block = max(1, _BOOTSTRAP_BLOCK // n)
        for start in range(0, n_resamples, per_block):
            stop = min(start + per_block, n_resamples)
            index = rng.integers(0, n, size=(stop - start, n))
            for row, array in enumerate(arrays):
                draws[row, start:stop] = array.take(index).mean(axis=1)  # take: faster than array[index]
        return draws
    for resample in range(n_resamples):  # one resample in several blocks
        sums = np.zeros(len(arrays))
        for start in range(0, n, _BOOTSTRAP_BLOCK):
            index = rng.integers(0, n, size=min(_BOOTSTRAP_BLOCK, n - start))
            sums += [array.take(index).sum() for array in arrays]
        draws[:, resample] = sums / n
    return draws


def summary_markdown(summary: dict) -> str:
    """The summary as a Markdown table (mean and interval per field) and a line of corpus facts."""
    confidence = summary["bootstrap"]["confidence"]
    lines = [f"| field | mean | {confidence * 100:g}% CI |", "|---|---:|:---:|"]
    for name, stats in summary["fields"].items():
        lines.append(f"| {name} | {stats['mean']:.4f} | {stats['low']:.4f}–{stats['high']:.4f} |")
    lines += ["", f"pairs: {summary['pairs']} · unscored numbers: {summary['unscored_numbers']} · "
              f"hashcode: `{summary['hashcode']}`"]
    return "\n".join(lines) + "\n"
