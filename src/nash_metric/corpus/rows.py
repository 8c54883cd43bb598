"""Per-pair result rows out and back: `RowWriter` writes them chunk by chunk, `read_rows` reads a file whole.

Rows stream out one chunk at a time so that memory stays bounded on large corpora, with floats written so that they
read back bit for bit. A figure column (`unsupported_numbers`, `figure_verdicts`: per pair a list of
`verdicts.decide.FigureVerdict` entries, as the Python API gives them) is a list of objects in JSONL, a list of
structs in Parquet (one fixed type, `figure_list_type`, whatever the first chunk holds) and a JSON text in a CSV/TSV
cell. numpy and pyarrow are imported where they are used, so importing this module stays cheap (``nash --help``).
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..common.atomic import partial_path
from ..common.io import InputFileError, read_text
from .records import jsonl_records, require_parquet, text_lines

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

__all__ = ["FIGURE_COLUMNS", "OUTPUT_FORMATS", "RowWriter", "figure_list_type", "read_rows"]

OUTPUT_FORMATS = (".jsonl", ".csv", ".tsv", ".parquet")
FIGURE_COLUMNS = ("unsupported_numbers", "figure_verdicts")  # columns of FigureVerdict lists, by their public name
_INT = re.compile(r"[+-]?\d+")


def figure_list_type() -> pa.DataType:
    """The Parquet type of a figure column: a list of `FigureVerdict` structs, `found` and `reference` nested
    `NumberRef` structs (null when there is none), `cosine` null when nothing was compared, `basis` null unless
    a binding decided, `derivation` null unless the figure is computed or an unsupported one has a closest
    derivation, `operands` (that derivation's numbers, a list of `NumberRef` structs) null with it; a number's
    `cell` (its table cell's section, row and column labels) null in running text; `role` "figure" or "period".
    An entry without `derivation`, `operands` or `role` (written before them), or a number without `cell`, gets
    nulls."""
    import pyarrow as pa

    span = [("text", pa.string()), ("start", pa.int64()), ("end", pa.int64()), ("value", pa.float64())]
    cell = pa.struct([("section", pa.string()), ("row", pa.string()), ("column", pa.string()), ("path", pa.string())])
    number = pa.struct([*span, ("cell", cell)])
    return pa.list_(pa.struct([*span, ("verdict", pa.string()), ("found", number), ("reference", number),
                               ("cosine", pa.float64()), ("basis", pa.string()), ("derivation", pa.string()),
                               ("operands", pa.list_(number)), ("role", pa.string())]))


class RowWriter:
    """Writes per-pair rows to ``.jsonl``/``.csv``/``.tsv``/``.parquet`` one chunk at a time (bounded memory).

    Floats are written exactly (their ``repr``; Parquet float64), so ``read_rows`` gives back the same bits.
    CSV and TSV are written with the csv module's minimal quoting (a text with a tab, quote or newline is quoted).
    `figure_columns` hold per row a list of figure entries (the module docstring says how each format keeps them).
    The rows go to a temporary file beside `path` (`common.atomic`), renamed over it by `close`: used as a context
    manager, a run that fails or is interrupted (`abort`) leaves an existing `path` as it was.
    """

    def __init__(self, path: str | Path, columns: Sequence[str], figure_columns: Collection[str] = FIGURE_COLUMNS
                 ) -> None:
        self.path = Path(path)
        self.columns = list(columns)
        self.figure_columns = frozenset(figure_columns) & set(self.columns)
        self.format = self.path.suffix.lower()
        if self.format not in OUTPUT_FORMATS:
            raise ValueError(f"{self.path}: unsupported output format {self.format or '(no suffix)'!r}; "
                             f"use one of {', '.join(OUTPUT_FORMATS)}")
        if not self.columns or len(set(self.columns)) != len(self.columns):
            raise ValueError(f"columns must be non-empty and distinct, got {self.columns}")
        require_parquet(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.rows_written = 0
        self._closed = False
        self._parquet: Any = None  # pyarrow.parquet.ParquetWriter, opened on the first chunk (it fixes the types)
        self._partial = partial_path(self.path)
        self._file = None if self.format == ".parquet" else self._partial.open("w", encoding="utf-8", newline="")
        if self.format in (".csv", ".tsv"):
            self._csv = csv.writer(self._file, delimiter="\t" if self.format == ".tsv" else ",")
            self._csv.writerow(self.columns)

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()

    def write(self, rows: Mapping[str, Sequence | np.ndarray]) -> None:
        """Append one chunk: a mapping with exactly the writer's columns, all of the same length."""
        if self._closed:
            raise ValueError(f"{self.path}: write after close")
        if set(rows) != set(self.columns):
            missing, extra = sorted(set(self.columns) - set(rows)), sorted(set(rows) - set(self.columns))
            raise ValueError(f"chunk columns differ from {self.columns}: missing {missing}, unexpected {extra}")
        data = [_python_values(rows[name], name, name in self.figure_columns) for name in self.columns]
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
            self._csv.writerows(zip(*(_cells(values, name in self.figure_columns)
                                      for name, values in zip(self.columns, data))))
        else:
            self._write_parquet(data, count)
        self.rows_written += count

    def _write_parquet(self, data: list[list], count: int) -> None:
        """One row group per chunk; the first chunk fixes the column types (float64, int64, string...)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._parquet is None:
            figures = figure_list_type() if self.figure_columns else None
            types = [figures if name in self.figure_columns else None for name in self.columns]
            arrays = [_arrow_array(values, kind, name) for name, values, kind in zip(self.columns, data, types)]
            schema = pa.schema([(name, array.type) for name, array in zip(self.columns, arrays)])
            self._parquet = pq.ParquetWriter(self._partial, schema)
        else:
            schema = self._parquet.schema
            arrays = [_arrow_array(values, schema.field(name).type, name) for name, values in zip(self.columns, data)]
        table = pa.Table.from_arrays(arrays, schema=schema)
        self._parquet.write_table(table, row_group_size=count)

    def close(self) -> None:
        """Flush and close (idempotent); a Parquet file that got no rows is written with untyped columns (but the
        figure columns, whose type is fixed)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._file is not None:
                self._file.close()
            elif self._parquet is not None:
                self._parquet.close()
            else:
                import pyarrow as pa
                import pyarrow.parquet as pq

                figures = figure_list_type()
                pq.write_table(pa.table({name: pa.nulls(0, figures if name in self.figure_columns else pa.null())
                                         for name in self.columns}), self._partial)
        except BaseException:
            self._partial.unlink(missing_ok=True)
            raise
        os.replace(self._partial, self.path)

    def abort(self) -> None:
        """Stop without writing `path`: the temporary file is removed and an existing `path` stays as it was."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            if self._file is not None:
                self._file.close()
            elif self._parquet is not None:
                self._parquet.close()
        self._partial.unlink(missing_ok=True)


def _cells(values: list, figures: bool) -> list:
    """A column's CSV cells: floats as their repr (exact), a figure list as its JSON text."""
    if figures:
        return [json.dumps(v, ensure_ascii=False) for v in values]
    return [repr(v) if isinstance(v, float) else v for v in values]


def _python_values(values: Any, name: str, figures: bool = False) -> list:
    """A chunk column as a list of Python values: json and csv cannot take numpy scalars. A figure column holds
    one list of entries per row."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"column {name!r} must be a sequence of values, got {type(values).__name__}")
    if hasattr(values, "tolist"):  # numpy array
        out = values.tolist()
    elif hasattr(values, "to_pylist"):  # pyarrow array
        out = values.to_pylist()
    else:
        out = [v.item() if hasattr(v, "dtype") and hasattr(v, "item") else v for v in values]
    wrong = next((v for v in out if not isinstance(v, (list, tuple))), None) if figures else None
    if wrong is not None:
        raise TypeError(f"column {name!r} holds a list of figure entries per row, got {type(wrong).__name__}")
    return out


def _arrow_array(values: list, kind: pa.DataType | None, name: str) -> pa.Array:
    """A column as an Arrow array of type `kind` (None: inferred, on the first chunk)."""
    import pyarrow as pa

    try:
        return pa.array(values, type=kind)
    except (pa.ArrowException, TypeError) as exc:
        fixed = "its values have no one Parquet type" if kind is None else f"does not fit its type {kind}"
        raise ValueError(f"column {name!r} {fixed} (set by the first chunk): {exc}") from None


def read_rows(path: str | Path) -> dict[str, list]:
    """What ``RowWriter`` wrote, as ``{column: values}``; CSV/TSV columns that are all ints or floats are parsed."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pydict()
    if suffix == ".jsonl":
        records = [record for _, record in jsonl_records(path, text_lines(read_text(path)))]
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
