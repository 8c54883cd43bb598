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
from collections.abc import Callable, Iterable, Iterator
from typing import Literal

import numpy as np

from ..context.binding import CHANGE_WORD_SIGNS
from ..context.words import Context
from ..numbers.precision import written_decimals
from ..vocabulary.en import (
    AVERAGE_WORDS,
    HIGHEST_WORDS,
    LOWEST_WORDS,
    MAXIMUM_WORDS,
    MINIMUM_WORDS,
    RANGE_WORDS,
    SUM_WORDS,
)
from .keys import SupportKeys
from .placement import Basis, Tables, naming
from .rules import VerdictRule

__all__ = ["AGGREGATES", "AggregateName", "aggregate", "extreme"]

AggregateName = Literal["max", "min", "mean", "sum"]
AGGREGATES: tuple[tuple[AggregateName, frozenset[str], Callable[[np.ndarray], float]], ...] = (
    ("max", MAXIMUM_WORDS, lambda v: float(v.max())),
    ("min", MINIMUM_WORDS, lambda v: float(v.min())),
    ("mean", AVERAGE_WORDS, lambda v: float(v.mean())),
    ("sum", SUM_WORDS, lambda v: float(v.sum())),
)
MIN_VALUES = 2  # an aggregate is over at least two values
_INDEX = re.compile(r"\[\d+\]")


def aggregate(keys: SupportKeys, i: int, tables: Tables, ib: np.ndarray, rule: VerdictRule
              ) -> tuple[AggregateName, tuple[int, ...], float, str] | None:
    """(the aggregate, its operands as mention-table rows, its value, its text) that gives figure i, or None."""
    figure = naming(keys, i, rule)
    words = figure.words | figure.attribute | figure.subject
    asked = [(name, apply) for name, named, apply in AGGREGATES if named & words]
    if not asked or not (figure.attribute or figure.subject):
        return None
    value, tolerance = float(keys.values[i]), float(keys.tolerance[i])
    for cells in _named_columns(keys, figure, tables, ib, tables.cells):
        operands = tuple(int(ib[j]) for j in cells)
        values = keys.values[list(operands)]
        for name, apply in asked:
            result = apply(values)
            if abs(result - value) <= tolerance:
                return name, operands, result, f"{name}({_column(keys, operands[0])}) = {_shown(result, keys, i)}"
    return None


def _named_columns(keys: SupportKeys, figure: Context, tables: Tables, ib: np.ndarray, among: Iterable[int]
                   ) -> Iterator[list[int]]:
    """Per column a figure names in the tables `among`, the positions in `ib` of its cells in the rows it names
    (every row when it names none), quantities only, when there are at least `MIN_VALUES`."""
    for table in among:
        rows, columns = tables.named(table, figure)
        for column in sorted(columns):
            cells = [j for (r, c), js in tables.cells[table].items() if c == column and (not rows or r in rows)
                     for j in js if not keys.clock[ib[j]]]
            if len(cells) >= MIN_VALUES:
                yield cells


def _claimed(keys: SupportKeys, i: int) -> AggregateName | None:
    """What a figure claims to be of its column: a range's lower or upper bound, the highest or the lowest (by
    the words of its own clause: "peaking at 52.9", not every figure of the sentence). A change from one value
    to another ("rose from 47.9 in 2000 to 52.5 in 2020") states two points, not a range."""
    context, partner = keys.contexts[i], int(keys.partner[i])
    if partner >= 0 and context.words & RANGE_WORDS and keys.values[partner] != keys.values[i]:
        points = bool(context.words & CHANGE_WORD_SIGNS.keys()) or not np.isnan(keys.year[[i, partner]]).all()
        if not points:
            return "min" if keys.values[i] < keys.values[partner] else "max"
    highest, lowest = bool(context.subject & HIGHEST_WORDS), bool(context.subject & LOWEST_WORDS)
    return None if highest == lowest else ("max" if highest else "min")


def extreme(keys: SupportKeys, i: int, tables: Tables, ib: np.ndarray, places: np.ndarray, rule: VerdictRule
            ) -> tuple[Basis, int] | None:
    """(what decided, the position in `ib` of the cell that holds the extreme) when figure i is a range's bound or
    called the highest or lowest and is not the minimum or maximum of the column it names over the rows it names
    (every row when it names none), in the tables of its value's places; None otherwise (or when it names no
    column of two values or more)."""
    claimed = _claimed(keys, i)
    if claimed is None:
        return None
    figure, value, tolerance = naming(keys, i, rule), float(keys.values[i]), float(keys.tolerance[i])
    missed: tuple[Basis, int] | None = None
    in_places = dict.fromkeys(keys.contexts[int(ib[p])].place[0] for p in places if keys.contexts[int(ib[p])].cell)
    for cells in _named_columns(keys, figure, tables, ib, in_places):
        values = keys.values[ib[cells]]
        k = int(values.argmax() if claimed == "max" else values.argmin())
        if abs(float(values[k]) - value) <= tolerance:
            return None
        if missed is None:
            shown = _shown(float(values[k]), keys, i)
            missed = Basis("aggregate", f"{claimed}({_column(keys, int(ib[cells[k]]))}) = {shown}"), cells[k]
    return missed


def _column(keys: SupportKeys, row: int) -> str:
    cell = keys.labels[row][4]
    if cell is None:
        return "?"
    return _INDEX.sub("[*]", cell.path) if cell.path else (cell.column or cell.row)


def _shown(result: float, keys: SupportKeys, i: int) -> str:
    """An aggregate's result at the decimals figure i is written with ("6.3 m/s": "6.3", not "6.300")."""
    return f"{result:,.{written_decimals(keys.labels[i][0])}f}"
