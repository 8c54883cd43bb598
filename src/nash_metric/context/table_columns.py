"""Whitespace-aligned columns of a plain-text filing: a label on the left, numbers on the right.

Fields are separated by two or more spaces. The numbers' character columns, merged where they overlap, are
the table's columns; the header lines above (years, "Years Ended September 30,") go to the columns they
cover. Prose has no aligned numbers, so a block needs two number lines sharing a column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .table_grid import Grid, RawCell, has_alnum, is_nil, is_numeric, is_year

_FIELD = re.compile(r"\S+(?: \S+)*")
_RULE = re.compile(r"[\s\-=_—]*[-=_—]{3,}[\s\-=_—]*")
_BULLET = re.compile(r"(?:[-*•·▪]|\d{1,2}[.)])\s")
_STUBS = frozenset({"$", "€", "£", "¥", "US$", "%"})
_MAX_HEADER_LINES = 4

Kind = Literal["blank", "rule", "data", "bullet", "years", "numbers", "label", "other"]


@dataclass(frozen=True)
class _Line:
    kind: Kind
    label: tuple[RawCell, ...]  # label fields (absolute spans)
    numbers: tuple[RawCell, ...]  # number (or dash) fields, `start - line start` is the character column
    fields: tuple[RawCell, ...]  # every field but lone `$` / `%`


def _read_line(text: str, start: int, end: int) -> _Line:
    line = text[start:end]
    if not line.strip() or "\t" in line:
        return _Line("blank" if not line.strip() else "other", (), (), ())
    if _RULE.fullmatch(line):
        return _Line("rule", (), (), ())
    if len(line.strip()) > 100 and "  " not in line.strip():  # a paragraph: one long field, no table line
        return _Line("other", (), (), ())
    fields = tuple(RawCell(m.group(), start + m.start(), start + m.end()) for m in _FIELD.finditer(line))
    kept = tuple(f for f in fields if f.text not in _STUBS)  # a lone `$` or `%` belongs to the number beside it
    first = next((k for k, f in enumerate(kept) if is_numeric(f.text) or is_nil(f.text)), len(kept))
    if first == 0 and len(kept) >= 2 and is_year(kept[0].text) and not any(is_year(f.text) for f in kept[1:]):
        first = 1  # "2021   $138   $6": a year that labels a row of a maturity table
    label, numbers = kept[:first], kept[first:]
    figures = bool(numbers) and all(is_numeric(f.text) or is_nil(f.text) for f in numbers)
    if figures and any(is_year(f.text) for f in numbers) and all(is_year(f.text) or is_nil(f.text) for f in numbers):
        return _Line("years", label, numbers, fields)
    if figures and label and all(has_alnum(f.text) for f in label):
        # A bulleted line ("- Hereof debt  -8.7") may go on a table but not open one: a list is no table.
        return _Line("bullet" if _BULLET.match(line.lstrip()) else "data", label, numbers, fields)
    if figures and not label and any(is_numeric(f.text) for f in numbers):
        return _Line("numbers", (), numbers, fields)
    short = len(line.strip()) <= (100 if line.rstrip().endswith(":") else 60)
    kind: Kind = "label" if kept and short and not any(is_numeric(f.text) for f in kept) else "other"
    return _Line(kind, kept, (), fields)


def _block_end(kinds: Sequence[Kind], i: int) -> int:
    """The last number line of the block that opens with the data line `i` (rules, labels, single blanks pass;
    a line of years opens the next table)."""
    last, j = i, i + 1
    while j < len(kinds):
        if kinds[j] in ("data", "bullet", "numbers"):
            last = j
        elif not (kinds[j] in ("rule", "label") or (kinds[j] == "blank" and kinds[j - 1] != "blank")):
            break
        j += 1
    return last


def _columns(read: Sequence[tuple[int, _Line]]) -> list[tuple[int, int]] | None:
    """The numbers' character columns (from each line's start offset), merged where they overlap; None if no
    two lines share a column or one line has two numbers in one column (not aligned)."""
    spans = sorted((f.start - offset, f.end - offset, k) for k, (offset, line) in enumerate(read)
                   for f in line.numbers)
    merged: list[list[int]] = []
    owners: list[list[int]] = []
    for a, b, k in spans:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
            owners[-1].append(k)
        else:
            merged.append([a, b])
            owners.append([k])
    if all(len(set(o)) < 2 for o in owners) or any(len(set(o)) < len(o) for o in owners):
        return None
    return [(a, b) for a, b in merged]


def _claim(a: int, b: int, column: tuple[int, int]) -> tuple[int, float] | None:
    """How strongly a header field at character columns [a, b) names a column (higher is stronger): by its
    overlap; else when the field, widened by half its width on each side, covers the column's centre (a centred
    "Years Ended September 30," over three years); else when it stands within 4 characters. None: it does not."""
    ca, cb = column
    overlap = min(b, cb) - max(a, ca)
    if overlap > 0:
        return 2, overlap
    distance = abs(a + b - ca - cb) / 2
    if a - (b - a) / 2 <= (ca + cb) / 2 <= b + (b - a) / 2:
        return 1, -distance
    return (0, -distance) if overlap > -4 else None


def _header_line(line: _Line, offset: int, columns: Sequence[tuple[int, int]], label_start: int) -> bool:
    """Fields over the number columns (none a figure other than a year), any others left of them."""
    area = [f for f in line.fields if f.end - offset > columns[0][0]]
    return bool(area) and all(f.start - offset > label_start and f.end - offset <= columns[-1][1] + 4
                              and (not is_numeric(f.text) or is_year(f.text)) and not is_nil(f.text) for f in area)


def _header_above(text: str, lines: Sequence[tuple[int, int]], read: Sequence[_Line], free: Sequence[bool],
                  top: int, columns: Sequence[tuple[int, int]], label_start: int) -> tuple[list[int], list[int]]:
    """The header lines above line `top` (top to bottom; a blank line ends them), and the label lines between
    them and `top` (sections of the first rows; without a header above they are the caption's)."""
    headers: list[int] = []
    sections: list[int] = []
    k = top - 1
    while k >= 0 and free[k] and len(headers) < _MAX_HEADER_LINES:
        line = read[k]
        if line.kind == "rule" or (line.kind == "blank" and not headers and read[k + 1].kind != "blank"):
            k -= 1
            continue
        if line.kind not in ("data", "bullet") and _header_line(line, lines[k][0], columns, label_start):
            headers.insert(0, k)
        elif line.kind == "label" and not headers and read[k + 1].kind != "blank":
            sections.insert(0, k)
        else:
            break
        k -= 1
    return headers, sections if headers else []


def _header_row(line: _Line, offset: int, columns: Sequence[tuple[int, int]]) -> tuple[RawCell, ...]:
    """Column 0: the fields left of the number columns; each column: the field that names it most strongly."""
    stub = [f for f in line.fields if f.end - offset <= columns[0][0]]
    area = [f for f in line.fields if f.end - offset > columns[0][0]]
    first = RawCell(" ".join(f.text for f in stub), stub[0].start, stub[-1].end) if stub else RawCell("", 0, 0)
    cells = [first]
    for column in columns:
        claims = [(claim, f) for f in area if (claim := _claim(f.start - offset, f.end - offset, column))]
        cells.append(max(claims, key=lambda item: item[0])[1] if claims else RawCell("", 0, 0))
    return tuple(cells)


def _body_row(line: _Line, offset: int, columns: Sequence[tuple[int, int]]) -> tuple[RawCell, ...]:
    label = RawCell(" ".join(f.text for f in line.label), line.label[0].start, line.label[-1].end) \
        if line.label else RawCell("", offset, offset)
    cells = [RawCell("", offset, offset)] * len(columns)
    for field in line.numbers:
        a, b = field.start - offset, field.end - offset
        column = next(c for c, (ca, cb) in enumerate(columns) if a < cb and b > ca)
        cells = [*cells[:column], field, *cells[column + 1:]]
    return (label, *cells)


def read_columns(text: str, lines: Sequence[tuple[int, int]], free: Sequence[bool]) -> list[Grid]:
    """Every block of >= 2 aligned number lines (the first with a label), with its header lines above."""
    read = [_read_line(text, *span) if free[k] else _Line("other", (), (), ()) for k, span in enumerate(lines)]
    kinds = [line.kind for line in read]
    grids, i = [], 0
    while i < len(lines):
        end = _block_end(kinds, i) if kinds[i] == "data" else i
        body = [k for k in range(i, end + 1) if kinds[k] in ("data", "bullet", "numbers", "label")]
        figures = [(lines[k][0], read[k]) for k in body if kinds[k] != "label"]
        columns = _columns(figures) if len(figures) >= 2 else None
        if columns is None:
            i = end + 1
            continue
        label_start = min(read[k].label[0].start - lines[k][0] for k in body if read[k].label)
        headers, sections = _header_above(text, lines, read, free, i, columns, label_start)
        rows = [_header_row(read[k], lines[k][0], columns) for k in headers]
        rows += [_body_row(read[k], lines[k][0], columns) for k in [*sections, *body]]
        first = min([*headers, *sections, i])
        grids.append(Grid("columns", lines[first][0], lines[end][1], tuple(rows), len(headers), spread=False))
        i = end + 1
    return grids
