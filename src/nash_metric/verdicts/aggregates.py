"""Aggregates as computed figures: the highest, lowest, average or total of one attribute over a table's column or
a list of records ("temperatures will peak at 9.1°C", "an average humidity of 71%", "a total of 5 goals").

A figure stated nowhere whose words name an aggregate (`vocabulary.en`: `MAXIMUM_WORDS`, `MINIMUM_WORDS`,
`AVERAGE_WORDS`, `SUM_WORDS`) is computed when that aggregate of the column it names (by the noun after it, else
its subject; `placement.Tables.named`), over the rows it names or else every row, gives its value at its written
precision. The derivation names the column as its cells' key path with the record index starred
("max(list[*].main.temp) = 28.51") or as its header ("max(Points) = 38").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

import numpy as np

from ..vocabulary.en import AVERAGE_WORDS, MAXIMUM_WORDS, MINIMUM_WORDS, SUM_WORDS
from .keys import SupportKeys
from .placement import Tables, naming

__all__ = ["AGGREGATES", "AggregateName", "aggregate"]

AggregateName = Literal["max", "min", "mean", "sum"]
AGGREGATES: tuple[tuple[AggregateName, frozenset[str], Callable[[np.ndarray], float]], ...] = (
    ("max", MAXIMUM_WORDS, lambda v: float(v.max())),
    ("min", MINIMUM_WORDS, lambda v: float(v.min())),
    ("mean", AVERAGE_WORDS, lambda v: float(v.mean())),
    ("sum", SUM_WORDS, lambda v: float(v.sum())),
)
MIN_VALUES = 2  # an aggregate is over at least two values
_INDEX = re.compile(r"\[\d+\]")


def aggregate(keys: SupportKeys, i: int, tables: Tables, ib: np.ndarray
              ) -> tuple[AggregateName, tuple[int, ...], float, str] | None:
    """(the aggregate, its operands as mention-table rows, its value, its text) that gives figure i, or None."""
    figure = naming(keys, i)
    words = figure.words | figure.attribute | figure.subject
    asked = [(name, apply) for name, named, apply in AGGREGATES if named & words]
    if not asked or not (figure.attribute or figure.subject):
        return None
    value, tolerance = float(keys.values[i]), float(keys.tolerance[i])
    for table, cells_of in tables.cells.items():
        rows, columns = tables.named(table, figure)
        for column in sorted(columns):
            cells = [j for (r, c), js in cells_of.items() if c == column and (not rows or r in rows) for j in js]
            operands = tuple(int(ib[j]) for j in cells if not keys.clock[ib[j]])
            if len(operands) < MIN_VALUES:
                continue
            values = keys.values[list(operands)]
            for name, apply in asked:
                result = apply(values)
                if abs(result - value) <= tolerance:
                    return name, operands, result, f"{name}({_column(keys, operands[0])}) = {_shown(result, keys, i)}"
    return None


def _column(keys: SupportKeys, row: int) -> str:
    cell = keys.labels[row][4]
    if cell is None:
        return "?"
    return _INDEX.sub("[*]", cell.path) if cell.path else (cell.column or cell.row)


def _shown(result: float, keys: SupportKeys, i: int) -> str:
    text = keys.labels[i][0]
    decimals = len(text.split(".")[1].rstrip("%°CFmsh ")) if "." in text else 0
    return f"{result:,.{min(decimals, 6)}f}"
