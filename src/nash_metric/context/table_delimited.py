"""Delimited blocks: runs of TSV (tab) or CSV (comma, quoted) lines with one field count.

Prose and aligned columns have commas too ("In 2019, revenue rose", "Americas   $18,410"), so a CSV line
must look like data: short fields without runs of spaces, the same spacing after every comma, no comma that
is a thousands separator after words, no sentence end; and a block must hold a number after its first field.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from itertools import pairwise

from .table_grid import Grid, RawCell, is_nil, is_numeric, line_spans, norm

_SENTENCE_END = re.compile(r"[A-Za-z)][.:;!?]$")
_GROUP_START = re.compile(r"(?:^|[\s$€£¥(])\d{1,3}$")  # "were 1" / "Americas $18" before ",234": a thousands group
_GROUP_REST = re.compile(r"\d{3}(?!\d)")


def _stripped_cell(text: str, start: int, end: int) -> RawCell:
    raw = text[start:end]
    lead = len(raw) - len(raw.lstrip())
    return RawCell(norm(raw), start + lead, start + lead + len(raw.strip()))


def _tsv_cells(text: str, start: int, end: int) -> tuple[RawCell, ...] | None:
    line = text[start:end]
    if "\t" not in line:
        return None
    bounds = [-1, *(m.start() for m in re.finditer("\t", line)), len(line)]
    return tuple(_stripped_cell(text, start + a + 1, start + b) for a, b in pairwise(bounds))


def _csv_spans(line: str) -> tuple[list[tuple[int, int]], list[bool]]:
    """Each field's content span (inside its quotes) and, per comma, whether a space follows it."""
    spans, spaced, i = [], [], 0
    while True:
        i += len(line[i:]) - len(line[i:].lstrip(" "))
        if line.startswith('"', i):
            j = i + 1
            while j < len(line) and (line[j] != '"' or line.startswith('""', j)):
                j += 2 if line.startswith('""', j) else 1
            spans.append((i + 1, j))
            comma = line.find(",", j)
        else:
            comma = line.find(",", i)
            spans.append((i, len(line) if comma < 0 else comma))
        if comma < 0:
            return spans, spaced
        spaced.append(line.startswith(" ", comma + 1))
        i = comma + 1


def _csv_cells(text: str, start: int, end: int) -> tuple[RawCell, ...] | None:
    line = text[start:end]
    if "," not in line or "\t" in line or _SENTENCE_END.search(line.rstrip()):
        return None
    values = next(csv.reader([line], skipinitialspace=True), [])
    spans, spaced = _csv_spans(line)
    if len(values) != len(spans) or len(set(spaced)) > 1 or any("  " in line[a:b] for a, b in spans):
        return None
    if any(_GROUP_START.search(line[a:b]) and not is_numeric(line[a:b]) and _GROUP_REST.match(line, b + 1)
           for a, b in spans[:-1]):
        return None
    words = [len(v.split()) for v in values]
    if words[0] > 12 or any(w > 6 for w in words[1:]):
        return None
    cells = [_stripped_cell(text, start + a, start + b) for a, b in spans]
    return tuple(RawCell(norm(v), c.start, c.end) for v, c in zip(values, cells))


def _looks_like_data(rows: Sequence[tuple[RawCell, ...]]) -> bool:
    """A number after the first field somewhere; every row below the first holds a number, a dash or nothing."""
    numeric = [any(is_numeric(c.text) for c in row[1:]) for row in rows]
    plain = [all(not c.text or is_numeric(c.text) or is_nil(c.text) for c in row[1:]) for row in rows]
    return any(numeric) and sum(n or p for n, p in zip(numeric[1:], plain[1:])) * 2 >= len(rows) - 1


def read_delimited(text: str, lines: Sequence[tuple[int, int]], free: Sequence[bool]) -> list[Grid]:
    """Every run of >= 2 consecutive TSV (or else CSV) lines with the same number (>= 2) of fields."""
    grids = []
    for cut in (_tsv_cells, _csv_cells):
        rows = [cut(text, *span) if free[k] else None for k, span in enumerate(lines)]
        i = 0
        while i < len(lines):
            j = i + 1
            while rows[i] is not None and j < len(lines) and rows[j] is not None and len(rows[j]) == len(rows[i]):
                j += 1
            block = rows[i:j]
            if rows[i] is not None and len(rows[i]) >= 2 and j - i >= 2 and _looks_like_data(block):
                grids.append(Grid("delimited", lines[i][0], lines[j - 1][1], tuple(block), 0, spread=True))
            i = j
    return grids


def fields_apart(text: str) -> str:
    """`text` with each comma that separates two fields of a CSV block replaced by a tab (same length, so every
    span still indexes `text`): the number reader then reads "North,812,790" as 812 and 790, not 812,790, and
    "Item,2023,2022" as two years. Quoted fields ("5,400") keep their commas. Lines with pipes or tabs are left
    to their own readers."""
    if "," not in text or "\n" not in text:
        return text
    lines = line_spans(text)
    free = [not any(ch in text[a:b] for ch in "|\t") for a, b in lines]
    breaks = [comma for grid in read_delimited(text, lines, free) for row in grid.rows
              for left, right in pairwise(row) for comma in range(left.end, right.start) if text[comma] == ","]
    if not breaks:
        return text
    chars = list(text)
    for comma in breaks:
        chars[comma] = "\t"
    return "".join(chars)
