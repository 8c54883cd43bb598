"""Tables written in markup: markdown pipe tables and HTML `<table>` blocks, cut into rows of spanned cells."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import unescape
from html.parser import HTMLParser

from .table_grid import Grid, RawCell, norm

_PIPE = re.compile(r"(?<!\\)\|")
_RULE_LINE = re.compile(r"\s*\|?(?:\s*:?-+:?\s*\|)+\s*(?::?-+:?\s*)?")  # `|---|:--:|` or `--- | ---`


def _pipe_cells(text: str, start: int, end: int) -> tuple[RawCell, ...]:
    """The cells of one `| a | b |` line; a leading or trailing pipe opens or closes the row, no empty cell.
    An escaped pipe (`\\|`) stays in its cell."""
    line = text[start:end]
    parts = line.split("|") if "\\|" not in line else _PIPE.split(line)
    cells = []
    pos = start
    for part in parts:
        stripped = part.strip()
        at = pos + len(part) - len(part.lstrip()) if stripped else pos
        cells.append(RawCell(stripped if "  " not in stripped else norm(stripped), at, at + len(stripped)))
        pos += len(part) + 1
    first = 1 if not cells[0].text else 0
    return tuple(cells[first:-1] if not cells[-1].text else cells[first:])


def _pipe_line(text: str, span: tuple[int, int], loose: bool) -> bool:
    """A table line: starts with a pipe and holds two; `loose` (a table whose rule line was seen) takes any pipe."""
    line = text[span[0]:span[1]].strip()
    return line.count("|") >= (1 if loose else 2) and (loose or line.startswith("|"))


def read_markdown(text: str, lines: Sequence[tuple[int, int]], free: Sequence[bool]) -> list[Grid]:
    """Every block of >= 2 consecutive pipe lines (or lines with a pipe under a header with a `|---|` rule)."""
    grids: list[Grid] = []
    i = 0
    while i < len(lines):
        if not free[i] or "|" not in text[lines[i][0]:lines[i][1]]:
            i += 1
            continue
        loose = i + 1 < len(lines) and free[i + 1] and _RULE_LINE.fullmatch(text, *lines[i + 1]) is not None
        j = i
        while j < len(lines) and free[j] and _pipe_line(text, lines[j], loose):
            j += 1
        if j - i >= 2:
            grids.append(_markdown_grid(text, lines[i:j]))
        i = max(j, i + 1)
    return grids


def _markdown_grid(text: str, block: Sequence[tuple[int, int]]) -> Grid:
    rows, header_rows = [], 0
    for span in block:
        if _RULE_LINE.fullmatch(text, *span):
            header_rows = header_rows or len(rows)
        elif cells := _pipe_cells(text, *span):
            rows.append(cells)
    return Grid("markdown", block[0][0], block[-1][1], tuple(rows), header_rows, spread=True)


class _HtmlTable(HTMLParser):
    """One `<table>` block: rows of cells whose spans point at their text in the original string.

    Character references are left unconverted so that positions stay those of the source; a nested table's
    text flows into the enclosing cell.
    """

    def __init__(self, block: str, offset: int) -> None:
        super().__init__(convert_charrefs=False)
        self._block, self._offset = block, offset
        self._line_starts = [0, *(m.end() for m in re.finditer("\n", block))]
        self.rows: list[list[RawCell]] = []
        self.head: list[bool] = []  # per row: inside <thead>, or only <th> cells
        self.caption: list[str] = []
        self._depth, self._in_head, self._in_caption = 0, False, False
        self._cell: list | None = None  # [parts, first, last, is_th, colspan]

    def _pos(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def _close_cell(self) -> None:
        if self._cell is None:
            return
        parts, first, last, is_th, colspan = self._cell
        self._cell = None
        if not self.rows:
            self._open_row()
        text = norm("".join(parts))
        self.rows[-1].append(RawCell(text, self._offset + max(first, 0), self._offset + max(last, first, 0), colspan))
        self.head[-1] = self.head[-1] and (is_th or not text)

    def _open_row(self) -> None:
        self.rows.append([])
        self.head.append(True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
        if self._depth != 1:
            return
        if tag == "tr":
            self._close_cell()
            self._open_row()
        elif tag in ("td", "th"):
            self._close_cell()
            span = next((v for k, v in attrs if k == "colspan"), None) or "1"
            colspan = min(int(span), 50) if span.strip().isdigit() and int(span) > 0 else 1
            self._cell = [[], -1, -1, tag == "th" or self._in_head, colspan]
        elif tag in ("thead", "tbody", "tfoot"):
            self._in_head = tag == "thead"
        elif tag == "caption":
            self._in_caption = True
        elif tag == "br":
            self._text(" ", self._pos())

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._depth -= 1
        if (self._depth == 0 and tag == "table") or (self._depth == 1 and tag in ("td", "th", "tr")):
            self._close_cell()
        elif self._depth == 1 and tag == "caption":
            self._in_caption = False
        elif self._depth == 1 and tag == "thead":
            self._in_head = False

    def handle_data(self, data: str) -> None:
        self._text(data, self._pos())

    def handle_entityref(self, name: str) -> None:
        self._reference(f"&{name}")

    def handle_charref(self, name: str) -> None:
        self._reference(f"&#{name}")

    def _reference(self, raw: str) -> None:
        pos = self._pos()
        raw += ";" if self._block.startswith(";", pos + len(raw)) else ""
        self._text(unescape(raw), pos, len(raw))

    def _text(self, data: str, pos: int, raw_length: int | None = None) -> None:
        """Add text to the open cell (or caption); a reference's `raw_length` is its length in the source."""
        if self._in_caption:
            self.caption.append(data)
        if self._cell is None:
            return
        self._cell[0].append(data)
        stripped = data.strip()
        if stripped:
            lead = 0 if raw_length else len(data) - len(data.lstrip())
            self._cell[1] = pos + lead if self._cell[1] < 0 else self._cell[1]
            self._cell[2] = pos + (raw_length or lead + len(stripped))


_TABLE_TAG = re.compile(r"<(/?)table\b[^>]*>", re.IGNORECASE)


def html_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of every outermost `<table>...</table>` (an unclosed one runs to the end of the text)."""
    blocks, depth, start = [], 0, 0
    for match in _TABLE_TAG.finditer(text):
        if not match.group(1):
            start = match.start() if depth == 0 else start
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                blocks.append((start, match.end()))
    if depth:
        blocks.append((start, len(text)))
    return blocks


def read_html(text: str) -> list[Grid]:
    grids = []
    for start, end in html_blocks(text) if "<table" in text.lower() else ():
        parser = _HtmlTable(text[start:end], start)
        parser.feed(text[start:end])
        parser.close()
        parser._close_cell()
        rows = [tuple(row) for row in parser.rows if row]
        heads = [head for row, head in zip(parser.rows, parser.head) if row]
        leading = next((k for k, head in enumerate(heads) if not head or not any(c.text for c in rows[k])),
                       len(rows))
        grids.append(Grid("html", start, end, tuple(rows), leading, spread=False, title=norm("".join(parser.caption))))
    return grids
