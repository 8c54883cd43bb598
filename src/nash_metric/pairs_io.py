"""Files in and out for corpus scoring (``nash score --pairs``): pairs read, per-pair rows written, a summary.

Pairs come in through `pair_files` (``.csv``/``.tsv``/``.jsonl``/``.parquet``, or bert-score's candidates/references
layout): checked and indexed in one streaming pass when opened, read chunk by chunk from any pair on; its names are
importable from here too. Bad input raises ``InputFileError`` located as ``file:line`` (Parquet: ``file: row N``),
and a blank text is kept, scored 0 and named in a ``BlankTextWarning`` (see `pair_files`).

Outputs stream through ``RowWriter`` chunk by chunk so that memory stays bounded on large corpora, with floats
written so that they read back bit for bit (``read_rows``). ``corpus_summary`` gives the corpus means with
percentile bootstrap intervals.

numpy and pyarrow are imported where they are used, so importing this module stays cheap (``nash --help``).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .io import InputFileError, iter_jsonl_records
from .pair_files import (
    INPUT_FORMATS,
    SHOWN_BLANK,
    PairCorpus,
    PairSource,
    open_candidates_references,
    open_pairs,
    read_candidates_references,
    read_pairs,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "INPUT_FORMATS", "OUTPUT_FORMATS", "SHOWN_BLANK", "SUMMARY_FIELDS", "UNSUPPORTED_RATE", "PairCorpus",
    "PairSource", "RowWriter", "corpus_summary", "open_candidates_references", "open_pairs",
    "read_candidates_references", "read_pairs", "read_rows", "summary_markdown",
]

OUTPUT_FORMATS = (".jsonl", ".csv", ".tsv", ".parquet")
# Corpus means with intervals: each channel's F, and the precision and recall of NASH and of the baseline.
# The share of pairs whose prediction states a figure the reference does not support (a 0/1 column per pair).
UNSUPPORTED_RATE = "pairs_with_unsupported_numbers"
SUMMARY_FIELDS = ("nash", "nash_precision", "nash_recall", "text_similarity", "numeric_similarity",
                  "numeric_precision", "numeric_recall", "numeric_support", UNSUPPORTED_RATE, "alpha",
                  "baseline", "baseline_precision", "baseline_recall")
_BOOTSTRAP_BLOCK = 8_000_000  # pair indices drawn at a time (64 MB of int64), whatever the corpus size
_INT = re.compile(r"[+-]?\d+")


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
