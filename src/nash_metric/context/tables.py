"""Tables in a source text read as tables: each numeric cell with its row label, column headers and section,
and the table's scale ("in thousands") from its caption or headers.

Four readers find the blocks (`table_markup`: markdown pipes and HTML; `table_delimited`: TSV/CSV;
`table_columns`: whitespace-aligned plain text). This module decides what the cells mean, the same way for
all four: which leading rows are headers, which columns are only `$`/`%` gaps, where a spanning header
applies, which rows are section labels. Data (JSON, Python repr, JSON Lines; `table_data`) is read first and
gives the same cells: a record is a row, its identifying fields the row label, a key path the column header.
Linear in the text; no model.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..vocabulary.en import SCALE_NAMES
from .table_columns import read_columns
from .table_data import DataBlock, data_cells, find_data
from .table_delimited import read_delimited
from .table_grid import (
    Format,
    Grid,
    RawCell,
    has_alnum,
    has_digit,
    is_nil,
    is_numeric,
    is_year,
    line_index,
    line_spans,
    norm,
)
from .table_markup import read_html, read_markdown

__all__ = ["Cell", "Format", "Table", "cell_at", "find_tables", "row_text", "scale_of"]


@dataclass(frozen=True)
class Cell:
    """A numeric body cell: `text[start:end]` is its stripped content."""

    start: int
    end: int
    row: int  # row index in the table body (0-based, header rows excluded)
    column: int  # column index in the table's logical grid (`$` / `%` gap columns removed)
    row_label: str  # the row's label cells joined ("" if none)
    headers: tuple[str, ...]  # the column's header lines, top to bottom
    section: str  # the nearest label-only row above ("Revenue:"), "" if none; in data, the record's list path
    path: str = ""  # in data, the value's key path ("forecast[2].main.temp"); "" in a table written as text
    # A row with no label of its own (its first column holds figures: a position, a draw): its cells of words
    # ("yendys nsw geoff ross"), which name it as a label would; "" when the row has a label.
    record: str = ""


@dataclass(frozen=True)
class Table:
    start: int
    end: int
    format: Format
    caption: str  # the line(s) just above the table (at most 2 lines, 200 characters), "" if none
    scale: float | None  # 1e3 / 1e6 / 1e9 stated in the caption or headers, None if not stated
    # Every body cell that holds a digit, in reading order; in the label columns (left of the first column with
    # a figure) only a cell that is a number ("2039" in an expiry-year column), not "Cash (1)".
    cells: tuple[Cell, ...]


_EMPTY = RawCell("", 0, 0)
_WORDS = re.compile(r"[^\W\d_]{2}")  # a cell of words holds a word of two letters ("nsw", "reichel pugh 55")
_CAPTION_CHARS = 200
_WORD = {word: scale for scale, word in SCALE_NAMES.items()}  # "thousand" -> 1e3, "million", "billion"
_SCALE_WORD = "|".join(SCALE_NAMES.values())
_SCALES = (
    (re.compile(r"(?:\bin|\(|[$€£¥]|\b(?:usd|eur|gbp|rmb|dollars|euros))\s*['’]?(?:[$€£¥]\s*)?"
                rf"({_SCALE_WORD})s?\b"
                rf"|\b({_SCALE_WORD})s of (?:[a-z.]+ )?(?:dollars|euros|pounds|yen|usd|eur|gbp|rmb)\b"),
     None),
    (re.compile(r"(?:[$€£¥]|\b(?:usd|eur|gbp|rmb|hk))\s?['’]?000s?\b|['’]000s?\b|\b000s\b|\(000\)"), 1e3),
    (re.compile(r"(?:[$€£¥]|\b(?:usd|eur|gbp|rmb))\s?(?:m|mn|mm)\b|\bin\s+mm\b"), 1e6),
    (re.compile(r"(?:[$€£¥]|\b(?:usd|eur|gbp|rmb))\s?(?:bn|b)\b"), 1e9),
)


def scale_of(text: str) -> float | None:
    """The scale a caption or header states ("$ in millions", "(Thousands)", "£'000", "€m"), None if none;
    the earliest statement wins. "except per share data" does not cancel it (the verdict decides)."""
    lowered = text.lower()
    found = []
    for pattern, scale in _SCALES:
        match = pattern.search(lowered)
        if match:
            found.append((match.start(), scale or _WORD[match.group(1) or match.group(2)]))
    return min(found)[1] if found else None


def _header_count(rows: Sequence[tuple[RawCell, ...]], marked: int) -> int:
    """The rows the markup marks, then the leading rows with no figure but years, up to the last one with
    header text or a unit ("$", "%") beyond the first cell (label-only rows below it are the body's first
    sections)."""
    count = marked
    for k in range(marked, len(rows)):
        if any(is_numeric(c.text) and not is_year(c.text) for c in rows[k]):
            break
        if any(c.text and not is_nil(c.text) for c in rows[k][1:]):
            count = k + 1
    return count


def _expand(row: tuple[RawCell, ...], header: bool) -> tuple[RawCell, ...]:
    """An HTML colspan as that many columns: a header's text over each, a body cell then empty cells."""
    if all(cell.span == 1 for cell in row):
        return row
    return tuple(part for cell in row for part in (cell, *[cell if header else _EMPTY] * (cell.span - 1)))


def _logical(rows: Sequence[tuple[RawCell, ...]], heads: int) -> list[tuple[RawCell, ...]]:
    """Every row on the same logical columns: the columns whose body cells hold only `$`, `%`, dashes or
    nothing are gaps (`| Fixed Price | $ | 1,452.4 | $ | 1,146.2 |`), dropped. Rows as wide as the body keep
    the other columns; a narrower row (`| | 2019 | 2018 |`) is aligned to the right."""
    body = rows[heads:] or rows
    width = max(Counter(len(r) for r in body).items(), key=lambda item: (item[1], item[0]))[0]
    columns = zip(*(r for r in body if len(r) == width))
    keep = [j for j, column in enumerate(columns) if any(has_alnum(c.text) for c in column)] or list(range(width))
    return [_map_row(row, width, keep, k < heads) for k, row in enumerate(rows)]


def _map_row(row: tuple[RawCell, ...], width: int, keep: Sequence[int], header: bool) -> tuple[RawCell, ...]:
    n = len(keep)
    if len(row) == width == n:
        return row
    if len(row) >= width and not header:  # a body row's gap columns hold no words or figures by definition
        return tuple(row[j] for j in keep)
    if len(row) >= width:
        # Header text over a gap column ("2019" above the `$`) goes to the next kept column, if that is empty.
        moved: dict[int, RawCell] = {}
        kept = set(keep)
        for j in range(width):
            if j not in kept and has_alnum(row[j].text):
                moved.setdefault(next((k for k, kj in enumerate(keep) if kj > j), n - 1), row[j])
        return tuple(row[j] if row[j].text or k not in moved else moved[k] for k, j in enumerate(keep))
    if len(row) == n:
        return row
    if header or n == 1:
        return tuple([*[_EMPTY] * n, *row][-n:])
    return (row[0], *[*[_EMPTY] * n, *row[1:]][-(n - 1):])


def _first_data_column(body: Sequence[tuple[RawCell, ...]], n: int) -> int:
    """The first column with a figure (a year is a label); the columns left of it hold the row labels."""
    for test in (lambda t: is_numeric(t) and not is_year(t), has_digit):
        found = next((c for c in range(n) if any(test(row[c].text) for row in body)), None)
        if found is not None:
            return found
    return min(1, n - 1)


def _spread(texts: Sequence[str], first: int) -> list[str]:
    """A header cell above others spans the empty cells to its right; cells left of the first one take it
    too when it stands centred over its span ("Years Ended September 30," over three years)."""
    marks = [c for c in range(first, len(texts)) if texts[c]]
    if not marks:
        return list(texts)
    bounds = [*marks[1:], len(texts)]
    owner = {c: texts[a] for a, b in zip(marks, bounds) for c in range(a, b)}
    if marks[0] - first < bounds[0] - marks[0]:
        owner.update((c, texts[marks[0]]) for c in range(first, marks[0]))
    return [owner.get(c, text) for c, text in enumerate(texts)]


def _column_headers(heads: Sequence[tuple[RawCell, ...]], first: int, n: int,
                    spread: bool) -> list[tuple[str, ...]]:
    lines = [[c.text for c in row] for row in heads]
    if spread:  # the bottom header row names single columns; only the rows above it span
        lines = [_spread(line, first) if k < len(lines) - 1 else line for k, line in enumerate(lines)]
    return [tuple(line[c] for line in lines if line[c]) for c in range(n)]


def _cells(body: Sequence[tuple[RawCell, ...]], first: int, headers: Sequence[tuple[str, ...]]) -> tuple[Cell, ...]:
    cells: list[Cell] = []
    section = ""
    for r, row in enumerate(body):
        label = norm(" ".join(c.text for c in row[:first]))
        data = row[first:]
        if label and not any(has_alnum(c.text) or is_nil(c.text) for c in data):
            section = label
            continue
        words = (c.text for c in data if _WORDS.search(c.text) and not is_numeric(c.text))
        record = "" if label else norm(" ".join(words))
        cells.extend(Cell(c.start, c.end, r, k, label, headers[k], section, record=record) for k, c in enumerate(row)
                     if (k >= first and has_digit(c.text)) or (k < first and is_numeric(c.text)))
    return tuple(cells)


def _caption(text: str, lines: Sequence[tuple[int, int]], taken: Sequence[bool], start: int) -> str:
    """The (at most two) lines just above the table, one blank line between allowed; markup stripped."""
    k = line_index(lines, start)
    picked = [text[lines[k][0]:start]] if text[lines[k][0]:start].strip() else []
    k, blanks = k - 1, 0
    while k >= 0 and len(picked) < 2 and not taken[k]:
        line = text[lines[k][0]:lines[k][1]]
        if line.strip():
            picked.insert(0, line)
        elif picked or blanks:
            break
        else:
            blanks += 1
        k -= 1
    caption = norm(re.sub(r"<[^>]*>|[#*_|`]", " ", " ".join(picked)))
    return caption if len(caption) <= _CAPTION_CHARS else caption[-_CAPTION_CHARS:].partition(" ")[2]


def _table(text: str, grid: Grid, lines: Sequence[tuple[int, int]], taken: Sequence[bool]) -> Table:
    caption = _caption(text, lines, taken, grid.start)
    if not any(grid.rows):  # `<table></table>`, a block of rule lines
        return Table(grid.start, grid.end, grid.format, caption, scale_of(f"{grid.title} {caption}"), ())
    heads = _header_count(grid.rows, grid.header_rows)
    rows = [_expand(row, k < heads) for k, row in enumerate(grid.rows)] if grid.format == "html" else grid.rows
    logical = _logical(rows, heads)
    n = len(logical[0])
    body = logical[heads:]
    first = _first_data_column(body, n)
    headers = _column_headers(logical[:heads], first, n, grid.spread)
    lead = next((r for r, row in enumerate(body) if any(is_numeric(c.text) for c in row)), len(body))
    stated = " ".join(c.text for row in [*grid.rows[:heads], *body[:lead]] for c in row)
    scale = scale_of(f"{stated} {grid.title}")
    return Table(grid.start, grid.end, grid.format, caption, scale if scale else scale_of(caption),
                 _cells(body, first, headers))


def _data_table(text: str, block: DataBlock, lines: Sequence[tuple[int, int]], taken: Sequence[bool]) -> Table:
    """A data block as a table: a record a row, a key path below it a column (numbered in order of appearance)."""
    columns: dict[tuple[str, str], int] = {}
    cells = tuple(Cell(c.start, c.end, c.record, columns.setdefault((c.section, c.column), len(columns)), c.label,
                       (c.column,) if c.column else (), c.section, c.path) for c in data_cells(block))
    return Table(block.start, block.end, block.format, _caption(text, lines, taken, block.start), None, cells)


def _taken(lines: Sequence[tuple[int, int]], grids: Sequence[Grid | DataBlock], taken: bytearray) -> bytearray:
    marks = bytearray(taken)
    for grid in grids:
        a, b = line_index(lines, grid.start), line_index(lines, grid.end)
        marks[a:b + 1] = b"\x01" * (b + 1 - a)
    return marks


def find_tables(text: str) -> tuple[Table, ...]:
    """Every table in `text` (HTML, markdown pipes, TSV/CSV, aligned plain-text columns), in text order.

    A reader sees only lines no earlier reader took, so a pipe line inside an HTML table is not read twice.
    """
    if not isinstance(text, str):
        raise TypeError(f"find_tables expects the source text as a str, got {type(text).__name__}")
    lines = line_spans(text)
    data = find_data(text)
    taken = _taken(lines, data, bytearray(len(lines)))
    data_tables = [_data_table(text, block, lines, [bool(t) for t in taken]) for block in data]
    grids = [g for g in read_html(text) if not any(b.start <= g.start < b.end for b in data)]
    taken = _taken(lines, grids, taken)
    for reader in (read_markdown, read_delimited, read_columns):
        found = reader(text, lines, [not t for t in taken])
        grids.extend(found)
        taken = _taken(lines, found, taken)
    marks = [bool(t) for t in taken]
    return tuple(sorted([*data_tables, *(_table(text, grid, lines, marks) for grid in grids)], key=lambda t: t.start))


def cell_at(tables: Sequence[Table], start: int, end: int) -> tuple[Table, Cell] | None:
    """The table and cell whose span contains [start, end), or None; `tables` as `find_tables` returns them
    (in text order, not overlapping), so a lookup is two binary searches."""
    if start > end:
        raise ValueError(f"cell_at: span start {start} is after its end {end}")
    k = bisect_right(tables, start, key=lambda t: t.start) - 1
    if k < 0 or end > tables[k].end:
        return None
    cells = tables[k].cells
    i = bisect_right(cells, start, key=lambda c: c.start) - 1
    if i >= 0 and cells[i].start <= start and end <= cells[i].end:
        return tables[k], cells[i]
    return None


def row_text(cell: Cell) -> str:
    """A cell's context as words, for a verdict to compare with a claim: section, row label, headers."""
    return norm(f"{cell.section} {cell.row_label} {' '.join(cell.headers)}")
