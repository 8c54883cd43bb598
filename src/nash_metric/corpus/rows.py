"""Per-pair result rows out and back: `RowWriter` writes them chunk by chunk, `read_rows` reads a file whole.

Rows stream out one chunk at a time so that memory stays bounded on large corpora, with floats written so that they
read back bit for bit. numpy and pyarrow are imported where they are used, so importing this module stays cheap
(``nash --help``).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..common.io import InputFileError, iter_jsonl_records

if TYPE_CHECKING:
    import numpy as np

__all__ = ["OUTPUT_FORMATS", "RowWriter", "read_rows"]

OUTPUT_FORMATS = (".jsonl", ".csv", ".tsv", ".parquet")
_INT = re.compile(r"[+-]?\d+")


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
